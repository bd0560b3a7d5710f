"""A file a writer makes, its reader reads: the writers refuse what the readers would
(docs/records.md "Bounds"), and the commands that read files can raise the move bound."""
from __future__ import annotations

import dataclasses
import io
import itertools

import pytest

import stratego
from stratego.cli import main
from stratego.history import LAKE_SQUARES, make_record
from stratego.records import (
    MAX_JSONL_MOVES, MAX_MOVES, GameRecord, Move, RecordError, load_records, read_jsonl, read_record,
    record_to_json, write_jsonl, write_record,
)
from stratego.records.jsonl import MAX_DESCRIPTION_CHARS, MAX_NAME_CHARS


def _endless_field() -> str:
    """A classic field where neither side can capture the other's flag soon: each flag
    behind bombs, a few pieces left to wander (random play runs for many plies)."""
    f = ["A"] * 100
    for sq in LAKE_SQUARES:
        f[sq] = "_"
    for sq, letter in ((44, "D"), (34, "B"), (35, "B"), (64, "B"), (65, "B"), (0, "M"),
                       (50, "P"), (30, "N"), (31, "N"), (60, "N"), (61, "N"), (99, "Y")):
        f[sq] = letter
    return "".join(f)


def _long_game(plies: int) -> stratego.Game:
    game = stratego.Game.from_field(_endless_field(), 0, "gravon", two_square_limit=5, max_plies=0,
                                    max_plies_without_attack=0)
    while not game.done and game.ply < plies:
        game.play(game.bot_move("random"))
    assert not game.done and game.ply == plies
    game.agree_draw()
    return game


def test_gravon_writer_refuses_more_moves_than_its_reader_reads(tmp_path):
    game = _long_game(MAX_MOVES + 1)
    out = tmp_path / "long.xml"
    with pytest.raises(RecordError, match=f"{MAX_MOVES + 1} moves; a Gravon record holds at most {MAX_MOVES}"):
        write_record(game, out)
    assert not out.exists()
    # A GameRecord is written as it is: the same bound.
    many = GameRecord("classic", _endless_field(), (Move(30, 40),) * (MAX_MOVES + 1), None, None, None)
    with pytest.raises(RecordError, match="at most"):
        write_record(many)
    # At the bound it writes, and its reader reads it back.
    text = write_record(dataclasses.replace(many, moves=many.moves[:MAX_MOVES]))
    assert len(read_record(text).moves) == MAX_MOVES


def test_gravon_reader_and_load_records_take_a_higher_bound(tmp_path):
    # The writer refuses such a file: it is made by hand.
    lines = write_record(GameRecord("classic", _endless_field(), (Move(30, 40),), None, None, None)).splitlines()
    moves = [f'  <move id="{i + 1}" source="A4" target="A5"/>' for i in range(MAX_MOVES + 1)]
    path = tmp_path / "long.xml"
    path.write_text("\n".join(lines[:4] + moves + lines[5:]), encoding="utf-8")
    with pytest.raises(RecordError, match=f"more than {MAX_MOVES} moves"):
        read_record(path)
    assert len(read_record(path, max_moves=MAX_MOVES + 1).moves) == MAX_MOVES + 1
    with pytest.raises(RecordError, match=f"more than {MAX_MOVES} moves"):
        list(load_records(path))
    # Read past the bound, it is replayed: its moves are no game (A4 is empty).
    with pytest.raises(RecordError, match="move 1 .A4-A5.: illegal"):
        list(load_records(path, max_moves=MAX_MOVES + 1))


def test_json_lines_writer_refuses_what_its_reader_refuses(tmp_path):
    field = _endless_field()
    too_many = make_record("gravon", field, [0] * (MAX_JSONL_MOVES + 1))
    with pytest.raises(RecordError, match=f"{MAX_JSONL_MOVES + 1} moves; a line holds at most {MAX_JSONL_MOVES}"):
        record_to_json(too_many)
    out = tmp_path / "g.jsonl"
    with pytest.raises(RecordError):
        write_jsonl([too_many], out)
    assert not out.exists()  # whole or not at all: a refused line leaves no file
    base = stratego.load_variant("classic")
    long_name = stratego.Variant("v" * (MAX_NAME_CHARS + 1), "", base.piece_counts, base.settings)
    long_text = stratego.Variant("mine", "d" * (MAX_DESCRIPTION_CHARS + 1), base.piece_counts, base.settings)
    for variant, what in ((long_name, "variant name"), (long_text, "variant description")):
        with pytest.raises(RecordError, match=what):
            record_to_json(make_record(variant, field, []))
    # At the bounds: written and read back.
    at_bounds = [make_record(stratego.Variant("v" * MAX_NAME_CHARS, "d" * MAX_DESCRIPTION_CHARS, base.piece_counts,
                                              base.settings), field, [])]
    buf = io.StringIO()
    write_jsonl(at_bounds, buf)
    assert read_jsonl(io.BytesIO(buf.getvalue().encode())) == at_bounds


def test_commands_that_read_files_take_max_moves(tmp_path, capsys):
    game = stratego.Game("classic", seed=3)
    for _ in range(12):
        game.play(game.bot_move("random"))
    path = tmp_path / "g.jsonl"
    write_jsonl([game], path)
    for command in (["view", str(path), "-o", str(tmp_path / "g.html")], ["replay", str(path)],
                    ["pairs", str(path), "-o", str(tmp_path / "p.npz")]):
        with pytest.raises(SystemExit):
            main(command + ["--max-moves", "11"])
        assert "12 moves; expected at most 11 (max_moves)" in capsys.readouterr().err
    assert main(["view", str(path), "-o", str(tmp_path / "g.html"), "--max-moves", "12"]) == 0
    assert main(["pairs", str(path), "-o", str(tmp_path / "p.npz"), "--max-moves", "12"]) == 0


def _spellings(count: int) -> list[str]:
    """`count` distinct spellings of line moves, each a move the reader accepts: case
    and spaces vary ("b4 - B7"), as a file from outside may write them."""
    out = []
    for col in "ABCDEFGHIK":  # Gravon's columns (no J)
        for row, to in itertools.permutations(range(1, 11), 2):
            for low, high in ((col, col), (col.lower(), col), (col, col.lower()), (col.lower(), col.lower())):
                for before in range(4):
                    for after in range(4):
                        out.append(" " * before + f"{low}{row}-{high}{to}" + " " * after)
                        if len(out) == count:
                            return out
    raise AssertionError("not enough spellings")


def test_reading_keeps_the_move_cache_bounded(tmp_path):
    # docs/records.md: the reader holds one line at a time; its move cache is bounded too,
    # however many spellings of moves the files it reads hold.
    import json
    import tracemalloc
    from stratego.records import jsonl

    base = json.loads(record_to_json(stratego.Game("classic", seed=0).record()))
    moves = _spellings(4 * 14_000)
    path = tmp_path / "spelled.jsonl"
    with open(path, "w") as out:
        for part in range(4):
            out.write(json.dumps({**base, "moves": moves[part::4]}) + "\n")
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for record in jsonl.iter_jsonl(path):
            assert len(record.actions) == 14_000
        del record
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    # Unbounded, the 56,000 spellings kept about 11 MB after the reading ended.
    assert kept < 3 << 20, f"reading kept {kept:,} bytes"
    for cache in (jsonl._parsed_move, jsonl._token):
        assert cache.cache_info().maxsize == jsonl.MOVE_CACHE_SIZE
        assert cache.cache_info().currsize <= jsonl.MOVE_CACHE_SIZE
    assert jsonl._parsed_move.cache_info().currsize == jsonl.MOVE_CACHE_SIZE  # the file overflowed it
