"""Replays the fuzzers' corpora and the inputs of past findings (csrc/fuzz/README.md).

The C targets are compiled with the C compiler on PATH (no clang or libFuzzer needed:
csrc/fuzz/replay_main.c feeds each file to LLVMFuzzerTestOneInput), under ASan and
UBSan when the compiler supports them; every input must run without a failed check or
a sanitizer report. The record inputs go through the Python fuzz property (read_record
returns a GameRecord or raises RecordError; replaying a record raises only ValueError).

An input under regressions/ whose bug is not fixed yet is listed in OPEN below: it is
expected to fail (strict xfail), so fixing the bug turns it into a failure that asks to
move it off the list.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CSRC = ROOT / "csrc"
FUZZ = CSRC / "fuzz"
# The core: every csrc/*.c but the Python binding and the main program.
CORE = sorted(p.stem for p in CSRC.glob("*.c") if p.stem not in ("binding", "main"))
C_TARGETS = ["engine", "field", "state"]

# Known findings whose fix has not landed: "target/file name" -> the bug.
OPEN: dict[str, str] = {}

# Sanitizer runtime settings for the replay programs; the environment's own (CI's ASan
# pass preloads the runtimes into Python) must not reach the compiler or them.
_SAN_ENV = {
    "ASAN_OPTIONS": "abort_on_error=1:detect_leaks=1",
    "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
}


def _clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS")}
    env.update(_SAN_ENV)
    return env


def _compiler() -> str | None:
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def _works(cc: str, flags: list[str], tmp: Path) -> bool:
    """Whether `cc flags` builds and runs a trivial program here."""
    src = tmp / "probe.c"
    exe = tmp / "probe"
    src.write_text("#include <stdlib.h>\nint main(void) { void *p = malloc(1); free(p); return 0; }\n")
    env = _clean_env()
    try:
        built = subprocess.run([cc, *flags, str(src), "-o", str(exe)], capture_output=True, env=env, timeout=120)
        return built.returncode == 0 and subprocess.run([str(exe)], capture_output=True, env=env, timeout=60).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def _cache_key(cc: str, flags: list[str]) -> str:
    """What the replay programs are built from: the compiler, its flags and every C
    source and header they read. A change to any of them builds them anew."""
    digest = hashlib.sha256()
    version = subprocess.run([cc, "--version"], capture_output=True, text=True, env=_clean_env(), timeout=60)
    digest.update(f"{cc}\n{version.stdout}\n{flags}\n".encode())
    for path in sorted([*CSRC.glob("*.[ch]"), *FUZZ.glob("*.[ch]")]):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@pytest.fixture(scope="module")
def replay_programs(tmp_path_factory) -> dict[str, Path]:
    """The three replay programs, built with sanitizers once per content of the sources
    (kept in build/fuzz-replay/<key>/, beside the extension's build folders): a rebuild
    costs about 20 s, which every test run used to pay."""
    cc = _compiler()
    if cc is None:
        pytest.skip("no C compiler found (set CC or put cc/gcc/clang on PATH)")
    tmp = tmp_path_factory.mktemp("fuzz_replay")
    flags = ["-std=c11", "-g", "-O1", f"-I{CSRC}"]
    if _works(cc, ["-fopenmp"], tmp):
        flags.append("-fopenmp")
    sanitize = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer"]
    if _works(cc, sanitize, tmp):
        flags += sanitize
    out = ROOT / "build" / "fuzz-replay" / _cache_key(cc, flags)
    programs = {target: out / f"replay_{target}" for target in C_TARGETS}
    if all(exe.is_file() for exe in programs.values()):
        return programs
    # Built in a private folder, then renamed into place whole: a run stopped half-way,
    # or two runs at once, never leave a program that the check above would trust.
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="build-", dir=out.parent))
    objects = []
    for source in [*(CSRC / f"{c}.c" for c in CORE), FUZZ / "replay_main.c"]:
        obj = work / f"{source.stem}.o"
        built = subprocess.run([cc, *flags, "-c", str(source), "-o", str(obj)],
                               capture_output=True, text=True, env=_clean_env(), timeout=600)
        assert built.returncode == 0, f"compiling {source.name} for the replay programs failed:\n{built.stderr}"
        objects.append(obj)
    for target in C_TARGETS:
        exe = work / f"replay_{target}"
        built = subprocess.run([cc, *flags, str(FUZZ / f"fuzz_{target}.c"), *map(str, objects), "-lm", "-o", str(exe)],
                               capture_output=True, text=True, env=_clean_env(), timeout=600)
        assert built.returncode == 0, f"building the {target} replay program failed:\n{built.stderr}"
    for obj in objects:
        obj.unlink()
    try:
        work.rename(out)
    except OSError:  # another run finished first: its programs are the same
        shutil.rmtree(work, ignore_errors=True)
    # Programs of older sources are never used again.
    for old in out.parent.iterdir():
        if old != out and not old.name.startswith("build-"):
            shutil.rmtree(old, ignore_errors=True)
    return programs


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


@pytest.mark.parametrize("target", C_TARGETS)
def test_c_corpus(replay_programs, target):
    files = _inputs(FUZZ / f"corpus_{target}")
    assert files, f"the seed corpus csrc/fuzz/corpus_{target} is empty"
    _run(replay_programs[target], files)


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


@pytest.mark.parametrize("key", sorted(OPEN))
def test_open_finding(request, key):
    """A finding not fixed yet: its input must still fail (strict xfail)."""
    request.applymarker(pytest.mark.xfail(strict=True, reason=OPEN[key]))
    target = key.split("/", 1)[0]
    path = FUZZ / "regressions" / key
    if target == "records":
        _records_fuzz().check_one(path.read_bytes())
    else:
        _run(request.getfixturevalue("replay_programs")[target], [path])


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
