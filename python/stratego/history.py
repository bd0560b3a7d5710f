"""A game's history and the record of a game, for every variant.

`Record` is what a finished (or unfinished) game is, apart from any file format: the
variant with its rule settings, the start field and side to move, the actions played in
order (rescues and declined rescues are actions of their own, by the player whose move
opened them), and the result. `Game.record()` makes one, `Game.from_record()` (or
`stratego.records.replay`) plays one back; the Gravon XML format and the project's JSON
lines format (stratego.records) read and write them. docs/records.md.
"""
from __future__ import annotations

import dataclasses
import operator
from typing import Iterable, Iterator, NamedTuple

import numpy as np

from . import _core
from .common.jsonl import RecordError
from .actions import RESCUE_ACTION_BASE, action_to_move
from .variants import Variant, load_variant

__all__ = ["RecordError", "HistoryMove", "Record", "make_record", "action_players", "turn_players", "check_field",
           "LAKE_SQUARES"]

# Lakes: the engine's (csrc/stratego/types.h, LAKE_SQUARES).
LAKE_SQUARES = frozenset(_core.LAKE_SQUARES)

#: End reasons a record may give: stratego.END_REASONS (the engine's, csrc/stratego/game.h) but
#: "none", which a record writes as None (an unfinished game).
RECORD_END_REASONS: tuple[str, ...] = _core.END_REASONS[1:]


class HistoryMove(NamedTuple):
    """One entry of `Game.history`: who acted, the action (in that player's frame, see
    stratego.actions) and its notation ("B4-B7", a rescue "6@F4", "pass")."""

    player: int
    action: int
    move: str


def action_players(to_move: int, actions: Iterable[int]) -> list[int]:
    """The player of each action of a game that started with `to_move` to play: moves
    alternate; a rescue or its decline is made by the player whose move opened it (the
    rescue rule keeps the turn, csrc/stratego/game.h), and hands the turn on."""
    return list(turn_players(to_move, (action >= RESCUE_ACTION_BASE for action in actions)))


def turn_players(to_move: int, rescues: Iterable[bool]) -> Iterator[int]:
    """action_players from whether each action is a rescue (or its decline): for moves in
    notation (stratego.records.jsonl), whose actions depend on the player."""
    turn, last = to_move, to_move
    for rescue in rescues:
        last = last if rescue else turn
        turn = 1 - last
        yield last


def check_field(content: str, where: str = "field") -> str:
    """`content` if it is a 100-letter Gravon field (letters, lakes where the lakes are,
    at most 40 pieces a side); RecordError naming `where` and the first problem otherwise,
    as the engine finds it (_core.check_field: csrc/stratego/board.c reads fields)."""
    if not isinstance(content, str):
        raise RecordError(f"{where} must be a str of 100 letters, got {type(content).__name__}")
    try:
        _core.check_field(content)
    except ValueError as exc:
        raise RecordError(f"{where}: {exc}") from None
    return content


@dataclasses.dataclass(frozen=True)
class Record:
    """One game of any variant: `variant` (a Variant, its rule settings included), the
    start `field` (100 Gravon letters) with `to_move` to play, the `actions` in order,
    and the result: `winner` 0 (red), 1 (blue) or None, `reason` an end reason of
    stratego.END_REASONS or None for an unfinished game. `source` (not compared) says
    where it was read from. Build one with make_record, which checks it."""

    variant: Variant
    field: str
    actions: tuple[int, ...]
    to_move: int = 0
    winner: int | None = None
    reason: str | None = None
    source: str | None = dataclasses.field(default=None, compare=False)

    @property
    def players(self) -> list[int]:
        """The player of each action."""
        return action_players(self.to_move, self.actions)

    def moves(self, numbering: str = "new") -> list[str]:
        """The actions in notation ("B4-B7", "6@F4", "pass")."""
        return [action_to_move(a, p, numbering) for a, p in zip(self.actions, self.players)]


def _actions_tuple(actions, num_actions: int) -> tuple[int, ...]:
    if isinstance(actions, np.ndarray):
        if actions.ndim != 1 or actions.dtype.kind not in "iu":
            raise RecordError(f"actions must be a 1-d integer array, got {actions.ndim}-d {actions.dtype}")
        # Checked at once: a batch hands out its games' actions as arrays, many of them.
        bad = np.flatnonzero((actions < 0) | (actions >= num_actions))
        if bad.size == 0:
            return tuple(actions.tolist())
        actions = actions.tolist()
    elif isinstance(actions, (str, bytes)):
        raise RecordError(f"actions must be a sequence of action ints, got {type(actions).__name__}")
    out = []
    for i, a in enumerate(actions):
        if isinstance(a, bool) or not hasattr(type(a), "__index__"):
            raise RecordError(f"action {i + 1} is a {type(a).__name__}; expected an action int")
        a = operator.index(a)
        if not 0 <= a < num_actions:
            raise RecordError(f"action {i + 1} is {a}; this variant's actions are in [0, {num_actions})")
        out.append(a)
    return tuple(out)


def make_record(variant: str | Variant, field: str, actions: Iterable[int], *, to_move: int = 0,
                winner: int | None = None, reason: str | None = None, source: str | None = None,
                **settings: int) -> Record:
    """A Record from a variant (a name, a path or a Variant, with keyword rule settings
    over it), the start field and side to move, the actions played (ints, or a 1-d
    integer array), and the result. Checks the parts (RecordError names the first
    problem), not that the moves are legal: Game.from_record plays them."""
    try:
        variant = load_variant(variant, **settings)
        num_actions = variant.num_actions  # the C core checks the settings together
    except (TypeError, ValueError) as exc:
        raise RecordError(f"bad variant: {exc}") from None
    check_field(field)
    if isinstance(to_move, bool) or to_move not in (0, 1):
        raise RecordError(f"to_move must be 0 (red) or 1 (blue), got {to_move!r}")
    if winner is not None and (isinstance(winner, bool) or winner not in (0, 1)):
        raise RecordError(f"winner must be 0 (red), 1 (blue) or None, got {winner!r}")
    if reason is None:
        if winner is not None:
            raise RecordError(f"winner {winner} without an end reason; an unfinished game has winner None")
    elif reason not in RECORD_END_REASONS:
        raise RecordError(f"unknown end reason {reason!r}; expected one of {', '.join(RECORD_END_REASONS)} or None")
    return Record(variant, field, _actions_tuple(actions, num_actions), int(to_move),
                  None if winner is None else int(winner), reason, source)
