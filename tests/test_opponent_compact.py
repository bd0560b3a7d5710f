"""The learner-vs-opponent batch (bots10) with what perf12 added: the compact formats
(obs_format="codes", mask_format="bits") and the thread pool. The learner's outputs in
the compact formats must be exactly the planes and bool mask of the same games, and an
opponent's replies, run as pool tasks, must not depend on the thread count."""
from __future__ import annotations

import numpy as np
import pytest

import stratego

OPPONENTS = ["random", "heuristic"]


def _pair(opponent: str, learner_color: str, n: int = 48, **extra):
    """The same learner-vs-opponent games twice: planes + bool mask, and codes + bits."""
    common = dict(seed=11, num_threads=1, opponent=opponent, learner_color=learner_color, max_plies=60,
                  full_obs=True, **extra)
    planes = stratego.VecEnv(n, **common)
    compact = stratego.VecEnv(n, obs_format="codes", mask_format="bits", **common)
    return planes, compact


@pytest.mark.parametrize("learner_color", ["alternate", "random", "blue"])
@pytest.mark.parametrize("opponent", OPPONENTS)
def test_codes_and_bits_are_the_learners_planes_and_mask(opponent, learner_color):
    planes, compact = _pair(opponent, learner_color)
    finished = 0
    for ply in range(90):
        where = f"{opponent} {learner_color} step {ply}"
        assert np.array_equal(stratego.expand_observation(compact.obs), planes.obs), where
        assert np.array_equal(stratego.unpack_mask(compact.action_mask, planes.num_actions),
                              planes.action_mask), where
        assert np.array_equal(stratego.expand_full_observation(compact.full_obs), planes.full_obs), where
        assert np.array_equal(compact.to_play, planes.to_play), where
        actions = planes.sample_actions().copy()
        # sample_actions reads the packed mask as it reads the bool one.
        assert np.array_equal(compact.sample_actions(), actions), where
        _, r_p, te_p, tr_p, info_p = planes.step(actions)
        _, r_c, te_c, tr_c, info_c = compact.step(actions)
        assert np.array_equal(r_p, r_c) and np.array_equal(te_p, te_c) and np.array_equal(tr_p, tr_c), where
        if "_final_obs" in info_p:
            done = info_p["_final_obs"]
            assert np.array_equal(done, info_c["_final_obs"]), where
            finished += int(done.sum())
            # final_obs in codes is the learner's last view, as the planes are.
            assert np.array_equal(stratego.expand_observation(info_c["final_obs"][done]),
                                  info_p["final_obs"][done]), where
    assert finished > 0  # the cap of 60 plies ends games within 90 learner steps
    assert planes.stats() == compact.stats()
    planes.close()
    compact.close()


@pytest.mark.parametrize("opponent", OPPONENTS)
def test_codes_with_beliefs_against_an_opponent(opponent):
    floats = stratego.VecEnv(24, seed=5, num_threads=1, opponent=opponent, max_plies=40, obs_dtype="float32",
                             belief=True)
    compact = stratego.VecEnv(24, seed=5, num_threads=1, opponent=opponent, max_plies=40, obs_format="codes",
                              mask_format="bits", belief=True)
    for ply in range(60):
        expanded = stratego.expand_observation(compact.obs, compact.belief_obs, dtype="float32")
        assert np.array_equal(expanded, floats.obs), f"step {ply}"
        actions = floats.sample_actions().copy()
        _, _, _, _, info_f = floats.step(actions)
        _, _, _, _, info_c = compact.step(actions)
        if "_final_obs" in info_f:
            done = info_f["_final_obs"]
            final = info_c["final_obs"]
            assert np.array_equal(stratego.expand_observation(final["codes"][done], final["belief"][done],
                                                              dtype="float32"), info_f["final_obs"][done])
    assert floats.stats() == compact.stats()


@pytest.mark.parametrize("opponent", OPPONENTS)
def test_bot_actions_with_a_packed_mask_against_an_opponent(opponent):
    # The learner itself played by bots, from the packed-mask env and the bool one.
    plain = stratego.VecEnv(64, seed=8, opponent=opponent, learner_color="random")
    packed = stratego.VecEnv(64, seed=8, opponent=opponent, learner_color="random", mask_format="bits")
    for ply in range(50):
        name = "heuristic" if ply % 2 else "random"
        actions = plain.bot_actions(name).copy()
        assert np.array_equal(packed.bot_actions(name), actions), f"step {ply}"
        # The bot's action is legal by the packed mask.
        legal = stratego.unpack_mask(packed.action_mask, packed.num_actions)
        assert legal[np.arange(64), actions].all()
        plain.step(actions)
        packed.step(actions)
    assert plain.stats() == packed.stats()


def _play_versus(threads: int, **kwargs) -> tuple:
    """(stats, crc of every output) of learner-vs-opponent games on `threads` threads."""
    env = stratego.VecEnv(300, seed=21, num_threads=threads, max_plies=80, **kwargs)
    crc = hash(env.to_play.tobytes())
    for ply in range(120):
        actions = env.bot_actions("heuristic") if ply % 3 == 0 else env.sample_actions()
        obs, r, te, tr, info = env.step(actions)
        obs = obs["codes"] if isinstance(obs, dict) else obs
        crc = hash((crc, obs.tobytes(), r.tobytes(), te.tobytes(), tr.tobytes(), env.to_play.tobytes(),
                    env.action_mask.tobytes()))
        if "_final_obs" in info:
            final = info["final_obs"]
            final = final["codes"] if isinstance(final, dict) else final
            crc = hash((crc, final[info["_final_obs"]].tobytes()))
    stats = env.stats()
    env.close()
    return stats, crc


@pytest.mark.parametrize("formats", [{}, {"obs_format": "codes", "mask_format": "bits"}])
@pytest.mark.parametrize("opponent", OPPONENTS)
def test_opponent_games_the_same_on_one_and_two_threads(opponent, formats):
    # 300 games are several pool chunks: with 2 threads the bot's replies and the new
    # episodes' openings run on both threads; the games must be the same.
    kwargs = dict(opponent=opponent, learner_color="random", **formats)
    one = _play_versus(1, **kwargs)
    assert one[0]["games_finished"] > 0
    assert _play_versus(2, **kwargs) == one
    assert _play_versus(3, **kwargs) == one


def test_save_and_load_with_an_opponent_in_the_compact_formats():
    kwargs = dict(seed=4, opponent="heuristic", learner_color="random", obs_format="codes", mask_format="bits",
                  max_plies=50)
    env = stratego.VecEnv(16, num_threads=2, **kwargs)
    for _ in range(20):
        env.step(env.sample_actions())
    blob = env.save_state()
    expected = []
    for _ in range(40):
        env.step(env.sample_actions())
        expected.append((env.obs.copy(), env.action_mask.copy(), env.to_play.copy()))
    other = stratego.VecEnv(16, num_threads=1, **kwargs)
    obs, info = other.load_state(blob)
    for ply, (e_obs, e_mask, e_to_play) in enumerate(expected):
        other.step(other.sample_actions())
        assert np.array_equal(other.obs, e_obs), f"step {ply}"
        assert np.array_equal(other.action_mask, e_mask), f"step {ply}"
        assert np.array_equal(other.to_play, e_to_play), f"step {ply}"
    assert other.stats()["checksum"] == env.stats()["checksum"]
