"""Seeds: the one place that turns a user's seed (or None) into the int the engine takes."""
from __future__ import annotations

import operator
import secrets


def resolve_seed(seed) -> int:
    """An int seed as given (any integer with __index__: NumPy integers too), or a fresh random one for None."""
    if seed is None:
        return secrets.randbits(64)
    if isinstance(seed, bool) or not hasattr(type(seed), "__index__"):
        raise TypeError(f"seed must be an int or None, got {type(seed).__name__}")
    return operator.index(seed)
