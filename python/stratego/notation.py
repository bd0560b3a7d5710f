"""Gravon square and move notation.

Squares are named column then row: columns A B C D E F G H I K (Gravon has no J), rows
1..9 and ":" for row 10 (Gravon's own way; "10" is accepted on input). A "J" is refused
with a ValueError naming the columns: read as K it would play a move nobody wrote. The
one exception is the archive's XML (parse_archive_square), where two Ultimate Lightning
records write the tenth column "J". Row 1 is red's back row.
A move is "B4-B7"; an attack is written the same way. Under the rescue rule, returning
a captured piece is "<rank>@<square>" (e.g. "6@F4" returns a Captain to F4; ranks in
the game's numbering, below) and declining is "pass".

For people (boards, the viewer, `stratego serve`): the same, but row 10 written "10"
(square_name "A10", move_name "E4xE5" for an attack, rescue_name "6@F10"); parse_square
reads both.

Ranks: the new numbering (Spy 1 .. Marshal 10, shown "S", "2".."10") is the default; the
old one (Marshal 1 .. Scout 9, Spy "S") is a display setting. Bombs "B", flags "F".
"""
from __future__ import annotations

import re

COLUMNS = "ABCDEFGHIK"
ROWS = "123456789:"

# J matches here so that its message can say why it is refused (parse_square).
_SQUARE = re.compile(r"^([A-K])(10|[1-9:])$", re.IGNORECASE | re.ASCII)
_MOVE = re.compile(r"^\s*([A-K](?:10|[1-9:]))\s*[-x ]\s*([A-K](?:10|[1-9:]))\s*$", re.IGNORECASE | re.ASCII)
_COLUMN_WORDS = "a column A-I or K (Gravon has no J)"


def parse_square(text: str) -> int:
    """Square index (row * 10 + col) of a Gravon square name such as "B4" or "K:";
    ValueError for anything else, a J column included."""
    return _parse_square(text, j_column=False)


def parse_archive_square(text: str) -> int:
    """parse_square as the Gravon archive's XML needs it: two Ultimate Lightning records
    write the tenth column "J", so here (and only here) J is read as K."""
    return _parse_square(text, j_column=True)


def _parse_square(text: str, j_column: bool) -> int:
    if not isinstance(text, str):
        raise TypeError(f"a square must be a str like 'B4', got {type(text).__name__}")
    m = _SQUARE.match(text.strip())
    if m is None:
        raise ValueError(f"bad square {text!r}: expected {_COLUMN_WORDS} and a row 1-10, like 'B4' or 'K:'")
    col_letter = m.group(1).upper()
    if col_letter == "J" and not j_column:
        raise ValueError(f"bad square {text!r}: the columns are A B C D E F G H I K, with no J "
                         f"(the tenth column is K, as in {'K' + text.strip()[1:]!r})")
    col = 9 if col_letter == "J" else COLUMNS.index(col_letter)
    row = 9 if m.group(2) in ("10", ":") else int(m.group(2)) - 1
    return row * 10 + col


def format_square(sq: int) -> str:
    """Gravon name of a square index, row 10 written ':'."""
    if isinstance(sq, bool) or not isinstance(sq, int) or not 0 <= sq < 100:
        raise ValueError(f"a square index must be an int in [0, 99], got {sq!r}")
    return COLUMNS[sq % 10] + ROWS[sq // 10]


def square_name(sq: int) -> str:
    """A square as people read it: column letter and row number, "A10" where Gravon
    writes "A:" (parse_square reads both)."""
    return f"{COLUMNS[sq % 10]}{sq // 10 + 1}"


def move_name(src: int, dst: int, attack: bool = False) -> str:
    """A move as people read it: "E4-E5", or "E4xE5" for an attack."""
    return f"{square_name(src)}{'x' if attack else '-'}{square_name(dst)}"


def rescue_name(symbol: str, sq: int) -> str:
    """A rescue (or a placement) as people read it: the rank symbol ("?" when unseen),
    '@', the square ("6@F10")."""
    return f"{symbol}@{square_name(sq)}"


def parse_move(text: str) -> tuple[int, int]:
    """(from, to) squares of a move such as "B4-B7"."""
    if not isinstance(text, str):
        raise TypeError(f"a move must be a str like 'B4-B7', got {type(text).__name__}")
    m = _MOVE.match(text)
    if m is None:
        raise ValueError(f"bad move {text!r}: expected two squares like 'B4-B7'")
    return parse_square(m.group(1)), parse_square(m.group(2))


def format_move(src: int, dst: int) -> str:
    return f"{format_square(src)}-{format_square(dst)}"


#: Rank symbols by piece type (bomb, spy, scout, ..., marshal, flag) in each numbering.
RANK_SYMBOLS = {
    "new": ("B", "S", "2", "3", "4", "5", "6", "7", "8", "9", "10", "F"),
    "old": ("B", "S", "9", "8", "7", "6", "5", "4", "3", "2", "1", "F"),
}
PASS = "pass"


def is_rescue_text(move) -> bool:
    """Whether `move` is written as a rescue ("6@F4") or its decline ("pass"), not as a
    move: the rescue rule's actions, which keep the mover's turn."""
    return isinstance(move, str) and ("@" in move or move.strip().lower() == PASS)


def check_numbering(numbering: str) -> str:
    if numbering not in RANK_SYMBOLS:
        raise ValueError(f"numbering must be 'new' or 'old', got {numbering!r}")
    return numbering


def format_rescue(piece_type: int, sq: int, numbering: str = "new") -> str:
    """Rescue notation: the returned piece's rank symbol, '@', the square."""
    return f"{RANK_SYMBOLS[check_numbering(numbering)][piece_type]}@{format_square(sq)}"


def parse_rescue(text: str, numbering: str = "new") -> tuple[int, int]:
    """(piece type, square) of a rescue such as "6@F4"."""
    symbols = RANK_SYMBOLS[check_numbering(numbering)]
    rank, sep, square = text.strip().partition("@")
    if not sep or rank.upper() not in symbols:
        raise ValueError(f"bad rescue {text!r}: expected a rank ({', '.join(symbols[1:-1])}) and a square, like '6@F4'")
    return symbols.index(rank.upper()), parse_square(square)
