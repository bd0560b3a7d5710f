"""The private types _core.GameState and _core.Batch never reach undefined behaviour,
whatever the call sequence (issue 13, item 7): one made by __new__ alone, or whose
__init__ was refused, refuses every method clearly; a refused re-init keeps the old,
valid object; a closed Batch refuses everything but close()."""
from __future__ import annotations

import numpy as np
import pytest

import stratego
from stratego import _core

CLASSIC = stratego.load_variant("classic")
FIELD = stratego.Game(seed=1).field


def gamestate_calls():
    """Every GameState method, with valid arguments for a classic game."""
    mask = np.zeros(CLASSIC.num_actions, dtype=np.bool_)
    obs = np.zeros((len(stratego.channel_names(4)), 10, 10), dtype=np.uint8)
    full = np.zeros((_core.FULL_OBS_CHANNELS, 10, 10), dtype=np.uint8)
    save = stratego.Game(seed=1)._state.to_bytes()
    return {
        "reset": lambda s: s.reset(1),
        "set_field": lambda s: s.set_field(FIELD, 0),
        "field": lambda s: s.field(),
        "legal_actions": lambda s: s.legal_actions(),
        "action_mask": lambda s: s.action_mask(mask),
        "check_move": lambda s: s.check_move(30, 40),
        "check_place": lambda s: s.check_place(11, 0),
        "play_move": lambda s: s.play_move(30, 40),
        "status": lambda s: s.status(),
        "check_action": lambda s: s.check_action(0),
        "play_action": lambda s: s.play_action(0),
        "play_or_forfeit": lambda s: s.play_or_forfeit(0),
        "concede": lambda s: s.concede("resigned", 0),
        "captured": lambda s: s.captured(0),
        "cells": lambda s: s.cells(),
        "view_cells": lambda s: s.view_cells(0),
        "perft": lambda s: s.perft(1),
        "copy": lambda s: s.copy(),
        "observe": lambda s: s.observe(0, obs, 4, False),
        "observe_full": lambda s: s.observe_full(0, full),
        "to_bytes": lambda s: s.to_bytes(),
        "from_bytes": lambda s: s.from_bytes(save),
        "bot_action": lambda s: s.bot_action("random"),
        "seed_bot": lambda s: s.seed_bot(1),
        "bot_stream": lambda s: s.bot_stream(),
        "set_bot_stream": lambda s: s.set_bot_stream(5),
        "sample_worlds": lambda s: s.sample_worlds(0, 2, 1),
        "piece_types": lambda s: s.piece_types(0),
    }


def test_every_gamestate_method_is_listed():
    public = {name for name in dir(_core.GameState) if not name.startswith("_")}
    assert public == set(gamestate_calls())


@pytest.mark.parametrize("name", sorted(gamestate_calls()))
def test_uninitialised_gamestate_refuses_every_method(name):
    state = _core.GameState.__new__(_core.GameState)
    with pytest.raises(RuntimeError, match="never initialised"):
        gamestate_calls()[name](state)


@pytest.mark.parametrize("name", sorted(gamestate_calls()))
def test_gamestate_whose_first_init_was_refused_refuses_every_method(name):
    state = _core.GameState.__new__(_core.GameState)
    with pytest.raises(ValueError):
        state.__init__(dict(CLASSIC.rules, piece_counts=[40] * 11 + [1]))  # 441 pieces
    with pytest.raises(RuntimeError, match="never initialised"):
        gamestate_calls()[name](state)


def test_refused_reinit_keeps_the_old_valid_state():
    """The audit: a re-init refused for 441 pieces left those rules behind, and reset()
    then wrote out of bounds. Now nothing is stored until the rules are valid."""
    game = stratego.Game(seed=3)
    state = game._state
    before = (state.field(), state.status(), state.legal_actions())
    for bad in (dict(CLASSIC.rules, piece_counts=[40] * 11 + [1]),
                dict(CLASSIC.rules, setup_rows=9), {"piece_counts": [1] * 12}, "not a dict"):
        with pytest.raises((ValueError, TypeError, KeyError)):
            state.__init__(bad)
        assert (state.field(), state.status(), state.legal_actions()) == before
    for name, call in gamestate_calls().items():
        try:
            call(state.copy())  # every method still works on the kept state
        except ValueError as exc:  # ...and a fixed move may be illegal in this position
            assert name.startswith("play_"), (name, exc)
    state.reset(5)
    assert state.field().count("A") < 100 - 8


def batch_calls():
    """Every Batch method and attribute that reads or writes the games."""
    return {
        "reset": lambda b: b.reset(0),
        "step": lambda b: b.step(np.zeros(1, dtype=np.int64), 0),
        "sample_actions": lambda b: b.sample_actions(np.zeros(1, dtype=np.int64)),
        "bot_actions": lambda b: b.bot_actions("heuristic", np.zeros(1, dtype=np.int64)),
        "games_over": lambda b: b.games_over(np.zeros(1, dtype=np.bool_)),
        "deploying": lambda b: b.deploying(np.zeros(1, dtype=np.bool_)),
        "stats": lambda b: b.stats(),
        "game": lambda b: b.game(0),
        "save": lambda b: b.save(),
        "restore": lambda b: b.restore(stratego.VecEnv(1, seed=0).save_state()),
        "reset_some": lambda b: b.reset_some(np.ones(1, dtype=np.bool_), None),
        "sample_worlds": lambda b: b.sample_worlds(None, 1, 0, np.zeros((1, 1, _core.GAME_SAVE_BYTES), np.uint8),
                                                   np.zeros(1, np.uint8)),
        "pop_records": lambda b: b.pop_records(),
        "claim": lambda b: b.claim(),
    }


def test_every_batch_method_is_listed():
    public = {name for name in dir(_core.Batch) if not name.startswith("_")}
    # release() ends a claim(): without one it refuses (tests/test_concurrency.py);
    # layout() is a classmethod: it reads no batch (tests/test_batch_layout.py).
    assert public == set(batch_calls()) | {"close", "closed", "num_threads", "records_waiting", "record_capacity",
                                           "release", "layout"}


@pytest.mark.parametrize("name", sorted(batch_calls()))
def test_uninitialised_batch_refuses_every_method(name):
    """The audit: save() of a Batch made with __new__ copied from NULL."""
    batch = _core.Batch.__new__(_core.Batch)
    with pytest.raises(RuntimeError, match="never initialised"):
        batch_calls()[name](batch)
    assert batch.closed is False and batch.num_threads == 0
    with pytest.raises(RuntimeError, match="never initialised"):
        batch.num_threads = 1  # a call like the others (the castle batch's too)
    assert batch.num_threads == 0
    batch.close()
    batch.close()


@pytest.mark.parametrize("name", sorted(batch_calls()))
def test_batch_whose_init_was_refused_refuses_every_method(name):
    env = stratego.VecEnv(2, observations=False)
    batch = _core.Batch.__new__(_core.Batch)
    with pytest.raises(TypeError):
        batch.__init__(2, 1, env.variant.rules, env.action_mask, env.rewards, env.reward,
                       env.terminated, env.truncated, env.to_play, env.final_winner,
                       env.final_reason, env.final_plies.astype(np.int64))
    with pytest.raises(RuntimeError, match="never initialised"):
        batch_calls()[name](batch)


@pytest.mark.parametrize("name", sorted(batch_calls()))
def test_closed_batch_refuses_every_method(name):
    env = stratego.VecEnv(1, seed=0)
    env.close()
    with pytest.raises(RuntimeError, match="closed"):
        batch_calls()[name](env._batch)
    env.close()


def test_batch_init_runs_once():
    env = stratego.VecEnv(1, seed=0, observations=False)
    with pytest.raises(RuntimeError, match="only once"):
        env._batch.__init__(1, 1, env.variant.rules, env.action_mask, env.rewards, env.reward,
                            env.terminated, env.truncated, env.to_play, env.final_winner,
                            env.final_reason, env.final_plies)
    env.step(env.sample_actions())


def test_batch_keeps_its_own_copy_of_the_setup_table():
    """The games draw from the table for as long as they live; a caller who writes the
    array afterwards (bad letters here) changes nothing."""
    from stratego.setups import human_setups

    def make(table):
        env = stratego.VecEnv(8, observations=False, max_plies=4)
        batch = _core.Batch.__new__(_core.Batch)
        batch.__init__(8, 1, env.variant.rules, env.action_mask, env.rewards, env.reward,
                       env.terminated, env.truncated, env.to_play, env.final_winner,
                       env.final_reason, env.final_plies, setups=table)
        return batch

    table = human_setups(CLASSIC).copy()
    mutated, kept = make(table), make(human_setups(CLASSIC))
    table[:] = ord("Z")
    out = np.zeros(8, dtype=np.int64)
    for batch in (mutated, kept):
        batch.reset(4)
        for _ in range(40):  # every game ends at the 4-ply cap and draws new setups
            batch.sample_actions(out)
            batch.step(out, 0)
    assert mutated.stats() == kept.stats() and mutated.stats()["games_finished"] >= 8 * 9
    assert [mutated.game(i).field() for i in range(8)] == [kept.game(i).field() for i in range(8)]


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.__setitem__((2, 5), ord("Z")), r"setup 2: letter 5 is 90, expected 'A'..'M'"),
    # A Marshal (M) where a Scout (D) stood: one Scout too few, and the Scouts come first.
    (lambda t: t.__setitem__((1, int(np.flatnonzero(t[1] == ord("D"))[0])), ord("M")),
     r"setup 1 has 7 pieces of type 2, the variant 8"),
])
def test_setup_table_faults_name_the_row(edit, message):
    """setup_table_check (setup.c) finds the first bad row; the binding words it."""
    from stratego.setups import human_setups

    table = human_setups(CLASSIC)[:4].copy()
    edit(table)
    env = stratego.VecEnv(4, observations=False)
    with pytest.raises(ValueError, match=message):
        _core.Batch(4, 1, env.variant.rules, env.action_mask, env.rewards, env.reward, env.terminated,
                    env.truncated, env.to_play, env.final_winner, env.final_reason, env.final_plies,
                    setups=table)
    with pytest.raises(ValueError, match=message):
        _core.GameState(env.variant.rules).reset(0, table)


def test_setup_table_pieces_outside_the_setup_zone_are_refused():
    """Duel-spinmaster sets up in 3 rows: letters 0..9 (the row nearest the middle) must be
    empty ('A'), in C (setup_table_check), not only in stratego.setups."""
    variant = stratego.load_variant("duel-spinmaster")
    letters = [chr(ord("B") + t) for t, count in enumerate(variant.piece_counts) for _ in range(count)]
    row = np.full(40, ord("A"), np.uint8)
    row[10:10 + len(letters)] = [ord(c) for c in letters]
    good = np.stack([row, row])
    bad = good.copy()
    bad[1, [3, 10]] = bad[1, [10, 3]]  # a piece moved into the fourth row from the back
    env = stratego.VecEnv(2, variant, observations=False)
    _core.GameState(env.variant.rules).reset(0, good)
    message = r"setup 1: letter 3 \('.'\) stands outside the setup zone of 3 rows"
    with pytest.raises(ValueError, match=message):
        _core.GameState(env.variant.rules).reset(0, bad)
    with pytest.raises(ValueError, match=message):
        _core.Batch(2, 1, env.variant.rules, env.action_mask, env.rewards, env.reward, env.terminated,
                    env.truncated, env.to_play, env.final_winner, env.final_reason, env.final_plies,
                    setups=bad)


def test_release_without_a_claim_is_refused():
    env = stratego.VecEnv(2, observations=False, seed=0)
    with pytest.raises(RuntimeError, match="release.. without this thread's claim"):
        env._batch.release()
    env._batch.claim()
    with pytest.raises(RuntimeError, match="re-entrant call"):
        env._batch.claim()
    env._batch.release()
    env.step(env.sample_actions())
