"""The benchmark scripts still run against the current API (smallest sizes; no timing
is asserted, only that they finish, write their results and find the checksums equal)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_suite_runs_and_writes_json(tmp_path):
    subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "suite.py"), "--envs", "256", "--threads", "1",
         "--configs", "step,step+mask+obs", "--min-time", "0.01", "--out", str(tmp_path)],
        check=True, capture_output=True, timeout=300,
    )
    results = list(tmp_path.glob("*.json"))
    assert len(results) == 1
    data = json.loads(results[0].read_text())
    assert data, "empty results"
    versus = data["versus"]
    for bot in ("random", "heuristic"):
        assert versus[f"learner_steps_per_s_vs_{bot}"] > 0 and versus[f"{bot}_decisions_per_s"] > 0
    assert any(t["target"].startswith("learner steps/s vs heuristic") for t in data["targets"])
    for plies in (0, 100, 400):
        assert data["sampling"][f"ply_{plies}"]["worlds_per_s"] > 0
    assert data["pimc"]["decisions_per_s"] > 0
    names = {t["target"] for t in data["targets"]}
    assert "hidden-state worlds sampled/s at ply 100, 1 thread" in names and "PIMC bot ms a decision, 1 thread" in names
    recording = data["recording"]  # issue 16: records on vs off, the same games
    assert all(c["checksums_identical"] for c in recording["configs"].values()) and recording["games_handed_out"] > 0


def test_bots_benchmark_runs():
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bots.py"), "winrate", "--games", "20",
                           "--setups", "random", "human", "--threads", "1"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "all setups:" in done.stdout and "95% CI" in done.stdout
    # --seeds pools the games of consecutive seeds (the evaluation in docs/agents.md).
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bots.py"), "winrate", "--games", "10",
                           "--setups", "random", "--seed", "5", "--seeds", "2", "--threads", "1"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "seeds 5-6, pooled" in done.stdout and "both       games    20" in done.stdout
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bots.py"), "speed", "--num-envs", "64",
                           "--seconds", "0.05", "--warmup", "5"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "heuristic" in done.stdout and "M decisions/s" in done.stdout


def test_soak_quick_keeps_memory_flat():
    env = dict(os.environ)
    if "ASAN_OPTIONS" in env:
        # Under AddressSanitizer freed memory waits in a quarantine, which would read as
        # growth: with none, the footprint is the program's own.
        env["ASAN_OPTIONS"] += ":quarantine_size_mb=0:thread_local_quarantine_size_kb=0"
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "soak.py"), "--quick"],
                          capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "soak: OK" in done.stdout


def test_cli_reports_bad_settings_without_a_traceback():
    done = subprocess.run([sys.executable, "-m", "stratego.cli", "bench", "--variant", "nope"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "unknown variant 'nope'" in done.stderr and "Traceback" not in done.stderr


def test_cli_bench_runs_and_prints_the_checksum():
    done = subprocess.run([sys.executable, "-m", "stratego.cli", "bench", "--num-envs", "64", "--steps", "50",
                           "--no-progress"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("checksum") == 2 and "steps/s" in done.stdout


def test_progress_rate_counts_the_time_of_the_steps_it_reports(monkeypatch):
    # A fake clock that advances 1 s a call: the rate shown after k steps must divide by
    # the time up to the end of step k (the first report once showed steps over the
    # near-zero time before the first step).
    import stratego.bench as bench

    clock = iter(range(10_000))
    monkeypatch.setattr(bench.time, "perf_counter", lambda: float(next(clock)))
    shown = []
    monkeypatch.setattr(bench.ProgressBar, "update", lambda self, fraction, rate, force=False: shown.append(rate))
    bench.run_bench(num_envs=8, batch_steps=3, progress=True)
    # start at 0; step k ends at 2k (one read before it, one after)
    assert shown[:3] == [8 * 1 / 2, 8 * 2 / 4, 8 * 3 / 6]


def _suite_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_suite", ROOT / "benchmarks" / "suite.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_peer_figure_quoted_without_peer_python():
    suite = _suite_module()
    peer = suite.measure_peer(None, 10)
    assert peer == {"steps_per_s": suite.PEER_QUOTED_STEPS_PER_S, "measured": False, "source": "quoted in issue 12"}


def test_peer_ratios_check_the_goal_on_the_quoted_figure_and_the_peers_env_step():
    suite = _suite_module()
    quoted = suite.peer_references(suite.measure_peer(None, 10))
    assert [(label, steps, goal) for label, steps, goal, _ in quoted] == [
        ("at issue 12's figure", 39_000, True)]
    measured = suite.peer_references({"steps_per_s": 60_000, "measured": True, "env": 25_000, "core": 60_000})
    # The Numba core without the env is printed for information, never the goal's check.
    assert [(label, steps, goal) for label, steps, goal, _ in measured] == [
        ("at issue 12's figure", 39_000, True), ("env.step", 25_000, True), ("Numba core", 60_000, False)]


def test_peer_python_without_the_peer_fails_clearly(tmp_path):
    # This interpreter has no stratego_env: the suite must stop and say which command failed.
    suite = _suite_module()
    try:
        import stratego_env  # noqa: F401
    except ImportError:
        pass
    else:  # only where the peer is installed beside the package
        pytest.skip("stratego_env is importable here")
    with pytest.raises(SystemExit) as exc:
        suite.measure_peer(Path(sys.executable), 10)
    message = str(exc.value)
    assert "--peer-python" in message and "peer.py" in message and "stratego_env" in message
