"""Opponents that play one side of a single `Game`: a bot by name, or a policy.

A policy follows the project's policy protocol (stratego.agents.policy): `policy(obs, mask) ->
actions` on a batch, here of one; it gets the observations it declares
(`observation_settings`, VecEnv's defaults otherwise).
"""
from __future__ import annotations

from typing import Callable

from .. import _core
from ..game import Game
from . import zoo
from .policy import game_action, observation_settings

#: The bots in C (stratego.BOTS): "random" and "heuristic".
BOT_OPPONENTS: tuple[str, ...] = _core.BOT_NAMES


class Opponent:
    """Plays the player to move of a `Game`: `action(game, observe)` returns its action
    (not played), or -1 when the game is over.

    `spec` is a bot in C by name (Game.bot_move: "random", uniform over the legal
    actions, or "heuristic"; both decide from their player's view only, their random
    choices from the game's seed), a zoo agent "zoo:NAME" (stratego.agents.zoo: a trained
    policy, which must have been trained for `variant` when one is given), or a callable policy (see the module's protocol),
    which gets the player to move's observation and mask. With `check_legal` an illegal
    answer raises ValueError naming the policy; without, it is returned (the caller
    decides what it costs).
    """

    def __init__(self, spec: str | Callable, variant=None):
        if zoo.is_zoo_spec(spec):
            # A trained policy of the package's zoo, checked against the game's variant.
            spec = zoo.load(spec, variant)
        if isinstance(spec, str):
            if spec not in BOT_OPPONENTS:
                raise ValueError(f"unknown opponent {spec!r}; expected one of {list(BOT_OPPONENTS)}, "
                                 f"a zoo agent {list(zoo.names())} or a callable policy(obs, mask) -> actions")
        elif not callable(spec):
            raise TypeError(f"opponent must be one of {list(BOT_OPPONENTS)} or a callable "
                            f"policy(obs, mask) -> actions, got {type(spec).__name__}")
        self.spec = spec
        self.name = spec if isinstance(spec, str) else getattr(spec, "__name__", type(spec).__name__)
        # What the policy observes: its declared settings.
        self.settings = None
        if not isinstance(spec, str):
            self.settings = observation_settings(spec, f"opponent policy {self.name!r}")

    def action(self, game: Game, check_legal: bool) -> int:
        if game.done:
            return -1
        if isinstance(self.spec, str):
            return int(game.bot_move(self.spec))
        return game_action(self.spec, game, self.settings, check_legal, f"opponent policy {self.name!r}")

    @property
    def seedable(self) -> bool:
        """Whether the opponent is a policy with the protocol's optional seed(int)."""
        return not isinstance(self.spec, str) and callable(getattr(self.spec, "seed", None))

    def seed(self, seed: int) -> None:
        """Reseeds a policy that samples (see seedable)."""
        self.spec.seed(seed)
