"""Two Python threads on one VecEnv: the step loop runs without the GIL, so a second
caller must get a clear RuntimeError (or wait its turn), never a corrupted game."""
from __future__ import annotations

import os
import sys
import threading
import time

import numpy as np
import pytest

import stratego

from depth import depth
from patience import patience


def test_two_threads_stepping_one_env_never_corrupt_it():
    env = stratego.VecEnv(2048, seed=5, num_threads=1)
    errors: list[str] = []
    steps = [0, 0]
    stop = threading.Event()

    def worker(k: int) -> None:
        while not stop.is_set() and steps[k] < 60:
            try:
                env.step(env.sample_actions())
                steps[k] += 1
            except RuntimeError as exc:
                errors.append(str(exc))
            except ValueError as exc:
                # The other thread moved the games on between our sample and our step:
                # the action is refused cleanly, naming the game.
                assert "illegal action" in str(exc) or "out of range" in str(exc)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=patience(120))
    stop.set()
    assert not any(t.is_alive() for t in threads)
    assert all("another thread" in e for e in errors)
    # Every game is still a consistent state: a save of it passes the full check.
    blob = env.save_state()
    other = stratego.VecEnv(2048)
    other.load_state(blob)
    assert sum(steps) > 0


def test_close_while_another_thread_steps_is_refused_or_waits():
    env = stratego.VecEnv(4096, seed=1, num_threads=1)
    started = threading.Event()
    outcome: list[str] = []

    def stepper() -> None:
        started.set()
        for _ in range(30):
            try:
                env.step(env.sample_actions())
            except RuntimeError as exc:
                outcome.append(str(exc))
                return

    t = threading.Thread(target=stepper)
    t.start()
    started.wait()
    closed = False
    while not closed:
        try:
            env.close()
            closed = True
        except RuntimeError as exc:
            assert "another thread" in str(exc)
    t.join(timeout=patience(120))
    assert env.closed
    assert all("closed" in o or "another thread" in o for o in outcome)
    with pytest.raises(RuntimeError):
        env.step(np.zeros(4096, dtype=np.int64))


# ---------------------------------------------------------------- a refused call touches nothing
# Two threads race every pair of an env's entry points (both games, the learner-vs-bot
# batch, a recording batch; issue 26 item 1). A call refused with "another thread" must
# have written nothing: the env ends exactly as the winner's call alone leaves it from
# the same start, and the winner's outputs are that call's. When both calls get through
# (one after the other), the env ends as one of the two orders leaves it. A one-thread
# replay on a twin env is the reference. The batches are large enough that a step or a
# reset runs for milliseconds without the GIL: on the tree before the fix the loser's
# writes (the reset mask, the acting players) landed inside the winner's call.


def _frozen(value):
    """A deep copy of what a call returned (its arrays are the env's buffers)."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, dict):
        return {k: _frozen(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return type(value)(_frozen(v) for v in value)
    return value


def _outcome(call, env, k):
    try:
        return ("ok", _frozen(call(env, k)))
    except (RuntimeError, ValueError) as exc:
        return (type(exc).__name__, str(exc))


def _ending(outcome) -> tuple:
    """How a call ended: ("ok",) or its exception's type and message."""
    return outcome[:1] if outcome[0] == "ok" else outcome


def _state(env) -> dict:
    """Everything an entry point writes: the games, streams and counters (a save, after
    handing out the records waiting), every output and the shell's own buffers."""
    records = env.pop_records().actions.copy() if getattr(env, "recording", False) else None
    done = env.terminated | env.truncated
    state = {"save": env.save_state(), "records": records, "acted": env.acted.copy(), "over": env.over,
             "sampled": env._sampled.copy(), "final_obs": env.final_obs[done].copy()}
    for name in ("obs", "action_mask", "to_play", "rewards", "reward", "terminated", "truncated",
                 "final_winner", "final_reason", "final_plies"):
        state[name] = getattr(env, name).copy()
    return state


def _same(a, b) -> bool:
    try:
        np.testing.assert_equal(a, b)
        return True
    except AssertionError:
        return False


def _replay(twin, start: bytes, calls) -> tuple:
    """The outcomes of `calls` ((call, k) pairs) played by one thread from `start`, and
    the state they leave."""
    twin.load_state(start)
    twin._sampled[:] = 0
    outcomes = [_outcome(call, twin, k) for call, k in calls]
    return outcomes, _state(twin)


def _race(make_env, calls: dict, start: bytes, rounds: int) -> int:
    """Races every pair of `calls` (name -> call(env, k), k the thread's 0 or 1) from
    `start`, `rounds` times each; the number of races in which a call was refused."""
    env, twin = make_env(), make_env()
    refused = 0
    names = sorted(calls)
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # interleave the threads' Python code as often as it can
    try:
        for i, first in enumerate(names):
            for second in names[i:]:
                pair = [(calls[first], 0), (calls[second], 1)]
                for _ in range(rounds):
                    env.load_state(start)
                    env._sampled[:] = 0
                    outcomes = [None, None]
                    barrier = threading.Barrier(2)

                    def run(j):
                        barrier.wait()
                        outcomes[j] = _outcome(pair[j][0], env, pair[j][1])

                    threads = [threading.Thread(target=run, args=(j,)) for j in (0, 1)]
                    for t in threads:
                        t.start()
                    for t in threads:
                        t.join(60)
                    state = _state(env)
                    lost = [j for j in (0, 1)
                            if outcomes[j][0] == "RuntimeError" and "another thread" in outcomes[j][1]]
                    assert len(lost) < 2, (first, second, outcomes)
                    if lost:
                        refused += 1
                        won = 1 - lost[0]
                        want, want_state = _replay(twin, start, [pair[won]])
                        assert _same(outcomes[won], want[0]), (first, second, "the winner's outputs")
                        assert _same(state, want_state), (first, second, "a refused call changed the env")
                    else:
                        # What each call returned is the env's buffers, which the later
                        # call overwrites: compare how each call ended.
                        endings = sorted(map(_ending, outcomes))
                        assert any(_same(st, state) and sorted(map(_ending, out)) == endings
                                   for out, st in (_replay(twin, start, order) for order in (pair, pair[::-1]))), \
                            (first, second, endings)
    finally:
        sys.setswitchinterval(switch)
    return refused


def _halves(n: int, k: int) -> np.ndarray:
    """Thread k's reset mask: the even games for k 0, the odd ones for k 1."""
    return np.arange(n) % 2 == k


def _shell_calls(n: int, other: bytes) -> dict:
    """The entry points every env on VecShell has; thread k's arguments differ."""
    return {
        "reset": lambda env, k: env.reset(seed=7 + k),
        "reset_some": lambda env, k: env.reset(options={"reset_mask": _halves(n, k)}),
        "step": lambda env, k: env.step(env.sample_actions() if k == 0 else env.bot_actions("random")),
        "sample_actions": lambda env, k: env.sample_actions(),
        "bot_actions": lambda env, k: env.bot_actions("random"),
        "load_state": lambda env, k: env.load_state(other) if k else env.save_state(),
        "save_state": lambda env, k: env.save_state(),
        "stats": lambda env, k: env.stats(),
    }


def _saves(env, steps: int) -> list[bytes]:
    """Two saves of env, `steps` random steps apart (records handed out first)."""
    blobs = []
    for _ in range(2):
        for _ in range(steps):
            env.step(env.sample_actions())
        if getattr(env, "recording", False):
            env.pop_records()
        blobs.append(env.save_state())
    return blobs


def test_racing_calls_on_one_env_refuse_the_loser_untouched():
    n = 1024
    make = lambda: stratego.VecEnv(n, num_threads=1, illegal_action="lose", max_plies=50,  # noqa: E731
                                   autoreset_mode="next_step", full_obs=True)
    source = make()
    source.reset(seed=1)
    start, other = _saves(source, 20)
    calls = _shell_calls(n, other)
    calls["game_field"] = lambda env, k: env.game_field(k)
    calls["sample_worlds"] = lambda env, k: env.sample_worlds(1, seed=k, skip=True)
    assert _race(make, calls, start, rounds=depth(1, 4)) > 0


@pytest.mark.parametrize("kind", ["opponent", "record"])
def test_racing_calls_on_a_versus_or_recording_env_refuse_the_loser_untouched(kind):
    # The bot's replies run inside step; a recording env's records go with its saves.
    n = 256
    kwargs = {"opponent": "heuristic"} if kind == "opponent" else {"record": True}
    make = lambda: stratego.VecEnv(n, num_threads=1, illegal_action="lose", max_plies=30, **kwargs)  # noqa: E731
    source = make()
    source.reset(seed=2)
    start, other = _saves(source, 3)
    calls = _shell_calls(n, other)
    del calls["stats"], calls["sample_actions"]
    if kind == "record":
        calls["pop_records"] = lambda env, k: env.pop_records().actions
    assert _race(make, calls, start, rounds=depth(1, 2)) > 0


def test_racing_calls_on_one_castle_env_refuse_the_loser_untouched():
    from stratego.castle import VecEnv as CastleVecEnv
    n = 256
    make = lambda: CastleVecEnv(n, "ffa4", num_threads=1, autoreset_mode="next_step")  # noqa: E731
    source = make()
    source.reset(seed=1)
    start, other = _saves(source, 10)
    calls = _shell_calls(n, other)
    calls["game"] = lambda env, k: env._batch.game_state(k)
    assert _race(make, calls, start, rounds=depth(1, 4)) > 0


# ---------------------------------------------------------------- fork() in the middle of a call

def _child_after_fork(env, make) -> int:
    """In a child forked while another thread of the parent was inside env: 0 if the env
    refuses every call but close, naming the fork, then closes, and a new env steps; 3 if
    no call was in flight at the fork after all; 1 otherwise."""
    try:
        try:
            env.stats()
            interrupted = False
        except RuntimeError as exc:
            if "fork" not in str(exc) or "another thread" in str(exc):
                return 1
            interrupted = True
        if interrupted:
            for call in (lambda: env.step(np.zeros(env.num_envs, dtype=np.int64)), env.save_state,
                         lambda: env.reset(seed=1)):
                try:
                    call()
                    return 1
                except RuntimeError as exc:
                    if "fork" not in str(exc):
                        return 1
        env.close()
        env.close()  # a second close is safe
        fresh = make()
        fresh.reset(seed=3)
        fresh.step(fresh.sample_actions())
        fresh.close()
        return 0 if interrupted else 3
    except BaseException:
        import traceback
        traceback.print_exc()
        return 1


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no os.fork on this platform")
@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # fork() with threads (Python 3.12+)
@pytest.mark.parametrize("where", ["forking thread", "new thread"])
@pytest.mark.parametrize("game", ["stratego", "castle"])
def test_a_child_forked_mid_call_closes_its_inherited_env(game, where):
    """issue 26: a child forked while another thread steps found the env "used by another
    thread" and could not close it, though the child has no other thread. A thread the
    child starts may get the gone stepper's thread id (glibc gives it the stepper's
    stack): it too is refused naming the fork, and may close the env, not "re-entrant"."""
    if game == "castle":
        from stratego.castle import VecEnv as CastleVecEnv
        make = lambda: CastleVecEnv(256, "ffa4", num_threads=1)  # noqa: E731
    else:
        make = lambda: stratego.VecEnv(2048, num_threads=1)  # noqa: E731
    env = make()
    env.reset(seed=0)
    stop = threading.Event()

    def stepping():
        while not stop.is_set():
            env.step(env.sample_actions())

    stepper = threading.Thread(target=stepping)
    stepper.start()
    codes = []
    try:
        while len(codes) < 6 and codes.count(0) < 2:
            try:
                env.stats()  # refused while the stepper is inside a call
                continue
            except RuntimeError:
                pass
            pid = os.fork()
            if pid == 0:
                if where == "forking thread":
                    os._exit(_child_after_fork(env, make))
                code = []
                child = threading.Thread(target=lambda: code.append(_child_after_fork(env, make)))
                child.start()
                child.join(60)
                os._exit(code[0] if code else 1)
            deadline = time.monotonic() + 60
            while True:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    break
                if time.monotonic() > deadline:
                    os.kill(pid, 9)
                    os.waitpid(pid, 0)
                    pytest.fail("a child forked mid-step hung")
                time.sleep(0.01)
            codes.append(os.waitstatus_to_exitcode(status))
    finally:
        stop.set()
        stepper.join(60)
    assert all(code in (0, 3) for code in codes), codes
    assert codes.count(0) >= 1, codes
    env.close()  # the parent's env is its own as ever


@pytest.mark.parametrize("game", ["stratego", "castle"])
def test_num_threads_is_refused_while_another_thread_holds_the_env_or_it_is_closed(game):
    """Setting num_threads is a call like any other, in both games: refused, the value
    kept, while another thread is inside the env, and once the env is closed."""
    if game == "castle":
        from stratego.castle import VecEnv as CastleVecEnv
        env = CastleVecEnv(4, "ffa4", num_threads=1, seed=0)
    else:
        env = stratego.VecEnv(4, num_threads=1, seed=0)
    env._batch.claim()  # as VecShell's step holds it
    try:
        outcome = []

        def set_threads():
            try:
                env.num_threads = 2
                outcome.append("set")
            except RuntimeError as exc:
                outcome.append(str(exc))

        other = threading.Thread(target=set_threads)
        other.start()
        other.join(60)
    finally:
        env._batch.release()
    assert len(outcome) == 1 and "another thread" in outcome[0], outcome
    assert env.num_threads == 1
    env.close()
    with pytest.raises(RuntimeError, match="closed"):
        env.num_threads = 2
