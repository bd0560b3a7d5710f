""""The game is over" is decided once, in C (game.h: game_is_over and the questions it
answers: legal actions, the mask, a move's check, a forfeit); Python reads the answer."""
from __future__ import annotations

import numpy as np
import pytest

import stratego
from stratego.gym_env import StrategoEnv


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
