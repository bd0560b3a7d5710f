"""The Gravon XML record format: a reader safe for untrusted input, and its writer.

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

format_record writes a GameRecord back as the same XML, and read_record gives back its
field, moves, rescues and result. Games from records and records from games are
stratego.records.gravon_replay's; stratego.records gathers the public names.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator
from xml.parsers import expat

from .. import notation
from ..history import RecordError, check_field
from .jsonl import MAX_JSONL_MOVES
from ..notation import format_square

# Gravon's column letters, column 0 first. There is no "J".
COLUMN_LETTERS = notation.COLUMNS

# More moves than this in one record is refused by default (real games stay far below
# it; read_record's max_moves raises it), and format_record writes no more.
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
    """Gravon square text -> sq index (stratego.notation, the archive's J read as K);
    RecordError if bad."""
    try:
        return notation.parse_archive_square(text)
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
                f"{', '.join(f'<{t}>' for t in _SCHEMA)}"
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


# --------------------------------------------------------------------------- writing

def _xml_attr(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")


def format_record(game: GameRecord) -> str:
    """A GameRecord as Gravon XML text; read_record gives back its field, moves, rescues
    and result. RecordError for more moves than the reader takes."""
    if not isinstance(game, GameRecord):
        raise TypeError(f"format_record takes a GameRecord, got {type(game).__name__}")
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
    return "\n".join(lines)
