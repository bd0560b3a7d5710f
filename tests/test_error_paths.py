"""The binding's error paths give back what they took (binding.h, "Exits"): each
failing call below runs after the binding has made a reference or an array (a copy
of the actions, the piece counts as a sequence, the index of a huge int, the busy
flag), so a missed release grows the traced memory, or leaves the batch busy."""
from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import stratego
from stratego import _core
from stratego.castle import VecEnv as castle_vec_env

N = 256


def growth(call, repeats=300):
    """Bytes the traced memory grew by over `repeats` failing calls, after a warm-up."""
    for _ in range(20):
        call()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(repeats):
            call()
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


def fails(exc, fn, *args):
    def call():
        with pytest.raises(exc):
            fn(*args)
    return call


def rules(**changes):
    return {**stratego.load_variant("classic").rules, **changes}


def test_every_failing_call_gives_back_what_it_took():
    env = stratego.VecEnv(N, seed=1, num_threads=1)
    out_of_range = np.full(N, 10**6, dtype=np.int64)  # copied, then refused
    illegal = np.zeros(N, dtype=np.int64)  # copied, busy flag taken, then refused
    assert env._batch.step.__doc__  # the binding's own method, not the wrapper's checks
    cases = {
        "actions out of range": fails(ValueError, env._batch.step, out_of_range, 0),
        "illegal actions": fails(ValueError, env._batch.step, illegal, 0),
        "piece counts too short": fails(ValueError, _core.num_actions, rules(piece_counts=[1] * 11)),
        "piece count not an int": fails(TypeError, _core.num_actions, rules(piece_counts=[1.0] * 12)),
        "huge square": fails(ValueError, _core.action_encode, 0, 10**40, 1),
        "bad history_k": fails(ValueError, _core.channel_names, 99, False),
    }
    for name, call in cases.items():
        # An array of N int64 actions is 2 KB: 300 of them leaked would be 600 KB.
        assert growth(call) < 32 * 1024, name
    # The busy flag went back too: the batch steps on.
    env.step(env.sample_actions())
    env.close()


def test_illegal_reasons_come_from_one_table():
    """moves_check.h's reasons: one text each, reason 0 "legal", and every refusal of
    check_action is one of them."""
    reasons = _core.ILLEGAL_REASONS
    assert reasons[0] == "legal" and len(set(reasons)) == len(reasons)
    seen = set()
    for variant in ("classic", "ultimate-lightning"):
        game = stratego.Game(variant, seed=3)
        for action in range(0, game.variant.num_actions, 7):
            why = game._state.check_action(action)
            assert why is None or why in reasons[1:], why
            seen.add(why)
    assert len(seen) > 3


@pytest.mark.parametrize("make", [lambda: stratego.VecEnv(8, seed=1, num_threads=1),
                                  lambda: castle_vec_env(8, seed=1, num_threads=1)],
                         ids=["classic", "castle"])
def test_reset_some_arguments_are_checked_by_each_batch(make):
    """Both batches read reset_some's arguments one way (args.c, parse_reset_some): the
    binding itself, under the wrapper's checks, refuses a bad seed or mask by name and
    leaves the batch usable."""
    env = make()
    batch = env._batch
    mask = np.zeros(8, dtype=np.bool_)
    mask[3] = True
    with pytest.raises(TypeError, match=r"seed must be an int in \[0, 2\*\*64\), got float"):
        batch.reset_some(mask, 1.5)
    with pytest.raises(TypeError, match="reset_mask"):
        batch.reset_some(mask.astype(np.int64), None)
    with pytest.raises(ValueError, match="reset_mask"):
        batch.reset_some(np.zeros(3, dtype=np.bool_), 7)
    with pytest.raises(TypeError):
        batch.reset_some(mask)
    with pytest.raises(ValueError, match=r"seed must be an int in \[0, 2\*\*64\), got -5"):
        batch.reset_some(mask, -5)  # the seed rule (stratego.common.seeding): nothing wraps
    batch.reset_some(mask, 2**64 - 1)
    env.step(env.sample_actions())
    env.close()
