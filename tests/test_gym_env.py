"""The single-agent Gymnasium env: registration, the opponent inside step(), the
learner's view and colours, rewards, the episodes never handed out, bad input, and the
Gymnasium and SB3 checkers."""
from __future__ import annotations

import subprocess
import sys
import warnings

import gymnasium as gym
import numpy as np
import pytest
import stratego
from gymnasium.utils.env_checker import check_env
from stratego import Game, StrategoEnv



def game_seed(seed: int) -> int:
    """The seed of the first game StrategoEnv.reset(seed=seed) draws (no colour drawn)."""
    rng, _ = gym.utils.seeding.np_random(seed)
    return int(rng.integers(2**63))


def play_out(env, rng, max_steps=5000):
    """Plays random legal learner actions from a reset to the end; returns the
    transitions."""
    _, info = env.reset()
    steps = []
    for _ in range(max_steps):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        steps.append((obs, reward, terminated, truncated, info))
        if terminated or truncated:
            return steps
    raise AssertionError("the game did not end")


def test_make_after_import_and_by_module_prefix():
    env = gym.make("stratego/Stratego-v0", variant="barrage", opponent="random", learner_color="blue")
    assert isinstance(env.unwrapped, StrategoEnv) and env.unwrapped.variant.name == "barrage"
    # Gymnasium 1.x has no plugin entry points: "module:id" imports the module first.
    code = ("import gymnasium as gym, sys\n"
            "assert 'stratego' not in sys.modules\n"
            "env = gym.make('stratego:stratego/Stratego-v0', learner_color='red')\n"
            "obs, info = env.reset(seed=3)\n"
            "print(type(env.unwrapped).__name__, obs.shape)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split()[0] == "StrategoEnv"


def test_gymnasium_check_env_passes():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gym.make("stratego/Stratego-v0").unwrapped)
        check_env(gym.make("stratego/Stratego-v0", variant="barrage", learner_color="blue", obs_dtype="float32",
                           belief=True, history_k=1, render_mode="ansi").unwrapped)


@pytest.mark.heavy
def test_sb3_check_env_passes():
    from stable_baselines3.common.env_checker import check_env as sb3_check_env
    sb3_check_env(StrategoEnv(), warn=False)
    sb3_check_env(StrategoEnv(learner_color="alternate", obs_dtype="float32", belief=True), warn=False)


@pytest.mark.heavy
def test_maskable_ppo_trains_a_few_hundred_steps():
    from sb3_contrib import MaskablePPO
    env = gym.make("stratego/Stratego-v0", variant="barrage", opponent="random", history_k=1)
    model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=1, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [32]})
    model.learn(total_timesteps=256)
    obs, info = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=True)
    assert info["action_mask"][int(action)]


@pytest.mark.parametrize("color", ["red", "blue", "random", "alternate"])
def test_the_learner_sees_only_its_turns_and_its_view(color):
    env = StrategoEnv(learner_color=color, max_plies=60)
    rng = np.random.default_rng(0)
    env.reset(seed=7)
    for episode in range(6):
        obs, info = env.reset()
        learner = info["learner"]
        game = env.game
        assert game.to_move == learner and not game.done
        assert info["ply"] == (0 if learner == 0 else 1)
        assert np.array_equal(obs, game.observation(learner))
        assert np.array_equal(info["action_mask"], game.action_mask())
        assert np.array_equal(env.action_masks(), info["action_mask"])
        terminated = False
        while not terminated:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, terminated, truncated, info = env.step(action)
            assert np.array_equal(obs, game.observation(learner))
            assert not truncated
            if not terminated:
                assert game.to_move == learner and reward == 0.0
                assert np.array_equal(info["action_mask"], game.action_mask())
        assert not info["action_mask"].any() and not env.action_masks().any()
        with pytest.raises(RuntimeError, match="game is over"):
            env.step(0)


def test_learner_colors():
    def colors(env, seed, n=12):
        env.reset(seed=seed)
        return [info["learner"] for info in (env.reset()[1] for _ in range(n))]

    assert set(colors(StrategoEnv(learner_color="red"), 1)) == {0}
    assert set(colors(StrategoEnv(learner_color="blue"), 1)) == {1}
    alternate = StrategoEnv(learner_color="alternate")
    _, info = alternate.reset(seed=5)
    assert info["learner"] == 0 and colors(alternate, 5)[:4] == [1, 0, 1, 0]
    random_colors = StrategoEnv(learner_color="random")
    drawn = colors(random_colors, 2, 40)
    assert set(drawn) == {0, 1}
    assert colors(random_colors, 2, 40) == drawn  # from the seed
    assert colors(random_colors, 3, 40) != drawn


def test_same_seed_same_episode():
    def episode(seed):
        env = StrategoEnv(learner_color="random")
        obs, info = env.reset(seed=seed)
        out = [obs.tobytes()]
        rng = np.random.default_rng(1)
        for _ in range(40):
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            out.append(obs.tobytes())
            if terminated:
                break
        return out

    assert episode(11) == episode(11)
    assert episode(11) != episode(12)


def test_rewards_are_the_learners_at_the_end():
    env = StrategoEnv(learner_color="random", max_plies=300)
    env.reset(seed=21)
    rng = np.random.default_rng(2)
    results = set()
    for _ in range(12):
        steps = play_out(env, rng)
        assert all(reward == 0.0 for _, reward, *_ in steps[:-1])
        _, reward, terminated, truncated, info = steps[-1]
        assert terminated and not truncated
        winner = info["winner"]
        assert reward == (0.0 if winner == -1 else 1.0 if winner == info["learner"] else -1.0)
        assert info["end_reason"] == env.game.end_reason
        results.add(reward)
    assert len(results) >= 2


def test_a_move_cap_is_a_terminated_draw():
    env = StrategoEnv(learner_color="blue", max_plies=9)
    steps = play_out(env, np.random.default_rng(3))
    _, reward, terminated, truncated, info = steps[-1]
    assert info["end_reason"] in ("max_plies", "flag_captured", "no_movable_pieces", "no_legal_move")
    if info["end_reason"] == "max_plies":
        assert terminated and not truncated and reward == 0.0


def test_episodes_the_opponent_would_end_first_are_never_handed_out():
    """An opponent that ends the game on its first move whenever it can (it cheats: it
    reads the true board) forces the rejection; every episode handed out still gives
    the learner a move, and the redraws are counted."""
    env = StrategoEnv(learner_color="blue")

    def cheater(obs, mask):
        game = env.game
        for action in np.flatnonzero(mask[0]):
            trial = game.clone()
            trial.play(int(action))
            if trial.done:
                return np.array([action])
        return np.array([np.flatnonzero(mask[0])[0]])

    env = StrategoEnv(opponent=cheater, learner_color="blue")
    env.reset(seed=1)
    for _ in range(150):
        obs, info = env.reset()
        assert not env.game.done and env.game.to_move == 1 and info["ply"] == 1
        assert info["action_mask"].any()
    assert env.redraws > 0
    # The same with the random opponent: nothing handed out is over.
    env = StrategoEnv(learner_color="blue")
    env.reset(seed=2)
    for _ in range(50):
        env.reset()
        assert not env.game.done and env.game.to_move == 1


def test_human_setups():
    env = StrategoEnv(setup="human", learner_color="red")
    obs, info = env.reset(seed=4)
    assert obs.shape == env.observation_space.shape and info["action_mask"].any()


def test_settings_are_forwarded():
    env = StrategoEnv("barrage", history_k=2, belief=True, obs_dtype="float32", max_plies_without_attack=50)
    obs, _ = env.reset(seed=0)
    assert env.variant.settings["max_plies_without_attack"] == 50
    assert obs.dtype == np.float32 and obs.shape == (len(stratego.channel_names(2, True)), 10, 10)
    assert np.array_equal(obs, env.game.observation(env.learner, dtype="float32", history_k=2, belief=True))
    with pytest.raises(TypeError, match="no_such_setting"):
        StrategoEnv(no_such_setting=3)
    with pytest.raises(ValueError, match="max_plies"):
        StrategoEnv(max_plies=-1)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"opponent": "grandmaster"}, ValueError, "unknown opponent 'grandmaster'"),
    ({"opponent": 3}, TypeError, "opponent must be"),
    ({"learner_color": "green"}, ValueError, "learner_color"),
    ({"illegal_action": "ignore"}, ValueError, "illegal_action"),
    ({"render_mode": "rgb"}, ValueError, "render_mode"),
    ({"obs_dtype": "int8"}, ValueError, "obs_dtype"),
    ({"setup": "mine"}, ValueError, "setup"),
])
def test_bad_settings(kwargs, error, match):
    with pytest.raises(error, match=match):
        StrategoEnv(**kwargs)


@pytest.mark.parametrize("returned, error, match", [
    (lambda mask: np.array([0, 1]), ValueError, r"shape \(2,\).*expected shape \(1,\)"),
    (lambda mask: np.int64(5), ValueError, r"shape \(\)"),
    (lambda mask: np.array([0.5]), ValueError, "dtype float64"),
    (lambda mask: np.array([10**6]), ValueError, r"actions are in \[0, 1800\)"),
    (lambda mask: "e2e4", ValueError, "expected integers"),
])
def test_a_policy_returning_bad_actions_is_named(returned, error, match):
    def policy(obs, mask):
        assert obs.shape[0] == 1 and mask.shape == (1, 1800) and mask.dtype == np.bool_
        return returned(mask)

    env = StrategoEnv(opponent=policy, learner_color="blue")
    with pytest.raises(error, match="opponent policy 'policy'") as caught:
        env.reset(seed=0)
    assert caught.match(match)


def test_a_policy_gets_the_observations_it_declares_and_is_seeded():
    @stratego.agents.policy.observes(history_k=1, belief=True, obs_dtype="float32")
    def policy(obs, mask):
        seen.append(obs)
        return np.flatnonzero(mask[0])[:1]

    def reseed(seed):
        seeds.append(seed)

    seen, seeds = [], []
    policy.seed = reseed
    env = StrategoEnv(opponent=policy, learner_color="blue")  # the learner's settings differ
    obs, _ = env.reset(seed=3)
    assert obs.dtype == np.uint8 and len(seeds) == 1
    assert seen[0].dtype == np.float32 and seen[0].shape == (1, len(stratego.channel_names(1, True)), 10, 10)
    env.reset()
    assert len(seeds) == 1  # only a seeded reset reseeds
    env.reset(seed=3)
    assert seeds == [seeds[0], seeds[0]]


def test_a_policy_playing_an_illegal_action_raises_or_loses():
    def illegal(obs, mask):
        return np.flatnonzero(~mask[0])[:1]

    env = StrategoEnv(opponent=illegal, learner_color="red", illegal_action="raise")
    _, info = env.reset(seed=0)
    with pytest.raises(ValueError, match="opponent policy 'illegal' returned action .* illegal there"):
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
    env = StrategoEnv(opponent=illegal, learner_color="red")
    _, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert terminated and reward == 1.0 and info["end_reason"] == "illegal_action" and info["winner"] == 0


def test_the_learners_illegal_action_raises_or_loses():
    env = StrategoEnv(learner_color="red", illegal_action="raise")
    _, info = env.reset(seed=0)
    bad = int(np.flatnonzero(~info["action_mask"])[0])
    with pytest.raises(ValueError, match="the learner's action: illegal move"):
        env.step(bad)
    assert env.game.ply == 0
    env = StrategoEnv(learner_color="blue")
    _, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(bad)
    assert terminated and reward == -1.0 and info["winner"] == 0 and info["end_reason"] == "illegal_action"
    env.reset(seed=0)
    with pytest.raises(TypeError, match="action must be an int"):
        env.step(1.5)


def test_render_modes(capsys):
    env = StrategoEnv(render_mode="ansi", learner_color="blue")
    env.reset(seed=0)
    text = env.render()
    assert text == env.game.render(1) and "b" in text
    env = StrategoEnv(render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    assert capsys.readouterr().out.strip() == env.game.render(env.learner).strip()


@pytest.mark.parametrize("bot", stratego.BOTS)
def test_bot_opponents_play_their_moves_from_the_seed(bot):
    def episode():
        env = StrategoEnv(opponent=bot, learner_color="blue")
        obs, info = env.reset(seed=8)
        # The opponent's first move is the bot's in a game with the same seed.
        replay = Game(env.variant, seed=game_seed(8))
        assert env.game.ply == 1 and env.game.field != replay.field
        replay.play(replay.bot_move(bot))
        assert env.game.field == replay.field
        moves = [env.game.field]
        rng = np.random.default_rng(0)
        for _ in range(30):
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            moves.append(env.game.field)
            if terminated:
                break
        return moves

    assert episode() == episode()


def test_the_heuristic_opponent_beats_a_random_learner():
    env = StrategoEnv("barrage", opponent="heuristic", learner_color="alternate")
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    rewards = [play_out(env, rng)[-1][1] for _ in range(12)]
    assert rewards.count(-1.0) >= 9, rewards


def test_truncation_is_left_to_time_limit():
    """The env itself never truncates; Gymnasium's TimeLimit does, outside the game."""
    env = gym.make("stratego/Stratego-v0", max_episode_steps=3, learner_color="red")
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for step in range(3):
        _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        assert not terminated and truncated == (step == 2)


class _Fails(Exception):
    pass


def _opponent_failing_on(call: int):
    """A policy opponent that plays its first legal action and raises on its `call`-th
    call (counting from 1), and never again."""
    calls = [0]

    def flaky(obs, mask):
        calls[0] += 1
        if calls[0] == call:
            raise _Fails("the opponent's network is down")
        return np.flatnonzero(mask[0])[:1]

    return flaky


@pytest.mark.parametrize("setup", ["random", "agent"])
def test_after_the_opponent_raised_in_step_the_learner_never_plays_its_side(setup):
    env = StrategoEnv(opponent=_opponent_failing_on(2), learner_color="red", setup=setup)
    _, info = env.reset(seed=0)
    info = env.step(int(np.flatnonzero(info["action_mask"])[0]))[4]  # the opponent's call 1 replies
    before = env.game.field
    with pytest.raises(_Fails):
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
    # The learner's action was played (a move, or a placement), and the opponent's is due.
    stuck = env.game.field, env.game.ply
    assert stuck[0] != before and env.game.to_move == 1
    for action in (int(np.flatnonzero(env.game.action_mask())[0]), 0):
        with pytest.raises(RuntimeError, match="the opponent raised during the last step.*call reset"):
            env.step(action)
    assert (env.game.field, env.game.ply) == stuck and env.game.to_move == 1  # nothing played for blue
    _, info = env.reset(seed=1)
    assert env.game.to_move == env.learner == 0
    env.step(int(np.flatnonzero(info["action_mask"])[0]))  # steps again after the reset


@pytest.mark.parametrize("setup", ["random", "agent"])
def test_after_a_failed_reset_the_learner_never_plays_the_opponents_opening(setup):
    env = StrategoEnv(opponent=_opponent_failing_on(2), learner_color="blue", setup=setup)
    env.reset(seed=0)  # the opponent (red) opens: call 1
    with pytest.raises(_Fails):
        env.reset(seed=1)  # call 2 raises before red's opening is played
    assert env.game.to_move == 0 and env.learner == 1
    start = env.game.field, env.game.ply
    with pytest.raises(RuntimeError, match="the last reset.. failed.*call reset"):
        env.step(int(np.flatnonzero(env.game.action_mask())[0]))
    # Red's opening was not played by the blue learner.
    assert (env.game.field, env.game.ply) == start and env.game.to_move == 0
    _, info = env.reset(seed=2)
    assert env.game.to_move == env.learner == 1
    env.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_a_refused_reset_leaves_the_stream_as_it_was():
    """reset(seed=..., options=...) with an option it does not take is refused before it
    reseeds: the games after it are those of an env that was never asked."""
    env, twin = StrategoEnv(), StrategoEnv()
    env.reset(seed=1)
    twin.reset(seed=1)
    with pytest.raises(ValueError, match="reset takes no options"):
        env.reset(seed=99, options={"x": 1})
    for _ in range(3):
        obs, _ = env.reset()
        expected, _ = twin.reset()
        assert env.learner == twin.learner and env._game.field == twin._game.field
        assert np.array_equal(obs, expected)
