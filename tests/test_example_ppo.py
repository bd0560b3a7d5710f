"""examples/ppo_selfplay.py on a tiny configuration for about 30 seconds: it writes a
checkpoint, the CSV log, the plot and the summary, and its checkpoint loads in the arena.
The learning goals are measured by the command in docs/training.md, not here."""
from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("matplotlib")

# The deep layer (docs/testing.md): minutes of training, run in .ci/run.
pytestmark = [pytest.mark.heavy, pytest.mark.deep]

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "ppo_selfplay.py"
TINY = ["--minutes", "0.4", "--imitation-minutes", "0.15", "--num-envs", "16", "--rollout-steps", "8",
        "--channels", "8", "--blocks", "1", "--eval-minutes", "0.2", "--eval-games", "2",
        "--final-eval-games", "2", "--torch-threads", "1", "--no-progress"]


def test_example_writes_checkpoint_log_plot_and_a_policy_the_arena_loads(tmp_path):
    out = tmp_path / "run"
    proc = subprocess.run([sys.executable, str(EXAMPLE), *TINY, "--seed", "3", "--out", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    for name in ("policy.pt", "log.csv", "curve.png", "summary.json"):
        assert (out / name).stat().st_size > 0, name
    rows = list(csv.DictReader((out / "log.csv").open()))
    phases = {r["phase"] for r in rows}
    assert {"imitation", "ppo", "evaluation"} <= phases, phases
    assert all(0.0 <= float(r["random_random"]) <= 1.0 for r in rows if r["phase"] == "evaluation")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["plies"] > 0 and set(summary["final"]) >= {"random_random", "human_heuristic"}
    assert {"simulator", "inference", "backward"} <= set(summary["time_share"])
    # The checkpoint is a saved policy: the arena plays it by its path.
    arena = subprocess.run([sys.executable, "-m", "stratego.cli", "arena", str(out / "policy.pt"), "random",
                            "--games", "2", "--max-plies", "200", "--seed", "5", "--no-progress"],
                           capture_output=True, text=True, timeout=300)
    assert arena.returncode == 0, arena.stderr[-3000:]
    assert "policy" in arena.stdout


@pytest.mark.parametrize("bad, message", [
    (["--minutes", "0"], "--minutes must be > 0"),
    (["--imitation-minutes", "5", "--minutes", "1"], "--imitation-minutes must be in"),
    (["--opponents", "1,2"], "--opponents must be 4 non-negative numbers"),
    (["--opponents", "a,b,c,d"], "--opponents must be 4 numbers"),
])
def test_example_refuses_bad_options(bad, message):
    proc = subprocess.run([sys.executable, str(EXAMPLE), *bad], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr


def test_example_learns_deployment_with_one_flag(tmp_path):
    """--deploy: every game starts with a deployment phase the agent plays; evaluations
    let every player deploy (the bots at random), and the checkpoint observes the
    deployment planes."""
    out = tmp_path / "run"
    proc = subprocess.run([sys.executable, str(EXAMPLE), *TINY, "--seed", "4", "--deploy", "--out", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = list(csv.DictReader((out / "log.csv").open()))
    assert all(0.0 <= float(r["agent_random"]) <= 1.0 for r in rows if r["phase"] == "evaluation")
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary["final"]) >= {"agent_random", "agent_heuristic"}
    from stratego.agents.policy_file import load_policy
    policy = load_policy(out / "policy.pt")
    assert policy.observation_settings.deploy
