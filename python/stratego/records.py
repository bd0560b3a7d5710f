"""Reader of Gravon XML game records, safe for untrusted input.

A Gravon record looks like this (see shared/data/gravon/README.md)::

    <?xml version="1.0" encoding="UTF-8"?>
    <stratego>
     <game type="classic">
      <field content="...100 letters..."/>
      <player id="1">Player 1</player>
      <move id="1" source="F4" target="F5"/>
      <move id="2" source="J9" target="J:">
       <rescue rescuefield="F4" rescuepiece="7"/>   (Ultimate Lightning only)
      </move>
      <result type="1" winner="1"/>
     </game>
    </stratego>

Squares are ``sq = row * 10 + col``: row 0 is Gravon row "1" (red's back row), row 9
is Gravon row "10", written ":"; columns 0..9 are the letters ``ABCDEFGHIK`` (no J).

Records come from outside, so the reader trusts nothing in them:

* Documents with a DOCTYPE or ENTITY declaration are refused before parsing (that
  blocks "billion laughs" entity expansion and external entities such as
  ``SYSTEM "file:///etc/passwd"``), and the expat parser is set up so that it could not
  expand or fetch them anyway: its doctype, entity, external-entity and unparsed-entity
  handlers raise, and parameter-entity parsing is off.
* Input larger than ``max_bytes`` is refused before it is parsed (a file is refused from
  its size, before it is read).
* The document is decoded as UTF-8 whatever its XML declaration says.
* The structure is checked element by element: unknown elements, unknown attributes,
  unexpected text, duplicates, missing parts, bad squares, bad letters and bad numbers
  all raise :class:`RecordError`; nothing is skipped silently.

The ``<player>`` elements are checked (``id`` must be an integer) but not kept: in the
archive they hold only the placeholders "Player 1" / "Player 2".
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator
from xml.parsers import expat

from . import notation
from .actions import (
    RESCUE_ACTION_BASE, action_to_squares, check_in_variant, decode_action, rescue_to_action, squares_to_action,
)
from .history import FIELD_ALPHABET, LAKE_SQUARES, Record, RecordError, check_field, make_record
from .notation import format_move, format_square
from .variants import SWITCHES, load_variant

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
    "FIELD_ALPHABET",
    "LAKE_SQUARES",
    "MAX_MOVES",
    "MAX_JSONL_MOVES",
    "DEFAULT_MAX_BYTES",
]

# Gravon's column letters, column 0 first. There is no "J".
COLUMN_LETTERS = notation.COLUMNS

# More moves than this in one record is refused by default (real games stay far below
# it; read_record's max_moves raises it), and write_record writes no more.
MAX_MOVES = 10_000

DEFAULT_MAX_BYTES = 4_000_000

#: Largest ``rescuepiece`` accepted. Gravon's numbering of the rescued piece is not
#: documented (the records hold 3, 7, 9 and 11); 0..12 covers the 12 kinds of piece
#: numbered from 0 or from 1, and anything else is not a piece.
RESCUE_PIECE_MAX = 12

# Gravon's "winner" attribute: 1 red, 2 blue, 3 nobody. Converted to player numbers.
_WINNER_TO_PLAYER = {1: 0, 2: 1, 3: None}
_PLAYER_TO_WINNER = {player: winner for winner, player in _WINNER_TO_PLAYER.items()}

# Declarations that could define or pull in entities. Checked case-insensitively on
# the decoded text, before any parsing.
_FORBIDDEN_DECL = re.compile(r"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)

# Expected structure: element -> (allowed parent, allowed attributes, required
# attributes, whether non-blank text is allowed inside).
_SCHEMA: dict[str, tuple[str | None, frozenset[str], frozenset[str], bool]] = {
    "stratego": (None, frozenset(), frozenset(), False),
    "game": ("stratego", frozenset({"type"}), frozenset({"type"}), False),
    "field": ("game", frozenset({"content"}), frozenset({"content"}), False),
    "player": ("game", frozenset({"id"}), frozenset({"id"}), True),
    "move": ("game", frozenset({"id", "source", "target"}),
             frozenset({"id", "source", "target"}), False),
    "rescue": ("move", frozenset({"rescuefield", "rescuepiece"}),
               frozenset({"rescuefield", "rescuepiece"}), False),
    "result": ("game", frozenset({"type", "winner"}), frozenset({"type"}), False),
}


@dataclass(frozen=True)
class Move:
    """One move of a record, squares as ``sq`` indices.

    ``rescue_square``/``rescue_piece`` are set only for Ultimate Lightning moves that
    trigger a rescue: the square the rescued piece is put back on, and the piece number
    exactly as the record writes it (Gravon's scheme for that number is undocumented).
    """

    source: int
    target: int
    rescue_square: int | None = None
    rescue_piece: int | None = None


@dataclass(frozen=True)
class GameRecord:
    """One Gravon game.

    ``game_type`` is written as in the record ("classic", "barrage", "classicfree",
    "ultimate lightning", ...). ``field`` is the 100-letter start board. ``winner`` is
    0 (red), 1 (blue) or None (nobody, or no result); ``raw_winner`` is Gravon's value
    (1 red, 2 blue, 3 nobody) or None when absent. ``path`` is the file it came from,
    or None for text.
    """

    game_type: str
    field: str
    moves: tuple[Move, ...]
    result_type: int | None
    winner: int | None
    raw_winner: int | None
    path: str | None = None


# --------------------------------------------------------------------------- squares

def parse_square(text: str) -> int:
    """Gravon square text -> sq index (see stratego.notation); RecordError if bad."""
    try:
        return notation.parse_square(text)
    except (TypeError, ValueError) as exc:
        raise RecordError(str(exc)) from None


# --------------------------------------------------------------------------- parsing

class _Element:
    """A minimal parsed element: tag, attributes, text, children, source line."""

    __slots__ = ("tag", "attrs", "text", "children", "line")

    def __init__(self, tag: str, attrs: dict[str, str], line: int):
        self.tag = tag
        self.attrs = attrs
        self.text: list[str] = []
        self.children: list[_Element] = []
        self.line = line


def _refuse_declaration(*_args) -> None:
    raise RecordError(
        "record contains a DOCTYPE or ENTITY declaration; expected a plain Gravon "
        "record without document type or entity declarations"
    )


def _refuse_external(*_args) -> int:
    raise RecordError(
        "record refers to an external entity; expected a plain Gravon record without "
        "entities"
    )


def _parse_tree(data: bytes, max_moves: int = MAX_MOVES) -> _Element:
    """Parse XML bytes into a checked _Element tree with a locked-down expat."""
    # Always decode as UTF-8, whatever the XML declaration claims.
    parser = expat.ParserCreate(encoding="UTF-8")
    # Entities can be neither declared nor expanded nor fetched.
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartDoctypeDeclHandler = _refuse_declaration
    parser.EntityDeclHandler = _refuse_declaration
    parser.UnparsedEntityDeclHandler = _refuse_declaration
    parser.NotationDeclHandler = _refuse_declaration
    parser.ExternalEntityRefHandler = _refuse_external
    parser.SkippedEntityHandler = _refuse_external

    stack: list[_Element] = []
    root: list[_Element] = []
    move_count = 0

    def start(tag: str, attrs: dict[str, str]) -> None:
        nonlocal move_count
        line = parser.CurrentLineNumber
        if tag not in _SCHEMA:
            raise RecordError(
                f"line {line}: unknown element <{tag}>; expected one of "
                f"{', '.join('<%s>' % t for t in _SCHEMA)}"
            )
        parent_tag, allowed, required, _ = _SCHEMA[tag]
        actual_parent = stack[-1].tag if stack else None
        if actual_parent != parent_tag:
            where = f"inside <{actual_parent}>" if actual_parent else "as the root"
            expected = f"inside <{parent_tag}>" if parent_tag else "as the root"
            raise RecordError(f"line {line}: <{tag}> found {where}; expected it {expected}")
        unknown = sorted(set(attrs) - allowed)
        if unknown:
            raise RecordError(
                f"line {line}: <{tag}> has unknown attribute(s) {', '.join(unknown)}; "
                f"expected only {', '.join(sorted(allowed)) or 'none'}"
            )
        missing = sorted(required - set(attrs))
        if missing:
            raise RecordError(
                f"line {line}: <{tag}> lacks attribute(s) {', '.join(missing)}"
            )
        if tag == "move":
            move_count += 1
            if move_count > max_moves:
                raise RecordError(
                    f"line {line}: more than {max_moves} moves; expected a real game "
                    f"(max_moves)"
                )
        element = _Element(tag, attrs, line)
        if stack:
            stack[-1].children.append(element)
        else:
            if root:  # cannot happen in well-formed XML, kept for clarity
                raise RecordError(f"line {line}: a second root element")
            root.append(element)
        stack.append(element)

    def end(tag: str) -> None:
        stack.pop()

    def text(data: str) -> None:
        if not stack:
            return
        element = stack[-1]
        if not _SCHEMA[element.tag][3] and data.strip():
            raise RecordError(
                f"line {parser.CurrentLineNumber}: unexpected text {data.strip()[:40]!r} "
                f"inside <{element.tag}>; expected only attributes and child elements"
            )
        element.text.append(data)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text

    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise RecordError(
            f"malformed or truncated XML ({exc}); expected a complete, well-formed "
            f"Gravon record"
        ) from None
    if not root:
        raise RecordError("no XML element found; expected a <stratego> record")
    return root[0]


def _int_attr(element: _Element, name: str) -> int:
    value = element.attrs[name]
    text = value.strip()
    if not re.fullmatch(r"[+-]?[0-9]{1,9}", text):
        raise RecordError(
            f"line {element.line}: <{element.tag}> {name}={value!r} is not an integer"
        )
    return int(text)


def _square_attr(element: _Element, name: str) -> int:
    try:
        return parse_square(element.attrs[name])
    except RecordError as exc:
        raise RecordError(f"line {element.line}: <{element.tag}> {name}: {exc}") from None


def _build_record(root: _Element, path: str | None) -> GameRecord:
    if root.tag != "stratego":
        raise RecordError(f"root element is <{root.tag}>; expected <stratego>")
    games = [c for c in root.children if c.tag == "game"]
    if len(games) != 1:
        raise RecordError(
            f"record has {len(games)} <game> elements; expected exactly one"
        )
    game = games[0]

    fields = [c for c in game.children if c.tag == "field"]
    if len(fields) != 1:
        raise RecordError(
            f"line {game.line}: <game> has {len(fields)} <field> elements; expected "
            f"exactly one"
        )
    field = check_field(fields[0].attrs["content"], f"line {fields[0].line}: field")

    results = [c for c in game.children if c.tag == "result"]
    if len(results) > 1:
        raise RecordError(
            f"line {results[1].line}: a second <result>; expected at most one"
        )
    result_type = raw_winner = winner = None
    if results:
        result = results[0]
        result_type = _int_attr(result, "type")
        if result_type < 0:
            raise RecordError(
                f"line {result.line}: <result> type={result_type}; expected a "
                f"non-negative integer"
            )
        if "winner" in result.attrs:
            raw_winner = _int_attr(result, "winner")
            if raw_winner not in _WINNER_TO_PLAYER:
                raise RecordError(
                    f"line {result.line}: <result> winner={raw_winner}; expected 1 "
                    f"(red), 2 (blue) or 3 (nobody)"
                )
            winner = _WINNER_TO_PLAYER[raw_winner]

    for player in (c for c in game.children if c.tag == "player"):
        _int_attr(player, "id")  # checked, not kept (placeholder names only)

    moves: list[Move] = []
    for element in (c for c in game.children if c.tag == "move"):
        move_id = _int_attr(element, "id")
        if move_id != len(moves) + 1:
            raise RecordError(
                f"line {element.line}: move id {move_id} out of sequence; expected "
                f"{len(moves) + 1}"
            )
        source = _square_attr(element, "source")
        target = _square_attr(element, "target")
        rescues = element.children  # the schema allows only <rescue> here
        if len(rescues) > 1:
            raise RecordError(
                f"line {rescues[1].line}: move {move_id} has {len(rescues)} <rescue> "
                f"elements; expected at most one"
            )
        rescue_square = rescue_piece = None
        if rescues:
            rescue_square = _square_attr(rescues[0], "rescuefield")
            rescue_piece = _int_attr(rescues[0], "rescuepiece")
            if not 0 <= rescue_piece <= RESCUE_PIECE_MAX:
                raise RecordError(
                    f"line {rescues[0].line}: <rescue> rescuepiece={rescue_piece} is not a piece "
                    f"number; expected 0..{RESCUE_PIECE_MAX} (one of the 12 kinds of piece)"
                )
        moves.append(Move(source, target, rescue_square, rescue_piece))

    return GameRecord(
        game_type=game.attrs["type"],
        field=field,
        moves=tuple(moves),
        result_type=result_type,
        winner=winner,
        raw_winner=raw_winner,
        path=path,
    )


def _parse_bytes(data: bytes, path: str | None, max_bytes: int, max_moves: int) -> GameRecord:
    if len(data) > max_bytes:
        raise RecordError(
            f"record is {len(data)} bytes; expected at most {max_bytes} (max_bytes)"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RecordError(f"record is not valid UTF-8 ({exc}); expected UTF-8 text") from None
    # Refuse declarations before the parser sees them (belt and braces with the
    # handlers installed in _parse_tree).
    match = _FORBIDDEN_DECL.search(text)
    if match:
        raise RecordError(
            f"record contains a {match.group(1).upper()} declaration; expected a plain "
            f"Gravon record (DOCTYPE and ENTITY declarations are refused for safety)"
        )
    root = _parse_tree(text.encode("utf-8"), max_moves)
    return _build_record(root, path)


def _looks_like_xml(data: str | bytes) -> bool:
    """Whether read_record's argument is document text rather than a path: it starts
    with '<' (after a byte-order mark or blanks), or it could not be a path at all (a
    NUL byte, a UTF-16/32 byte-order mark), in which case parsing will refuse it."""
    if isinstance(data, bytes):
        return (
            data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<")
            or data.startswith((b"\xff\xfe", b"\xfe\xff"))
            or b"\x00" in data
        )
    return data.lstrip("\ufeff \t\r\n").startswith("<") or "\x00" in data


def read_record(
    source: str | bytes | os.PathLike, *, max_bytes: int = DEFAULT_MAX_BYTES,
    max_moves: int = MAX_MOVES,
) -> GameRecord:
    """Read one Gravon record of at most ``max_moves`` moves.

    ``source`` is the document when it is bytes, or a str starting with '<' (after
    optional whitespace / byte-order mark); otherwise (another str, or a path object) a
    path to a regular file. Raises :class:`RecordError` for anything malformed or
    hostile (a device or pipe given as a path included), OSError when a file cannot be
    read.
    """
    if isinstance(source, bytes) or (isinstance(source, str) and _looks_like_xml(source)):
        if isinstance(source, str):
            try:
                data = source.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise RecordError(
                    f"record text cannot be encoded as UTF-8 ({exc}); expected text"
                ) from None
        else:
            data = bytes(source)
        return _parse_bytes(data, None, max_bytes, max_moves)
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(
            f"read_record expects XML text, bytes or a path, not {type(source).__name__}"
        )
    path = Path(source)
    info = path.stat()
    if not stat.S_ISREG(info.st_mode):
        raise RecordError(f"{path}: not a regular file; expected a record file")
    size = info.st_size
    if size > max_bytes:
        raise RecordError(
            f"{path}: file is {size} bytes; expected at most {max_bytes} (max_bytes)"
        )
    with open(path, "rb") as handle:
        data = handle.read(max_bytes + 1)  # the file may have grown since stat
    try:
        return _parse_bytes(data, str(path), max_bytes, max_moves)
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None


def iter_records(
    directory: str | os.PathLike, *, max_bytes: int = DEFAULT_MAX_BYTES, max_moves: int = MAX_MOVES
) -> Iterator[GameRecord]:
    """Yield the record of every ``*.xml`` file under ``directory`` (recursively),
    sorted by path. A bad file raises RecordError naming it; nothing is skipped."""
    root = Path(directory)
    if not root.is_dir():
        raise NotADirectoryError(f"{root}: not a directory of Gravon records")
    for path in sorted(p for p in root.rglob("*.xml") if p.is_file()):
        yield read_record(path, max_bytes=max_bytes, max_moves=max_moves)


# --------------------------------------------------------------------------- replay

#: The engine's variant for each Gravon game type ("classicfree": classic pieces, free
#: setup), played under the server's rules: SERVER_SETTINGS over the variant's.
GRAVON_VARIANTS = {
    "classic": "gravon",
    "classicfree": "gravon",
    "barrage": "barrage",
    "ultimate lightning": "ultimate-lightning",
}
#: Gravon's server: a two-square limit of 5 (some recorded games need it), no draw caps:
#: the settings of configs/gravon.toml that are not switches, over every game type.
SERVER_SETTINGS = {k: v for k, v in load_variant("gravon").settings.items() if k not in SWITCHES}

# Gravon result types of endings the players decide, and the engine's end reasons for
# them; 10-14 are the clock's and absence's (docs/rules.md "Notation (Gravon)"). The
# writer writes the first type of each reason: a clock's ending as 13, the archive's.
_CONCEDED_TYPES = {3: "resigned", 4: "agreed_draw", 13: "timeout", **{t: "timeout" for t in (10, 11, 12, 14)}}
# Result types the position decides: the engine's end reasons that may stand for them.
_DECIDED_TYPES = {
    0: ("no_movable_pieces", "no_legal_move"),
    1: ("flag_captured",),
    2: ("no_movable_pieces", "neither_can_move"),
}


def _gravon_actions(record: GameRecord, num_actions: int) -> tuple[list[int], list[str]]:
    """The record's moves as actions of a variant of `num_actions` actions (red moves
    first, moves alternate; a rescue is the mover's action after its move), with the
    name of each for messages."""
    actions, names = [], []
    for i, move in enumerate(record.moves):
        player = i % 2
        try:
            action = squares_to_action(move.source, move.target, player)
            actions.append(check_in_variant(action, num_actions, format_move(move.source, move.target)))
            names.append(f"move {i + 1}")
            if move.rescue_piece is not None:
                # The piece number is Gravon's letter index (B = 1 bomb .. M = 12 flag):
                # in every archive record that piece is among the mover's captured ones.
                if move.rescue_piece == 0:
                    raise ValueError("rescue piece 0 is no piece (Gravon numbers them 1 bomb .. 12 flag)")
                actions.append(rescue_to_action(move.rescue_piece - 1, move.rescue_square, player))
                names.append(f"move {i + 1}'s rescue")
        except ValueError as exc:
            raise RecordError(f"{record.path or 'record'}: move {i + 1}: {exc}") from None
    return actions, names


def replay(record: GameRecord | Record, **settings: int):
    """The Game of a record with all its moves played and its ending applied.

    A Record (stratego.history, the JSON lines format's) plays as Game.from_record. A
    Gravon GameRecord plays under its game type's variant (GRAVON_VARIANTS) with the
    server's rules (SERVER_SETTINGS; `settings` override them); a resignation (result
    type 3), an agreed draw (4) or a clock's ending (10-14) is applied after the last
    move, and an ending the position decides (0, 1, 2) must be one the moves reach.
    RecordError (a ValueError) names the first illegal move, or the result that differs.
    """
    return _replay(record, settings)


def _gravon_variant(record: GameRecord, settings: dict):
    """The variant a Gravon record replays under: its game type's, with the server's
    rules (SERVER_SETTINGS, `settings` over them)."""
    where = f"{record.path or 'record'}: "
    if record.game_type not in GRAVON_VARIANTS:
        raise RecordError(f"{where}game type {record.game_type!r} has no variant here; expected one of "
                          f"{', '.join(repr(t) for t in GRAVON_VARIANTS)}")
    try:
        return load_variant(GRAVON_VARIANTS[record.game_type], **{**SERVER_SETTINGS, **settings})
    except ValueError as exc:
        raise RecordError(f"{where}bad start: {exc}") from None


def _replay(record: GameRecord | Record, settings: dict, before=None, parsed=None):
    """replay, calling before(game, i) ahead of each action i; `parsed`: the Gravon
    record's (variant, (actions, names)) when the caller has them already."""
    from .game import Game

    if isinstance(record, Record):
        if settings:
            raise TypeError("a Record holds its own rule settings; settings apply to Gravon records")
        return Game._from_record(record, before=before)
    if not isinstance(record, GameRecord):
        raise TypeError(f"replay takes a GameRecord or a Record, got {type(record).__name__}")
    where = f"{record.path or 'record'}: "
    if parsed is None:
        variant = _gravon_variant(record, settings)
        parsed = variant, _gravon_actions(record, variant.num_actions)
    variant, (actions, names) = parsed
    try:
        game = Game.from_field(record.field, 0, variant)
    except ValueError as exc:
        raise RecordError(f"{where}bad start: {exc}") from None
    game._play_recorded(actions, names, where, before)
    result = record.result_type
    if result in _CONCEDED_TYPES:
        game._end_as_recorded(record.winner, _CONCEDED_TYPES[result], where)
    elif result in _DECIDED_TYPES:
        if game.end_reason not in _DECIDED_TYPES[result] or game.winner != record.winner:
            got = f"end ({game.end_reason}, winner {game.winner})" if game.done else "are not over"
            raise RecordError(f"{where}result type {result} (winner {record.winner}): the moves {got}")
    elif result is not None:
        raise RecordError(f"{where}result type {result} is not one Gravon writes; expected 0-4 or 10-14")
    return game


# --------------------------------------------------------------------------- writing

def _result_type(reason: str, winner: int | None) -> int:
    """The Gravon result type the writer gives an end reason (the reader's tables read
    backwards): of the position's endings, 2 is the drawn one (neither side can move),
    0 and 1 have a winner. RecordError for an ending Gravon has no result for."""
    for result, reasons in _DECIDED_TYPES.items():
        if reason in reasons and (result == 2) == (winner is None):
            return result
    for result, conceded in _CONCEDED_TYPES.items():
        if conceded == reason:
            return result
    raise RecordError(f"Gravon has no result for {reason!r}; the JSON lines format (write_jsonl) keeps it")


# Gravon game types by the variant they replay under (GRAVON_VARIANTS read backwards).
_GRAVON_TYPES = {variant: tuple(t for t, v in GRAVON_VARIANTS.items() if v == variant)
                 for variant in dict.fromkeys(GRAVON_VARIANTS.values())}
# The switches a game written as a Gravon type must share with it: every one but the
# chasing rule, which only forbids moves (as a stricter two-square limit or a cap only
# forbids or ends: the replay under the server's rules that record_to_gravon makes shows
# where that matters).
_GRAVON_SWITCHES = tuple(k for k in SWITCHES if k != "chasing_rule")


def gravon_game_types(variant) -> tuple[str, ...]:
    """The Gravon game types a game of `variant` can be written as (its piece set and
    the switches that change fights and moves are that type's), () if none."""
    for name, types in _GRAVON_TYPES.items():
        base = load_variant(name)
        if base.piece_counts == variant.piece_counts and all(
                variant.settings.get(k) == base.settings.get(k) for k in _GRAVON_SWITCHES):
            return types
    return ()


def record_to_gravon(record: Record, *, game_type: str | None = None, check: bool = True) -> GameRecord:
    """The Gravon record of a game (a Record). RecordError if Gravon cannot hold it: no
    game type has its variant's pieces and rules, red does not move first, a rescue is
    declined (Gravon notes only rescues made), or it ended in a way Gravon has no result
    for (a cap, an illegal action). `game_type` picks among the types that fit ("classic"
    or "classicfree"; the first by default). With `check`, the record is replayed under
    the server's rules (replay) and must give back the game's moves and result: a game
    played under a stricter rule (a two-square limit of 3, the chasing rule) whose end
    the server's rules would not reach is refused."""
    if not isinstance(record, Record):
        raise TypeError(f"record must be a stratego.history.Record, got {type(record).__name__}")
    types = gravon_game_types(record.variant)
    if not types:
        raise RecordError(f"Gravon has no game type for variant {record.variant.name!r} (its pieces and rules); "
                          "the JSON lines format (write_jsonl) holds every variant")
    if game_type is None:
        game_type = types[0]
    elif game_type not in types:
        raise RecordError(f"a game of variant {record.variant.name!r} is written as {' or '.join(types)}, "
                          f"not {game_type!r}")
    if record.to_move != 0:
        raise RecordError("a Gravon record starts with red to move; this game starts with blue")
    result_type = None if record.reason is None else _result_type(record.reason, record.winner)
    moves: list[Move] = []
    for i, (action, player) in enumerate(zip(record.actions, record.players)):
        if action < RESCUE_ACTION_BASE:
            moves.append(Move(*action_to_squares(action, player)))
            continue
        kind, piece_type, square = decode_action(action, player)
        if kind != "rescue":
            raise RecordError(f"action {i + 1} declines a rescue; Gravon records note only rescues made")
        if not moves or moves[-1].rescue_piece is not None:
            raise RecordError(f"action {i + 1} is a rescue without a move before it")
        # Gravon numbers the rescued piece by its letter (B = 1 bomb .. M = 12 flag).
        moves[-1] = Move(moves[-1].source, moves[-1].target, square, piece_type + 1)
    raw_winner = None if result_type is None else _PLAYER_TO_WINNER[record.winner]
    out = GameRecord(game_type, record.field, tuple(moves), result_type,
                     None if result_type is None else record.winner, raw_winner, record.source)
    if check:
        back = replay(out).record()
        if (back.actions, back.winner, back.reason) != (record.actions, record.winner, record.reason):
            raise RecordError(f"under Gravon's rules (two-square limit 5, no caps) this game ends "
                              f"({back.reason}, winner {back.winner}), not ({record.reason}, winner {record.winner})")
    return out


def gravon_to_record(record: GameRecord, **settings: int) -> Record:
    """A Gravon record as a Record (its variant under the server's rules, its actions and
    its result, the engine's end reason where the position decides it): it replays it."""
    return replay(record, **settings).record(source=record.path)


def _xml_attr(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")


def write_record(game, path: str | os.PathLike | None = None, *, game_type: str | None = None,
                 check: bool = True) -> str:
    """A game as Gravon XML text, written to `path` too when given (the file whole, or
    nothing: RecordError before anything is written). `game` is a Game, a Record
    (record_to_gravon says which fit, with `game_type` and `check`) or a GameRecord
    (written as it is). read_record gives back its field, moves, rescues and result."""
    from .game import Game

    if isinstance(game, Game):
        game = game.record()
    if isinstance(game, Record):
        game = record_to_gravon(game, game_type=game_type, check=check)
    elif not isinstance(game, GameRecord):
        raise TypeError(f"write_record takes a Game, a Record or a GameRecord, got {type(game).__name__}")
    # read_record's bound, checked here: a file this writes, its reader reads (within it
    # a record stays far below DEFAULT_MAX_BYTES: a move is at most about 100 bytes).
    if len(game.moves) > MAX_MOVES:
        raise RecordError(f"{len(game.moves)} moves; a Gravon record holds at most {MAX_MOVES} (read_record's "
                          f"max_moves); the JSON lines format (write_jsonl) holds up to {MAX_JSONL_MOVES}")
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<stratego>",
             f' <game type="{_xml_attr(game.game_type)}">', f'  <field content="{check_field(game.field)}"/>']
    for i, move in enumerate(game.moves):
        head = f'  <move id="{i + 1}" source="{format_square(move.source)}" target="{format_square(move.target)}"'
        if move.rescue_piece is None:
            lines.append(head + "/>")
        else:
            lines += [head + ">", f'   <rescue rescuefield="{format_square(move.rescue_square)}" '
                                  f'rescuepiece="{move.rescue_piece}"/>', "  </move>"]
    lines += ['  <player id="1">Player 1</player>', '  <player id="2">Player 2</player>']
    if game.result_type is not None:
        winner = "" if game.raw_winner is None else f' winner="{game.raw_winner}"'
        lines.append(f'  <result type="{game.result_type}"{winner}/>')
    lines += [" </game>", "</stratego>", ""]
    text = "\n".join(lines)
    if path is not None:
        Path(path).write_text(text, encoding="utf-8")
    return text


# The project's own format, for every variant (stratego.jsonl), read and written here too.
from .jsonl import (  # noqa: E402  (after the Gravon reader, which it does not need)
    JSONL_FORMAT, JSONL_VERSION, MAX_JSONL_MOVES, RecordWriter, iter_jsonl, read_jsonl, record_from_json,
    record_to_json, write_jsonl,
)


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
