"""VecEnv(game_offset=k): a slice of a larger run plays exactly that run's games.

stratego.integrations.distributed splits one run's games among Ray actors; these tests hold the
property it rests on without Ray: every slice's rows equal the whole env's rows, step by
step, and the slices' checksums add up to the whole's.
"""
from __future__ import annotations

import numpy as np
import pytest

import stratego
from stratego import VecEnv

MASK64 = (1 << 64) - 1


def _envs(sizes, **kwargs):
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    return [VecEnv(int(n), num_threads=1, game_offset=int(k), **kwargs) for n, k in zip(sizes, offsets)]


@pytest.mark.parametrize("kwargs", [{}, {"opponent": "heuristic", "learner_color": "alternate"},
                                    {"opponent": "random", "learner_color": "random"},
                                    {"setup": "human"}])
def test_slices_play_the_games_of_the_whole(kwargs):
    whole = VecEnv(48, num_threads=1, **kwargs)
    parts = _envs([17, 1, 30], **kwargs)
    seed = 11
    obs, _ = whole.reset(seed=seed)
    part_obs = [p.reset(seed=seed)[0] for p in parts]
    np.testing.assert_array_equal(np.concatenate(part_obs), obs)
    for _ in range(120):
        actions = whole.sample_actions()
        obs, reward, terminated, _, info = whole.step(actions)
        rows, at = [], 0
        for p in parts:
            rows.append(p.step(actions[at:at + p.num_envs]))
            at += p.num_envs
        np.testing.assert_array_equal(np.concatenate([r[0] for r in rows]), obs)
        np.testing.assert_array_equal(np.concatenate([r[1] for r in rows]), reward)
        np.testing.assert_array_equal(np.concatenate([r[2] for r in rows]), terminated)
        np.testing.assert_array_equal(np.concatenate([p.to_play for p in parts]), whole.to_play)
    total = sum(p.stats()["checksum"] for p in parts) & MASK64
    assert whole.stats()["games_finished"] == sum(p.stats()["games_finished"] for p in parts)
    assert whole.stats()["games_finished"] > 0
    assert total == whole.stats()["checksum"]


def test_the_sampler_streams_follow_the_offset():
    # sample_actions draws on each game's own stream: a slice draws the whole's actions.
    whole, part = VecEnv(8, num_threads=1), VecEnv(3, num_threads=1, game_offset=5)
    whole.reset(seed=3)
    part.reset(seed=3)
    np.testing.assert_array_equal(whole.sample_actions()[5:], part.sample_actions())


def test_an_offset_changes_the_games():
    a, b = VecEnv(4, num_threads=1), VecEnv(4, num_threads=1, game_offset=4)
    assert not np.array_equal(a.reset(seed=1)[0], b.reset(seed=1)[0])


@pytest.mark.parametrize("record", [False, True])
def test_a_save_loads_only_into_the_same_slice(record):
    env = VecEnv(3, num_threads=1, game_offset=7, record=record)
    env.reset(seed=2)
    for _ in range(5):
        env.step(env.sample_actions())
    data = env.save_state()
    same = VecEnv(3, num_threads=1, game_offset=7, record=record)
    same.load_state(data)
    np.testing.assert_array_equal(same.sample_actions(), env.sample_actions())
    with pytest.raises(ValueError, match="game_offset 7, this one's at 0"):
        VecEnv(3, num_threads=1, record=record).load_state(data)


@pytest.mark.parametrize("bad, error", [(-1, ValueError), (stratego._core.MAX_GAME_OFFSET + 1, ValueError),
                                        (1 << 70, ValueError), (1.0, TypeError), (True, TypeError),
                                        ("3", TypeError)])
def test_bad_offsets_are_refused(bad, error):
    with pytest.raises(error, match="game_offset must be an int in"):
        VecEnv(2, num_threads=1, game_offset=bad)


def test_the_largest_offset_plays_the_games_of_its_run():
    # At the top of the range, offset + index stays exact: the slice at MAX plays games
    # MAX and MAX + 1 of the run, which a slice starting one game lower plays too.
    top = stratego._core.MAX_GAME_OFFSET
    env, below = VecEnv(2, num_threads=1, game_offset=top), VecEnv(3, num_threads=1, game_offset=top - 1)
    obs, below_obs = env.reset(seed=0)[0], below.reset(seed=0)[0]
    np.testing.assert_array_equal(obs, below_obs[1:])
    assert not np.array_equal(below_obs[0], below_obs[1])
    for _ in range(400):
        actions, below_actions = env.sample_actions(), below.sample_actions()
        np.testing.assert_array_equal(actions, below_actions[1:])
        np.testing.assert_array_equal(env.step(actions)[0], below.step(below_actions)[0][1:])
    assert env.stats()["games_finished"] > 0
