"""Human setups from the Gravon server, for `setup="human"`.

The files in `stratego/data/` are copies of `shared/data/setups/` (see the README and
its notice there: collected by JBLanier/stratego_env, MIT License). One setup a line,
40 letters in Gravon's red letters ('A' empty, 'B' bomb .. 'M' flag), ten a row. The
first ten letters are the front row (the one touching the middle of the board), the
last ten the back row: 88% of the flags stand in the last ten. Each side's setup is
laid with its back row on its own back row, columns as written from the owner's side
(for blue the board is turned 180 degrees, as the owner sees it).
"""
from __future__ import annotations

from functools import cache
from importlib import resources

import numpy as np

from .variants import Variant

#: Files of human setups, by piece set (counts in the engine's type order).
_FILES = {
    (6, 1, 8, 5, 4, 4, 4, 3, 2, 1, 1, 1): "classic_human.txt",
    (1, 1, 2, 1, 0, 0, 0, 0, 0, 1, 1, 1): "barrage_human.txt",
}


@cache
def _load(name: str) -> np.ndarray:
    text = resources.files("stratego").joinpath("data", name).read_text("ascii")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    table = np.frombuffer("".join(lines).encode("ascii"), dtype=np.uint8).reshape(len(lines), 40)
    table.setflags(write=False)
    return table


def human_setups(variant: Variant) -> np.ndarray:
    """The human setups for the variant's piece set, shape (K, 40) uint8 letters."""
    name = _FILES.get(tuple(variant.piece_counts))
    if name is None:
        raise ValueError(f"no human setups for the pieces of variant {variant.name!r}: "
                         f"they exist for the classic (40) and barrage (8) piece sets")
    if variant.settings.get("setup_rows", 4) != 4:
        raise ValueError(f"human setups fill four rows; variant {variant.name!r} sets up in "
                         f"{variant.settings['setup_rows']}")
    return _load(name)
