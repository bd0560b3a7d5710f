"""An observation spec knows its own shape (csrc/stratego/observe_player.h): the binding, VecEnv,
Game and format_observation take it from C instead of spelling (C, 10, 10)."""
import numpy as np
import pytest

import stratego
from stratego import _core
from stratego.observation import channel_names, format_observation


@pytest.mark.parametrize("history_k", [0, 1, 4, _core.HISTORY_NB])
@pytest.mark.parametrize("belief", [False, True])
def test_plane_shape_is_the_channels_on_the_board(history_k, belief):
    shape = _core.observation_shape(history_k, belief, False)
    assert shape == (len(channel_names(history_k, belief)), 10, 10)
    dtype = "float32" if belief else "uint8"
    env = stratego.VecEnv(3, history_k=history_k, belief=belief, obs_dtype=dtype, views="both")
    assert env.obs.shape == (3, 2) + shape and env.final_obs.shape == (3, 2) + shape
    game = stratego.Game(seed=1)
    assert game.observation(history_k=history_k, belief=belief, dtype=dtype).shape == shape
    env.close()


@pytest.mark.parametrize("history_k", [0, 3])
def test_code_shape_and_belief_block(history_k):
    shape = _core.observation_shape(history_k, True, True)
    assert shape == (_core.CODES_HISTORY + 3 * history_k,)
    block = _core.observation_shape(history_k, True, True, True)
    assert block == (12, 10, 10)
    env = stratego.VecEnv(2, history_k=history_k, obs_format="codes", belief=True)
    assert env.obs.shape == (2,) + shape and env.belief_obs.shape == (2,) + block
    obs = stratego.Game(seed=2).observation(history_k=history_k, obs_format="codes", belief=True)
    assert obs["codes"].shape == shape and obs["belief"].shape == block
    env.close()


def test_full_view_shape():
    assert _core.full_observation_shape(False) == (len(_core.full_channel_names()), 10, 10)
    assert _core.full_observation_shape(True) == (_core.SQ_NB,)
    env = stratego.VecEnv(2, full_obs=True, obs_format="codes")
    assert env.full_obs.shape == (2,) + _core.full_observation_shape(True)
    env.close()


def test_shape_checks_history_k_once_in_c():
    with pytest.raises(ValueError, match="history_k"):
        _core.observation_shape(_core.HISTORY_NB + 1, False, False)
    with pytest.raises(TypeError):
        _core.observation_shape(1.5, False, False)
    # A wrong shape names the expected one, from the spec.
    with pytest.raises(ValueError, match=r"\(68, 10, 10\)"):
        format_observation(np.zeros((67, 10, 10), np.uint8))


def test_binding_refuses_an_array_of_another_shape():
    """Batch checks obs against the spec's shape: one channel short is refused, naming obs."""
    env = stratego.VecEnv(2)
    shape = _core.observation_shape(4, False, False)
    n = 2
    args = [np.zeros((n, env.action_mask.shape[1]), np.bool_), np.zeros((n, 2), np.float32),
            np.zeros(n, np.float32), np.zeros(n, np.bool_), np.zeros(n, np.bool_), np.zeros(n, np.int8),
            np.zeros(n, np.int8), np.zeros(n, np.uint8), np.zeros(n, np.int32)]
    good = np.zeros((n,) + shape, np.uint8)
    short = np.zeros((n, shape[0] - 1) + shape[1:], np.uint8)
    with pytest.raises(ValueError, match="obs"):
        _core.Batch(n, 1, env.variant.rules, *args, obs=short, final_obs=good, obs_views=1)
    batch = _core.Batch(n, 1, env.variant.rules, *args, obs=good, final_obs=good.copy(), obs_views=1)
    batch.close()
    env.close()
