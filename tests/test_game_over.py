""""The game is over" is decided once, in C (game.h: game_is_over and the questions it
answers: legal actions, the mask, a move's check, a forfeit); Python reads the answer."""
from __future__ import annotations

import dataclasses
import struct

import numpy as np
import pytest

import stratego
from stratego.integrations.gym_env import StrategoEnv
from stratego.variants import load_variant


def finished_game() -> stratego.Game:
    """A game that one move ends (the total-ply cap of 1: a draw)."""
    game = stratego.Game("classic", seed=3, max_plies=1)
    game.play(game.legal_actions()[0])
    assert game.done and game.end_reason == "max_plies"
    return game


def test_a_finished_game_has_no_move_of_any_kind():
    game = finished_game()
    assert game.legal_actions() == [] and game.legal_moves() == []
    assert not game.action_mask().any() and not game.action_mask("bits").any()
    red = [sq for sq, cell in enumerate(game.field) if cell in "CDEFGHIJKL"]
    # A pair on a common line (an action) and a pair on none get the same answer.
    assert game._state.check_move(red[0], red[0] + 11) == "the game is over"
    assert game._state.check_move(red[0], red[0] + 10) == "the game is over"
    with pytest.raises(ValueError, match="the game is over"):
        game._state.play_move(red[0], red[0] + 10)
    with pytest.raises(ValueError, match="the game is over"):
        game._state.play_or_forfeit(0)


def test_forfeit_is_the_batch_rule():
    game = stratego.Game("classic", seed=5)
    loser = game.to_move
    game._play_or_forfeit(-1)
    assert (game.done, game.winner, game.end_reason) == (True, 1 - loser, "illegal_action")
    assert game.legal_actions() == []


def test_strategoenv_reads_the_forfeit_from_the_game():
    env = StrategoEnv("classic", opponent="random", learner_color="red", illegal_action="lose")
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert (info["winner"], info["end_reason"]) == (1, "illegal_action")
    assert (env.game.done, env.game.winner, env.game.end_reason) == (True, 1, "illegal_action")
    assert not info["action_mask"].any()


@pytest.mark.parametrize("mode", ["next_step", "disabled", "same_step"])
def test_vecenv_over_is_the_engine_answer(mode):
    env = stratego.VecEnv(6, max_plies=7, autoreset_mode=mode, seed=2, observations=False)
    seen = False
    for _ in range(20):
        env.step(env.sample_actions().clip(0))
        over = env.over
        assert over.tolist() == [env._batch.game(i).status()[1] for i in range(env.num_envs)]
        seen |= over.any()
    assert seen == (mode != "same_step")
    data = env.save_state()
    env.reset(seed=9)
    env.load_state(data)
    assert env.over.tolist() == [env._batch.game(i).status()[1] for i in range(env.num_envs)]


def test_games_over_checks_its_array():
    env = stratego.VecEnv(3, seed=0, observations=False)
    with pytest.raises(TypeError, match="the array of finished games must have dtype bool"):
        env._batch.games_over(np.zeros(3, np.uint8))
    with pytest.raises(ValueError, match=r"the array of finished games must have shape \(3,\), got \(4\)"):
        env._batch.games_over(np.zeros(4, np.bool_))


@pytest.mark.parametrize("action", [10**6, -1, 2**70, 1800 + 5])
def test_play_or_forfeit_loses_on_any_illegal_int(action):
    """StrategoEnv's illegal_action='lose' asks C: an illegal action of any size (a
    diagonal one in classic too) ends the game with the mover's loss."""
    game = stratego.Game("classic", seed=3)
    loser = game.to_move
    assert game._play_or_forfeit(action) is False
    assert (game.done, game.winner, game.end_reason) == (True, 1 - loser, "illegal_action")
    with pytest.raises(ValueError, match="the game is over"):
        game._play_or_forfeit(0)


def test_play_or_forfeit_plays_a_legal_action_and_refuses_non_ints():
    game = stratego.Game("classic", seed=3)
    action = game.legal_actions()[0]
    assert game._play_or_forfeit(action) is True
    assert game.ply == 1 and not game.done
    with pytest.raises(TypeError, match="action must be an int"):
        game._play_or_forfeit(1.5)
    with pytest.raises(TypeError, match="action must be an int"):
        game._play_or_forfeit(True)


def test_strategoenv_lose_mode_takes_out_of_range_actions_as_a_loss():
    env = StrategoEnv("classic", opponent="random", learner_color="red", illegal_action="lose")
    env.reset(seed=1)
    _, reward, terminated, _, info = env.step(10**6)
    assert (reward, terminated, info["end_reason"]) == (-1.0, True, "illegal_action")


# A batch (no opponent, mask written) asks whether the next player can move through the
# legal mask it writes for that player (csrc/stratego/game.h, game_apply_action_mask); these
# positions end by that answer and must end as a Game ends them. Red's 5 is walled in by
# its Bombs; the 4s trade on E5. Blue's Bombs wall in its Flag (red_walled) or its 5 too
# (both_walled). The piece set is the board's, so that a batch save holds the position.
from boards import game as drawn_game  # noqa: E402

WALLED = """
bF  {b10}  .   .   .   .   .   .   {i10}  b5
{a9}  .   .   .   .   .   .   .   .   {k9}
.   .   .   .   .   .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
.   .   ~   ~   .   .   ~   ~   .   .
.   .   ~   ~   b4  .   ~   ~   .   .
.   .   .   .   r4  .   .   .   .   .
.   .   .   .   .   .   .   .   .   .
rB  .   .   .   .   .   .   .   .   .
r5  rB  .   .   .   .   .   .   .   rF
"""
RED_WALLED = WALLED.format(b10="bB", a9="bB", i10=". ", k9=". ")
BOTH_WALLED = WALLED.format(b10=". ", a9=". ", i10="bB", k9="bB")
# Two Bombs, a Sergeant (4), a Lieutenant (5) and the Flag a side.
WALLED_PIECES = (2, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1)


def batch_with(game: stratego.Game, variant, **kwargs) -> stratego.VecEnv:
    """A VecEnv of one game holding `game`'s position: its state put into a batch save."""
    env = stratego.VecEnv(1, variant, seed=0, **kwargs)
    blob = bytearray(env.save_state())
    # A game's save is the header, the state and its bot stream; a batch's the header,
    # the counters (SaveHeader.stats_bytes long) and the states.
    header = len(game._state.to_bytes()) - stratego.STATE_BYTES - 8
    start = header + struct.unpack_from("=I", blob, 28)[0]
    blob[start:start + stratego.STATE_BYTES] = game._state.to_bytes()[header:header + stratego.STATE_BYTES]
    env.load_state(bytes(blob))
    return env


@pytest.mark.parametrize("mask_format", ["bool", "bits"])
@pytest.mark.parametrize("mode", ["same_step", "next_step", "disabled"])
@pytest.mark.parametrize("drawing, moves, reason", [
    (RED_WALLED, ["E4-E5", "K10-K9"], "no_legal_move"),
    (BOTH_WALLED, ["E4-E5"], "neither_can_move"),
])
def test_batch_ends_a_turn_as_the_game_does(mask_format, mode, drawing, moves, reason):
    variant = dataclasses.replace(load_variant("classic"), piece_counts=WALLED_PIECES)
    game = drawn_game(drawing, variant=variant)
    env = batch_with(game, variant, mask_format=mask_format, autoreset_mode=mode, observations=False)
    for k, move in enumerate(moves):
        assert (env.action_mask[0] == game.action_mask(mask_format)).all()
        game.play(move)
        env.step(np.array([game.history[-1].action]))
        last = k == len(moves) - 1
        assert bool(env.terminated[0]) == last == game.done
        if not last:
            # The mask the end of the turn wrote is the one a Game gives.
            assert (env.action_mask[0] == game.action_mask(mask_format)).all()
    assert stratego.END_REASONS[env.final_reason[0]] == reason == game.end_reason
    # A finished game that waits (next_step, disabled) has no legal action; same_step
    # starts the next game, which has some.
    assert env.action_mask[0].any() == (mode == "same_step")
