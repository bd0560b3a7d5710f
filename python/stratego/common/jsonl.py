"""JSON lines, as both games' record files are read: one JSON object a line, streamed,
trusting nothing (docs/records.md "JSON lines"). A line longer than `max_line_bytes` is
refused before it is read whole; NaN, Infinity and duplicate keys are refused; every
fault is a RecordError naming the file and line. What a line holds is the game's own
(stratego.records.jsonl, stratego.castle.records): each passes its `parse`.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, Any, Callable, Iterator

__all__ = ["RecordError", "DEFAULT_MAX_LINE_BYTES", "load_line", "iter_lines"]

#: A line longer than this is refused unread (a classic game of 100,000 moves is about 800 kB).
DEFAULT_MAX_LINE_BYTES = 2_000_000


class RecordError(ValueError):
    """A game record is malformed, hostile, or not what this reader expects."""


def _refuse_constant(name: str):
    raise RecordError(f"{name} is not a number a record holds")


def _unique_keys(pairs):
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        dup = next(k for k in keys if keys.count(k) > 1)
        raise RecordError(f"key {dup!r} appears twice")
    return dict(pairs)


def load_line(text: str | bytes, where: str, what: str = "game") -> Any:
    """The JSON value of one line; RecordError naming `where` for invalid JSON, NaN or
    Infinity, a key given twice or nesting too deep; `what` names what a line holds."""
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_refuse_constant)
    except RecordError as exc:
        raise RecordError(f"{where}: {exc}") from None
    except RecursionError:
        raise RecordError(f"{where}: nested too deeply to be a game record") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise RecordError(f"{where}: not valid JSON ({exc}); expected one {what} a line") from None


def iter_lines(source: str | os.PathLike | IO[bytes], parse: Callable[..., Any], *,
               max_line_bytes: int = DEFAULT_MAX_LINE_BYTES, max_moves: int) -> Iterator[Any]:
    """Yields `parse(line, where, max_moves=, _cache=)` of each line of a path or a binary
    file, streaming: one line in memory at a time (`_cache` is one dict for the whole file,
    for what lines repeat). A bad line raises RecordError naming the file and line."""
    if isinstance(source, (str, os.PathLike)):
        name = str(source)
        path = Path(source)
        if not path.is_file():
            raise RecordError(f"{name}: not a regular file; expected a file of game records")
        with open(path, "rb") as handle:
            yield from _lines(handle, name, max_line_bytes, max_moves, parse)
    elif hasattr(source, "readline"):
        yield from _lines(source, getattr(source, "name", "records"), max_line_bytes, max_moves, parse)
    else:
        raise TypeError(f"source must be a path or a binary file, got {type(source).__name__}")


def _lines(handle, name: str, max_line_bytes: int, max_moves: int, parse) -> Iterator[Any]:
    cache: dict = {}
    number = offset = 0
    while True:
        line = handle.readline(max_line_bytes + 1)
        if not line:
            return
        number += 1
        start, offset = offset, offset + len(line)
        where = f"{name}: line {number}"
        if isinstance(line, str):
            raise RecordError(f"{where}: the file is open in text mode; open it in binary mode ('rb')")
        if len(line) > max_line_bytes:
            raise RecordError(f"{where}: longer than {max_line_bytes} bytes (max_line_bytes)")
        if not line.strip():
            raise RecordError(f"{where}: a blank line; expected one game a line")
        try:
            record = parse(line, where, max_moves=max_moves, _cache=cache)
        except RecordError as exc:
            if line.endswith(b"\n"):
                raise
            # The last line, without its newline and unreadable: a write cut short.
            raise RecordError(f"{where}: the file ends in a partial line (no newline, not a whole game): a write "
                              f"that did not finish (a full disk, a crash); the lines before it are whole. Remove it "
                              f"(truncate -s {start} {name}) to read the rest ({exc})") from None
        yield record
