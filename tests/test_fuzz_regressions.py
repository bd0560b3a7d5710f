"""Replays the fuzzers' corpora and the inputs of past findings (csrc/fuzz/README.md).

The C targets are compiled with the C compiler on PATH (no clang or libFuzzer needed:
csrc/fuzz/replay_main.c feeds each file to LLVMFuzzerTestOneInput), under ASan and
UBSan when the compiler supports them; every input must run without a failed check or
a sanitizer report. The record inputs go through the Python fuzz property (read_record
returns a GameRecord or raises RecordError; replaying a record raises only ValueError).

An input under regressions/ whose bug is not fixed yet is listed in OPEN below: it is
expected to fail, so fixing the bug turns it into a failure that asks to move it off
the list.
"""
from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path

import pytest

from cbuild import CSRC, SANITIZE, build, clean_env, compiler, works

FUZZ = CSRC / "fuzz"
C_TARGETS = ["engine", "field", "state"]

# Known findings whose fix has not landed: "target/file name" -> the bug.
OPEN: dict[str, str] = {}

# Sanitizer runtime settings for the replay programs.
_SAN_ENV = {
    "ASAN_OPTIONS": "abort_on_error=1:detect_leaks=1",
    "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
}


def _clean_env() -> dict[str, str]:
    return {**clean_env(), **_SAN_ENV}


@pytest.fixture(scope="module")
def replay_programs() -> dict[str, Path]:
    """The replay programs, under ASan and UBSan where the compiler has them (built once
    per content of the sources: tests/cbuild.py)."""
    cc = compiler()
    if cc is None:
        pytest.skip("no C compiler found (set CC or put cc/gcc/clang on PATH)")
    flags = ["-std=c11", "-g", "-O1", "-pthread"]
    if works(cc, SANITIZE):
        flags += SANITIZE
    programs = {f"replay_{t}": [FUZZ / f"fuzz_{t}.c", FUZZ / "replay_main.c"] for t in C_TARGETS}
    built = build("fuzz-replay", cc, flags, programs)
    return {t: built[f"replay_{t}"] for t in C_TARGETS}


def _inputs(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith((".", "README")))


def _run(program: Path, files: list[Path]) -> None:
    # In chunks, so that one command line stays short.
    for start in range(0, len(files), 200):
        chunk = files[start:start + 200]
        done = subprocess.run([str(program), *map(str, chunk)], capture_output=True, text=True,
                              env=_clean_env(), timeout=900)
        assert done.returncode == 0, (
            f"{program.name} failed on one of {[p.name for p in chunk]} (exit {done.returncode}):\n"
            f"{done.stdout[-2000:]}\n{done.stderr[-6000:]}"
        )


def _fixed_regressions(target: str) -> list[Path]:
    return [p for p in _inputs(FUZZ / "regressions" / target) if f"{target}/{p.name}" not in OPEN]


@pytest.mark.deep  # the replay programs under sanitizers
@pytest.mark.parametrize("target", C_TARGETS)
def test_c_corpus(replay_programs, target):
    files = _inputs(FUZZ / f"corpus_{target}")
    assert files, f"the seed corpus csrc/fuzz/corpus_{target} is empty"
    _run(replay_programs[target], files)


@pytest.mark.deep  # the replay programs under sanitizers
@pytest.mark.parametrize("target", C_TARGETS)
def test_c_regressions(replay_programs, target):
    _run(replay_programs[target], _fixed_regressions(target))


def _records_fuzz():
    spec = importlib.util.spec_from_file_location("fuzz_records", FUZZ / "fuzz_records.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_records_corpus():
    fuzz = _records_fuzz()
    files = _inputs(FUZZ / "corpus_records")
    assert files, "the seed corpus csrc/fuzz/corpus_records is empty"
    for path in files:
        fuzz.check_one(path.read_bytes())


def test_records_regressions():
    fuzz = _records_fuzz()
    for path in _fixed_regressions("records"):
        fuzz.check_one(path.read_bytes())


def _fails(request, target: str, path: Path) -> bool:
    """Whether `path` still fails its target: a failed check, a sanitizer report or an
    unexpected exception (the C replay programs are built only when a C input asks)."""
    try:
        if target == "records":
            _records_fuzz().check_one(path.read_bytes())
        else:
            _run(request.getfixturevalue("replay_programs")[target], [path])
    except Exception:  # AssertionError from _run, the finding itself from check_one
        return True
    return False


def test_open_findings_still_fail(request):
    """A finding not fixed yet must still fail; one that passes now was fixed, and moves
    off OPEN so that its input is replayed as a regression."""
    fixed = [key for key in sorted(OPEN) if not _fails(request, key.split("/", 1)[0], FUZZ / "regressions" / key)]
    assert not fixed, f"these findings pass now: take them off OPEN (their inputs then replay as regressions): {fixed}"


@pytest.mark.deep  # the replay programs under sanitizers
def test_a_failing_c_input_is_told_from_a_passing_one(request, tmp_path):
    """What test_open_findings_still_fail rests on, for the C targets: _fails says True
    for an input that fails and False for one that passes."""
    assert not _fails(request, "field", _inputs(FUZZ / "corpus_field")[0])
    # A file the replay program cannot read fails it (exit 1), as a failed check does.
    assert _fails(request, "field", tmp_path / "missing")


def test_a_failing_record_input_is_told_from_a_passing_one(request, monkeypatch):
    """The same for the record reader's property."""
    record = _inputs(FUZZ / "corpus_records")[0]
    assert not _fails(request, "records", record)
    monkeypatch.setattr("stratego.records.read_record", lambda *a, **k: 1 // 0)  # a bug in the reader
    assert _fails(request, "records", record)


def test_state_regressions_match_the_layout():
    """The hand-made state inputs are whole GameStates of this build; a layout change
    leaves them short, and fuzz_state would skip them silently."""
    import stratego

    for path in _inputs(FUZZ / "regressions" / "state"):
        assert path.stat().st_size == stratego.STATE_BYTES, (
            f"{path.name} has {path.stat().st_size} bytes, a GameState {stratego.STATE_BYTES}: "
            f"rerun csrc/fuzz/make_regressions.py"
        )


def test_open_findings_have_inputs():
    """Every entry of OPEN names an input that exists."""
    for key in OPEN:
        assert (FUZZ / "regressions" / key).is_file(), key
