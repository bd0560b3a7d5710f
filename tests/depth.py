"""How deep the exhaustive random tests go (seeds, history lengths).

The default is the quick depth, so the core suite stays under a minute on the 2-core
development machine; CI (CI=true) and STRATEGO_DEEP_TESTS=1 run the full depth, the
way a property-testing library keeps a small profile for development and a large one
for CI. Every test still runs at both depths; only how many random games it plays
changes.
"""
from __future__ import annotations

import os

# STRATEGO_DEEP_TESTS=0 keeps the quick depth even in CI (.ci/run's sanitizer pass: the
# full depth ran in its first pass, and under ASan it would cost minutes).
DEEP = os.environ.get("STRATEGO_DEEP_TESTS", "1" if os.environ.get("CI") == "true" else "0") == "1"


def depth(quick: int, deep: int) -> int:
    """`deep` in CI or with STRATEGO_DEEP_TESTS=1 (unless STRATEGO_DEEP_TESTS=0), else `quick`."""
    return deep if DEEP else quick
