"""Text boards for people: the full board, or what one player may see."""
from __future__ import annotations

from . import _core
from .notation import COLUMNS, RANK_SYMBOLS, check_numbering

# Symbols by type (Gravon order): bomb, spy, scout..marshal as ranks, flag.
SYMBOLS = RANK_SYMBOLS["new"]
PIECE_MOVED: int = _core.PIECE_MOVED  # public flag: the piece has moved


def render_cells(cells: bytes, view_cells: bytes | None = None, perspective: int | None = None,
                 numbering: str = "new") -> str:
    """A board as text. `cells` (3 bytes a square: owner, type, flags; owner
    _core.CELLS_EMPTY or _core.CELLS_LAKE without a piece) draws the full board, red at the bottom. For one player's view pass that
    player's `view_cells` (GameState.view_cells: the same view code and public flags its
    observation is built from, so this shows exactly what the player knows) and
    `perspective` 0 or 1: own back row at the bottom, own pieces in full, the opponent's
    only where identified; "?" an unknown unmoved piece, "?m" one that has moved (so not
    a bomb or the flag). Ranks in the "new" numbering (Spy S, Scout 2 .. Marshal 10) or
    the "old" (Marshal 1 .. Scout 9).
    """
    if perspective not in (None, 0, 1) or isinstance(perspective, bool):
        raise ValueError(f"perspective must be None, 0 (red) or 1 (blue), got {perspective!r}")
    symbols = RANK_SYMBOLS[check_numbering(numbering)]
    bottom_is_blue = perspective == 1
    rows = range(10) if bottom_is_blue else range(9, -1, -1)
    cols = range(9, -1, -1) if bottom_is_blue else range(10)
    header = "    " + "".join(f"{COLUMNS[c]:^4}" for c in cols)
    lines = [header]
    for r in rows:
        parts = []
        for c in cols:
            sq = r * 10 + c
            if perspective is None:
                text = _full_token(cells[3 * sq], cells[3 * sq + 1], symbols)
            else:
                text = _view_token(view_cells[2 * sq], view_cells[2 * sq + 1], perspective, symbols)
            parts.append(f"{text:^4}")
        label = "10" if r == 9 else str(r + 1)
        lines.append(f"{label:>2}  " + "".join(parts) + f" {label}")
    lines.append(header)
    return "\n".join(lines)


def _full_token(owner: int, ptype: int, symbols) -> str:
    if owner == _core.CELLS_LAKE:
        return "~~"
    if owner == _core.CELLS_EMPTY:
        return "."
    return ("r" if owner == 0 else "b") + symbols[ptype]


def _view_token(code: int, flags: int, perspective: int, symbols) -> str:
    if code == _core.VIEW_LAKE:
        return "~~"
    if code == _core.VIEW_EMPTY:
        return "."
    own, opp = ("r", "b") if perspective == 0 else ("b", "r")
    if code & _core.VIEW_OWN:
        return own + symbols[code & _core.VIEW_TYPE_MASK]
    if code & _core.VIEW_OPP_KNOWN:
        return opp + symbols[code & _core.VIEW_TYPE_MASK]
    return opp + ("?m" if flags & PIECE_MOVED else "?")
