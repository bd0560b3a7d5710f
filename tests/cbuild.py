"""Builds small C programs from csrc/ for the tests, once per content of the sources.

A program is kept in <cache>/<name>-<key>/, where the key hashes the compiler, its
flags and every C source and header under csrc/; a change to any of them builds it
anew, and older builds of the same name are removed. Building costs 10-20 s, which
every test run used to pay.

The cache is STRATEGO_TEST_BUILD_DIR when set, else a folder of the user's cache
(~/.cache/stratego-sim/c-tests/<hash of this checkout's path>/): the tests write nothing
into the checkout, and two checkouts never remove each other's builds.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CSRC = ROOT / "csrc"


def _build_dir() -> Path:
    if os.environ.get("STRATEGO_TEST_BUILD_DIR"):
        return Path(os.environ["STRATEGO_TEST_BUILD_DIR"]).expanduser().resolve()
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "stratego-sim" / "c-tests" / hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]


BUILD = _build_dir()
# The core: the engine and Stratego's layers (csrc/engine, csrc/stratego and its bots/);
# the castle game (csrc/castle) is a program's own source where a test needs it, and the
# binding (csrc/python) is built by setup.py alone.
CORE_LAYERS = ("engine", "stratego", "stratego/bots")
CORE = sorted(p for layer in CORE_LAYERS for p in (CSRC / layer).glob("*.c"))
SANITIZE = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer"]
# ThreadSanitizer: its own build (it cannot be combined with ASan).
TSAN = ["-fsanitize=thread", "-fno-omit-frame-pointer"]


# A test program's flags: the project's warnings, optimised a little, with symbols.
TEST_FLAGS = ["-std=c11", "-g", "-O1", "-pthread", "-Wall", "-Wextra", "-Wno-missing-field-initializers"]
# Under the sanitizers, a report stops the program with a failing exit.
SANITIZER_ENV = {"ASAN_OPTIONS": "abort_on_error=1:detect_leaks=1", "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1"}
# Under TSan the first report stops the program with exit 66 (told apart from a failed check).
TSAN_EXIT = 66
TSAN_ENV = {"TSAN_OPTIONS": f"halt_on_error=1:exitcode={TSAN_EXIT}:second_deadlock_stack=1"}


def clean_env() -> dict[str, str]:
    """The environment without the sanitizer settings that CI's ASan pass gives Python:
    they must not reach the compiler or the programs it builds."""
    return {k: v for k, v in os.environ.items()
            if k not in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS")}


def compiler() -> str | None:
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def works(cc: str, flags: list[str]) -> bool:
    """Whether `cc flags` builds and runs a trivial program here."""
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = Path(tmp, "probe.c"), Path(tmp, "probe")
        src.write_text("#include <stdlib.h>\nint main(void) { void *p = malloc(1); free(p); return 0; }\n")
        try:
            built = subprocess.run([cc, *flags, str(src), "-o", str(exe)], capture_output=True,
                                   env=clean_env(), timeout=120)
            return built.returncode == 0 and subprocess.run(
                [str(exe)], capture_output=True, env=clean_env(), timeout=60).returncode == 0
        except (OSError, subprocess.SubprocessError):
            return False


def _key(cc: str, flags: list[str], programs: dict[str, list[Path]], core: list[Path] = CORE) -> str:
    digest = hashlib.sha256()
    version = subprocess.run([cc, "--version"], capture_output=True, text=True, env=clean_env(), timeout=60)
    digest.update(f"{cc}\n{version.stdout}\n{flags}\n{sorted(programs)}\n{[p.name for p in core]}\n".encode())
    for path in sorted(CSRC.rglob("*.[ch]")):
        digest.update(str(path.relative_to(CSRC)).encode() + b"\0" + path.read_bytes() + b"\0")
    # The programs' own sources and the headers beside them (a test program outside
    # csrc/, such as tests/c/), so that editing them builds anew too.
    own = {p for sources in programs.values() for s in sources if not s.is_relative_to(CSRC)
           for p in [s, *s.parent.glob("*.h")]}
    for path in sorted(own):
        digest.update(str(path).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def build(name: str, cc: str, flags: list[str], programs: dict[str, list[Path]],
          core: list[Path] = CORE) -> dict[str, Path]:
    """Programs linking the core (or the files of csrc/ named by `core`) with their own
    sources ({program: [sources]}), each core file compiled once for all of them.
    Returns {program: path}."""
    out = BUILD / f"{name}-{_key(cc, flags, programs, core)}"
    paths = {prog: out / prog for prog in programs}
    if all(p.is_file() for p in paths.values()):
        return paths
    BUILD.mkdir(parents=True, exist_ok=True)
    # Built in a private folder, then renamed into place whole: a run stopped half-way,
    # or two runs at once, never leave a program that the check above would trust.
    work = Path(tempfile.mkdtemp(prefix=f"tmp-{name}-", dir=BUILD))
    try:
        objects = []
        for source in core:
            obj = work / f"{source.relative_to(CSRC).with_suffix('.o').as_posix().replace('/', '-')}"
            done = subprocess.run([cc, *flags, f"-I{CSRC}", "-c", str(source), "-o", str(obj)],
                                  capture_output=True, text=True, env=clean_env(), timeout=600)
            if done.returncode != 0:
                raise RuntimeError(f"compiling {source.name} ({' '.join(flags)}) failed:\n{done.stderr}")
            objects.append(obj)
        for prog, sources in programs.items():
            done = subprocess.run([cc, *flags, f"-I{CSRC}", *map(str, sources), *map(str, objects), "-lm",
                                   "-o", str(work / prog)], capture_output=True, text=True, env=clean_env(), timeout=600)
            if done.returncode != 0:
                raise RuntimeError(f"building {prog} ({' '.join(flags)}) failed:\n{done.stderr}")
        for obj in objects:
            obj.unlink()
        _publish(work, out, name)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return paths


def _publish(work: Path, out: Path, name: str) -> None:
    """Renames a finished build folder into place whole (a run stopped half-way, or two
    runs at once, never leave a build that the cache check would trust) and removes
    older builds of the same name."""
    try:
        work.rename(out)
    except OSError:  # another run finished first: its build is the same
        pass
    for old in BUILD.glob(f"{name}-*"):
        if old != out:
            shutil.rmtree(old, ignore_errors=True)


def build_extension(module: str, cc: str, sources: list[Path]) -> Path:
    """A Python extension module for the tests (never installed): `sources` compiled
    together with this Python's and NumPy's headers and csrc/ on the include
    path, into <cache>/<module>-<key>/<module><EXT_SUFFIX>, cached like the programs.
    Without sanitizers: the interpreter that loads it is not built with them."""
    import sysconfig

    import numpy

    flags = ["-std=c11", "-O1", "-g", "-fPIC", "-shared", "-pthread", "-Wall", "-Wextra",
             "-Wno-missing-field-initializers", f"-I{sysconfig.get_paths()['include']}",
             f"-I{numpy.get_include()}"]
    out = BUILD / f"{module}-{_key(cc, flags, {module: sources})}"
    path = out / f"{module}{sysconfig.get_config_var('EXT_SUFFIX')}"
    if path.is_file():
        return path
    BUILD.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"tmp-{module}-", dir=BUILD))
    try:
        done = subprocess.run([cc, *flags, f"-I{CSRC}", *map(str, sources), "-o", str(work / path.name)],
                              capture_output=True, text=True, env=clean_env(), timeout=600)
        if done.returncode != 0:
            raise RuntimeError(f"building {module} failed:\n{done.stderr}")
        _publish(work, out, module)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return path


def build_checked(name: str, programs: dict[str, list[Path]], extra_flags: list[str] = ()) -> dict[str, Path]:
    """A test's programs (as build()), with TEST_FLAGS and under ASan and UBSan where the
    compiler has them; the test is skipped where there is no C compiler."""
    import pytest

    cc = compiler()
    if cc is None:
        pytest.skip("no C compiler found (set CC or put cc/gcc/clang on PATH)")
    flags = [*TEST_FLAGS, *extra_flags]
    if works(cc, SANITIZE):
        flags += SANITIZE
    return build(name, cc, flags, programs)


def run_checked(program: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """Runs a program of build_checked, its sanitizers set to fail it on any report;
    `timeout` is scaled by STRATEGO_TEST_TIMEOUT_SCALE (tests/patience.py)."""
    from patience import patience

    return subprocess.run([str(program), *args], capture_output=True, text=True,
                          env={**clean_env(), **SANITIZER_ENV}, timeout=patience(timeout))


def build_tsan(name: str, programs: dict[str, list[Path]], extra_flags: list[str] = (),
               core: list[Path] = CORE) -> dict[str, Path] | None:
    """A test's programs (as build()) with TEST_FLAGS under ThreadSanitizer, or None where
    the compiler cannot build or run a TSan program here (no compiler, no libtsan)."""
    cc = compiler()
    if cc is None or not works(cc, ["-pthread", *TSAN]):
        return None
    return build(name, cc, [*TEST_FLAGS, *TSAN, *extra_flags], programs, core)


def run_tsan(program: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """Runs a program of build_tsan; any report stops it with exit TSAN_EXIT; `timeout`
    is scaled as run_checked's."""
    from patience import patience

    return subprocess.run([str(program), *args], capture_output=True, text=True,
                          env={**clean_env(), **TSAN_ENV}, timeout=patience(timeout))
