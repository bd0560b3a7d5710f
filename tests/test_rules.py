"""Rule tests on boards drawn in ASCII (see boards.py), each citing the section of
docs/rules.md it checks. The top line of a drawing is row 10 (blue's back row), the
bottom line row 1 (red's back row); red moves first unless a test says otherwise.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
import stratego
from stratego.notation import parse_move, parse_square
from stratego.variants import PIECE_NAMES

sys.path.insert(0, str(Path(__file__).resolve().parent))
from boards import at, board, game, letter, squares, targets, view

RED, BLUE = 0, 1
from boards import SYMBOLS  # noqa: E402


def illegal(g: stratego.Game, move: str, reason: str) -> None:
    """The move is not offered and playing it raises ValueError naming it and `reason`."""
    src, dst = parse_move(move)
    assert dst not in targets(g, move.split("-")[0])
    field = g.field
    with pytest.raises(ValueError, match=reason) as err:
        g.play(move)
    assert stratego.format_move(src, dst) in str(err.value)
    assert g.field == field


# The idle sides shuffle one piece round a 2x2 square: each move turns, so no move of it
# ever continues a two-square run. Blue's piece starts on K10, red's on E2.
BLUE_LOOP = ("K10", "K9", "I9", "I10")
RED_LOOP = ("E2", "E3", "F3", "F2")


def step_round(g: stratego.Game, loop: tuple[str, ...]) -> None:
    """Moves the piece of the player to move that sits on `loop` to the next square."""
    for i, name in enumerate(loop):
        if at(g, name) != "A":
            g.play(f"{name}-{loop[(i + 1) % len(loop)]}")
            return
    raise AssertionError(f"no piece on {loop}")


def blue_idle(g: stratego.Game) -> None:
    step_round(g, BLUE_LOOP)


def red_idle(g: stratego.Game) -> None:
    step_round(g, RED_LOOP)


def red_then_blue(g: stratego.Game, *red_moves: str) -> None:
    for move in red_moves:
        g.play(move)
        blue_idle(g)


# ---------------------------------------------------------------- movement
# docs/rules.md "Movement and combat": one square orthogonally; no diagonal moves, no
# jumping, never onto a lake or an own piece. Bombs and the flag never move.

OPEN = """
bF  .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   r5  .   .   .   .   .
rF  .   .   .   .   .   .   .   .   .
"""


def test_one_square_orthogonal_moves():
    g = game(OPEN)
    assert sorted(g.legal_moves()) == sorted(["E2-E3", "E2-E1", "E2-D2", "E2-F2"])
    g.play("E2-E3")
    assert at(g, "E3") == letter("r5") and at(g, "E2") == "A"


def test_corner_piece_has_two_moves():
    g = game(OPEN, to_move=BLUE)
    assert targets(g, "K10") == squares("I10 K9")


def test_no_diagonal_and_no_long_move_for_non_scouts():
    g = game(OPEN)
    illegal(g, "E2-F3", "not diagonally")
    illegal(g, "E2-D1", "not diagonally")
    illegal(g, "E2-E4", "only a scout moves more than one square")
    illegal(g, "E2-A2", "only a scout moves more than one square")


def test_no_move_onto_own_piece_or_from_an_empty_or_enemy_square():
    g = game("""
bF  .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   r4  .   .   .   .   .
.   .   .   .   r5  .   .   .   .   .
rF  .   .   .   .   .   .   .   .   .
""")
    illegal(g, "E2-E3", "own piece")
    illegal(g, "E5-E6", "no piece of the player to move")
    illegal(g, "K10-K9", "no piece of the player to move")


def test_lakes_block_one_square_moves():
    g = game("""
bF  .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   b5  .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   r5  .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
rF  .   .   .   .   .   .   .   .   .
""")
    assert targets(g, "C4") == squares("C3 B4 D4")
    illegal(g, "C4-C5", "lake")
    g.play("C4-D4")
    assert targets(g, "D7") == squares("D8 C7 E7")
    illegal(g, "D7-D6", "lake")


def test_bombs_and_flag_never_move():
    g = game("""
bF  .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
rB  .   .   .   r5  .   .   .   .   .
rF  .   .   .   .   .   .   .   .   .
""")
    assert targets(g, "A1") == set() and targets(g, "A2") == set()
    illegal(g, "A2-A3", "bombs and the flag never move")
    illegal(g, "A2-B2", "bombs and the flag never move")
    illegal(g, "A1-B1", "bombs and the flag never move")


# ---------------------------------------------------------------- scouts
# docs/rules.md "Movement and combat": a Scout moves any number of empty squares in a
# straight line and may end that move by attacking the first enemy piece on the line.

def test_scout_moves_any_distance_and_attacks_the_first_enemy_only():
    g = game("""
bF  .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   b6  .   .   .   .   .
.   .   .   .   bS  .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
rF  .   .   .   r2  .   .   r4  .   .
""")
    assert targets(g, "E1") == squares("E2 E3 E4 E5 E6 E7 D1 C1 B1 F1 G1")
    illegal(g, "E1-E8", "cannot pass a piece")  # over the spy on E7
    illegal(g, "E1-I1", "cannot pass a piece")  # over the own piece on H1
    illegal(g, "E1-A1", "own piece")
    g.play("E1-E7")  # the scout beats the spy it attacks at the end of its run
    assert at(g, "E7") == letter("r2") and at(g, "E1") == "A"


def test_scouts_cannot_cross_lakes():
    g = game("""
bF  .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
r2  .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   r2  .   ~   ~   .   .
.   .   .   .   .   .   .   .   .   .
.   .   r2  .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
rF  .   .   .   .   .   .   .   .   .
""")
    assert targets(g, "C3") == squares("C4 C2 C1 B3 A3 D3 E3 F3 G3 H3 I3 K3")
    illegal(g, "C3-C7", "cannot pass a piece or a lake")
    illegal(g, "C3-C5", "lake")
    assert targets(g, "A6") == squares("B6 A7 A8 A9 A10 A5 A4 A3 A2")
    illegal(g, "A6-E6", "cannot pass a piece or a lake")
    assert targets(g, "E5") == squares("F5 E6 E7 E8 E9 E10 E4 E3 E2 E1")
    illegal(g, "E5-B5", "cannot pass a piece or a lake")
    illegal(g, "E5-I5", "cannot pass a piece or a lake")


# ---------------------------------------------------------------- combat
# docs/rules.md "Movement and combat": the lower rank is removed; a winning attacker takes
# the square, a winning defender stays; equal ranks both go. The Spy wins only when it
# attacks the Marshal. Only a Miner defuses a bomb; any other attacker dies and the
# bomb stays. Attacking the flag captures it.

COMBAT = """
.   .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   DEF .   ~   ~   .   .
.   .   .   .   ATT .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
r4  .   .   .   .   .   .   .   .   .
"""
RANK = {"S": 1, **{str(n): n for n in range(2, 11)}}


def fight(attacker: str, defender: str, side: str = "r") -> tuple[str, str]:
    """(letter on the attacker's square, letter on the defender's) after `side`'s
    `attacker` attacks the other side's `defender`; red attacks up, blue down."""
    if side == "r":
        g = game(COMBAT.replace("ATT", "r" + attacker).replace("DEF", "b" + defender))
        g.play("E4-E5")
        return at(g, "E4"), at(g, "E5")
    g = game(COMBAT.replace("DEF", "b" + attacker).replace("ATT", "r" + defender), to_move=BLUE)
    g.play("E5-E4")
    return at(g, "E5"), at(g, "E4")


def expected_outcome(attacker: str, defender: str) -> str:
    """The rule as docs/rules.md words it, written independently of the engine."""
    if defender == "F":
        return "attacker"
    if defender == "B":
        return "attacker" if attacker == "3" else "defender"
    if attacker == "S" and defender == "10":
        return "attacker"
    if RANK[attacker] == RANK[defender]:
        return "both"
    return "attacker" if RANK[attacker] > RANK[defender] else "defender"


def after(outcome: str, attacker: str, defender: str, side: str = "r") -> tuple[str, str]:
    other = "b" if side == "r" else "r"
    return {
        "attacker": ("A", letter(side + attacker)),
        "defender": ("A", letter(other + defender)),
        "both": ("A", "A"),
    }[outcome]


NAMED_FIGHTS = [
    ("10", "9", "attacker"),  # higher wins
    ("5", "6", "defender"),   # a lower attacker loses
    ("7", "7", "both"),       # equal ranks: both removed
    ("2", "2", "both"),
    ("S", "S", "both"),
    ("S", "10", "attacker"),  # the Spy attacking the Marshal wins
    ("10", "S", "attacker"),  # the Marshal attacking the Spy wins
    ("2", "S", "attacker"),   # the Spy loses to every attacker
    ("S", "2", "defender"),   # the Spy attacking anything but the Marshal loses
    ("S", "9", "defender"),
    ("3", "B", "attacker"),   # a Miner defuses a bomb
    ("10", "B", "defender"),  # any other attacker dies on a bomb, the bomb stays
    ("2", "B", "defender"),
    ("S", "B", "defender"),
    ("4", "B", "defender"),
    ("2", "F", "attacker"),   # attacking the flag captures it
    ("S", "F", "attacker"),
]


@pytest.mark.parametrize("attacker,defender,outcome", NAMED_FIGHTS)
@pytest.mark.parametrize("side", ["r", "b"])
def test_combat_named_pairs(attacker, defender, outcome, side):
    assert fight(attacker, defender, side) == after(outcome, attacker, defender, side)


@pytest.mark.parametrize("defender", SYMBOLS)
@pytest.mark.parametrize("attacker", [s for s in SYMBOLS if s not in ("B", "F")])
def test_combat_every_pair(attacker, defender):
    outcome = expected_outcome(attacker, defender)
    assert fight(attacker, defender) == after(outcome, attacker, defender)


@pytest.mark.parametrize("capturer", [RED, BLUE])
def test_flag_capture_wins_at_once(capturer):
    g = game("""
.   .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   bF  .   ~   ~   .   .
.   .   .   .   r2  .   .   .   .   .
.   .   .   .   b2  .   .   .   .   .
.   .   .   .   rF  .   .   .   .   .
r4  .   .   .   .   .   .   .   .   .
""", to_move=capturer)
    g.play("E4-E5" if capturer == RED else "E3-E2")
    assert g.done and g.winner == capturer and g.end_reason == "flag_captured"


# ---------------------------------------------------------------- reveals
# docs/rules.md "Movement and combat": attacks reveal both ranks.

REVEAL = """
b7  .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   bDEF .  ~   ~   .   .
.   .   .   .   rATT .  .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
r4  .   .   .   .   .   .   .   .   r3
"""


def test_winning_attacker_is_revealed_to_the_defender():
    g = game(REVEAL.replace("ATT", "10").replace("DEF", "6"))
    assert view(g, BLUE)["E4"] == "r?" and view(g, RED)["E5"] == "b?"
    g.play("E4-E5")
    assert view(g, BLUE)["E5"] == "r10"
    assert view(g, RED)["A10"] == "b?" and view(g, BLUE)["A1"] == "r?"  # bystanders stay hidden


def test_winning_defender_is_revealed_to_the_attacker():
    g = game(REVEAL.replace("ATT", "5").replace("DEF", "8"))
    g.play("E4-E5")
    assert at(g, "E4") == "A"
    assert view(g, RED)["E5"] == "b8"
    assert view(g, None)["E5"] == "b8"


def test_a_move_shows_a_moved_piece_and_a_long_move_a_scout():
    g = game(REVEAL.replace("ATT", "2").replace("DEF", "6"))
    g.play("A1-A2")
    assert view(g, BLUE)["A2"] == "r?m"
    g.play("K10-K9")
    g.play("E4-E1")
    assert view(g, BLUE)["E1"] == "r2"
    assert view(g, RED)["K9"] == "b?m"


# ---------------------------------------------------------------- two-square rule
# docs/rules.md "Repetition": ISF, a piece may not move more than 3 times non-stop between
# the same two squares, whether to an empty square or attacking (older ISF and Gravon:
# 5; the limit is a setting, 0 = off). For scouts: crossing the same square boundary.

TWO_SQUARE = """
.   .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   b2  .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   r5  .   .   .   .   .
r4  .   .   .   .   .   .   .   .   .
"""


def test_two_square_limit_3_forbids_the_fourth_move():
    g = game(TWO_SQUARE)
    red_then_blue(g, "E2-E3", "E3-E2", "E2-E3")
    illegal(g, "E3-E2", "two-square rule")
    assert parse_square("E4") in targets(g, "E3")  # another boundary is fine


def test_two_square_applies_to_blue_too():
    g = game("""
.   .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   r5  .   .   .   .   .
r4  .   .   .   .   .   .   .   .   .
""")
    for blue_move in ("K10-K9", "K9-K10", "K10-K9"):
        red_idle(g)
        g.play(blue_move)
    red_idle(g)
    illegal(g, "K9-K10", "two-square rule")


def test_two_square_a_different_move_breaks_the_run():
    g = game(TWO_SQUARE)
    red_then_blue(g, "E2-E3", "E3-E2", "E2-E3", "E3-D3", "D3-E3", "E3-E2", "E2-E3", "E3-E2")
    illegal(g, "E2-E3", "two-square rule")


def test_two_square_moving_another_piece_resets_the_run():
    g = game(TWO_SQUARE)
    red_then_blue(g, "E2-E3", "E3-E2", "E2-E3", "A1-A2", "E3-E2", "E2-E3", "E3-E2")
    illegal(g, "E2-E3", "two-square rule")


def test_two_square_attacks_count_as_moves_of_the_run():
    g = game(TWO_SQUARE)
    g.play("E2-E3")
    g.play("K10-K9")
    g.play("E3-E2")
    g.play("E6-E3")  # the blue scout steps into the square red's piece oscillates to
    g.play("E2-E3")  # the third move of the run is an attack (5 beats the scout)
    assert at(g, "E3") == letter("r5")
    g.play("K9-I9")
    illegal(g, "E3-E2", "two-square rule")


@pytest.mark.parametrize("limit", [1, 2, 3, 5, 7])
def test_two_square_limit_setting(limit):
    g = game(TWO_SQUARE, two_square_limit=limit)
    shuttle = ["E2-E3", "E3-E2"] * 5
    red_then_blue(g, *shuttle[:limit])
    illegal(g, shuttle[limit], "two-square rule")


def test_gravon_variant_uses_limit_5():
    g = stratego.Game.from_field(board(TWO_SQUARE), variant="gravon", allow_flagless=True)
    red_then_blue(g, "E2-E3", "E3-E2", "E2-E3", "E3-E2", "E2-E3")
    illegal(g, "E3-E2", "two-square rule")


def test_two_square_limit_0_is_off():
    g = game(TWO_SQUARE, two_square_limit=0)
    red_then_blue(g, *["E2-E3", "E3-E2"] * 15)
    assert not g.done and parse_square("E3") in targets(g, "E2")


def test_two_square_only_forbidden_moves_left_loses():
    # docs/rules.md "End of game": the player to move with no legal move loses, and a move
    # the two-square rule forbids is not a legal move.
    g = game("""
.   .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   .   .   .   .   .   .
rB  .   .   .   .   .   .   .   .   .
.   rB  .   .   .   .   .   .   .   .
r5  rB  .   .   .   .   .   .   .   .
""")
    red_then_blue(g, "A1-A2", "A2-A1")
    g.play("A1-A2")
    assert not g.done
    blue_idle(g)
    assert g.done and g.winner == BLUE and g.end_reason == "no_legal_move"


SCOUT_COLUMN = """
.   .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
r2  .   .   .   .   .   .   .   .   rF
"""


def test_scout_over_overlapping_segments_crosses_the_same_boundary():
    # A1-A5, A5-A3 and A3-A4 all cross the boundary between A3 and A4: a fourth move
    # across it is the fourth move of the run.
    g = game(SCOUT_COLUMN)
    red_then_blue(g, "A1-A5", "A5-A3", "A3-A4")
    for move in ("A4-A3", "A4-A2", "A4-A1"):
        illegal(g, move, "two-square rule")
    # Moves that do not cross that boundary are fine.
    assert squares("A5 A6 A10 B4 K4") <= targets(g, "A4")


def test_scout_run_ends_when_crossed_boundaries_stop_overlapping():
    # A1-A5 and A5-A3 share the boundaries A3|A4 and A4|A5; A3-A2 crosses A2|A3 only, so
    # it starts a new run (a second move of the old run would make A2-A3 the fourth).
    g = game(SCOUT_COLUMN)
    red_then_blue(g, "A1-A5", "A5-A3", "A3-A2")
    assert parse_square("A3") in targets(g, "A2")
    red_then_blue(g, "A2-A3", "A3-A2")
    illegal(g, "A2-A3", "two-square rule")
    illegal(g, "A2-A7", "two-square rule")


def test_scout_run_with_limit_5():
    g = game(SCOUT_COLUMN, two_square_limit=5)
    red_then_blue(g, "A1-A5", "A5-A3", "A3-A4", "A4-A2", "A2-A6")  # all cross A3|A4
    illegal(g, "A6-A1", "two-square rule")
    illegal(g, "A6-A3", "two-square rule")
    assert parse_square("A5") in targets(g, "A6")  # crosses A5|A6 only: a new run


# The run is the longest tail of the player's moves by one piece along one line with a
# boundary every move of it crosses, not the run the latest move opened (issue 13): in
# the game below B3-B5, B5-B4 and B4-B5 all cross B4|B5, although B5-B4 shares no
# boundary with B4-B3 and B3-B5 together. Blue's two Sergeants take turns, so blue never
# builds a run.
LONGEST_TAIL_FIELD = ("MAAAAAAAAAAAAAAAAAAAAAAAAAAAAAADAAAAAAAAAA__AA__AAAA__AA__AAAAAAAAAARRAAAAAAAAAAAAAAAA"
                      "AAAAAAAAAAAAAY")
BLUE_TAKING_TURNS = ("K7-K8", "I7-I8", "K8-K7", "I8-I7")


def play_red_with_blue_turns(g: stratego.Game, red_moves) -> None:
    for k, move in enumerate(red_moves):
        g.play(move)
        g.play(BLUE_TAKING_TURNS[k % len(BLUE_TAKING_TURNS)])


def test_scout_run_is_the_longest_tail_limit_3():
    g = stratego.Game.from_field(LONGEST_TAIL_FIELD, to_move=RED, variant="classic")
    play_red_with_blue_turns(g, ["B4-B3", "B3-B5", "B5-B4", "B4-B5"])
    # a fourth crossing of B4|B5, however far the Scout goes
    for move in ("B5-B4", "B5-B3", "B5-B2", "B5-B1"):
        illegal(g, move, "two-square rule")
    # away from that boundary is fine
    assert squares("B6 B7 B8 B9 B10 A5") == targets(g, "B5")


@pytest.mark.parametrize("variant,settings", [("gravon", {}), ("classic", {"two_square_limit": 5})])
def test_scout_run_is_the_longest_tail_limit_5(variant, settings):
    g = stratego.Game.from_field(LONGEST_TAIL_FIELD, to_move=RED, variant=variant, **settings)
    play_red_with_blue_turns(g, ["B4-B3", "B3-B5", "B5-B4", "B4-B5", "B5-B4", "B4-B5"])
    for move in ("B5-B4", "B5-B3", "B5-B1"):
        illegal(g, move, "two-square rule")
    assert parse_square("B6") in targets(g, "B5")


def test_scout_run_is_the_longest_tail_for_blue():
    # The limit-3 game with the board turned and the colours swapped.
    def swap(c: str) -> str:
        return chr(ord(c) + 12) if "B" <= c <= "M" else chr(ord(c) - 12) if "N" <= c <= "Y" else c

    def turn(move: str) -> str:
        a, b = parse_move(move)
        return stratego.format_move(99 - a, 99 - b)

    field = "".join(swap(c) for c in reversed(LONGEST_TAIL_FIELD))
    g = stratego.Game.from_field(field, to_move=BLUE, variant="classic")
    for k, move in enumerate(["B4-B3", "B3-B5", "B5-B4", "B4-B5"]):
        g.play(turn(move))
        g.play(turn(BLUE_TAKING_TURNS[k]))
    for move in ("B5-B4", "B5-B1"):
        illegal(g, turn(move), "two-square rule")
    assert parse_move(turn("B5-B6"))[1] in targets(g, turn("B5-B6").split("-")[0])


# ---------------------------------------------------------------- end of game
# docs/rules.md "End of game".

def test_last_movable_piece_dying_on_a_bomb_loses_at_once():
    # Gravon ends the game the moment a side has no piece left that could move, even on
    # that side's own move.
    g = game("""
bF  .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   bB  .   .   .   .   .
.   .   .   .   r5  .   .   .   .   .
rF  rB  .   .   .   .   .   .   .   .
""")
    g.play("E2-E3")
    assert at(g, "E3") == letter("bB") and at(g, "E2") == "A"
    assert g.done and g.winner == BLUE and g.end_reason == "no_movable_pieces" and g.ply == 1


def test_last_movable_piece_dying_on_an_equal_piece_loses_at_once():
    g = game("""
bF  .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   b5  .   .   .   .   .
.   .   .   .   r5  .   .   .   .   .
rF  .   .   .   .   .   .   .   .   .
""")
    g.play("E2-E3")
    assert g.done and g.winner == BLUE and g.end_reason == "no_movable_pieces"


def test_both_sides_without_movable_pieces_is_a_draw():
    g = game("""
bF  .   .   .   .   .   .   .   .   bB
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   b5  .   .   .   .   .
.   .   .   .   r5  .   .   .   .   .
rF  .   .   .   .   .   .   .   .   .
""")
    g.play("E2-E3")
    assert g.done and g.winner is None and g.end_reason == "no_movable_pieces"


def test_taking_the_last_movable_enemy_piece_wins_at_once():
    g = game("""
bF  .   .   .   .   .   .   .   .   bB
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   b9  .   .   .   .   .
.   .   .   .   r10 .   .   .   .   .
rF  .   .   .   .   .   .   .   .   .
""")
    g.play("E2-E3")
    assert g.done and g.winner == RED and g.end_reason == "no_movable_pieces" and g.ply == 1


def test_no_movable_piece_at_the_start():
    drawing = """
bF  .   .   .   .   .   .   .   .   bB
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   r10 .   .   .   .   .
rF  .   .   .   .   .   .   .   .   .
"""
    for to_move in (RED, BLUE):
        g = game(drawing, to_move=to_move)
        assert g.done and g.winner == RED and g.end_reason == "no_movable_pieces" and g.ply == 0
        with pytest.raises(ValueError, match="game is over"):
            g.play("E2-E3")


# Red's 5 on A1 is walled in by its own bombs; red's 4 and blue's 4 can trade on E5.
RED_WALLED = """
bF  .   .   .   .   .   .   .   .   b5
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   b4  .   ~   ~   .   .
.   .   .   .   r4  .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
rB  .   .   .   .   .   .   .   .   .
r5  rB  .   .   .   .   .   .   .   rF
"""
# The same with blue's 5 on K10 walled in too.
BOTH_WALLED = """
bF  .   .   .   .   .   .   .   bB  b5
.   .   .   .   .   .   .   .   .   bB
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   b4  .   ~   ~   .   .
.   .   .   .   r4  .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
rB  .   .   .   .   .   .   .   .   .
r5  rB  .   .   .   .   .   .   .   rF
"""


def without_traders(drawing: str) -> str:
    return drawing.replace("b4", ". ").replace("r4", ". ")


def test_player_to_move_with_no_legal_move_loses():
    g = game(RED_WALLED)
    g.play("E4-E5")  # the 4s trade; red keeps a movable piece, but it cannot move
    assert not g.done
    g.play("K10-K9")
    assert g.done and g.winner == BLUE and g.end_reason == "no_legal_move"


def test_neither_side_can_move_is_a_draw():
    g = game(BOTH_WALLED)
    g.play("E4-E5")
    assert g.done and g.winner is None and g.end_reason == "neither_can_move"


def test_blocked_at_the_start():
    # The same rules judge a position as it is set up.
    g = game(without_traders(RED_WALLED))
    assert g.done and g.winner == BLUE and g.end_reason == "no_legal_move"
    assert g.legal_moves() == []
    g = game(without_traders(RED_WALLED), to_move=BLUE)
    assert not g.done
    for to_move in (RED, BLUE):
        g = game(without_traders(BOTH_WALLED), to_move=to_move)
        assert g.done and g.winner is None and g.end_reason == "neither_can_move"


# ---------------------------------------------------------------- caps
# docs/rules.md "End of game": a total-move cap and a cap on moves without an attack, both
# a draw and, like every end, a termination (game.h), and the rules take
# precedence when both happen on the same ply.

CAPS = """
.   .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
b2  .   .   .   r5  .   .   .   .   bF
r10 .   .   .   .   .   .   .   .   .
"""


def play_cycles(g: stratego.Game, plies: int) -> None:
    for _ in range(plies):
        red_idle(g) if g.to_move == RED else blue_idle(g)


def test_max_plies_is_a_draw():
    g = game(CAPS, max_plies=6, max_plies_without_attack=0)
    play_cycles(g, 5)
    assert not g.done
    play_cycles(g, 1)
    assert g.done and g.ply == 6 and g.winner is None
    assert g.end_reason == "max_plies"


def test_max_plies_without_attack_is_a_draw():
    g = game(CAPS, max_plies=0, max_plies_without_attack=4)
    play_cycles(g, 3)
    assert not g.done and g.plies_since_attack == 3
    play_cycles(g, 1)
    assert g.done and g.winner is None
    assert g.end_reason == "max_plies_without_attack"


def test_an_attack_resets_the_no_attack_counter():
    g = game(CAPS, max_plies=0, max_plies_without_attack=4)
    play_cycles(g, 2)
    g.play("A1-A2")  # the marshal takes the scout
    assert g.plies_since_attack == 0
    play_cycles(g, 3)
    assert not g.done and g.plies_since_attack == 3
    play_cycles(g, 1)
    assert g.done and g.ply == 7 and g.end_reason == "max_plies_without_attack"


def test_a_rule_ending_beats_a_cap_on_the_same_ply():
    g = game("""
.   .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   bB  .   .   .   .   .
bF  .   .   .   r4  .   .   .   .   .
r10 .   .   .   .   .   .   .   .   .
""", max_plies=1)
    g.play("A1-A2")
    assert g.done and g.winner == RED and g.end_reason == "flag_captured"
    g = game("""
.   .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   bB  .   .   .   .   .
bF  .   .   .   r4  .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
""", max_plies=1)
    g.play("E2-E3")  # red's last movable piece dies on the bomb, on the capped ply
    assert g.done and g.winner == BLUE and g.end_reason == "no_movable_pieces"


def test_ply_counts_past_65535_without_caps():
    # The gravon variant has no caps (docs/rules.md "End of game": no rulebook has them), so
    # a game may be arbitrarily long; `ply` is the number of plies played.
    g = stratego.Game.from_field(board(CAPS.replace("b2", ". ").replace("r10", ".  ")), variant="gravon",
                                 allow_flagless=True)
    plies = 66_000
    play_cycles(g, plies)
    assert not g.done
    assert g.ply == plies
    assert g.plies_since_attack == plies


# ---------------------------------------------------------------- API rules

def test_playing_after_the_end_raises():
    g = game(CAPS, max_plies=1)
    g.play("E2-E3")
    assert g.done and g.legal_moves() == [] and g.legal_actions() == []
    with pytest.raises(ValueError, match="game is over"):
        g.play("K10-K9")
    with pytest.raises(ValueError, match="game is over"):
        g.play(0)


def test_illegal_moves_name_the_move():
    g = game(OPEN)
    with pytest.raises(ValueError, match="E2-E4"):
        g.play("E2-E4")
    action = stratego.move_to_action("E2-E4", RED)
    with pytest.raises(ValueError, match=rf"{action} \(E2-E4\)"):
        g.play(action)
    with pytest.raises(ValueError, match="1800"):
        g.play(1800)
    with pytest.raises(ValueError, match="bad move"):
        g.play("E2E3")
    with pytest.raises(TypeError):
        g.play(1.0)
    assert g.ply == 0 and g.field == board(OPEN)


# ---------------------------------------------------------------- setups
# docs/rules.md "Classic board and pieces": each side sets up in its back four rows; the
# seed rulebook's set has 39 pieces, so one square of the zone stays empty.

def count_pieces(field: str) -> tuple[list[int], list[int]]:
    red = [field.count(chr(ord("B") + t)) for t in range(12)]
    blue = [field.count(chr(ord("N") + t)) for t in range(12)]
    return red, blue


@pytest.mark.parametrize("variant,total", [("classic", 40), ("gravon", 40), ("seed-rulebook", 39)])
@pytest.mark.parametrize("seed", range(10))
def test_random_setups(variant, total, seed):
    g = stratego.Game(variant, seed=seed)
    field = g.field
    red, blue = count_pieces(field)
    assert red == blue == list(stratego.load_variant(variant).piece_counts)
    assert sum(red) == total
    is_red = [c in "BCDEFGHIJKLM" for c in field]
    is_blue = [c in "NOPQRSTUVWXY" for c in field]
    assert sum(is_red[:40]) == total and not any(is_red[40:])
    assert sum(is_blue[60:]) == total and not any(is_blue[:60])
    assert set(field[40:60]) <= {"A", "_"}
    assert g.ply == 0 and g.to_move == RED and not g.done


def test_seed_rulebook_counts():
    counts = dict(zip(PIECE_NAMES, stratego.load_variant("seed-rulebook").piece_counts))
    assert counts["sergeant"] == 5 and counts["scout"] == 6 and sum(counts.values()) == 39


def test_same_seed_same_setup():
    for seed in (0, 1, 12345, 2**63 + 5):
        assert stratego.Game(seed=seed).field == stratego.Game(seed=seed).field
    fields = {stratego.Game(seed=seed).field for seed in range(20)}
    assert len(fields) == 20


# ---------------------------------------------------------------- the board helper

def test_board_helper_orientation_and_checks():
    field = board(OPEN)
    assert field[parse_square("E2")] == letter("r5") and field[parse_square("K10")] == letter("b4")
    assert field[parse_square("A1")] == "M" and field[parse_square("A10")] == "Y"
    assert field.count("_") == 8 and len(field) == 100
    assert view(game(OPEN), RED)["E2"] == "r5" and view(game(OPEN), BLUE)["E2"] == "r?"
    with pytest.raises(ValueError, match="lakes"):
        board(OPEN.replace("~", ".", 1))
    with pytest.raises(ValueError, match="lakes"):
        board(OPEN.replace("rF", "~"))
    with pytest.raises(ValueError, match="bad cell"):
        board(OPEN.replace("r5", "r11"))
    with pytest.raises(ValueError, match="10 lines"):
        board("\n".join(OPEN.strip().splitlines()[1:]))


def test_from_field_rejects_bad_fields():
    with pytest.raises(ValueError, match="bad field"):
        stratego.Game.from_field("A" * 100)  # no lakes
    with pytest.raises(ValueError, match="bad field"):
        stratego.Game.from_field(board(OPEN)[:99])
    with pytest.raises(ValueError, match="bad field"):
        stratego.Game.from_field(board(OPEN).replace("M", "Z"))
    with pytest.raises(ValueError, match="0 \\(red\\) or 1 \\(blue\\)"):
        stratego.Game.from_field(board(OPEN), to_move=2)
    with pytest.raises(TypeError):
        stratego.Game.from_field(list(board(OPEN)))
