"""Fuzzing the Gravon record reader and the notation (see README.md in this folder).

    .venv/bin/python csrc/fuzz/fuzz_records.py [LIBFUZZER_FLAGS] WORK_CORPUS SEED_CORPUS...
        atheris (coverage-guided, libFuzzer flags such as -max_total_time=600)
    .venv/bin/python csrc/fuzz/fuzz_records.py --mutate SECONDS SEED_DIR...
        a plain random mutation fuzzer (byte flips, insertions, splices), no atheris
    .venv/bin/python csrc/fuzz/fuzz_records.py --replay FILE_OR_DIR...
        runs the check over files once (what tests/test_fuzz_regressions.py does)

The property: stratego.records.read_record on any bytes (and on their text) returns a
GameRecord or raises RecordError; for a record it returns, Game.from_field(field) and
playing its moves in order either work or raise ValueError, stratego.records.replay
returns a Game or raises RecordError, and a replayed game written again (write_record)
reads back to the same field, moves and winner. The same bytes as a line of the JSON
lines format (record_from_json) give a Record that writes back to itself, or a
RecordError. Any other exception is a finding, and so is a record that breaks its own
documented shape.

Bytes that do not look like XML would be read as a *path* by read_record; the fuzzer
prefixes them with "<" so that it never touches the file system.
"""
from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

try:
    import atheris
except ImportError:  # the --mutate and --replay modes do not need it
    atheris = None

import stratego
from stratego import notation, records
from stratego.records import gravon_xml
from stratego.notation import format_move


def _check_record(rec: records.GameRecord) -> None:
    assert isinstance(rec, records.GameRecord), type(rec)
    assert isinstance(rec.game_type, str)
    assert isinstance(rec.field, str) and len(rec.field) == 100, rec.field
    assert records.check_field(rec.field) == rec.field  # the engine reads it (_core.check_field)
    assert rec.winner in (0, 1, None) and rec.raw_winner in (1, 2, 3, None)
    assert rec.result_type is None or rec.result_type >= 0
    assert len(rec.moves) <= records.MAX_MOVES
    for move in rec.moves:
        for sq in (move.source, move.target) + ((move.rescue_square,) if move.rescue_square is not None else ()):
            assert isinstance(sq, int) and 0 <= sq < 100, move
            assert notation.parse_square(notation.format_square(sq)) == sq
    try:
        game = stratego.Game.from_field(rec.field, variant="gravon")
    except ValueError:
        return
    for move in rec.moves:
        if game.done:
            break
        try:
            game.play(format_move(move.source, move.target))
        except ValueError:
            break
    # The replayed position is still a position the engine can show and continue.
    assert len(game.field) == 100
    if not game.done:
        assert game.legal_actions(), "a game that goes on has a legal move"
        game.observation(dtype="float32", belief=True)
    try:
        replayed = records.replay(rec)
    except records.RecordError:
        return
    back = records.read_record(records.write_record(replayed, game_type=rec.game_type))
    assert (back.field, back.moves, back.winner) == (rec.field, rec.moves, rec.winner), "the writer changed a game"


def _check_json(data: bytes) -> None:
    try:
        rec = records.record_from_json(data)
    except records.RecordError as exc:
        assert "substring not found" not in str(exc), f"unhelpful RecordError: {exc}"
        return
    assert records.record_from_json(records.record_to_json(rec)) == rec, "a JSON record does not write back to itself"


# Findings reported and not fixed yet (see README.md, "Findings"), which the fuzzing
# modes step over so that a run goes on looking for new ones; --replay does not.
IGNORE_KNOWN = False


def _known(data: bytes, exc: BaseException) -> bool:
    # U+212A KELVIN SIGN passes the notation's case-insensitive [A-K] as a "k".
    return "\u212a" in data.decode("utf-8", "replace") and "substring not found" in str(exc)


def check_one(data: bytes) -> None:
    """The fuzz property for one input; raises (AssertionError or the unexpected
    exception) on a finding."""
    try:
        _check_one(data)
    except Exception as exc:
        if not (IGNORE_KNOWN and _known(data, exc)):
            raise


def _check_one(data: bytes) -> None:
    _check_json(data)
    raw_text = data.decode("utf-8", "surrogateescape")
    if not gravon_xml._looks_like_xml(data):
        data = b"<" + data
    sources: list[str | bytes] = [data]
    text = data.decode("utf-8", "surrogateescape")
    if gravon_xml._looks_like_xml(text):
        sources.append(text)
    for source in sources:
        try:
            rec = records.read_record(source)
        except records.RecordError as exc:
            # The reader's own messages, not an internal error passed through.
            assert "substring not found" not in str(exc), f"unhelpful RecordError: {exc}"
            continue
        _check_record(rec)
    # The square and move notation on the same bytes (short prefixes of the text).
    for piece in (raw_text[:2], raw_text[:3], raw_text.strip()[:5]):
        try:
            sq = notation.parse_square(piece)
        except ValueError as exc:
            assert "substring" not in str(exc), f"parse_square({piece!r}): unhelpful message {exc}"
            continue
        assert 0 <= sq < 100
    for piece in (raw_text[:5], raw_text[:7], raw_text.strip()[:9]):
        try:
            src, dst = notation.parse_move(piece)
        except ValueError as exc:
            assert "substring" not in str(exc), f"parse_move({piece!r}): unhelpful message {exc}"
            continue
        assert 0 <= src < 100 and 0 <= dst < 100


def _files(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(f for f in p.iterdir() if f.is_file() and not f.name.startswith((".", "README")))
        elif p.is_file():
            out.append(p)
    return out


def replay(paths: list[str]) -> int:
    files = _files(paths)
    for f in files:
        try:
            check_one(f.read_bytes())
        except Exception:
            print(f"finding: {f}", file=sys.stderr)
            raise
    print(f"replayed {len(files)} input(s)")
    return 0


def _mutate(rng: random.Random, data: bytes, pool: list[bytes]) -> bytes:
    buf = bytearray(data)
    tokens = [b"<", b">", b"/>", b'"', b"=", b"&", b"&amp;", b"<!DOCTYPE", b"<!ENTITY", b"<?xml",
              b"\xef\xbb\xbf", b"\x00", b"\xff", b"K:", b"J10", b"\xe2\x84\xaa", b"<move", b"<rescue",
              b' id="1"', b' source="A4"', b' target="A5"', b"<result", b' winner="3"', b"]]>"]
    for _ in range(rng.randint(1, 8)):
        op = rng.randrange(6)
        pos = rng.randrange(len(buf) + 1)
        if op == 0 and buf:
            buf[min(pos, len(buf) - 1)] ^= 1 << rng.randrange(8)
        elif op == 1:
            buf[pos:pos] = bytes([rng.randrange(256)])
        elif op == 2 and buf:
            del buf[pos:pos + rng.randint(1, 16)]
        elif op == 3:
            buf[pos:pos] = rng.choice(tokens)
        elif op == 4 and buf:
            a = rng.randrange(len(buf))
            buf[pos:pos] = buf[a:a + rng.randint(1, 64)]
        else:
            other = rng.choice(pool)
            a = rng.randrange(len(other) + 1)
            buf[pos:] = other[a:]
    return bytes(buf)


def mutate_fuzz(seconds: float, paths: list[str], seed: int = 0) -> int:
    pool = [f.read_bytes() for f in _files(paths)]
    if not pool:
        raise SystemExit("no seed files")
    rng = random.Random(seed)
    end = time.monotonic() + seconds
    runs = 0
    while time.monotonic() < end:
        data = _mutate(rng, rng.choice(pool), pool)
        try:
            check_one(data)
        except Exception:
            path = Path(f"crash-records-{runs}")
            path.write_bytes(data)
            print(f"finding after {runs} runs, input written to {path}", file=sys.stderr)
            raise
        runs += 1
    print(f"{runs} runs in {seconds:.0f} s, no finding")
    return 0


def _atheris_one(data: bytes) -> None:
    check_one(data)


def main(argv: list[str]) -> int:
    global IGNORE_KNOWN
    if len(argv) > 1 and argv[1] == "--replay":
        return replay(argv[2:])
    IGNORE_KNOWN = True
    if len(argv) > 1 and argv[1] == "--mutate":
        return mutate_fuzz(float(argv[2]), argv[3:], seed=int(os.environ.get("FUZZ_SEED", "0")))
    if atheris is None:
        raise SystemExit("atheris is not installed: pip install atheris, or use --mutate SECONDS DIR")
    # Coverage of every Python function loaded so far: the reader, the notation, the
    # game wrapper, and the standard library they use (expat itself is C).
    atheris.instrument_all()
    atheris.Setup(argv, _atheris_one)
    atheris.Fuzz()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
