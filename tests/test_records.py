"""Tests of stratego.records: the real Gravon archive, known facts, hostile input."""

from __future__ import annotations


import pytest

from stratego.records import (
    MAX_MOVES,
    GameRecord,
    Move,
    RecordError,
    format_square,
    iter_records,
    parse_square,
    read_record,
)
from stratego.records import gravon_xml

from conftest import GRAVON, GRAVON_DIR
from conftest import needs_gravon as needs_data

# A small valid record to mutate in the hostile cases.
FIELD = (
    "BFBFEDEDDDGBMJCDIEDJFBBEBKIEDLHDGHFGHGIH"
    "AA__AA__AAAA__AA__AA"
    "TSTXTSWTSSPNPPUPOQPPUQVPPRNVNUQQQRRNYNRN"
)
GOOD = f"""<?xml version="1.0" encoding="UTF-8"?>
<stratego>
 <game type="classic">
  <field content="{FIELD}"/>
  <move id="1" source="F4" target="F5"/>
  <move id="2" source="K7" target="K6"/>
  <player id="1">Player 1</player>
  <player id="2">Player 2</player>
  <result type="3" winner="2"/>
 </game>
</stratego>
"""


def with_moves(move_lines: str) -> str:
    return (
        f'<stratego><game type="classic"><field content="{FIELD}"/>'
        f"{move_lines}</game></stratego>"
    )


# --------------------------------------------------------------------- squares

def test_parse_square_corners_and_forms():
    assert parse_square("A1") == 0
    assert parse_square("K1") == 9
    assert parse_square("A:") == 90
    assert parse_square("K:") == 99
    assert parse_square("A10") == 90  # row 10 written out
    assert parse_square("f4") == 35  # case-insensitive
    assert parse_square("i9") == 88


def test_parse_square_j_is_an_alias_of_k():
    assert parse_square("J9") == parse_square("K9") == 89
    assert parse_square("j:") == 99
    assert parse_square("J1") == 9


@pytest.mark.parametrize("bad", ["", "A", "A0", "A11", "L4", "Z1", "A;", "44", "AA", "A1x"])
def test_parse_square_rejects_bad_text(bad):
    with pytest.raises(RecordError, match=repr(bad).replace("[", r"\[")):
        parse_square(bad)


def test_format_square_roundtrip():
    assert format_square(0) == "A1"
    assert format_square(99) == "K:"
    for sq in range(100):
        assert parse_square(format_square(sq)) == sq
    for bad in (-1, 100):
        with pytest.raises(ValueError):
            format_square(bad)


# --------------------------------------------------------------- good records

def test_read_text_bytes_and_path(tmp_path):
    record = read_record(GOOD)
    assert record == read_record(GOOD.encode())
    assert record.game_type == "classic"
    assert record.field == FIELD
    assert record.moves == (Move(35, 45), Move(69, 59))
    assert (record.result_type, record.raw_winner, record.winner) == (3, 2, 1)
    assert record.path is None
    path = tmp_path / "game.xml"
    path.write_text(GOOD)
    from_path = read_record(path)
    assert from_path.path == str(path)
    assert read_record(str(path)) == from_path
    assert from_path.moves == record.moves


def test_winner_conversion():
    base = with_moves("")
    assert read_record(base).result_type is None
    assert read_record(base).winner is None
    for raw, player in ((1, 0), (2, 1), (3, None)):
        text = base.replace("</game>", f'<result type="1" winner="{raw}"/></game>')
        record = read_record(text)
        assert (record.raw_winner, record.winner) == (raw, player)
    text = base.replace("</game>", '<result type="4"/></game>')
    assert (read_record(text).result_type, read_record(text).raw_winner) == (4, None)


def test_iter_records_sorted_and_recursive(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "deep").mkdir(parents=True)
    for rel in ("b/2.xml", "a/deep/1.xml", "0.xml"):
        (tmp_path / rel).write_text(GOOD)
    (tmp_path / "notes.txt").write_text("not a record")
    paths = [r.path for r in iter_records(tmp_path)]
    assert paths == [str(tmp_path / "0.xml"), str(tmp_path / "a/deep/1.xml"),
                     str(tmp_path / "b/2.xml")]


def test_iter_records_missing_directory(tmp_path):
    with pytest.raises(NotADirectoryError):
        list(iter_records(tmp_path / "nowhere"))


def test_iter_records_bad_file_is_not_skipped(tmp_path):
    (tmp_path / "a.xml").write_text(GOOD)
    (tmp_path / "b.xml").write_text(GOOD[:200])
    with pytest.raises(RecordError, match="b.xml"):
        list(iter_records(tmp_path))


# --------------------------------------------------------------- real archive

@needs_data
def test_all_archive_files_parse():
    records = list(iter_records(GRAVON_DIR))
    assert len(records) == sum(GRAVON["by_type"].values())
    by_type: dict[str, int] = {}
    for record in records:
        assert isinstance(record, GameRecord)
        by_type[record.game_type] = by_type.get(record.game_type, 0) + 1
    assert by_type == GRAVON["by_type"]
    assert sum(len(r.moves) for r in records) == GRAVON["moves"]
    assert [r.path for r in records] == sorted(r.path for r in records)
    # Every game has a result; two classicfree games have no moves (one in the sample).
    assert all(r.result_type is not None for r in records)
    assert sum(1 for r in records if not r.moves) == GRAVON["without_moves"]


@needs_data
def test_known_classic_game():
    record = read_record(GRAVON_DIR / "classic" / "classic-2005.4-568.xml")
    assert record.game_type == "classic"
    assert record.field.startswith("BFBFEDEDDDGBMJCDIEDJ")
    assert len(record.moves) == 271
    assert record.moves[0] == Move(parse_square("F4"), parse_square("F5"))
    assert record.moves[1] == Move(parse_square("K7"), parse_square("K6"))
    assert record.moves[-1] == Move(86, 96)  # G9 -> G:
    assert (record.result_type, record.raw_winner, record.winner) == (1, 1, 0)


@needs_data
def test_known_barrage_game():
    record = read_record(GRAVON_DIR / "barrage" / "barrage-2006.1-1051.xml")
    assert len(record.moves) == 215
    assert record.moves[0] == Move(28, 38)  # I3 -> I4
    assert record.moves[21] == Move(93, 94)  # D: -> E:
    assert (record.result_type, record.winner) == (1, 0)


@needs_data
def test_ultimate_lightning_rescues_and_j_column():
    folder = GRAVON_DIR / "ultimate-lightning"
    a = read_record(folder / "ultimate_lightning-2005.5-2105.xml")
    b = read_record(folder / "ultimate_lightning-2005.5-4822.xml")
    assert a.game_type == "ultimate lightning"
    # <move id="80" source="H2" target="H1"><rescue rescuefield="I:" rescuepiece="9"/>
    assert a.moves[79] == Move(17, 7, rescue_square=98, rescue_piece=9)
    # <move id="117" source="J9" target="J:"> with J meaning column K.
    assert a.moves[116] == Move(89, 99, rescue_square=parse_square("F4"), rescue_piece=7)
    assert a.moves[184] == Move(85, 95, rescue_square=38, rescue_piece=3)
    # <move id="112" source="J2" target="J1"><rescue rescuefield="E7" rescuepiece="11"/>
    assert b.moves[111] == Move(19, 9, rescue_square=64, rescue_piece=11)
    assert b.moves[97] == Move(10, 0, rescue_square=69, rescue_piece=9)
    rescues = [m for r in iter_records(folder) for m in r.moves
               if m.rescue_square is not None]
    assert len(rescues) == 5
    assert all(m.rescue_piece is not None for m in rescues)


# -------------------------------------------------------------- hostile input

BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<stratego><game type="&lol9;"><field content="%s"/></game></stratego>
""" % FIELD

EXTERNAL_ENTITY = """<?xml version="1.0"?>
<!DOCTYPE stratego [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
<stratego><game type="&xxe;"><field content="%s"/></game></stratego>
""" % FIELD

PARAMETER_ENTITY = """<?xml version="1.0"?>
<!DOCTYPE stratego [ <!ENTITY %% remote SYSTEM "file:///etc/passwd"> %%remote; ]>
<stratego><game type="classic"><field content="%s"/></game></stratego>
""" % FIELD

EXTERNAL_DTD = """<?xml version="1.0"?>
<!DOCTYPE stratego SYSTEM "file:///etc/passwd">
<stratego><game type="classic"><field content="%s"/></game></stratego>
""" % FIELD


@pytest.mark.parametrize(
    "text",
    [BILLION_LAUGHS, EXTERNAL_ENTITY, PARAMETER_ENTITY, EXTERNAL_DTD,
     EXTERNAL_ENTITY.replace("DOCTYPE", "doctype")],
    ids=["billion-laughs", "external-entity", "parameter-entity", "external-dtd",
         "lowercase-doctype"],
)
def test_entity_declarations_refused(text, tmp_path):
    with pytest.raises(RecordError, match="DOCTYPE|ENTITY"):
        read_record(text)
    path = tmp_path / "hostile.xml"
    path.write_text(text)
    with pytest.raises(RecordError, match="hostile.xml"):
        read_record(path)


@pytest.mark.parametrize("text", [BILLION_LAUGHS, EXTERNAL_ENTITY, PARAMETER_ENTITY,
                                  EXTERNAL_DTD])
def test_parser_itself_refuses_declarations(text):
    # Defence in depth: even without the textual pre-check the parser refuses.
    with pytest.raises(RecordError, match="DOCTYPE|ENTITY|external"):
        gravon_xml._parse_tree(text.encode())


def test_undeclared_entity_reference_refused():
    with pytest.raises(RecordError, match="malformed"):
        read_record(GOOD.replace('type="classic"', 'type="&xxe;"'))


@pytest.mark.parametrize("cut", [10, 60, 150, 300, len(GOOD) - 12])
def test_truncated_xml(cut):
    with pytest.raises(RecordError, match="malformed or truncated"):
        read_record(GOOD[:cut])


def test_malformed_xml():
    with pytest.raises(RecordError, match="malformed"):
        read_record(GOOD.replace("</game>", "</gmae>"))
    with pytest.raises(RecordError, match="malformed"):
        read_record(GOOD.encode("utf-8") + b"<extra/>")


def test_oversized_text_and_file(tmp_path):
    padded = GOOD.replace("<stratego>", "<stratego>" + " " * 5000)
    with pytest.raises(RecordError, match="at most 4096"):
        read_record(padded, max_bytes=4096)
    assert read_record(padded).field == FIELD  # fine under the default limit
    path = tmp_path / "big.xml"
    path.write_text(padded)
    with pytest.raises(RecordError, match="at most 4096"):
        read_record(path, max_bytes=4096)
    huge = "<stratego>" + " " * 4_000_001 + "</stratego>"
    with pytest.raises(RecordError, match="at most 4000000"):
        read_record(huge)


def test_not_utf8():
    with pytest.raises(RecordError, match="UTF-8"):
        read_record(GOOD.encode("utf-16"))
    with pytest.raises(RecordError, match="UTF-8"):
        read_record(GOOD.replace("Player 1", "Spieler \xe4").encode("latin-1"))


@pytest.mark.parametrize(
    "field, message",
    [
        (FIELD[:99], "a field has 100 letters, got 99"),
        (FIELD + "A", "a field has 100 letters, got 101"),
        ("", "got 0"),
        (FIELD[:5] + "Z" + FIELD[6:], "'Z'"),
        (FIELD[:5] + "a" + FIELD[6:], "'a'"),
        (FIELD[:5] + " " + FIELD[6:], "' '"),
        (FIELD[:5] + "_" + FIELD[6:], "square F1 .letter 6. must be a piece or 'A'"),
        (FIELD[:42] + "A" + FIELD[43:], "square C5 .letter 43. must be a lake"),
    ],
    ids=["short", "long", "empty", "letter-Z", "lowercase", "space", "extra-lake",
         "missing-lake"],
)
def test_bad_field(field, message):
    with pytest.raises(RecordError, match=message):
        read_record(GOOD.replace(FIELD, field))


@pytest.mark.parametrize("square", ["Z4", "A0", "A11", "F", "", "J10x", "4F"])
def test_bad_square(square):
    text = GOOD.replace('source="F4"', f'source="{square}"')
    with pytest.raises(RecordError, match="bad square"):
        read_record(text)
    text = with_moves(
        f'<move id="1" source="A4" target="A5"><rescue rescuefield="{square}" '
        f'rescuepiece="3"/></move>'
    )
    with pytest.raises(RecordError, match="rescuefield"):
        read_record(text)


@pytest.mark.parametrize(
    "result, message",
    [
        ('<result type="one" winner="1"/>', "type='one' is not an integer"),
        ('<result type="1" winner="red"/>', "winner='red' is not an integer"),
        ('<result type="1.5" winner="1"/>', "not an integer"),
        ('<result type="" winner="1"/>', "not an integer"),
        ('<result type="1" winner="4"/>', "winner=4; expected 1"),
        ('<result type="1" winner="0"/>', "winner=0"),
        ('<result type="-1" winner="1"/>', "non-negative"),
        ('<result winner="1"/>', "lacks attribute"),
    ],
)
def test_bad_result(result, message):
    with pytest.raises(RecordError, match=message):
        read_record(GOOD.replace('<result type="3" winner="2"/>', result))


def test_two_results():
    text = GOOD.replace("</game>", '<result type="1" winner="1"/></game>')
    with pytest.raises(RecordError, match="second <result>"):
        read_record(text)


@pytest.mark.parametrize(
    "moves, message",
    [
        ('<move id="2" source="A4" target="A5"/>', "move id 2 out of sequence; expected 1"),
        ('<move id="1" source="A4" target="A5"/><move id="1" source="A7" target="A6"/>',
         "move id 1 out of sequence; expected 2"),
        ('<move id="1" source="A4" target="A5"/><move id="3" source="A7" target="A6"/>',
         "move id 3 out of sequence; expected 2"),
        ('<move id="x" source="A4" target="A5"/>', "id='x' is not an integer"),
        ('<move id="1" source="A4"/>', "lacks attribute"),
        ('<move id="1" source="A4" target="A5" via="A6"/>', "unknown attribute"),
        ('<move id="1" source="A4" target="A5">A6</move>', "unexpected text"),
        ('<move id="1" source="A4" target="A5"><rescue rescuefield="A1" '
         'rescuepiece="x"/></move>', "rescuepiece='x'"),
        ('<move id="1" source="A4" target="A5"><rescue rescuefield="A1" '
         'rescuepiece="3"/><rescue rescuefield="A2" rescuepiece="3"/></move>',
         "at most one"),
        ('<move id="1" source="A4" target="A5"><move id="2" source="A7" '
         'target="A6"/></move>', "<move> found inside <move>"),
    ],
)
def test_bad_moves(moves, message):
    with pytest.raises(RecordError, match=message):
        read_record(with_moves(moves))


def test_too_many_moves():
    lines = "".join(
        f'<move id="{i}" source="A4" target="A5"/>' for i in range(1, MAX_MOVES + 2)
    )
    with pytest.raises(RecordError, match=f"more than {MAX_MOVES} moves"):
        read_record(with_moves(lines))
    # Exactly the limit is fine.
    exact = "".join(
        f'<move id="{i}" source="A4" target="A5"/>' for i in range(1, MAX_MOVES + 1)
    )
    assert len(read_record(with_moves(exact)).moves) == MAX_MOVES


@pytest.mark.parametrize(
    "text, message",
    [
        ("<stratego></stratego>", "0 <game> elements"),
        ("<stratego><game type='classic'/><game type='classic'/></stratego>",
         "2 <game> elements"),
        ("<stratego><game type='classic'></game></stratego>", "0 <field> elements"),
        (f"<stratego><game type='classic'><field content='{FIELD}'/>"
         f"<field content='{FIELD}'/></game></stratego>", "2 <field> elements"),
        ("<stratego><game><field content='x'/></game></stratego>", "lacks attribute"),
        (f"<game type='classic'><field content='{FIELD}'/></game>",
         "<game> found as the root"),
        (f"<stratego><game type='classic'><field content='{FIELD}'/><comment/>"
         f"</game></stratego>", "unknown element <comment>"),
        (f"<stratego><game type='classic' rated='yes'><field content='{FIELD}'/>"
         f"</game></stratego>", "unknown attribute"),
        (f"<stratego>hello<game type='classic'><field content='{FIELD}'/>"
         f"</game></stratego>", "unexpected text"),
        (f"<stratego><field content='{FIELD}'/></stratego>", "<field> found inside <stratego>"),
        ("<stratego><game type='classic'><player id='a'>P</player>"
         f"<field content='{FIELD}'/></game></stratego>", "id='a' is not an integer"),
    ],
)
def test_bad_structure(text, message):
    with pytest.raises(RecordError, match=message):
        read_record(text)


def test_record_error_is_value_error():
    assert issubclass(RecordError, ValueError)


def test_declared_encoding_is_ignored():
    # The XML declaration cannot switch the decoder away from UTF-8.
    text = GOOD.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"')
    assert read_record(text).field == FIELD
