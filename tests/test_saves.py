"""Saves name everything their games depend on (issue 13, item 8; format: csrc/stratego/save.h,
docs/api.md "Saves"): loading one where any of it differs is refused with a message
naming the difference, and nothing changes; observation settings may differ."""
from __future__ import annotations

import pickle
import struct

import numpy as np
import pytest

import stratego

# SaveHeader (csrc/stratego/save.h): magic[8], then uint32 version, kind, byte_order, state_bytes,
# rules_bytes, stats_bytes, num_games, setup_rows, then uint64 setup_digest, then Rules.
VERSION, KIND, BYTE_ORDER, STATE_SIZE, RULES_SIZE, STATS_SIZE, NUM_GAMES, SETUP_ROWS = range(8, 40, 4)
SETUP_DIGEST = 40


def patched(blob: bytes, offset: int, value: int, fmt: str = "=I") -> bytes:
    raw = bytearray(blob)
    struct.pack_into(fmt, raw, offset, value)
    return bytes(raw)


def fields(env: stratego.VecEnv) -> list[str]:
    return [env.game_field(i) for i in range(env.num_envs)]


def test_header_names_format_version_and_layout():
    env = stratego.VecEnv(3, seed=1)
    blob = env.save_state()
    assert blob[:8] == b"STRATEGO"
    assert struct.unpack_from("=IIIIIIII", blob, 8) == (
        stratego.SAVE_VERSION, 1, 0x01020304, stratego.STATE_BYTES,
        struct.unpack_from("=I", blob, RULES_SIZE)[0], struct.unpack_from("=I", blob, STATS_SIZE)[0], 3, 0)
    game_blob = stratego.Game(seed=1)._state.to_bytes()
    assert game_blob[:8] == b"STRATEGO" and struct.unpack_from("=I", game_blob, KIND)[0] == 2


def test_classic_save_refused_by_barrage_env_naming_the_piece_sets():
    """The audit: classic games behind a copied barrage header loaded into a barrage env
    and played 80-piece games. The piece set is in the header and compared."""
    classic = stratego.VecEnv(4, seed=1)
    barrage = stratego.VecEnv(4, "barrage", seed=1)
    before = fields(barrage)
    with pytest.raises(ValueError, match=r"piece sets differ: the save has piece_counts 6,1,8,5,4,4,4,3,2,1,1,1"):
        barrage.load_state(classic.save_state())
    # A classic payload behind barrage's header: the rules match, the games do not.
    header = stratego._core.SAVE_HEADER_BYTES
    forged = barrage.save_state()[:header] + classic.save_state()[header:]
    with pytest.raises(ValueError, match="corrupt"):
        barrage.load_state(forged)
    assert fields(barrage) == before


@pytest.mark.parametrize("saved,loaded", [("human", "random"), ("random", "human")])
def test_setup_source_must_match(saved, loaded):
    """The audit: a setup="human" save loaded into a setup="random" env and diverged at
    step 33, the first game that ended and drew a new setup."""
    env = stratego.VecEnv(4, seed=2, setup=saved)
    other = stratego.VecEnv(4, seed=2, setup=loaded)
    with pytest.raises(ValueError, match="setups differ: the save's games draw from "
                       + ("a table of" if saved == "human" else "random setups")):
        other.load_state(env.save_state())


def test_human_setup_save_continues_exactly():
    env = stratego.VecEnv(8, seed=4, setup="human", max_plies=60, observations=False)
    for _ in range(20):
        env.step(env.sample_actions())
    blob = env.save_state()
    other = stratego.VecEnv(8, setup="human", max_plies=60, observations=False)
    other.load_state(blob)
    for _ in range(100):
        actions = env.sample_actions().copy()
        np.testing.assert_array_equal(actions, other.sample_actions())
        env.step(actions)
        other.step(actions)
    assert env.stats() == other.stats() and env.stats()["games_finished"] > 0
    assert fields(env) == fields(other)


@pytest.mark.parametrize("setting,value", [("two_square_limit", 5), ("max_plies", 100),
                                           ("max_plies_without_attack", 7), ("aggressor_wins", 1)])
def test_rule_setting_mismatch_is_named(setting, value):
    env = stratego.VecEnv(2, seed=1)
    default = env.variant.settings[setting]
    other = stratego.VecEnv(2, **{setting: value})
    with pytest.raises(ValueError, match=f"the save has {setting} {default}, this one {value}"):
        other.load_state(env.save_state())


def test_num_envs_mismatch_is_named():
    with pytest.raises(ValueError, match="the save has 8 games, this one 9"):
        stratego.VecEnv(9).load_state(stratego.VecEnv(8, seed=1).save_state())


@pytest.mark.parametrize("offset,value,message", [
    (VERSION, 1, "format version 1, this engine reads version"),
    (VERSION, 99, "format version 99"),
    (BYTE_ORDER, 0x04030201, "other byte order"),
    (KIND, 2, "is of one game, expected a batch"),
    (STATE_SIZE, 1, "another engine build"),
    (RULES_SIZE, 1, "another engine build"),
    (STATS_SIZE, 1, "another engine build"),
    (SETUP_ROWS, 5, "setups differ"),
])
def test_header_fields_are_checked(offset, value, message):
    env = stratego.VecEnv(2, seed=1)
    blob = env.save_state()
    before = fields(env)
    with pytest.raises(ValueError, match=message):
        env.load_state(patched(blob, offset, value))
    assert fields(env) == before


def test_observation_settings_may_differ():
    """Observations are recomputed on load: a save from an env without them loads into
    one with float32 belief planes of both players, and the reverse."""
    plain = stratego.VecEnv(4, seed=6, observations=False, action_mask=False)
    for _ in range(10):
        plain.step(plain.sample_actions())
    rich = stratego.VecEnv(4, obs_dtype="float32", belief=True, views="both", history_k=2, full_obs=True)
    obs, info = rich.load_state(plain.save_state())
    reference = stratego.VecEnv(4, seed=6, obs_dtype="float32", belief=True, views="both", history_k=2,
                                full_obs=True)
    for _ in range(10):
        reference.step(reference.sample_actions())
    np.testing.assert_array_equal(obs, reference.obs)
    np.testing.assert_array_equal(info["full_obs"], reference.full_obs)
    np.testing.assert_array_equal(info["action_mask"], reference.action_mask)
    plain.load_state(rich.save_state())
    assert fields(plain) == fields(reference)


def test_game_pickle_refuses_other_rules_naming_them():
    game = stratego.Game(seed=1)
    data = game.__getstate__()
    data["variant"] = stratego.load_variant("classic", two_square_limit=5)
    clone = stratego.Game.__new__(stratego.Game)
    with pytest.raises(ValueError, match="two_square_limit 3, this one 5"):
        clone.__setstate__(data)
    assert not hasattr(clone, "_state")  # nothing half-made
    data["variant"] = stratego.load_variant("barrage")
    with pytest.raises(ValueError, match="piece sets differ"):
        clone.__setstate__(data)


def test_game_save_and_batch_save_are_not_interchangeable():
    env = stratego.VecEnv(1, seed=1)
    game = stratego.Game(seed=1)
    with pytest.raises(ValueError, match="of one game, expected a batch"):
        env.load_state(game._state.to_bytes())
    with pytest.raises(ValueError, match="of a batch of games, expected one game"):
        game._state.from_bytes(env.save_state())


def test_game_save_holds_the_bot_stream():
    """Game.bot_move draws on the game's bot stream: a pickle continues it exactly."""
    game = stratego.Game(seed=3)
    game.bot_move("random")
    back = pickle.loads(pickle.dumps(game))
    # The state as the C save, and the history: the start's C save and the actions.
    assert set(game.__getstate__()) == {"variant", "state", "numbering", "start", "actions", "check"}
    assert [back.bot_move("random") for _ in range(20)] == [game.bot_move("random") for _ in range(20)]


def test_game_pickle_round_trips_every_variant():
    for name in stratego.variants():
        game = stratego.Game(name, seed=2)
        for _ in range(6):
            if game.done:
                break
            game.play(game.legal_actions()[0])
        back = pickle.loads(pickle.dumps(game))
        assert (back.field, back.ply, back.legal_actions()) == (game.field, game.ply, game.legal_actions())
