"""The arrays a VecEnv hands out (issue 13, items 9 and 10): masks that hold non-zero
bytes other than 1, and arrays the caller made read-only."""
from __future__ import annotations

import numpy as np
import pytest

import stratego

# Entries in the SIMD blocks (64-byte groups), and in the scalar tail past 1792.
SET = (3, 10, 700, 1795)


@pytest.mark.parametrize("true_byte", [1, 2, 255])
def test_sampler_counts_every_non_zero_mask_byte(true_byte):
    """numpy's bool is one byte and any non-zero byte is True: a mask written through a
    uint8 view (255, or 2) samples as uniformly as a 0/1 one. The audit saw 98.9% -1."""
    n = 4000
    env = stratego.VecEnv(n, seed=1, observations=False)
    raw = env.action_mask.view(np.uint8)
    raw[:] = 0
    raw[:, SET[0]] = true_byte
    raw[:, SET[1]] = 1
    raw[:, SET[2]] = true_byte
    raw[:, SET[3]] = 2
    actions = env.sample_actions()
    counts = {a: int((actions == a).sum()) for a in SET}
    assert sum(counts.values()) == n, counts  # never -1, never an unset entry
    for a in SET:
        assert 800 <= counts[a] <= 1200, counts  # n/4 each; binomial sd ~27
    raw[:] = 0
    raw[7, 1799] = 255  # a row with one set entry, in the tail
    actions = env.sample_actions()
    assert actions[7] == 1799 and (np.delete(actions, 7) == -1).all()


def test_sampler_with_byte_masks_matches_the_bool_mask_draws():
    """The same streams draw the same entries whatever non-zero byte marks them."""
    a = stratego.VecEnv(64, seed=9, observations=False)
    b = stratego.VecEnv(64, seed=9, observations=False)
    b.action_mask.view(np.uint8)[:] *= 255
    np.testing.assert_array_equal(a.sample_actions(), b.sample_actions())


OUTPUTS = ["obs", "final_obs", "action_mask", "rewards", "reward", "terminated", "truncated",
           "to_play", "final_winner", "final_reason", "final_plies", "full_obs"]


@pytest.mark.parametrize("name", OUTPUTS)
def test_read_only_output_is_refused_before_anything_changes(name):
    """The audit: step() wrote obs after the caller set writeable=False. Every array
    the env writes is checked at every reset, step and load, and nothing is written."""
    env = stratego.VecEnv(4, seed=2, full_obs=True)
    blob = env.save_state()
    actions = env.sample_actions().copy()
    array = getattr(env, name)
    array.setflags(write=False)
    before = {n: getattr(env, n).copy() for n in OUTPUTS}
    fields = [env.game_field(i) for i in range(4)]
    for call in (lambda: env.step(actions), lambda: env.reset(seed=3), lambda: env.load_state(blob)):
        with pytest.raises(ValueError, match=f"^{name} was made read-only"):
            call()
    for n in OUTPUTS:
        np.testing.assert_array_equal(getattr(env, n), before[n])
    assert [env.game_field(i) for i in range(4)] == fields
    array.setflags(write=True)
    env.step(actions)


def test_read_only_sampled_actions_are_refused():
    env = stratego.VecEnv(4, seed=2)
    sampled = env.sample_actions()
    before = sampled.copy()
    sampled.setflags(write=False)
    with pytest.raises(ValueError, match="sampled actions was made read-only"):
        env.sample_actions()
    with pytest.raises(ValueError, match="bot actions was made read-only"):
        env.bot_actions("heuristic")
    np.testing.assert_array_equal(sampled, before)


def test_read_only_final_info_flags_are_replaced_never_written():
    """info["_final_info"] is computed in Python after the C step: a frozen one is left
    as it was and the step's flags come in a new array (the step is not lost)."""
    env = stratego.VecEnv(64, seed=2, max_plies=3, observations=False)
    info = {}
    while "_final_info" not in info:
        info = env.step(env.sample_actions())[4]
    frozen = info["_final_info"]
    kept = frozen.copy()
    frozen.setflags(write=False)
    for _ in range(4):
        info = env.step(env.sample_actions())[4]
        if "_final_info" in info:
            assert info["_final_info"] is not frozen
            np.testing.assert_array_equal(info["_final_info"], env.terminated | env.truncated)
    np.testing.assert_array_equal(frozen, kept)


def test_every_output_is_covered():
    env = stratego.VecEnv(2, seed=1, full_obs=True)
    written = {n for n, v in vars(env).items() if isinstance(v, np.ndarray) and not n.startswith("_")}
    assert written == set(OUTPUTS) | {"acted"}  # acted: written in Python, see below


def test_read_only_acted_is_replaced_never_written():
    """info["acted"] is computed in Python around the C step: a frozen one is left as it
    was and the step's players come in a new array (the step is not lost)."""
    env = stratego.VecEnv(8, seed=2, observations=False)
    info = env.step(env.sample_actions())[4]
    frozen = info["acted"]
    kept = frozen.copy()
    frozen.setflags(write=False)
    to_play = env.to_play.copy()
    info = env.step(env.sample_actions())[4]
    assert info["acted"] is not frozen and np.array_equal(info["acted"], to_play)
    np.testing.assert_array_equal(frozen, kept)
    env.reset(seed=1)


# -- outputs cannot be resized (issue 26, item 5) ---------------------------------------
def _arrays(value, where="", seen=None):
    """Every ndarray reachable from a step's results (dicts, tuples), with its path."""
    if isinstance(value, np.ndarray):
        yield where, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _arrays(item, f"{where}[{key!r}]", seen)
    elif isinstance(value, (tuple, list)):
        for i, item in enumerate(value):
            yield from _arrays(item, f"{where}[{i}]", seen)


def _envs():
    from stratego import castle
    yield "classic", stratego.VecEnv(8, seed=1, max_plies=4, full_obs=True)
    yield "classic codes belief both", stratego.VecEnv(8, seed=1, max_plies=4, obs_format="codes", belief=True,
                                                       views="both", mask_format="bits")
    yield "classic opponent", stratego.VecEnv(8, seed=1, max_plies=4, opponent="random")
    yield "classic deploy", stratego.VecEnv(8, seed=1, setup="agent")
    yield "castle", castle.VecEnv(8, seed=1, max_plies=4)
    yield "castle codes bits", castle.VecEnv(8, seed=1, max_plies=4, obs_format="codes", mask_format="bits")


@pytest.mark.parametrize("label, env", list(_envs()), ids=lambda v: v if isinstance(v, str) else "")
def test_no_output_can_be_resized(label, env):
    """An output that owned its memory could be resized with refcheck=False, freeing the
    memory C writes into (the audit: a heap use-after-free in the sampler). Every array an
    env hands out, and every array under it, refuses; the env plays on."""
    results = {"reset": env.reset(seed=2)}
    for i in range(6):
        results[f"step {i}"] = env.step(env.sample_actions())
    results["sample_actions"] = env.sample_actions()
    if hasattr(env, "bot_actions"):
        results["bot_actions"] = env.bot_actions("random")
    results["attributes"] = {name: value for name, value in vars(env).items() if isinstance(value, np.ndarray)}
    arrays = list(_arrays(results))
    assert len(arrays) >= 20
    for where, array in arrays:
        base = array
        while isinstance(base, np.ndarray):
            with pytest.raises(ValueError, match="does not own its data"):
                base.resize((1,), refcheck=False)
            base = base.base
        if isinstance(base, bytearray):
            with pytest.raises(BufferError):
                base.clear()
    before = env.action_mask.copy()
    env.step(env.sample_actions())
    assert env.action_mask.shape == before.shape
    env.close()
