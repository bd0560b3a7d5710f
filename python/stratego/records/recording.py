"""Finished games of a recording `VecEnv` (record=True), as handed out by pop_records().

The C batch keeps every game's start field and actions while it plays (csrc/stratego/record.h)
and queues each game that ends; `VecEnv.pop_records()` empties the queue into one
`RecordedGames`: columns of NumPy arrays, one row a game, in the order the games ended
(by step, then by game index: the same for any thread count). docs/recording.md.
"""
from __future__ import annotations

import numpy as np

from .. import _core
from ..history import Record, make_record
from ..variants import Variant

END_REASONS: tuple[str, ...] = _core.END_REASONS


class IncompleteRecordError(ValueError):
    """A game played more actions than its record holds (VecEnv(record_plies=...) below
    the game's length, possible only for a variant without max_plies): the game itself
    went on unchanged, but its record cannot be replayed or written."""


class RecordedGames:
    """Finished games, one row each (k = len(self)):

    - game (k,) int64: the env slot that played it;
    - fields (k, 100) uint8: the start field in Gravon letters (`field(j)` as a str);
    - to_move (k,) int8: the side to move at the start (0 red);
    - winner (k,) int8: 0 red, 1 blue, -1 a draw; reason (k,) uint8, an index of
      stratego.END_REASONS ("illegal_action": the loser's illegal action was not played,
      so it is not among the actions); plies (k,) int32: the game's length;
    - count (k,) int64: the actions played, learner's and bot's alike, rescues and
      declines included; actions (total,) uint16 and offsets (k + 1,) int64: game j's
      actions, each in its mover's frame, are actions[offsets[j]:offsets[j + 1]].
      Fewer than count[j] only when the record is incomplete (`complete`).
    """

    def __init__(self, columns: dict, variant: Variant):
        self.variant = variant
        self.game = columns["game"]
        self.fields = columns["field"]
        self.to_move = columns["to_move"]
        self.winner = columns["winner"]
        self.reason = columns["reason"]
        self.plies = columns["plies"]
        self.count = columns["count"]
        self.offsets = columns["offsets"]
        self.actions = columns["actions"]

    def __len__(self) -> int:
        return len(self.game)

    @property
    def complete(self) -> np.ndarray:
        """Whether each record holds every action of its game (always, under a ply cap
        with the default record_plies)."""
        return np.diff(self.offsets) == self.count

    @property
    def nbytes(self) -> int:
        """Bytes of these arrays: what the records take in memory once handed out."""
        return sum(a.nbytes for a in (self.game, self.fields, self.to_move, self.winner, self.reason, self.plies,
                                      self.count, self.offsets, self.actions))

    def field(self, j: int) -> str:
        """The start field of game j, 100 Gravon letters."""
        return self.fields[j].tobytes().decode("ascii")

    def game_actions(self, j: int) -> np.ndarray:
        """Game j's actions (a view): IncompleteRecordError if the record lacks some."""
        kept = self.actions[self.offsets[j]:self.offsets[j + 1]]
        if len(kept) != self.count[j]:
            raise IncompleteRecordError(
                f"the record of game {j} (slot {self.game[j]}) is incomplete: the game played {self.count[j]} "
                f"actions, the record holds {len(kept)} (record_plies); make the env with a larger record_plies")
        return kept

    def result(self, j: int) -> tuple[int | None, str]:
        """(winner: 0, 1 or None for a draw, end reason name) of game j."""
        w = int(self.winner[j])
        return (None if w < 0 else w), END_REASONS[self.reason[j]]

    def record(self, j: int) -> Record:
        """Game j as a stratego.history.Record (variant with its settings, start, actions,
        result): what the record writers take. IncompleteRecordError for an incomplete
        record."""
        winner, reason = self.result(j)
        return make_record(self.variant, self.field(j), self.game_actions(j), to_move=int(self.to_move[j]),
                           winner=winner, reason=reason)

    def __iter__(self):
        """The records, in order (record(j) for each j)."""
        return (self.record(j) for j in range(len(self)))

    def replay(self, j: int):
        """Game j replayed through `Game` (Game.from_record): every action checked legal
        and the result checked against the one the batch gave. A Game at its end."""
        from ..game import Game
        return Game.from_record(self.record(j))
