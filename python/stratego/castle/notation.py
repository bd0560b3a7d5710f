"""The castle game's notation as the C core writes it (csrc/castle/text.c), read for
pictures and pages: the text board (docs/castle.md "Text board": a header of `key: value`
lines, then the grid), and a decision's from and to nodes. Writing either, and reading a
move to play it, is the core's (Game.play, Game.from_text).
"""
from __future__ import annotations

import re

#: The grid's column letters, west to east (the widest board has 15 columns).
COLUMNS = "ABCDEFGHIJKLMNO"
_MOVE = re.compile(r"^([A-O]\d{1,2}|ring|turret)([-x*])([A-O]\d{1,2}|ring|turret)")


def parse_text(text: str) -> dict:
    """A text board (docs/castle.md "Text board") in parts: the header's values by key
    and `grid`, one list of 15 tokens a row."""
    header: dict = {}
    grid = []
    for line in text.splitlines():
        key, colon, value = line.partition(":")
        if colon and re.fullmatch(r"[a-z_]+", key.strip()):
            header[key.strip()] = value.strip()
        elif line[:3].strip().isdigit():
            grid.append(line.split()[1:])
    header["grid"] = grid
    return header


def parse_pairs(value: str) -> dict[str, str]:
    """A header value of key=value words ("n=3 e=0") as a dict."""
    return dict(part.split("=", 1) for part in value.split())


def move_nodes(label: str) -> list | None:
    """[from node, to node, kind] of a move ("-", "x" an attack, "*" a shot)."""
    found = _MOVE.match(label)
    return [found.group(1), found.group(3), found.group(2)] if found else None
