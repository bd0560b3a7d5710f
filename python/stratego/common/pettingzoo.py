"""The PettingZoo AEC env both games' envs are (stratego.integrations.pettingzoo,
stratego.castle.pettingzoo): one game object (`_game`, with play, done, render and rgb)
played by the agents in turn, the agent selected always the one that decides. What is a
game's own: its spaces, observe, who decides (`_deciding`), the rewards at the end
(`_end_rewards`) and its infos (`_start_infos`, `_played`).

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

from .seeding import check_seed

RENDER_MODES = ["ansi", "human", "rgb_array"]


def wrap(raw: AECEnv) -> AECEnv:
    """PettingZoo's usual wrappers for classic games: an illegal action ends the game with
    -1 for its agent, actions outside the space are refused, calls are checked for order."""
    wrapped = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class TurnGameEnv(AECEnv):
    """The bookkeeping of an AEC env over one game: render mode, seeding, the per-agent
    dicts, step's order (a dead agent's step, the rewards of a finished game) and
    rendering. A subclass sets `possible_agents`, `observation_spaces`, `action_spaces`
    and `_game`, and calls `_start()` when a game begins."""

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "is_parallelizable": False, "render_fps": 2}
    observation_spaces: dict[str, spaces.Dict]
    action_spaces: dict[str, spaces.Space]

    def __init__(self, render_mode: str | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.render_mode = render_mode
        self._np_random, _ = seeding.np_random(None)

    # ------------------------------------------------------------ the game's own
    def _deciding(self) -> int:
        """The index (in possible_agents) of the agent that decides now."""
        raise NotImplementedError

    def _end_rewards(self) -> list[float]:
        """Each agent's reward (possible_agents' order) when the game has ended."""
        raise NotImplementedError

    def _start_infos(self) -> dict[str, dict]:
        return {agent: {} for agent in self.possible_agents}

    def _played(self) -> None:
        """After a move: the infos' updates (at the end, or in play)."""

    # ------------------------------------------------------------ shared
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _game_seed(self, seed: int | None) -> int:
        """The next game's seed from the env's stream, reseeded by `seed` when given."""
        if seed is not None:
            # The seed rule of every env (stratego.common.seeding): gymnasium's own check would
            # take 2**64 and more.
            self._np_random, _ = seeding.np_random(check_seed(seed))
        return int(self._np_random.integers(2**63))

    def _start(self) -> None:
        agents = self.possible_agents
        self.agents = list(agents)
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos = self._start_infos()
        self.agent_selection = agents[self._deciding()]

    def _rendered(self) -> None:
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
            for name, reward in zip(self.possible_agents, self._end_rewards()):
                self.terminations[name] = True
                self.rewards[name] = reward
        else:
            self.agent_selection = self.possible_agents[self._deciding()]
        self._played()
        self._accumulate_rewards()
        self._rendered()

    def render(self) -> str | np.ndarray | None:
        """The full board (every side's pieces: a spectator's view): "ansi" returns the
        text, "human" prints it, "rgb_array" returns the picture as an RGB image
        (H x W x 3 uint8: the game's rgb())."""
        if self.render_mode is None:
            raise ValueError(f"render() needs a render_mode, one of {self.metadata['render_modes']}")
        if self.render_mode == "rgb_array":
            return self._game.rgb()
        text = self._game.render()
        if self.render_mode == "human":
            print(text, end="\n\n")
            return None
        return text

    def close(self) -> None:
        pass
