"""Constants and names belong to the C core; `_core` exports them and Python reads them
(lakes, end reasons, learner colours, cell codes, the number of games)."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import stratego
from stratego import _core, compact, records
from stratego.render import render_cells
from stratego.vec_env import LEARNER_COLORS, MAX_ENVS
from stratego.vec_shell import layout_bytes_per_game

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference_mover  # noqa: E402  (an independent oracle: it keeps its own lakes)


def test_lakes_are_the_engines():
    assert _core.LAKE_SQUARES == tuple(sorted(reference_mover.LAKES))
    assert records.LAKE_SQUARES == frozenset(_core.LAKE_SQUARES)
    field = stratego.Game(seed=0).field
    assert [sq for sq, c in enumerate(field) if c == "_"] == list(_core.LAKE_SQUARES)
    text = render_cells(stratego.Game(seed=0)._state.cells())
    assert text.count("~~") == len(_core.LAKE_SQUARES)


def test_a_record_with_a_lake_missing_names_every_lake():
    with pytest.raises(records.RecordError, match="expected lakes '_' exactly on C5, D5, G5, H5, C6, D6, G6, H6$"):
        records.check_field("A" * 100, "line 3: field")


def test_end_reason_names_are_one_table():
    assert _core.END_REASONS[0] == "none"
    game = stratego.Game(seed=1)
    assert game._state.status()[3] is None and game.end_reason is None
    game._play_or_forfeit(-1)
    assert game.end_reason == "illegal_action" == _core.END_REASONS[7]


def test_learner_colours_come_from_the_core():
    assert LEARNER_COLORS == {name: mode for mode, name in enumerate(_core.LEARNER_COLORS)}
    assert tuple(LEARNER_COLORS) == ("red", "blue", "random", "alternate")


@pytest.mark.parametrize("bad,kind,message", [
    (1.5, TypeError, rf"^num_envs must be an int in \[1, {MAX_ENVS}\], got float$"),
    (True, TypeError, rf"^num_envs must be an int in \[1, {MAX_ENVS}\], got bool$"),
    (0, ValueError, rf"^num_envs must be an int in \[1, {MAX_ENVS}\], got 0$"),
    (MAX_ENVS + 1, ValueError, rf"^num_envs must be an int in \[1, {MAX_ENVS}\], got {MAX_ENVS + 1}$"),
])
def test_num_envs_is_checked_once_in_c(bad, kind, message):
    with pytest.raises(kind, match=message):
        _core.check_num_envs(bad)
    with pytest.raises(kind, match=message):
        stratego.VecEnv(bad)
    assert _core.check_num_envs(np.int64(3)) == 3


def test_memory_estimate_counts_the_batch_and_the_rows():
    assert _core.BATCH_GAME_BYTES >= _core.STATE_BYTES + 8
    # Without observations: the mask, the eight rows (2 rewards, reward, terminated,
    # truncated, to_play, final_winner, final_reason, final_plies: 21 bytes), the batch's
    # own bytes and the shell's six buffers (13 bytes); tests/test_batch_layout.py has more.
    layout = _core.Batch.layout(3, stratego.load_variant("classic").rules)
    assert layout["held_bytes"] == 3 * _core.BATCH_GAME_BYTES
    assert layout_bytes_per_game(layout, 3) == _core.BATCH_GAME_BYTES + 1800 + 21 + 13


def test_compact_sizes_come_from_the_core():
    assert compact.PIECE_TYPES == len(_core.PIECE_NAMES) == 12
    assert compact.SQUARES == _core.SQ_NB == 100
