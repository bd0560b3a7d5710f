"""VecEnv: masks agree with Game, random play keeps every invariant, results are
bit-identical across thread counts, illegal actions are handled as documented, and
hostile inputs raise clear exceptions instead of crashing."""
from __future__ import annotations

import hashlib

import numpy as np
import pytest
import stratego
from stratego import END_REASONS, VecEnv

REASON = {name: i for i, name in enumerate(END_REASONS)}
RED_LETTERS, BLUE_LETTERS = "BCDEFGHIJKLM", "NOPQRSTUVWXY"


def mask_set(env: VecEnv, i: int) -> set[int]:
    return set(np.flatnonzero(env.action_mask[i]).tolist())


def rebuilt(env: VecEnv, i: int) -> stratego.Game:
    """Game i rebuilt from its board (no move history, so no two-square state)."""
    return stratego.Game.from_field(env.game_field(i), to_move=int(env.to_play[i]), variant=env.variant)


def piece_counts(field: str) -> tuple[int, int]:
    return sum(field.count(c) for c in RED_LETTERS), sum(field.count(c) for c in BLUE_LETTERS)


def snapshot(env: VecEnv) -> dict[str, np.ndarray]:
    return {
        "mask": env.action_mask.copy(), "rewards": env.rewards.copy(), "reward": env.reward.copy(),
        "terminated": env.terminated.copy(), "truncated": env.truncated.copy(),
        "to_play": env.to_play.copy(), "final_winner": env.final_winner.copy(),
        "final_reason": env.final_reason.copy(), "final_plies": env.final_plies.copy(),
        # final_obs is defined only on the rows of games that just ended
        "obs": np.copy(env.obs), "final_obs": env.final_obs[env.terminated | env.truncated],
    }


def assert_same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> None:
    for key, value in a.items():
        assert np.array_equal(value, b[key]), key


# ---------------------------------------------------------------- masks

def test_mask_matches_game_after_reset_and_first_steps():
    # With the two-square limit 3, a player's 4th move is the first the rule can forbid:
    # during the first 5 plies the mask depends on the board and the player alone.
    env = VecEnv(32, seed=3)
    for step in range(6):
        for i in range(env.num_envs):
            game = rebuilt(env, i)
            assert not game.done
            assert mask_set(env, i) == set(game.legal_actions()), (step, i)
        if step < 5:
            env.step(env.sample_actions())
    env.close()


def test_mask_matches_game_for_long_games_without_the_two_square_rule():
    env = VecEnv(16, seed=4, two_square_limit=0)
    for step in range(300):
        for i in range(env.num_envs):
            assert mask_set(env, i) == set(rebuilt(env, i).legal_actions()), (step, i)
        env.step(env.sample_actions())
    env.close()


def test_sampled_actions_are_always_legal():
    env = VecEnv(64, seed=5)
    rows = np.arange(env.num_envs)
    for _ in range(500):
        actions = env.sample_actions()
        assert env.action_mask[rows, actions].all()
        assert env.action_mask.any(axis=1).all()
        env.step(actions)
    env.close()


# ---------------------------------------------------------------- random play

def test_random_play_invariants():
    n, steps = 256, 3000
    env = VecEnv(n, seed=11)
    rows = np.arange(n)
    finished = caps = plies = red = blue = draws = 0
    reasons_seen = set()
    for _ in range(steps):
        actor = env.to_play.copy()
        actions = env.sample_actions()
        _, reward, term, trunc, info = env.step(actions)
        done = term | trunc
        reason, winner, rewards = env.final_reason, env.final_winner, env.rewards
        assert info["rewards"] is env.rewards and info["action_mask"] is env.action_mask
        if done.any():
            assert np.array_equal(info["_final_info"], done)
            assert info["final_info"]["reason"] is env.final_reason
        # Every end is a rule of the game, the caps included: terminated, never
        # truncated; the reason says which rule.
        assert not trunc.any()
        assert (reason[done] != 0).all() and (reason[~done] == 0).all()
        capped = np.isin(reason, [REASON["max_plies"], REASON["max_plies_without_attack"]])
        assert not (reason == REASON["illegal_action"]).any()
        # Rewards: zero-sum, +1/-1 for a win, 0/0 for a draw, nothing while a game goes on.
        assert (rewards.sum(axis=1) == 0).all()
        assert np.isin(rewards, [-1.0, 0.0, 1.0]).all()
        assert (rewards[~done] == 0).all()
        assert (winner[~done] == -1).all() and (winner[capped] == -1).all()
        won = done & (winner >= 0)
        assert (rewards[won, winner[won]] == 1).all()
        assert (rewards[done & (winner == -1)] == 0).all()
        assert np.array_equal(reward, rewards[rows, actor])
        assert (env.final_plies[done] > 0).all() and (env.final_plies[~done] == 0).all()
        # SAME_STEP autoreset: a finished game is replaced by a new one, red to move.
        assert (env.to_play[done] == 0).all() and env.action_mask[done].any(axis=1).all()
        for i in np.flatnonzero(done)[:2]:
            assert piece_counts(env.game_field(int(i))) == (40, 40)
        finished += int(done.sum())
        caps += int(capped.sum())
        plies += int(env.final_plies[done].sum())
        red += int((won & (winner == 0)).sum())
        blue += int((won & (winner == 1)).sum())
        draws += int((done & (winner == -1)).sum())
        reasons_seen |= set(reason[done].tolist())
    stats = env.stats()
    assert stats["games_finished"] == finished > 0
    assert stats["cap_draws"] == caps
    assert stats["plies_of_finished"] == plies
    assert (stats["red_wins"], stats["blue_wins"], stats["draws"]) == (red, blue, draws)
    assert REASON["flag_captured"] in reasons_seen
    env.close()


def test_caps_end_random_games():
    env = VecEnv(64, seed=12, max_plies=30, max_plies_without_attack=0)
    for _ in range(31):
        env.step(env.sample_actions())
    stats = env.stats()
    assert stats["games_finished"] >= 64
    assert stats["cap_draws"] > 0
    env.close()


def test_seed_rulebook_autoreset_has_39_pieces_a_side():
    env = VecEnv(16, "seed-rulebook", seed=13, max_plies=20)
    for i in range(16):
        assert piece_counts(env.game_field(i)) == (39, 39)
    finished = np.zeros(16, dtype=bool)
    for _ in range(20):
        _, _, term, trunc, _ = env.step(env.sample_actions())
        for i in np.flatnonzero(term | trunc):  # the new game, fresh from its setup
            assert piece_counts(env.game_field(int(i))) == (39, 39)
        finished |= term | trunc
    assert finished.all()
    env.close()


# ---------------------------------------------------------------- determinism

def run_digest(seed: int, num_threads: int, n: int = 64, steps: int = 400) -> tuple[str, dict]:
    env = VecEnv(n, num_threads=num_threads, seed=seed)
    h = hashlib.sha256()
    for _ in range(steps):
        actions = env.sample_actions()
        h.update(actions.tobytes())
        env.step(actions)
        for value in snapshot(env).values():
            h.update(value.tobytes())
    stats = env.stats()
    env.close()
    return h.hexdigest(), stats


def test_same_seed_is_bit_identical_for_1_2_and_4_threads():
    results = [run_digest(21, threads) for threads in (1, 2, 4)]
    assert results[0][1]["games_finished"] > 0
    assert results[0] == results[1] == results[2]


def test_different_seeds_differ():
    a, b = run_digest(21, 2), run_digest(22, 2)
    assert a[0] != b[0] and a[1]["checksum"] != b[1]["checksum"]


def test_reset_replays_and_thread_count_can_change_midway():
    env = VecEnv(32, num_threads=1, seed=8)
    first = []
    for _ in range(50):
        env.step(env.sample_actions())
        first.append(snapshot(env))
    env.reset(seed=8)
    for k in range(50):
        env.num_threads = 1 + k % 3
        env.step(env.sample_actions())
        assert_same(first[k], snapshot(env))
    env.close()


def test_constructor_seed_equals_reset_seed():
    a, b = VecEnv(8, seed=99), VecEnv(8)
    b.reset(seed=99)
    for _ in range(20):
        a.step(a.sample_actions())
        b.step(b.sample_actions())
    assert_same(snapshot(a), snapshot(b))
    assert a.stats() == b.stats()
    a.close()
    b.close()


# ---------------------------------------------------------------- illegal actions

def first_illegal(env: VecEnv, i: int) -> int:
    return int(np.flatnonzero(~env.action_mask[i])[0])


def test_illegal_action_in_raise_mode_names_the_game_and_changes_nothing():
    env, twin = VecEnv(8, seed=5), VecEnv(8, seed=5)
    for _ in range(3):
        actions = env.sample_actions().copy()
        env.step(actions)
        twin.step(actions)
    before = snapshot(env)
    fields = [env.game_field(i) for i in range(8)]
    stats = env.stats()
    actions = env.sample_actions().copy()
    bad = actions.copy()
    bad[3] = first_illegal(env, 3)
    with pytest.raises(ValueError, match=r"illegal action \d+ in game 3"):
        env.step(bad)
    assert_same(before, snapshot(env))
    assert [env.game_field(i) for i in range(8)] == fields
    assert env.stats() == stats
    # The failed step left no trace: the games go on exactly like the twin's.
    env.step(actions)
    twin.step(actions)
    assert_same(snapshot(env), snapshot(twin))
    assert [env.game_field(i) for i in range(8)] == [twin.game_field(i) for i in range(8)]
    env.close()
    twin.close()


def test_illegal_action_in_lose_mode_makes_the_actor_lose():
    env = VecEnv(8, illegal_action="lose", seed=5)
    env.step(env.sample_actions())  # blue to move now
    actor = int(env.to_play[3])
    assert actor == 1
    actions = env.sample_actions().copy()
    actions[3] = first_illegal(env, 3)
    _, reward, term, trunc, _ = env.step(actions)
    assert env.final_reason[3] == END_REASONS.index("illegal_action")
    assert term[3] and not trunc[3]
    assert reward[3] == -1.0
    assert env.rewards[3, actor] == -1.0 and env.rewards[3, 1 - actor] == 1.0
    assert env.final_winner[3] == 1 - actor
    assert env.to_play[3] == 0 and piece_counts(env.game_field(3)) == (40, 40)
    others = np.arange(8) != 3
    assert not (term | trunc)[others].any()
    assert env.stats()["games_finished"] == 1
    env.close()


@pytest.mark.parametrize("mode", ["raise", "lose"])
@pytest.mark.parametrize("value", [-1, 1800, 2**40, -(2**40)])
def test_out_of_range_actions_raise_in_both_modes(mode, value):
    env = VecEnv(4, illegal_action=mode, seed=6)
    before = snapshot(env)
    actions = env.sample_actions().copy()
    actions[2] = value
    with pytest.raises(ValueError, match=r"game 2 is out of range \[0, 1800\)"):
        env.step(actions)
    with pytest.raises(ValueError, match="out of range"):
        env.step([int(a) for a in actions])
    assert_same(before, snapshot(env))
    env.close()


# ---------------------------------------------------------------- hostile inputs

@pytest.fixture
def env():
    e = VecEnv(4, seed=1)
    yield e
    e.close()


def test_integer_lists_and_other_integer_dtypes_are_accepted():
    envs = [VecEnv(4, seed=2) for _ in range(4)]
    for _ in range(20):
        actions = envs[0].sample_actions().copy()
        envs[0].step(actions)
        envs[1].step([int(a) for a in actions])
        envs[2].step(actions.astype(np.int32))
        strided = np.repeat(actions, 2)[::2]  # not contiguous
        assert not strided.flags.c_contiguous
        envs[3].step(strided)
        for other in envs[1:]:
            assert_same(snapshot(envs[0]), snapshot(other))
    for e in envs:
        e.close()


@pytest.mark.parametrize("actions", [
    np.zeros(4, dtype=np.float64),
    np.zeros(4, dtype=np.float32),
    np.zeros(4, dtype=np.bool_),
    np.array(["0"] * 4),
    np.array([object()] * 4),
    [0.0, 1.0, 2.0, 3.0],
    None,
    "0000",
])
def test_non_integer_actions_raise_type_error(env, actions):
    before = snapshot(env)
    with pytest.raises(TypeError, match="actions must be a numpy array of integers"):
        env.step(actions)
    assert_same(before, snapshot(env))


@pytest.mark.parametrize("shape", [(4, 1), (1, 4), (2, 2), (3,), (5,), (0,), ()])
def test_wrong_action_shapes_raise_value_error(env, shape):
    before = snapshot(env)
    with pytest.raises(ValueError, match=r"actions must have shape \(4,\)"):
        env.step(np.zeros(shape, dtype=np.int64))
    assert_same(before, snapshot(env))


def test_huge_unsigned_actions_raise_value_error(env):
    with pytest.raises(ValueError, match="out of range"):
        env.step(np.full(4, 2**64 - 1, dtype=np.uint64))


@pytest.mark.parametrize("num_envs", [0, -1, 2**40, 2**70])
def test_bad_num_envs_raise(num_envs):
    with pytest.raises((ValueError, MemoryError), match="num_envs"):
        VecEnv(num_envs)


@pytest.mark.parametrize("num_envs", [1.5, "8", None, True])
def test_non_int_num_envs_raise_type_error(num_envs):
    with pytest.raises(TypeError, match="num_envs must be an int"):
        VecEnv(num_envs)


def test_bad_variant_and_settings_raise():
    with pytest.raises(ValueError, match="unknown variant 'nope'"):
        VecEnv(2, "nope")
    with pytest.raises(ValueError, match="unknown rule setting 'speed'"):
        VecEnv(2, speed=3)
    with pytest.raises(ValueError, match="max_plies must be in"):
        VecEnv(2, max_plies=-1)
    with pytest.raises(ValueError, match="two_square_limit must be in"):
        VecEnv(2, two_square_limit=256)
    with pytest.raises(TypeError, match="two_square_limit must be an int"):
        VecEnv(2, two_square_limit="3")
    with pytest.raises(TypeError):
        VecEnv(2, 42)


@pytest.mark.parametrize("mode", ["explode", "", None, 1, "RAISE"])
def test_bad_illegal_action_mode_raises(mode):
    with pytest.raises((ValueError, TypeError), match="illegal_action must be one of"):
        VecEnv(2, illegal_action=mode)


@pytest.mark.parametrize("threads", [-1, 5000, "x", 1.5])
def test_bad_num_threads_raise(threads):
    with pytest.raises((ValueError, TypeError), match="num_threads"):
        VecEnv(2, num_threads=threads)


@pytest.mark.parametrize("seed", [1.5, "1", b"1", True, [1]])
def test_bad_seeds_raise_type_error(seed):
    with pytest.raises(TypeError, match="seed must be an int"):
        VecEnv(2, seed=seed)
    e = VecEnv(2, seed=1)
    with pytest.raises(TypeError, match="seed must be an int"):
        e.reset(seed=seed)
    e.close()
    with pytest.raises(TypeError, match="seed must be an int"):
        stratego.Game(seed=seed)


def test_seeds_are_the_integers_below_2_to_the_64():
    # The seed rule (stratego.common.seeding): nothing wraps, so 2**64 is not seed 0; an accepted
    # seed plays its own games, the same each time, NumPy's integers as Python's.
    def first_steps(seed):
        e = VecEnv(2, seed=seed)
        obs = [e.reset(seed=seed)[0]]
        for _ in range(3):
            obs.append(e.step(e.sample_actions())[0])
        e.close()
        return np.stack(obs)

    for seed, same in ((2**64 - 1, 2**64 - 1), (np.int64(5), 5), (np.uint64(2**63), 2**63)):
        np.testing.assert_array_equal(first_steps(seed), first_steps(same))
    assert not np.array_equal(first_steps(2**64 - 1), first_steps(0))
    for seed in (-1, 2**64, 2**100, np.int64(-5)):
        with pytest.raises(ValueError, match=r"seed must be an int in \[0, 2\*\*64\), got -?\d+$"):
            VecEnv(2, seed=seed)


@pytest.mark.parametrize("index", [-1, 4, 2**40])
def test_bad_game_index_raises_index_error(env, index):
    with pytest.raises(IndexError, match=r"out of range \[0, 4\)"):
        env.game_field(index)


@pytest.mark.parametrize("index", [1.0, "0", None])
def test_non_int_game_index_raises_type_error(env, index):
    with pytest.raises(TypeError):
        env.game_field(index)


def test_calls_after_close_raise_runtime_error():
    e = VecEnv(4, seed=1)
    actions = e.sample_actions().copy()
    e.close()
    assert e.closed
    e.close()  # a second close is safe
    with e:  # so is closing through the context manager
        pass
    with pytest.raises(RuntimeError, match="closed"):
        e.step(actions)
    with pytest.raises(RuntimeError, match="closed"):
        e.reset(seed=1)
    with pytest.raises(RuntimeError, match="closed"):
        e.sample_actions()
    with pytest.raises(RuntimeError, match="closed"):
        e.game_field(0)
    with pytest.raises(RuntimeError, match="closed"):
        e.render()
    # README "VecEnv": "other calls after it raise RuntimeError".
    with pytest.raises(RuntimeError, match="closed"):
        e.stats()


def test_context_manager_closes():
    with VecEnv(2, seed=1) as e:
        e.step(e.sample_actions())
    assert e.closed


def test_more_games_than_memory_raise_memory_error_before_allocating():
    """A num_envs inside the accepted range whose buffers cannot fit in this machine's
    memory fails with MemoryError saying so, not with an abort or an OOM kill."""
    with pytest.raises(MemoryError, match="GiB"):
        VecEnv(1 << 26)


def test_read_only_and_strided_action_arrays_are_read_without_change():
    env = VecEnv(8, seed=3)
    actions = env.sample_actions().copy()
    actions.setflags(write=False)
    env.step(actions)
    strided = np.repeat(env.sample_actions(), 2)[::2]
    assert not strided.flags["C_CONTIGUOUS"] or strided.strides[0] != 8
    before = strided.copy()
    env.step(strided)
    np.testing.assert_array_equal(strided, before)
