"""The engine's thread pool gives up helpers that do not pay (csrc/pool.h): the rule on
made-up timings (each loop's pace both ways, the faster taken, the other tried now and
then), and a real loop whose helper is held up as a descheduled thread is, which then
runs on the caller alone but for the probes.
tests/c/pool_main.c, built with the C compiler on PATH, under ASan and UBSan where the
compiler has them (tests/cbuild.py caches it)."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cbuild import SANITIZE, build, clean_env, compiler, works

TESTS_C = Path(__file__).resolve().parent / "c"


def test_pool_runs_alone_after_helpers_that_did_not_pay():
    cc = compiler()
    if cc is None:
        pytest.skip("no C compiler found (set CC or put cc/gcc/clang on PATH)")
    flags = ["-std=c11", "-g", "-O1", "-pthread", "-Wall", "-Wextra", "-Wno-missing-field-initializers"]
    if works(cc, SANITIZE):
        flags += SANITIZE
    program = build("pool", cc, flags, {"pool_main": [TESTS_C / "pool_main.c"]})["pool_main"]
    env = {**clean_env(), "ASAN_OPTIONS": "abort_on_error=1:detect_leaks=1",
           "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1"}
    done = subprocess.run([str(program)], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "pool: all checks passed" in done.stdout


def test_pool_loops_counts_the_loops_of_a_threaded_env():
    import stratego
    from stratego import _core

    before = _core.pool_loops()
    assert set(before) == {"parallel", "alone"} and all(isinstance(v, int) for v in before.values())
    env = stratego.VecEnv(1024, num_threads=2, seed=0)
    for _ in range(10):
        env.step(env.sample_actions())
    after = _core.pool_loops()
    env.close()
    # Each step and each sampling is a loop on 2 threads, run one way or the other.
    ran = sum(after.values()) - sum(before.values())
    assert ran >= 20
    one = stratego.VecEnv(1024, num_threads=1, seed=0)
    one.step(one.sample_actions())
    one.close()
    assert _core.pool_loops() == after  # one thread: no loop of the pool at all
