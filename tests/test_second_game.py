"""The seam for a second game (csrc/vec.h): tests/c/tiny_game.h is a game of three
seats with a skipped seat, hidden values and a 144-cell board, written against vec.h
alone, and tests/c/tiny_main.c runs it through the same batch loop, autoreset modes
and output buffers as Stratego, on the engine's thread pool. Built with the C compiler
on PATH, under ASan and UBSan where the compiler has them (tests/cbuild.py caches it)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from cbuild import SANITIZE, build, clean_env, compiler, works

TESTS_C = Path(__file__).resolve().parent / "c"


@pytest.fixture(scope="module")
def tiny_report() -> str:
    cc = compiler()
    if cc is None:
        pytest.skip("no C compiler found (set CC or put cc/gcc/clang on PATH)")
    flags = ["-std=c11", "-g", "-O1", "-pthread", "-Wall", "-Wextra", "-Wno-missing-field-initializers"]
    if works(cc, SANITIZE):
        flags += SANITIZE
    program = build("second-game", cc, flags, {"tiny_game": [TESTS_C / "tiny_main.c"]})["tiny_game"]
    env = {**clean_env(), "ASAN_OPTIONS": "abort_on_error=1:detect_leaks=1",
           "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1"}
    done = subprocess.run([str(program)], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.parametrize("mode", ["same_step", "next_step", "disabled"])
def test_second_game_runs_through_the_generic_loop(tiny_report, mode):
    """Every autoreset mode: outputs agree with the game's rules replayed on a copy at
    every step, and 1, 2 and 3 threads give the same outputs, states and totals."""
    line = next(l for l in tiny_report.splitlines() if l.startswith(mode + ":"))
    assert "threads 1/2/3 identical" in line
    finished, w0, w1, w2, draws = map(int, re.search(
        r"finished (\d+) \(wins (\d+)/(\d+)/(\d+), draws (\d+)", line).groups())
    assert finished == w0 + w1 + w2 + draws and w0 + w1 + w2 > 0 and draws > 0
    # The skipped seat plays, but never in the rounds it sits out; cells past 127 are used.
    assert re.search(r"seat 1 acted [1-9]\d* times, never in an odd round", line)
    assert re.search(r"; [1-9]\d* actions from cells >= 128", line)


def test_second_game_checks_hold(tiny_report):
    """Hidden values stay out of other seats' views; a restored batch goes on alike."""
    assert tiny_report.splitlines()[-1] == "ok"
