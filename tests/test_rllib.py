"""stratego.integrations.rllib: the RLlib MultiAgentEnv, RLlib's checker, and a short PPO run.

Runs in the Ray pass of .ci/run (its own venv, STRATEGO_REQUIRE_RAY=1); skips elsewhere
when Ray is not installed.
"""
from __future__ import annotations

import os

import numpy as np
import pytest

pytestmark = [pytest.mark.heavy, pytest.mark.ray]

if os.environ.get("STRATEGO_REQUIRE_RAY") == "1":
    import ray  # noqa: F401
else:
    ray = pytest.importorskip("ray")
pytest.importorskip("torch")

from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

from stratego.integrations.rllib import StrategoMultiAgentEnv  # noqa: E402


@pytest.mark.parametrize("config", [{}, {"flatten": True, "variant": "barrage"}])
def test_rllibs_checker_accepts_the_env(config):
    check_multiagent_environments(StrategoMultiAgentEnv(config))


def test_only_the_player_to_move_observes_until_the_end():
    env = StrategoMultiAgentEnv({"max_plies": 30, "illegal_action": "raise"})
    obs, _ = env.reset(seed=3)
    assert list(obs) == ["player_0"]
    rng = np.random.default_rng(0)
    for _ in range(40):
        (agent,) = obs
        mask = obs[agent]["action_mask"]
        assert mask.dtype == np.float32 and set(np.unique(mask)) <= {0.0, 1.0}
        obs, rewards, terminated, truncated, infos = env.step({agent: rng.choice(np.flatnonzero(mask))})
        assert truncated == {"__all__": False}
        if terminated["__all__"]:
            break
        assert list(obs) != [agent] or env._game.rescue_pending
    assert terminated["__all__"] and set(obs) == {"player_0", "player_1"}
    assert rewards == {"player_0": 0.0, "player_1": 0.0}  # the ply cap: a draw by rule
    assert infos["player_0"]["end_reason"] == env._game.end_reason


def test_the_same_seed_gives_the_same_game():
    a, b = StrategoMultiAgentEnv(), StrategoMultiAgentEnv()
    oa, ob = a.reset(seed=9)[0], b.reset(seed=9)[0]
    np.testing.assert_array_equal(oa["player_0"]["observations"], ob["player_0"]["observations"])
    assert a._game.field == b._game.field


def test_views_are_the_players_own():
    env = StrategoMultiAgentEnv({"flatten": True})
    obs, _ = env.reset(seed=1)
    view = env._game.observation(0, history_k=4)
    np.testing.assert_array_equal(obs["player_0"]["observations"], view.reshape(-1) / np.float32(255))


def test_illegal_actions_raise_or_lose():
    env = StrategoMultiAgentEnv({"illegal_action": "raise"})
    obs, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(obs["player_0"]["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="player_0: illegal move"):
        env.step({"player_0": illegal})
    env = StrategoMultiAgentEnv()
    env.reset(seed=2)
    _, rewards, terminated, _, _ = env.step({"player_0": illegal})
    assert terminated["__all__"] and rewards == {"player_0": -1.0, "player_1": 1.0}
    with pytest.raises(ValueError, match="illegal_action must be"):
        StrategoMultiAgentEnv({"illegal_action": "ignore"})
    env.reset(seed=2)
    with pytest.raises(ValueError, match="player_0 is to move"):
        env.step({"player_1": 0})


def test_a_short_ppo_run_trains_with_masked_actions():
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        # "raise": an action outside the mask would stop training, so the run shows the
        # masking module never sends one (the checker, which samples the whole space,
        # ran on the default env above).
        config = (
            PPOConfig()
            .environment(StrategoMultiAgentEnv, env_config={"flatten": True, "max_plies": 60, "history_k": 1,
                                                             "illegal_action": "raise"},
                         disable_env_checking=True)
            .env_runners(num_env_runners=0)
            .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, episode, **kw: "shared")
            .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": RLModuleSpec(
                module_class=ActionMaskingTorchRLModule, model_config={"head_fcnet_hiddens": [32],
                                                                       "fcnet_hiddens": [32]})}))
            .training(train_batch_size_per_learner=256, minibatch_size=64, num_epochs=1)
            .debugging(seed=0)
        )
        algo = config.build_algo()
        try:
            for _ in range(2):
                result = algo.train()
        finally:
            algo.stop()
        assert result["training_iteration"] == 2
        assert result["num_env_steps_sampled_lifetime"] >= 512
        assert result["env_runners"]["num_episodes_lifetime"] >= 4
    finally:
        ray.shutdown()
