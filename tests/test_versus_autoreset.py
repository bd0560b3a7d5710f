"""The learner-vs-opponent batch under every autoreset mode, and Gymnasium's
RecordEpisodeStatistics on it: one scalar per slot is the learner's return."""
from __future__ import annotations

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import RecordEpisodeStatistics

import stratego
from stratego import VecEnv

from gymnasium_versions import SAME_STEP_WRAPPERS


@pytest.mark.parametrize("mode", [
    pytest.param(AutoresetMode.SAME_STEP, marks=pytest.mark.skipif(
        not SAME_STEP_WRAPPERS, reason="Gymnasium < 1.4: RecordEpisodeStatistics assumes NEXT_STEP")),
    AutoresetMode.NEXT_STEP])
def test_record_episode_statistics_gives_the_learners_returns(mode):
    env = RecordEpisodeStatistics(VecEnv(32, opponent="random", learner_color="alternate",
                                         autoreset_mode=mode, max_plies=200))
    env.reset(seed=1)
    results = []
    for _ in range(300):
        _, reward, terminated, truncated, info = env.step(env.unwrapped.sample_actions())
        if "episode" in info:
            done = info["_episode"]
            # The return of each finished episode is its one final reward: the learner's.
            assert np.array_equal(info["episode"]["r"][done], reward[done])
            assert set(info["episode"]["r"][done].tolist()) <= {-1.0, 0.0, 1.0}
            results.extend(info["episode"]["r"][done].tolist())
    assert 1.0 in results and -1.0 in results


def test_next_step_shows_the_learners_last_view_then_the_next_episode():
    n = 16
    env = VecEnv(n, opponent="heuristic", learner_color="alternate", autoreset_mode="next_step",
                 max_plies=40, seed=3)
    colors = env.to_play.copy()
    for _ in range(40):
        _, reward, terminated, _, info = env.step(env.sample_actions())
        if terminated.any():
            break
    ended = terminated.copy()
    assert ended.any() and np.array_equal(env.over, ended)
    assert (env.to_play == colors).all()  # the learner's colour, also in a finished game
    assert not env.action_mask[ended].any()
    for i in np.flatnonzero(ended):
        # A final board may have lost a Flag: a study position.
        game = stratego.Game.from_field(env.game_field(i), to_move=int(colors[i]), max_plies=40,
                                        allow_flagless=True)
        # The learner's view of the final board: its own pieces (planes that need no
        # history, so a game rebuilt from the board has them too).
        assert np.array_equal(env.obs[i][:12], game.observation(int(colors[i]))[:12])
    actions = env.sample_actions().copy()
    _, reward, terminated, _, info = env.step(actions)
    assert not terminated[ended].any() and (reward[ended] == 0).all() and (info["acted"][ended] == -1).all()
    # The next episode: the other colour (alternate), the learner to move.
    assert np.array_equal(env.to_play[ended], 1 - colors[ended])
    assert env.action_mask[ended].any(axis=1).all() and not env.over.any()


def test_disabled_waits_for_a_masked_reset():
    env = VecEnv(8, opponent="random", learner_color="blue", autoreset_mode="disabled", max_plies=30, seed=4)
    for _ in range(20):
        env.step(env.sample_actions())
    over = env.over
    assert over.any()
    fields = [env.game_field(i) for i in range(8)]
    _, reward, terminated, _, info = env.step(np.where(over, 0, env.sample_actions()))
    assert not terminated[over].any() and (reward[over] == 0).all()
    assert all(env.game_field(i) == fields[i] for i in np.flatnonzero(over))
    data = env.save_state()  # finished games wait in the save too
    env.reset(options={"reset_mask": over})
    assert not env.over.any() and (env.to_play == 1).all()
    assert all(env.game_field(i) != fields[i] for i in np.flatnonzero(over))
    other = VecEnv(8, opponent="random", learner_color="blue", autoreset_mode="disabled", max_plies=30)
    other.load_state(data)
    assert np.array_equal(other.over, over)
