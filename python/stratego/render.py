"""Text boards for people: the full board, or what one player may see."""
from __future__ import annotations

from .notation import COLUMNS, RANK_SYMBOLS, check_numbering

# Symbols by type (Gravon order): bomb, spy, scout..marshal as ranks, flag.
SYMBOLS = RANK_SYMBOLS["new"]
PIECE_MOVED, PIECE_REVEALED, PIECE_SCOUTED = 1, 2, 4


def render_cells(cells: bytes, perspective: int | None = None, numbering: str = "new") -> str:
    """A board from `cells` (3 bytes a square: owner, type, flags; owner 2 empty, 3 lake).

    perspective None shows every piece with red at the bottom. 0 or 1 shows that
    player's view, own back row at the bottom: own pieces in full, the opponent's only
    where a fight revealed them (or a long move showed a scout); "?" an unmoved
    unknown piece, "?m" one that has moved (so not a bomb or the flag). Ranks in the
    "new" numbering (Spy S, Scout 2 .. Marshal 10) or the "old" (Marshal 1 .. Scout 9).
    """
    if perspective not in (None, 0, 1):
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
            owner, ptype, flags = cells[3 * sq], cells[3 * sq + 1], cells[3 * sq + 2]
            if owner == 3:
                text = "~~"
            elif owner == 2:
                text = "."
            else:
                side = "r" if owner == 0 else "b"
                hidden = perspective is not None and owner != perspective
                if hidden and flags & PIECE_REVEALED:
                    text = side + symbols[ptype]
                elif hidden and flags & PIECE_SCOUTED:
                    text = side + symbols[2]
                elif hidden:
                    text = side + ("?m" if flags & PIECE_MOVED else "?")
                else:
                    text = side + symbols[ptype]
            parts.append(f"{text:^4}")
        label = "10" if r == 9 else str(r + 1)
        lines.append(f"{label:>2}  " + "".join(parts) + f" {label}")
    lines.append(header)
    return "\n".join(lines)
