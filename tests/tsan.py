"""The C programs that run threads, built with ThreadSanitizer and run; any report fails.

`python tests/tsan.py` is the race-detector pass of .ci/run (docs/testing.md): it builds
(tests/cbuild.py, cached under build/c-tests/) the pool's stress program, both games'
batches from several callers, the pool's rule test, the second game's seam and the
engine's own program, and runs each with TSAN_OPTIONS set so that the first report
stops it with exit 66. Exits 0 when every run passed its own checks with no report; 1
otherwise, or where the compiler cannot build a TSan program (CI must not pass a race
detector that did not run).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cbuild import CSRC, TSAN_EXIT, build_tsan, run_tsan  # noqa: E402

TESTS_C = HERE / "c"
PROGRAMS = {
    "pool_stress": [TESTS_C / "pool_stress.c"],
    "tsan_games": [TESTS_C / "tsan_games.c", *sorted((CSRC / "castle").glob("*.c"))],
    "pool_main": [TESTS_C / "pool_main.c"],
    "tiny_game": [TESTS_C / "tiny_main.c"],
    "stratego_main": [CSRC / "main.c"],
}
# (program, arguments, what it covers). What the pass costs, measured: docs/testing.md.
RUNS = [
    ("pool_stress", ["3000"], "the pool: 4 callers, loops of varied sizes and thread counts, each game once"),
    ("pool_stress", ["race"], "a planted race, which must be reported (the detector is armed)"),
    ("tsan_games", ["1"], "both games' batches from 4 callers, recording and sampling worlds on 3 threads"),
    ("pool_main", [], "the pool's rule for helpers that do not pay, each caller's own paces, only a loop's helpers woken"),
    ("tiny_game", [], "the second game's seam on 1, 2 and 3 threads"),
    ("stratego_main", ["bench", "1024", "40", "4", "1", "0", "1"], "classic steps, planes and recording, 4 threads"),
    ("stratego_main", ["bench", "1024", "40", "3", "2"], "classic steps, codes and packed masks, 3 threads"),
    ("stratego_main", ["records", "256", "300", "3"], "records replayed to their results, 3 threads"),
]


def build() -> dict[str, Path] | None:
    return build_tsan("tsan", PROGRAMS)


def main() -> int:
    start = time.monotonic()
    programs = build()
    if programs is None:
        print("tsan: the C compiler cannot build and run a ThreadSanitizer program here "
              "(gcc with libtsan, or clang)", file=sys.stderr)
        return 1
    print(f"tsan: built in {time.monotonic() - start:.0f} s")
    failed = 0
    for name, args, what in RUNS:
        t0 = time.monotonic()
        done = run_tsan(programs[name], *args)
        planted = args == ["race"]
        reported = done.returncode == TSAN_EXIT and "WARNING: ThreadSanitizer" in done.stderr
        ok = reported if planted else done.returncode == 0 and "ThreadSanitizer" not in done.stderr
        print(f"tsan: {'ok  ' if ok else 'FAIL'} {name} {' '.join(args)} ({what}): exit {done.returncode}, "
              f"{time.monotonic() - t0:.1f} s")
        if not ok:
            failed += 1
            print(done.stdout[-3000:] + done.stderr[-8000:], file=sys.stderr)
    print(f"tsan: all runs took {time.monotonic() - start:.0f} s")
    print(f"tsan: {len(RUNS) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
