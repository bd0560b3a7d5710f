"""Writes the hand-made regression inputs of fuzz_state.c (findings F2 and F4 of
README.md) for the current GameState layout:

    .venv/bin/python csrc/fuzz/make_regressions.py

Each is the bytes of GameState.to_bytes() for a small field, with fields changed at
their offsets in board.h's GameState (the first members, which come before any member
whose size has changed so far): piece_flags at 260, to_move 368, done 369, winner 370,
end_reason 371. The Zobrist hash covers owner, type and square only, so it stays valid.
"""
from __future__ import annotations

from pathlib import Path

import stratego

OUT = Path(__file__).resolve().parent / "regressions" / "state"
TYPE, SQ, FLAGS = 100, 180, 260
TO_MOVE, DONE, WINNER, END_REASON = 368, 369, 370, 371
MOVED, SCOUTED = 1, 4
BOMB, MARSHAL = 0, 10


def field(pieces: dict[int, str]) -> str:
    cells = ["_" if (r in (4, 5) and c in (2, 3, 6, 7)) else "A" for r in range(10) for c in range(10)]
    for sq, letter in pieces.items():
        cells[sq] = letter
    return "".join(cells)


def state(pieces: dict[int, str]) -> tuple[bytearray, dict[int, int]]:
    raw = bytearray(stratego.Game.from_field(field(pieces))._state.to_bytes())
    assert len(raw) == stratego.STATE_BYTES
    blue = {raw[TYPE + i]: i for i in range(40, 80) if raw[SQ + i] != 0xFF}
    return raw, blue


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    # Red: Flag A1, Marshal B1. Blue: Bomb A10, Flag C10, Marshal E10.
    base = {0: "M", 1: "L", 90: "N", 92: "Y", 94: "X"}
    # F2: a blue Bomb marked as moved (and the Marshal, which may be): beliefs hold -1.
    raw, blue = state(base)
    raw[FLAGS + blue[BOMB]] |= MOVED
    raw[FLAGS + blue[MARSHAL]] |= MOVED
    (OUT / "moved-bomb-few-pieces.state").write_bytes(bytes(raw))
    # F2: a blue Marshal marked as scouted, blue without Scouts (+ a General): the view's
    # Scout count wraps to 255.
    raw, blue = state({**base, 96: "W"})
    raw[FLAGS + blue[MARSHAL]] |= MOVED | SCOUTED
    (OUT / "scouted-marshal-no-scouts.state").write_bytes(bytes(raw))
    # F4: blue (Flag and Bomb only) to move in a game marked as going on.
    raw, _ = state({0: "M", 1: "L", 90: "Y", 91: "N"})
    raw[TO_MOVE], raw[DONE], raw[WINNER], raw[END_REASON] = 1, 0, 2, 0
    (OUT / "unjudged-no-movable-piece.state").write_bytes(bytes(raw))


if __name__ == "__main__":
    main()
