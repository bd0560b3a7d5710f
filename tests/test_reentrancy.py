"""Arguments whose conversion runs Python code (__index__, __int__, __array__) that
closes, steps or re-initialises the very object being called (issue 13, item 6).

Every entry point of _core.Batch and _core.GameState converts all its arguments first,
then checks its state, then acts: the hostile conversion finishes before the call
reads a game, so the call either refuses clearly (closed) or acts on the state the
conversion left. None may crash or read freed or changing games.
"""
from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import stratego
from stratego import _core


class Index:
    """An integer whose __index__ first runs `hook`."""

    def __init__(self, value: int, hook):
        self.value, self.hook = value, hook

    def __index__(self) -> int:
        self.hook()
        return self.value


class ArrayLike:
    """Something np.asarray converts by calling __array__, which first runs `hook`."""

    def __init__(self, make, hook):
        self.make, self.hook = make, hook

    def __array__(self, dtype=None, copy=None):
        self.hook()
        return self.make()


# ------------------------------------------------------------------ VecEnv / Batch

def test_game_field_index_that_closes_the_env_is_refused():
    env = stratego.VecEnv(4, seed=1)
    with pytest.raises(RuntimeError, match="closed"):
        env.game_field(Index(0, env.close))


def test_game_field_index_that_steps_reads_the_stepped_game():
    env = stratego.VecEnv(4, seed=1, observations=False)
    twin = stratego.VecEnv(4, seed=1, observations=False)
    twin.step(twin.sample_actions())
    field = env.game_field(Index(2, lambda: env.step(env.sample_actions())))
    assert field == twin.game_field(2) == env.game_field(2)


def test_game_field_index_that_waits_for_another_threads_step():
    """The audit's race: __index__ lets another thread's step() start, then returns.
    The copy is refused while that step runs, or made after it ended: never during."""
    env = stratego.VecEnv(20_000, seed=2, observations=False, num_threads=1)
    actions = env.sample_actions().copy()
    stepper = threading.Thread(target=env.step, args=(actions,))

    def start_and_wait_until_busy():
        stepper.start()
        deadline = time.monotonic() + 5
        while stepper.is_alive() and time.monotonic() < deadline:
            try:
                env.stats()
            except RuntimeError:
                return  # the other thread is inside step() now
            time.sleep(0)

    try:
        field = env.game_field(Index(5, start_and_wait_until_busy))
    except RuntimeError as exc:
        assert "another thread" in str(exc)
        stepper.join()
    else:
        stepper.join()
        assert field == env.game_field(5)
    twin = stratego.VecEnv(20_000, seed=2, observations=False, num_threads=1)
    twin.step(actions)
    assert env.game_field(5) == twin.game_field(5) and env.stats() == twin.stats()


def test_step_array_that_closes_the_env_is_refused():
    env = stratego.VecEnv(4, seed=1)
    actions = env.sample_actions().copy()
    with pytest.raises(RuntimeError, match="closed"):
        env.step(ArrayLike(lambda: actions, env.close))


def test_step_array_that_steps_the_env_first_from_the_same_thread():
    """A re-entrant step() made while step()'s own argument converts runs to the end
    before the outer step checks anything: it is not blamed on another thread, and the
    outer step plays on the state it left."""
    env = stratego.VecEnv(8, seed=3)
    twin = stratego.VecEnv(8, seed=3)
    first = env.sample_actions().copy()
    twin.step(first)
    second = twin.sample_actions().copy()
    twin.step(second)
    env.step(ArrayLike(lambda: second, lambda: env.step(first)))
    assert [env.game_field(i) for i in range(8)] == [twin.game_field(i) for i in range(8)]
    np.testing.assert_array_equal(env.obs, twin.obs)
    np.testing.assert_array_equal(env.action_mask, twin.action_mask)


def test_reset_seed_whose_index_closes_the_env_is_refused():
    env = stratego.VecEnv(4, seed=1)
    with pytest.raises(RuntimeError, match="closed"):
        env.reset(seed=Index(7, env.close))


def test_reset_seed_whose_index_steps_the_env_resets_after_it():
    env = stratego.VecEnv(4, seed=1)
    env.reset(seed=Index(7, lambda: env.step(env.sample_actions())))
    twin = stratego.VecEnv(4, seed=7)
    assert [env.game_field(i) for i in range(4)] == [twin.game_field(i) for i in range(4)]


def test_masked_reset_seed_whose_index_closes_the_env_is_refused():
    env = stratego.VecEnv(4, seed=1, autoreset_mode="disabled")
    with pytest.raises(RuntimeError, match="closed"):
        env.reset(seed=Index(7, env.close), options={"reset_mask": np.ones(4, dtype=np.bool_)})


def test_masked_reset_seed_whose_index_steps_the_env_resets_after_it():
    env = stratego.VecEnv(4, seed=1, autoreset_mode="disabled")
    mask = np.array([True, False, True, False])
    env.reset(seed=Index(7, lambda: env.step(env.sample_actions())), options={"reset_mask": mask})
    twin = stratego.VecEnv(4, seed=7)
    assert [env.game_field(i) for i in (0, 2)] == [twin.game_field(i) for i in (0, 2)]
    assert env.to_play[1] == env.to_play[3] == 1  # stepped once by the hook, not reset


def test_num_threads_index_that_closes_the_env():
    env = stratego.VecEnv(4, seed=1)
    with pytest.raises(RuntimeError, match="closed"):
        env.num_threads = Index(1, env.close)  # checked after the conversion closed it
    with pytest.raises(RuntimeError, match="closed"):
        env.step(np.zeros(4, dtype=np.int64))


def test_batch_methods_with_hostile_arguments_on_the_core_type():
    """The same order on _core.Batch's own entry points (what VecEnv calls)."""
    env = stratego.VecEnv(4, seed=1)
    batch = env._batch
    with pytest.raises(RuntimeError, match="closed"):
        batch.step(env.sample_actions().copy(), Index(0, batch.close))
    env = stratego.VecEnv(4, seed=1)
    batch = env._batch
    with pytest.raises(RuntimeError, match="closed"):
        batch.game(Index(0, batch.close))
    env = stratego.VecEnv(4, seed=1)
    batch = env._batch
    calls = []

    class Actions(np.ndarray):
        """An ndarray subclass whose copies would call back into Python."""

        def __array_finalize__(self, obj):
            if calls:
                batch.close()

    hostile = env.sample_actions().copy().view(Actions)
    calls.append("armed")
    # step() copies the actions into a plain int64 array: no subclass hook runs.
    batch.step(hostile, 0)
    assert not batch.closed


def test_batch_init_reentered_from_an_argument_conversion():
    """__init__ converts every argument before it checks that it runs once: a
    conversion that initialises the object first leaves one valid batch, and the outer
    call is refused."""
    inner = stratego.VecEnv(2, observations=False)
    outer = stratego.VecEnv(3, observations=False)
    batch = _core.Batch.__new__(_core.Batch)

    def init_inner():
        batch.__init__(2, 1, inner.variant.rules, inner.action_mask, inner.rewards, inner.reward,
                       inner.terminated, inner.truncated, inner.to_play, inner.final_winner,
                       inner.final_reason, inner.final_plies)

    with pytest.raises(RuntimeError, match="only once"):
        batch.__init__(3, Index(1, init_inner), outer.variant.rules, outer.action_mask,
                       outer.rewards, outer.reward, outer.terminated, outer.truncated,
                       outer.to_play, outer.final_winner, outer.final_reason, outer.final_plies)
    out = np.zeros(2, dtype=np.int64)
    batch.sample_actions(out)
    batch.step(out, 0)
    assert batch.stats()["games_finished"] == 0
    batch.close()


# ------------------------------------------------------------------ Game / GameState

def test_game_calls_act_on_the_state_their_arguments_left():
    game = stratego.Game(seed=5)
    twin = stratego.Game(seed=5)
    move = game.legal_actions()[0]
    twin.play(move)
    # Each conversion plays a move first; the call then reads the new position.
    obs = game.observation(player=Index(1, lambda: game.play(move)))
    np.testing.assert_array_equal(obs, twin.observation(player=1))
    reply = twin.legal_actions()[0]
    twin.play(reply)
    assert game.captured(Index(0, lambda: game.play(reply))) == twin.captured(0)
    assert game.field == twin.field
    assert game._state.perft(Index(1, lambda: None)) == twin.perft(1)


def test_gamestate_reinitialised_by_an_argument_conversion():
    """A conversion that re-initialises the GameState under other rules: the call uses
    the new rules whole, never a mix, and output arrays sized for the old ones are
    refused by their shape check."""
    game = stratego.Game(seed=5)
    lightning = stratego.load_variant("ultimate-lightning")
    state = game._state
    reason = state.check_move(Index(0, lambda: state.__init__(lightning.rules)), 10)
    assert reason is not None  # checked on the new, empty board
    assert state.field() == "A" * 40 + "AA__AA__AA" * 2 + "A" * 40
    with pytest.raises(ValueError, match="shape"):
        state.action_mask(np.zeros(game.variant.num_actions, dtype=np.bool_))
    # A refused re-init inside a conversion keeps what was there.
    game = stratego.Game(seed=6)
    before = game.field
    bad_rules = dict(game.variant.rules, setup_rows=9)

    def refused_reinit():
        with pytest.raises(ValueError):
            game._state.__init__(bad_rules)

    assert game._state.check_move(Index(30, refused_reinit), 40) is not None
    assert game.field == before
