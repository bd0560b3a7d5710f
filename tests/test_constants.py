"""Constants and names belong to the C core; `_core` exports them and Python reads them
(lakes, end reasons, learner colours, cell codes, the number of games)."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import stratego
from stratego import _core, compact, records
from stratego.viewing.render import render_cells
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


def test_a_records_field_is_read_as_the_engine_reads_it():
    # One reader of Gravon fields (csrc/stratego/board.c): a record's check says what
    # Game.from_field says, the bad square named the same way.
    for field in ("A" * 100, "A" * 99, "Z" + stratego.Game(seed=0).field[1:]):
        with pytest.raises(ValueError) as engine:
            stratego.Game.from_field(field)
        with pytest.raises(records.RecordError) as record:
            records.check_field(field, "line 3: field")
        assert str(record.value) == "line 3: field: " + str(engine.value).removeprefix("bad field: ")


def test_the_setup_zone_is_the_engines():
    # The squares a deploying side may place on are the zone _core.setup_zone gives (the
    # OpenSpiel game's chance nodes), for every depth of zone.
    from stratego.actions import decode_action
    for name, rows in (("barrage", 1), ("barrage", 2), ("classic", 4)):
        variant = stratego.load_variant(name, setup_rows=rows)
        for player in (0, 1):
            game = stratego.Game(variant, seed=0, setup="agent")
            while game.to_move != player:
                game.play(game.legal_actions()[0])
            squares = {decode_action(a, player)[2] for a in game.legal_actions()}
            assert _core.setup_zone(variant.rules, player) == tuple(sorted(squares))
            assert len(squares) == 10 * rows


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
    # Without observations: the mask, the eight rows (2 rewards, reward, terminated,
    # truncated, to_play, final_winner, final_reason, final_plies: 21 bytes), the batch's
    # own bytes (a state, a sampler stream, a mask-ahead flag) and the shell's six buffers
    # (13 bytes); tests/test_batch_layout.py has more.
    layout = _core.Batch.layout(3, stratego.load_variant("classic").rules)
    held = _core.STATE_BYTES + 8 + 1
    assert layout["held_bytes"] == 3 * held
    assert layout_bytes_per_game(layout, 3) == held + 1800 + 21 + 13


def test_compact_sizes_come_from_the_core():
    assert compact.PIECE_TYPES == len(_core.PIECE_NAMES) == 12
    assert compact.SQUARES == _core.SQ_NB == 100


def test_the_codes_layout_is_the_engines():
    # compact.py reads the codes' lengths from C (observe_codes.h), for every history_k.
    from stratego import compact
    assert compact.DEPLOY_BYTES == _core.CODES_DEPLOY_NB == len(_core.PIECE_NAMES) + 1
    for k in (0, 1, 4, _core.HISTORY_NB):
        for deploy in (False, True):
            length = _core.observation_shape(k, False, True, False, deploy)[0]
            assert compact.codes_bytes(k, deploy) == length
            assert compact._history_k(length) == (k, deploy)
    with pytest.raises(ValueError, match="history_k must be an int in"):
        compact.codes_bytes(_core.HISTORY_NB + 1)
