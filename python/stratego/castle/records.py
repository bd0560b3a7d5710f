"""Castle game records: one game a line of JSON (docs/castle.md "Records").

    {"format": "stratego-castle", "version": 1, "mode": "ffa4",
     "settings": {"first_seat": 0, "back_and_forth": 5, ...}, "seed": 7,
     "setups": {"n": [9, 8, 7, 7, 6, ...]}, "moves": ["E3-E4", "M6-L6", ...], "winners": ["n"], "reason": "turret",
     "players": {"n": "heuristic", "e": "random"}}

`settings` holds every setting but the mode (so a record replays the same if the
defaults change); the start is either `seed` (the random setups Game(mode, seed=...)
draws), with `setups` for the seats whose 20 ranks were given (Game(setups=...), in the
order of geometry(mode)["setup_nodes"]), or `position` (a full text board, docs/castle.md
"Text board", for games begun with Game.from_text). `moves` are the decisions in the notation, one a ply; `winners`
the winning seats' letters (empty for a draw or an unfinished game), `reason` the end
reason or null while unfinished; `players` is optional (seat letter -> a name).

Records come from outside: the reader trusts nothing. Lines longer than max_line_bytes,
more than max_moves moves, NaN, duplicate or unknown keys and wrong types are refused
with a RecordError (a ValueError) naming the file, line and what was expected;
`replay` plays the moves through Game and names the move that is not legal, and why,
or the result that disagrees with the record's.
"""
from __future__ import annotations

import json
import os
from typing import IO, Iterable, Iterator

from stratego.common.atomic_write import LineAppender, atomic_write
from stratego.common.jsonl import DEFAULT_MAX_LINE_BYTES, RecordError, iter_lines, load_line

from . import variants
from .game import END_REASONS, Game, IllegalMove, geometry
from .history import RECORD_SETTINGS, CASTLE_FORMAT, CASTLE_VERSION, CastleRecord, game_record

__all__ = ["CASTLE_FORMAT", "CASTLE_VERSION", "MAX_CASTLE_MOVES", "CastleRecord", "RecordError", "game_record",
           "record_to_json", "record_from_json", "write_records", "iter_records", "read_records", "start_game",
           "replay"]

#: More moves than this in one record is refused (the default ply cap is 3,000).
MAX_CASTLE_MOVES = 200_000
#: A `position` longer than this is not a text board (the longest is under 4,096).
MAX_POSITION_CHARS = 8192
MAX_PLAYER_CHARS = 200
_REQUIRED = ("format", "version", "mode", "settings", "moves")
_OPTIONAL = ("seed", "setups", "position", "winners", "reason", "players")
#: End reasons a record may give: the engine's (CASTLE_END_*, csrc/castle/castle.h) but "none", which a
#: record writes as null (an unfinished game).
_REASONS = END_REASONS[1:]


def record_to_json(record) -> str:
    """One line of JSON for a CastleRecord or a Game."""
    if isinstance(record, Game):
        record = record.record()
    return json.dumps(record.to_dict(), separators=(",", ":"))


def _field_error(where: str, what: str) -> RecordError:
    return RecordError(f"{where}: {what}")


def record_from_json(text: str | bytes, where: str = "record", *, max_moves: int = MAX_CASTLE_MOVES,
                     _cache=None) -> CastleRecord:
    """A CastleRecord from one line of JSON; RecordError naming `where` and what is wrong.
    Checks the form (keys, types, settings, letters); `replay` checks the moves."""
    line = load_line(text, where, "castle game")
    if not isinstance(line, dict):
        raise _field_error(where, f"a line is a JSON object, got {type(line).__name__}")
    missing = [k for k in _REQUIRED if k not in line]
    unknown = sorted(set(line) - set(_REQUIRED) - set(_OPTIONAL))
    if missing or unknown:
        raise _field_error(where, (f"missing {', '.join(missing)}" if missing else
                                   f"unknown key(s) {', '.join(repr(k)[:40] for k in unknown)}")
                           + f"; expected {', '.join(_REQUIRED)}, seed or position, and optionally "
                             "winners, reason, players")
    if line["format"] != CASTLE_FORMAT:
        raise _field_error(where, f"format is {line['format']!r:.40}; expected {CASTLE_FORMAT!r}")
    if type(line["version"]) is not int or line["version"] != CASTLE_VERSION:
        raise _field_error(where, f"version {line['version']!r:.40}; this reader knows version {CASTLE_VERSION}")
    mode = line["mode"]
    if mode not in variants.MODES:
        raise _field_error(where, f"mode is {mode!r:.40}; expected one of {', '.join(variants.MODES)}")
    settings = line["settings"]
    if not isinstance(settings, dict):
        raise _field_error(where, f"settings must be an object of setting names to integers, got {type(settings).__name__}")
    if "mode" in settings:
        raise _field_error(where, "settings must not hold mode (it is the line's own key)")
    try:
        values = variants.load_settings(None, mode=mode, **settings)
    except (TypeError, ValueError) as exc:
        raise _field_error(where, f"settings: {exc}") from None
    letters = variants.seat_letters(geometry(mode)["seats"])
    if ("seed" in line) == ("position" in line):
        raise _field_error(where, "a record starts from a seed or from a position; expected exactly one of them")
    seed = line.get("seed")
    if "seed" in line and (type(seed) is not int or not 0 <= seed < 2**64):
        raise _field_error(where, f"seed must be an integer in [0, 2**64), got {seed!r:.40}")
    position = line.get("position")
    if "position" in line and (not isinstance(position, str) or len(position) > MAX_POSITION_CHARS):
        raise _field_error(where, f"position must be a text board of at most {MAX_POSITION_CHARS} characters, "
                                  f"got {position!r:.40}")
    setups = line.get("setups")
    if "setups" in line and (seed is None or not isinstance(setups, dict) or any(
            k not in letters or not isinstance(v, list) or len(v) != 20 or
            any(type(r) is not int for r in v) for k, v in setups.items())):
        raise _field_error(where, f"setups (with a seed) must map seat letters of {letters!r} to lists of 20 ranks, "
                                  f"got {setups!r:.60}")
    moves = line["moves"]
    if not isinstance(moves, list):
        raise _field_error(where, f"moves must be a list of moves in the notation, got {type(moves).__name__}")
    if len(moves) > max_moves:
        raise _field_error(where, f"{len(moves)} moves; expected at most {max_moves} (max_moves)")
    for i, move in enumerate(moves):
        if not isinstance(move, str) or not 0 < len(move) <= 24:
            raise _field_error(where, f"move {i + 1} is {move!r:.40}; expected a move in the notation ('E3-E4')")
    winners = line.get("winners", [])
    if not isinstance(winners, list) or any(w not in letters for w in winners) or len(set(winners)) != len(winners):
        raise _field_error(where, f"winners must be a list of distinct seat letters of {letters!r}, got {winners!r:.60}")
    reason = line.get("reason")
    if reason is not None and reason not in _REASONS:
        raise _field_error(where, f"reason is {reason!r:.40}; expected one of {', '.join(_REASONS)} or null")
    if winners and reason != "turret":
        raise _field_error(where, f"winners {winners!r} need reason 'turret', got {reason!r:.40}")
    players = line.get("players", {})
    if not isinstance(players, dict) or any(
            k not in letters or not isinstance(v, str) or len(v) > MAX_PLAYER_CHARS for k, v in players.items()):
        raise _field_error(where, f"players must map seat letters of {letters!r} to names of at most "
                                  f"{MAX_PLAYER_CHARS} characters, got {players!r:.60}")
    return CastleRecord(mode=mode, settings={k: values[k] for k in RECORD_SETTINGS}, moves=moves, seed=seed,
                        setups=setups, position=position, winners=winners, reason=reason, players=players, source=where)


def write_records(items: Iterable, dest: str | os.PathLike | IO[str], *, append: bool = False) -> int:
    """Writes Games or CastleRecords one a line to a path (or an open text file, left
    open); returns how many. A path is written whole or not at all, an append adds
    whole lines or nothing (stratego.RecordWriter's rules, docs/records.md)."""
    if isinstance(dest, (str, os.PathLike)) and append:
        # Each record one write of its whole line; a failure cuts the file back.
        with LineAppender(dest, "castle JSON lines file") as out:
            count = 0
            for item in items:
                out.append(record_to_json(item) + "\n")
                count += 1
            return count
    if isinstance(dest, (str, os.PathLike)):
        with atomic_write(dest, what="castle JSON lines file") as handle:  # whole or not at all
            return write_records(items, handle)
    if not hasattr(dest, "write"):
        raise TypeError(f"dest must be a path or a text file, got {type(dest).__name__}")
    count = 0
    for item in items:
        dest.write(record_to_json(item) + "\n")
        count += 1
    return count


def iter_records(source: str | os.PathLike | IO[bytes], *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
                 max_moves: int = MAX_CASTLE_MOVES) -> Iterator[CastleRecord]:
    """Yields the CastleRecord of each line of a path or a binary file, one line in memory
    at a time; a bad line raises RecordError naming the file and line."""
    return iter_lines(source, record_from_json, max_line_bytes=max_line_bytes, max_moves=max_moves)


def read_records(source, **limits) -> list[CastleRecord]:
    """All the records of a file (iter_records, into a list)."""
    return list(iter_records(source, **limits))


def start_game(record: CastleRecord) -> Game:
    """A new Game at the record's start (its seed and setups, or its position);
    RecordError naming the record if it does not load."""
    settings = dict(record.settings, mode=record.mode)
    try:
        if record.position is not None:
            return Game.from_text(record.position, **settings)
        return Game(seed=record.seed, setups=record.setups, **settings)
    except (TypeError, ValueError) as exc:
        raise _field_error(record.source, f"the start does not load: {exc}") from None


def replay(record: CastleRecord) -> Game:
    """The game a record describes, every move played through Game; RecordError naming
    the record, the move (its number and text) and why it is not legal, or the result
    that differs from the record's. Returns the final game (its history is the record's)."""
    where = record.source
    game = start_game(record)
    for i, move in enumerate(record.moves):
        if game.done:
            raise _field_error(where, f"move {i + 1} {move!r:.40}: the game ended after move {i} "
                                      f"({game.end_reason}); expected no more moves")
        try:
            game.play(move)
        except IllegalMove as exc:
            raise _field_error(where, f"move {i + 1} {move!r:.40} (ply {game.ply}, "
                                      f"{game.seat_letters[game.to_play]} to {game.phase}): {exc}") from None
    got = ([game.seat_letters[s] for s in game.winners], game.end_reason)
    if (sorted(record.winners), record.reason) != (sorted(got[0]), got[1]):
        raise _field_error(where, f"the record says winners {record.winners} ({record.reason}); "
                                  f"its moves give winners {got[0]} ({got[1]})")
    return game
