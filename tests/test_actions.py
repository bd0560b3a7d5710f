"""The flat action space (stratego.actions): 1800 actions per player, one for every pair
of distinct squares on a common row or column, in the acting player's frame (blue's
board turned 180 degrees), and clear errors for anything else."""
from __future__ import annotations

import random

import numpy as np
import pytest
import stratego
from stratego import (
    ACTION_NB,
    action_to_move,
    action_to_squares,
    move_to_action,
    parse_move,
    squares_to_action,
)

RED, BLUE = 0, 1


def on_common_line(a: int, b: int) -> bool:
    return a != b and (a // 10 == b // 10 or a % 10 == b % 10)


def test_action_count():
    lines = sum(1 for a in range(100) for b in range(100) if on_common_line(a, b))
    assert ACTION_NB == lines == 1800


@pytest.mark.parametrize("player", [RED, BLUE])
def test_every_action_is_a_distinct_pair_on_a_line_and_round_trips(player):
    pairs = [action_to_squares(a, player) for a in range(ACTION_NB)]
    assert len(set(pairs)) == ACTION_NB
    for action, (src, dst) in enumerate(pairs):
        assert 0 <= src < 100 and 0 <= dst < 100
        assert on_common_line(src, dst), (action, src, dst)
        assert squares_to_action(src, dst, player) == action
        move = action_to_move(action, player)
        assert parse_move(move) == (src, dst)
        assert move_to_action(move, player) == action


def test_blue_frame_is_the_board_turned_180_degrees():
    for action in range(ACTION_NB):
        src, dst = action_to_squares(action, RED)
        assert action_to_squares(action, BLUE) == (99 - src, 99 - dst)


def test_layout_documented_in_actions_py():
    # action = from * 18 + k; k < 9 along the row left to right skipping the from column,
    # k >= 9 along the column from the player's back row up, skipping the from row.
    assert action_to_squares(0, RED) == (0, 1)
    assert action_to_squares(8, RED) == (0, 9)
    assert action_to_squares(9, RED) == (0, 10)
    assert action_to_squares(17, RED) == (0, 90)
    assert action_to_squares(55 * 18 + 5, RED) == (55, 56)
    assert action_to_squares(55 * 18 + 4, RED) == (55, 54)
    assert action_to_squares(55 * 18 + 9 + 4, RED) == (55, 45)
    assert action_to_squares(55 * 18 + 9 + 5, RED) == (55, 65)
    # Blue's "forward one square" from its own back-row corner is towards row 9 - 1.
    assert action_to_squares(9, BLUE) == (99, 89)


def test_every_legal_move_of_random_positions_maps_to_an_action_and_back():
    rng = random.Random(7)
    for seed in range(6):
        g = stratego.Game(seed=seed)
        for _ in range(150):
            if g.done:
                break
            player = g.to_move
            actions = g.legal_actions()
            moves = g.legal_moves()
            assert len(actions) == len(set(actions)) == len(moves) > 0
            for action, move in zip(actions, moves):
                assert 0 <= action < ACTION_NB
                assert action_to_move(action, player) == move
                assert move_to_action(move, player) == action
                src, dst = parse_move(move)
                assert squares_to_action(src, dst, player) == action
            g.play(rng.choice(actions) if rng.random() < 0.5 else rng.choice(moves))


def test_numpy_integers_are_accepted():
    assert action_to_squares(np.int64(5), RED) == action_to_squares(5, RED)
    assert action_to_squares(np.uint16(1799), BLUE) == action_to_squares(1799, BLUE)


@pytest.mark.parametrize("action", [-1, stratego.ACTION_MAX, stratego.ACTION_MAX + 1, 2**31, 2**40, -(2**40), 2**70])
def test_out_of_range_actions_raise_value_error(action):
    with pytest.raises(ValueError, match=r"\[0, 2801\)"):
        action_to_squares(action, RED)
    with pytest.raises(ValueError):
        action_to_move(action, BLUE)


def test_actions_past_the_line_moves_are_diagonals_and_rescues():
    """The layout beyond 1800 (README, Actions): Captains' diagonal steps, rescues, pass."""
    assert stratego.decode_action(1800, RED) == ("move", 0, 0)      # A1 to the lower left: off board
    assert stratego.decode_action(1800 + 4 * 11 + 3, RED) == ("move", 11, 22)  # B2 -> C3
    assert stratego.decode_action(2200 + 6 * 50 + 35, RED) == ("rescue", 6, 35)
    assert stratego.decode_action(2200 + 6 * 50 + 35, BLUE) == ("rescue", 6, 64)
    assert stratego.decode_action(2800, BLUE) == ("decline", 0, 0)
    assert action_to_move(2800, RED) == "pass"
    assert action_to_move(2200 + 6 * 50 + 35, RED) == "6@F4"
    assert action_to_move(2200 + 6 * 50 + 35, RED, numbering="old") == "5@F4"
    assert stratego.move_to_action("5@F4", RED, numbering="old") == 2200 + 6 * 50 + 35
    with pytest.raises(ValueError, match="not a move"):
        action_to_squares(2800, RED)
    with pytest.raises(ValueError, match="half"):
        stratego.rescue_to_action(6, 64, RED)


@pytest.mark.parametrize("action", [1.0, 1.5, "5", None, [3]])
def test_non_integer_actions_raise_type_error(action):
    with pytest.raises(TypeError):
        action_to_squares(action, RED)


@pytest.mark.parametrize("player", [2, -1])
def test_bad_player_raises_value_error(player):
    with pytest.raises(ValueError, match="0 \\(red\\) or 1 \\(blue\\)"):
        action_to_squares(0, player)
    with pytest.raises(ValueError, match="0 \\(red\\) or 1 \\(blue\\)"):
        squares_to_action(0, 1, player)


@pytest.mark.parametrize("player", ["0", 0.0, None, True])
def test_non_int_player_raises_type_error(player):
    with pytest.raises(TypeError, match="0 \\(red\\) or 1 \\(blue\\)"):
        action_to_squares(0, player)


@pytest.mark.parametrize("src,dst", [(0, 22), (0, 99), (34, 56), (55, 55), (9, 10)])
def test_squares_off_a_common_line_raise_value_error(src, dst):
    # (9, 10): K1 and A2 are neighbours in index order but not on the board.
    with pytest.raises(ValueError, match="share a row or a column"):
        squares_to_action(src, dst, RED)
    with pytest.raises(ValueError, match="share a row or a column"):
        squares_to_action(src, dst, BLUE)


@pytest.mark.parametrize("src,dst", [(-1, 0), (0, 100), (100, 0), (0, -10)])
def test_squares_off_the_board_raise_value_error(src, dst):
    with pytest.raises(ValueError, match=r"square index in \[0, 99\]"):
        squares_to_action(src, dst, RED)


@pytest.mark.parametrize("move", ["Z9-A1", "A11-A1", "A1-A11", "A0-A1", "J", "", "A1", "A1-B2-C3", "E2--E3"])
def test_bad_notation_raises_value_error(move):
    with pytest.raises(ValueError, match="bad move"):
        move_to_action(move, RED)


def test_diagonal_notation_raises_value_error():
    # A diagonal neighbour is an action (Captains of some variants step there), but a
    # classic game refuses it as a move.
    assert move_to_action("A1-B2", RED) == 1800 + 3
    with pytest.raises(ValueError, match="not diagonally"):
        stratego.Game.from_field("E" + "A" * 39 + "AA__AA__AA" * 2 + "A" * 39 + "Q", allow_flagless=True).play("A1-B2")
    with pytest.raises(ValueError, match="share a row or a column"):
        move_to_action("A1-C3", RED)
    with pytest.raises(ValueError, match="share a row or a column"):
        move_to_action("E4-E4", RED)


@pytest.mark.parametrize("move", [None, 5, b"A1-A2", ("A1", "A2")])
def test_non_str_move_raises_type_error(move):
    with pytest.raises(TypeError, match="str like 'B4-B7'"):
        move_to_action(move, RED)


def test_notation_forms():
    # Row 10 may be written ':' (Gravon) or '10'.
    assert move_to_action("K10-K9", BLUE) == move_to_action("K:-K9", BLUE)
    assert action_to_move(move_to_action("A10-A9", BLUE), BLUE) == "A:-A9"
    assert move_to_action("e2-e3", RED) == move_to_action("E2-E3", RED)


@pytest.mark.parametrize("call", [
    lambda: stratego.parse_square("J4"),
    lambda: stratego.parse_move("J4-J5"),
    lambda: move_to_action("j10-j9", BLUE),
    lambda: stratego.Game(seed=1).play("A4-J4"),
])
def test_a_j_column_is_refused_naming_the_columns(call):
    # Gravon has no J: read as K (as it once was, silently), "J4-J5" played K4-K5.
    with pytest.raises(ValueError, match="the columns are A B C D E F G H I K, with no J"):
        call()


def test_a_refused_j_move_changes_nothing():
    game = stratego.Game(seed=1)
    legal_k = next(m for m in game.legal_moves() if m.startswith("K"))
    with pytest.raises(ValueError, match="no J"):
        game.play("J" + legal_k[1:].replace("-K", "-J"))
    assert game.ply == 0 and len(game.history) == 0
    game.play(legal_k)  # the same move in K is played


def test_a_j_column_in_a_rescue_is_refused():
    from stratego.notation import parse_rescue
    with pytest.raises(ValueError, match="no J"):
        parse_rescue("6@J4")


def test_the_archive_reader_alone_reads_j_as_k():
    # Two Ultimate Lightning records of the Gravon archive write the tenth column "J"
    # (tests/test_records.py reads them); only that reader keeps them readable.
    from stratego.records import parse_square as record_square
    assert record_square("J9") == stratego.parse_square("K9")


def test_moves_to_the_same_square_and_off_board_diagonals_are_refused():
    game = stratego.Game(seed=1)
    with pytest.raises(ValueError, match="row or a column"):
        game.play("A1-A1")
    with pytest.raises(ValueError, match="off the board"):
        action_to_move(1800, RED)   # A1 stepping down-left
    with pytest.raises(ValueError, match="ASCII"):
        stratego.Game.from_field("é" * 100)
    with pytest.raises(ValueError, match="num_threads"):
        stratego.VecEnv(2, num_threads=10**20)
