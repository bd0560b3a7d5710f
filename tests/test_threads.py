"""The batch's thread pool: same games on any thread count, fork()ed children that work
whatever the parent did, and the default thread count (affinity, cgroup quota,
OMP_NUM_THREADS). Every child is joined with a timeout, so a hang fails the test
instead of stopping the run."""
from __future__ import annotations

import multiprocessing
import os
import threading
import warnings

import gymnasium as gym
import numpy as np
import pytest

import stratego
from stratego import _core
from stratego.common.threads import cgroup_cpu_limit, default_num_threads

from patience import patience

JOIN_TIMEOUT_S = patience(120)
fork_only = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                               reason="no fork start method on this platform")


def play(num_envs: int, threads: int, steps: int = 60, seed: int = 3, **kwargs) -> tuple:
    """(checksum, games finished, crc of the observations) of random games."""
    env = stratego.VecEnv(num_envs, num_threads=threads, seed=seed, **kwargs)
    crc = 0
    for _ in range(steps):
        env.step(env.sample_actions())
        if env.obs is not None:
            crc = hash((crc, env.obs.tobytes()))
    stats = env.stats()
    env.close()
    return stats["checksum"], stats["games_finished"], crc


@pytest.mark.parametrize("threads", [2, 3, 7])
def test_thread_counts_play_the_same_games(threads):
    # More threads than cores, and counts that do not divide the games: the chunks are
    # claimed in any order, the games and their sums are the same.
    assert play(1000, threads) == play(1000, 1)
    assert play(37, threads, steps=200, observations=False) == play(37, 1, steps=200, observations=False)


def test_two_envs_stepped_at_once_from_two_threads():
    # The second loop to start runs on its caller's thread while the first holds the pool.
    want = play(512, 1)
    got = [None, None]

    def run(k):
        got[k] = play(512, 2)

    workers = [threading.Thread(target=run, args=(k,)) for k in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(JOIN_TIMEOUT_S)
    assert not any(w.is_alive() for w in workers), "a thread stepping its env did not finish"
    assert got == [want, want]


def test_illegal_action_found_with_threads():
    env = stratego.VecEnv(600, num_threads=3, seed=5, observations=False)
    actions = env.sample_actions().copy()
    for bad in (599, 17):  # the smallest illegal game is named, whichever thread finds it
        actions[bad] = np.flatnonzero(~env.action_mask[bad])[0]
    with pytest.raises(ValueError, match="in game 17:"):
        env.step(actions)


def _child_plays(queue, threads):
    try:
        result = play(256, threads, steps=40)
        game = stratego.Game(seed=4)
        for _ in range(30):
            if game.done:
                break
            game.play(game.legal_actions()[0])
        queue.put(("ok", result, game.field, _core.pool_workers()))
    except BaseException as exc:  # reported to the parent, which fails the test
        queue.put(("error", repr(exc), None, None))


@fork_only
@pytest.mark.parametrize("child_threads", [1, 2])
def test_forked_child_steps_after_a_threaded_parent(child_threads):
    # The parent's pool has workers (and may be mid-spin) when it forks: the child starts
    # with none, and starts its own when it runs a loop on more threads.
    play(256, 2, steps=5)
    assert _core.pool_workers() >= 1
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    children = [ctx.Process(target=_child_plays, args=(queue, child_threads)) for _ in range(2)]
    for c in children:
        c.start()
    results = [queue.get(timeout=JOIN_TIMEOUT_S) for _ in children]
    for c in children:
        c.join(JOIN_TIMEOUT_S)
        if c.is_alive():
            c.kill()
            pytest.fail("a fork()ed child hung")
        assert c.exitcode == 0
    want = play(256, 1, steps=40)
    for status, result, field, workers in results:
        assert status == "ok", result
        assert result == want
        assert workers == child_threads - 1
        assert len(field) == 100


@fork_only
def test_fork_while_another_thread_steps():
    # fork() waits for a running loop to end (pthread_atfork), so the child never copies a
    # pool in the middle of a step.
    stop = threading.Event()

    def stepping():
        env = stratego.VecEnv(2048, num_threads=2, seed=1)
        while not stop.is_set():
            env.step(env.sample_actions())

    busy = threading.Thread(target=stepping)
    busy.start()
    try:
        ctx = multiprocessing.get_context("fork")
        for _ in range(3):
            queue = ctx.Queue()
            child = ctx.Process(target=_child_plays, args=(queue, 2))
            child.start()
            status, result, _, _ = queue.get(timeout=JOIN_TIMEOUT_S)
            child.join(JOIN_TIMEOUT_S)
            assert not child.is_alive(), "a fork()ed child hung"
            assert status == "ok", result
    finally:
        stop.set()
        busy.join(JOIN_TIMEOUT_S)


class OneGameEnv(gym.Env):
    """A minimal single-agent env over Game: the agent plays red against random blue."""

    def __init__(self):
        self.observation_space = gym.spaces.Box(0, 255, (len(stratego.channel_names()), 10, 10), np.uint8)
        self.action_space = gym.spaces.Discrete(stratego.ACTION_NB)
        self.game = None

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.game = stratego.Game(seed=int(self.np_random.integers(1 << 62)))
        return self.game.observation(), {"action_mask": self.game.action_mask()}

    def step(self, action):
        self.game.play(int(action))
        if not self.game.done:
            legal = self.game.legal_actions()
            self.game.play(legal[int(self.np_random.integers(len(legal)))])
        done = self.game.done
        reward = 0.0 if not done or self.game.winner is None else (1.0 if self.game.winner == 0 else -1.0)
        obs = self.game.observation(0)
        return obs, reward, done, False, {"action_mask": self.game.action_mask()}


class VecInChildEnv(gym.Env):
    """An env whose step runs a whole VecEnv on two threads in the worker process."""

    observation_space = gym.spaces.Box(-np.inf, np.inf, (1,), np.float64)
    action_space = gym.spaces.Discrete(1)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.env = stratego.VecEnv(128, num_threads=2, seed=7)
        return np.zeros(1), {}

    def step(self, action):
        self.env.step(self.env.sample_actions())
        return np.array([float(self.env.stats()["games_finished"])]), 0.0, False, False, {}


def _async_steps(env_fn, steps: int, seed: int, choose):
    """The last observation of `steps` steps of an AsyncVectorEnv(context="fork") of two
    env_fn envs, actions from choose(info); run in a thread joined with a timeout."""
    result = {}

    def run():
        envs = gym.vector.AsyncVectorEnv([env_fn, env_fn], context="fork")
        try:
            obs, info = envs.reset(seed=seed)
            for _ in range(steps):
                obs, _, _, _, info = envs.step(choose(info))
            result["obs"] = obs
        finally:
            envs.close(terminate=True)

    runner = threading.Thread(target=run, daemon=True)
    runner.start()
    runner.join(JOIN_TIMEOUT_S)
    assert not runner.is_alive(), f"AsyncVectorEnv(context='fork') over {env_fn.__name__} hung"
    return result["obs"]


@fork_only
def test_async_vector_env_fork_over_game_after_threaded_parent():
    play(256, 2, steps=5)  # the parent's pool has run on two threads
    rng = np.random.default_rng(0)
    obs = _async_steps(OneGameEnv, 20, 11,
                       lambda info: np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]]))
    assert obs.shape == (2, len(stratego.channel_names()), 10, 10)


@fork_only
def test_async_vector_env_fork_with_vec_env_in_the_child():
    play(256, 2, steps=5)
    finished = _async_steps(VecInChildEnv, 30, 2, lambda info: np.zeros(2, dtype=np.int64))
    # Each worker played the games the parent plays on one thread.
    env = stratego.VecEnv(128, num_threads=1, seed=7)
    for _ in range(30):
        env.step(env.sample_actions())
    assert list(finished[:, 0]) == [env.stats()["games_finished"]] * 2


# -- the default thread count ------------------------------------------------------------
def test_default_respects_omp_num_threads(monkeypatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    assert default_num_threads() == 1
    monkeypatch.setenv("OMP_NUM_THREADS", "100000")  # a cap, not a request for more CPUs
    assert default_num_threads() == len(os.sched_getaffinity(0))
    monkeypatch.setenv("OMP_NUM_THREADS", "junk")
    assert default_num_threads() == len(os.sched_getaffinity(0))


def test_default_respects_affinity(monkeypatch):
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    assert default_num_threads() == 1
    env = stratego.VecEnv(4, num_threads=0)
    assert env.num_threads == 1
    env.num_threads = 0
    assert env.num_threads == 1


def test_cgroup_v2_quota(tmp_path):
    proc = tmp_path / "cgroup"
    proc.write_text("0::/job/task\n")
    (tmp_path / "job" / "task").mkdir(parents=True)
    (tmp_path / "job" / "cpu.max").write_text("250000 100000\n")  # the parent's quota binds
    (tmp_path / "job" / "task" / "cpu.max").write_text("max 100000\n")
    assert cgroup_cpu_limit(tmp_path, proc) == 2.5
    (tmp_path / "job" / "cpu.max").write_text("max 100000\n")
    assert cgroup_cpu_limit(tmp_path, proc) is None


def test_cgroup_v1_quota(tmp_path):
    proc = tmp_path / "cgroup"
    proc.write_text("4:memory:/x\n2:cpu,cpuacct:/docker/abc\n")
    folder = tmp_path / "cpu,cpuacct" / "docker" / "abc"
    folder.mkdir(parents=True)
    (folder / "cpu.cfs_quota_us").write_text("150000\n")
    (folder / "cpu.cfs_period_us").write_text("100000\n")
    assert cgroup_cpu_limit(tmp_path, proc) == 1.5
    (folder / "cpu.cfs_quota_us").write_text("-1\n")
    assert cgroup_cpu_limit(tmp_path, proc) is None


def test_default_rounds_a_quota_up(monkeypatch):
    import stratego.common.threads as threads

    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(64)))
    monkeypatch.setattr(threads, "cgroup_cpu_limit", lambda: 2.5)
    assert default_num_threads() == 3
    monkeypatch.setattr(threads, "cgroup_cpu_limit", lambda: 0.2)
    assert default_num_threads() == 1


# -- the cap on threads and idle helpers -------------------------------------------------
def test_a_request_above_the_cap_is_cut_with_a_warning():
    from stratego import castle

    cap = _core.pool_max_threads()
    assert 1 <= cap <= _core.MAX_THREADS
    want = f"num_threads=4096 is more threads than this machine runs at once: using {cap},"
    for make in (lambda t: stratego.VecEnv(64, num_threads=t, seed=0), lambda t: castle.VecEnv(64, num_threads=t)):
        with pytest.warns(RuntimeWarning, match=want):
            env = make(4096)
        assert env.num_threads == cap
        with pytest.warns(RuntimeWarning, match=want):
            env.num_threads = np.int64(4096)
        assert env.num_threads == cap
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            env.num_threads = cap  # at the cap: no warning, the count as asked
        assert env.num_threads == cap
        with pytest.raises(ValueError, match="num_threads"):
            env.num_threads = _core.MAX_THREADS + 1  # out of range is still refused, not cut
        env.close()


# Run in a fresh interpreter: the pool reads STRATEGO_POOL_IDLE_MS once, and this process's
# pool already has workers from other tests.
_IDLE_SCRIPT = """
import os, sys, time, warnings
import stratego
from stratego import _core

def threads():
    return len(os.listdir("/proc/self/task"))

def run(num_threads, n=2048, steps=3):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        env = stratego.VecEnv(n, num_threads=num_threads, seed=5, observations=False)
    for _ in range(steps):
        env.step(env.sample_actions())
    checksum = env.stats()["checksum"]
    env.close()
    return checksum

def wait_for(cond, seconds=30.0):
    end = time.monotonic() + seconds
    while not cond() and time.monotonic() < end:
        time.sleep(0.05)
    return cond()

base = threads()
want = run(1)
cap = _core.pool_max_threads()
assert run(4096) == want, "the games changed with the thread count"
peak = threads()
assert _core.pool_workers() <= cap - 1, (_core.pool_workers(), cap)
assert peak <= base + cap - 1, f"{peak} threads after num_threads=4096, cap {cap}, {base} before"
assert wait_for(lambda: _core.pool_workers() == 0 and threads() == base), (
    f"idle helpers did not exit: {_core.pool_workers()} workers, {threads()} threads, {base} before")
# Helpers above what the loops now ask for are idle too, though each loop wakes them:
# after a step on every thread, steps on 2 threads for a while leave at most one.
run(4096)
with warnings.catch_warnings():
    warnings.simplefilter("ignore", RuntimeWarning)
    two = stratego.VecEnv(2048, num_threads=2, seed=5, observations=False)
end = time.monotonic() + 1.5
while time.monotonic() < end:
    two.step(two.sample_actions())
assert _core.pool_workers() <= 1, f"{_core.pool_workers()} workers while loops ask for 2 threads"
two.close()
assert wait_for(lambda: _core.pool_workers() == 0 and threads() == base)
# Helpers start again on demand, and play the same games (another number of games: the
# first loop of a loop the pool has not seen runs with helpers, csrc/engine/pool.h).
want = run(1, n=2047)
assert run(4096, n=2047) == want
assert 1 <= _core.pool_workers() <= cap - 1
assert wait_for(lambda: _core.pool_workers() == 0 and threads() == base)
print("ok", base, peak, cap)
"""


def test_threads_stay_at_the_cap_and_idle_helpers_exit():
    import subprocess
    import sys

    env = {**os.environ, "STRATEGO_POOL_IDLE_MS": "200"}
    done = subprocess.run([sys.executable, "-c", _IDLE_SCRIPT], capture_output=True, text=True, env=env,
                          timeout=JOIN_TIMEOUT_S)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("ok")
