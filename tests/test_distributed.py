"""stratego.integrations.distributed on a local Ray: the same games as one machine, faults, errors.

Ray pins its own Gymnasium, so these tests run in a venv of their own (`.[test,ray]`,
the Ray pass of .ci/run, with STRATEGO_REQUIRE_RAY=1: there a missing Ray fails);
elsewhere they skip when Ray is not installed.
"""
from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.heavy, pytest.mark.ray]

if os.environ.get("STRATEGO_REQUIRE_RAY") == "1":
    import ray  # noqa: F401  (the Ray pass: a missing Ray is a failure)
else:
    ray = pytest.importorskip("ray")

from stratego.integrations import distributed  # noqa: E402
from stratego.bench import run_bench  # noqa: E402


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_split_games_covers_every_game_once():
    slices = distributed.split_games(10, 3)
    assert [(s.offset, s.num_envs) for s in slices] == [(0, 4), (4, 3), (7, 3)]
    with pytest.raises(ValueError, match="actors must be an int in"):
        distributed.split_games(3, 4)
    with pytest.raises(ValueError, match="num_envs must be an int"):
        distributed.split_games(0, 1)


@pytest.mark.parametrize("kwargs", [{}, {"observations": False, "variant": "barrage"}])
def test_two_actors_play_the_local_games(local_ray, kwargs):
    variant = kwargs.pop("variant", "classic")
    result = distributed.run_bench_ray(301, 400, actors=2, seed=7, variant=variant, **kwargs)
    local = run_bench(301, 400, seed=7, variant=variant, progress=False, **kwargs)
    assert result.total.checksum == local.checksum
    assert result.total.games_finished == local.games_finished > 0
    assert (result.total.red_wins, result.total.blue_wins, result.total.draws) == \
        (local.red_wins, local.blue_wins, local.draws)
    assert [a.num_envs for a in result.actors] == [151, 150]
    assert len(set(result.pids)) == 2 and os.getpid() not in result.pids


def test_a_pool_keeps_its_actors_across_runs(local_ray):
    with distributed.SimulationPool(64, actors=2) as pool:
        first = pool.bench(50, seed=1, observations=False)
        second = pool.bench(50, seed=2, observations=False)
        again = pool.bench(50, seed=1, observations=False)
        assert first.pids == second.pids == again.pids
        assert first.total.checksum == again.total.checksum != second.total.checksum
        with pytest.raises(ValueError, match="batch_steps must be an int >= 1"):
            pool.bench(0)
    with pytest.raises(RuntimeError, match="the pool is closed"):
        pool.bench(5)


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc)."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_a_killed_actor_is_restarted_and_its_slice_redone(local_ray):
    killed = []

    def kill_mid_run(pids):
        # Killed once it has spent half a second of CPU on its slice: mid-run on a quiet
        # machine and on a loaded one alike (a timer raced the run on a quiet one).
        def kill():
            base = _cpu_seconds(pids[1])
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                if _cpu_seconds(pids[1]) - base >= 0.5:
                    killed.append(pids[1])
                    os.kill(pids[1], signal.SIGKILL)
                    return
                time.sleep(0.01)
        threading.Thread(target=kill, daemon=True).start()

    # Several CPU seconds of stepping a slice, observations on.
    result = distributed.run_bench_ray(2048, 1500, actors=2, seed=5, on_started=kill_mid_run)
    assert killed and result.pids[1] != killed[0]
    assert result.total.checksum == run_bench(2048, 1500, seed=5, progress=False).checksum


def test_an_actor_that_raises_is_named(local_ray):
    with pytest.raises(distributed.ActorFailed, match=r"actor 0 \(games 0\.\.4\) failed to run its slice: "
                                                      r"ValueError: .*no_such_setting"):
        distributed.run_bench_ray(10, 5, actors=2, no_such_setting=1)


def test_a_node_without_the_package_is_named(local_ray):
    with pytest.raises(distributed.ActorFailed, match="actor 0 .* failed to start: .*not installed on this Ray node"):
        distributed.run_bench_ray(10, 5, actors=2, package="stratego_not_installed")


def test_a_run_past_its_timeout_names_the_actor(local_ray):
    with pytest.raises(TimeoutError, match=r"actor 0 \(games 0\.\.2047\) did not run its slice within 0.5 s"):
        distributed.run_bench_ray(4096, 2000, actors=2, timeout=0.5, observations=False)


def _cli(*args, timeout=240):
    return subprocess.run([sys.executable, "-m", "stratego.cli", *args], capture_output=True, text=True,
                          timeout=timeout)


def test_cli_bench_on_a_local_ray_prints_the_local_checksum():
    # Its own process: the command starts (and stops) a local Ray of its own.
    out = _cli("bench", "--ray", "--actors", "2", "--num-envs", "256", "--steps", "200", "--seed", "3",
               "--no-progress")
    assert out.returncode == 0, out.stderr
    local = run_bench(256, 200, seed=3, progress=False)
    assert f"checksum          {local.checksum:016x}" in out.stdout
    assert "actor 0 (games 0..127)" in out.stdout and "actor 1 (games 128..255)" in out.stdout


def test_cli_refuses_an_unreachable_address_quickly():
    out = _cli("bench", "--ray", "127.0.0.1:1", "--steps", "3", timeout=60)
    assert out.returncode == 2
    assert "no Ray head at 127.0.0.1:1" in out.stderr


def test_cli_at_a_grpc_server_that_is_no_ray_head_stops_at_its_timeout():
    # It answers HTTP/2 as a head's GCS does, so it passes the probe (tests/test_ray_connect.py),
    # but Ray's own connect to it retried for over 5 minutes: connect's deadline stops it,
    # and the process exits although Ray's thread still retries.
    from test_ray_connect import H2_SETTINGS, FakeServer

    with FakeServer(H2_SETTINGS, read_first=True) as server:
        start = time.monotonic()
        out = _cli("bench", "--ray", server.address, "--ray-timeout", "5", "--steps", "3", "--no-progress",
                   timeout=120)
        elapsed = time.monotonic() - start
    assert out.returncode == 2, out.stdout + out.stderr
    assert f"Ray did not connect to the head at {server.address} within 5 s" in out.stderr
    assert elapsed < 90, elapsed


def test_cli_refuses_a_malformed_address():
    out = _cli("bench", "--ray", "nowhere", "--steps", "3", timeout=60)
    assert out.returncode == 2 and "a Ray address is HOST:PORT" in out.stderr


def test_the_training_example_collects_its_rollouts_on_ray(tmp_path):
    # The example starts a local Ray of its own (its own process), 2 collector actors.
    pytest.importorskip("torch")
    example = Path(__file__).resolve().parents[1] / "examples" / "ppo_selfplay.py"
    tiny = ["--minutes", "0.4", "--imitation-minutes", "0.1", "--num-envs", "16", "--rollout-steps", "8",
            "--channels", "8", "--blocks", "1", "--eval-minutes", "0.3", "--eval-games", "2",
            "--final-eval-games", "2", "--torch-threads", "1", "--no-progress", "--ray-actors", "2"]
    out = tmp_path / "run"
    proc = subprocess.run([sys.executable, str(example), *tiny, "--seed", "4", "--out", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["args"]["ray_actors"] == 2
    assert summary["time_share"]["rollouts on Ray"] > 0 and summary["time_share"]["actors' inference"] > 0
    assert any(r["phase"] == "ppo" for r in csv.DictReader((out / "log.csv").open()))


def test_a_local_ray_runs_its_actors_at_the_drivers_priority():
    # Ray's default puts workers 15 nice levels down: on a busy machine that halved an
    # actor's speed against the same loop in the driver. connect() starts a local Ray
    # without it (its own process: this module's fixture started Ray itself).
    code = ("import os; from stratego.integrations import distributed as d; d.connect(num_cpus=2); "
            "actors, pids = d.start_actors(d.split_games(4, 2)); "
            "print(os.getpriority(os.PRIO_PROCESS, 0), *[os.getpriority(os.PRIO_PROCESS, p) for p in pids])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=240)
    assert out.returncode == 0, out.stderr[-2000:]
    driver, *actors = map(int, out.stdout.split())
    assert actors == [driver, driver]
