"""The policy protocol: what the arena, the opponents of the envs and the saved-policy
loader call.

A policy is any callable

    policy(obs: ndarray (B, C, 10, 10), mask: ndarray (B, A) bool) -> ndarray (B,) int

that takes a batch of observations of the player to move (each in that player's own
frame, as `VecEnv.obs` holds them) and their legal masks, and returns one action per
row, legal under its mask. It may carry two optional attributes:

- `observation_settings`: an `ObservationSettings` naming the observations it expects
  (history_k, belief, obs_dtype). Without it a policy gets the defaults of `VecEnv`.
- `seed(seed: int)`: reseeds a policy that samples, so that runs are repeatable; the
  arena calls it once per run with a seed derived from its own.

NumPy only: importing this module never imports torch.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Callable, Protocol, runtime_checkable

import numpy as np

from ..common.arguments import check_one_of
from .. import _core
from ..observation import OBSERVATION_VERSION, channel_names

OBS_DTYPES = ("uint8", "float32")


@dataclass(frozen=True)
class ObservationSettings:
    """The observation a policy takes: the `VecEnv` settings that produce it, and the
    layout version (`stratego.OBSERVATION_VERSION`) they refer to."""

    history_k: int = 4
    belief: bool = False
    obs_dtype: str = "uint8"
    version: int = OBSERVATION_VERSION
    #: With the deployment planes (setup="agent", docs/deployment.md): the env's rules
    #: have deploy=1 (its action space holds the placements).
    deploy: bool = False

    def __post_init__(self) -> None:
        k = self.history_k
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 0 <= k <= _core.HISTORY_NB:
            raise ValueError(f"history_k must be an int in [0, {_core.HISTORY_NB}], got {k!r}")
        if not isinstance(self.belief, (bool, np.bool_)):
            raise TypeError(f"belief must be a bool, got {type(self.belief).__name__}")
        check_one_of("obs_dtype", self.obs_dtype, OBS_DTYPES)
        if self.belief and self.obs_dtype != "float32":
            raise ValueError("belief planes are probabilities: they need obs_dtype='float32'")
        if isinstance(self.version, bool) or not isinstance(self.version, (int, np.integer)):
            raise TypeError(f"version must be an int, got {type(self.version).__name__}")
        object.__setattr__(self, "history_k", int(k))
        object.__setattr__(self, "belief", bool(self.belief))
        object.__setattr__(self, "version", int(self.version))
        if not isinstance(self.deploy, (bool, np.bool_)):
            raise TypeError(f"deploy must be a bool, got {type(self.deploy).__name__}")
        object.__setattr__(self, "deploy", bool(self.deploy))

    @property
    def channels(self) -> tuple[str, ...]:
        """The channel names of these observations, in order."""
        return channel_names(self.history_k, self.belief, self.deploy)

    def env_kwargs(self) -> dict[str, Any]:
        """The keyword arguments that make `VecEnv` (or `Game.observation`, with
        `dtype=` for `obs_dtype`) produce these observations; with deploy, the rule setting
        deploy=1, which the deployment planes come with."""
        kwargs = self.observe_kwargs()
        kwargs["obs_dtype"] = kwargs.pop("dtype")
        return kwargs | ({"deploy": 1} if self.deploy else {})

    def observe_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of `Game.observation` for these observations. A game has
        the deployment planes when its own rules have deploy=1, so deploy is not among
        them: `game_action` checks it against the game."""
        return {"history_k": self.history_k, "belief": self.belief, "dtype": self.obs_dtype}

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@runtime_checkable
class Policy(Protocol):
    """See the module docstring. Only `__call__` is required."""

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray: ...


def observes(history_k: int = 4, belief: bool = False, obs_dtype: str = "uint8") -> Callable:
    """Decorator that states which observations a policy function expects:

        @observes(history_k=0)
        def my_policy(obs, mask): ...
    """
    settings = ObservationSettings(history_k, belief, obs_dtype)

    def mark(policy: Callable) -> Callable:
        policy.observation_settings = settings
        return policy

    return mark


def observation_settings(policy: Callable, name: str = "policy") -> ObservationSettings:
    """The observations `policy` expects (the defaults when it does not say), checked
    against this build's observation layout."""
    if not callable(policy):
        raise TypeError(f"{name} must be callable as policy(obs, mask) -> actions, got {type(policy).__name__}")
    settings = getattr(policy, "observation_settings", None)
    if settings is None:
        return ObservationSettings()
    if not isinstance(settings, ObservationSettings):
        raise TypeError(f"{name}.observation_settings must be a stratego.agents.policy.ObservationSettings, "
                        f"got {type(settings).__name__}")
    if settings.version != OBSERVATION_VERSION:
        raise ValueError(f"{name} expects observation layout version {settings.version}, but this build "
                         f"writes version {OBSERVATION_VERSION}")
    return settings


def checked_actions(actions: Any, mask: np.ndarray, name: str = "policy",
                    games: np.ndarray | None = None) -> np.ndarray:
    """A policy's answer as int64 actions, or ValueError naming the policy, the game and
    what was wrong: not one integer per row, out of range, or illegal under `mask`.

    `games` maps the batch rows to game indices (for the message); default the rows.
    """
    rows = mask.shape[0]
    where = (lambda r: f"game {int(games[r])}") if games is not None else (lambda r: f"row {r}")
    arr = np.asarray(actions)
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"{name} returned actions of dtype {arr.dtype}; expected integers, one per row")
    if arr.shape != (rows,):
        raise ValueError(f"{name} returned actions of shape {arr.shape} for a batch of {rows} observations; "
                         f"expected shape ({rows},)")
    arr = arr.astype(np.int64, copy=False)
    num_actions = mask.shape[1]
    bad = np.flatnonzero((arr < 0) | (arr >= num_actions))
    if bad.size:
        r = int(bad[0])
        raise ValueError(f"{name} returned action {int(arr[r])} for {where(r)}: actions are in [0, {num_actions})")
    illegal = np.flatnonzero(~mask[np.arange(rows), arr])
    if illegal.size:
        r = int(illegal[0])
        raise ValueError(f"{name} returned action {int(arr[r])} for {where(r)}, which is illegal there "
                         f"({illegal.size} illegal action(s) in a batch of {rows})")
    return arr


def game_action(policy: Callable, game: Any, settings: ObservationSettings, check_legal: bool, name: str) -> int:
    """The action `policy` chooses for the player to move of a single `Game` (not played),
    from that player's observation (as `settings` describe it) and mask, as a batch of
    one. A game's observations have the deployment planes when its rules have deploy=1.
    A policy that observes them needs such a game, and one that declares settings without
    them a game without: else ValueError, before the policy is called. A policy that
    declares nothing takes the game's observations as they come. With `check_legal` an
    illegal answer raises ValueError naming `name`; shape, type and range are always
    checked. The game is not imported here: the agents stand above the game
    (docs/architecture.md)."""
    game_deploys = bool(game.variant.settings.get("deploy", 0))
    # Only a declared policy can observe the planes (the defaults do not), so one check.
    declared = getattr(policy, "observation_settings", None) is not None
    if declared and settings.deploy != game_deploys:
        raise ValueError(f"{name} observes {'the' if settings.deploy else 'no'} deployment planes "
                         f"(deploy={settings.deploy}), but the game's rules have deploy={int(game_deploys)}: "
                         f"play it in a game of the rules it was made for")
    mask = game.action_mask()[None]
    actions = policy(game.observation(game.to_move, **settings.observe_kwargs())[None], mask)
    bounds = mask if check_legal else np.ones_like(mask)
    return int(checked_actions(actions, bounds, name)[0])
