"""Game records: the public names of both record formats, and loaders for either.

Two formats hold finished games (docs/records.md): Gravon's XML (stratego.records.gravon_xml:
the reader, safe for untrusted input, and the writer; stratego.records.gravon_replay: records
replayed as games and games written as records) and the project's JSON lines
(stratego.records.jsonl, every variant). read_records / load_records take a file or a folder
of either and stream its games.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

from .gravon_replay import (
    GRAVON_VARIANTS, SERVER_SETTINGS, gravon_game_types, gravon_to_record, record_to_gravon, replay, write_record,
)
from .gravon_xml import (
    COLUMN_LETTERS, DEFAULT_MAX_BYTES, MAX_MOVES, GameRecord, Move, format_record, iter_records, parse_square,
    read_record,
)
from ..history import LAKE_SQUARES, Record, RecordError, check_field, make_record
from .jsonl import (
    JSONL_FORMAT, JSONL_VERSION, MAX_JSONL_MOVES, RecordWriter, iter_jsonl, read_jsonl, record_from_json,
    record_to_json, write_jsonl,
)
from ..notation import format_square

__all__ = [
    "RecordError",
    "Record",
    "make_record",
    "replay",
    "write_record",
    "record_to_gravon",
    "gravon_to_record",
    "gravon_game_types",
    "JSONL_FORMAT",
    "JSONL_VERSION",
    "RecordWriter",
    "iter_jsonl",
    "read_jsonl",
    "record_from_json",
    "record_to_json",
    "write_jsonl",
    "load_records",
    "read_records",
    "format_record",
    "check_field",
    "GRAVON_VARIANTS",
    "SERVER_SETTINGS",
    "Move",
    "GameRecord",
    "parse_square",
    "format_square",
    "read_record",
    "iter_records",
    "COLUMN_LETTERS",
    "LAKE_SQUARES",
    "MAX_MOVES",
    "MAX_JSONL_MOVES",
    "DEFAULT_MAX_BYTES",
]


def read_records(source: str | os.PathLike, *, max_moves: int | None = None) -> Iterator[GameRecord | Record]:
    """The games of a file or folder as read, streaming and not replayed: a folder of
    Gravon ``.xml`` records (iter_records: GameRecords), one ``.xml`` record (a
    GameRecord), or a JSON lines file (anything else, iter_jsonl: Records). `max_moves`
    refuses longer games (None: each format's own bound, MAX_MOVES for Gravon records,
    MAX_JSONL_MOVES for JSON lines). RecordError names the bad file or line."""
    if max_moves is not None and (isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 0):
        raise ValueError(f"max_moves must be a number of moves >= 0 or None, got {max_moves!r}")
    path = Path(source)
    if path.is_dir():
        return iter_records(path, max_moves=MAX_MOVES if max_moves is None else max_moves)
    if path.suffix.lower() == ".xml":
        return iter([read_record(path, max_moves=MAX_MOVES if max_moves is None else max_moves)])
    return iter_jsonl(path, max_moves=MAX_JSONL_MOVES if max_moves is None else max_moves)


def load_records(source: str | os.PathLike, *, max_moves: int | None = None) -> Iterator[Record]:
    """The games of a file or folder as Records, streaming (read_records; each Gravon
    record replayed by gravon_to_record, to name its end reason)."""
    return (gravon_to_record(r) if isinstance(r, GameRecord) else r for r in read_records(source, max_moves=max_moves))

