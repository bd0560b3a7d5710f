"""Records written: Gravon XML (write_record) and the project's JSON lines, each read
back to the same game, over the Gravon archive and random games; bad input refused."""
from __future__ import annotations

import dataclasses
import io
import json
import re

import pytest

import stratego
from stratego.history import make_record
from stratego.records import (
    JSONL_VERSION, SERVER_SETTINGS, RecordError, load_records, RecordWriter, gravon_game_types, gravon_to_record, iter_jsonl, iter_records,
    read_jsonl, read_record, record_from_json, record_to_gravon, record_to_json, replay, write_jsonl,
    write_record,
)

from conftest import GRAVON, GRAVON_DIR, needs_gravon

ARCHIVE = list(iter_records(GRAVON_DIR)) if GRAVON_DIR.is_dir() else []


def _played(variant, seed, bot="random", plies=None, **settings):
    game = stratego.Game(variant, seed=seed, **settings)
    while not game.done and (plies is None or len(game.history) < plies):
        game.play(game.bot_move(bot))
    return game


def _random_games():
    """Finished and unfinished random games of every variant, every kind of ending."""
    games = []
    for i, variant in enumerate(stratego.variants()):
        games.append(_played(variant, seed=i))
        games.append(_played(variant, seed=i + 100, plies=15))
        ended = _played(variant, seed=i + 200, plies=20)
        [ended.resign, ended.agree_draw, ended.lose_on_time][i % 3]()
        games.append(ended)
    return games


# ----------------------------------------------------------------------------- Gravon XML

@needs_gravon
def test_archive_round_trips_through_the_writer():
    """Each archive game, replayed and written again, reads back as its record: field,
    moves, rescues, result type and winner (the file name apart)."""
    assert len(ARCHIVE) == sum(GRAVON["by_type"].values())
    for record in ARCHIVE:
        game = replay(record)
        text = write_record(game, game_type=record.game_type)
        assert dataclasses.replace(read_record(text), path=record.path) == record, record.path
        assert dataclasses.replace(read_record(write_record(record)), path=record.path) == record


@needs_gravon
def test_archive_rescues_are_written():
    text = "".join(write_record(replay(r)) for r in ARCHIVE if r.game_type == "ultimate lightning")
    assert text.count("<rescue ") == 5


def test_random_games_round_trip_through_gravon_xml():
    written = 0
    for variant in ("gravon", "barrage", "ultimate-lightning"):
        for seed in range(6):
            game = _played(variant, seed, plies=None if seed % 2 else 40, **SERVER_SETTINGS)
            if seed % 3 == 2 and not game.done:
                game.resign(seed % 2)
            record = game.record()
            if any(a == stratego.actions.RESCUE_DECLINE for a in record.actions):
                with pytest.raises(RecordError, match="declines a rescue"):
                    write_record(game)
                continue
            back = read_record(write_record(game))
            assert back.field == game.start_field
            assert gravon_to_record(back) == record
            written += 1
    assert written >= 12


def test_classic_games_are_written_as_gravon_classic(tmp_path):
    game = _played("classic", seed=4, plies=30)
    game.agree_draw()
    path = tmp_path / "game.xml"
    text = write_record(game, path)
    assert path.read_text() == text and '<game type="classic">' in text
    assert '<result type="4" winner="3"/>' in text
    assert read_record(path).moves == read_record(text).moves
    assert write_record(game, game_type="classicfree").count('type="classicfree"') == 1
    chasing = _played("classic", seed=5, plies=30, chasing_rule=1)  # only forbids moves: fits
    chasing.resign()
    assert read_record(write_record(chasing)).result_type == 3


def test_games_gravon_cannot_hold_are_refused_before_writing(tmp_path):
    path = tmp_path / "no.xml"
    capped = _played("classic", seed=1, max_plies=30)
    assert capped.end_reason == "max_plies"
    with pytest.raises(RecordError, match="no result for 'max_plies'"):
        write_record(capped, path)
    assert not path.exists()
    with pytest.raises(RecordError, match="no game type for variant 'duel'"):
        write_record(_played("duel", seed=1, plies=4))
    with pytest.raises(RecordError, match="starts with red to move"):
        write_record(stratego.Game.from_field(stratego.Game(seed=1).field, to_move=1))
    with pytest.raises(RecordError, match="not 'barrage'"):
        write_record(stratego.Game(seed=1), game_type="barrage")
    forfeit = _played("classic", seed=2, plies=4)
    forfeit._play_or_forfeit(-1)
    with pytest.raises(RecordError, match="no result for 'illegal_action'"):
        write_record(forfeit)
    with pytest.raises(TypeError, match="Game, a Record or a GameRecord"):
        write_record("game")
    assert gravon_game_types(stratego.load_variant("classic", aggressor_wins=1)) == ()


def test_check_replays_under_the_servers_rules():
    """A record whose result the moves do not reach under Gravon's rules is refused."""
    game = _played("gravon", seed=3, plies=10)
    lie = make_record(game.variant, game.start_field, game.record().actions, winner=0, reason="flag_captured")
    with pytest.raises(RecordError, match="result type 1"):
        record_to_gravon(lie)
    assert record_to_gravon(lie, check=False).result_type == 1


# ----------------------------------------------------------------------------- JSON lines

def _round_trip(records):
    buffer = io.StringIO()
    assert write_jsonl(records, buffer) == len(records)
    return list(iter_jsonl(io.BytesIO(buffer.getvalue().encode())))


@needs_gravon
def test_archive_round_trips_through_json_lines():
    records = [gravon_to_record(r) for r in ARCHIVE]
    assert _round_trip(records) == records
    assert sum(r.reason == "resigned" for r in records) == GRAVON["decided"][0]


def test_random_games_of_every_variant_round_trip_through_json_lines(tmp_path):
    games = _random_games()
    records = [g.record() for g in games]
    path = tmp_path / "games.jsonl"
    assert write_jsonl(games, path) == len(games)
    back = read_jsonl(path)
    assert back == records
    for game, record in zip(games, back):
        replayed = stratego.Game.from_record(record)
        assert (replayed.field, replayed.end_reason, replayed.winner) == (game.field, game.end_reason, game.winner)
        assert replayed.history == game.history


def test_custom_settings_and_variants_round_trip():
    barrage = stratego.load_variant("barrage")
    own = stratego.Variant("mine", "barrage where the attacker wins ties", barrage.piece_counts,
                           dict(barrage.settings, aggressor_wins=1))
    games = [_played(own, seed=5), _played("classic", seed=6, plies=50, two_square_limit=2, chasing_rule=1),
             _played(stratego.Variant("classic", "", barrage.piece_counts, stratego.load_variant("classic").settings), 7)]
    records = [g.record() for g in games]
    assert _round_trip(records) == records
    lines = [json.loads(record_to_json(r)) for r in records]
    assert lines[0]["pieces"]["marshal"] == 1 and lines[0]["rules"]["aggressor_wins"] == 1
    assert lines[1]["rules"] == {"two_square_limit": 2, "chasing_rule": 1}  # only what differs
    assert "pieces" in lines[2] and "rules" not in lines[2]


def test_writer_appends_and_counts(tmp_path):
    path = tmp_path / "a.jsonl"
    with RecordWriter(path) as writer:
        writer.write(_played("barrage", 1))
    with RecordWriter(path, append=True) as writer:
        writer.write(_played("barrage", 2).record())
        assert writer.count == 1
    assert len(read_jsonl(path)) == 2


def test_reader_streams_one_line_at_a_time():
    good = record_to_json(_played("barrage", 1).record())
    data = io.BytesIO((good + "\n" + good + "\n" + "{broken\n").encode())
    reader = iter_jsonl(data)
    assert next(reader) == next(reader)
    with pytest.raises(RecordError, match="line 3: not valid JSON"):
        next(reader)


GOOD = json.loads(record_to_json(make_record("classic", stratego.Game(seed=0).field, [],
                                              winner=1, reason="resigned")))


def _line(**changes):
    line = dict(GOOD)
    for key, value in changes.items():
        if value is KeyError:
            line.pop(key)
        else:
            line[key] = value
    return json.dumps(line)


@pytest.mark.parametrize("text, message", [
    ("[1, 2]", "a line is a JSON object"),
    ("{", "not valid JSON"),
    ('{"a": NaN}', "NaN is not a number"),
    ('{"format": 1, "format": 2}', "key 'format' appears twice"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply|not valid JSON"),
    (_line(format="gravon"), "format is 'gravon'"),
    (_line(version=2), f"version 2; this reader knows version {JSONL_VERSION}"),
    (_line(version=True), "version True"),
    (_line(moves=KeyError), "missing moves"),
    (_line(extra=1), "unknown key"),
    (_line(moves="A4-A5"), "moves must be a list"),
    (_line(moves=["A4-A5", ["x"]]), r"move 2: expected a move in notation"),
    (_line(moves=["A4-C6"]), "move 1: no action moves"),
    (_line(moves=["A4-B5"]), r"move 1: A4-B5: a diagonal move; this variant has only moves along rows and columns"),
    (_line(moves=["Z4-A5"]), "move 1: bad move"),
    (_line(field="A" * 100), "field: square C5 .letter 43. must be a lake '_', got 'A'"),
    (_line(to_move=2), "to_move must be 0"),
    (_line(winner=5), "winner must be"),
    (_line(reason="lost"), "unknown end reason"),
    (_line(rules={"two_square_limit": 999}), "bad variant"),
    (_line(rules={"speed": 1}), "rules has unknown name 'speed'"),
    (_line(rules={"max_plies": "many"}), "rules: max_plies must be an integer"),
    (_line(rules={"chasing_rule": 1, "max_plies_without_attack": 0}), "bad variant: the chasing rule"),
    (_line(pieces={"dragon": 1}), "pieces has unknown name"),
    (_line(variant="mine"), "variant 'mine' is not shipped .barrage"),
    (_line(variant="mine", pieces={"flag": 1, "scout": 1}, rules={"max_plies": 5}), "variant 'mine' is not shipped: its rules lack max_plies_without_attack"),
    (_line(variant=""), "variant must be a name of 1 to 200 characters"),
])
def test_bad_lines_are_refused_naming_line_and_problem(text, message):
    with pytest.raises(RecordError, match=r"games\.jsonl: line 2: (" + message + ")"):
        list(iter_jsonl(_named(json.dumps(GOOD) + "\n" + text + "\n")))


def _named(text: str) -> io.BytesIO:
    data = io.BytesIO(text.encode())
    data.name = "games.jsonl"
    return data


def test_limits_and_sources(tmp_path):
    with pytest.raises(RecordError, match="line 1: longer than 100 bytes"):
        list(iter_jsonl(_named(json.dumps(GOOD) + "\n"), max_line_bytes=100))
    many = _line(moves=["A4-A5"] * 11)
    with pytest.raises(RecordError, match=r"11 moves; expected at most 10 \(max_moves\)"):
        list(iter_jsonl(_named(many + "\n"), max_moves=10))
    with pytest.raises(RecordError, match="line 2: a blank line"):
        list(iter_jsonl(_named(json.dumps(GOOD) + "\n\n")))
    with pytest.raises(RecordError, match="binary mode"):
        list(iter_jsonl(io.StringIO(json.dumps(GOOD))))
    with pytest.raises(RecordError, match="not a regular file"):
        list(iter_jsonl(tmp_path))
    with pytest.raises(TypeError, match="path or a binary file"):
        list(iter_jsonl(42))
    with pytest.raises(TypeError, match="Record"):
        record_to_json(stratego.Game(seed=1))
    assert record_from_json(json.dumps(GOOD)).reason == "resigned"


def test_load_records_reads_any_record_file(tmp_path):
    games = [_played("barrage", seed, **SERVER_SETTINGS) for seed in range(2)]
    write_jsonl(games, tmp_path / "games.jsonl")
    assert list(load_records(tmp_path / "games.jsonl")) == [g.record() for g in games]
    folder = tmp_path / "xml"
    folder.mkdir()
    for i, game in enumerate(games):
        write_record(game, folder / f"{i}.xml")
    from_xml = list(load_records(folder))
    assert [r.actions for r in from_xml] == [g.record().actions for g in games]
    assert from_xml[0].source.endswith("0.xml")
    assert list(load_records(folder / "1.xml"))[0].reason == games[1].end_reason
    (folder / "2.xml").write_text("<stratego/>")
    with pytest.raises(RecordError, match=r"2\.xml: record has 0 <game> elements"):
        list(load_records(folder))
    with pytest.raises(RecordError, match="not a regular file"):
        list(load_records(tmp_path / "missing.jsonl"))


def test_a_move_the_variant_has_no_action_for_is_named_not_numbered():
    """A diagonal move or a rescue in a classic game: the message names the move and
    what it is, not the engine's action number."""
    line = json.loads(record_to_json(stratego.Game("classic", seed=1).record()))
    for move, kind in (("A4-B5", "a diagonal move"), ("6@F4", "a rescue"), ("pass", "a declined rescue")):
        line["moves"] = [move]
        with pytest.raises(RecordError, match=rf"move 1: {re.escape(move)}: {kind}; this variant has only "
                                              r"moves along rows and columns$"):
            record_from_json(json.dumps(line))
    from test_records import with_moves
    gravon = read_record(with_moves('<move id="1" source="F4" target="G5"/>'))
    with pytest.raises(RecordError, match=r"move 1: F4-G5: a diagonal move; this variant has only moves along "
                                          r"rows and columns$"):
        replay(gravon)


def test_the_writers_tables_are_the_readers_read_backwards():
    """Gravon result types and game types are written down once (the reader's tables);
    the writer's are derived from them."""
    from stratego.records.gravon_replay import GRAVON_VARIANTS, _CONCEDED_TYPES, _DECIDED_TYPES, _result_type
    for result, reasons in _DECIDED_TYPES.items():
        for reason in reasons:  # 2 is the drawn one
            assert _result_type(reason, None if result == 2 else 0) == result
    assert _result_type("no_movable_pieces", None) == 2 and _result_type("no_movable_pieces", 1) == 0
    for reason in set(_CONCEDED_TYPES.values()):
        assert _CONCEDED_TYPES[_result_type(reason, 0)] == reason
    assert _result_type("timeout", 1) == 13  # the archive's clock type
    for game_type, variant in GRAVON_VARIANTS.items():
        assert game_type in gravon_game_types(stratego.load_variant(variant))
    with pytest.raises(RecordError, match="Gravon has no result for 'max_plies'"):
        _result_type("max_plies", None)
