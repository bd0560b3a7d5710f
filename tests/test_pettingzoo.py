"""The PettingZoo AEC env: PettingZoo's own conformance tests, and games played
through it agree with stratego.Game."""
from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.heavy
pettingzoo_test = pytest.importorskip("pettingzoo.test")

import stratego  # noqa: E402
from stratego.integrations import pettingzoo as stratego_pz  # noqa: E402


@pytest.mark.parametrize("variant", ["classic", "barrage", "ultimate-lightning"])
def test_api_test(variant):
    pettingzoo_test.api_test(stratego_pz.env(variant=variant), num_cycles=200)
    pettingzoo_test.api_test(stratego_pz.raw_env(variant=variant, max_plies=60), num_cycles=200)


def test_seed_test():
    pettingzoo_test.seed_test(stratego_pz.env, num_cycles=200)


def test_render_test(capsys):
    pettingzoo_test.render_test(stratego_pz.env)
    assert "~~" in capsys.readouterr().out  # human mode printed boards
    with pytest.raises(ValueError, match="render_mode"):
        stratego_pz.raw_env(render_mode="rgb")


def test_reachable_from_the_package_and_the_spaces():
    env = stratego.integrations.pettingzoo.raw_env(variant="barrage", history_k=2)
    env.reset(seed=1)
    assert env.agents == ["player_0", "player_1"] and env.agent_selection == "player_0"
    space = env.observation_space("player_1")
    assert space["observation"].shape == (len(stratego.channel_names(2)), 10, 10)
    assert space["observation"].dtype == np.uint8 and space["action_mask"].dtype == np.int8
    assert env.action_space("player_0").n == env.variant.num_actions


@pytest.mark.parametrize("variant", ["classic", "ultimate-lightning"])
def test_games_agree_with_game(variant):
    """Observations, masks, the agent to move (twice in a row for a rescue) and the
    final rewards are those of a Game replaying the same actions."""
    env = stratego_pz.raw_env(variant=variant)
    rng = np.random.default_rng(0)
    results, repeats = set(), [0]
    for episode in range(5):
        env.reset(seed=episode)
        mirror, final, previous = None, {}, None
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            player = env.possible_agents.index(agent)
            if mirror is None:
                mirror = stratego.Game.from_field(env._game.field, variant=env.variant)
            assert not truncated
            assert np.array_equal(obs["observation"], mirror.observation(player))
            if terminated:
                final[agent] = reward
                env.step(None)
                continue
            repeats[0] += agent == previous
            previous = agent
            assert mirror.to_move == player
            assert np.array_equal(obs["action_mask"].astype(bool), mirror.action_mask())
            other = env.observe(env.possible_agents[1 - player])
            assert not other["action_mask"].any()
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            mirror.play(action)
            env.step(action)
        assert mirror.done
        w = mirror.winner
        expected = (0.0, 0.0) if w is None else (1.0, -1.0) if w == 0 else (-1.0, 1.0)
        assert tuple(final[a] for a in env.possible_agents) == expected
        results.add(w)
    assert len(results) >= 2
    # A rescue is a second action of the same player: the env gives it the turn again.
    assert repeats[0] > 0 if variant == "ultimate-lightning" else repeats[0] == 0


def test_illegal_actions():
    raw = stratego_pz.raw_env()
    raw.reset(seed=0)
    bad = int(np.flatnonzero(raw.observe("player_0")["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="player_0: illegal move"):
        raw.step(bad)
    env = stratego_pz.env()
    env.reset(seed=0)
    env.step(bad)  # PettingZoo's wrapper: the game ends, the offender gets -1
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -1, "player_1": 0}


@pytest.mark.parametrize("kwargs, error, match", [
    ({"setup": "mine"}, ValueError, "setup must be"),
    ({"history_k": 99}, ValueError, "history_k"),
    ({"variant": "nope"}, ValueError, "unknown variant"),
    ({"max_plies": -3}, ValueError, "max_plies"),
    ({"render_mode": "rgb"}, ValueError, "render_mode"),
])
def test_bad_settings(kwargs, error, match):
    with pytest.raises(error, match=match):
        stratego_pz.raw_env(**kwargs)
    with pytest.raises(ValueError, match="render_mode"):
        stratego_pz.raw_env().render()
