"""Two Python threads on one VecEnv: the step loop runs without the GIL, so a second
caller must get a clear RuntimeError (or wait its turn), never a corrupted game."""
from __future__ import annotations

import threading

import numpy as np
import pytest

import stratego

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
