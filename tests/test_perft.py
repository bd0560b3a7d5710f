"""Perft: move counts after 1, 2 and 3 plies from fixed positions, against numbers in
tests/data/perft.json computed by an independent reference mover (reference_mover.py,
written from docs/rules.md alone)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import stratego
from stratego.notation import PASS, format_move, format_rescue

import reference_mover as ref

POSITIONS = json.loads((Path(__file__).parent / "data" / "perft.json").read_text())
CONFIGS = Path(__file__).resolve().parents[1] / "configs"


def engine_game(pos) -> stratego.Game:
    """The engine's game at the entry's position: its field, then its prefix played."""
    game = stratego.Game.from_field(pos["field"], to_move=pos["to_move"], variant=pos["variant"])
    for text in pos["prefix"]:
        game.play(text)
    return game


def reference_state(pos):
    variant = ref.variant_from_toml(CONFIGS / f"{pos['variant']}.toml")
    return ref.state_after(pos["field"], pos["to_move"], pos["prefix"], variant), variant


def action_text(action) -> str:
    if action[0] == "move":
        return format_move(action[1], action[2])
    if action[0] == "rescue":
        return format_rescue(action[1], action[2])
    return PASS


def test_every_variant_whose_rules_change_the_moves_has_positions():
    covered = {pos["variant"] for pos in POSITIONS}
    for path in sorted(CONFIGS.glob("*.toml")):
        variant = ref.variant_from_toml(path)
        if variant != ref.CLASSIC:
            assert path.stem in covered, f"no perft position plays {path.stem}"


@pytest.mark.parametrize("pos", POSITIONS, ids=lambda p: p["name"])
def test_perft_counts(pos):
    game = engine_game(pos)
    assert [game.perft(d) for d in (1, 2, 3)] == pos["counts"]


@pytest.mark.parametrize("pos", POSITIONS, ids=lambda p: p["name"])
def test_legal_moves_match_reference(pos):
    """Same action set, not only the same count, at the root and after each first action."""
    game = engine_game(pos)
    state, variant = reference_state(pos)
    expected = sorted(action_text(a) for a in ref.actions(state, variant))
    if game.done:
        assert expected == [] or not game.legal_moves()
        return
    assert sorted(game.legal_moves()) == expected
    for action in ref.actions(state, variant):
        child_state = ref.play(state, action, variant)
        child = engine_game(pos)
        child.play(action_text(action))
        assert child.field == child_state.field
        assert child.rescue_pending == (child_state.rescuer is not None)
        if child_state.ended:
            assert child.done and child.end_reason in ("flag_captured", "no_movable_pieces")
        elif child_state.rescuer is None:
            stuck = not ref.actions(child_state, variant)
            assert child.done == stuck
            if stuck:
                assert child.end_reason in ("no_legal_move", "neither_can_move")
