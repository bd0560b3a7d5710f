"""The castle game as a PettingZoo AEC env with 3 or 4 agents, built as the classic
`stratego.pettingzoo` is.

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
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env import ActionType

from stratego.pettingzoo import raw_env as _ClassicEnv
from stratego.seeding import check_seed

from . import variants
from .game import Game
from .observation import SHAPES


def env(**kwargs: Any):
    """raw_env(**kwargs) with PettingZoo's standard wrappers for classic games."""
    wrapped = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):
    """One castle game between 3 or 4 agents.

    mode ("ffa4", "teams4", "ffa3"), variant (a file of configs/castle/ or a path), the
    settings by keyword (max_plies=..., as for stratego.castle.Game), obs_format
    ("planes" or "codes"). reset(seed) draws the setups from the env's stream; the same
    seed gives the same game."""

    metadata = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "name": "stratego_castle_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, mode: str | None = None, render_mode: str | None = None, *, variant=None,
                 obs_format: str = "planes", **settings: int):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, got {render_mode!r}")
        if obs_format not in SHAPES:
            raise ValueError(f"obs_format must be one of {list(SHAPES)}, got {obs_format!r}")
        if mode is not None:
            settings["mode"] = mode
        # Checked now (a bad setting is a ValueError here, not at reset).
        self.settings = variants.load_settings(variant, **settings)
        self.mode = variants.MODES[self.settings["mode"]]
        self.obs_format = obs_format
        self.render_mode = render_mode
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
        self._np_random, _ = seeding.np_random(None)
        self._clear()

    def _clear(self) -> None:
        agents = self.possible_agents
        self.agents = list(agents)
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos = {agent: {"seat": self._game.seat_letters[k]} for k, agent in enumerate(agents)}
        self.agent_selection = agents[self._game.to_play]

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self._game.num_actions, dtype=np.int8)
        if not self._game.done and self._game.to_play == seat:
            mask[:] = np.frombuffer(self._game.legal_mask(), np.uint8)
        observation = self._game.observation(seat, obs_format=self.obs_format)
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            # The seed rule of every env (stratego.seeding): gymnasium's own check would
            # take 2**64 and more.
            self._np_random, _ = seeding.np_random(check_seed(seed))
        self._game = Game(seed=int(self._np_random.integers(2**63)), **self.settings)
        self._clear()
        if self.render_mode == "human":
            self.render()

    def step(self, action: ActionType) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        try:
            self._game.play(int(action))
        except ValueError as exc:
            raise ValueError(f"{agent}: {exc}") from None
        if self._game.done:
            winners = self._game.winners
            for seat, name in enumerate(self.possible_agents):
                self.terminations[name] = True
                self.rewards[name] = 0.0 if not winners else 1.0 if seat in winners else -1.0
                self.infos[name]["end_reason"] = self._game.end_reason
        else:
            self.agent_selection = self.possible_agents[self._game.to_play]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # The full board ("ansi" returns the text, "human" prints it, "rgb_array" returns
    # the picture) and close: the classic env's, which read only render_mode, metadata,
    # _game.render() and _game.rgb().
    render = _ClassicEnv.render
    close = _ClassicEnv.close
