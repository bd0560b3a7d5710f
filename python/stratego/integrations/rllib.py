"""Stratego as an RLlib MultiAgentEnv (turn-based, two agents), for Ray's RL library.

    from stratego.integrations.rllib import StrategoMultiAgentEnv
    config = PPOConfig().environment(StrategoMultiAgentEnv, env_config={"variant": "classic"})

Agents "player_0" (red, moves first) and "player_1" (blue), as in stratego.integrations.pettingzoo.
Only the agent to move gets an observation each step, the RLlib convention for turn-based
games; at the end of a game both agents get their last observation and their reward (+1
win, -1 loss, 0 draw; every end, the move caps included, is a rule of the game:
terminated, never truncated).

Each observation is a dict the way RLlib's action-masking modules read it:
{"observations": the agent's partial view, "action_mask": float32 0/1 (A,)}.
The view is uint8 (C, 10, 10) planes in the package's channels-first layout, or with
env_config {"flatten": True} float32 (C * 100,) scaled to [0, 1], for RLlib's default
fully-connected encoders. An illegal action loses the game for the agent that sent it
(illegal_action "lose", the default: RLlib's environment checker, which every algorithm
runs on its envs, steps actions sampled from the whole space), or with "raise" raises
ValueError naming the agent.

env_config keys: variant, setup ("random", "human"), history_k, flatten,
illegal_action, and rule settings (max_plies=..., as for stratego.Game). reset(seed)
draws the setups from the env's stream; the same seed gives the same game.

Needs the `ray` extra (docs/distributed.md).
"""
from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from ..game import AGENTS, Game
from ..common.seeding import check_seed
from ..variants import load_variant

CONFIG_KEYS = ("variant", "setup", "history_k", "flatten", "illegal_action")


class StrategoMultiAgentEnv(MultiAgentEnv):
    """One game of Stratego between player_0 (red) and player_1 (blue)."""

    def __init__(self, config: dict[str, Any] | None = None):
        super().__init__()
        config = dict(config or {})
        # RLlib passes an EnvContext (a dict with worker attributes): plain keys only.
        settings = {k: v for k, v in config.items() if k not in CONFIG_KEYS}
        self.variant = load_variant(config.get("variant", "classic"), **settings)
        self.setup = config.get("setup", "random")
        self.history_k = config.get("history_k", 4)
        self.flatten = bool(config.get("flatten", False))
        self.illegal_action = config.get("illegal_action", "lose")
        if self.illegal_action not in ("raise", "lose"):
            raise ValueError(f"illegal_action must be 'raise' or 'lose', got {self.illegal_action!r}")
        # A first game checks the setup mode and history_k now, not at reset.
        self._game = Game(self.variant, seed=0, setup=self.setup)
        probe = self._game.observation(0, history_k=self.history_k)
        view = (spaces.Box(0.0, 1.0, (probe.size,), np.float32) if self.flatten
                else spaces.Box(0, 255, probe.shape, np.uint8))
        num_actions = self.variant.num_actions
        self.agents = self.possible_agents = list(AGENTS)
        self.observation_spaces = {a: spaces.Dict({"observations": view,
                                                   "action_mask": spaces.Box(0.0, 1.0, (num_actions,), np.float32)})
                                   for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in AGENTS}
        self._np_random, _ = seeding.np_random(None)

    def _observe(self, player: int) -> dict[str, np.ndarray]:
        view = self._game.observation(player, history_k=self.history_k)
        if self.flatten:
            view = view.reshape(-1).astype(np.float32) / np.float32(255)
        mask = np.zeros(self.variant.num_actions, np.float32)
        if not self._game.done and self._game.to_move == player:
            mask[self._game.action_mask()] = 1.0
        return {"observations": view, "action_mask": mask}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._np_random, _ = seeding.np_random(check_seed(seed))
        self._game = Game(self.variant, seed=int(self._np_random.integers(2**63)), setup=self.setup)
        agent = AGENTS[self._game.to_move]
        return {agent: self._observe(self._game.to_move)}, {}

    def step(self, action_dict: dict[str, Any]):
        player = self._game.to_move
        agent = AGENTS[player]
        if set(action_dict) != {agent}:
            raise ValueError(f"{agent} is to move: expected an action for it alone, got actions for "
                             f"{sorted(action_dict)}")
        action = int(action_dict[agent])
        if self.illegal_action == "lose":
            self._game._play_or_forfeit(action)
        else:
            try:
                self._game.play(action)
            except ValueError as exc:
                raise ValueError(f"{agent}: {exc}") from None
        if self._game.done:
            winner = self._game.winner
            rewards = {a: 0.0 if winner is None else 1.0 if winner == p else -1.0 for p, a in enumerate(AGENTS)}
            obs = {a: self._observe(p) for p, a in enumerate(AGENTS)}
            infos = {a: {"end_reason": self._game.end_reason} for a in AGENTS}
            return obs, rewards, {"__all__": True}, {"__all__": False}, infos
        mover = self._game.to_move
        return ({AGENTS[mover]: self._observe(mover)}, {}, {"__all__": False}, {"__all__": False}, {})

    def render(self) -> str:
        """The full board (a spectator's view)."""
        return self._game.render()
