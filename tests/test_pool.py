"""The engine's thread pool gives up helpers that do not pay (csrc/engine/pool.h): the rule on
made-up timings (each loop's pace both ways, the faster taken, the other tried now and
then), and a real loop whose helper is held up as a descheduled thread is, which then
runs on the caller alone but for the probes; each caller (batch) is judged by its own
paces; a loop wakes only the helpers it counts on; a loop larger than the claim word
holds is refused.
tests/c/pool_main.c, built with the C compiler on PATH, under ASan and UBSan where the
compiler has them (tests/cbuild.py caches it). And the pool alone under ThreadSanitizer:
tests/c/pool_stress.c, several callers at once (tests/tsan.py runs it longer in .ci/run,
with the games' threaded programs)."""
from __future__ import annotations

from pathlib import Path

import pytest

from cbuild import CSRC, TSAN_EXIT, build_checked, build_tsan, run_checked, run_tsan

TESTS_C = Path(__file__).resolve().parent / "c"


@pytest.fixture(scope="module")
def pool_stress() -> Path:
    """tests/c/pool_stress.c with csrc/engine/pool.c alone under TSan (a few seconds to build)."""
    programs = build_tsan("pool-tsan", {"pool_stress": [TESTS_C / "pool_stress.c"]}, core=[CSRC / "engine" / "pool.c"])
    if programs is None:
        pytest.skip("the C compiler cannot build a ThreadSanitizer program here")
    return programs["pool_stress"]


@pytest.fixture(scope="module")
def pool_main() -> Path:
    return build_checked("pool", {"pool_main": [TESTS_C / "pool_main.c"]})["pool_main"]


# pool_main's groups of checks (tests/c/pool_main.c), each with what it shows:
POOL_MAIN_GROUPS = {
    # A loop whose helper is held as a descheduled thread is runs alone but for the probes.
    "runs_alone_after_helpers_that_did_not_pay": "rule",
    # Two callers of the same task, size and threads: the one whose helpers are held runs
    # alone, the one whose helpers pay keeps them (one table for the process made both alone).
    "judges_each_batch_by_its_own_paces": "paces",
    # A batch's paces judged in the parent are dropped in a fork()ed child: its first loop
    # is the first measured there.
    "forked_child_measures_its_own_paces": "fork",
    # Three workers asleep, loops on 2 threads: one thread wakes for them (a broadcast
    # woke all three every loop).
    "wakes_only_the_helpers_a_loop_needs": "wake",
}


@pytest.mark.deep  # a C program under sanitizers
@pytest.mark.parametrize("group", list(POOL_MAIN_GROUPS.values()), ids=list(POOL_MAIN_GROUPS))
def test_pool(pool_main, group):
    done = run_checked(pool_main, group)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "pool: all checks passed" in done.stdout


@pytest.mark.deep  # a C program under sanitizers
def test_pool_refuses_a_loop_larger_than_its_claim_word(pool_main):
    # The claim word's 32-bit index field, less its closed mark, bounds a loop: one game
    # more is a caller's bug, stopped with a message before any game runs (the largest
    # loop itself runs whole: pool_main's other modes check it first).
    done = run_checked(pool_main, "too-many", timeout=60)
    assert done.returncode != 0 and "ran" not in done.stdout, done.stdout + done.stderr
    assert ("pool_run: a loop of 4294967295 games is more than the pool hands out "
            "(POOL_MAX_GAMES = 4294967294)") in done.stderr


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


@pytest.mark.deep  # a C program under ThreadSanitizer (also .ci/run's TSan pass)
def test_pool_from_several_callers_under_thread_sanitizer(pool_stress):
    # Loops of 0 to 5,000 games on 1 to 12 threads from 4 callers at once, workers leaving
    # after 2 ms idle and starting again: every game of every loop runs once, no report.
    done = run_tsan(pool_stress, "300")
    assert done.returncode == 0, done.stdout + done.stderr[-6000:]
    assert done.stdout.splitlines()[-1] == "ok"
    assert "ThreadSanitizer" not in done.stderr


@pytest.mark.deep  # a C program under ThreadSanitizer (also .ci/run's TSan pass)
def test_thread_sanitizer_reports_a_planted_race(pool_stress):
    # The detector is armed: a task that races on purpose is reported and fails the run.
    done = run_tsan(pool_stress, "race")
    assert done.returncode == TSAN_EXIT, done.stdout + done.stderr[-3000:]
    assert "WARNING: ThreadSanitizer: data race" in done.stderr
