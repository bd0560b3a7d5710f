"""The seam for a second game (csrc/engine/vec.h): tests/c/tiny_game.h is a game of three
seats with a skipped seat, hidden values and a 144-cell board, written against vec.h
alone, and tests/c/tiny_main.c runs it through the same batch loop, autoreset modes
and output buffers as Stratego, on the engine's thread pool. Built with the C compiler
on PATH, under ASan and UBSan where the compiler has them (tests/cbuild.py caches it)."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from cbuild import build_checked, compiler, run_checked

TESTS_C = Path(__file__).resolve().parent / "c"


@pytest.fixture(scope="module")
def tiny_report() -> str:
    program = build_checked("second-game", {"tiny_game": [TESTS_C / "tiny_main.c"]})["tiny_game"]
    done = run_checked(program)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.deep  # the C program under sanitizers
@pytest.mark.parametrize("mode", ["same_step", "next_step", "disabled"])
def test_second_game_runs_through_the_generic_loop(tiny_report, mode):
    """Every autoreset mode: outputs agree with the game's rules replayed on a copy at
    every step, and 1, 2 and 3 threads give the same outputs, states and totals."""
    line = next(l for l in tiny_report.splitlines() if l.startswith(mode + ":"))
    assert "threads 1/2/3 identical" in line
    finished, w0, w1, w2, draws = map(int, re.search(
        r"finished (\d+) \(wins (\d+)/(\d+)/(\d+), draws (\d+)", line).groups())
    assert finished == w0 + w1 + w2 + draws and w0 + w1 + w2 > 0 and draws > 0
    # The skipped seat plays, but never in the rounds it sits out; cells past 127 are used.
    assert re.search(r"seat 1 acted [1-9]\d* times, never in an odd round", line)
    assert re.search(r"; [1-9]\d* actions from cells >= 128", line)


@pytest.mark.deep  # the C program under sanitizers
def test_second_game_checks_hold(tiny_report):
    """Hidden values stay out of other seats' views; a restored batch goes on alike."""
    assert tiny_report.splitlines()[-1] == "ok"


# -- the same game in Python: a test-only extension on vec_binding.h, the env on VecShell --

@pytest.fixture(scope="module")
def tiny():
    """The extension `_tiny` (tests/c/tiny_binding.c), built and imported from its path."""
    import importlib.util

    from cbuild import CSRC, build_extension

    cc = compiler()
    if cc is None:
        pytest.skip("no C compiler found (set CC or put cc/gcc/clang on PATH)")
    sources = [TESTS_C / "tiny_binding.c", CSRC / "python" / "batch_glue.c", CSRC / "python" / "vec_binding.c", CSRC / "engine" / "vec.c", CSRC / "engine" / "pool.c"]
    path = build_extension("_tiny", cc, sources)
    spec = importlib.util.spec_from_file_location("_tiny", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _env(tiny, n=24, **kw):
    from tiny_env import TinyVecEnv
    return TinyVecEnv(tiny, n, **kw)


def _actions(env):
    """Random legal actions; 0 for games over (their action is ignored)."""
    a = env.sample_actions().copy()
    a[a < 0] = 0
    return a


@pytest.mark.parametrize("mode", ["same_step", "next_step", "disabled"])
def test_second_game_in_python_through_the_shell(tiny, mode):
    env = _env(tiny, autoreset_mode=mode, max_plies=24)
    obs, info = env.reset(seed=5)
    n = env.num_envs
    assert obs.shape == (n, tiny.OBS_BYTES) and env.rewards.shape == (n, 3) and info["action_mask"].shape == (n, 576)
    finished = 0
    for _ in range(80):
        over_before = env.over
        obs, reward, terminated, truncated, info = env.step(_actions(env))
        # Games over since an earlier step ignore their action: nobody acted there.
        assert (info["acted"][over_before] == -1).all() and not terminated[over_before].any()
        acted = info["acted"]
        live = acted >= 0
        assert (reward[live] == env.rewards[live, acted[live]]).all()
        assert not truncated.any()
        if terminated.any():
            finished += int(terminated.sum())
            assert set(info["final_info"]["winner"][terminated]) <= {-1, 0, 1, 2}
            # The winner +1 and the others -1; a draw 0 for every seat.
            for i in np.flatnonzero(terminated):
                w = info["final_info"]["winner"][i]
                expect = np.zeros(3) if w < 0 else np.where(np.arange(3) == w, 1.0, -1.0)
                assert (env.rewards[i] == expect).all()
            if mode == "same_step":
                assert (info["_final_obs"] == terminated).all() and info["final_obs"] is env.final_obs
                assert not env.over.any()
            else:
                assert "final_obs" not in info and env.over[terminated].all()
                assert not env.action_mask[terminated].any()
        if mode == "disabled" and env.over.any():
            mask = env.over
            env.reset(options={"reset_mask": mask})
            assert not env.over.any() and env.action_mask[mask].any(axis=1).all()
    assert finished > 0 and env.stats()["games_finished"] == finished
    env.close()


def test_second_game_in_python_is_the_same_for_any_thread_count(tiny):
    one, three = _env(tiny, num_threads=1), _env(tiny, num_threads=3)
    one.reset(seed=9)
    three.reset(seed=9)
    for _ in range(60):
        a = _actions(one)
        assert (a == _actions(three)).all()
        one.step(a)
        three.step(a)
        for name in ("obs", "final_obs", "action_mask", "rewards", "terminated", "to_play", "final_winner"):
            assert (getattr(one, name) == getattr(three, name)).all(), name
    assert one.stats() == three.stats()


def test_second_game_binding_guards(tiny):
    env = _env(tiny, n=8)
    env.reset(seed=1)
    with pytest.raises(ValueError, match=r"actions must have shape \(8,\)"):
        env.step(np.zeros(7, np.int64))
    with pytest.raises(TypeError, match="array of integers"):
        env.step(np.zeros(8, np.float32))
    with pytest.raises(ValueError, match="out of range"):
        env.step(np.full(8, 576))
    bad = _actions(env)
    bad[3] = int(np.flatnonzero(~env.action_mask[3])[0])
    with pytest.raises(ValueError, match="illegal action .* in game 3"):
        env.step(bad)
    env.rewards.flags.writeable = False
    with pytest.raises(ValueError, match="rewards was made read-only"):
        env.step(_actions(env))
    env.rewards.flags.writeable = True
    env.close()
    with pytest.raises(RuntimeError, match="closed"):
        env.step(np.zeros(8, np.int64))
    env.close()  # a second close is safe


def test_second_game_saves_through_the_frame(tiny):
    env = _env(tiny, n=12, illegal_action="lose")
    env.reset(seed=3)
    for _ in range(20):
        env.step(_actions(env))
    data = env.save_state()
    assert data[:8] == b"TINYHIDE"
    other = _env(tiny, n=12, illegal_action="lose")
    other.reset(seed=4)
    other.load_state(data)
    assert (other.obs == env.obs).all() and (other.action_mask == env.action_mask).all()
    for _ in range(20):
        a = _actions(env)
        assert (a == _actions(other)).all()
        env.step(a)
        other.step(a)
        assert (env.obs == other.obs).all() and (env.rewards == other.rewards).all()
    assert env.stats() == other.stats()
    with pytest.raises(ValueError, match="not a tinyhide save"):
        other.load_state(b"STRATEGO" + data[8:])
    with pytest.raises(ValueError, match="number of games"):
        _env(tiny, n=11).load_state(data)


def test_second_game_layout_is_what_its_env_hands_out(tiny):
    """The generic batch type answers the test game's layout as it does the classic's and
    the castle's (tests/test_batch_layout.py): the env allocates from it."""
    env = _env(tiny, n=5)
    obs, info = env.reset(seed=1)
    arrays = env.batch_layout["arrays"]
    assert list(arrays)[:9] == ["mask", "rewards", "reward", "terminated", "truncated", "to_play", "final_winner",
                                "final_reason", "final_plies"]
    assert arrays["mask"][:2] == ((5, tiny.NUM_ACTIONS), np.bool_) and arrays["rewards"][0] == (5, tiny.NUM_PLAYERS)
    assert arrays["obs"] == ((5, tiny.OBS_BYTES), np.uint8, 5 * tiny.OBS_BYTES) and obs.shape == (5, tiny.OBS_BYTES)
    for name, handed_out in (("mask", info["action_mask"]), ("rewards", info["rewards"]), ("obs", obs),
                             ("final_obs", env.final_obs), ("final_plies", env.final_plies)):
        assert (handed_out.shape, handed_out.dtype, handed_out.nbytes) == arrays[name], name
    assert "obs" not in tiny.Batch.layout(5, obs=False)["arrays"]
    assert env.batch_layout["held_bytes"] > 0
    env.close()


def test_second_game_binding_is_only_what_is_its_own():
    """The glue is written once (csrc/python/batch_glue.h): a game's binding brings its
    keywords, options, layout and functions, and the test game's stays under 100 lines."""
    lines = (TESTS_C / "tiny_binding.c").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 100, f"tests/c/tiny_binding.c has {len(lines)} lines"
