"""`VecEnv`: thousands of games stepped together in C, writing into NumPy arrays.

The arrays are allocated once and overwritten in place by every reset and step (zero
copy): copy them if you keep them across steps.
"""
from __future__ import annotations

import secrets

import numpy as np

from . import _core
from .variants import Variant, load_variant

ILLEGAL_ACTION_MODES = {"raise": _core.ILLEGAL_RAISE, "lose": _core.ILLEGAL_LOSES}
END_REASONS: tuple[str, ...] = _core.END_REASONS


class VecEnv:
    """N games of one variant, stepped with one action each per call.

    - reset(seed) starts all games; game i draws its setups from its own stream made
      from (seed, i), so results do not depend on num_threads.
    - step(actions) plays actions[i] (in the acting player's frame) in game i.
      Finished games reset at once (Gymnasium's SAME_STEP autoreset): the step's
      outputs carry the result of the finished game and the legal mask of the new one.
    - illegal_action="raise" (default): an illegal action raises ValueError naming the
      game, and no game is changed. "lose": the player who sent it loses that game.
    """

    def __init__(
        self,
        num_envs: int,
        variant: str | Variant = "classic",
        *,
        num_threads: int = 0,
        illegal_action: str = "raise",
        seed: int | None = None,
        **settings: int,
    ):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)):
            raise TypeError(f"num_envs must be an int, got {type(num_envs).__name__}")
        num_envs = int(num_envs)
        if not 1 <= num_envs <= 1 << 26:
            raise ValueError(f"num_envs must be in [1, {1 << 26}], got {num_envs}")
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be one of {sorted(ILLEGAL_ACTION_MODES)}, got {illegal_action!r}")
        self.variant = load_variant(variant, **settings)
        self.num_envs = num_envs
        self.illegal_action = illegal_action
        self._mode = ILLEGAL_ACTION_MODES[illegal_action]
        n = num_envs
        try:
            self.action_mask = np.zeros((n, _core.ACTION_NB), dtype=np.bool_)
            self.rewards = np.zeros((n, 2), dtype=np.float32)
            self.reward = np.zeros(n, dtype=np.float32)
            self.terminated = np.zeros(n, dtype=np.bool_)
            self.truncated = np.zeros(n, dtype=np.bool_)
            self.to_play = np.zeros(n, dtype=np.int8)
            self.final_winner = np.full(n, -1, dtype=np.int8)
            self.final_reason = np.zeros(n, dtype=np.uint8)
            self.final_plies = np.zeros(n, dtype=np.int32)
            self._sampled = np.zeros(n, dtype=np.int64)
        except (MemoryError, ValueError) as exc:
            raise MemoryError(f"cannot allocate the buffers of {n} games: {exc}") from None
        self._batch = _core.Batch(
            n, num_threads, self.variant.rules,
            self.action_mask, self.rewards, self.reward, self.terminated, self.truncated,
            self.to_play, self.final_winner, self.final_reason, self.final_plies,
        )
        self._seed = None
        if seed is not None:
            self.reset(seed=seed)

    @property
    def num_threads(self) -> int:
        return self._batch.num_threads

    @num_threads.setter
    def num_threads(self, value: int) -> None:
        self._batch.num_threads = value

    @property
    def closed(self) -> bool:
        return self._batch.closed

    def reset(self, seed: int | None = None):
        """Starts every game anew. Returns (obs, info)."""
        if seed is None:
            seed = secrets.randbits(64)
        elif isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise TypeError(f"seed must be an int or None, got {type(seed).__name__}")
        self._batch.reset(int(seed))
        return None, self._info()

    def step(self, actions):
        """Plays one action per game. Returns (obs, reward, terminated, truncated, info).

        reward[i] is the reward of the player who acted in game i (+1 win, -1 loss,
        0 otherwise); info["rewards"] has both players' rewards, shape (N, 2).
        """
        if not isinstance(actions, np.ndarray):
            actions = np.asarray(actions)
        self._batch.step(actions, self._mode)
        return None, self.reward, self.terminated, self.truncated, self._info()

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action for each game (C, per-game streams)."""
        self._batch.sample_actions(self._sampled)
        return self._sampled

    def stats(self) -> dict:
        """Counters of the games finished since the last reset, and their checksum."""
        return self._batch.stats()

    def game_field(self, index: int) -> str:
        """The board of game `index` as 100 Gravon letters."""
        return self._batch.game(index).field()

    def _info(self) -> dict:
        return {
            "action_mask": self.action_mask,
            "to_play": self.to_play,
            "rewards": self.rewards,
            "final_winner": self.final_winner,
            "final_reason": self.final_reason,
            "final_plies": self.final_plies,
        }

    def close(self) -> None:
        """Frees the games. Safe to call twice; any later call raises RuntimeError."""
        self._batch.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
