"""Opponents that play one side of a single `Game`: a bot by name, or a policy.

A policy follows the project's policy protocol: `policy(obs, mask) -> actions`, with
`obs` a batch of observations (B, C, 10, 10), `mask` the legal actions (B, A) bool, and
the result B integer actions, one per row, in each row's player's frame. Here B is 1.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from . import _core
from .game import Game

#: The bots in C (stratego.BOTS): "random" and "heuristic".
BOT_OPPONENTS: tuple[str, ...] = _core.BOT_NAMES


def check_policy_actions(actions, mask: np.ndarray, who: str) -> np.ndarray:
    """`actions` as returned by a policy, checked against the protocol: an integer array
    of shape (B,) whose entries are in range. Legality is the caller's (it decides what
    an illegal action costs). ValueError/TypeError naming `who` and what was wrong."""
    batch, num_actions = mask.shape
    try:
        out = np.asarray(actions)
    except Exception as exc:  # whatever the policy returned, say what it was
        raise TypeError(f"{who} must return an integer array of shape ({batch},), got "
                        f"{type(actions).__name__} ({exc})") from None
    if out.dtype == np.bool_ or not np.issubdtype(out.dtype, np.integer):
        raise TypeError(f"{who} must return an integer array of shape ({batch},), got dtype {out.dtype}")
    if out.shape != (batch,):
        raise ValueError(f"{who} must return an integer array of shape ({batch},), one action per "
                         f"observation; got shape {out.shape}")
    bad = np.flatnonzero((out < 0) | (out >= num_actions))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"{who} returned action {int(out[i])} for row {i}, out of range [0, {num_actions})")
    return out.astype(np.int64, copy=False)


class Opponent:
    """Plays the player to move of a `Game`: `action(game, observe)` returns its action
    (not played), or -1 when the game is over.

    `spec` is a bot in C by name (Game.bot_move: "random", uniform over the legal
    actions, or "heuristic"; both decide from their player's view only, their random
    choices from the game's seed), or a callable policy (see the module's protocol),
    which gets `observe(player)` of the player to move and its mask.
    """

    def __init__(self, spec: str | Callable):
        if isinstance(spec, str):
            if spec not in BOT_OPPONENTS:
                raise ValueError(f"unknown opponent {spec!r}; expected one of {list(BOT_OPPONENTS)} "
                                 f"or a callable policy(obs, mask) -> actions")
        elif not callable(spec):
            raise TypeError(f"opponent must be one of {list(BOT_OPPONENTS)} or a callable "
                            f"policy(obs, mask) -> actions, got {type(spec).__name__}")
        self.spec = spec
        self.name = spec if isinstance(spec, str) else getattr(spec, "__name__", type(spec).__name__)

    def action(self, game: Game, observe: Callable[[int], np.ndarray]) -> int:
        if game.done:
            return -1
        if isinstance(self.spec, str):
            return int(game.bot_move(self.spec))
        mask = game.action_mask()
        obs = observe(game.to_move)[None]
        actions = self.spec(obs, mask[None])
        return int(check_policy_actions(actions, mask[None], f"opponent policy {self.name!r}")[0])
