"""Perft: move counts after 1, 2 and 3 plies from fixed positions, against numbers in
tests/data/perft.json computed by an independent reference mover (reference_mover.py,
written from docs/rules.md alone)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import stratego
from stratego.notation import format_move

import reference_mover as ref

POSITIONS = json.loads((Path(__file__).parent / "data" / "perft.json").read_text())


@pytest.mark.parametrize("pos", POSITIONS, ids=lambda p: p["name"])
def test_perft_counts(pos):
    game = stratego.Game.from_field(pos["field"], to_move=pos["to_move"], variant="gravon")
    assert [game.perft(d) for d in (1, 2, 3)] == pos["counts"]


@pytest.mark.parametrize("pos", POSITIONS, ids=lambda p: p["name"])
def test_legal_moves_match_reference(pos):
    """Same move set, not only the same count, at the root and after each first move."""
    game = stratego.Game.from_field(pos["field"], to_move=pos["to_move"], variant="gravon")
    expected = sorted(format_move(s, d) for s, d in ref.legal_moves(pos["field"], pos["to_move"]))
    if game.done:
        assert expected == [] or not game.legal_moves()
        return
    assert sorted(game.legal_moves()) == expected
    for move in expected:
        src, dst = stratego.parse_move(move)
        child_field, ended = ref.apply(pos["field"], pos["to_move"], (src, dst))
        child = stratego.Game.from_field(pos["field"], to_move=pos["to_move"], variant="gravon")
        child.play(move)
        assert child.field == child_field
        if ended:
            assert child.done and child.end_reason in ("flag_captured", "no_movable_pieces")
        else:
            stuck = not ref.legal_moves(child_field, 1 - pos["to_move"])
            assert child.done == stuck
            if stuck:
                assert child.end_reason in ("no_legal_move", "neither_can_move")
