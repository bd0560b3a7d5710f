"""Seeds: the one place that turns a user's seed (or None) into the int the engine takes.

The rule, for both games and every call that takes a seed (docs/api.md "Seeds"): an
integer (NumPy's too) in [0, 2**64), the engine's 64-bit seed as it is; a bool, a float,
a str is a TypeError, an integer outside the range a ValueError. Nothing wraps, so two
different seeds never play the same games by accident. The check is C's (parse_seed,
which the batches use too), asked through _core.check_seed.
"""
from __future__ import annotations

import secrets

from .. import _core


def check_seed(seed) -> int:
    """The seed as a Python int, by the rule above."""
    return _core.check_seed(seed)


def resolve_seed(seed) -> int:
    """check_seed's int for a seed, or a fresh random one for None."""
    if seed is None:
        return secrets.randbits(64)
    return _core.check_seed(seed)
