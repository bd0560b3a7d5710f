"""Saving state: Game.clone(), pickling a Game, and saving/restoring a whole VecEnv so a
restored run continues exactly as the original would. Saved bytes from outside are
checked completely before use."""
from __future__ import annotations

import pickle

import numpy as np
import pytest

import stratego


def _advance(game: stratego.Game, plies: int) -> None:
    for _ in range(plies):
        if game.done:
            return
        game.play(game.legal_actions()[0])


def test_clone_is_independent_and_equal():
    game = stratego.Game(seed=11)
    _advance(game, 25)
    copy = game.clone()
    assert copy.field == game.field and copy.ply == game.ply
    assert (copy.observation() == game.observation()).all()
    copy.play(copy.legal_actions()[-1])
    assert copy.ply == game.ply + 1
    assert copy.field != game.field


def test_clone_keeps_the_two_square_run():
    """The clone carries hidden state too (the two-square runs), not only the board."""
    field = "A" * 40 + "AA__AA__AA" * 2 + "A" * 40
    field = list(field)
    field[0] = "M"      # red flag A1
    field[9] = "E"      # red miner K1
    field[99] = "Y"     # blue flag K10
    field[90] = "Q"     # blue miner A10
    field = "".join(field)
    game = stratego.Game.from_field(field, two_square_limit=3)
    for move in ["K1-K2", "A:-A9", "K2-K1", "A9-A:", "K1-K2", "A:-A9"]:
        game.play(move)
    clone = game.clone()
    for g in (game, clone):
        with pytest.raises(ValueError, match="two-square"):
            g.play("K2-K1")


def test_pickle_round_trip():
    game = stratego.Game("seed-rulebook", seed=4, max_plies=500)
    _advance(game, 40)
    back = pickle.loads(pickle.dumps(game))
    assert back.field == game.field
    assert back.variant == game.variant
    assert (back.ply, back.to_move, back.done) == (game.ply, game.to_move, game.done)
    assert back.legal_moves() == game.legal_moves()
    assert (back.observation(history_k=8) == game.observation(history_k=8)).all()


# 560 and 640: the square sets (occupied[0], fixed[1]) that must agree with the board
@pytest.mark.parametrize("offset,value", [(0, 200), (100, 12), (180, 55), (260, 0x80), (560, 0x00), (640, 0x01)])
def test_corrupt_pickled_state_is_rejected(offset, value):
    game = stratego.Game(seed=1)
    data = game.__getstate__()
    raw = bytearray(data["state"])
    raw[stratego._core.SAVE_HEADER_BYTES + offset] = value  # offset into the state, after the header
    data["state"] = bytes(raw)
    clone = stratego.Game.__new__(stratego.Game)
    with pytest.raises(ValueError, match="the game is corrupt"):
        clone.__setstate__(data)


def test_truncated_pickled_state_is_rejected():
    data = stratego.Game(seed=1).__getstate__()
    data["state"] = data["state"][:-1]
    clone = stratego.Game.__new__(stratego.Game)
    with pytest.raises(ValueError, match="bytes"):
        clone.__setstate__(data)


def _assert_same_runs(a, b) -> None:
    """Two _run() results: the same outputs at every step."""
    for step_a, step_b in zip(a, b):
        for x, y in zip(step_a, step_b):
            np.testing.assert_array_equal(x, y)


def _run(env: stratego.VecEnv, steps: int):
    out = []
    for _ in range(steps):
        obs, reward, term, trunc, info = env.step(env.sample_actions())
        out.append((obs.copy(), reward.copy(), term.copy(), trunc.copy(), info["action_mask"].copy(),
                    env.final_winner.copy(), env.final_plies.copy()))
    return out


@pytest.mark.parametrize("kwargs", [{}, {"obs_dtype": "float32", "belief": True, "views": "both"}])
def test_vecenv_save_restore_continues_exactly(kwargs):
    env = stratego.VecEnv(16, seed=3, max_plies=120, **kwargs)
    _run(env, 70)
    blob = env.save_state()
    expected = _run(env, 200)
    expected_stats = env.stats()

    other = stratego.VecEnv(16, num_threads=1, max_plies=120, **kwargs)
    obs, info = other.load_state(blob)
    got = _run(other, 200)
    assert other.stats() == expected_stats
    assert expected_stats["games_finished"] > 0
    _assert_same_runs(expected, got)


def test_restore_into_same_env_rewinds():
    env = stratego.VecEnv(8, seed=9)
    blob = env.save_state()
    first = _run(env, 30)
    env.load_state(blob)
    again = _run(env, 30)
    _assert_same_runs(first, again)


def test_restore_rejects_mismatches_and_changes_nothing():
    env = stratego.VecEnv(8, seed=2)
    blob = env.save_state()
    before = [env.game_field(i) for i in range(8)]
    with pytest.raises(ValueError, match="games"):
        stratego.VecEnv(9).load_state(stratego.VecEnv(8, seed=1).save_state()[:0] + blob)
    with pytest.raises(ValueError, match="rules"):
        stratego.VecEnv(8, two_square_limit=5).load_state(blob)
    with pytest.raises(ValueError):
        env.load_state(blob[:-1])
    with pytest.raises(ValueError, match="not a stratego save"):
        env.load_state(b"X" + blob[1:])
    with pytest.raises(TypeError):
        env.load_state("not bytes")
    # A corrupt game deep inside: the whole restore is refused.
    raw = bytearray(blob)
    header = len(blob) - 8 * (stratego.STATE_BYTES + 8)
    raw[header + 3 * stratego.STATE_BYTES + 100] = 99  # piece_type of game 3's first piece
    with pytest.raises(ValueError, match="game 3"):
        env.load_state(bytes(raw))
    assert [env.game_field(i) for i in range(8)] == before


def test_save_after_close_raises():
    env = stratego.VecEnv(2, seed=1)
    blob = env.save_state()
    env.close()
    with pytest.raises(RuntimeError):
        env.save_state()
    with pytest.raises(RuntimeError):
        env.load_state(blob)


PHASE_OFFSET = 372  # GameState.phase (csrc/stratego/board.h): board, piece tables, counts, turn fields


def test_a_rescue_phase_is_refused_where_the_rules_have_no_rescue():
    """A save claiming a pending rescue in a classic game would make the engine write
    rescue actions past the classic mask: it is refused before use."""
    game = stratego.Game(seed=2)
    data = game.__getstate__()
    raw = bytearray(data["state"])
    at = stratego._core.SAVE_HEADER_BYTES + PHASE_OFFSET  # after the save's header
    raw[at] = 1       # PHASE_RESCUE
    raw[at + 1] = 0   # rescuer: red's first piece
    data["state"] = bytes(raw)
    with pytest.raises(ValueError, match="rescue"):
        stratego.Game.__new__(stratego.Game).__setstate__(data)

    env = stratego.VecEnv(1, seed=2)
    blob = bytearray(env.save_state())
    header = len(blob) - (stratego.STATE_BYTES + 8)
    blob[header + PHASE_OFFSET] = 1
    blob[header + PHASE_OFFSET + 1] = 0
    with pytest.raises(ValueError, match="rescue"):
        env.load_state(bytes(blob))


def test_a_rescue_pending_on_the_capped_ply_survives_a_round_trip():
    """The cap is judged when the turn ends, after the rescue, in play and on restore."""
    rng = np.random.default_rng(0)
    game = stratego.Game("ultimate-lightning", seed=1, max_plies=0)
    played = []
    while not game.rescue_pending and not game.done:
        played.append(int(rng.choice(game.legal_actions())))
        game.play(played[-1])
    assert game.rescue_pending, "no rescue in this game: pick another seed"
    capped = stratego.Game("ultimate-lightning", seed=1, max_plies=game.ply)
    for action in played:
        capped.play(action)
    assert capped.rescue_pending and not capped.done
    back = pickle.loads(pickle.dumps(capped))
    assert back.rescue_pending and not back.done
    assert back.legal_moves() == capped.legal_moves()
    back.play("pass")
    assert back.done and back.end_reason == "max_plies"
