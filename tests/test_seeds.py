"""The one seed rule of both games (stratego.common.seeding, docs/api.md "Seeds"): an integer in
[0, 2**64), NumPy's too; nothing wraps (2**64 is not seed 0, -1 not 2**64 - 1), a
non-integer is a TypeError, an integer outside the range a ValueError, from every call
that takes a seed."""
from __future__ import annotations

import numpy as np
import pytest

import stratego
from stratego import castle

OUT_OF_RANGE = [-1, 2**64, 2**64 + 7, 2**100, np.int64(-5)]
NOT_INTEGERS = [570.9, "570", b"570", True, 1.0, [1]]
RANGE = r"seed must be an int in \[0, 2\*\*64\), got "


def _classic_game(seed):
    return stratego.Game(seed=seed)


def _classic_from_field(seed):
    return stratego.Game.from_field(stratego.Game(seed=1).field, seed=seed)


def _classic_worlds(seed):
    return stratego.Game(seed=1).sample_worlds(1, seed)


def _classic_vec(seed):
    return stratego.VecEnv(2, seed=seed)


def _classic_reset(seed):
    return stratego.VecEnv(2).reset(seed=seed)


def _classic_reset_some(seed):
    return stratego.VecEnv(2).reset(seed=seed, options={"reset_mask": np.ones(2, np.bool_)})


def _classic_vec_worlds(seed):
    env = stratego.VecEnv(2, seed=1)
    return env.sample_worlds(1, seed)


def _castle_game(seed):
    return castle.Game(seed=seed)


def _castle_vec(seed):
    return castle.VecEnv(2, seed=seed)


def _castle_reset_some(seed):
    return castle.VecEnv(2).reset(seed=seed, options={"reset_mask": np.ones(2, np.bool_)})


def _gym_env(seed):
    from stratego.integrations.gym_env import StrategoEnv
    return StrategoEnv().reset(seed=seed)


def _classic_pettingzoo(seed):
    pz = pytest.importorskip("stratego.integrations.pettingzoo")
    return pz.raw_env().reset(seed=seed)


def _castle_pettingzoo(seed):
    pytest.importorskip("pettingzoo")
    from stratego.castle import pettingzoo as pz
    return pz.raw_env().reset(seed=seed)


CALLS = [_classic_game, _classic_from_field, _classic_worlds, _classic_vec, _classic_reset, _classic_reset_some,
         _classic_vec_worlds, _castle_game, _castle_vec, _castle_reset_some, _gym_env, _classic_pettingzoo,
         _castle_pettingzoo]


@pytest.mark.parametrize("call", CALLS, ids=lambda f: f.__name__[1:])
def test_every_call_takes_the_whole_range_and_numpy_integers(call):
    for seed in (0, 2**64 - 1, np.uint64(2**64 - 1), np.int32(7)):
        call(seed)


@pytest.mark.parametrize("call", CALLS, ids=lambda f: f.__name__[1:])
@pytest.mark.parametrize("seed", OUT_OF_RANGE, ids=repr)
def test_every_call_refuses_a_seed_out_of_range(call, seed):
    with pytest.raises(ValueError, match=RANGE + str(int(seed)) + "$"):
        call(seed)


@pytest.mark.parametrize("call", CALLS, ids=lambda f: f.__name__[1:])
@pytest.mark.parametrize("seed", NOT_INTEGERS, ids=repr)
def test_every_call_refuses_what_is_no_integer(call, seed):
    with pytest.raises(TypeError, match=RANGE + type(seed).__name__ + "$"):
        call(seed)


def test_the_ends_of_the_range_play_games_of_their_own():
    # What wrapping made equal: 2**64 - 1 was -1's games, 0 was 2**64's.
    fields = {stratego.Game(seed=s).field for s in (0, 1, 2**63, 2**64 - 1)}
    assert len(fields) == 4
    views = {castle.Game(seed=s).to_text() for s in (0, 1, 2**63, 2**64 - 1)}
    assert len(views) == 4
