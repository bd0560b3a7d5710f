"""Datasets of games played in C: `write_dataset` plays games in a recording VecEnv
(stratego.records.recording) and streams them to a JSON lines file (docs/recording.md).
Apart from recording.py, which VecEnv itself imports, so that the imports form no circle.
"""
from __future__ import annotations

import contextlib
import gzip
import io
import os
import time
from dataclasses import dataclass

import numpy as np

from .. import _core
from ..common.atomic_write import atomic_write, target_path
from ..variants import Variant
from ..vec_env import VecEnv
from .jsonl import RecordWriter
from .recording import IncompleteRecordError


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
    (stratego.records.jsonl; a path ending in .gz is gzip-compressed), in the order they ended.

    red and blue: "random" (uniform legal moves) or a bot of stratego.BOTS, choosing in C
    for the side to move. Slot i of the num_envs games writes its first q_i games, the
    quotas summing to `games` (q_i = games // num_envs, plus one for the first games %
    num_envs slots): a game counts by its slot and rank, not by how soon it ended, so
    short games are not favoured, and the file is the same for any num_threads. Later
    games of a slot past its quota are played and dropped. `progress(done, games)` is
    called after each step that wrote games.
    """
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
                # Whole or not at all (stratego.common.atomic_write): a run that fails (a full disk,
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
