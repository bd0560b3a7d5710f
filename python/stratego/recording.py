"""Finished games of a recording `VecEnv` (record=True), as handed out by pop_records().

The C batch keeps every game's start field and actions while it plays (csrc/stratego/record.h)
and queues each game that ends; `VecEnv.pop_records()` empties the queue into one
`RecordedGames`: columns of NumPy arrays, one row a game, in the order the games ended
(by step, then by game index: the same for any thread count). docs/recording.md.
"""
from __future__ import annotations

import contextlib
import gzip
import io
import os
import time
from dataclasses import dataclass

import numpy as np

from . import _core
from .atomic_write import atomic_write, target_path
from .history import Record, make_record
from .variants import Variant

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
        from .game import Game
        return Game.from_record(self.record(j))


@dataclass
class DatasetRun:
    """What write_dataset wrote: games, their plies and actions, seconds, bytes."""
    games: int
    plies: int
    actions: int
    seconds: float
    bytes: int
    steps: int

    def summary(self) -> str:
        g = max(self.games, 1)
        return (f"{self.games:,} games ({self.plies / g:.0f} plies on average) in {self.steps:,} steps and "
                f"{self.seconds:.1f} s: {self.games / max(self.seconds, 1e-9):,.0f} games/s; "
                f"{self.bytes:,} bytes written, {self.bytes / g:,.0f} a game")


def write_dataset(dest, games: int, variant: str | Variant = "classic", *, num_envs: int = 4096,
                  num_threads: int = 0, seed: int = 0, red: str = "random", blue: str = "random",
                  setup: str = "random", record_plies: int | None = None, progress=None,
                  **settings: int) -> DatasetRun:
    """Plays `games` games in a recording VecEnv and streams them to `dest` as JSON lines
    (stratego.jsonl; a path ending in .gz is gzip-compressed), in the order they ended.

    red and blue: "random" (uniform legal moves) or a bot of stratego.BOTS, choosing in C
    for the side to move. Slot i of the num_envs games writes its first q_i games, the
    quotas summing to `games` (q_i = games // num_envs, plus one for the first games %
    num_envs slots): a game counts by its slot and rank, not by how soon it ended, so
    short games are not favoured, and the file is the same for any num_threads. Later
    games of a slot past its quota are played and dropped. `progress(done, games)` is
    called after each step that wrote games.
    """
    from .jsonl import RecordWriter
    from .vec_env import VecEnv

    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be an int >= 1, got {games!r}")
    for side, name in (("red", red), ("blue", blue)):
        if name != "random" and name not in _core.BOT_NAMES:
            raise ValueError(f"{side} must be 'random' or one of the bots {list(_core.BOT_NAMES)}, got {name!r}")
    n = min(num_envs, games)
    quota = np.full(n, games // n, dtype=np.int64)
    quota[:games % n] += 1
    written = np.zeros(n, dtype=np.int64)
    plies = actions_total = steps = 0
    path = os.fspath(dest) if isinstance(dest, (str, os.PathLike)) else None
    if path is not None:
        target_path(path, "JSON lines file")  # a folder, a missing folder: refused before any game
    env = VecEnv(n, variant, num_threads=num_threads, seed=seed, observations=False, setup=setup, record=True,
                 record_plies=record_plies, **settings)
    start = time.perf_counter()
    try:
        with contextlib.ExitStack() as stack:
            out = dest
            if path is not None:
                # Whole or not at all (stratego.atomic_write): a run that fails (a full disk,
                # an incomplete record, Ctrl-C) leaves no file and no temporary file behind.
                if path.endswith(".gz"):
                    raw = stack.enter_context(atomic_write(path, "wb", what="JSON lines file"))
                    # The header names the file, not its temporary name; closing the text
                    # layer closes the gzip stream (its trailer), not the file under it.
                    packed = gzip.GzipFile(os.path.basename(path), "wb", fileobj=raw)
                    out = stack.enter_context(io.TextIOWrapper(packed, encoding="utf-8", newline="\n"))
                else:
                    out = stack.enter_context(atomic_write(path, what="JSON lines file"))
            with RecordWriter(out) as writer:
                while (written < quota).any():
                    env.step(_actions(env, red, blue))
                    steps += 1
                    records = env.pop_records()
                    if not len(records):
                        continue
                    for j in range(len(records)):
                        slot = int(records.game[j])
                        if written[slot] >= quota[slot]:
                            continue
                        if not records.complete[j]:
                            raise IncompleteRecordError(
                                f"game {written[slot] + 1} of env slot {slot} played {records.count[j]} actions, "
                                f"more than the record keeps (record_plies={env.record_plies}): give a larger "
                                "record_plies (`stratego record --record-plies`)")
                        writer.write(records.record(j))
                        written[slot] += 1
                        plies += int(records.plies[j])
                        actions_total += int(records.count[j])
                    if progress is not None:
                        progress(int(written.sum()), games)
    finally:
        env.close()
    size = os.path.getsize(path) if path is not None else 0
    return DatasetRun(games=int(written.sum()), plies=plies, actions=actions_total,
                      seconds=time.perf_counter() - start, bytes=size, steps=steps)


def _actions(env, red: str, blue: str) -> np.ndarray:
    """Each game's action for its side to move: uniform random legal moves, or a bot's."""
    if red == blue == "random":
        return env.sample_actions()
    choice = {}
    # In a fixed order: each draws on the games' sampler streams.
    for name in dict.fromkeys((red, blue)):
        choice[name] = (env.sample_actions() if name == "random" else env.bot_actions(name)).copy()
    return np.where(env.to_play == 0, choice[red], choice[blue])
