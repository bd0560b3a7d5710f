"""The castle game as a PettingZoo AEC env with 3 or 4 agents, built as the classic
`stratego.integrations.pettingzoo` is.

    from stratego.castle import pettingzoo as castle_pz
    env = castle_pz.env(mode="ffa4", render_mode="ansi")

Agents "player_0".. (seat 0 = north, then clockwise; 3 in ffa3, 4 otherwise). Each
observation is a dict {"observation": uint8, the seat's view in its own frame
(docs/castle.md "Observation": planes (115, 15, 15), or the compact codes (280,) with
obs_format="codes"), "action_mask": int8 (A,), its legal actions (all 0 when it does not
decide now)}. The next agent is always the seat that decides: a turn may be up to three
decisions of one seat (move, take, recruit), and a defender whose winning defence earned
a recruitment decides it out of turn. Rewards at the end: +1 for the crowning seat (teams4:
both seats of its team), -1 for every other seat, 0 for all in a draw; every end is a
rule (the ply cap included): terminations, never truncations. infos[agent]["seat"] is
the agent's seat letter; at the end infos hold "end_reason".

`env()` adds PettingZoo's usual wrappers (an illegal action ends the game with -1 for its
agent, actions outside the space are refused, calls are checked for order); `raw_env()`
has none: an illegal action raises ValueError naming the agent, the move and why.

Needs pettingzoo (the `train` extra).
"""
from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from stratego.common.pettingzoo import TurnGameEnv, wrap

from . import variants
from .game import Game
from .observation import SHAPES


def env(**kwargs: Any):
    """raw_env(**kwargs) with PettingZoo's standard wrappers for classic games."""
    return wrap(raw_env(**kwargs))


class raw_env(TurnGameEnv):
    """One castle game between 3 or 4 agents.

    mode ("ffa4", "teams4", "ffa3"), variant (a file of configs/castle/ or a path), the
    settings by keyword (max_plies=..., as for stratego.castle.Game), obs_format
    ("planes" or "codes"). reset(seed) draws the setups from the env's stream; the same
    seed gives the same game."""

    metadata = {**TurnGameEnv.metadata, "name": "stratego_castle_v0"}

    def __init__(self, mode: str | None = None, render_mode: str | None = None, *, variant=None,
                 obs_format: str = "planes", **settings: int):
        super().__init__(render_mode)
        if obs_format not in SHAPES:
            raise ValueError(f"obs_format must be one of {list(SHAPES)}, got {obs_format!r}")
        if mode is not None:
            settings["mode"] = mode
        # Checked now (a bad setting is a ValueError here, not at reset).
        self.settings = variants.load_settings(variant, **settings)
        self.mode = variants.MODES[self.settings["mode"]]
        self.obs_format = obs_format
        self._game = Game(seed=0, **self.settings)
        self.seats = self._game.seats
        self.possible_agents = [f"player_{seat}" for seat in range(self.seats)]
        self.agents = list(self.possible_agents)
        num_actions = self._game.num_actions
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(0, 255, SHAPES[obs_format], np.uint8),
                "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(num_actions) for agent in self.possible_agents}
        self._start()

    def _start_infos(self) -> dict[str, dict]:
        return {agent: {"seat": self._game.seat_letters[k]} for k, agent in enumerate(self.possible_agents)}

    def _deciding(self) -> int:
        return self._game.to_play

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self._game.num_actions, dtype=np.int8)
        if not self._game.done and self._game.to_play == seat:
            mask[:] = np.frombuffer(self._game.legal_mask(), np.uint8)
        observation = self._game.observation(seat, obs_format=self.obs_format)
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._game = Game(seed=self._game_seed(seed), **self.settings)
        self._start()
        self._rendered()

    def _end_rewards(self) -> list[float]:
        winners = self._game.winners
        return [0.0 if not winners else 1.0 if seat in winners else -1.0 for seat in range(self.seats)]

    def _played(self) -> None:
        if self._game.done:
            for name in self.possible_agents:
                self.infos[name]["end_reason"] = self._game.end_reason
