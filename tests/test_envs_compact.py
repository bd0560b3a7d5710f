"""envs10's autoreset modes and single-game envs with perf12's compact formats and
thread pool: NEXT_STEP / DISABLED / masked resets and final_views="both" in codes and
packed masks, StrategoEnv and the PettingZoo env with obs_format="codes" and
mask_format="bits". The compact outputs must be exactly the planes and bool masks of
the same games."""
from __future__ import annotations

import numpy as np
import pytest

import stratego
from stratego import StrategoEnv

COMPACT = dict(obs_format="codes", mask_format="bits")


def _same_outputs(planes, compact, where):
    assert np.array_equal(stratego.expand_observation(compact.obs), planes.obs), where
    assert np.array_equal(stratego.unpack_mask(compact.action_mask, planes.num_actions), planes.action_mask), where
    assert np.array_equal(compact.to_play, planes.to_play), where


@pytest.mark.parametrize("opponent", [None, "heuristic"])
@pytest.mark.parametrize("mode", ["next_step", "disabled"])
def test_autoreset_modes_in_the_compact_formats(mode, opponent):
    common = dict(seed=3, num_threads=1, max_plies=30, autoreset_mode=mode, opponent=opponent)
    planes = stratego.VecEnv(24, **common)
    compact = stratego.VecEnv(24, **common, **COMPACT)
    waited = 0
    for ply in range(70):
        where = f"{mode} {opponent} step {ply}"
        _same_outputs(planes, compact, where)
        over = planes.over
        assert np.array_equal(compact.over, over), where
        # A game that waits has no legal action, packed or not.
        assert not compact.action_mask[over].any(), where
        waited += int(over.sum())
        actions = planes.sample_actions().copy()
        assert np.array_equal(compact.sample_actions(), actions), where
        _, r_p, te_p, _, info_p = planes.step(actions)
        _, r_c, te_c, _, info_c = compact.step(actions)
        assert np.array_equal(r_p, r_c) and np.array_equal(te_p, te_c), where
        assert np.array_equal(info_p["acted"], info_c["acted"]), where
        assert "final_obs" not in info_c  # obs itself holds the final position
        if mode == "disabled" and ply % 10 == 9:
            mask = planes.over
            planes.reset(options={"reset_mask": mask})
            compact.reset(options={"reset_mask": mask})
    assert waited > 0
    assert planes.stats() == compact.stats()


def test_final_views_both_in_codes_with_beliefs():
    common = dict(seed=5, num_threads=1, max_plies=24, final_views="both", belief=True)
    floats = stratego.VecEnv(16, obs_dtype="float32", **common)
    compact = stratego.VecEnv(16, **common, **COMPACT)
    assert compact.final_obs.shape == (16, 2, stratego.codes_bytes(4))
    assert compact.final_belief_obs.shape == (16, 2, 12, 10, 10)
    finished = 0
    for ply in range(40):
        actions = floats.sample_actions().copy()
        _, _, _, _, info_f = floats.step(actions)
        _, _, _, _, info_c = compact.step(actions)
        expanded = stratego.expand_observation(compact.obs, compact.belief_obs, dtype="float32")
        assert np.array_equal(expanded, floats.obs), f"step {ply}"
        if "_final_obs" in info_f:
            done = info_f["_final_obs"]
            finished += int(done.sum())
            final = info_c["final_obs"]
            assert np.array_equal(stratego.expand_observation(final["codes"][done], final["belief"][done],
                                                              dtype="float32"), info_f["final_obs"][done])
    assert finished > 0


def _play_next_step(threads: int) -> tuple:
    env = stratego.VecEnv(300, seed=9, num_threads=threads, max_plies=40, autoreset_mode="next_step",
                          opponent="random", learner_color="random", **COMPACT)
    crc = 0
    for ply in range(60):
        actions = env.bot_actions("heuristic") if ply % 2 else env.sample_actions()
        obs, r, te, _, info = env.step(actions)
        crc = hash((crc, obs.tobytes(), r.tobytes(), te.tobytes(), env.action_mask.tobytes(),
                    info["acted"].tobytes()))
        if ply == 30:  # a masked reset runs on the pool too
            mask = np.arange(300) % 7 == 0
            obs, _ = env.reset(seed=4, options={"reset_mask": mask})
            crc = hash((crc, obs.tobytes(), env.action_mask.tobytes()))
    return env.stats(), crc


def test_next_step_with_an_opponent_the_same_on_one_and_two_threads():
    one = _play_next_step(1)
    assert one[0]["games_finished"] > 0
    assert _play_next_step(2) == one


def test_save_keeps_waiting_games_in_the_compact_formats():
    kwargs = dict(seed=2, max_plies=20, autoreset_mode="disabled", **COMPACT)
    env = stratego.VecEnv(12, **kwargs)
    for _ in range(30):
        env.step(env.sample_actions())
    over = env.over
    assert over.any()
    other = stratego.VecEnv(12, **kwargs)
    obs, info = other.load_state(env.save_state())
    # The packed mask tells the waiting games apart, as the bool one does.
    assert np.array_equal(other.over, over)
    assert np.array_equal(obs, env.obs)


def _gym_pair(**extra):
    common = dict(opponent="heuristic", learner_color="alternate", max_plies=40, **extra)
    return StrategoEnv(**common), StrategoEnv(**common, **COMPACT)


def test_gym_env_with_codes_and_bits():
    planes, compact = _gym_pair()
    assert compact.observation_space.shape == (stratego.codes_bytes(4),)
    for episode in range(3):
        obs_p, info_p = planes.reset(seed=episode)
        obs_c, info_c = compact.reset(seed=episode)
        while True:
            assert compact.observation_space.contains(obs_c)
            assert np.array_equal(stratego.expand_observation(obs_c), obs_p)
            assert np.array_equal(stratego.unpack_mask(info_c["action_mask"], planes.variant.num_actions),
                                  info_p["action_mask"])
            assert np.array_equal(stratego.unpack_mask(compact.action_masks(), planes.variant.num_actions),
                                  planes.action_masks())
            legal = np.flatnonzero(info_p["action_mask"])
            action = int(legal[len(legal) // 2])
            obs_p, r_p, te_p, tr_p, info_p = planes.step(action)
            obs_c, r_c, te_c, tr_c, info_c = compact.step(action)
            assert (r_p, te_p, tr_p) == (r_c, te_c, tr_c)
            if te_p:
                assert not info_c["action_mask"].any()
                break


def test_gym_env_codes_with_beliefs_is_a_dict_space():
    planes = StrategoEnv(opponent="heuristic", learner_color="alternate", max_plies=40, obs_dtype="float32",
                         belief=True)
    compact_codes = StrategoEnv(opponent="heuristic", learner_color="alternate", max_plies=40, belief=True,
                                **COMPACT)
    obs_p, _ = planes.reset(seed=1)
    obs_c, _ = compact_codes.reset(seed=1)
    assert set(obs_c) == {"codes", "belief"}
    assert compact_codes.observation_space.contains(obs_c)
    assert np.array_equal(stratego.expand_observation(obs_c["codes"], obs_c["belief"], dtype="float32"), obs_p)


def test_gym_env_bad_mask_format():
    with pytest.raises(ValueError, match="mask_format must be one of"):
        StrategoEnv(mask_format="packed")


@pytest.mark.heavy
def test_pettingzoo_with_codes_and_bits():
    pytest.importorskip("pettingzoo")
    from stratego.integrations import pettingzoo as stratego_pz

    planes = stratego_pz.raw_env(max_plies=30)
    compact = stratego_pz.raw_env(max_plies=30, **COMPACT)
    planes.reset(seed=7)
    compact.reset(seed=7)
    num_actions = planes.variant.num_actions
    while not any(planes.terminations.values()):
        agent = planes.agent_selection
        assert compact.agent_selection == agent
        for who in planes.agents:
            p, c = planes.observe(who), compact.observe(who)
            assert compact.observation_space(who).contains(c)
            assert np.array_equal(stratego.expand_observation(c["observation"]), p["observation"])
            assert np.array_equal(stratego.unpack_mask(c["action_mask"], num_actions), p["action_mask"] == 1)
        action = int(np.flatnonzero(planes.observe(agent)["action_mask"])[0])
        planes.step(action)
        compact.step(action)
    assert planes.rewards == compact.rewards
    with pytest.raises(ValueError, match="TerminateIllegalWrapper"):
        stratego_pz.env(mask_format="bits")
    # The wrapped env takes the codes.
    wrapped = stratego_pz.env(obs_format="codes")
    wrapped.reset(seed=1)
    assert wrapped.observe(wrapped.agent_selection)["observation"].shape == (stratego.codes_bytes(4),)


@pytest.mark.heavy
def test_pettingzoo_api_test_with_codes():
    pettingzoo_test = pytest.importorskip("pettingzoo.test")
    from stratego.integrations import pettingzoo as stratego_pz

    # api_test draws its actions from action_mask entry by entry: the bool mask here.
    pettingzoo_test.api_test(stratego_pz.env(obs_format="codes"), num_cycles=100)
    pettingzoo_test.api_test(stratego_pz.raw_env(obs_format="codes", max_plies=60), num_cycles=100)
