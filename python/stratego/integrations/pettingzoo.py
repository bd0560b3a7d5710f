"""Stratego as a PettingZoo AEC env, the way `pettingzoo.classic` envs are built.

    from stratego.integrations import pettingzoo as stratego_pz
    env = stratego_pz.env(variant="classic", render_mode="ansi")

Agents "player_0" (red, moves first) and "player_1" (blue). Each observation is a dict
{"observation": uint8 (C, 10, 10), the agent's partial view in the package's
channels-first layout (stratego.channel_names), "action_mask": int8 (A,), its legal
actions (all 0 when it is not to move)}. Actions are in the acting player's frame
(stratego.actions). Rewards +1/-1 for a win and a loss, 0/0 for a draw, at the end;
every end is a rule of the game, the move caps included (terminations, never
truncations). Under the rescue rule a player who reaches the opponent's back row acts
twice in a row (its move, then the rescue or "pass"): the next agent is always the
player to move.

The compact formats: `obs_format="codes"` gives "observation" as the compact codes
(uint8 (L,), stratego.expand_observation), `mask_format="bits"` gives "action_mask"
packed 8 actions a byte (uint8, stratego.unpack_mask); the packed mask only with
`raw_env()`, since TerminateIllegalWrapper reads one mask entry per action.

`env()` adds PettingZoo's usual wrappers: an illegal action ends the game with -1 for
its player (TerminateIllegalWrapper), actions outside the space are refused, and the
calls are checked for order. `raw_env()` has none: an illegal action raises ValueError.

Needs the `train` extra (pettingzoo).
"""
from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from ..common.pettingzoo import TurnGameEnv, wrap
from ..deploy import parse_setup
from ..game import AGENTS, Game
from ..variants import Variant, load_variant


def env(**kwargs: Any):
    """raw_env(**kwargs) with PettingZoo's standard wrappers for classic games."""
    if kwargs.get("mask_format", "bool") != "bool":
        raise ValueError("env() wraps the env in TerminateIllegalWrapper, which reads action_mask as one "
                         "entry per action: use mask_format='bool', or raw_env(mask_format='bits')")
    return wrap(raw_env(**kwargs))


class raw_env(TurnGameEnv):
    """One game of Stratego between player_0 (red) and player_1 (blue).

    variant, setup ("random", "human", "agent": a deployment phase in which each agent
    places its pieces, one action a turn, infos[agent]["deploying"]; or a pair by colour
    such as ("agent", "human"), docs/deployment.md), history_k (the observation's recent plies),
    obs_format ("planes" or "codes"), mask_format ("bool" or "bits") and rule settings (max_plies=..., as for stratego.Game). reset(seed) draws the
    setups from the env's stream; the same seed gives the same game.
    """

    metadata = {**TurnGameEnv.metadata, "name": "stratego_v0"}

    def __init__(self, variant: str | Variant = "classic", render_mode: str | None = None, *,
                 setup: str = "random", history_k: int = 4, obs_format: str = "planes",
                 mask_format: str = "bool", **settings: int):
        super().__init__(render_mode)
        # The variant whose action space holds the placements where a side deploys.
        self.variant = parse_setup(setup, load_variant(variant, **settings))[0]
        self.setup = setup
        self.history_k = history_k
        self.obs_format = obs_format
        # A first game checks the setup mode, history_k and the formats now, not at reset.
        self._game = Game(self.variant, seed=0, setup=setup)
        probe = self._game.observation(0, history_k=history_k, obs_format=obs_format)
        self.mask_format = mask_format
        mask_probe = self._game.action_mask(mask_format)
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        num_actions = self.variant.num_actions
        # The bool mask as pettingzoo.classic gives it (int8 0/1); packed bytes with "bits".
        mask_space = (spaces.Box(0, 1, (num_actions,), np.int8) if mask_format == "bool"
                      else spaces.Box(0, 255, mask_probe.shape, np.uint8))
        self._mask_dtype = mask_space.dtype
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(0, 255, probe.shape, np.uint8),
                "action_mask": mask_space,
            })
            for agent in AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(num_actions) for agent in AGENTS}
        self._start()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = AGENTS.index(agent)
        mask = np.zeros(self.observation_spaces[agent]["action_mask"].shape, dtype=self._mask_dtype)
        if not self._game.done and self._game.to_move == player:
            mask[:] = self._game.action_mask(self.mask_format)
        observation = self._game.observation(player, history_k=self.history_k, obs_format=self.obs_format)
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._game = Game(self.variant, seed=self._game_seed(seed), setup=self.setup)
        self._start()
        self._rendered()

    def _deciding(self) -> int:
        return self._game.to_move

    def _start_infos(self) -> dict[str, dict]:
        return {agent: {"deploying": self._game.deploying} for agent in AGENTS}

    def _end_rewards(self) -> list[float]:
        winner = self._game.winner
        return [0.0 if winner is None else 1.0 if winner == player else -1.0 for player in range(len(AGENTS))]

    def _played(self) -> None:
        for name in AGENTS:
            if self._game.done:
                self.infos[name] = {"end_reason": self._game.end_reason}
            else:
                self.infos[name]["deploying"] = self._game.deploying
