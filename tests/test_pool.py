"""The engine's thread pool gives up helpers that do not pay (csrc/pool.h): the rule on
made-up timings (each loop's pace both ways, the faster taken, the other tried now and
then), and a real loop whose helper is held up as a descheduled thread is, which then
runs on the caller alone but for the probes.
tests/c/pool_main.c, built with the C compiler on PATH, under ASan and UBSan where the
compiler has them (tests/cbuild.py caches it)."""
from __future__ import annotations

from pathlib import Path

import pytest

from cbuild import build_checked, run_checked

TESTS_C = Path(__file__).resolve().parent / "c"


@pytest.mark.deep  # a C program under sanitizers
def test_pool_runs_alone_after_helpers_that_did_not_pay():
    program = build_checked("pool", {"pool_main": [TESTS_C / "pool_main.c"]})["pool_main"]
    done = run_checked(program)
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
