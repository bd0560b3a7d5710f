"""The saved-policy format (stratego.policy_file), the reference network
(stratego.nets) and TorchPolicy: the logits layout, save and load, clear refusals, and
a saved policy playing in the arena from the command line."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import stratego  # noqa: E402
from stratego.nets import ConvPolicyNet  # noqa: E402
from stratego.policy import ObservationSettings  # noqa: E402
from stratego.policy_file import FORMAT_VERSION, PolicyFileError, load_policy, read_policy_file, save_policy  # noqa: E402
from stratego.torch_policy import TorchPolicy, masked_logits  # noqa: E402

pytestmark = pytest.mark.heavy


def tiny_net(variant: str = "classic", seed: int = 0, **kwargs) -> ConvPolicyNet:
    torch.manual_seed(seed)
    return ConvPolicyNet(num_actions=stratego.load_variant(variant).num_actions, channels=8, blocks=1, **kwargs)


@pytest.fixture
def saved(tmp_path):
    net = tiny_net()
    path = save_policy(tmp_path / "p.pt", net, "classic", metadata={"step": 12, "note": "tiny"})
    return net, path


@pytest.mark.parametrize("variant", ["classic", "ultimate-lightning"])
def test_logits_are_read_square_by_square(variant):
    # Logit from * 18 + k is head channel k at square `from` (row * 10 + col); the larger
    # variants' diagonal steps are channels 18-21 per square and rescues 22-33 on rows 0-4.
    net = tiny_net(variant)
    captured = {}
    net.policy_head.register_forward_hook(lambda mod, inp, out: captured.setdefault("head", out))
    env = stratego.VecEnv(3, variant, seed=1)
    logits, value = net(torch.from_numpy(env.obs))
    head = captured["head"]
    n = stratego.load_variant(variant).num_actions
    assert logits.shape == (3, n) and value.shape == (3,) and (value.abs() <= 1).all()
    for a in [0, 17, 18, 5 * 18 + 9, 1799]:
        sq, k = divmod(a, 18)
        assert torch.equal(logits[:, a], head[:, k, sq // 10, sq % 10])
    if n > 1800:
        for a in [1800, 1800 + 37 * 4 + 3, 2199]:
            sq, d = divmod(a - 1800, 4)
            assert torch.equal(logits[:, a], head[:, 18 + d, sq // 10, sq % 10])
        for a in [2200, 2200 + 5 * 50 + 49, 2799]:
            t, h = divmod(a - 2200, 50)
            assert torch.equal(logits[:, a], head[:, 22 + t, h // 10, h % 10])
        assert n == 2801 and net.decline_head is not None


def test_masked_logits_keep_the_entropy_finite():
    logits = torch.randn(2, 5)
    mask = torch.tensor([[True, False, True, False, False], [False] * 4 + [True]])
    out = masked_logits(logits, mask)
    dist = torch.distributions.Categorical(logits=out)
    assert torch.isfinite(dist.entropy()).all()
    assert (dist.probs[~mask] == 0).all()


def test_round_trip_plays_the_same_moves(saved):
    net, path = saved
    policy = load_policy(path, variant="classic")
    live = TorchPolicy(net)
    env = stratego.VecEnv(32, "classic", seed=4)
    for _ in range(20):
        a = policy(env.obs, env.action_mask)
        np.testing.assert_array_equal(a, live(env.obs, env.action_mask))
        assert env.action_mask[np.arange(32), a].all()
        # Greedy: the best legal logit.
        logits = policy.logits(env.obs)
        np.testing.assert_array_equal(a, np.where(env.action_mask, logits, -np.inf).argmax(axis=1))
        env.step(a)
    assert policy.metadata["step"] == 12 and policy.metadata["note"] == "tiny"
    assert policy.metadata["stratego_version"] == stratego.__version__
    assert policy.factory == "stratego.nets:ConvPolicyNet" and policy.kwargs["channels"] == 8
    assert policy.variant == stratego.load_variant("classic")
    assert policy.observation_settings == ObservationSettings()
    record = read_policy_file(path)
    assert record["format"] == "stratego-policy" and record["format_version"] == FORMAT_VERSION
    assert record["observation"]["channels"] == list(stratego.channel_names())


def test_sampling_is_repeatable_from_the_seed(saved):
    _, path = saved
    env = stratego.VecEnv(64, "classic", seed=2)
    a = load_policy(path, sample=True, seed=7)(env.obs, env.action_mask)
    b = load_policy(path, sample=True, seed=7)(env.obs, env.action_mask)
    c = load_policy(path, sample=True, seed=8)(env.obs, env.action_mask)
    greedy = load_policy(path)(env.obs, env.action_mask)
    np.testing.assert_array_equal(a, b)
    assert env.action_mask[np.arange(64), a].all()
    assert not np.array_equal(a, c) and not np.array_equal(a, greedy)
    # The batch size bounds memory, never the answer.
    np.testing.assert_array_equal(load_policy(path, batch_size=5)(env.obs, env.action_mask), greedy)


def test_a_compiled_network_is_saved_as_the_network_it_wraps(tmp_path):
    net = tiny_net()
    compiled = torch.compile(net)  # compiles lazily, at the first call: none here
    policy = load_policy(save_policy(tmp_path / "c.pt", compiled))
    assert policy.factory == "stratego.nets:ConvPolicyNet"
    env = stratego.VecEnv(4, "classic", seed=0)
    np.testing.assert_array_equal(policy(env.obs, env.action_mask), TorchPolicy(net)(env.obs, env.action_mask))


def test_other_observation_settings_round_trip(tmp_path):
    net = tiny_net(history_k=1, belief=True, obs_dtype="float32")
    path = save_policy(tmp_path / "f.pt", net)
    policy = load_policy(path)
    assert policy.observation_settings == ObservationSettings(1, True, "float32")
    env = stratego.VecEnv(4, "classic", seed=0, **policy.observation_settings.env_kwargs())
    assert env.action_mask[np.arange(4), policy(env.obs, env.action_mask)].all()


def test_missing_and_foreign_files_are_refused(tmp_path, saved):
    with pytest.raises(FileNotFoundError, match="does not exist"):
        load_policy(tmp_path / "nope.pt")
    text = tmp_path / "text.pt"
    text.write_text("hello")
    with pytest.raises(PolicyFileError, match="not a stratego policy file"):
        load_policy(text)
    # A whole pickled module: weights_only loading refuses to run its pickle.
    pickled = tmp_path / "module.pt"
    torch.save(tiny_net(), pickled)
    with pytest.raises(PolicyFileError, match=r"weights_only=True\) refused it"):
        load_policy(pickled)
    weights = tmp_path / "weights.pt"
    torch.save(tiny_net().state_dict(), weights)
    with pytest.raises(PolicyFileError, match="format None, expected 'stratego-policy'"):
        load_policy(weights)


def rewrite(path, tmp_path, change):
    record = torch.load(path, weights_only=True)
    change(record)
    out = tmp_path / "changed.pt"
    torch.save(record, out)
    return out


@pytest.mark.parametrize("change, message", [
    (lambda r: r.update(format_version=FORMAT_VERSION + 1), "format version 2; this build reads versions 1 to 1"),
    (lambda r: r.pop("metadata"), r"lacks \['metadata'\]"),
    (lambda r: r["network"].update(factory="no_such_pkg.nets:Net"), "cannot import module 'no_such_pkg.nets'"),
    (lambda r: r["network"].update(factory="stratego.nets:Missing"), "has no 'Missing'"),
    (lambda r: r["network"].update(factory="os:system"), "is not a torch.nn.Module class"),
    (lambda r: r["network"].update(factory="stratego.nets"), "must be 'module:Class'"),
    (lambda r: r["network"]["kwargs"].update(channels=16), "weights do not fit"),
    (lambda r: r["network"]["kwargs"].update(channels=-1), "cannot be built"),
    (lambda r: r["observation"].update(version=99), "observation layout version 99"),
    (lambda r: r["observation"].update(channels=["x"]), "channels differ"),
    (lambda r: r["variant"].update(num_actions=2801), "says 2801 actions"),
    (lambda r: r["variant"]["settings"].pop("rescue"), "must name exactly"),
])
def test_broken_files_are_refused_with_the_cause(saved, tmp_path, change, message):
    _, path = saved
    with pytest.raises(PolicyFileError, match=message):
        load_policy(rewrite(path, tmp_path, change))


def test_a_policy_plays_only_its_variant(saved, tmp_path):
    _, path = saved
    with pytest.raises(PolicyFileError, match=r"saved for variant 'classic', asked to play 'barrage': piece counts"):
        load_policy(path, variant="barrage")
    # Same pieces, another rule setting: refused unless the rules are not checked.
    with pytest.raises(PolicyFileError, match="two_square_limit 3 != 5"):
        load_policy(path, variant=stratego.load_variant("classic", two_square_limit=5))
    load_policy(path, variant=stratego.load_variant("classic", two_square_limit=5), check_rules=False)
    with pytest.raises(PolicyFileError, match="num_actions 1800 != 2801"):
        load_policy(path, variant="ultimate-lightning", check_rules=False)


class LocalNet(torch.nn.Module):
    def forward(self, obs):
        return torch.zeros(len(obs), 1800)


def test_save_refuses_what_would_not_load(tmp_path):
    net = tiny_net()
    with pytest.raises(TypeError, match="plain values"):
        save_policy(tmp_path / "a.pt", net, metadata={"array": np.zeros(2)})
    with pytest.raises(TypeError, match="keys must be str"):
        save_policy(tmp_path / "a.pt", net, metadata={1: "x"})
    with pytest.raises(ValueError, match="would not load back: .*logits of shape"):
        save_policy(tmp_path / "a.pt", net, "ultimate-lightning")
    with pytest.raises(TypeError, match="pass kwargs="):
        save_policy(tmp_path / "a.pt", LocalNet(), observation=ObservationSettings())
    # LocalNet lives in this test module, importable as tests' module name only when
    # pytest puts tests/ on the path; a class defined in a function never is.
    def make():
        class Inner(torch.nn.Module):
            def forward(self, obs):
                return torch.zeros(len(obs), 1800)
        return Inner()
    with pytest.raises(ValueError, match="defined in a script or a function"):
        save_policy(tmp_path / "a.pt", make(), observation=ObservationSettings(), kwargs={})
    assert not any(tmp_path.iterdir())


def test_torch_policy_checks_its_network():
    env = stratego.VecEnv(2, "classic", seed=0)
    nan = TorchPolicy(LocalNet(), ObservationSettings())
    nan.net.forward = lambda obs: torch.full((len(obs), 1800), float("nan"))
    with pytest.raises(ValueError, match="NaN"):
        nan(env.obs, env.action_mask)
    wide = TorchPolicy(tiny_net("ultimate-lightning"))
    with pytest.raises(ValueError, match="another action space"):
        wide(env.obs, env.action_mask)
    with pytest.raises(ValueError, match="obs must have shape"):
        TorchPolicy(tiny_net())(env.obs[:, :10], env.action_mask)
    with pytest.raises(TypeError, match="observation_settings"):
        TorchPolicy(LocalNet())


def test_a_saved_policy_plays_in_the_arena_from_the_command_line(saved, tmp_path):
    _, path = saved
    out = tmp_path / "arena.json"
    done = subprocess.run(
        [sys.executable, "-m", "stratego.cli", "arena", "random", str(path), "--games", "6", "--seed", "3",
         "--max-plies", "150", "--json", str(out), "--no-progress"],
        capture_output=True, text=True, timeout=600, env={**os.environ, "OMP_NUM_THREADS": "1"},
    )
    assert done.returncode == 0, done.stderr
    assert "Elo" in done.stdout and str(path) in done.stdout
    data = json.loads(out.read_text())
    by_name = {p["name"]: p for p in data["players"]}
    assert by_name[str(path)]["games"] == 12 and by_name["random"]["elo"] == 0.0
    # The same games from Python, with the loaded policy given as an object.
    from stratego.arena import run_arena
    result = run_arena(["random", (str(path), load_policy(path))], games=6, seed=3, max_plies=150)
    assert result.to_dict()["players"] == data["players"]


def test_arena_refuses_a_policy_of_another_variant(saved, capsys):
    _, path = saved
    from stratego.cli import main
    with pytest.raises(SystemExit):
        main(["arena", "random", str(path), "--variant", "barrage", "--no-progress"])
    assert "saved for variant 'classic', asked to play 'barrage'" in capsys.readouterr().err
