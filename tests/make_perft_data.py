"""Regenerate tests/data/perft.json with the Python reference mover.

    python tests/make_perft_data.py            # writes tests/data/perft.json
    python tests/make_perft_data.py --check    # exits 1 if the file is out of date

Each entry is {"name", "field", "to_move", "counts": [perft(1), perft(2), perft(3)]}.
Positions come from shared/data (a human classic setup pair, a real Barrage game
start) and from small hand-drawn boards, each chosen to exercise one rule.

Data locations: STRATEGO_DATA_DIR (default <repo>/../shared/data), or
STRATEGO_SETUPS_DIR and STRATEGO_GRAVON_DIR for its two folders.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))  # reference_mover.py lives beside this script
# The source tree's package, used only if stratego is not installed (appended, so an
# installed build with its compiled core wins).
sys.path.append(str(REPO / "python"))

from reference_mover import LAKES, field_from_ascii, perft  # noqa: E402

OUT = HERE / "data" / "perft.json"
DEPTHS = (1, 2, 3)

# The same defaults as tests/conftest.py: STRATEGO_DATA_DIR names the data folder.
SHARED_DATA = Path(os.environ.get("STRATEGO_DATA_DIR", REPO.parent / "shared" / "data"))
SETUPS_DIR = Path(os.environ.get("STRATEGO_SETUPS_DIR", SHARED_DATA / "setups"))
GRAVON_DIR = Path(os.environ.get("STRATEGO_GRAVON_DIR", SHARED_DATA / "gravon"))
BARRAGE_RECORD = "barrage/barrage-2006.1-1051.xml"

def field_from_setups(red_setup: str, blue_setup: str) -> str:
    """Place two 40-letter setups (front row first, red letters) on the board.

    Red: setup row k (k = 0 the front row) goes to field row 3 - k, columns as written.
    Blue: the same setup turned 180 degrees: setup row k goes to field row 6 + k with
    the columns mirrored, and each piece letter shifted by 12 to blue's letters."""
    for setup in (red_setup, blue_setup):
        if len(setup) != 40 or any(not ("A" <= ch <= "M") for ch in setup):
            raise ValueError(f"bad setup {setup!r}")
    board = ["A"] * 100
    for sq in LAKES:
        board[sq] = "_"
    for k in range(4):
        for c in range(10):
            board[(3 - k) * 10 + c] = red_setup[k * 10 + c]
            letter = blue_setup[k * 10 + c]
            if letter != "A":
                letter = chr(ord(letter) + 12)
            board[(6 + k) * 10 + (9 - c)] = letter
    return "".join(board)


def classic_human_field() -> str:
    lines = (SETUPS_DIR / "classic_human.txt").read_text().splitlines()
    return field_from_setups(lines[0].strip(), lines[1].strip())


def barrage_game_field() -> str:
    from stratego.records import read_record

    return read_record(GRAVON_DIR / BARRAGE_RECORD).field


# Hand-drawn positions. Red: B bomb C spy D scout E miner F sergeant G lieutenant
# H captain I major J colonel K general L marshal M flag; blue N..Y in the same order.

# Sparse midgame: long scout lines (red scouts A5 and F2, blue scouts G9 and K5), a
# scout line ending on an enemy piece (A5 up to the bomb on A10, K5 down to the red
# marshal on K1), red spy E5 facing the blue marshal E6 (each may attack the other),
# red miner B8 next to the blue bomb B9 guarding the flag B10, red general H8 next to
# the blue general H9 (equal ranks), blue lieutenant K8.
MIDGAME = field_from_ascii("""
    N Y N . . . . . . .
    . N . . . . P W . .
    . E . . . . . K . S
    . . . . . . . . . .
    . . _ _ X . _ _ . .
    D . _ _ C . _ _ . P
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . D . . . .
    B M B . . . . . . L
""")

# Flag capture at ply 1: the red sergeant E9 stands next to the blue flag E10. Around
# it: the red scout K1 has an open line up the K file to the blue bomb K10, the blue
# scout A9 one down the A file to the red bomb A2, and the blue miner F9 and the red
# sergeant can attack each other.
FLAG_CAPTURE = field_from_ascii("""
    . . . . Y N . . . N
    P . . . F Q . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . _ _ . . _ _ . .
    . . _ _ . . _ _ . .
    . . . . . . . . . .
    . . . . . . . . . .
    B . . . . . . . . .
    M B . . . . . . . D
""")

# Red's last movable piece, the sergeant F5, can die attacking the blue bomb F6
# (then red has only a bomb and the flag: the game ends on red's own move). Its other
# moves are to empty squares. Blue keeps a miner.
LAST_PIECE_ON_BOMB = field_from_ascii("""
    . . . . . . . . . Y
    . . . . . . . . . N
    . . . . . . . . . .
    . . . . . . . . . Q
    . . _ _ . N _ _ . .
    . . _ _ . F _ _ . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    M B . . . . . . . .
""")

# Equal ranks, last movable pieces: red lieutenant E4 and blue lieutenant E5 are each
# side's only movable piece; an attack by either removes both (draw at once).
LAST_PIECES_TRADE = field_from_ascii("""
    N Y . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . _ _ S . _ _ . .
    . . _ _ G . _ _ . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . B M
""")

# Red's only movable piece, the sergeant A1, is walled in by its own bombs A2 and B1:
# red has no legal move. With blue to move, only the blue miner A3 taking the bomb
# A2 gives red a move back (sergeant A1 takes the miner).
RED_WALLED_IN = field_from_ascii("""
    . . . . . . . . . Y
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . _ _ . . _ _ . .
    . . _ _ . . _ _ . .
    . . . . . . . . . .
    Q . . . . . . . . .
    B . . . . . . . . .
    F B . . . . . . . M
""")


def positions() -> list[tuple[str, str, int]]:
    classic = classic_human_field()
    return [
        ("classic_human_setups_red_to_move", classic, 0),
        ("classic_human_setups_blue_to_move", classic, 1),
        ("sparse_midgame_red_to_move", MIDGAME, 0),
        ("sparse_midgame_blue_to_move", MIDGAME, 1),
        ("flag_capture_at_ply_1", FLAG_CAPTURE, 0),
        ("last_movable_piece_dies_on_bomb", LAST_PIECE_ON_BOMB, 0),
        ("last_movable_pieces_trade_draw", LAST_PIECES_TRADE, 0),
        ("red_walled_in_red_to_move", RED_WALLED_IN, 0),
        ("red_walled_in_blue_to_move", RED_WALLED_IN, 1),
        ("barrage_gravon_2006_1_1051_start", barrage_game_field(), 0),
    ]


def build() -> list[dict]:
    return [
        {
            "name": name,
            "field": field,
            "to_move": to_move,
            "counts": [perft(field, to_move, d) for d in DEPTHS],
        }
        for name, field, to_move in positions()
    ]


def main(argv: list[str]) -> int:
    data = build()
    text = json.dumps(data, indent=1) + "\n"
    if "--check" in argv:
        if not OUT.exists() or OUT.read_text() != text:
            print(f"{OUT} is out of date; run {Path(__file__).name}", file=sys.stderr)
            return 1
        print(f"{OUT} is up to date")
        return 0
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text)
    for entry in data:
        print(f"{entry['name']:40s} {entry['to_move']} {entry['counts']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
