"""The castle PettingZoo AEC env (stratego.castle.pettingzoo): PettingZoo's own
conformance tests in every mode, and games played through it agree with Game."""
from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.heavy
pettingzoo_test = pytest.importorskip("pettingzoo.test")

from stratego.castle import Game  # noqa: E402
from stratego.castle import pettingzoo as castle_pz  # noqa: E402

MODES = ["ffa4", "teams4", "ffa3"]


@pytest.mark.parametrize("mode", MODES)
def test_api_test(mode):
    pettingzoo_test.api_test(castle_pz.env(mode=mode), num_cycles=300)
    pettingzoo_test.api_test(castle_pz.raw_env(mode=mode, max_plies=80, obs_format="codes"), num_cycles=300)


def test_seed_test():
    for mode in MODES:
        pettingzoo_test.seed_test(lambda **kw: castle_pz.env(mode=mode, **kw), num_cycles=300)


def test_render_test(capsys):
    pettingzoo_test.render_test(castle_pz.env)
    assert "turret:" in capsys.readouterr().out  # human mode printed boards
    with pytest.raises(ValueError, match="render_mode"):
        castle_pz.raw_env(render_mode="rgb")


def test_spaces_and_bad_arguments():
    env = castle_pz.raw_env(mode="ffa3")
    env.reset(seed=1)
    assert env.possible_agents == ["player_0", "player_1", "player_2"] and env.agent_selection == "player_0"
    assert env.infos["player_2"]["seat"] == "w"
    space = env.observation_space("player_1")
    assert space["observation"].shape == (115, 15, 15) and space["action_mask"].shape == (2616,)
    assert len(castle_pz.raw_env(mode="teams4").possible_agents) == 4
    with pytest.raises(ValueError, match="obs_format"):
        castle_pz.raw_env(obs_format="pixels")
    with pytest.raises(ValueError, match="back_and_forth"):
        castle_pz.raw_env(back_and_forth=0)
    obs = env.observe("player_0")
    with pytest.raises(ValueError, match="player_0: .*"):
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))


@pytest.mark.parametrize("mode", MODES)
def test_games_agree_with_game(mode):
    """Observations, masks, the agent that decides (the same seat for a take or recruit,
    a defender for its recruitment) and the final rewards are those of a Game replaying
    the same actions; heuristic seats make the games end at the turret."""
    env = castle_pz.raw_env(mode=mode)
    rng = np.random.default_rng(0)
    ends = set()
    for episode in range(3):
        env.reset(seed=episode)
        mirror = Game(seed=env._game._start["seed"], **env.settings)
        final = {}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            seat = env.possible_agents.index(agent)
            assert not truncated
            assert np.array_equal(obs["observation"], mirror.observation(seat))
            if terminated:
                final[agent] = reward
                env.step(None)
                continue
            assert seat == mirror.to_play
            assert np.array_equal(obs["action_mask"], np.frombuffer(mirror.legal_mask(), np.uint8))
            legal = np.flatnonzero(obs["action_mask"])
            action = mirror.bot_move() if seat == episode % env.seats else int(rng.choice(legal))
            env.step(action)
            mirror.play(action)
        winners = mirror.winners
        assert final == {a: (0.0 if not winners else 1.0 if s in winners else -1.0)
                         for s, a in enumerate(env.possible_agents)}
        ends.add(mirror.end_reason)
    assert "turret" in ends
