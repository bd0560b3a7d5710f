"""Text boards for people: the full board, or what one player may see."""
from __future__ import annotations

from .. import _core
from ..notation import COLUMNS, RANK_SYMBOLS, check_numbering

# Symbols by type (Gravon order): bomb, spy, scout..marshal as ranks, flag.
SYMBOLS = RANK_SYMBOLS["new"]
PIECE_MOVED: int = _core.PIECE_MOVED  # public flag: the piece has moved


#: Perspectives by name, as the viewers take them: None the full board, 0 red's view, 1 blue's.
PERSPECTIVES = {"full": None, "red": 0, "blue": 1}
#: The players' names for people, by player number.
PLAYER_NAMES = ("Red", "Blue")


def parse_perspective(perspective) -> int | None:
    """None (the full board), 0 (red's view) or 1 (blue's) from a name in PERSPECTIVES or
    from None/0/1 themselves; ValueError for anything else."""
    if isinstance(perspective, str) and perspective in PERSPECTIVES:
        return PERSPECTIVES[perspective]
    if perspective is None or (type(perspective) is int and perspective in (0, 1)):
        return perspective
    raise ValueError(f"perspective must be 'red', 'blue', 'full' (or 0, 1, None), got {perspective!r}")


def board_tokens(cells: bytes, view_cells: bytes | None = None, perspective: int | None = None,
                 numbering: str = "new") -> list[str]:
    """One token a square, in square order (sq = row * 10 + col): "~~" a lake, "." empty,
    owner "r"/"b" then the rank symbol, or, in a player's view, "?" an unidentified
    opponent piece that has not moved and "?m" one that has. What render_cells draws and
    the SVG and HTML viewers show; a player's tokens come from its `view_cells` only, so
    they cannot name a piece that player has not identified."""
    if perspective not in (None, 0, 1) or isinstance(perspective, bool):
        raise ValueError(f"perspective must be None, 0 (red) or 1 (blue), got {perspective!r}")
    symbols = RANK_SYMBOLS[check_numbering(numbering)]
    if perspective is None:
        return [_full_token(cells[3 * sq], cells[3 * sq + 1], symbols) for sq in range(100)]
    return [_view_token(view_cells[2 * sq], view_cells[2 * sq + 1], perspective, symbols) for sq in range(100)]


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
    return format_board(board_tokens(cells, view_cells, perspective, numbering), perspective)


def format_board(tokens: list[str], perspective: int | None = None) -> str:
    """100 tokens (board_tokens) as render_cells lays them out, seen from `perspective`."""
    rows, cols = board_order(perspective)
    header = "    " + "".join(f"{COLUMNS[c]:^4}" for c in cols)
    lines = [header]
    for r in rows:
        parts = [f"{tokens[r * 10 + c]:^4}" for c in cols]
        label = "10" if r == 9 else str(r + 1)
        lines.append(f"{label:>2}  " + "".join(parts) + f" {label}")
    lines.append(header)
    return "\n".join(lines)


def board_order(perspective: int | None) -> tuple[range, range]:
    """(rows top to bottom, columns left to right) as the viewer sees the board: red's
    back row at the bottom, or blue's for blue's view (the board turned 180 degrees)."""
    if perspective == 1:
        return range(10), range(9, -1, -1)
    return range(9, -1, -1), range(10)


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
