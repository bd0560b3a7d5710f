"""stratego.integrations.sb3: Stable-Baselines3's VecEnv API over the learner-vs-opponent batch, and
a short sb3-contrib MaskablePPO run on it (needs the train extra: heavy)."""
from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.heavy

sb3 = pytest.importorskip("stable_baselines3")
pytest.importorskip("sb3_contrib")

import stratego  # noqa: E402
from stratego.integrations.sb3 import SB3VecEnv  # noqa: E402


def test_reset_step_and_terminal_observations() -> None:
    env = SB3VecEnv(32, opponent="random", seed=3)
    obs = env.reset()
    assert obs.shape == (32, *env.observation_space.shape) and obs.dtype == np.float32
    ends = 0
    for _ in range(400):
        masks = env.action_masks()
        assert masks.shape == (32, env.action_space.n) and masks.any(axis=1).all()
        assert np.array_equal(np.stack(env.env_method("action_masks")), masks)
        before = obs.copy()
        obs, rewards, dones, infos = env.step(env.env.sample_actions())
        assert not np.shares_memory(obs, env.env.obs) and not np.array_equal(obs, before)
        assert len(infos) == 32
        for i in range(32):
            if dones[i]:
                ends += 1
                assert infos[i]["terminal_observation"].shape == env.observation_space.shape
                assert rewards[i] in (-1.0, 0.0, 1.0)
            else:
                assert "terminal_observation" not in infos[i] and rewards[i] == 0
    assert ends > 0


def test_seeding_repeats_the_games() -> None:
    a, b = SB3VecEnv(8, opponent="heuristic", seed=5), SB3VecEnv(8, opponent="heuristic")
    b.seed(5)
    assert np.array_equal(a.reset(), b.reset())
    for _ in range(50):
        act = a.env.sample_actions().copy()
        assert np.array_equal(a.step(act)[0], b.step(act)[0])


def test_attributes_and_errors() -> None:
    env = SB3VecEnv(4, opponent="random")
    assert env.get_attr("render_mode") == [None] * 4
    assert env.get_attr("num_actions", indices=[1, 2]) == [env.env.num_actions] * 2
    assert env.env_is_wrapped(object) == [False] * 4
    assert env.has_attr("action_masks")
    with pytest.raises(ValueError, match="opponent must be one of"):
        SB3VecEnv(4, opponent=None)
    with pytest.raises(ValueError, match="needs observations"):
        SB3VecEnv(4, observations=False)
    with pytest.raises(ValueError, match="indices must be None"):
        env.set_attr("num_threads", 1, indices=[0])


def test_maskable_ppo_trains_on_the_batch() -> None:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor

    env = VecMonitor(SB3VecEnv(64, opponent="heuristic", seed=0, history_k=1, num_threads=1))
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=256, n_epochs=1, seed=0,
                        policy_kwargs=dict(net_arch=[32]), device="cpu")
    model.learn(total_timesteps=64 * 16 * 2)
    assert model.num_timesteps >= 64 * 16 * 2
    obs = env.reset()
    actions, _ = model.predict(obs, action_masks=np.stack(env.env_method("action_masks")))
    assert env.venv.action_masks()[np.arange(64), actions].all()  # masked: every action legal


# ---------------------------------------------------------------- issue 29: no warnings, progress bar

def test_the_train_extra_brings_what_sb3s_progress_bar_needs() -> None:
    # SB3's learn(progress_bar=True) imports tqdm and rich; the train extra must bring both.
    from importlib.metadata import requires
    train = {r.split(";")[0].split(">")[0].split("=")[0].strip().lower()
             for r in requires("stratego-sim") if 'extra == "train"' in r}
    assert {"tqdm", "rich", "moviepy"} <= train


@pytest.mark.parametrize("flatten", [False, True])
def test_maskable_ppo_on_gym_make_trains_without_warnings(flatten: bool) -> None:
    """The example of docs/agents.md "Stable-Baselines3 without warnings": float32 planes
    (flattened for check_env) and the package's BoardFeatures, every warning an error."""
    import warnings

    import gymnasium as gym
    from gymnasium.wrappers import FlattenObservation
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_checker import check_env

    from stratego.integrations.sb3 import BoardFeatures

    from tqdm import TqdmExperimentalWarning

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # SB3 silences tqdm.rich's "experimental" warning for its progress bar on import;
        # "error" above put that filter behind it, so it is put back first.
        warnings.filterwarnings("ignore", category=TqdmExperimentalWarning)
        env = gym.make("stratego/Stratego-v0", variant="barrage", opponent="random", history_k=1,
                       obs_dtype="float32")
        if flatten:
            env = FlattenObservation(env)
            check_env(env)
        model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu",
                            policy_kwargs={"features_extractor_class": BoardFeatures,
                                           "features_extractor_kwargs": {"features_dim": 64, "channels": 16}})
        model.learn(total_timesteps=64, progress_bar=True)
        obs, info = env.reset(seed=1)
        action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
        assert info["action_mask"][int(action)]


def test_board_features_refuses_what_is_no_board() -> None:
    from gymnasium import spaces

    from stratego.integrations.sb3 import BoardFeatures
    with pytest.raises(ValueError, match="float32 Box"):
        BoardFeatures(spaces.Box(0, 255, (68, 10, 10), np.uint8))
    with pytest.raises(ValueError, match=r"\(C, 10, 10\)"):
        BoardFeatures(spaces.Box(0, 1, (68, 9, 10), np.float32))
