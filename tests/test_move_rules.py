"""RULE_SETTINGS' `moves` column (csrc/stratego/rules.h) is what decides which settings
the square-set fast path leaves to the walk (issue 27, item 4): tests/c/move_rules_main.c
plays random games with each setting alone and, at every position of the move phase,
holds the fast path's masks to the walk's, each action's check to the walk's mask, and
counts where a setting reached a piece, turned the fast path off, or changed the moves.
A setting the column marks must change the moves and be left to the walk; one it does
not mark must change no move and leave the fast path on."""
from __future__ import annotations

from pathlib import Path

import pytest

from cbuild import TEST_FLAGS, build, clean_env, compiler
from stratego import _core

TESTS_C = Path(__file__).resolve().parent / "c"


@pytest.fixture(scope="module")
def report() -> dict[str, dict[str, object]]:
    import subprocess

    cc = compiler()
    if cc is None:
        pytest.skip("no C compiler found (set CC or put cc/gcc/clang on PATH)")
    program = build("move-rules", cc, TEST_FLAGS, {"move_rules": [TESTS_C / "move_rules_main.c"]})["move_rules"]
    done = subprocess.run([str(program), "60"], capture_output=True, text=True, env=clean_env(), timeout=600)
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "ok", done.stdout + done.stderr
    rows = {}
    for line in done.stdout.splitlines()[:-1]:
        name, moves, *counts = line.split()
        rows[name] = {"moves": moves, **{k: int(v) for k, v in (c.split("=") for c in counts)}}
    return rows


def test_the_program_reads_the_exported_column(report):
    assert {name: row["moves"] for name, row in report.items()} == {
        name: moves for name, _type, _lo, _hi, _default, moves, _doc in _core.RULE_SETTINGS}


@pytest.mark.parametrize("name", [row[0] for row in _core.RULE_SETTINGS])
def test_a_setting_changes_the_moves_exactly_when_the_column_marks_it(report, name):
    row = report[name]
    assert row["positions"] > 1000
    if row["moves"] == "board":
        # the fast path stays on for it, and rightly: it changes no move
        assert (row["reached"], row["fast_off"], row["changed"]) == (0, 0, 0), row
    else:
        # the fast path leaves the pieces it reaches to the walk, and it does change moves
        assert row["reached"] > 0 and row["changed"] > 0, row
        assert row["fast_off"] <= row["reached"]


def test_captains_and_chases_turn_the_fast_path_off_the_two_square_rule_one_piece(report):
    """The reach each marked setting gives (move_rules.h): every piece for two-square
    Captains and while a player chases; the one piece whose run reached the limit."""
    assert report["captain_two_squares"]["fast_off"] == report["captain_two_squares"]["positions"]
    assert 0 < report["chasing_rule"]["fast_off"] == report["chasing_rule"]["reached"]
    assert report["two_square_limit"]["fast_off"] == 0 < report["two_square_limit"]["reached"]
