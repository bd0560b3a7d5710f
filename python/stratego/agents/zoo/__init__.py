"""The zoo: trained policies shipped in the package, played by name ("zoo:NAME")
wherever a bot name is taken: `stratego arena`, `run_arena`, `StrategoEnv(opponent=)`,
`Game.bot_move` (docs/zoo.md). Needs torch (the train extra) to play; listing does not.

`zoo.json` beside this file is the index: for each agent its policy file (the
saved-policy format, stratego.agents.policy_file), the variants it was trained for, and how
it was made (command, wall time, hardware) and how it scored. A zoo policy loads as any
policy file does: its network must be one of the package's registered networks, so
loading runs no code the file names.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

#: A player or opponent spec "zoo:NAME" names the zoo's agent NAME.
PREFIX = "zoo:"
ZOO_DIR = Path(__file__).resolve().parent
INDEX = ZOO_DIR / "zoo.json"


class UnknownZooAgentError(ValueError):
    """A "zoo:NAME" whose NAME the zoo does not hold."""


@lru_cache(maxsize=1)
def index() -> dict[str, dict[str, Any]]:
    """The zoo's agents by name, as zoo.json records them."""
    with INDEX.open() as f:
        return json.load(f)["agents"]


def names() -> tuple[str, ...]:
    """The zoo's agents, as "zoo:NAME" specs."""
    return tuple(PREFIX + name for name in index())


def is_zoo_spec(spec: Any) -> bool:
    return isinstance(spec, str) and spec.startswith(PREFIX)


def _name(spec: str) -> str:
    """NAME of "zoo:NAME" (or of "NAME")."""
    return spec[len(PREFIX):] if spec.startswith(PREFIX) else spec


def entry(spec: str) -> dict[str, Any]:
    """zoo.json's record of agent "zoo:NAME" (or "NAME"); UnknownZooAgentError if none."""
    if not isinstance(spec, str):
        raise TypeError(f"a zoo agent is named by a str 'zoo:NAME', got {type(spec).__name__}")
    name = _name(spec)
    agents = index()
    if name not in agents:
        raise UnknownZooAgentError(f"no zoo agent {name!r}; the zoo holds {list(names())} (docs/zoo.md)")
    return agents[name]


#: Loaded agents by (file, variant key): a greedy policy holds no state between calls.
_LOADED: dict[tuple, Any] = {}


def load(spec: str, variant: Any = None):
    """Agent "zoo:NAME" as a policy (a stratego.agents.policy_file.SavedPolicy, greedy).

    With `variant`, the agent must have been trained for it: stratego.agents.policy_file's
    PolicyFileError (a ValueError) says what differs otherwise. Loaded once per
    (agent, variant) and kept: a greedy policy holds no state between calls.
    """
    record = entry(spec)
    from ...variants import load_variant
    wanted = load_variant(variant) if variant is not None else None
    trained = record.get("variants", [])
    if wanted is not None and wanted.name not in trained:
        raise ValueError(f"zoo agent {spec!r} was trained for {trained}, not for variant {wanted.name!r}")
    # The Variant itself is no cache key (a dict inside): its name and settings are.
    key = None if wanted is None else (wanted.name, tuple(sorted(wanted.settings.items())), wanted.piece_counts)
    path = ZOO_DIR / record["file"]
    if (path, key) not in _LOADED:
        from ..policy_file import load_policy  # torch: only when a zoo agent plays
        policy = load_policy(path, variant=wanted)
        # The name that messages about it show (stratego.agents.opponent names a policy by it).
        policy.__name__ = PREFIX + _name(spec)  # type: ignore[attr-defined]
        _LOADED[path, key] = policy
    return _LOADED[path, key]


def game_action(game: Any, spec: str, variant: Any) -> int:
    """Game.bot_move("zoo:NAME"): the agent's action for the player to move of `game` (not
    played), greedy and checked legal; -1 when the game is over. The name and the
    game's `variant` are checked first, a finished game's too."""
    policy = load(spec, variant)
    if game.done:
        return -1
    from ..policy import game_action as policy_action, observation_settings
    settings = observation_settings(policy, f"zoo agent {spec!r}")
    return policy_action(policy, game, settings, True, f"zoo agent {spec!r}")
