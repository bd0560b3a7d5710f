"""The saved-policy format (stratego.agents.policy_file), the reference network
(stratego.agents.nets) and TorchPolicy: the logits layout, save and load, clear refusals, and
a saved policy playing in the arena from the command line."""
from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
import zipfile

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import stratego  # noqa: E402
from stratego.agents.nets import ConvPolicyNet  # noqa: E402
from stratego.agents.policy import ObservationSettings  # noqa: E402
from stratego.agents.policy_file import (  # noqa: E402
    FORMAT_VERSION, PolicyFileError, UntrustedFactoryError, load_policy, read_policy_file, registered_networks,
    save_policy,
)
from stratego.agents.torch_policy import TorchPolicy, masked_logits  # noqa: E402

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
    assert policy.factory == "stratego.agents.nets:ConvPolicyNet" and policy.kwargs["channels"] == 8
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
    assert policy.factory == "stratego.agents.nets:ConvPolicyNet"
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
    (lambda r: r["network"].update(factory="no_such_pkg.nets:Net"), "neither one of stratego's networks"),
    (lambda r: r["network"].update(factory="stratego.agents.nets"), "must be 'module:Class'"),
    (lambda r: r["network"].update(factory=":Net"), r"must be 'module:Class' \(dotted Python names\)"),
    (lambda r: r["network"].update(factory="a b:Net"), "dotted Python names"),
    (lambda r: r["network"].update(factory="torch.nn:Module"), "neither one of stratego's networks"),
    (lambda r: r["network"]["kwargs"].update(channels=torch.zeros(1)), "kwargs.*must hold plain values"),
    (lambda r: r["state_dict"].update(extra=[1]), "must map names .str. to tensors"),
    (lambda r: r["observation"].update(channels=5), "'channels' must be a list"),
    (lambda r: r["variant"].update(num_actions="1800"), r"num_actions must be an int, got '1800' \(str\)"),
    (lambda r: r["variant"].update(num_actions=1800.0), r"num_actions must be an int, got 1800.0 \(float\)"),
    (lambda r: r["network"]["kwargs"].update(blocks=10**9), "blocks must be at most 256"),
    (lambda r: r["network"]["kwargs"].update(channels=2048), "weights do not fit .*stem.0.weight"),
    (lambda r: r["network"]["kwargs"].update(channels=16), "weights do not fit"),
    (lambda r: r["network"]["kwargs"].update(channels=-1), "cannot be built"),
    (lambda r: r["observation"].update(version=99), "observation layout version 99"),
    (lambda r: r["observation"].update(channels=["x"]), "channels differ"),
    (lambda r: r["variant"].update(num_actions=2801), "says 2801 actions"),
    (lambda r: r["variant"]["settings"].pop("rescue"), "must name exactly"),
])
def test_broken_files_are_refused_with_the_cause(saved, tmp_path, change, message):
    _, path = saved
    changed = rewrite(path, tmp_path, change)
    with pytest.raises(PolicyFileError, match=message) as caught:
        load_policy(changed)
    assert str(caught.value).startswith(f"{changed}: ")  # every refusal names the file


@pytest.mark.parametrize("factory, message", [
    ("no_such_pkg.nets:Net", "cannot import module 'no_such_pkg.nets'"),
    ("stratego.agents.nets:Missing", "has no 'Missing'"),
    ("os:system", "is not a torch.nn.Module class"),
    # nn.Module itself builds, but has no forward: a clear refusal, not NotImplementedError.
    ("torch.nn:Module", "fails on one empty observation: NotImplementedError"),
])
def test_trusted_factories_are_still_checked(saved, tmp_path, factory, message):
    _, path = saved

    def change(record):
        record["network"]["factory"] = factory
        if factory == "torch.nn:Module":
            record["network"]["kwargs"], record["state_dict"] = {}, {}
    with pytest.raises(PolicyFileError, match=message):
        load_policy(rewrite(path, tmp_path, change), trust=True)


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
    from stratego.agents.arena import run_arena
    result = run_arena(["random", (str(path), load_policy(path))], games=6, seed=3, max_plies=150)
    assert result.to_dict()["players"] == data["players"]


def test_arena_refuses_a_policy_of_another_variant(saved, capsys):
    _, path = saved
    from stratego.cli import main
    with pytest.raises(SystemExit):
        main(["arena", "random", str(path), "--variant", "barrage", "--no-progress"])
    assert "saved for variant 'classic', asked to play 'barrage'" in capsys.readouterr().err


# A policy file runs no code (docs/agents.md "Saved policies"): a factory that is not
# stratego's or registered is refused before anything is imported.

@pytest.mark.parametrize("factory", ["this:Net", "venv.__main__:Net", "antigravity:Net"])
def test_a_file_naming_a_module_imports_nothing(saved, tmp_path, factory):
    _, path = saved
    module = factory.split(":")[0]
    for name in [module, module.split(".")[0]]:
        sys.modules.pop(name, None)
    named = rewrite(path, tmp_path, lambda r: r["network"].update(factory=factory))
    with pytest.raises(UntrustedFactoryError, match=rf"{re.escape(factory)!s}.*would import module "
                                                    rf"'{re.escape(module)}'.*trust=True \(--trust for stratego arena and stratego serve\)"):
        load_policy(named)
    assert module not in sys.modules and module.split(".")[0] not in sys.modules


def test_arena_refuses_an_untrusted_file_and_runs_nothing(saved, tmp_path, capsys):
    _, path = saved
    named = rewrite(path, tmp_path, lambda r: r["network"].update(factory="this:Net"))
    sys.modules.pop("this", None)
    from stratego.cli import main
    with pytest.raises(SystemExit):
        main(["arena", "random", str(named), "--games", "1", "--no-progress"])
    out, err = capsys.readouterr()
    assert "The Zen of Python" not in out and "only if you trust" in err and "this" not in sys.modules


USER_NET = '''
from stratego.agents.nets import ConvPolicyNet

class UserNet(ConvPolicyNet):
    """A network of the user's own, in a module of its own."""
'''


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    """A module `user_nets_<n>` on the path, defining UserNet; the file it saves names it."""
    name = f"user_nets_{abs(hash(str(tmp_path))) % 10**8}"
    (tmp_path / f"{name}.py").write_text(USER_NET)
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module(name)
    torch.manual_seed(0)
    net = module.UserNet(channels=8, blocks=1)
    path = save_policy(tmp_path / "user.pt", net)
    del sys.modules[name]
    yield name, path
    sys.modules.pop(name, None)


def test_trust_loads_a_users_module(user_module, tmp_path):
    name, path = user_module
    with pytest.raises(UntrustedFactoryError, match=f"'{name}:UserNet' is neither"):
        load_policy(path)
    assert name not in sys.modules
    policy = load_policy(path, trust=True)
    assert type(policy.net).__name__ == "UserNet" and name in sys.modules
    env = stratego.VecEnv(4, "classic", seed=0)
    assert env.action_mask[np.arange(4), policy(env.obs, env.action_mask)].all()
    out = tmp_path / "arena.json"
    done = subprocess.run(
        [sys.executable, "-m", "stratego.cli", "arena", "random", str(path), "--games", "2", "--max-plies", "50",
         "--no-progress", "--trust", "--json", str(out)],
        capture_output=True, text=True, timeout=600,
        env={**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])})
    assert done.returncode == 0, done.stderr
    assert f"results written to {out}" in done.stdout


def test_a_registered_network_loads_without_trust(tmp_path, monkeypatch):
    # An installed package registers its network in the entry point group
    # "stratego.policies": a dist-info folder on the path is what pip leaves.
    name = f"registered_nets_{abs(hash(str(tmp_path))) % 10**8}"
    (tmp_path / f"{name}.py").write_text(USER_NET)
    info = tmp_path / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[stratego.policies]\nusernet = {name}:UserNet\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    module = importlib.import_module(name)
    torch.manual_seed(0)
    path = save_policy(tmp_path / "registered.pt", module.UserNet(channels=8, blocks=1))
    del sys.modules[name]
    # Reading the registry imports nothing.
    assert registered_networks()[f"{name}:UserNet"] == name and name not in sys.modules
    policy = load_policy(path)
    assert type(policy.net).__name__ == "UserNet"
    sys.modules.pop(name, None)


PEAK_SCRIPT = '''
import resource, sys
from stratego.agents.policy_file import PolicyFileError, load_policy
load_policy(sys.argv[1])  # a good file: warms everything up
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    load_policy(sys.argv[2])
    print("LOADED")
except PolicyFileError as exc:
    print("REFUSED", exc)
print("GROWTH_KB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
'''


def peak_growth(good, bad) -> tuple[str, int]:
    """(what loading `bad` said, how much it raised the process's peak memory, in MiB)."""
    done = subprocess.run([sys.executable, "-c", PEAK_SCRIPT, str(good), str(bad)], capture_output=True, text=True,
                          timeout=600, env={**os.environ, "OMP_NUM_THREADS": "1"})
    assert done.returncode == 0, done.stderr
    said = done.stdout.splitlines()
    return said[0], int(said[-1].split()[1]) // 1024


def test_a_small_file_cannot_make_the_loader_allocate(saved, tmp_path):
    # 3 KB of description asking for a network of 300 MB: refused before it is built.
    _, path = saved
    wide = rewrite(path, tmp_path, lambda r: r["network"]["kwargs"].update(channels=2048))
    said, growth = peak_growth(path, wide)
    assert said.startswith("REFUSED") and "weights do not fit" in said, said
    assert growth < 48, f"refusing the file took {growth} MiB"
    # A network larger than max_bytes is refused by its size, before it is built (its
    # weights must match the file's, so only buffers it does not save can outgrow a file).
    from stratego.agents.policy_file import _build
    with pytest.raises(PolicyFileError, match=r"would take [\d,]+ bytes; the limit is 1,000 \(max_bytes\)"):
        _build("stratego.agents.nets:ConvPolicyNet", {"channels": 8, "blocks": 1}, {}, max_bytes=1000)
    with pytest.raises(PolicyFileError, match=r"bytes; a policy file may take at most 1,000 \(max_bytes\)"):
        load_policy(path, max_bytes=1000)


def test_a_compressed_member_is_refused_before_it_inflates(saved, tmp_path):
    # torch.save stores members uncompressed; a forged file deflates 64 MiB of zeros
    # into a member of about 64 KB, which a reader would inflate in full.
    _, path = saved
    big = rewrite(path, tmp_path, lambda r: r["state_dict"].update(pad=torch.zeros(16 << 20)))
    packed = tmp_path / "packed.pt"
    with zipfile.ZipFile(big) as source, zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as out:
        for info in source.infolist():
            out.writestr(info.filename, source.read(info))
    big.unlink()
    assert packed.stat().st_size < 1 << 20
    said, growth = peak_growth(path, packed)
    assert said.startswith("REFUSED") and "is compressed (it would inflate from" in said, said
    assert growth < 32, f"refusing the file took {growth} MiB"


def test_a_cut_file_is_refused_clearly(saved, tmp_path):
    _, path = saved
    cut = tmp_path / "cut.pt"
    cut.write_bytes(path.read_bytes()[:-200])
    with pytest.raises(PolicyFileError, match="not the zip archive torch.save writes"):
        load_policy(cut)


def test_serve_loads_a_users_module_only_with_trust(user_module, monkeypatch):
    """stratego serve --policy takes --trust as the arena does: without it the user's module
    is never imported and the command stops with the refusal."""
    pytest.importorskip("starlette")
    uvicorn = pytest.importorskip("uvicorn")
    name, path = user_module
    from stratego.cli import main
    seen = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(app=app))
    with pytest.raises(SystemExit):
        main(["serve", "--save", "", "--policy", str(path)])
    assert name not in sys.modules and "app" not in seen
    assert main(["serve", "--save", "", "--policy", str(path), "--trust"]) == 0
    assert name in sys.modules and "app" in seen


def test_a_file_saved_before_the_modules_moved_still_loads(saved, tmp_path):
    """A policy saved when ConvPolicyNet lived in stratego.nets names that path; it loads
    as the network's new home without trust, and plays the same moves."""
    net, path = saved
    old = rewrite(path, tmp_path, lambda r: r["network"].update(factory="stratego.nets:ConvPolicyNet"))
    assert read_policy_file(old)["network"]["factory"] == "stratego.nets:ConvPolicyNet"
    loaded = load_policy(old)
    assert type(loaded.net) is ConvPolicyNet
    state, new_state = net.state_dict(), loaded.net.state_dict()
    assert state.keys() == new_state.keys() and all(torch.equal(state[k], new_state[k]) for k in state)
