"""Boards drawn in ASCII for tests, turned into Gravon field strings.

A drawing has 10 lines of 10 cells separated by whitespace, the top line row 10 (blue's
back row) and the bottom line row 1 (red's back row), columns A B C D E F G H I K from
left to right, as red sees the board. A cell is

    .      empty
    ~      lake (only where the lakes are: rows 5-6, columns C-D and G-H)
    r5 bB  a piece: r red / b blue, then B bomb, S spy, 2..10 rank, F flag

For example ``r10`` is red's marshal and ``bF`` blue's flag. Blank lines are ignored.
"""
from __future__ import annotations

from stratego import _core

# Gravon letters in type order: bomb, spy, scout (2) ... marshal (10), flag.
SYMBOLS = ("B", "S", "2", "3", "4", "5", "6", "7", "8", "9", "10", "F")
LAKES = frozenset(_core.LAKE_SQUARES)  # the engine's; reference_mover.py keeps its own


def _letter(token: str, sq: int) -> str:
    if token == "~":
        return "_"
    if token == ".":
        return "A"
    side, symbol = token[:1], token[1:]
    if side not in ("r", "b") or symbol not in SYMBOLS:
        raise ValueError(f"bad cell {token!r} at square {sq}: expected '.', '~' or r/b + one of {SYMBOLS}")
    return chr((ord("B") if side == "r" else ord("N")) + SYMBOLS.index(symbol))


def board(ascii: str) -> str:
    """The 100-letter Gravon field of an ASCII drawing (see the module docstring)."""
    lines = [line.split() for line in ascii.strip().splitlines() if line.strip()]
    if len(lines) != 10 or any(len(cells) != 10 for cells in lines):
        raise ValueError(f"a board is 10 lines of 10 cells, got {[len(cells) for cells in lines]}")
    field = ["A"] * 100
    for i, cells in enumerate(lines):
        row = 9 - i  # the top line is row 10
        for col, token in enumerate(cells):
            sq = row * 10 + col
            if (token == "~") != (sq in LAKES):
                raise ValueError(f"square {sq} (row {row + 1}, column {'ABCDEFGHIK'[col]}): "
                                 f"lakes are at rows 5-6, columns C-D and G-H, got {token!r}")
            field[sq] = _letter(token, sq)
    return "".join(field)


def game(drawing: str, to_move: int = 0, variant: str = "classic", **settings):
    """A Game from a drawing (`to_move` 0 red, 1 blue): a study position, which may leave
    out a side's Flag."""
    import stratego

    return stratego.Game.from_field(board(drawing), to_move=to_move, variant=variant, allow_flagless=True,
                                    **settings)


def letter(token: str) -> str:
    """Gravon letter of a drawn piece token such as 'r5' or 'bF'."""
    side, symbol = token[0], token[1:]
    return chr((ord("B") if side == "r" else ord("N")) + SYMBOLS.index(symbol))


def squares(names: str) -> set[int]:
    """Square indices of space-separated names ("E4 E5")."""
    from stratego.notation import parse_square

    return {parse_square(n) for n in names.split()}


def targets(g, src: str) -> set[int]:
    """Squares the piece on `src` may move to now."""
    from stratego.notation import parse_move, parse_square

    s = parse_square(src)
    return {dst for a, dst in map(parse_move, g.legal_moves()) if a == s}


def at(g, name: str) -> str:
    """Gravon letter on a square: 'A' empty, 'B'..'M' red, 'N'..'Y' blue."""
    from stratego.notation import parse_square

    return g.field[parse_square(name)]


def view(g, perspective: int | None) -> dict[str, str]:
    """{square name: token} of g.render(perspective), e.g. {"E5": "b?"}."""
    lines = g.render(perspective).splitlines()
    columns = lines[0].split()
    cells = {}
    for line in lines[1:-1]:
        parts = line.split()
        for col, token in zip(columns, parts[1:-1]):
            cells[col + parts[0]] = token
    return cells
