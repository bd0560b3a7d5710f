"""Self-play bookkeeping on the two-player VecEnv: the acting player and both players'
rewards per step, per-player GAE (against a hand-computed example and against real
games), the autoreset modes as Gymnasium 1.x defines them, and Gymnasium's vector
wrappers on the env."""
from __future__ import annotations

import numpy as np
import pytest
import stratego
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import DtypeObservation, FlattenObservation, RecordEpisodeStatistics
from stratego import VecEnv
from stratego.agents.selfplay import per_player_gae

from gymnasium_versions import SAME_STEP_WRAPPERS


# ---------------------------------------------------------------- per_player_gae by hand

def test_per_player_gae_hand_computed():
    """Two slots, six steps, gamma 0.9, lambda 0.8 (gamma * lambda = 0.72).

    Slot 0: red wins at t2 (its +1 and blue's -1 arrive on red's step); a new game
    starts at t3 and crosses the buffer's end, blue to move next with value 0.7.
    Slot 1: blue loses on its own move at t1 (e.g. an illegal action); the next game is
    a draw at t5 (a cap); the value of the game after it (0.3) must not be used.
    """
    red, blue = 0, 1
    players = np.array([[red, red], [blue, blue], [red, red], [red, blue], [blue, red], [red, blue]])
    dones = np.zeros((6, 2), dtype=bool)
    rewards = np.zeros((6, 2, 2))
    dones[2, 0], rewards[2, 0] = True, (1, -1)
    dones[1, 1], rewards[1, 1] = True, (1, -1)
    dones[5, 1] = True
    values = np.array([[0.1, -0.1], [0.2, -0.2], [0.3, -0.3], [0.4, -0.4], [0.5, -0.5], [0.6, -0.6]])
    adv, ret = per_player_gae(rewards, values, players, dones, next_value=np.array([0.7, 0.3]),
                              next_to_play=np.array([blue, red]), gamma=0.9, gae_lambda=0.8)
    expected = np.zeros((6, 2))
    # Slot 0, red: t2 wins (1 - 0.3); t0 -> t2: 0.9*0.3 - 0.1 + 0.72*0.7.
    expected[2, 0] = 0.7
    expected[0, 0] = 0.674
    # Slot 0, blue: t1 loses on red's step t2: -1 - 0.2.
    expected[1, 0] = -1.2
    # Slot 0, new game, red: t5 bootstraps from minus blue's next value: 0.9*-0.7 - 0.6;
    # t3 -> t5: 0.9*0.6 - 0.4 + 0.72*-1.23.
    expected[5, 0] = -1.23
    expected[3, 0] = -0.7456
    # Slot 0, blue: t4's next move is the one after the buffer: 0.9*0.7 - 0.5.
    expected[4, 0] = 0.13
    # Slot 1, game A: red's t0 gets the +1 of t1: 1 + 0.1; blue's t1: -1 + 0.2.
    expected[0, 1] = 1.1
    expected[1, 1] = -0.8
    # Slot 1, game B (draw at t5): red t4: 0 + 0.5, t2 -> t4: 0.9*-0.5 + 0.3 + 0.72*0.5;
    # blue t5: 0 + 0.6, t3 -> t5: 0.9*-0.6 + 0.4 + 0.72*0.6.
    expected[4, 1] = 0.5
    expected[2, 1] = 0.21
    expected[5, 1] = 0.6
    expected[3, 1] = 0.292
    np.testing.assert_allclose(adv, expected, atol=1e-6)
    np.testing.assert_allclose(ret, expected + values, atol=1e-6)
    assert adv.dtype == ret.dtype == np.float32


def test_per_player_gae_rejects_bad_input():
    ok = dict(rewards=np.zeros((3, 2, 2)), values=np.zeros((3, 2)), players=np.zeros((3, 2), int),
              dones=np.zeros((3, 2), bool), next_value=np.zeros(2), next_to_play=np.zeros(2, int))
    per_player_gae(**ok)
    for key, bad, match in [
        ("rewards", np.zeros((3, 2)), r"rewards must have shape \(3, 2, 2\)"),
        ("players", np.full((3, 2), 2), "players must hold"),
        ("players", np.zeros((3, 2)), "players must be an integer array"),
        ("dones", np.zeros((3, 2), int), "dones must be a bool array"),
        ("next_to_play", np.full(2, -1), "next_to_play must hold"),
        ("values", np.zeros(3), r"values must have shape \(T, N\)"),
    ]:
        with pytest.raises((ValueError, TypeError), match=match):
            per_player_gae(**{**ok, key: bad})
    with pytest.raises(ValueError, match="gamma"):
        per_player_gae(**ok, gamma=1.5)


# ---------------------------------------------------------------- on real games

def rollout(env, steps, seed):
    env.reset(seed=seed)
    n = env.num_envs
    players = np.zeros((steps, n), np.int64)
    rewards = np.zeros((steps, n, 2), np.float32)
    dones = np.zeros((steps, n), bool)
    for t in range(steps):
        actions = env.sample_actions().copy()
        _, reward, terminated, truncated, info = env.step(actions)
        players[t] = info["acted"]
        rewards[t] = info["rewards"]
        dones[t] = terminated | truncated
        acted = players[t] >= 0
        assert np.array_equal(reward[acted], rewards[t][acted, players[t][acted]])
    return players, rewards, dones


@pytest.mark.parametrize("mode", [AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP])
def test_per_player_returns_are_each_players_result(mode):
    """gamma = lambda = 1 and zero values: every move of a game that ended in the
    buffer returns its player's result, the loser's moves -1 although the -1 arrived on
    the winner's step."""
    env = VecEnv(16, max_plies=40, autoreset_mode=mode)
    steps = 200
    players, rewards, dones = rollout(env, steps, seed=3)
    _, ret = per_player_gae(rewards, np.zeros((steps, 16)), players, dones, np.zeros(16),
                            env.to_play.astype(np.int64), gamma=1.0, gae_lambda=1.0)
    checked = decisive = 0
    for i in range(16):
        start = 0
        for end in np.flatnonzero(dones[:, i]):
            for t in range(start, end + 1):
                if players[t, i] >= 0:
                    assert ret[t, i] == rewards[end, i, players[t, i]], (i, t, end)
                    checked += 1
            decisive += rewards[end, i, 0] != 0
            start = end + 1
        assert (ret[start:, i] == 0).all()  # unfinished: bootstrap from zero values
    if mode == AutoresetMode.NEXT_STEP:
        # The step after an end starts the next game and has no player.
        ended = np.argwhere(dones[:-1])
        assert (players[ended[:, 0] + 1, ended[:, 1]] == -1).all()
    assert checked > 1000 and decisive > 0


# ---------------------------------------------------------------- autoreset modes

def test_mode_is_in_the_metadata_and_checked():
    assert VecEnv(2).metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    env = VecEnv(2, autoreset_mode="next_step")
    assert env.metadata["autoreset_mode"] == env.autoreset_mode == AutoresetMode.NEXT_STEP
    assert VecEnv.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP  # per instance
    with pytest.raises(ValueError, match="autoreset_mode must be"):
        VecEnv(2, autoreset_mode="sometimes")


def step_until_an_end(env, limit=400):
    for _ in range(limit):
        obs, reward, terminated, truncated, info = env.step(env.sample_actions())
        if terminated.any():
            return obs, reward, terminated, truncated, info
    raise AssertionError("no game ended")


def test_next_step_shows_the_end_then_starts_the_next_game():
    env = VecEnv(8, max_plies=30, autoreset_mode=AutoresetMode.NEXT_STEP, seed=4)
    mirrors = [stratego.Game.from_field(env.game_field(i), to_move=0, max_plies=30) for i in range(8)]
    for _ in range(100):
        actions = env.sample_actions().copy()
        for i, g in enumerate(mirrors):
            g.play(int(actions[i]))
        obs, reward, terminated, truncated, info = env.step(actions)
        if terminated.any():
            break
    ended = terminated.copy()
    i = int(np.flatnonzero(ended)[0])
    assert "final_obs" not in info and info["_final_info"][i]
    assert not env.action_mask[ended].any()
    assert np.array_equal(env.over, ended)
    # obs holds the final position: the view of the player to move after the end.
    final = mirrors[i]
    assert final.done and final.field == env.game_field(i)
    assert np.array_equal(obs[i], final.observation(final.to_move))
    before = env.stats()["games_finished"]
    actions = env.sample_actions().copy()
    assert (actions[ended] == -1).all()  # nothing legal in a finished game: ignored
    obs, reward, terminated, truncated, info = env.step(actions)
    assert not terminated[ended].any() and (reward[ended] == 0).all() and (info["rewards"][ended] == 0).all()
    assert (info["acted"][ended] == -1).all() and (info["acted"][~ended] >= 0).all()
    assert (env.to_play[ended] == 0).all() and env.action_mask[ended].any(axis=1).all()
    assert env.game_field(i) != final.field and not env.over[ended].any()
    assert env.stats()["games_finished"] == before + int(terminated.sum())


def test_disabled_keeps_finished_games_until_a_masked_reset():
    env = VecEnv(8, max_plies=30, autoreset_mode=AutoresetMode.DISABLED, seed=5)
    step_until_an_end(env)
    over = env.over
    fields = {int(i): env.game_field(int(i)) for i in np.flatnonzero(over)}
    obs_before = env.obs[over].copy()
    for _ in range(5):
        actions = env.sample_actions().copy()
        actions[over] = 12345  # ignored, even out of range
        obs, reward, terminated, truncated, info = env.step(actions)
        assert not terminated[over].any() and (reward[over] == 0).all() and (info["acted"][over] == -1).all()
        assert all(env.game_field(i) == f for i, f in fields.items())
        assert np.array_equal(env.obs[over], obs_before)
        assert env.over[over].all()
    # Only the masked games start again; the others go on untouched.
    mask = env.over
    others = {i: env.game_field(i) for i in range(8) if not mask[i]}
    obs, info = env.reset(options={"reset_mask": mask})
    assert not env.over.any()
    assert (env.to_play[mask] == 0).all() and env.action_mask[mask].any(axis=1).all()
    assert all(env.game_field(i) == f for i, f in others.items())
    with pytest.raises(TypeError, match="reset_mask"):
        env.reset(options={"reset_mask": mask.astype(int)})
    with pytest.raises(ValueError, match=r"shape \(8,\)"):
        env.reset(options={"reset_mask": np.ones(3, bool)})
    with pytest.raises(ValueError, match="only the option 'reset_mask'"):
        env.reset(options={"reset_mask": mask, "other": 1})


def test_masked_reset_with_a_seed_is_the_full_resets_game():
    a = VecEnv(4, autoreset_mode=AutoresetMode.DISABLED, seed=9)
    b = VecEnv(4, autoreset_mode=AutoresetMode.DISABLED, seed=1)
    for _ in range(3):
        b.step(b.sample_actions())
    mask = np.array([False, True, False, True])
    b.reset(seed=9, options={"reset_mask": mask})
    for i in (1, 3):
        assert a.game_field(i) == b.game_field(i)
        assert np.array_equal(a.obs[i], b.obs[i])


def test_same_seed_same_games_in_every_mode_until_the_first_end():
    """The modes differ only in what follows an end."""
    runs = {}
    for mode in AutoresetMode:
        env = VecEnv(6, seed=2, autoreset_mode=mode)
        trace = []
        for _ in range(20):
            env.step(env.sample_actions())
            trace.append(env.obs.tobytes())
        runs[mode] = trace
    assert runs[AutoresetMode.SAME_STEP] == runs[AutoresetMode.NEXT_STEP] == runs[AutoresetMode.DISABLED]


def test_final_views_both_gives_each_players_last_view():
    env = VecEnv(6, max_plies=24, final_views="both", seed=6)
    mirrors = [stratego.Game.from_field(env.game_field(i), to_move=0, max_plies=24) for i in range(6)]
    assert env.final_obs.shape == (6, 2, *env.obs.shape[1:])
    seen = 0
    for _ in range(60):
        actions = env.sample_actions().copy()
        for i, g in enumerate(mirrors):
            g.play(int(actions[i]))
        _, _, terminated, _, info = env.step(actions)
        for i in np.flatnonzero(terminated):
            for p in (0, 1):
                assert np.array_equal(info["final_obs"][i, p], mirrors[i].observation(p))
            mirrors[i] = stratego.Game.from_field(env.game_field(i), to_move=0, max_plies=24)
            seen += 1
    assert seen >= 6
    with pytest.raises(ValueError, match="final_views"):
        VecEnv(2, final_views="mine")


# ---------------------------------------------------------------- Gymnasium's vector wrappers

def test_vector_observation_wrappers_need_next_step_or_disabled():
    # Every Gymnasium refuses SAME_STEP here: before 1.4 with a bare AssertionError.
    with pytest.raises(ValueError if SAME_STEP_WRAPPERS else AssertionError,
                       match="NEXT_STEP or DISABLED" if SAME_STEP_WRAPPERS else None):
        DtypeObservation(VecEnv(2), np.float32)
    for mode in (AutoresetMode.NEXT_STEP, AutoresetMode.DISABLED):
        env = FlattenObservation(DtypeObservation(VecEnv(4, autoreset_mode=mode), np.float32))
        obs, info = env.reset(seed=1)
        assert obs.shape == (4, int(np.prod(env.unwrapped.obs.shape[1:]))) and obs.dtype == np.float32
        obs, *_ = env.step(env.unwrapped.sample_actions())
        assert np.array_equal(obs, env.unwrapped.obs.reshape(4, -1).astype(np.float32))


@pytest.mark.parametrize("mode", [
    pytest.param(AutoresetMode.SAME_STEP, marks=pytest.mark.skipif(
        not SAME_STEP_WRAPPERS, reason="Gymnasium < 1.4: RecordEpisodeStatistics assumes NEXT_STEP")),
    AutoresetMode.NEXT_STEP])
def test_record_episode_statistics_counts_each_game_once(mode):
    """Episode lengths are the games' plies in both modes; (in the two-player mode the
    summed reward is the acting player's, per_player_gae gives each player's return)."""
    env = RecordEpisodeStatistics(VecEnv(8, max_plies=30, autoreset_mode=mode))
    env.reset(seed=3)
    episodes = 0
    for _ in range(120):
        _, _, terminated, truncated, info = env.step(env.unwrapped.sample_actions())
        if "episode" in info:
            done = info["_episode"]
            assert np.array_equal(info["episode"]["l"][done], info["final_info"]["plies"][done])
            episodes += int(done.sum())
    assert episodes >= 16


@pytest.mark.parametrize("action_mask", [True, False])
def test_saves_keep_finished_games_where_they_wait(action_mask):
    env = VecEnv(8, max_plies=20, autoreset_mode=AutoresetMode.DISABLED, seed=1, action_mask=action_mask)
    for _ in range(19):
        env.step(env.sample_actions())
    env.reset(options={"reset_mask": np.arange(8) < 3})
    for _ in range(2):
        env.step(env.sample_actions())
    assert np.array_equal(env.over, np.arange(8) >= 3)
    data = env.save_state()
    other = VecEnv(8, max_plies=20, autoreset_mode=AutoresetMode.DISABLED, seed=2, action_mask=action_mask)
    other.load_state(data)
    assert np.array_equal(other.over, env.over) and np.array_equal(other.obs, env.obs)
    assert [other.game_field(i) for i in range(8)] == [env.game_field(i) for i in range(8)]
    with pytest.raises(ValueError, match="game 3 is corrupt: a finished game"):
        VecEnv(8, max_plies=20, seed=2).load_state(data)  # SAME_STEP never holds one
