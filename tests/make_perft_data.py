"""Regenerate tests/data/perft.json with the Python reference mover.

    python tests/make_perft_data.py            # writes tests/data/perft.json
    python tests/make_perft_data.py --check    # exits 1 if the file is out of date

Each entry is {"name", "variant", "field", "to_move", "prefix", "counts": [perft(1),
perft(2), perft(3)]}: the counts of the variant (a file in configs/) from the position
after playing the prefix (moves, rescues such as "6@F4" and "pass", in Gravon notation) from
the field. Positions come from shared/data (a human classic setup pair, real Barrage
and Ultimate Lightning game starts) and from small hand-drawn boards, each chosen to
exercise one rule; every variant whose rules change the moves (docs/rules.md "Seed
tournament rules", "Other variants") has its own.

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

from reference_mover import LAKES, field_from_ascii, perft_state, state_after, variant_from_toml  # noqa: E402

OUT = HERE / "data" / "perft.json"
DEPTHS = (1, 2, 3)

# The same defaults as tests/conftest.py: STRATEGO_DATA_DIR names the data folder.
SHARED_DATA = Path(os.environ.get("STRATEGO_DATA_DIR", REPO.parent / "shared" / "data"))
SETUPS_DIR = Path(os.environ.get("STRATEGO_SETUPS_DIR", SHARED_DATA / "setups"))
GRAVON_DIR = Path(os.environ.get("STRATEGO_GRAVON_DIR", SHARED_DATA / "gravon"))
BARRAGE_RECORD = "barrage/barrage-2006.1-1051.xml"
ULTIMATE_RECORD = "ultimate-lightning/ultimate_lightning-2005.5-2105.xml"
CONFIGS = REPO / "configs"

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


def record_field(name: str) -> str:
    from stratego.records import read_record

    return read_record(GRAVON_DIR / name).field


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


# Ultimate Lightning's Captains (docs/rules.md "Other variants"): the red Captain F6
# between the lakes reaches E7 and E5 (blue Captain and Lieutenant) on its second square,
# through E6, F5 or F7, and F8 and F4 straight on; equal Captains: the aggressor wins.
# The red Captain B3 attacks the blue bomb C2 on its second square, through C3; a
# one-time bomb goes with it, and then the red Scout C4 sees down to C1.
CAPTAINS = field_from_ascii("""
    . . . . . . . . N Y
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . T . . . . .
    . . _ _ . H _ _ . .
    . . _ _ S . _ _ . .
    . . D . . . . . . .
    . H . . . . . . . .
    . B N . . . . . . .
    M B . . . . . . . .
""")

# The rescue rule (docs/rules.md "Seed tournament rules"). The prefixes below sacrifice
# red's Spy F2 (and later its Sergeant E2) to the blue General and Colonel, so red has a
# piece to return; then the red Lieutenant E9 stepping onto blue's back row opens a
# rescue, the Captain C8 may get there in two squares (Ultimate Lightning), and the
# Scout K4 flies up the K file to the back row without one (Scouts cannot rescue).
RESCUE = field_from_ascii("""
    Y N . . . . . . . .
    . . . . G . . . . .
    . . H . . . . . . .
    . . . . . . . . . .
    . . _ _ . . _ _ . .
    . . _ _ . . _ _ . .
    . . . . . . . . . D
    . . . . X W . . . .
    . . . . F C . . . .
    M B . . . . . . . Q
""")
# The Spy is lost; red to move with one piece to return.
RESCUE_OPENS = ("F2-F3", "K1-K2")
# The Lieutenant made the first rescue (the Spy back to F2), then the Sergeant is lost:
# the Lieutenant stepping along the back row opens no second rescue, another piece does.
RESCUE_SECOND = RESCUE_OPENS + ("E9-E10", "S@F2", "K2-K1", "E2-E3", "K1-K2")


def positions() -> list[tuple[str, str, str, int, tuple[str, ...]]]:
    """(name, variant, field, to_move, prefix) of every position."""
    classic = classic_human_field()
    return [
        ("classic_human_setups_red_to_move", "gravon", classic, 0, ()),
        ("classic_human_setups_blue_to_move", "gravon", classic, 1, ()),
        ("sparse_midgame_red_to_move", "gravon", MIDGAME, 0, ()),
        ("sparse_midgame_blue_to_move", "gravon", MIDGAME, 1, ()),
        ("flag_capture_at_ply_1", "gravon", FLAG_CAPTURE, 0, ()),
        ("last_movable_piece_dies_on_bomb", "gravon", LAST_PIECE_ON_BOMB, 0, ()),
        ("last_movable_pieces_trade_draw", "gravon", LAST_PIECES_TRADE, 0, ()),
        ("red_walled_in_red_to_move", "gravon", RED_WALLED_IN, 0, ()),
        ("red_walled_in_blue_to_move", "gravon", RED_WALLED_IN, 1, ()),
        ("barrage_gravon_2006_1_1051_start", "gravon", record_field(BARRAGE_RECORD), 0, ()),
        # The two-square rule and the chasing rule forbid nothing this shallow
        # (reference_mover.py): these hold the engine's checks of them to that.
        ("sparse_midgame_isf_chasing_rule", "isf", MIDGAME, 0, ()),
        ("sparse_midgame_classic_limit_3", "classic", MIDGAME, 1, ()),
        ("barrage_start_barrage_rules", "barrage", record_field(BARRAGE_RECORD), 1, ()),
        # A full position under the seed rulebook's tournament rules.
        ("classic_human_setups_seed_tournament", "seed-tournament", classic, 0, ()),
        ("seed_tournament_rescue_opens", "seed-tournament", RESCUE, 0, RESCUE_OPENS),
        ("ultimate_lightning_gravon_2005_5_2105_start", "ultimate-lightning", record_field(ULTIMATE_RECORD), 0, ()),
        ("ultimate_lightning_captains", "ultimate-lightning", CAPTAINS, 0, ()),
        ("ultimate_lightning_captains_blue_to_move", "ultimate-lightning", CAPTAINS, 1, ()),
        ("ultimate_lightning_rescue_opens", "ultimate-lightning", RESCUE, 0, RESCUE_OPENS),
        ("ultimate_lightning_second_rescue", "ultimate-lightning", RESCUE, 0, RESCUE_SECOND),
    ]


def build() -> list[dict]:
    data = []
    for name, variant_name, field, to_move, prefix in positions():
        variant = variant_from_toml(CONFIGS / f"{variant_name}.toml")
        state = state_after(field, to_move, prefix, variant)
        data.append({
            "name": name,
            "variant": variant_name,
            "field": field,
            "to_move": to_move,
            "prefix": list(prefix),
            "counts": [perft_state(state, d, variant) for d in DEPTHS],
        })
    return data


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
