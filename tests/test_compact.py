"""Compact observations (obs_format="codes") and packed masks (mask_format="bits"):
expanded, they are the default planes and the bool mask, bit for bit, at every ply of
random games in every variant, for every history_k, one view or both, the full view,
float32 with and without beliefs, and in final_obs; the games played are the same."""
from __future__ import annotations

import numpy as np
import pytest

import stratego
from stratego import _core
from stratego.bench import step_bytes
from stratego.common.arrays import mask_bytes
from stratego.compact import CODES_TABLE, codes_bytes
from stratego.variants import PIECE_NAMES

from depth import DEEP

VARIANTS = stratego.variants()
STEPS = 36
N = 8


def _envs(variant, views, k, **extra):
    """Same games four ways: uint8 planes, float32 planes with beliefs, codes with their
    belief block and the packed mask, and codes alone (written straight from the game,
    csrc/stratego/view_codes.h, where the codes with beliefs go through the full view)."""
    common = dict(seed=17, history_k=k, views=views, full_obs=True, num_threads=1, **extra)
    planes = stratego.VecEnv(N, variant, **common)
    floats = stratego.VecEnv(N, variant, obs_dtype="float32", belief=True, **common)
    codes = stratego.VecEnv(N, variant, obs_format="codes", mask_format="bits", belief=True, **common)
    lean = stratego.VecEnv(N, variant, obs_format="codes", mask_format="bits", **common)
    return planes, floats, codes, lean


def _check_same(planes, floats, codes, codes_obs, belief, where=""):
    assert np.array_equal(stratego.expand_observation(codes_obs), planes), where
    expanded = stratego.expand_observation(codes_obs, belief, dtype="float32")
    assert expanded.dtype == np.float32
    assert np.array_equal(expanded, floats), where


# Every history length in CI; the shortest, a few and the longest otherwise (tests/depth.py).
HISTORIES = range(_core.HISTORY_NB + 1) if DEEP else (0, 1, 2, 5, _core.HISTORY_NB)


@pytest.mark.parametrize("views", ["to_play", "both"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_codes_expand_to_the_planes_at_every_ply(variant, views):
    for k in HISTORIES:
        planes, floats, codes, lean = _envs(variant, views, k, max_plies=24)
        assert codes.obs.shape[-1] == lean.obs.shape[-1] == codes_bytes(k)
        n_actions = planes.num_actions
        for ply in range(STEPS):
            where = f"{variant} {views} history_k={k} ply {ply}"
            _check_same(planes.obs, floats.obs, codes, codes.obs, codes.belief_obs, where)
            assert np.array_equal(lean.obs, codes.obs), where
            assert np.array_equal(stratego.unpack_mask(codes.action_mask, n_actions), planes.action_mask), where
            assert np.array_equal(stratego.expand_full_observation(codes.full_obs), planes.full_obs), where
            actions = planes.sample_actions().copy()
            assert np.array_equal(codes.sample_actions(), actions), where  # bits sample the same actions
            floats.step(actions)
            _, _, _, _, info_p = planes.step(actions)
            obs, _, _, _, info_c = codes.step(actions)
            _, _, _, _, info_l = lean.step(actions)
            assert set(obs) == {"codes", "belief"}
            if "_final_obs" in info_p:
                done = info_p["_final_obs"]
                assert np.array_equal(done, info_c["_final_obs"])
                final = info_c["final_obs"]
                _check_same(info_p["final_obs"][done], floats.final_obs[done], codes,
                            final["codes"][done], final["belief"][done], where + " final_obs")
                assert np.array_equal(info_l["final_obs"][done], final["codes"][done]), where + " final_obs"
        assert planes.stats() == codes.stats() == floats.stats() == lean.stats()
        for env in (planes, floats, codes, lean):
            env.close()


@pytest.mark.parametrize("variant", VARIANTS)
def test_game_codes_and_bits_at_every_ply(variant):
    game = stratego.Game(variant, seed=5)
    rng = np.random.default_rng(1)
    n_actions = game.variant.num_actions
    for ply in range(200):
        for player in (0, 1):
            for k in (0, 3, 5, _core.HISTORY_NB):  # below 4 plies, 4 and one more, the whole ring
                codes = game.observation(player, history_k=k, obs_format="codes")
                assert np.array_equal(stratego.expand_observation(codes), game.observation(player, history_k=k))
            both = game.observation(player, history_k=2, belief=True, obs_format="codes")
            want = game.observation(player, history_k=2, belief=True, dtype="float32")
            assert np.array_equal(stratego.expand_observation(both["codes"], both["belief"]), want)
            full = game.full_observation(player, obs_format="codes")
            assert np.array_equal(stratego.expand_full_observation(full), game.full_observation(player))
        bits = game.action_mask("bits")
        assert bits.shape == (mask_bytes(n_actions),)
        assert np.array_equal(stratego.unpack_mask(bits, n_actions), game.action_mask())
        if game.done:
            break
        game.play(int(rng.choice(game.legal_actions())))


def test_lean_view_counts_equal_the_full_view_under_silent_defense():
    """Observations without the belief planes come from the lean view (csrc/stratego/view.h),
    whose opponent counts are the board's own counts unless a captured piece stayed
    unidentified, and from the pieces' weights then; under silent defense both happen.
    Its planes are the full view's (float32 with beliefs) at every ply, and the games
    reach positions where the counts exceed the opponent's pieces on the board."""
    names = stratego.channel_names()
    counts = [names.index(f"opp_count_{t}") for t in PIECE_NAMES]
    board = [names.index(n) for n in names if n.startswith("opp_") and not n.startswith("opp_count_")]
    common = dict(seed=3, num_threads=1, silent_defense=1)
    lean = stratego.VecEnv(32, **common)
    full = stratego.VecEnv(32, obs_dtype="float32", belief=True, **common)
    codes = stratego.VecEnv(32, obs_format="codes", **common)  # from the game, or the view once unidentified
    exceeded = False
    for ply in range(400):
        assert np.array_equal(lean.obs[:, :len(names) - 2], full.obs[:, :len(names) - 2]), ply
        assert np.array_equal(stratego.expand_observation(codes.obs), lean.obs), ply
        on_board = lean.obs[:, board].reshape(32, -1).sum(axis=1)
        exceeded |= bool((lean.obs[:, counts, 0, 0].sum(axis=1) > on_board).any())
        actions = lean.sample_actions()
        lean.step(actions)
        full.step(actions)
        codes.step(actions)
    assert exceeded
    lean.close()
    full.close()
    codes.close()


def test_expanders_take_any_leading_shape():
    env = stratego.VecEnv(6, seed=2, views="both", obs_format="codes", mask_format="bits")
    planes = stratego.VecEnv(6, seed=2, views="both")
    grid = env.obs.reshape(3, 2, 2, -1)
    assert np.array_equal(stratego.expand_observation(grid), planes.obs.reshape(3, 2, 2, -1, 10, 10))
    assert np.array_equal(stratego.expand_observation(env.obs[0, 1]), planes.obs[0, 1])
    assert np.array_equal(stratego.unpack_mask(env.action_mask[2], env.num_actions), planes.action_mask[2])


def test_code_table_is_one_hot_over_the_square_planes():
    # Every code marks exactly one of the piece/lake/empty planes, plus own flags.
    names = stratego.channel_names()
    square = [names.index(n) for n in names[:_core.OBS_BOARD_CHANNELS] if n not in ("own_revealed", "own_moved")]
    assert CODES_TABLE.shape == (_core.CODE_NB, _core.OBS_BOARD_CHANNELS)
    assert (CODES_TABLE[:, square].sum(axis=1) == 1).all()
    assert len({row.tobytes() for row in CODES_TABLE}) == _core.CODE_NB


def test_packed_mask_narrowed_by_the_caller():
    env = stratego.VecEnv(8, seed=4, mask_format="bits")
    legal = stratego.unpack_mask(env.action_mask, env.num_actions)
    only = np.zeros_like(legal)
    for i in range(8):
        only[i, np.flatnonzero(legal[i])[-1]] = True
    env.action_mask[:] = stratego.pack_mask(only)
    assert np.array_equal(env.sample_actions(), only.argmax(axis=1))
    env.action_mask[:] = 0
    assert (env.sample_actions() == -1).all()


def test_bits_past_the_last_action_are_not_sampled():
    name = next(v for v in VARIANTS if stratego.load_variant(v).num_actions % 8)
    env = stratego.VecEnv(4, name, seed=3, mask_format="bits")
    n = env.num_actions
    env.action_mask[:] = 0
    env.action_mask[:, -1] = 0xFF  # the last byte's bits past n are no actions
    got = env.sample_actions()
    assert ((got == -1) | (got < n)).all()
    assert (got[got >= 0] // 8 == n // 8).all()


def test_bytes_per_step_of_the_compact_formats():
    default = stratego.VecEnv(16, seed=0)
    compact = stratego.VecEnv(16, seed=0, obs_format="codes", mask_format="bits")
    assert step_bytes(default) == 8621
    assert step_bytes(compact) * 10 <= step_bytes(default)
    assert codes_bytes(4) == 144 and compact.obs.shape == (16, 144)
    assert compact.single_observation_space.shape == (144,)
    assert compact.single_observation_space.contains(compact.obs[0])


@pytest.mark.parametrize("kwargs, match", [
    (dict(obs_format="planez"), "obs_format must be one of"),
    (dict(mask_format="packed"), "mask_format must be one of"),
    (dict(obs_format="codes", obs_dtype="float32"), "codes' is uint8"),
])
def test_bad_formats_raise(kwargs, match):
    with pytest.raises(ValueError, match=match):
        stratego.VecEnv(2, **kwargs)


def test_expander_input_errors():
    codes = stratego.VecEnv(2, seed=0, obs_format="codes").obs
    with pytest.raises(ValueError, match="132 \\+ 3 \\* history_k bytes"):
        stratego.expand_observation(codes[:, :-1])
    with pytest.raises(TypeError, match="uint8"):
        stratego.expand_observation(codes.astype(np.int16))
    with pytest.raises(TypeError, match="numpy.ndarray or a torch.Tensor"):
        stratego.expand_observation(codes.tolist())
    with pytest.raises(ValueError, match="belief must have shape"):
        stratego.expand_observation(codes, np.zeros((2, 12, 10, 9), np.float32))
    with pytest.raises(ValueError, match="dtype='float32'"):
        stratego.expand_observation(codes, np.zeros((2, 12, 10, 10), np.float32), dtype="uint8")
    with pytest.raises(ValueError, match="225 bytes"):
        stratego.unpack_mask(np.zeros((2, 224), np.uint8), 1800)
    with pytest.raises(ValueError, match="full-view codes have 100 bytes"):
        stratego.expand_full_observation(codes)
    with pytest.raises(ValueError, match="obs_format must be"):
        stratego.Game(seed=1).observation(obs_format="bits")
    with pytest.raises(ValueError, match="mask_format must be"):
        stratego.Game(seed=1).action_mask("bytes")


@pytest.mark.heavy
def test_torch_expanders_match_numpy():
    torch = pytest.importorskip("torch")
    env = stratego.VecEnv(32, seed=9, views="both", obs_format="codes", mask_format="bits", belief=True,
                          full_obs=True, max_plies=50)
    for _ in range(80):
        codes, belief = env.obs, env.belief_obs
        t_codes, t_belief = torch.from_numpy(codes), torch.from_numpy(belief)
        out = stratego.expand_observation(t_codes)
        assert out.dtype == torch.uint8
        assert np.array_equal(out.numpy(), stratego.expand_observation(codes))
        out = stratego.expand_observation(t_codes, t_belief, dtype="float32")
        assert out.dtype == torch.float32
        assert np.array_equal(out.numpy(), stratego.expand_observation(codes, belief, dtype="float32"))
        assert np.array_equal(stratego.expand_full_observation(torch.from_numpy(env.full_obs)).numpy(),
                              stratego.expand_full_observation(env.full_obs))
        bits = stratego.unpack_mask(torch.from_numpy(env.action_mask), env.num_actions)
        assert bits.dtype == torch.bool
        assert np.array_equal(bits.numpy(), stratego.unpack_mask(env.action_mask, env.num_actions))
        env.step(env.sample_actions())


def test_bots_play_the_same_with_a_packed_mask():
    # The bots read the player's view and legal actions, never the mask buffer: the
    # packed mask changes nothing, and the random bot is sample_actions() on it.
    plain = stratego.VecEnv(64, seed=6)
    packed = stratego.VecEnv(64, seed=6, obs_format="codes", mask_format="bits")
    for ply in range(40):
        if ply % 2:
            actions = plain.sample_actions().copy()
            assert np.array_equal(packed.bot_actions("random"), actions)
        else:
            actions = plain.bot_actions("heuristic").copy()
            assert np.array_equal(packed.bot_actions("heuristic"), actions)
        plain.step(actions)
        packed.step(actions)
    assert plain.stats() == packed.stats()
