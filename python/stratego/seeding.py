"""Seeds: the one place that turns a user's seed (or None) into the int the engine takes."""
from __future__ import annotations

import secrets

import numpy as np


def resolve_seed(seed) -> int:
    """An int seed as given (NumPy integers too), or a fresh random one for None."""
    if seed is None:
        return secrets.randbits(64)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int or None, got {type(seed).__name__}")
    return int(seed)
