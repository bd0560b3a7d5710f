"""The zoo (stratego.agents.zoo, docs/zoo.md): every shipped agent loads through the saved-policy
registry and plays a legal game in every variant it was trained for, by its name
"zoo:NAME" wherever a bot name is taken (Game.bot_move, StrategoEnv's opponent, the arena
and `stratego arena`); an unknown name or a variant it was not trained for is a clear
ValueError that changes nothing."""
from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import stratego  # noqa: E402
from stratego.agents import zoo  # noqa: E402
from stratego.agents.arena import run_arena  # noqa: E402
from stratego.integrations.gym_env import StrategoEnv  # noqa: E402
from stratego.agents.opponent import Opponent  # noqa: E402
from stratego.agents.policy_file import read_policy_file, registered_networks  # noqa: E402

pytestmark = pytest.mark.heavy

AGENTS = [(spec, variant) for spec in zoo.names() for variant in zoo.entry(spec)["variants"]]
#: How a zoo agent was made, beside it in zoo.json (issue 31: command, time, hardware).
PROVENANCE = ("file", "variants", "network", "command", "wall_minutes", "hardware", "scores")


def test_the_zoo_is_small_and_says_how_each_agent_was_made():
    assert AGENTS, "the zoo ships at least one agent"
    total = 0
    for spec in zoo.names():
        record = zoo.entry(spec)
        assert set(PROVENANCE) <= set(record), (spec, sorted(record))
        path = zoo.ZOO_DIR / record["file"]
        total += path.stat().st_size
        # Its network is one the registry names: loading it imports nothing the file names.
        saved = read_policy_file(path)
        assert saved["network"]["factory"] == record["network"] and record["network"] in registered_networks()
        assert saved["variant"]["name"] in record["variants"]
    assert total < 4 << 20, f"the zoo takes {total:,} bytes; it ships in the package (a few MB at most)"


@pytest.mark.parametrize("spec, variant", AGENTS)
def test_each_agent_plays_a_legal_game_by_its_name_in_game_bot_move(spec, variant):
    game = stratego.Game(variant, seed=4)
    for ply in range(3000):
        if game.done:
            break
        name = spec if ply % 2 == 0 else "random"
        action = game.bot_move(name)
        assert game.action_mask()[action], (name, ply, action)
        game.play(action)
    assert game.done and game.bot_move(spec) == -1
    with pytest.raises(zoo.UnknownZooAgentError):
        game.bot_move("zoo:nope")  # a finished game still checks the name


@pytest.mark.parametrize("spec, variant", AGENTS)
def test_each_agent_is_an_opponent_of_strategoenv(spec, variant):
    env = StrategoEnv(variant, opponent=spec, illegal_action="raise")
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(200):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            obs, info = env.reset()


@pytest.mark.parametrize("spec, variant", AGENTS)
def test_each_agent_plays_in_the_arena_and_on_the_command_line(spec, variant):
    result = run_arena([spec, "random"], games=2, variant=variant, seed=3, max_plies=300)
    assert sum(result.record(spec, "random")) == 4
    done = subprocess.run([sys.executable, "-m", "stratego.cli", "arena", spec, "random", "--variant", variant,
                           "--games", "1", "--max-plies", "200", "--seed", "5", "--no-progress"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert spec in done.stdout


def test_an_unknown_name_is_refused_everywhere():
    message = r"no zoo agent 'nope'; the zoo holds \["
    game = stratego.Game(seed=1)
    before = game.clone()
    with pytest.raises(zoo.UnknownZooAgentError, match=message):
        game.bot_move("zoo:nope")
    assert game.bot_move("heuristic") == before.bot_move("heuristic")  # the bot stream did not move
    with pytest.raises(ValueError, match=message):
        Opponent("zoo:nope")
    with pytest.raises(ValueError, match=message):
        StrategoEnv(opponent="zoo:nope")
    with pytest.raises(ValueError, match=message):
        run_arena(["zoo:nope", "random"], games=1)
    with pytest.raises(ValueError, match="use StrategoEnv"):
        stratego.VecEnv(2, opponent=zoo.names()[0])
    done = subprocess.run([sys.executable, "-m", "stratego.cli", "arena", "zoo:nope", "random", "--games", "1",
                           "--no-progress"], capture_output=True, text=True, timeout=300)
    assert done.returncode != 0 and "no zoo agent 'nope'" in done.stderr


@pytest.mark.parametrize("spec", zoo.names())
def test_a_variant_it_was_not_trained_for_is_refused(spec):
    other = next(v for v in ("barrage", "classic") if v not in zoo.entry(spec)["variants"])
    message = f"zoo agent '{spec}' was trained for .*, not for variant '{other}'"
    with pytest.raises(ValueError, match=message):
        stratego.Game(other, seed=1).bot_move(spec)
    with pytest.raises(ValueError, match=message):
        StrategoEnv(other, opponent=spec)
    with pytest.raises(ValueError, match=message):
        run_arena([spec, "random"], games=1, variant=other)


def test_a_zoo_entry_whose_file_differs_from_its_variants_is_refused(tmp_path, monkeypatch):
    # zoo.json says classic, the file was saved for barrage: the policy file's own check.
    from stratego.agents.policy_file import PolicyFileError, save_policy
    from stratego.agents.slim_net import SlimPolicyNet
    net = SlimPolicyNet(num_actions=stratego.load_variant("barrage").num_actions, channels=4)
    save_policy(tmp_path / "b.pt", net, "barrage")
    index = {"format": "stratego-zoo", "format_version": 1,
             "agents": {"liar": {"file": "b.pt", "variants": ["classic"]}}}
    (tmp_path / "zoo.json").write_text(json.dumps(index))
    monkeypatch.setattr(zoo, "ZOO_DIR", tmp_path)
    monkeypatch.setattr(zoo, "INDEX", tmp_path / "zoo.json")
    monkeypatch.setattr(zoo, "_LOADED", {})
    zoo.index.cache_clear()
    try:
        with pytest.raises(PolicyFileError, match="saved for variant 'barrage', asked to play 'classic'"):
            zoo.load("zoo:liar", "classic")
    finally:
        zoo.index.cache_clear()
