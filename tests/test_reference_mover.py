"""Hand-checked tests of the Python reference mover, so that perft.json can be trusted.

Boards are drawn with row 9 (blue's back row) first and row 0 (red's back row) last;
'.' empty, '_' lake. Red: B bomb C spy D scout E miner F sergeant G lieutenant
H captain I major J colonel K general L marshal M flag; blue: N..Y in the same order.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

# reference_mover.py and make_perft_data.py sit beside this file; make them importable
# whatever pytest's import mode.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference_mover import (  # noqa: E402
    CLASSIC,
    Variant,
    action_from_text,
    actions,
    apply,
    field_from_ascii,
    fight,
    has_movable_piece,
    legal_moves,
    perft,
    perft_state,
    piece_type,
    play,
    state_after,
    variant_from_toml,
)

import make_perft_data  # noqa: E402
from conftest import GET_THE_ARCHIVE, GRAVON, GRAVON_DIR, SHARED_DATA, needs_full_gravon

HERE = Path(__file__).resolve().parent
CONFIGS = HERE.parent / "configs"
SETUPS_DIR = Path(os.environ.get("STRATEGO_SETUPS_DIR", SHARED_DATA / "setups"))


def sq(name: str) -> int:
    """'E4' -> square index (Gravon letters, no J; row 10 as ':')."""
    col = "ABCDEFGHIK".index(name[0])
    row = 9 if name[1:] in (":", "10") else int(name[1:]) - 1
    return row * 10 + col


def targets(field: str, player: int, source: str) -> set[int]:
    return {dst for src, dst in legal_moves(field, player) if src == sq(source)}


# Flags tucked in corners behind bombs so that both sides keep a flag and the test
# pieces are the only movable ones.
def board(middle: str) -> str:
    """Rows 8..1 drawn by the test; row 9 holds the blue flag K10 and row 0 the red
    flag A1 (each with a bomb beside it)."""
    return field_from_ascii(". . . . . . . . N Y\n" + middle.strip() + "\nM B . . . . . . . .")


def test_letters_and_types():
    assert [piece_type(c) for c in "BCDEFGHIJKLM"] == list(range(12))
    assert [piece_type(c) for c in "NOPQRSTUVWXY"] == list(range(12))


def test_scout_line_lengths_on_open_board():
    field = board("""
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . _ _ . . _ _ . .
        . . _ _ . . _ _ . .
        . . . . D . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
    """)
    # Red scout E4: up E5..E10 (6), down E3..E1 (3), left D4..A4 (4), right F4..K4 (5).
    assert len(targets(field, 0, "E4")) == 18
    assert sq("E:") in targets(field, 0, "E4")
    assert sq("A4") in targets(field, 0, "E4")


def test_lakes_block_scouts_and_steps():
    field = board("""
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . _ _ . . _ _ . .
        . D _ _ . . _ _ F .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . D . . .
    """)
    # Scout G2: up G3, G4, then the lake G5 stops it (no crossing).
    assert {t for t in targets(field, 0, "G2") if t % 10 == 6} == {sq("G1"), sq("G3"),
                                                                   sq("G4")}
    # Scout B5: right is the lake C5 at once; up B6..B10; down B4..B2 (B1 is red's
    # own bomb); left A5.
    assert targets(field, 0, "B5") == {sq("A5"), sq("B6"), sq("B7"), sq("B8"),
                                       sq("B9"), sq("B:"), sq("B4"), sq("B3"),
                                       sq("B2")}
    # Sergeant I5: the lake H5 is left of it.
    assert targets(field, 0, "I5") == {sq("I6"), sq("I4"), sq("K5")}


def test_scout_cannot_jump_and_attacks_first_piece_only():
    field = board("""
        . . . . . . . . . .
        . . . . Q . . . . .
        . . . . R . . . . .
        . . _ _ . . _ _ . .
        . . _ _ . . _ _ . .
        . . . . . . . . . .
        . . . . D . F . . .
        . . . . . . . . . .
    """)
    up = {sq("E4"), sq("E5"), sq("E6"), sq("E7")}  # E7 holds the blue sergeant
    got = targets(field, 0, "E3")
    assert up <= got and sq("E8") not in got  # the miner behind it is out of reach
    assert sq("F3") in got and sq("G3") not in got  # own sergeant blocks
    assert sq("E2") in got and sq("E1") in got


def test_pieces_step_one_square_and_never_onto_own():
    field = board("""
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . _ _ . . _ _ . .
        . . _ _ . . _ _ . .
        . . . . G . . . . .
        . . . . L H . . . .
        . . . . . . . . . .
    """)
    assert targets(field, 0, "E3") == {sq("D3"), sq("E2")}  # E4, F3 own
    assert targets(field, 0, "E4") == {sq("E5"), sq("D4"), sq("F4")}


def test_bombs_and_flag_never_move():
    field = board("""
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . _ _ . . _ _ . .
        . . _ _ . . _ _ . .
        . . . . B . . . . .
        . . . . . . . . . .
        . . . . E . . . . .
    """)
    sources = {src for src, _ in legal_moves(field, 0)}
    assert sources == {sq("E2")}
    assert {src for src, _ in legal_moves(field, 1)} == set()  # blue: bomb and flag


def test_fight_table():
    # Spy and marshal, both ways.
    assert fight("C", "X") == "attacker"   # red spy attacks blue marshal: spy wins
    assert fight("X", "C") == "attacker"   # blue marshal attacks red spy: marshal wins
    assert fight("O", "D") == "defender"   # spy attacks a scout: spy loses
    assert fight("C", "O") == "both"       # spy against spy
    # Bombs: only the miner wins.
    assert fight("E", "N") == "attacker"
    assert fight("L", "N") == "defender"
    assert fight("D", "N") == "defender"
    # Ranks.
    assert fight("F", "R") == "both"
    assert fight("K", "X") == "defender"
    assert fight("J", "S") == "attacker"
    # Flag: anything that attacks it captures it.
    assert fight("C", "Y") == "attacker"
    assert fight("P", "M") == "attacker"


def test_spy_marshal_on_the_board():
    field = board("""
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . _ _ X . _ _ . .
        . . _ _ C . _ _ . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
    """)
    after, ended = apply(field, 0, (sq("E5"), sq("E6")))  # spy takes the marshal
    assert after[sq("E6")] == "C" and after[sq("E5")] == "A"
    assert ended  # blue has nothing left that moves
    after, ended = apply(field, 1, (sq("E6"), sq("E5")))  # marshal takes the spy
    assert after[sq("E5")] == "X" and after[sq("E6")] == "A"
    assert ended  # red has nothing left that moves


def test_miner_and_other_pieces_against_bomb():
    field = board("""
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . _ _ N . _ _ . .
        . . _ _ E L _ _ . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . P
    """)
    after, ended = apply(field, 0, (sq("E5"), sq("E6")))  # miner removes the bomb
    assert after[sq("E6")] == "E" and after[sq("E5")] == "A" and not ended
    moved, _ = apply(field, 0, (sq("F5"), sq("F6")))
    after, ended = apply(moved, 0, (sq("F6"), sq("E6")))  # marshal dies on the bomb
    assert after[sq("E6")] == "N" and after[sq("F6")] == "A" and not ended


def test_flag_capture_ends_game():
    field = board("""
        . . . . . . . . . F
        . . . . . . . . . .
        . . . . . . . . . .
        . . _ _ . . _ _ . .
        . . _ _ . . _ _ . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . P . . . . .
    """)
    after, ended = apply(field, 0, (sq("K9"), sq("K:")))
    assert ended and "Y" not in after
    assert perft(field, 0, 1) == len(legal_moves(field, 0))
    # Depth 2 counts nothing below the capture.
    assert perft(field, 0, 2) == sum(
        len(legal_moves(apply(field, 0, m)[0], 1))
        for m in legal_moves(field, 0) if m != (sq("K9"), sq("K:"))
    )


def test_last_movable_piece_dying_on_own_move_ends_game():
    field = board("""
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . _ _ N . _ _ . .
        . . _ _ F . _ _ . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . Q
    """)
    after, ended = apply(field, 0, (sq("E5"), sq("E6")))
    assert ended and after[sq("E5")] == "A" and after[sq("E6")] == "N"
    after, ended = apply(field, 0, (sq("E5"), sq("E4")))
    assert not ended
    # perft: 3 red moves; only the two quiet ones have children (blue miner: 3 each).
    assert perft(field, 0, 1) == 3
    assert perft(field, 0, 2) == 6


def test_equal_ranks_trade_both_removed():
    field = board("""
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . _ _ R . _ _ . .
        . . _ _ F . _ _ . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
    """)
    after, ended = apply(field, 0, (sq("E5"), sq("E6")))
    assert after[sq("E5")] == "A" and after[sq("E6")] == "A"
    assert ended  # neither side has a movable piece: draw


def test_no_legal_move_means_no_children():
    field = field_from_ascii("""
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
    assert legal_moves(field, 0) == []
    assert [perft(field, 0, d) for d in (0, 1, 2)] == [1, 0, 0]
    assert perft(field, 1, 1) == 3


def test_apply_rejects_illegal_moves():
    field = board("""
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . _ _ . . _ _ . .
        . . _ _ . . _ _ . .
        . . . . . . . . . .
        . . . . F . . . . .
        . . . . . . . . . .
    """)
    for move in [(sq("E3"), sq("E5")), (sq("E3"), sq("F4")), (sq("A1"), sq("A2")),
                 (sq("E3"), sq("E3"))]:
        with pytest.raises(ValueError):
            apply(field, 0, move)
    with pytest.raises(ValueError):
        apply(field, 1, (sq("E3"), sq("E4")))  # not blue's piece


ULTIMATE = Variant(aggressor_wins=True, one_time_bombs=True, captain_two_squares=True, rescue=True)


def test_variant_files_give_their_switches():
    assert variant_from_toml(CONFIGS / "classic.toml") == CLASSIC
    assert variant_from_toml(CONFIGS / "ultimate-lightning.toml") == ULTIMATE
    assert variant_from_toml(CONFIGS / "seed-tournament.toml") == Variant(aggressor_wins=True, rescue=True)


def test_variant_combat():
    assert fight("H", "T") == "both"
    assert fight("H", "T", Variant(aggressor_wins=True)) == "attacker"
    assert fight("H", "N") == "defender"
    assert fight("H", "N", Variant(one_time_bombs=True)) == "both"
    assert fight("E", "N", Variant(one_time_bombs=True)) == "attacker"  # a miner still defuses


def test_captain_two_squares():
    field = board("""
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . _ _ . . _ _ . .
        . . _ _ . S _ _ . .
        . . . . H D . . . .
        . . . . . . . . . .
        . . . . . . . . . .
    """)
    # Red Captain E4: one square to E5, E3, D4 (F4 holds an own Scout). Two squares,
    # through an empty first square (never through F4), straight on or turned, never
    # back to E4: E6 and F5 (blue: attacked) through E5, E2 and F3 through E3, C4
    # through D4, D3 both ways (once); D5 is a lake.
    plain = targets(field, 0, "E4")
    assert plain == {sq("E5"), sq("E3"), sq("D4")}
    two = {dst for src, dst in legal_moves(field, 0, Variant(captain_two_squares=True)) if src == sq("E4")}
    assert two - plain == {sq("E6"), sq("F5"), sq("E2"), sq("D3"), sq("F3"), sq("C4")}
    # Other pieces keep their moves.
    assert sorted(m for m in legal_moves(field, 0, Variant(captain_two_squares=True)) if m[0] != sq("E4")) == \
        sorted(m for m in legal_moves(field, 0) if m[0] != sq("E4"))


def test_rescue_opens_on_the_back_row_once_per_piece():
    # perft.json's rescue board: red's Lieutenant E9 one step from blue's back row.
    field = make_perft_data.RESCUE
    rules = Variant(rescue=True)
    # Nothing captured yet: the back row opens no rescue.
    assert play(state_after(field, 0, (), rules), action_from_text("E9-E10"), rules).rescuer is None
    state = state_after(field, 0, make_perft_data.RESCUE_OPENS, rules)  # the Spy is lost
    opened = play(state, action_from_text("E9-E10"), rules)
    assert opened.rescuer is not None and opened.to_move == 0
    choices = actions(opened, rules)
    empty_own_half = sum(1 for s in range(50) if opened.field[s] == "A")
    assert choices[-1] == ("pass",) and len(choices) == empty_own_half + 1
    assert {a[1] for a in choices[:-1]} == {1}  # only the Spy can come back
    # A Scout reaching the back row opens none.
    assert play(state, action_from_text("K4-K10"), rules).rescuer is None
    # The piece of the first rescue cannot make the second (perft.json's
    # ultimate_lightning_second_rescue has another piece make it).
    later = state_after(field, 0, make_perft_data.RESCUE_SECOND, rules)
    assert later.rescues == (1, 0)
    assert play(later, action_from_text("E10-D10"), rules).rescuer is None
    with pytest.raises(ValueError):
        state_after(field, 0, make_perft_data.RESCUE_OPENS + ("E9-E10", "B@F2"), rules)  # no captured bomb


def test_perft_json_matches_reference():
    entries = json.loads((HERE / "data" / "perft.json").read_text())
    assert len(entries) >= 6
    assert len({e["name"] for e in entries}) == len(entries)
    for entry in entries:
        assert set(entry) == {"name", "variant", "field", "to_move", "prefix", "counts"}
        variant = variant_from_toml(CONFIGS / f"{entry['variant']}.toml")
        state = state_after(entry["field"], entry["to_move"], entry["prefix"], variant)
        counts = [perft_state(state, d, variant) for d in (1, 2, 3)]
        assert counts == entry["counts"], entry["name"]


@needs_full_gravon
@pytest.mark.skipif(not (SETUPS_DIR / "classic_human.txt").is_file(),
                    reason=f"needs the human setups, not found at {SETUPS_DIR}; {GET_THE_ARCHIVE}")
def test_perft_json_is_up_to_date():
    built = make_perft_data.build()
    stored = json.loads((HERE / "data" / "perft.json").read_text())
    assert built == stored
    classic = built[0]["field"]
    # Red's setup: front row (first 10 letters) on row 3, back row on row 0.
    red, blue = (SETUPS_DIR / "classic_human.txt").read_text().splitlines()[:2]
    assert classic[30:40] == red[:10] and classic[0:10] == red[30:40]
    # Blue's: turned 180 degrees and shifted to blue letters.
    to_blue = {chr(c): chr(c + 12) for c in range(ord("B"), ord("M") + 1)}
    assert classic[60:70] == "".join(to_blue[ch] for ch in reversed(blue[:10]))
    assert classic[90:100] == "".join(to_blue[ch] for ch in reversed(blue[30:40]))


def test_replays_every_non_ultimate_gravon_game():
    """Every classic/classicfree/barrage move is legal for the reference mover, and the
    recorded results agree with how it ends games."""
    from stratego.records import iter_records

    games = 0
    for record in iter_records(GRAVON_DIR):
        if record.game_type == "ultimate lightning":
            continue  # needs that variant's rules (captains move two squares)
        games += 1
        field, player, ended = record.field, 0, False
        for number, move in enumerate(record.moves, 1):
            assert not ended, f"{record.path}: move {number} after the game ended"
            field, ended = apply(field, player, (move.source, move.target))
            player = 1 - player
        last_mover = 1 - player
        if record.result_type == 1:  # flag captured by the winner's last move
            assert ended and last_mover == record.winner, record.path
            assert "MY"[1 - record.winner] not in field, record.path
        elif record.result_type == 0:  # the loser could not move
            loser = 1 - record.winner
            stranded = ended and not has_movable_piece(field, loser)
            blocked = not ended and player == loser and not legal_moves(field, loser)
            assert stranded or blocked, record.path
        elif record.result_type == 2:  # neither side can move
            assert ended and perft(field, player, 1) == 0, record.path
            assert not has_movable_piece(field, 0), record.path
            assert not has_movable_piece(field, 1), record.path
        else:  # resignation, agreement, clock: the game was still on
            assert not ended, record.path
    assert games == sum(GRAVON["by_type"].values()) - GRAVON["by_type"]["ultimate lightning"]
