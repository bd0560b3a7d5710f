"""examples/ppo_selfplay.py's recipe options (issue 31) on a tiny configuration: the slim
network, human setups for the training games, opponents drawn by how often they beat the
learner, ply budgets, the student's own positions in the imitation (--dagger), the
teacher's move as a second PPO target (--teacher-coef), and a start from a saved policy. Only that each runs and stops
where it is told; what each is worth is measured in docs/training.md."""
from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("matplotlib")

# Seconds of training each: the deep layer, as tests/test_example_ppo.py.
pytestmark = [pytest.mark.heavy, pytest.mark.deep]

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "ppo_selfplay.py"
TINY = ["--minutes", "5", "--imitation-minutes", "4", "--num-envs", "16", "--rollout-steps", "8",
        "--eval-minutes", "99", "--eval-games", "2", "--final-eval-games", "2", "--torch-threads", "1",
        "--no-progress"]


def run(*options: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(EXAMPLE), *TINY, *options], capture_output=True, text=True,
                          timeout=600)


def test_the_slim_recipe_stops_at_its_ply_budgets_and_continues_from_its_policy(tmp_path):
    # Imitation: 16 slots x 32 steps = 512 plies an update; PPO: 16 x 8 = 128.
    out = tmp_path / "slim"
    proc = run("--net", "slim", "--obs-format", "codes", "--train-setups", "human", "--opponent-sampling", "beats",
               "--imitation-plies", "1024", "--plies", "1536", "--dagger", "0.5", "--teacher-coef", "0.3",
               "--seed", "4", "--out", str(out))
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = list(csv.DictReader((out / "log.csv").open()))
    imitation = [int(r["plies"]) for r in rows if r["phase"] == "imitation"]
    ppo = [int(r["plies"]) for r in rows if r["phase"] == "ppo"]
    assert imitation == [512, 1024] and ppo == [1024 + 128 * k for k in range(1, 5)], (imitation, ppo)
    # --dagger 0.5: in about half the slots the network played one colour, about a
    # quarter of the 1,024 imitation positions; --teacher-coef: the second loss is logged.
    students = [int(r["student_moves"]) for r in rows if r["phase"] == "imitation"]
    assert 0 < students[0] < students[1] < 512, students
    assert all(float(r["teacher_loss"]) > 0 for r in rows if r["phase"] == "ppo")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["args"]["net"] == "slim" and summary["args"]["blocks"] == 1
    assert summary["opponent_scores"].keys() == {"snapshot", "heuristic", "random"}
    # --init: the saved policy's own network and weights, trained further.
    again = tmp_path / "again"
    proc = run("--init", str(out / "policy.pt"), "--imitation-minutes", "0", "--plies", "128", "--seed", "5",
               "--out", str(again))
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = list(csv.DictReader((again / "log.csv").open()))
    assert [r["teacher_loss"] for r in rows if r["phase"] == "ppo"] == [""]  # off by default
    from stratego.agents.policy_file import load_policy
    assert load_policy(again / "policy.pt").factory == "stratego.agents.slim_net:SlimPolicyNet"


@pytest.mark.parametrize("bad, message", [
    (["--imitation-plies", "-1"], "--imitation-plies and --plies must be >= 0"),
    (["--train-setups", "human", "--deploy"], "--train-setups human and --deploy exclude each other"),
    (["--net", "wide"], "invalid choice: 'wide'"),
    (["--obs-format", "codes"], "--obs-format codes needs --net slim"),
    (["--opponent-sampling", "often"], "invalid choice: 'often'"),
    (["--dagger", "1.5"], "--dagger must be in [0, 1], got 1.5"),
    (["--teacher-coef", "-1"], "--teacher-coef must be >= 0, got -1.0"),
    (["--init", "p.pt", "--net", "slim", "--blocks", "2"],
     "--init takes the saved policy's network as it is; --net, --blocks describe a new one"),
])
def test_bad_recipe_options_are_refused(bad, message):
    proc = subprocess.run([sys.executable, str(EXAMPLE), *bad], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr


def test_init_with_another_history_is_refused(tmp_path):
    from stratego.agents.policy_file import save_policy
    from stratego.agents.slim_net import SlimPolicyNet
    path = save_policy(tmp_path / "k4.pt", SlimPolicyNet(history_k=4, channels=4), "classic")
    proc = run("--init", str(path), "--out", str(tmp_path / "x"))
    assert proc.returncode != 0 and "observes history_k=4; pass --history-k 4" in proc.stderr
