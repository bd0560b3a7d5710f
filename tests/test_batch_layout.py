"""The batch layout (csrc/python/batch_glue.h): C answers, for a configuration, every
output array's name, shape, dtype and bytes and the memory the batch holds itself; the
envs of both games allocate their outputs from that answer and count memory from it
(stratego.vec_shell.layout_bytes_per_game), so Python re-derives nothing C knows."""
from __future__ import annotations

import math

import numpy as np
import pytest

import stratego
import stratego.castle.vec_env
import stratego.vec_env
from stratego import _core, castle
from stratego.vec_shell import SHELL_BUFFERS

NINE = ("mask", "rewards", "reward", "terminated", "truncated", "to_play", "final_winner", "final_reason",
        "final_plies")
SHELL_BYTES = sum(np.dtype(dtype).itemsize for _, dtype, _ in SHELL_BUFFERS)

CLASSIC = [
    {},
    {"views": "both"},
    {"views": "both", "final_views": "to_play"},
    {"obs_dtype": "float32", "history_k": 2},
    {"obs_format": "codes"},
    {"obs_format": "codes", "belief": True, "views": "both"},
    {"observations": False},
    {"mask_format": "bits"},
    {"full_obs": True},
    {"full_obs": True, "obs_format": "codes"},
    {"record": True},
    {"opponent": "random", "mask_format": "bits"},
]
CASTLE = [{}, {"obs_format": "codes"}, {"obs_format": None}, {"mask_format": "bits"}, {"mode": "teams4"}]


def _made(monkeypatch, module, make):
    """The env make() builds and the memory estimate its module checked (n * per game)."""
    estimates = []
    check = module.check_memory

    def capture(n, per_game, *args, **kwargs):
        estimates.append(n * per_game)
        return check(n, per_game, *args, **kwargs)

    monkeypatch.setattr(module, "check_memory", capture)
    env = make()
    assert len(estimates) == 1
    return env, estimates[0]


def _check_arrays(layout, handed_out):
    """Every array of the layout is the one the env hands out, by shape, dtype and bytes,
    and the env hands out no output the layout lacks."""
    assert set(layout["arrays"]) == set(handed_out)
    for name, (shape, dtype, nbytes) in layout["arrays"].items():
        array = handed_out[name]
        assert isinstance(array, np.ndarray), name
        assert array.shape == tuple(shape), name
        assert array.dtype == dtype, name
        assert array.nbytes == nbytes == math.prod(shape) * np.dtype(dtype).itemsize, name


def _estimate(layout, n):
    return sum(nbytes for _, _, nbytes in layout["arrays"].values()) + layout["held_bytes"] + n * SHELL_BYTES


@pytest.mark.parametrize("kwargs", CLASSIC, ids=lambda k: "-".join(f"{a}={b}" for a, b in k.items()) or "default")
def test_classic_layout_is_what_the_env_hands_out(monkeypatch, kwargs):
    n = 3
    env, estimate = _made(monkeypatch, stratego.vec_env, lambda: stratego.VecEnv(n, seed=1, **kwargs))
    obs, info = env.reset(seed=2)
    obs, _, _, _, info = env.step(env.sample_actions())
    layout = env.batch_layout
    handed_out = {"rewards": info["rewards"], "reward": env.reward, "terminated": env.terminated,
                  "truncated": env.truncated, "to_play": info["to_play"], "final_winner": env.final_winner,
                  "final_reason": env.final_reason, "final_plies": env.final_plies, "mask": info["action_mask"]}
    if kwargs.get("observations", True):
        codes = obs["codes"] if isinstance(obs, dict) else obs
        handed_out.update(obs=codes, final_obs=env.final_obs)
        if isinstance(obs, dict):
            handed_out.update(belief=obs["belief"], final_belief=env.final_belief_obs)
    if kwargs.get("full_obs"):
        handed_out["full_obs"] = info["full_obs"]
    _check_arrays(layout, handed_out)
    # Independent of the layout: the sizes the variant and the observation spec give.
    mask_shape = layout["arrays"]["mask"][0]
    bits = kwargs.get("mask_format") == "bits"
    assert mask_shape == (n, math.ceil(env.num_actions / 8) if bits else env.num_actions)
    if "obs" in layout["arrays"] and kwargs.get("obs_format", "planes") == "planes":
        views = (2,) if kwargs.get("views") == "both" else ()
        assert layout["arrays"]["obs"][0] == (n, *views, len(env.observation_channels), 10, 10)
    record = _core.record_game_bytes(env.record_plies) if env.recording else 0
    # A state and a sampler stream a game; without an opponent a mask-ahead flag, with
    # one its learner-vs-opponent slot (some bytes more) and no flag.
    game = _core.STATE_BYTES + 8
    if "opponent" in kwargs:
        assert layout["held_bytes"] > n * (game + record)
    else:
        assert layout["held_bytes"] == n * (game + 1 + record)
    assert estimate == _estimate(layout, n)
    env.close()


@pytest.mark.parametrize("kwargs", CASTLE, ids=lambda k: "-".join(f"{a}={b}" for a, b in k.items()) or "default")
def test_castle_layout_is_what_the_env_hands_out(monkeypatch, kwargs):
    n = 4
    env, estimate = _made(monkeypatch, stratego.castle.vec_env, lambda: castle.VecEnv(n, seed=1, **kwargs))
    env.reset(seed=3)
    obs, _, _, _, info = env.step(env.sample_actions())
    layout = env.batch_layout
    handed_out = {"mask": info["action_mask"], "rewards": info["rewards"], "reward": env.reward,
                  "terminated": env.terminated, "truncated": env.truncated, "to_play": info["to_play"],
                  "final_winner": env.final_winner, "final_reason": env.final_reason, "final_plies": env.final_plies}
    if kwargs.get("obs_format", "planes") is not None:
        handed_out.update(obs=obs, final_obs=env.final_obs)
        side = (_core.CASTLE_OBS_CHANNELS, _core.CASTLE_OBS_SIDE, _core.CASTLE_OBS_SIDE)
        want = side if kwargs.get("obs_format", "planes") == "planes" else (_core.CASTLE_CODES_BYTES,)
        assert layout["arrays"]["obs"][0] == (n, *want)
    _check_arrays(layout, handed_out)
    bits = kwargs.get("mask_format") == "bits"
    assert layout["arrays"]["mask"][0] == (n, math.ceil(env.num_actions / 8) if bits else env.num_actions)
    assert layout["arrays"]["rewards"][0] == (n, env.num_players)
    assert estimate == _estimate(layout, n)
    env.close()


def test_layout_takes_the_options_and_checks_them_as_the_batch_does():
    rules = stratego.load_variant("classic").rules
    with pytest.raises(ValueError, match="num_envs must be"):
        _core.Batch.layout(0, rules)
    with pytest.raises(ValueError, match="final_views must be 1 or 2 with observations"):
        _core.Batch.layout(2, rules, obs_views=0, final_views=2)
    # The arrays and num_threads are __init__'s, not the layout's.
    with pytest.raises(TypeError, match="mask"):
        _core.Batch.layout(2, rules, mask=np.zeros((2, 1800), bool))
    # full_obs is written exactly when it is given: layout() takes it as a bool.
    assert "full_obs" not in _core.Batch.layout(2, rules)["arrays"]
    assert _core.Batch.layout(2, rules, full_obs=True)["arrays"]["full_obs"][:2] == (
        (2, *_core.full_observation_shape(False)), np.uint8)


def test_the_batch_refuses_arrays_its_layout_lacks():
    env = stratego.VecEnv(2, observations=False)
    extra = np.zeros((2, 68, 10, 10), np.uint8)
    with pytest.raises(ValueError, match="obs and final_obs need obs_views 1 or 2"):
        _core.Batch(2, 1, env.variant.rules, *env._outputs(), obs=extra, final_obs=extra)
    with pytest.raises(ValueError, match=r"obs must have shape \(2, 68, 10, 10\)"):
        _core.Batch(2, 1, env.variant.rules, *env._outputs(), obs=extra[:, :3], final_obs=extra, obs_views=1)
    env.close()
