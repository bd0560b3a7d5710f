"""stratego.agents.slim_net.SlimPolicyNet: the action layout of its heads in every variant, the
compact codes read as the planes they expand to, the saved-policy registry (it loads
without trust), and benchmarks/learner_speed.py's smoke run."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import stratego  # noqa: E402
from stratego.agents.policy_file import load_policy, registered_networks, save_policy  # noqa: E402
from stratego.agents.slim_net import SlimPolicyNet  # noqa: E402

pytestmark = pytest.mark.heavy
ROOT = Path(__file__).resolve().parents[1]


def tiny(variant: str = "classic", **kwargs) -> SlimPolicyNet:
    torch.manual_seed(0)
    return SlimPolicyNet(num_actions=stratego.load_variant(variant).num_actions, channels=8, **kwargs)


@pytest.mark.parametrize("variant", ["classic", "ultimate-lightning"])
def test_logits_are_read_square_by_square(variant):
    # Logit from * 18 + k is head output k at square `from` (row * 10 + col); the larger
    # variants' diagonal steps are outputs 18-21 per square and rescues 22-33 on rows 0-4.
    net = tiny(variant)
    captured = {}
    net.policy_head.register_forward_hook(lambda mod, inp, out: captured.setdefault("head", out))
    env = stratego.VecEnv(3, variant, seed=1, history_k=2)
    logits, value = net(torch.from_numpy(env.obs))
    head = captured["head"]  # (B, 10, 10, heads)
    n = stratego.load_variant(variant).num_actions
    assert logits.shape == (3, n) and value.shape == (3,) and (value.abs() <= 1).all()
    for a in [0, 17, 18, 5 * 18 + 9, 1799]:
        sq, k = divmod(a, 18)
        assert torch.equal(logits[:, a], head[:, sq // 10, sq % 10, k])
    if n > 1800:
        for a in [1800, 1800 + 37 * 4 + 3, 2199]:
            sq, d = divmod(a - 1800, 4)
            assert torch.equal(logits[:, a], head[:, sq // 10, sq % 10, 18 + d])
        for a in [2200, 2200 + 5 * 50 + 49, 2799]:
            t, h = divmod(a - 2200, 50)
            assert torch.equal(logits[:, a], head[:, h // 10, h % 10, 22 + t])
        assert n == 2801 and net.decline_head is not None


@pytest.mark.parametrize("deploy", [False, True])
def test_codes_give_the_outputs_of_the_planes(deploy):
    variant = stratego.load_variant("classic", **({"deploy": 1} if deploy else {}))
    torch.manual_seed(0)
    net = SlimPolicyNet(num_actions=variant.num_actions, channels=8, deploy=deploy)
    setup = "agent" if deploy else "random"
    planes = stratego.VecEnv(4, variant, seed=3, history_k=2, setup=setup)
    codes = stratego.VecEnv(4, variant, seed=3, history_k=2, setup=setup, obs_format="codes")
    planes.reset(seed=3)
    codes.reset(seed=3)
    for _ in range(5):
        actions = planes.sample_actions().copy()
        planes.step(actions)
        codes.step(actions)
    with torch.no_grad():
        a = net(torch.from_numpy(planes.obs))
        b = net(torch.from_numpy(codes.obs))
    assert torch.equal(a[0], b[0]) and torch.equal(a[1], b[1])


def test_codes_of_the_wrong_length_or_type_are_refused():
    net = tiny()
    with pytest.raises(ValueError, match=r"compact codes must be uint8 of shape \(B, "):
        net(torch.zeros(2, 7, dtype=torch.uint8))
    with pytest.raises(ValueError, match="compact codes must be uint8"):
        net(torch.zeros(2, net.codes_length, dtype=torch.float32))
    belief = SlimPolicyNet(belief=True, obs_dtype="float32", channels=8)
    with pytest.raises(ValueError, match="carry no belief"):
        belief(torch.zeros(2, net.codes_length, dtype=torch.uint8))


@pytest.mark.parametrize("bad, message", [({"channels": 0}, "channels must be a positive int"),
                                          ({"blocks": -1}, "blocks must be a positive int"),
                                          ({"num_actions": 5}, "num_actions must be in")])
def test_bad_sizes_are_refused(bad, message):
    with pytest.raises(ValueError, match=message):
        SlimPolicyNet(**bad)


def test_it_is_registered_and_loads_without_trust(tmp_path):
    assert registered_networks()["stratego.agents.slim_net:SlimPolicyNet"] == "stratego"
    net = tiny()
    path = save_policy(tmp_path / "slim.pt", net, "classic")
    policy = load_policy(path, variant="classic")  # trust=False: the registry names it
    assert policy.factory == "stratego.agents.slim_net:SlimPolicyNet"
    env = stratego.VecEnv(5, seed=2, history_k=2)
    actions = policy(env.obs, env.action_mask)
    with torch.no_grad():
        expected = np.where(env.action_mask, net(torch.from_numpy(env.obs))[0].numpy(), -np.inf).argmax(1)
    assert np.array_equal(actions, expected)


def test_learner_speed_benchmark_prints_both_networks():
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "learner_speed.py"), "--quick", "--threads", "1"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "ConvPolicyNet" in done.stdout and "SlimPolicyNet" in done.stdout
    for blocks in ("1 line block", "2 line blocks"):
        assert f"SlimPolicyNet (32 ch, per-square stem, {blocks}) / ConvPolicyNet: inference x" in done.stdout
