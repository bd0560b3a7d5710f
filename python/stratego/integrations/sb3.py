"""Stable-Baselines3's own VecEnv API over the learner-vs-opponent batch.

SB3 does not take a Gymnasium VectorEnv; this adapter gives it the batch as an SB3
`VecEnv`, so that PPO or sb3-contrib's MaskablePPO train on thousands of games stepped
in C, against a bot that replies inside the same step (docs/agents.md):

    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor
    from stratego.integrations.sb3 import SB3VecEnv

    env = VecMonitor(SB3VecEnv(256, opponent="heuristic", seed=0))
    MaskablePPO("MlpPolicy", env, n_steps=64).learn(100_000)

`BoardFeatures` is a features extractor for the board planes, (C, 10, 10) or flattened
(C * 100,): SB3's NatureCNN wants images of 36 x 36 pixels or more, and an MLP on the
planes ignores that they are a board (docs/agents.md "Stable-Baselines3 without warnings").

Needs the `train` extra (stable-baselines3, sb3-contrib, torch): imported only here.
"""
from __future__ import annotations

from typing import Any

import numpy as np

try:
    import torch
    from gymnasium import spaces
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
    from stable_baselines3.common.vec_env.base_vec_env import VecEnv as _SB3VecEnv
    from torch import nn
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        "stratego.integrations.sb3 needs Stable-Baselines3: pip install 'stratego-sim[train]' "
        "(or pip install stable-baselines3 sb3-contrib)"
    ) from exc

from ..vec_env import VecEnv

SQUARES = 100  # the board's squares: the planes' last two dimensions, 10 x 10


class BoardFeatures(BaseFeaturesExtractor):
    """Two 3 x 3 convolutions over the board planes, then a linear layer to
    `features_dim` features: SB3's `features_extractor_class` for the Stratego envs.

    The observation space is a float32 Box of the planes (obs_dtype="float32"), (C, 10,
    10) or flattened to (C * 100,) (gymnasium.wrappers.FlattenObservation, which SB3's
    check_env takes without a warning); SB3 feeds float32 boxes unscaled, so the planes
    arrive as the env writes them."""

    def __init__(self, observation_space: spaces.Box, features_dim: int = 256, channels: int = 64):
        shape = observation_space.shape
        if not isinstance(observation_space, spaces.Box) or observation_space.dtype != np.float32:
            raise ValueError(f"BoardFeatures takes a float32 Box of board planes (obs_dtype='float32'), "
                             f"got {observation_space}")
        if len(shape) == 3 and shape[1:] == (10, 10):
            planes = shape[0]
        elif len(shape) == 1 and shape[0] % SQUARES == 0:
            planes = shape[0] // SQUARES
        else:
            raise ValueError(f"BoardFeatures takes planes (C, 10, 10) or their flattening (C * 100,), got {shape}")
        super().__init__(observation_space, features_dim)
        self.planes = planes
        self.net = nn.Sequential(
            nn.Conv2d(planes, channels, 3, padding=1), nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU(),
            nn.Flatten(), nn.Linear(channels * SQUARES, features_dim), nn.ReLU(),
        )

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return self.net(observations.reshape(-1, self.planes, 10, 10))


class SB3VecEnv(_SB3VecEnv):
    """`num_envs` games of a learner against a C bot, as an SB3 VecEnv.

    - opponent: "random" or "heuristic"; learner_color: "red", "blue", "random" or
      "alternate" (VecEnv's learner-vs-opponent mode). Other keywords go to VecEnv
      (variant settings, history_k, setup, num_threads, ...); observations are float32
      planes by default (SB3 scales uint8 boxes as images).
    - step_wait returns copies of obs, rewards and dones (SB3 keeps the previous
      observation across a step; VecEnv overwrites its buffers in place), and for each
      finished game info["terminal_observation"] (the learner's last view) and
      info["TimeLimit.truncated"] (a draw cap, not a rule, ended the game).
    - action_masks(): the learner's legal actions, shape (num_envs, num_actions), the
      sb3-contrib MaskablePPO convention (also through env_method("action_masks")).
    - Seeds: the first reset uses `seed` (None: a fresh one); SB3's seed(s) makes the
      next reset use s for the whole batch (game i draws from (s, i)).
    """

    def __init__(self, num_envs: int, variant: str = "classic", *, opponent: str = "heuristic",
                 learner_color: str = "alternate", seed: int | None = None, obs_dtype: str = "float32",
                 **kwargs: Any):
        if opponent is None:
            raise ValueError("SB3VecEnv trains one learner against a bot: opponent must be one of "
                             "stratego.BOTS, got None")
        self.env = VecEnv(num_envs, variant, opponent=opponent, learner_color=learner_color,
                          obs_dtype=obs_dtype, **kwargs)
        if self.env.obs is None:
            raise ValueError("SB3VecEnv needs observations: observations=False leaves the policy nothing to see")
        if self.env.action_mask is None:
            raise ValueError("SB3VecEnv needs the legal mask for action_masks(): action_mask=False removes it")
        self.render_mode = None
        self._first_seed = seed
        self._actions: np.ndarray | None = None
        super().__init__(num_envs, self.env.single_observation_space, self.env.single_action_space)

    # -- the SB3 VecEnv API ----------------------------------------------------------
    def reset(self) -> np.ndarray:
        seed = self._seeds[0] if self._seeds[0] is not None else self._first_seed
        self._first_seed = None
        obs, _ = self.env.reset(seed=seed)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self):
        if self._actions is None:
            raise RuntimeError("step_wait() needs step_async(actions) first")
        obs, reward, terminated, truncated, info = self.env.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        infos: list[dict] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = info["final_obs"][i].copy()
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return obs.copy(), reward.copy(), dones, infos

    def close(self) -> None:
        self.env.close()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every game, bool (num_envs, num_actions)."""
        return self.env.action_mask.copy()

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        """An attribute of the adapter, else of the stratego VecEnv, once per index
        (every game shares them)."""
        target = self if attr_name in ("action_masks", "render_mode") else self.env
        value = getattr(target, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        if list(self._get_indices(indices)) != list(range(self.num_envs)):
            raise ValueError(f"set_attr({attr_name!r}) sets a setting of the whole batch: indices must be None")
        setattr(self.env, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
        """action_masks: each game's row; any other method of the stratego VecEnv is
        called once and its result given for each index."""
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.env.action_mask
            return [masks[i].copy() for i in rows]
        result = getattr(self.env, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        # No Gymnasium wrappers: the games live in one C batch.
        return [False for _ in self._get_indices(indices)]
