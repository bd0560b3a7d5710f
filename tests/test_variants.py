"""Variant rules on boards drawn in ASCII (see boards.py), each test citing the section of
docs/rules.md it checks: the seed tournament rules (aggressor advantage, rescue), the
Ultimate Lightning rules (one-time bombs, two-square Captains), the chasing rule, rank
numbering, human setups, and every shipped variant in a VecEnv.

The top line of a drawing is row 10 (blue's back row), the bottom line row 1 (red's back
row); red moves first unless a test says otherwise. Observations under silent defense
are in test_variant_observations.py.
"""
from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import stratego
from stratego.notation import parse_move, parse_square
from stratego.variants import PIECE_NAMES

sys.path.insert(0, str(Path(__file__).resolve().parent))
from boards import at, board, game, letter, squares, targets, view
from depth import depth

RED, BLUE = 0, 1
from boards import SYMBOLS  # noqa: E402
OLD_SYMBOLS = ("B", "S", "9", "8", "7", "6", "5", "4", "3", "2", "1", "F")
TYPE = {name: t for t, name in enumerate(PIECE_NAMES)}
LAKES = frozenset(r * 10 + c for r in (4, 5) for c in (2, 3, 6, 7))
RESCUE_BASE, RESCUE_DECLINE = 2200, 2800


# ---------------------------------------------------------------- helpers

def illegal(g: stratego.Game, move: str, reason: str) -> None:
    """The move is not offered and playing it raises ValueError naming `reason`; the
    game does not change."""
    assert move not in g.legal_moves()
    field, state = g.field, (g.to_move, g.ply, g.rescue_pending, g.rescues)
    with pytest.raises(ValueError, match=reason):
        g.play(move)
    assert g.field == field and (g.to_move, g.ply, g.rescue_pending, g.rescues) == state


# Blue's idle piece goes round a 2x2 square: each move turns, so no move of it ever
# continues a two-square run.
BLUE_LOOP = ("K10", "K9", "I9", "I10")


def step_round(g: stratego.Game, loop: tuple[str, ...]) -> None:
    for i, name in enumerate(loop):
        if at(g, name) != "A":
            g.play(f"{name}-{loop[(i + 1) % len(loop)]}")
            return
    raise AssertionError(f"no piece on {loop}")


def blue_idle(g: stratego.Game) -> None:
    step_round(g, BLUE_LOOP)


# ---------------------------------------------------------------- aggressor advantage
# docs/rules.md "Seed tournament rules": Aggressor advantage: equal ranks, the attacker wins.
# (Ultimate Lightning: "aggressor wins on equal ranks".) Otherwise combat as usual.

COMBAT = """
bF  .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   DEF .   ~   ~   .   .
.   .   .   .   ATT .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
r4  .   .   .   .   .   .   .   .   rF
"""
MOVABLE = ("S", "2", "3", "4", "5", "6", "7", "8", "9", "10")


def fight(attacker: str, defender: str, side: str, **settings) -> tuple[str, str]:
    """(letter on the attacker's square, letter on the defender's) after `side`'s
    `attacker` attacks the other side's `defender` (red attacks up, blue down)."""
    if side == "r":
        g = game(COMBAT.replace("ATT", "r" + attacker).replace("DEF", "b" + defender), **settings)
        g.play("E4-E5")
        return at(g, "E4"), at(g, "E5")
    g = game(COMBAT.replace("DEF", "b" + attacker).replace("ATT", "r" + defender), to_move=BLUE, **settings)
    g.play("E5-E4")
    return at(g, "E5"), at(g, "E4")


@pytest.mark.parametrize("rank", MOVABLE)
@pytest.mark.parametrize("side", ["r", "b"])
def test_aggressor_wins_equal_ranks_and_takes_the_square(rank, side):
    assert fight(rank, rank, side, aggressor_wins=1) == ("A", letter(side + rank))


@pytest.mark.parametrize("side", ["r", "b"])
def test_spy_attacking_spy_wins_under_aggressor_advantage(side):
    assert fight("S", "S", side, aggressor_wins=1) == ("A", letter(side + "S"))


@pytest.mark.parametrize("rank", MOVABLE)
@pytest.mark.parametrize("side", ["r", "b"])
def test_aggressor_advantage_is_off_by_default(rank, side):
    # docs/rules.md "Movement and combat": equal ranks, both removed.
    assert stratego.load_variant("classic").settings["aggressor_wins"] == 0
    assert fight(rank, rank, side) == ("A", "A")


@pytest.mark.parametrize("variant", ["seed-tournament", "ultimate-lightning"])
def test_variants_with_aggressor_advantage(variant):
    assert stratego.load_variant(variant).settings["aggressor_wins"] == 1
    assert fight("7", "7", "r", variant=variant) == ("A", letter("r7"))
    assert fight("3", "3", "b", variant=variant) == ("A", letter("b3"))
    # switched off alone by a keyword setting
    assert fight("7", "7", "r", variant=variant, aggressor_wins=0) == ("A", "A")


@pytest.mark.parametrize("attacker,defender,winner", [
    ("5", "6", "defender"), ("10", "9", "attacker"), ("S", "10", "attacker"),
    ("10", "S", "attacker"), ("S", "2", "defender"), ("4", "B", "defender"), ("3", "B", "attacker"),
])
def test_aggressor_advantage_leaves_unequal_fights_alone(attacker, defender, winner):
    want = ("A", letter("r" + attacker)) if winner == "attacker" else ("A", letter("b" + defender))
    assert fight(attacker, defender, "r", aggressor_wins=1) == want


# ---------------------------------------------------------------- one-time bombs
# docs/rules.md "Other variants", Ultimate Lightning: a bomb is removed once it is hit. A
# Miner still defuses a bomb and takes its square; without the rule the bomb stays.

@pytest.mark.parametrize("attacker", [s for s in MOVABLE if s != "3"])
@pytest.mark.parametrize("side", ["r", "b"])
def test_one_time_bomb_goes_with_the_attacker_it_kills(attacker, side):
    assert fight(attacker, "B", side, one_time_bombs=1) == ("A", "A")


@pytest.mark.parametrize("side", ["r", "b"])
def test_miner_still_defuses_a_one_time_bomb(side):
    assert fight("3", "B", side, one_time_bombs=1) == ("A", letter(side + "3"))


@pytest.mark.parametrize("side", ["r", "b"])
def test_bombs_stay_without_the_rule(side):
    other = "b" if side == "r" else "r"
    assert fight("7", "B", side) == ("A", letter(other + "B"))
    assert fight("7", "B", side, variant="ultimate-lightning", one_time_bombs=0) == ("A", letter(other + "B"))


def test_ultimate_lightning_bombs_are_one_time():
    assert fight("10", "B", "r", variant="ultimate-lightning") == ("A", "A")


# ---------------------------------------------------------------- rescue
# docs/rules.md "Seed tournament rules", Rescue: moving onto a square of the opponent's back
# row lets you return one of your captured pieces to any empty square of your own half,
# and that ends the turn. Scouts cannot rescue; a Bomb cannot be rescued; at most two
# rescues per player; the same piece cannot make both rescues.

RESCUE = """
bF  .   .   .   .   .   .   .   .   b4
.   .   .   .   r7  .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   b6  .   ~   ~   .   .
.   .   .   .   r5  .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
rF  .   .   .   .   .   .   .   .   .
"""


def own_half_empty(g: stratego.Game, player: int) -> list[int]:
    """Empty squares of `player`'s half (rows 1-5 for red, 6-10 for blue)."""
    half = range(50) if player == RED else range(50, 100)
    return [sq for sq in half if g.field[sq] == "A"]


def expected_rescues(g: stratego.Game, player: int, types, numbering: str = "new") -> set[str]:
    symbols = SYMBOLS if numbering == "new" else OLD_SYMBOLS
    return {f"{symbols[t]}@{stratego.format_square(sq)}" for t in types for sq in own_half_empty(g, player)} | {"pass"}


def rescue_ready(numbering: str = "new", **settings) -> stratego.Game:
    """RESCUE with red's Lieutenant lost (it attacked the Captain) and red to move."""
    g = game(RESCUE, rescue=1, numbering=numbering, **settings)
    g.play("E4-E5")
    assert g.captured(RED) == ["lieutenant"] and at(g, "E5") == letter("b6")
    blue_idle(g)
    return g


def test_reaching_the_back_row_opens_the_rescue_phase():
    g = rescue_ready()
    ply = g.ply
    g.play("E9-E10")
    assert g.rescue_pending and g.to_move == RED and not g.done
    assert g.ply == ply + 1  # the ply is counted with the move
    assert set(g.legal_moves()) == expected_rescues(g, RED, [TYPE["lieutenant"]])
    assert len(g.legal_moves()) == len(set(g.legal_moves()))
    # the lakes, the blue Captain on E5 and red's own pieces are not empty squares
    for name in ("C5", "D5", "G5", "H5", "E5", "A1", "A6", "E6"):
        assert f"5@{name}" not in g.legal_moves()
    g.play("5@F4")
    assert at(g, "F4") == letter("r5")
    assert g.captured(RED) == []
    assert g.rescues == (1, 0)
    assert not g.rescue_pending and g.to_move == BLUE and g.ply == ply + 1


def test_rescue_actions_and_their_layout():
    g = rescue_ready()
    g.play("E9-E10")
    want = {RESCUE_BASE + TYPE["lieutenant"] * 50 + sq for sq in own_half_empty(g, RED)} | {RESCUE_DECLINE}
    assert set(g.legal_actions()) == want
    a = stratego.rescue_to_action(TYPE["lieutenant"], parse_square("F4"), RED)
    assert a == RESCUE_BASE + 5 * 50 + parse_square("F4")
    assert stratego.decode_action(a, RED) == ("rescue", TYPE["lieutenant"], parse_square("F4"))
    assert stratego.decode_action(RESCUE_DECLINE, RED)[0] == "decline"
    g.play(a)
    assert at(g, "F4") == letter("r5") and g.rescues == (1, 0)


def test_rescue_actions_are_in_the_actor_frame():
    # Blue's half is turned: square sq of blue's half is h = 99 - sq.
    for sq in range(50, 100):
        a = stratego.rescue_to_action(TYPE["captain"], sq, BLUE)
        assert a == RESCUE_BASE + TYPE["captain"] * 50 + (99 - sq)
        assert stratego.decode_action(a, BLUE) == ("rescue", TYPE["captain"], sq)
    for sq in range(50):
        assert stratego.decode_action(RESCUE_BASE + 3 * 50 + sq, RED) == ("rescue", 3, sq)
    with pytest.raises(ValueError):
        stratego.rescue_to_action(TYPE["captain"], 50, RED)  # not red's half
    with pytest.raises(ValueError):
        stratego.rescue_to_action(TYPE["captain"], 49, BLUE)  # not blue's half


def test_blue_rescues_onto_its_own_half():
    g = game("""
bF  .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   b3  .   .   .   .   .
.   .   ~   ~   r8  .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   b7  .
rF  .   .   .   .   .   .   .   .   r4
""", to_move=BLUE, rescue=1)
    g.play("E7-E6")  # the blue Miner attacks the Colonel and is lost
    assert g.captured(BLUE) == ["miner"]
    g.play("K1-K2")
    g.play("I2-I1")  # onto red's back row
    assert g.rescue_pending and g.to_move == BLUE
    assert set(g.legal_moves()) == expected_rescues(g, BLUE, [TYPE["miner"]])
    want = {RESCUE_BASE + TYPE["miner"] * 50 + (99 - sq) for sq in own_half_empty(g, BLUE)} | {RESCUE_DECLINE}
    assert set(g.legal_actions()) == want
    assert "3@E5" not in g.legal_moves()  # red's half
    g.play(stratego.rescue_to_action(TYPE["miner"], parse_square("F9"), BLUE))
    assert at(g, "F9") == letter("b3") and g.rescues == (0, 1) and g.to_move == RED


def test_every_captured_type_but_bombs_can_be_rescued():
    g = game("""
bF  .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   r7  .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   b10 .   ~   ~   .   .
.   .   .   .   r6  .   .   .   .   .
.   .   .   .   r4  .   .   .   .   b3
.   .   .   .   r9  .   .   .   .   rB
rF  .   .   .   .   .   .   .   .   .
""", to_move=BLUE, rescue=1)
    g.play("K3-K2")  # the blue Miner defuses red's bomb
    for move in ("E4-E5", "E3-E4", "E4-E5", "E2-E3", "E3-E4", "E4-E5"):
        g.play(move)  # the Captain, the Sergeant and the General attack the Marshal
        blue_idle(g)
    assert sorted(g.captured(RED)) == ["bomb", "captain", "general", "sergeant"]
    g.play("H9-H10")
    assert g.rescue_pending
    types = [TYPE["sergeant"], TYPE["captain"], TYPE["general"]]
    assert set(g.legal_moves()) == expected_rescues(g, RED, types)  # no bomb
    assert not any(m.startswith("B@") for m in g.legal_moves())
    g.play("9@E4")
    assert at(g, "E4") == letter("r9")
    assert sorted(g.captured(RED)) == ["bomb", "captain", "sergeant"]


@pytest.mark.parametrize("rank", MOVABLE)
def test_each_movable_rank_can_be_rescued(rank):
    # Scouts cannot rescue, but a captured Scout (like any piece but a Bomb) comes back.
    defender = "9" if rank == "S" else "10"
    g = game(RESCUE.replace("r5", "r" + rank).replace("b6", "b" + defender), rescue=1)
    g.play("E4-E5")
    t = SYMBOLS.index(rank)
    assert g.captured(RED) == [PIECE_NAMES[t]]
    blue_idle(g)
    g.play("E9-E10")
    assert set(g.legal_moves()) == expected_rescues(g, RED, [t])
    g.play(f"{rank}@F4")
    assert at(g, "F4") == letter("r" + rank) and g.captured(RED) == []


def test_rescue_after_winning_an_attack_on_the_back_row():
    g = game(RESCUE.replace("bF  .   .   .   .", "bF  .   .   .   b2"), rescue=1)
    g.play("E4-E5")
    blue_idle(g)
    g.play("E9-E10")  # the Major takes the Scout on the back row
    assert at(g, "E10") == letter("r7")
    assert g.rescue_pending and g.to_move == RED


def test_losing_an_attack_on_the_back_row_opens_nothing():
    g = game(RESCUE.replace("bF  .   .   .   .", "bF  .   .   .   b9"), rescue=1)
    g.play("E4-E5")
    blue_idle(g)
    g.play("E9-E10")  # the Major attacks the General and is lost
    assert at(g, "E10") == letter("b9")
    assert not g.rescue_pending and g.to_move == BLUE


def test_other_rows_open_nothing():
    g = rescue_ready()
    g.play("E9-D9")
    assert not g.rescue_pending and g.to_move == BLUE


def test_a_sideways_move_along_the_back_row_opens_a_rescue():
    # docs/rules.md "Readings where the sources leave a choice": moving onto a square of
    # the opponent's back row is ending a move there from anywhere, so a piece already on
    # that row that steps along it
    # opens a rescue (here the Major reached E10 with nothing to rescue, then red lost
    # the Lieutenant, then the Major steps to F10).
    g = game(RESCUE, rescue=1)
    g.play("E9-E10")
    assert not g.rescue_pending  # nothing captured yet
    blue_idle(g)
    g.play("E4-E5")
    assert g.captured(RED) == ["lieutenant"]
    blue_idle(g)
    g.play("E10-F10")
    assert g.rescue_pending and g.to_move == RED
    assert set(g.legal_moves()) == expected_rescues(g, RED, [TYPE["lieutenant"]])


def test_scouts_do_not_rescue():
    g = game(RESCUE.replace("r7", "r2"), rescue=1)
    g.play("E4-E5")
    assert g.captured(RED) == ["lieutenant"]
    blue_idle(g)
    g.play("E9-E10")
    assert at(g, "E10") == letter("r2")
    assert not g.rescue_pending and g.to_move == BLUE


def test_long_scout_move_onto_the_back_row_does_not_rescue():
    g = game("""
.   bF  .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   b6  .   ~   ~   .   .
r2  .   .   .   r5  .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
rF  .   .   .   .   .   .   .   .   .
""", rescue=1)
    g.play("E4-E5")
    blue_idle(g)
    g.play("A4-A10")
    assert at(g, "A10") == letter("r2")
    assert not g.rescue_pending and g.to_move == BLUE


def test_no_captured_piece_no_rescue_phase():
    g = game(RESCUE, rescue=1)
    g.play("E9-E10")
    assert g.captured(RED) == [] and not g.rescue_pending and g.to_move == BLUE


def test_only_bombs_captured_no_rescue_phase():
    g = game("""
bF  .   .   .   .   .   .   .   .   b4
.   .   .   .   r7  .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   b3  .   .   .   .   .
.   .   .   .   rB  .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
rF  .   .   .   .   .   .   .   .   .
""", to_move=BLUE, rescue=1)
    g.play("E4-E3")  # the Miner defuses red's bomb
    assert g.captured(RED) == ["bomb"]
    g.play("E9-E10")
    assert not g.rescue_pending and g.to_move == BLUE


def test_rescue_is_off_without_the_rule():
    g = game(RESCUE)
    g.play("E4-E5")
    blue_idle(g)
    g.play("E9-E10")
    assert not g.rescue_pending and g.to_move == BLUE and g.rescues == (0, 0)


LIMIT = """
.   .   .   .   .   .   bF  .   .   b4
r7  r8  r9  .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   b10 .   ~   ~   .   .
.   .   .   .   r5  .   .   .   .   .
.   .   .   .   r4  .   .   .   .   .
.   .   .   .   r3  .   .   .   .   .
rF  .   .   .   .   .   .   .   .   .
"""


def lose_three(g: stratego.Game) -> None:
    """Red's Lieutenant, Sergeant and Miner attack the blue Marshal in turn and are lost."""
    g.play("E4-E5")
    blue_idle(g)
    g.play("E3-E4")
    blue_idle(g)
    g.play("E4-E5")
    blue_idle(g)
    g.play("E2-E3")
    blue_idle(g)
    g.play("E3-E4")
    blue_idle(g)
    g.play("E4-E5")
    blue_idle(g)
    assert sorted(g.captured(RED)) == ["lieutenant", "miner", "sergeant"]
    assert at(g, "E5") == letter("b10")


def test_at_most_two_rescues_per_player():
    g = game(LIMIT, rescue=1)
    lose_three(g)
    g.play("A9-A10")
    assert g.rescue_pending
    g.play("5@E1")
    blue_idle(g)
    g.play("B9-B10")
    assert g.rescue_pending
    g.play("4@E2")
    assert g.rescues == (2, 0) and g.captured(RED) == ["miner"]
    blue_idle(g)
    g.play("C9-C10")  # a third piece, a captured Miner left: no third rescue
    assert not g.rescue_pending and g.to_move == BLUE


def test_the_same_piece_cannot_make_both_rescues():
    g = game(LIMIT, rescue=1)
    lose_three(g)
    g.play("A9-A10")
    g.play("5@E1")
    blue_idle(g)
    g.play("A10-B10")  # the first rescuer reaches another back-row square
    assert not g.rescue_pending and g.to_move == BLUE
    blue_idle(g)
    g.play("C9-C10")  # another piece may make the second rescue
    assert g.rescue_pending
    g.play("3@E4")
    assert g.rescues == (2, 0)


def test_pass_declines_without_counting():
    g = game(LIMIT, rescue=1)
    lose_three(g)
    g.play("A9-A10")
    assert g.rescue_pending
    captured = sorted(g.captured(RED))
    g.play("pass")
    assert not g.rescue_pending and g.to_move == BLUE
    assert g.rescues == (0, 0) and sorted(g.captured(RED)) == captured
    blue_idle(g)
    # a declined phase made no rescue: the same piece may rescue on its next back-row move
    g.play("A10-B10")
    assert g.rescue_pending
    g.play("5@E1")
    assert g.rescues == (1, 0)


def test_moves_are_illegal_during_the_rescue_phase():
    g = rescue_ready()
    g.play("E9-E10")
    illegal(g, "E10-E9", "rescue is pending")
    illegal(g, "E10-D10", "rescue is pending")
    action = stratego.squares_to_action(parse_square("E10"), parse_square("E9"), RED)
    with pytest.raises(ValueError, match="rescue is pending"):
        g.play(action)
    assert g.rescue_pending
    # nor can blue's pieces be moved: it is still red's turn
    with pytest.raises(ValueError):
        g.play("K9-K8")
    # rescuing a piece that was not captured, or onto a bad square, is illegal too
    illegal(g, "6@F4", "no captured piece")
    illegal(g, "B@F4", "no captured piece")
    illegal(g, "5@F6", "own half")
    illegal(g, "5@A1", "own half")
    illegal(g, "5@C5", "own half")


def test_rescue_actions_are_illegal_outside_the_phase():
    g = rescue_ready()
    illegal(g, "5@F4", "no rescue is pending")
    illegal(g, "pass", "no rescue is pending")
    for a in (stratego.rescue_to_action(TYPE["lieutenant"], parse_square("F4"), RED), RESCUE_DECLINE):
        assert a not in g.legal_actions()
        with pytest.raises(ValueError, match="no rescue is pending"):
            g.play(a)


def test_rescue_actions_do_not_exist_without_the_rule():
    g = game(RESCUE)
    with pytest.raises(ValueError):
        g.play(RESCUE_DECLINE)
    with pytest.raises(ValueError):
        g.play("pass")


def test_num_actions():
    assert stratego.load_variant("classic").num_actions == 1800
    assert stratego.load_variant("classic", rescue=1).num_actions == 2801
    assert stratego.load_variant("classic", captain_two_squares=1).num_actions == 2200
    assert stratego.load_variant("seed-tournament").num_actions == 2801
    assert stratego.load_variant("ultimate-lightning").num_actions == 2801


def decode_counts(field: str, player: int) -> Counter:
    lo = ord("B") if player == RED else ord("N")
    return Counter(ord(c) - lo for c in field if lo <= ord(c) < lo + 12)


@pytest.mark.parametrize("variant", ["seed-tournament", "ultimate-lightning"])
def test_vec_env_mask_in_the_rescue_phase(variant):
    env = stratego.VecEnv(256, variant, seed=5)
    counts = env.variant.piece_counts
    phases = 0
    for _ in range(600):
        for i in np.flatnonzero(env.action_mask[:, RESCUE_BASE:].any(axis=1)):
            i = int(i)
            legal = set(np.flatnonzero(env.action_mask[i]).tolist())
            assert min(legal) >= RESCUE_BASE and RESCUE_DECLINE in legal, (i, sorted(legal)[:5])
            player = int(env.to_play[i])
            field = env.game_field(i)
            on_board = decode_counts(field, player)
            lost = [t for t in range(1, 11) if on_board[t] < counts[t]]  # no bomb, no flag
            empty = [sq for sq in (range(50) if player == RED else range(50, 100)) if field[sq] == "A"]
            frame = [sq if player == RED else 99 - sq for sq in empty]
            want = {RESCUE_BASE + t * 50 + h for t in lost for h in frame} | {RESCUE_DECLINE}
            assert legal == want, (i, field)
            phases += 1
        acts = env.sample_actions()
        assert env.action_mask[np.arange(env.num_envs), acts].all()
        env.step(acts)
    assert phases > 0
    env.close()


# ---------------------------------------------------------------- two-square Captains
# docs/rules.md "Other variants", Ultimate Lightning: Captains move up to two squares, turning
# after the first (so: over an empty first square, straight on or to a diagonal square).

CAPTAIN = """
bF  .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   r6  .   .   .   .   .
rF  .   .   .   .   .   .   .   .   .
"""


def test_captain_moves_one_or_two_squares_straight_or_turning():
    g = game(CAPTAIN, captain_two_squares=1)
    assert targets(g, "E2") == squares("E3 E1 D2 F2 E4 C2 G2 D3 F3 D1 F1")
    g.play("E2-F3")
    assert at(g, "F3") == letter("r6") and at(g, "E2") == "A"


def test_ultimate_lightning_captains_move_two_squares():
    g = game(CAPTAIN, variant="ultimate-lightning")
    assert targets(g, "E2") == squares("E3 E1 D2 F2 E4 C2 G2 D3 F3 D1 F1")


def test_captains_move_one_square_without_the_rule():
    g = game(CAPTAIN)
    assert targets(g, "E2") == squares("E3 E1 D2 F2")
    illegal(g, "E2-E4", "only a scout")
    illegal(g, "E2-F3", "not diagonally")


TURN = """
bF  .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   E3  .   .   .   .   .
.   .   .   .   r6  F2  .   .   .   .
rF  .   .   .   .   .   .   .   .   .
"""


def test_turning_move_over_either_empty_neighbour():
    # F3 is reached over E3 or over F2: one of them empty is enough.
    g = game(TURN.replace("E3", "r4").replace("F2", "."), captain_two_squares=1)
    assert parse_square("F3") in targets(g, "E2")
    g = game(TURN.replace("E3", ".").replace("F2", "r4"), captain_two_squares=1)
    assert parse_square("F3") in targets(g, "E2")
    g.play("E2-F3")
    assert at(g, "F3") == letter("r6")


def test_turning_move_blocked_when_both_neighbours_are_taken():
    g = game(TURN.replace("E3", "r4").replace("F2", "r4"), captain_two_squares=1)
    # both neighbours of F3 taken: no F3; over E3 no E4, over F2 no G2
    assert targets(g, "E2") == squares("E1 D2 C2 D3 D1 F1")
    for move in ("E2-F3", "E2-E4", "E2-G2"):
        assert move not in g.legal_moves()
        field = g.field
        with pytest.raises(ValueError):
            g.play(move)
        assert g.field == field


def test_captain_cannot_turn_round_lakes():
    # D7: D6 is a lake, E7 an own piece, so E6 (over D6 or E7) is out of reach.
    g = game("""
bF  .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   r6  r4  .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
rF  .   .   .   .   .   .   .   .   .
""", captain_two_squares=1)
    assert targets(g, "D7") == squares("D8 C7 D9 C8 E8 B7")
    for move in ("D7-E6", "D7-C6", "D7-D5"):
        with pytest.raises(ValueError):
            g.play(move)


def test_captain_attacks_on_the_second_square_but_not_over_a_piece():
    drawing = """
bF  .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   b5  .   .   .   .   .
.   .   .   .   MID b4  .   .   .   .
.   .   .   .   r6  .   .   .   .   .
rF  .   .   .   .   .   .   .   .   .
"""
    g = game(drawing.replace("MID", "."), captain_two_squares=1)
    assert {parse_square("E4"), parse_square("F3")} <= targets(g, "E2")
    g.play("E2-E4")  # straight, attacking the Lieutenant on the second square
    assert at(g, "E4") == letter("r6") and at(g, "E2") == "A"
    g = game(drawing.replace("MID", "."), captain_two_squares=1)
    g.play("E2-F3")  # turning, attacking the Sergeant
    assert at(g, "F3") == letter("r6")
    # a blue piece on E3: the Captain may attack it but not pass it to E4; F3 is still
    # reached over F2
    g = game(drawing.replace("MID", "b3"), captain_two_squares=1)
    assert parse_square("E4") not in targets(g, "E2")
    assert {parse_square("E3"), parse_square("F3"), parse_square("D3")} <= targets(g, "E2")
    with pytest.raises(ValueError):
        g.play("E2-E4")
    # with F2 taken as well, the Sergeant on F3 is out of reach
    g = game(drawing.replace("MID", "b3").replace("r6  .   .   .   .   .", "r6  r4  .   .   .   ."),
             captain_two_squares=1)
    assert parse_square("F3") not in targets(g, "E2")


def test_other_pieces_do_not_move_diagonally_or_two_squares():
    for token in ("5", "7", "10", "3"):
        g = game(CAPTAIN.replace("r6", "r" + token), variant="ultimate-lightning")
        assert targets(g, "E2") == squares("E3 E1 D2 F2"), token
        illegal(g, "E2-F3", "not diagonally")
        illegal(g, "E2-E4", "only a scout")
        action = stratego.squares_to_action(parse_square("E2"), parse_square("F3"), RED)
        assert action >= 1800 and action not in g.legal_actions()
        with pytest.raises(ValueError):
            g.play(action)
    g = game(CAPTAIN.replace("r6", "r2"), variant="ultimate-lightning")
    assert parse_square("F3") not in targets(g, "E2")
    illegal(g, "E2-F3", "not diagonally")


def test_diagonal_actions_do_not_exist_in_classic():
    g = game(CAPTAIN)
    action = stratego.squares_to_action(parse_square("E2"), parse_square("F3"), RED)
    assert 1800 <= action < 2200
    with pytest.raises(ValueError):
        g.play(action)


def test_diagonal_actions_are_in_the_actor_frame():
    # 1800 + from * 4 + 2 * up + right, in the actor's frame (blue's board turned)
    e2, f3 = parse_square("E2"), parse_square("F3")
    assert stratego.squares_to_action(e2, f3, RED) == 1800 + e2 * 4 + 2 * 1 + 1
    assert stratego.decode_action(1800 + e2 * 4 + 3, RED) == ("move", e2, f3)
    # blue going from F3 down-left to E2 is, in its frame, from 99-F3 up-right
    assert stratego.squares_to_action(f3, e2, BLUE) == 1800 + (99 - f3) * 4 + 3
    assert stratego.decode_action(1800 + (99 - f3) * 4 + 3, BLUE) == ("move", f3, e2)


def test_blue_captain_moves_two_squares():
    g = game("""
bF  .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   b6  .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
rF  .   .   .   .   .   .   .   .   r4
""", to_move=BLUE, variant="ultimate-lightning")
    assert targets(g, "F8") == squares("F9 F7 E8 G8 F10 F6 D8 H8 E9 G9 E7 G7")
    g.play("F8-E7")
    assert at(g, "E7") == letter("b6")


def belief(g: stratego.Game, observer: int, square: str) -> dict[str, float]:
    """The observer's belief planes at a square, by type name (non-zero entries)."""
    obs = g.observation(observer, dtype="float32", belief=True)
    names = stratego.channel_names(4, True)
    f = parse_square(square) if observer == RED else 99 - parse_square(square)
    return {name[7:]: float(obs[c].flat[f]) for c, name in enumerate(names)
            if name.startswith("belief_") and obs[c].flat[f] != 0}


def test_two_square_captain_move_shows_a_scout_or_a_captain():
    # docs/rules.md "Movement and combat": only a Scout moves more than one square, so a long
    # move shows a Scout; where Captains move two squares (Ultimate Lightning) a straight
    # two-square move shows a Scout or a Captain (issue 13): not one type in the planes,
    # but the belief planes hold the set. Red has a Scout (B1), a Major (C1) and the
    # Captain, none identified: the mover is a Scout or the Captain, each with chance 1/2
    # (a moved piece that could be any movable type would be the Major with 1/3).
    g = game(CAPTAIN.replace("rF  .   .", "rF  r2  r7"), variant="ultimate-lightning")
    g.play("E2-E4")
    assert view(g, BLUE)["E4"] == "r?m"
    obs = g.observation(BLUE)
    names = stratego.channel_names(4, False)
    f = 99 - parse_square("E4")
    assert obs[names.index("opp_scout")].flat[f] == 0
    assert obs[names.index("opp_captain")].flat[f] == 0
    assert obs[names.index("opp_unknown_moved")].flat[f] == 1
    assert belief(g, BLUE, "E4") == pytest.approx({"scout": 0.5, "captain": 0.5})
    # an unmoved piece (B1): the Flag with chance 1/3 (A1, B1 or C1); else the Major or
    # whichever of Scout and Captain the mover is not (enumerated: 4, 2, 2, 4 of 12)
    assert belief(g, BLUE, "B1") == pytest.approx({"flag": 1 / 3, "scout": 1 / 6, "captain": 1 / 6, "major": 1 / 3})
    # the owner's own plane: not identified, so not revealed
    own = g.observation(RED)
    assert own[names.index("own_revealed")].flat[parse_square("E4")] == 0
    blue_idle(g)
    g.play("B1-B3")  # a Scout's two-square move looks like a Captain's
    assert view(g, BLUE)["B3"] == "r?m"
    assert belief(g, BLUE, "B3") == pytest.approx({"scout": 0.5, "captain": 0.5})
    assert belief(g, BLUE, "C1") == pytest.approx({"flag": 0.5, "major": 0.5})
    blue_idle(g)
    g.play("B3-B7")  # four squares: only a Scout
    assert view(g, BLUE)["B7"] == "r2"
    obs = g.observation(BLUE)
    assert obs[names.index("opp_scout")].flat[99 - parse_square("B7")] == 1
    assert obs[names.index("opp_unknown_moved")].flat[99 - parse_square("B7")] == 0
    # with the Scout known, the piece on E4 can only be the Captain
    assert belief(g, BLUE, "E4") == pytest.approx({"captain": 1.0})


def test_captain_diagonal_move_shows_a_captain():
    # Only a Captain moves diagonally (Ultimate Lightning): the move names its type, as a
    # Scout's long move does in classic.
    g = game(CAPTAIN.replace("rF  .   .", "rF  r2  ."), variant="ultimate-lightning")
    g.play("E2-F3")
    assert view(g, BLUE)["F3"] == "r6"
    names = stratego.channel_names(4, False)
    obs = g.observation(BLUE)
    f = 99 - parse_square("F3")
    assert obs[names.index("opp_captain")].flat[f] == 1
    assert obs[names.index("opp_unknown_moved")].flat[f] == 0
    assert belief(g, BLUE, "F3") == {"captain": 1.0}
    assert g.observation(RED)[names.index("own_revealed")].flat[parse_square("F3")] == 1
    # a later one-square move does not hide it again
    blue_idle(g)
    g.play("F3-F4")
    assert view(g, BLUE)["F4"] == "r6"


@pytest.mark.parametrize("mover,other,shown", [("r2", "r5", "r2"), ("r6", "r5", "r6")])
def test_two_square_move_of_a_side_without_the_other_type_shows_one_type(mover, other, shown):
    # A side with Scouts and no Captain (or Captains and no Scout): a straight two-square
    # move can only be the type it has. The piece set is public (its counts).
    g = game(CAPTAIN.replace("r6", mover).replace("rF  .   .", "rF  " + other + "  ."), captain_two_squares=1)
    g.play("E2-E4")
    assert view(g, BLUE)["E4"] == shown


def test_scout_three_square_move_shows_a_scout_with_two_square_captains():
    g = game(CAPTAIN.replace("rF  .   .", "rF  r2  ."), variant="ultimate-lightning")
    g.play("B1-B4")
    assert view(g, BLUE)["B4"] == "r2"


def test_two_square_scout_move_shows_a_scout_in_classic():
    g = game(CAPTAIN.replace("rF  .   .", "rF  r2  ."))
    g.play("B1-B3")
    assert view(g, BLUE)["B3"] == "r2"


def test_two_square_rule_counts_a_captains_diagonal_back_and_forth():
    # docs/rules.md "Repetition": a piece may not move more than N times non-stop between the
    # same two squares (Ultimate Lightning replays under the server's 5).
    g = game(CAPTAIN, variant="ultimate-lightning")
    assert g.variant.settings["two_square_limit"] == 5
    for k in range(5):
        g.play("E2-F3" if k % 2 == 0 else "F3-E2")
        blue_idle(g)
    assert at(g, "F3") == letter("r6")
    illegal(g, "F3-E2", "two-square rule")
    g.play("F3-F4")  # another move is fine


def test_two_square_rule_limit_three_for_a_captains_diagonal():
    g = game(CAPTAIN, variant="ultimate-lightning", two_square_limit=3)
    for k in range(3):
        g.play("E2-F3" if k % 2 == 0 else "F3-E2")
        blue_idle(g)
    illegal(g, "F3-E2", "two-square rule")


def test_captain_straight_two_square_run_is_the_longest_tail():
    # A Captain's straight two-square move crosses two boundaries, like a Scout's: E1-E3,
    # E3-E2 and E2-E3 all cross E2|E3, so with E2-E1 before them the run is 3 (issue 13).
    g = game(CAPTAIN, variant="ultimate-lightning", two_square_limit=3)
    for move in ("E2-E1", "E1-E3", "E3-E2", "E2-E3"):
        g.play(move)
        blue_idle(g)
    illegal(g, "E3-E2", "two-square rule")
    illegal(g, "E3-E1", "two-square rule")
    assert squares("E4 E5") <= targets(g, "E3")


def test_diagonal_moves_between_other_squares_do_not_continue_the_run():
    g = game(CAPTAIN, variant="ultimate-lightning", two_square_limit=3)
    for move in ("E2-F3", "F3-E2", "E2-F3", "F3-E4", "E4-F3", "F3-E4"):
        g.play(move)
        blue_idle(g)
    illegal(g, "E4-F3", "two-square rule")


# ---------------------------------------------------------------- chasing rule
# docs/rules.md "Repetition", more-squares rule (ISF art. 11): a player who is continuously
# chasing an enemy piece may not make a chasing move that recreates a position that has
# already occurred in that chase; moving back to the square the chaser just came from is
# allowed. Engine reading (csrc/stratego/chase.h): a chasing move goes to an empty square next to
# the piece the opponent just moved; the chase ends with any other move of either side.
#
# Blue's Lieutenant flees round the 2x2 block E7 F7 F8 E8 and red's Colonel follows it.
# (With a one-square chaser and a piece that only goes back and forth between two
# squares no position can come back except by the chaser going back where it came
# from, which the rule allows; so the chased piece runs round.)

CHASE = """
bF  .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   b4
.   .   .   .   .   b5  .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   r8  .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
r4  .   .   .   .   .   .   .   .   .
rF  .   .   .   .   .   .   .   .   .
"""
# blue, red, blue, red, ...: after the last blue move, red's E8-E7 would recreate the
# position after red's first chasing move (E6-E7 with the Lieutenant on F7).
CHASE_PLIES = ("F8-F7", "E6-E7", "F7-F8", "E7-F7", "F8-E8", "F7-F8", "E8-E7", "F8-E8", "E7-F7")
FORBIDDEN = "E8-E7"


def chase_game(variant: str = "classic", **settings) -> stratego.Game:
    g = game(CHASE, to_move=BLUE, variant=variant, **settings)
    for move in CHASE_PLIES:
        g.play(move)
    return g


def test_chasing_move_recreating_a_chase_position_is_illegal():
    g = chase_game(chasing_rule=1)
    assert g.to_move == RED
    illegal(g, FORBIDDEN, "chasing rule")
    action = stratego.squares_to_action(*parse_move(FORBIDDEN), RED)
    assert action not in g.legal_actions()
    with pytest.raises(ValueError, match="chasing rule"):
        g.play(action)
    # other moves stay legal: back to F8 (where the Colonel came from), away, the idle piece
    assert {"E8-F8", "E8-D8", "E8-E9", "A2-A3", "A2-B2"} <= set(g.legal_moves())


def test_same_move_is_legal_without_the_chasing_rule():
    g = chase_game(chasing_rule=0)
    assert FORBIDDEN in g.legal_moves()
    g.play(FORBIDDEN)
    assert at(g, "E7") == letter("r8")


@pytest.mark.parametrize("variant,on", [("isf", True), ("classic", False), ("gravon", False)])
def test_which_variants_have_the_chasing_rule(variant, on):
    assert stratego.load_variant(variant).settings["chasing_rule"] == int(on)
    g = chase_game(variant)
    assert (FORBIDDEN in g.legal_moves()) == (not on)
    if on:
        illegal(g, FORBIDDEN, "chasing rule")
    else:
        g.play(FORBIDDEN)


def test_isf_chasing_rule_can_be_switched_off():
    g = chase_game("isf", chasing_rule=0)
    g.play(FORBIDDEN)


def test_going_back_to_the_square_just_left_stays_legal():
    # The Lieutenant goes back and forth E8/F8, the Colonel follows on E7/F7; its move
    # back to E7 recreates the position after its first chasing move, but it goes back
    # to the square it just came from.
    g = game(CHASE, to_move=BLUE, chasing_rule=1)
    for move in ("F8-E8", "E6-E7", "E8-F8", "E7-F7", "F8-E8"):
        g.play(move)
    assert "F7-E7" in g.legal_moves()
    g.play("F7-E7")
    assert at(g, "E7") == letter("r8")


def test_a_non_chasing_move_ends_the_chase():
    g = chase_game(chasing_rule=1)
    assert FORBIDDEN not in g.legal_moves()
    g.play("A2-A3")  # red moves another piece: the chase is over
    g.play("F7-F8")
    g.play("A3-A2")  # not next to the Lieutenant: no chase
    g.play("F8-F7")
    # the position is the one after red's first chasing move, with the Colonel on E8 and
    # the Lieutenant just moved to F7, as when E8-E7 was forbidden; now no chase remembers it
    assert g.field == chase_game(chasing_rule=1).field
    assert FORBIDDEN in g.legal_moves()
    g.play(FORBIDDEN)


def test_blue_moving_another_piece_ends_the_chase():
    g = game(CHASE, to_move=BLUE, chasing_rule=1)
    for move in CHASE_PLIES[:-1]:
        g.play(move)
    g.play("K9-K8")  # blue moves another piece: the chase is over
    g.play("A2-A3")
    g.play("K8-K9")
    g.play("A3-A2")
    g.play("E7-F7")
    assert g.field == chase_game(chasing_rule=1).field
    assert FORBIDDEN in g.legal_moves()
    g.play(FORBIDDEN)


def test_a_new_chase_remembers_only_its_own_positions():
    # After the chase above ends, a new one starts: the Colonel may go round again, and
    # the move that recreates the new chase's first position is forbidden in its turn.
    g = chase_game(chasing_rule=1)
    g.play("A2-A3")
    g.play("F7-F8")
    g.play("A3-A2")
    g.play("F8-F7")
    g.play(FORBIDDEN)  # a new chase starts (Colonel E7, Lieutenant F7)
    for move in CHASE_PLIES[2:]:
        g.play(move)
    illegal(g, FORBIDDEN, "chasing rule")


def test_chasing_rule_for_blue():
    # the same chase with the colours swapped and the board turned
    def turn(drawing: str) -> str:
        rows = [line.split() for line in drawing.strip().splitlines()]
        swapped = [[{"r": "b", "b": "r"}.get(t[0], t[0]) + t[1:] if t not in (".", "~") else t for t in row]
                   for row in rows]
        return "\n".join(" ".join(reversed(row)) for row in reversed(swapped))

    def turn_move(move: str) -> str:
        a, b = parse_move(move)
        return stratego.format_move(99 - a, 99 - b)

    g = game(turn(CHASE), to_move=RED, chasing_rule=1)
    for move in CHASE_PLIES:
        g.play(turn_move(move))
    assert g.to_move == BLUE
    illegal(g, turn_move(FORBIDDEN), "chasing rule")
    g0 = game(turn(CHASE), to_move=RED, chasing_rule=0)
    for move in CHASE_PLIES:
        g0.play(turn_move(move))
    g0.play(turn_move(FORBIDDEN))


# The first threat belongs to the chase (issue 13): the Colonel's A2-B2 threatens the
# Lieutenant on C2, which evades; after the chase B3-B2 would recreate the position after
# that first threat (Colonel B2, Lieutenant C2).
FIRST_THREAT_FIELD = ("AAAAAAAAAMJASAAAAAAAAAAAAAAAAAAAAAAAAAAAAA__AA__AAAA__AA__AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
                      "AAAAAAAAAAAY")
FIRST_THREAT_PLIES = ("A2-B2", "C2-C3", "B2-C2", "C3-B3", "C2-C3", "B3-B2", "C3-B3", "B2-C2")


def test_the_first_threat_belongs_to_the_chase():
    g = stratego.Game.from_field(FIRST_THREAT_FIELD, to_move=RED, variant="isf")
    for move in FIRST_THREAT_PLIES:
        g.play(move)
    illegal(g, "B3-B2", "chasing rule")
    assert {"B3-B4", "B3-A3", "B3-C3"} == set(g.legal_moves())
    g = stratego.Game.from_field(FIRST_THREAT_FIELD, to_move=RED, variant="isf", chasing_rule=0)
    for move in FIRST_THREAT_PLIES:
        g.play(move)
    g.play("B3-B2")


def test_the_first_threat_counts_after_blue_moved_another_piece():
    # Blue's Sergeant on K9 moves first: the Colonel's threat does not land next to the
    # piece blue just moved, and is still the chase's first move.
    field = FIRST_THREAT_FIELD[:89] + "R" + FIRST_THREAT_FIELD[90:]
    g = stratego.Game.from_field(field, to_move=BLUE, variant="isf")
    g.play("K9-K8")
    for move in FIRST_THREAT_PLIES:
        g.play(move)
    illegal(g, "B3-B2", "chasing rule")


# A chase round a long cycle (issue 13): the Lieutenant runs round a ring of squares with
# the Colonel one square behind; the chase keeps every position, so the chasing move that
# closes the ring is illegal however long the ring is. Field: Colonel A1, Lieutenant B1,
# the Flags on E3 and E8, inside the rings; blue moves first.
RING_FIELD = ("JSAAAAAAAAAAAAAAAAAAAAAAMAAAAAAAAAAAAAAAAA__AA__AAAA__AA__AAAAAAAAAAAAAAAAYAAAAAAAAAAA"
              "AAAAAAAAAAAAAA")


def ring(rows: int) -> list[int]:
    """The edge squares of rows 1..rows, all columns, from A1 going right (counter-clockwise
    as red sees the board)."""
    top = rows - 1
    squares_ = [c for c in range(10)]
    squares_ += [r * 10 + 9 for r in range(1, top + 1)]
    squares_ += [top * 10 + c for c in range(8, -1, -1)]
    squares_ += [r * 10 for r in range(top - 1, 0, -1)]
    return squares_


@pytest.mark.parametrize("rows,length", [(10, 36), (9, 34)])
def test_a_chase_round_a_long_ring_is_caught(rows, length):
    cycle = ring(rows)
    assert len(cycle) == length and len(set(cycle)) == length
    g = stratego.Game.from_field(RING_FIELD, to_move=BLUE, variant="isf")
    first = None
    for k in range(length):
        lieutenant, colonel = cycle[(k + 1) % length], cycle[k % length]
        g.play(stratego.format_move(lieutenant, cycle[(k + 2) % length]))
        assert colonel in {parse_move(m)[0] for m in g.legal_moves()}
        g.play(stratego.format_move(colonel, cycle[(k + 1) % length]))
        if first is None:
            first = g.field
    # the Lieutenant goes on; the Colonel's next step would bring back the position after
    # its first move (Colonel B1, Lieutenant C1): the (length + 1)-th chasing move
    g.play(stratego.format_move(cycle[1], cycle[2]))
    closing = stratego.format_move(cycle[0], cycle[1])
    assert closing == "A1-B1"
    illegal(g, closing, "chasing rule")
    twin = stratego.Game.from_field(g.field, to_move=RED, variant="isf", chasing_rule=0)
    twin.play(closing)
    assert twin.field == first


TWO_EVADERS = """
bF  .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
b5  .   .   .   .   .   .   .   .   .
b5  .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
r8  .   .   .   .   .   .   .   .   rF
"""
TWO_EVADERS_PLIES = ("A1-A2", "A3-B3", "A2-B2", "B3-A3", "B2-B3", "A3-A2", "B3-A3",
                     "A4-B4",  # Y evades: the Colonel on A3 threatened A2 and A4
                     "A3-B3", "B4-A4", "B3-B2", "A2-A3")


def test_a_chase_of_two_pieces_in_turn_is_one_chase():
    # ISF 11.1 "one or more pieces": the chased side evades with whichever piece the
    # chaser's last move threatened; the chase goes on across the change of piece and
    # keeps its positions. Red's Colonel A1 threatens the Lieutenant A3 (X); X and, once
    # the Colonel threatens both, the Lieutenant A4 (Y) evade in turn; the Colonel's last
    # move would recreate the position after its first threat, from before Y evaded (a
    # chase of one piece at a time would have started afresh there).
    g = game(TWO_EVADERS, chasing_rule=1)
    for move in TWO_EVADERS_PLIES:
        g.play(move)
    illegal(g, "B2-A2", "chasing rule")
    g = game(TWO_EVADERS, chasing_rule=0)
    for move in TWO_EVADERS_PLIES:
        g.play(move)
    g.play("B2-A2")
    first = game(TWO_EVADERS)
    first.play("A1-A2")
    assert g.field == first.field  # the position after the first threat


@pytest.mark.parametrize("variant,settings", [("gravon", {"chasing_rule": 1}),
                                              ("isf", {"max_plies_without_attack": 0}),
                                              ("isf", {"max_plies_without_attack": 201})])
def test_the_chasing_rule_needs_a_no_attack_cap(variant, settings):
    # A chase keeps its positions since the last attack: the no-attack cap bounds them.
    with pytest.raises(ValueError, match="max_plies_without_attack between 1 and 200"):
        stratego.Game(variant, **settings)
    stratego.Game("isf", max_plies_without_attack=200)
    stratego.Game("gravon", chasing_rule=1, max_plies_without_attack=120)


# ---------------------------------------------------------------- numbering
# docs/rules.md "Classic board and pieces", piece table: old editions number ranks the
# other way (Marshal 1 ... Scout 9, Spy S); that is display only.

NUMBERS = """
bF  .   .   .   .   .   .   .   .   b4
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
r10 r9  r8  r7  r6  r5  r4  r3  r2  rS
rF  rB  .   .   .   .   .   .   .   .
"""


def test_render_in_the_old_numbering():
    g = stratego.Game.from_field(board(NUMBERS), numbering="old")
    cells = view(g, None)
    assert [cells[c + "2"] for c in "ABCDEFGHIK"] == ["r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "rS"]
    assert cells["A1"] == "rF" and cells["B1"] == "rB"
    assert view(g, RED)["A2"] == "r1" and view(g, RED)["I2"] == "r9"
    new = view(stratego.Game.from_field(board(NUMBERS)), None)
    assert [new[c + "2"] for c in "ABCDEFGHIK"] == ["r10", "r9", "r8", "r7", "r6", "r5", "r4", "r3", "r2", "rS"]


def test_game_with_old_numbering():
    g = stratego.Game("classic", seed=3, numbering="old")
    field = g.field
    marshal = field.index(letter("r10"))
    scout = field.index(letter("r2"))
    cells = view(g, None)
    assert cells[stratego.format_square(marshal)] == "r1"
    assert cells[stratego.format_square(scout)] == "r9"
    with pytest.raises(ValueError):
        stratego.Game("classic", seed=3, numbering="roman")


def test_rescue_notation_follows_the_numbering():
    g = rescue_ready(numbering="old")
    g.play("E9-E10")
    # the Lieutenant is 5 in the new numbering, 6 in the old
    assert set(g.legal_moves()) == expected_rescues(g, RED, [TYPE["lieutenant"]], "old")
    assert "6@F4" in g.legal_moves() and "5@F4" not in g.legal_moves()
    g.play("6@F4")
    assert at(g, "F4") == letter("r5")


def test_rescue_notation_old_numbering_captain():
    g = game(RESCUE.replace("r5", "r6").replace("b6", "b7"), rescue=1, numbering="old")
    g.play("E4-E5")
    blue_idle(g)
    g.play("E9-E10")
    assert "5@F4" in g.legal_moves() and "6@F4" not in g.legal_moves()
    g.play("5@F4")
    assert at(g, "F4") == letter("r6")


# ---------------------------------------------------------------- human setups
# stratego/data/classic_human.txt: one setup a line, 40 letters, the first ten the front
# row (row 4 for red), the last ten the back row; blue's laid out the same way from its
# own side (the board turned 180 degrees).

DATA = Path(stratego.__file__).resolve().parent / "data"


def setup_lines(name: str) -> set[str]:
    return {line.strip() for line in (DATA / name).read_text().splitlines() if line.strip()}


def red_setup(field: str) -> str:
    return "".join(field[(3 - i // 10) * 10 + i % 10] for i in range(40))


def blue_setup(field: str) -> str:
    letters = (field[99 - ((3 - i // 10) * 10 + i % 10)] for i in range(40))
    return "".join(c if c == "A" else chr(ord(c) - 12) for c in letters)


@pytest.mark.parametrize("variant,name", [("classic", "classic_human.txt"), ("barrage", "barrage_human.txt"),
                                          ("gravon", "classic_human.txt"), ("isf", "classic_human.txt")])
def test_human_setups_are_lines_of_the_file(variant, name):
    lines = setup_lines(name)
    for seed in range(20):
        field = stratego.Game(variant, seed=seed, setup="human").field
        assert red_setup(field) in lines, (seed, red_setup(field))
        assert blue_setup(field) in lines, (seed, blue_setup(field))
        assert all(c == "A" or c == "_" for c in field[40:60])
        assert all(c == "A" or "B" <= c <= "M" for c in field[:40])
        assert all(c == "A" or "N" <= c <= "Y" for c in field[60:])


def test_human_setups_put_the_flag_on_the_back_row_mostly():
    flags_back = 0
    for seed in range(100):
        field = stratego.Game("classic", seed=seed, setup="human").field
        flags_back += field.index("M") < 10  # red's flag on row 1
        flags_back += field.index("Y") >= 90  # blue's flag on row 10
    assert flags_back >= 150  # 88% of the file's flags are on the back row


def test_human_setups_same_seed_same_setups():
    a = stratego.Game("classic", seed=42, setup="human").field
    b = stratego.Game("classic", seed=42, setup="human").field
    c = stratego.Game("classic", seed=43, setup="human").field
    assert a == b and a != c
    fields = {stratego.Game("classic", seed=s, setup="human").field for s in range(10)}
    assert len(fields) == 10


@pytest.mark.parametrize("variant", ["duel", "duel-spinmaster", "ultimate-lightning", "seed-rulebook", "seed-tournament"])
def test_variants_without_human_setups_raise(variant):
    with pytest.raises(ValueError):
        stratego.Game(variant, seed=1, setup="human")
    with pytest.raises(ValueError):
        stratego.VecEnv(2, variant, setup="human")


def test_bad_setup_name_raises():
    with pytest.raises(ValueError):
        stratego.Game("classic", seed=1, setup="humans")


@pytest.mark.parametrize("variant,name", [("classic", "classic_human.txt"), ("barrage", "barrage_human.txt")])
def test_vec_env_human_setups(variant, name):
    lines = setup_lines(name)
    env = stratego.VecEnv(32, variant, setup="human", seed=9)
    fields = [env.game_field(i) for i in range(32)]
    for f in fields:
        assert red_setup(f) in lines and blue_setup(f) in lines
    assert len(set(fields)) > 1
    env2 = stratego.VecEnv(32, variant, setup="human", seed=9)
    assert [env2.game_field(i) for i in range(32)] == fields
    # games started by autoreset take human setups too
    restarted = 0
    for _ in range(400):
        env.step(env.sample_actions())
        for i in np.flatnonzero(env.terminated | env.truncated):
            f = env.game_field(int(i))
            assert red_setup(f) in lines and blue_setup(f) in lines
            restarted += 1
    if variant == "barrage":
        assert restarted > 0
    env.close()
    env2.close()


# ---------------------------------------------------------------- every variant
# docs/rules.md "Classic board and pieces", "Other variants": piece sets and setup zones.

def check_start_field(field: str, variant: stratego.Variant) -> None:
    rows = variant.settings["setup_rows"]
    counts = list(variant.piece_counts)
    for player, zone in ((RED, range(rows * 10)), (BLUE, range(100 - rows * 10, 100))):
        lo = ord("B") if player == RED else ord("N")
        got = [0] * 12
        for sq, c in enumerate(field):
            if lo <= ord(c) < lo + 12:
                assert sq in zone, (player, sq, field)
                got[ord(c) - lo] += 1
        assert got == counts, (player, got, counts)
    assert all(field[sq] == "_" for sq in LAKES)


@pytest.mark.parametrize("name", stratego.variants())
def test_every_variant_plays_random_games(name):
    variant = stratego.load_variant(name)
    results = []
    for threads in (1, 2):
        env = stratego.VecEnv(64, name, seed=1234, num_threads=threads)
        assert env.action_mask.shape == (64, variant.num_actions)
        assert env.num_actions == variant.num_actions
        starts = [env.game_field(i) for i in range(64)]
        for f in starts:
            check_start_field(f, variant)
        finished = 0
        for _ in range(300):
            acts = env.sample_actions()
            assert env.action_mask[np.arange(64), acts].all()
            env.step(acts)
            assert env.action_mask.shape == (64, variant.num_actions)
            assert env.action_mask.any(axis=1).all()
            for i in np.flatnonzero(env.terminated | env.truncated):
                check_start_field(env.game_field(int(i)), variant)
                finished += 1
        results.append((env.stats(), [env.game_field(i) for i in range(64)], env.to_play.copy()))
        env.close()
    (s1, f1, t1), (s2, f2, t2) = results
    assert s1 == s2 and s1["checksum"] == s2["checksum"]
    assert f1 == f2 and np.array_equal(t1, t2)
    assert s1["games_finished"] == finished


@pytest.mark.parametrize("name", stratego.variants())
def test_every_variant_random_game_from_game_class(name):
    g = stratego.Game(name, seed=7)
    check_start_field(g.field, g.variant)
    for _ in range(200):
        if g.done:
            break
        actions = g.legal_actions()
        assert actions and all(0 <= a < g.variant.num_actions for a in actions)
        g.play(actions[(g.ply * 7919) % len(actions)])


# ---------------------------------------------------------------- piece sets

def counts(**pieces: int) -> tuple[int, ...]:
    return tuple(pieces.get(n, 0) for n in PIECE_NAMES)


def test_barrage_piece_set():
    # docs/rules.md "Other variants": Flag, Marshal, General, Miner, 2 Scouts, Spy, 1 Bomb; own 40 squares.
    v = stratego.load_variant("barrage")
    assert v.piece_counts == counts(flag=1, marshal=1, general=1, miner=1, scout=2, spy=1, bomb=1)
    assert v.num_pieces == 8 and v.settings["setup_rows"] == 4


def test_duel_piece_sets():
    # docs/rules.md "Other variants": Flag, 2 Bombs, Marshal, General, 2 Miners, 2 Scouts, Spy; back four rows
    # (Spin Master's edition: three).
    want = counts(flag=1, bomb=2, marshal=1, general=1, miner=2, scout=2, spy=1)
    for name, rows in (("duel", 4), ("duel-spinmaster", 3)):
        v = stratego.load_variant(name)
        assert v.piece_counts == want and v.num_pieces == 10
        assert v.settings["setup_rows"] == rows


def test_classic_seed_and_ultimate_lightning_piece_sets():
    classic = counts(marshal=1, general=1, colonel=2, major=3, captain=4, lieutenant=4, sergeant=4,
                     miner=5, scout=8, spy=1, bomb=6, flag=1)
    seed = counts(marshal=1, general=1, colonel=2, major=3, captain=4, lieutenant=4, sergeant=5,
                  miner=5, scout=6, spy=1, bomb=6, flag=1)
    ul = counts(flag=1, spy=1, scout=4, miner=2, sergeant=2, lieutenant=2, captain=2, major=1,
                colonel=1, general=1, marshal=1, bomb=2)
    for name in ("classic", "gravon", "isf"):
        assert stratego.load_variant(name).piece_counts == classic
    for name in ("seed-rulebook", "seed-tournament"):
        assert stratego.load_variant(name).piece_counts == seed
    assert stratego.load_variant("ultimate-lightning").piece_counts == ul
    assert sum(ul) == 20 and sum(seed) == 39


def test_variant_switches():
    st = stratego.load_variant("seed-tournament").settings
    assert (st["aggressor_wins"], st["silent_defense"], st["rescue"]) == (1, 1, 1)
    assert (st["one_time_bombs"], st["captain_two_squares"], st["chasing_rule"]) == (0, 0, 0)
    ul = stratego.load_variant("ultimate-lightning").settings
    assert (ul["aggressor_wins"], ul["rescue"], ul["one_time_bombs"], ul["captain_two_squares"]) == (1, 1, 1, 1)
    assert ul["silent_defense"] == 0 and ul["two_square_limit"] == 5
    assert set(stratego.variants()) >= {"barrage", "classic", "duel", "duel-spinmaster", "gravon", "isf",
                                        "seed-rulebook", "seed-tournament", "ultimate-lightning"}


# ---------------------------------------------------------------- legality agrees

@pytest.mark.parametrize("name", ["ultimate-lightning", "seed-tournament", "isf"])
def test_legal_actions_agree_with_play_in_every_phase(name):
    # Every action of the variant's space is offered by legal_actions() exactly when
    # playing it is accepted, in move phases and rescue phases alike.
    rng = random.Random(17)
    checked = rescue_phases = 0
    for seed in range(6):
        g = stratego.Game(name, seed=seed)
        for ply in range(300):
            if g.done:
                break
            legal = set(g.legal_actions())
            # Every rescue phase; move phases every 25 plies in CI, every 75 otherwise (tests/depth.py).
            if g.rescue_pending or ply % depth(75, 25) == 0:
                rescue_phases += g.rescue_pending
                for a in range(g.variant.num_actions):
                    c = g.clone()
                    try:
                        c.play(a)
                        ok = True
                    except ValueError:
                        ok = False
                    assert ok == (a in legal), (name, seed, ply, a, stratego.decode_action(a, g.to_move))
                checked += 1
            g.play(rng.choice(sorted(legal)))
    assert checked > depth(10, 20)
    if name != "isf":
        assert rescue_phases > 0
