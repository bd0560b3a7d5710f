"""VecEnv(..., opponent=...): a learner against a bot in C, stepped in one call."""
from __future__ import annotations

import numpy as np
import pytest

import stratego

OPPONENTS = ["random", "heuristic"]


def run(env: stratego.VecEnv, steps: int, policy: str = "random"):
    """Steps with the learner playing `policy`; yields (colour before the step, reward,
    terminated, truncated, final winner) copies."""
    for _ in range(steps):
        color = env.to_play.copy()
        actions = env.sample_actions() if policy == "random" else env.bot_actions(policy)
        _, r, te, tr, _ = env.step(actions)
        yield color, r.copy(), te.copy(), tr.copy(), env.final_winner.copy()


@pytest.mark.parametrize("opponent", OPPONENTS)
def test_rewards_are_the_learners(opponent: str) -> None:
    env = stratego.VecEnv(128, seed=2, opponent=opponent, learner_color="random")
    ends = {1: 0, -1: 0, 0: 0}
    for color, r, te, tr, winner in run(env, 400):
        done = te | tr
        assert (r[~done] == 0).all()
        assert np.array_equal(r[done] == 1, winner[done] == color[done])
        assert np.array_equal(r[done] == -1, winner[done] == 1 - color[done])
        assert np.array_equal(r[done] == 0, winner[done] == -1)
        for k in ends:
            ends[k] += int((r[done] == k).sum())
    assert ends[1] > 0 and ends[-1] > 0


@pytest.mark.parametrize("mode", ["red", "blue", "random", "alternate"])
def test_learner_colours(mode: str) -> None:
    n = 64
    env = stratego.VecEnv(n, seed=4, opponent="random", learner_color=mode, observations=False)
    expected = {"red": np.zeros(n), "blue": np.ones(n), "alternate": np.arange(n) % 2}.get(mode)
    if expected is not None:
        assert np.array_equal(env.to_play, expected)
    seen = set()
    for color, _, te, tr, _ in run(env, 300):
        done = te | tr
        seen |= set(color.tolist())
        after = env.to_play
        if mode == "alternate":
            assert np.array_equal(after[done], 1 - color[done])
        if mode in ("red", "blue"):
            assert (after == LEARNER[mode]).all()
        # Between episodes nothing changes the colour.
        assert np.array_equal(after[~done], color[~done])
    assert seen == ({0, 1} if mode in ("random", "alternate") else {LEARNER[mode]})


LEARNER = {"red": 0, "blue": 1}


def test_learner_is_always_to_move_and_sees_its_own_view() -> None:
    """obs and final_obs are the learner's view: equal to the learner's slice of the
    same env with views='both'; the mask is the learner's legal actions."""
    a = stratego.VecEnv(48, seed=8, opponent="heuristic", learner_color="random")
    b = stratego.VecEnv(48, seed=8, opponent="heuristic", learner_color="random", views="both")
    rows = np.arange(48)
    finals = 0
    for _ in range(300):
        assert np.array_equal(a.obs, b.obs[rows, a.to_play])
        for i in range(0, 48, 7):
            g = a._batch.game(i)
            game = stratego.Game.__new__(stratego.Game)
            game._variant, game.numbering, game._state = a.variant, "new", g
            assert game.to_move == a.to_play[i]
            assert np.array_equal(game.action_mask(), a.action_mask[i])
        color = a.to_play.copy()
        act = a.sample_actions().copy()
        a.step(act)
        b.step(act)
        done = a.terminated | a.truncated
        if done.any():
            assert np.array_equal(a.final_obs[done], b.final_obs[rows, color][done])
            finals += int(done.sum())
    assert finals > 0


def test_no_episode_ends_before_the_learners_first_move() -> None:
    """With random setups a random red sometimes takes blue's Flag on the first ply (or
    leaves blue nothing): the two-player batch shows such games, while a blue learner
    against a random red never gets one: the episode is drawn again."""
    n = 4096
    two = stratego.VecEnv(n, seed=12, observations=False)
    two.step(two.sample_actions())
    ended_at_once = int((two.terminated | two.truncated).sum())
    assert ended_at_once > 0
    env = stratego.VecEnv(n, seed=12, observations=False, opponent="random", learner_color="blue")
    assert (env.to_play == 1).all()
    for _ in range(30):
        env.step(env.sample_actions())
        done = env.terminated | env.truncated
        # A finished blue-learner episode has at least red's ply and the learner's.
        assert (env.final_plies[done] >= 2).all()
    # A fresh episode is handed out after red's opening ply, with blue to move.
    for i in range(0, n, 97):
        g = env._batch.game(i)
        assert g.status()[0] == 1 and not g.status()[1] and g.status()[4] >= 1


@pytest.mark.parametrize("opponent", OPPONENTS)
def test_same_games_for_any_thread_count(opponent: str) -> None:
    def play(threads: int):
        env = stratego.VecEnv(80, seed=5, opponent=opponent, learner_color="random", num_threads=threads)
        out = [(c, r, te, w) for c, r, te, _, w in run(env, 250)]
        return out, env.obs.copy(), env.stats()

    one, obs1, s1 = play(1)
    two, obs2, s2 = play(2)
    assert all(all(np.array_equal(x, y) for x, y in zip(p, q)) for p, q in zip(one, two))
    assert np.array_equal(obs1, obs2) and s1 == s2


def test_seed_changes_the_games() -> None:
    a = stratego.VecEnv(16, seed=1, opponent="random", learner_color="random")
    b = stratego.VecEnv(16, seed=2, opponent="random", learner_color="random")
    assert not np.array_equal(a.obs, b.obs)


def test_save_and_load_continue_the_same() -> None:
    a = stratego.VecEnv(32, seed=6, opponent="heuristic", learner_color="random")
    for _ in range(40):
        a.step(a.sample_actions())
    saved = a.save_state()
    b = stratego.VecEnv(32, seed=99, opponent="heuristic", learner_color="random")
    b.load_state(saved)
    for _ in range(100):
        x = a.sample_actions().copy()
        assert np.array_equal(x, b.sample_actions())
        a.step(x)
        b.step(x)
        assert np.array_equal(a.obs, b.obs) and np.array_equal(a.reward, b.reward)
    with pytest.raises(ValueError, match="another opponent or learner_color"):
        stratego.VecEnv(32, seed=0).load_state(saved)
    with pytest.raises(ValueError, match="another opponent or learner_color"):
        stratego.VecEnv(32, seed=0, opponent="random", learner_color="random").load_state(saved)


def test_illegal_action_lose_is_the_learners_loss() -> None:
    env = stratego.VecEnv(4, seed=0, opponent="random", learner_color="blue", illegal_action="lose")
    bad = np.zeros(4, dtype=np.int64)
    legal = env.action_mask[np.arange(4), bad]
    _, r, te, _, _ = env.step(bad)
    assert (r[~legal] == -1).all() and te[~legal].all()


@pytest.mark.parametrize("variant", stratego.variants())
def test_every_variant(variant: str) -> None:
    env = stratego.VecEnv(32, variant, seed=3, opponent="heuristic", learner_color="alternate",
                          observations=False)
    finished = 0
    for color, r, te, tr, _ in run(env, 600, policy="heuristic"):
        finished += int((te | tr).sum())
        assert (env.to_play[~(te | tr)] == color[~(te | tr)]).all()
    assert finished > 0


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match=r"opponent must be None .* \['random', 'heuristic', 'pimc'\], got 'minimax'"):
        stratego.VecEnv(2, opponent="minimax")
    with pytest.raises(ValueError, match=r"learner_color must be one of \['red', 'blue', 'random', 'alternate'\]"):
        stratego.VecEnv(2, opponent="random", learner_color="green")
