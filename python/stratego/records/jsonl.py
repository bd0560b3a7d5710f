"""The project's game records: one game a line, JSON (docs/records.md "JSON lines").

    {"format": "stratego-game", "version": 1, "variant": "classic",
     "rules": {"two_square_limit": 5}, "field": "<100 letters>", "to_move": 0,
     "moves": ["F4-F5", "K7-K6", ...], "winner": 0, "reason": "flag_captured"}

`variant` names a shipped variant; `rules` holds only the settings that differ from
it and `pieces` (piece name -> count) only when the piece set differs. A variant that
is not shipped (read from a file of its own) is written with its whole piece set and
every setting. `moves` are in notation, new numbering ("B4-B7", rescues "6@F4",
"pass"); `winner` 0, 1 or null, `reason` an end reason or null (unfinished).

Records come from outside, so the reader trusts nothing: a line longer than
`max_line_bytes` is refused before it is parsed, as are more than `max_moves` moves,
NaN and Infinity, duplicate keys, unknown keys, and every part make_record checks;
each RecordError names the file and line. Reading checks the form, not the moves'
legality (Game.from_record plays them).
"""
from __future__ import annotations

import functools
import io
import json
import os
from pathlib import Path
from typing import IO, Iterable, Iterator

from ..actions import action_to_move, check_in_variant, move_to_action
from ..common.atomic_write import LineAppender, atomic_write
from ..common.jsonl import DEFAULT_MAX_LINE_BYTES, RecordError, iter_lines, load_line
from ..history import Record, make_record, turn_players
from ..notation import is_rescue_text
from ..common.variant_files import unknown_name
from ..variants import PIECE_NAMES, RULE_DEFAULTS, RULE_SETTINGS, SWITCHES, Variant, load_variant, variants

__all__ = ["JSONL_FORMAT", "JSONL_VERSION", "DEFAULT_MAX_LINE_BYTES", "MAX_JSONL_MOVES", "MAX_NAME_CHARS",
           "MAX_DESCRIPTION_CHARS", "record_to_json",
           "record_from_json", "RecordWriter", "write_jsonl", "iter_jsonl", "read_jsonl"]

JSONL_FORMAT = "stratego-game"
JSONL_VERSION = 1
#: More moves than this in one game is refused: the longest game a ply cap allows
#: (max_plies <= 65535) with its rescues fits.
MAX_JSONL_MOVES = 100_000
#: Longest variant name and description a line may hold (they are names and a sentence).
MAX_NAME_CHARS = 200
MAX_DESCRIPTION_CHARS = 1000

_REQUIRED = ("format", "version", "variant", "field", "moves")
_OPTIONAL = ("rules", "pieces", "description", "to_move", "winner", "reason")

# Notation of (action, player) and back, kept as they are met: a dict look-up is far
# cheaper than decoding every move. Bounded: every variant's (action, player) pairs
# (2 x 2801) fit, but a file can spell one move many ways ("b4 -B7"), and a
# reader must not keep what every file it read once held (docs/records.md).
MOVE_CACHE_SIZE = 1 << 13


@functools.lru_cache(maxsize=MOVE_CACHE_SIZE)
def _token(action: int, player: int) -> str:
    return action_to_move(action, player)


@functools.lru_cache(maxsize=MOVE_CACHE_SIZE)
def _parsed_move(token: str, player: int) -> int:
    return move_to_action(token, player)


def _action(token, player: int, num_actions: int, where: str) -> int:
    if not isinstance(token, str) or len(token) > 12:
        raise RecordError(f"{where}: expected a move in notation like 'B4-B7', '6@F4' or 'pass', got {token!r:.40}")
    try:
        return check_in_variant(_parsed_move(token, player), num_actions, token)
    except ValueError as exc:
        raise RecordError(f"{where}: {exc}") from None


_SHIPPED: dict[str, Variant] = {}


def _shipped(name: str) -> Variant | None:
    """The shipped variant of that name, read once."""
    if not _SHIPPED:
        _SHIPPED.update((n, load_variant(n)) for n in variants())
    return _SHIPPED.get(name)


def record_to_json(record: Record) -> str:
    """A Record as one line of JSON (no newline)."""
    if not isinstance(record, Record):
        raise TypeError(f"record must be a stratego.history.Record, got {type(record).__name__}")
    variant = record.variant
    # The reader's bounds (iter_jsonl's defaults), checked before anything is written:
    # a line this writes, its reader reads. Within them a line stays far below
    # DEFAULT_MAX_LINE_BYTES (a move is at most 10 bytes).
    if len(record.actions) > MAX_JSONL_MOVES:
        raise RecordError(f"{len(record.actions)} moves; a line holds at most {MAX_JSONL_MOVES} (max_moves)")
    if len(variant.name) > MAX_NAME_CHARS:
        raise RecordError(f"variant name of {len(variant.name)} characters; a line holds at most {MAX_NAME_CHARS}")
    if len(variant.description) > MAX_DESCRIPTION_CHARS:
        raise RecordError(f"variant description of {len(variant.description)} characters; a line holds at most "
                          f"{MAX_DESCRIPTION_CHARS}")
    base = _shipped(variant.name)
    line: dict = {"format": JSONL_FORMAT, "version": JSONL_VERSION, "variant": variant.name}
    if base is None:  # a variant of its own: all of it
        line["description"] = variant.description
        line["pieces"] = dict(zip(PIECE_NAMES, variant.piece_counts))
        line["rules"] = dict(variant.settings)
    else:
        rules = {k: v for k, v in variant.settings.items() if base.settings.get(k) != v}
        if rules:
            line["rules"] = rules
        if variant.piece_counts != base.piece_counts:
            line["pieces"] = dict(zip(PIECE_NAMES, variant.piece_counts))
        if variant.description != base.description:
            line["description"] = variant.description
    line["field"] = record.field
    line["to_move"] = record.to_move
    line["moves"] = [_token(a, p) for a, p in zip(record.actions, record.players)]
    line["winner"] = record.winner
    line["reason"] = record.reason
    return json.dumps(line, separators=(",", ":"))


def _int_table(value, what: str, names) -> dict[str, int]:
    if not isinstance(value, dict):
        raise RecordError(f"{what} must be an object of names to integers, got {type(value).__name__}")
    for key, v in value.items():
        if key not in names:
            raise RecordError(f"{what} has " + unknown_name("name", key, names))
        if isinstance(v, bool) and key in SWITCHES:
            continue
        if not isinstance(v, int) or isinstance(v, bool):
            raise RecordError(f"{what}: {key} must be an integer, got {v!r:.40}")
    return {k: int(v) for k, v in value.items()}


def _variant_of(line: dict, cache: dict) -> Variant:
    """The line's variant: a shipped one with its settings over it, or one of its own."""
    name, rules, pieces = line["variant"], line.get("rules", {}), line.get("pieces")
    if not isinstance(name, str) or not name or len(name) > MAX_NAME_CHARS:
        raise RecordError(f"variant must be a name of 1 to {MAX_NAME_CHARS} characters, got {name!r:.40}")
    key = (name, json.dumps(rules, sort_keys=True), json.dumps(pieces, sort_keys=True), str(line.get("description")))
    variant = cache.get(key)
    if variant is not None:
        return variant
    rules = _int_table(rules, "rules", tuple(RULE_SETTINGS))
    base = _shipped(name)
    description = line.get("description", "" if base is None else base.description)
    if not isinstance(description, str) or len(description) > MAX_DESCRIPTION_CHARS:
        raise RecordError(f"description must be a str of at most {MAX_DESCRIPTION_CHARS} characters, "
                          f"got {description!r:.40}")
    if base is None:
        if pieces is None:
            raise RecordError(f"variant {name!r:.40} is not shipped ({', '.join(variants())}): "
                              "its line must give its pieces and rules")
        missing = sorted(set(RULE_SETTINGS) - set(SWITCHES) - set(rules))
        if missing:
            raise RecordError(f"variant {name!r:.40} is not shipped: its rules lack {', '.join(missing)}")
        # Every setting at its default, then the line's, checked as overrides are.
        base = Variant(name, description, tuple(0 for _ in PIECE_NAMES), dict(RULE_DEFAULTS))
    if pieces is not None:
        counts = _int_table(pieces, "pieces", PIECE_NAMES)
        base = Variant(base.name, description, tuple(counts.get(n, 0) for n in PIECE_NAMES), base.settings)
    elif description != base.description:
        base = Variant(base.name, description, base.piece_counts, base.settings)
    try:
        variant = load_variant(base, **rules)
    except (TypeError, ValueError) as exc:
        raise RecordError(f"bad variant: {exc}") from None
    if len(cache) < 256:
        cache[key] = variant
    return variant


def record_from_json(text: str | bytes, where: str = "record", *, max_moves: int = MAX_JSONL_MOVES,
                     _cache: dict | None = None) -> Record:
    """A Record from one line of JSON; RecordError naming `where` and what is wrong."""
    line = load_line(text, where)
    if not isinstance(line, dict):
        raise RecordError(f"{where}: a line is a JSON object, got {type(line).__name__}")
    missing = [k for k in _REQUIRED if k not in line]
    unknown = sorted(set(line) - set(_REQUIRED) - set(_OPTIONAL))
    if missing or unknown:
        raise RecordError(f"{where}: " + (f"missing {', '.join(missing)}" if missing else
                                          f"unknown key(s) {', '.join(repr(k)[:40] for k in unknown)}")
                          + f"; expected {', '.join(_REQUIRED)} and optionally {', '.join(_OPTIONAL)}")
    if line["format"] != JSONL_FORMAT:
        raise RecordError(f"{where}: format is {line['format']!r:.40}; expected {JSONL_FORMAT!r}")
    if type(line["version"]) is not int or line["version"] != JSONL_VERSION:
        raise RecordError(f"{where}: version {line['version']!r:.40}; this reader knows version {JSONL_VERSION}")
    moves = line["moves"]
    if not isinstance(moves, list):
        raise RecordError(f"{where}: moves must be a list of moves in notation, got {type(moves).__name__}")
    if len(moves) > max_moves:
        raise RecordError(f"{where}: {len(moves)} moves; expected at most {max_moves} (max_moves)")
    try:
        variant = _variant_of(line, {} if _cache is None else _cache)
        to_move = line.get("to_move", 0)
        if isinstance(to_move, bool) or to_move not in (0, 1):
            raise RecordError(f"to_move must be 0 (red) or 1 (blue), got {to_move!r:.40}")
        players = turn_players(to_move, map(is_rescue_text, moves))
        actions = [_action(token, player, variant.num_actions, f"move {i + 1}")
                   for i, (token, player) in enumerate(zip(moves, players))]
        return make_record(variant, line["field"], actions, to_move=to_move, winner=line.get("winner"),
                           reason=line.get("reason"), source=where)
    except RecordError as exc:
        raise RecordError(f"{where}: {exc}") from None


class RecordWriter:
    """Writes records one a line to a path (or an open text file, left open):
    `with RecordWriter("games.jsonl") as w: w.write(game)`.

    A path is written whole or not at all (stratego.common.atomic_write): the lines go to a
    temporary file that replaces the path when the writer closes, and a `with` block
    that raises leaves the path as it was. `append=True` adds to the file instead, each
    record in one write of its whole line; a `with` block that raises cuts the file back
    to where it was, and a file that ends in a partial line (a crash) is refused
    (TornTailError) rather than glued to."""

    def __init__(self, dest: str | os.PathLike | IO[str], *, append: bool = False):
        self._atomic = self._appender = None
        if isinstance(dest, (str, os.PathLike)):
            if append:
                self._appender = LineAppender(dest, "JSON lines file")
                self._file = None
            else:
                self._atomic = atomic_write(dest, what="JSON lines file")
                self._file = self._atomic.__enter__()
            self.path = Path(dest)
        elif isinstance(dest, io.TextIOBase) or hasattr(dest, "write"):
            self._file, self.path = dest, None
        else:
            raise TypeError(f"dest must be a path or a text file, got {type(dest).__name__}")
        self.count = 0
        self._closed = False

    def write(self, record) -> None:
        """Writes a Record, or a Game's record."""
        from ..game import Game

        if self._closed:
            raise ValueError("this RecordWriter is closed")
        if isinstance(record, Game):
            record = record.record()
        line = record_to_json(record) + "\n"
        if self._appender is not None:
            self._appender.append(line)
        elif self._file is not None:
            self._file.write(line)
        self.count += 1

    def close(self) -> None:
        """Finishes the file: a path written whole gets its lines now."""
        self._finish(None, None, None)

    def _finish(self, kind, exc, tb) -> None:
        self._closed = True
        atomic, appender, self._atomic, self._appender = self._atomic, self._appender, None, None
        if atomic is not None:
            atomic.__exit__(kind, exc, tb)
        if appender is not None:
            appender.__exit__(kind, exc, tb)

    def __enter__(self) -> "RecordWriter":
        return self

    def __exit__(self, kind, exc, tb) -> None:
        self._finish(kind, exc, tb)


def write_jsonl(records: Iterable, dest: str | os.PathLike | IO[str], *, append: bool = False) -> int:
    """Writes Records (or Games) one a line; returns how many."""
    with RecordWriter(dest, append=append) as writer:
        for record in records:
            writer.write(record)
    return writer.count


def iter_jsonl(source: str | os.PathLike | IO[bytes], *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
               max_moves: int = MAX_JSONL_MOVES) -> Iterator[Record]:
    """Yields the Record of each line of a path or a binary file, streaming: one line in
    memory at a time. A bad line raises RecordError naming the file and line; a line
    longer than max_line_bytes is refused before it is read whole (stratego.common.jsonl)."""
    return iter_lines(source, record_from_json, max_line_bytes=max_line_bytes, max_moves=max_moves)


def read_jsonl(source: str | os.PathLike | IO[bytes], **limits) -> list[Record]:
    """All the records of a file (iter_jsonl, into a list)."""
    return list(iter_jsonl(source, **limits))
