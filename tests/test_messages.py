"""Messages that named nothing or the wrong thing (issue 13, item 12): each bad input
gets one exception type and a message naming what was wrong and what was expected."""
from __future__ import annotations

import numpy as np
import pytest

import stratego
from stratego import cli
from stratego.records import RecordError, read_record

BIG = 2**70
FIELD = stratego.Game(seed=1).field


def test_nul_letter_in_a_field_is_shown_not_cut():
    field = FIELD[:5] + "\x00" + FIELD[6:]
    with pytest.raises(ValueError, match=r"has byte 0x00, expected A, _, B-Y$"):
        stratego.Game.from_field(field)
    lake = FIELD[:42] + "\x07" + FIELD[43:]
    with pytest.raises(ValueError, match=r"must be a lake '_', got byte 0x07$"):
        stratego.Game.from_field(lake)


def test_huge_integers_are_value_errors_naming_the_value():
    with pytest.raises(ValueError, match=f"to_move must be 0 \\(red\\) or 1 \\(blue\\), got {BIG}"):
        stratego.Game.from_field(FIELD, to_move=BIG)
    with pytest.raises(ValueError, match=f"from must be a square index in \\[0, 99\\], got {BIG}"):
        stratego.squares_to_action(BIG, 1, 0)
    with pytest.raises(ValueError, match=f"to must be a square index in \\[0, 99\\], got -{BIG}"):
        stratego.squares_to_action(0, -BIG, 0)
    with pytest.raises(ValueError, match=f"player must be 0 \\(red\\) or 1 \\(blue\\), got {BIG}"):
        stratego.decode_action(5, BIG)
    with pytest.raises(ValueError, match=f"action must be an int in \\[0, 2801\\), got {BIG}"):
        stratego.decode_action(BIG, 0)
    with pytest.raises(ValueError, match=f"piece type must be an int in \\[0, 11\\], got {BIG}"):
        stratego.rescue_to_action(BIG, 10, 0)
    with pytest.raises(ValueError, match=f"perft depth must be an int in \\[0, 6\\], got {BIG}"):
        stratego.Game(seed=1).perft(BIG)
    with pytest.raises(ValueError, match="num_threads must be an int in \\[0, 4096\\]"):
        stratego.VecEnv(1, num_threads=BIG)
    with pytest.raises(ValueError, match="an int too large to print"):
        stratego.squares_to_action(10**5000, 1, 0)


def test_integers_with_index_are_accepted_everywhere():
    env = stratego.VecEnv(np.int64(2), num_threads=np.int64(2), history_k=np.int8(2), seed=np.uint64(3))
    assert env.num_threads == 2
    env.num_threads = np.int32(1)
    assert env.num_threads == 1
    game = stratego.Game.from_field(FIELD, to_move=np.int64(1))
    assert game.to_move == 1
    assert stratego.squares_to_action(np.int16(30), np.int16(40), np.int8(0)) == stratego.squares_to_action(30, 40, 0)
    assert game.observation(np.int64(0), history_k=np.int64(3)).shape[0] == len(stratego.channel_names(3))


@pytest.mark.parametrize("bad", [True, 1.0, "1", None])
def test_non_integers_are_type_errors(bad):
    with pytest.raises(TypeError, match="num_threads must be an int"):
        stratego.VecEnv(1, num_threads=bad)
    with pytest.raises(TypeError, match="to_move must be 0 \\(red\\) or 1 \\(blue\\), got"):
        stratego.Game.from_field(FIELD, to_move=bad)


def test_uint64_action_is_reported_as_given():
    env = stratego.VecEnv(3, seed=1)
    actions = env.sample_actions().astype(np.uint64)
    actions[1] = 2**64 - 1
    with pytest.raises(ValueError, match="action 18446744073709551615 of game 1 is out of range"):
        env.step(actions)
    actions[1] = 2**63
    with pytest.raises(ValueError, match="action 9223372036854775808 of game 1"):
        env.step(actions)
    with pytest.raises(ValueError, match="action -5 of game 0"):
        env.step(np.array([-5, 0, 0], dtype=np.int64))


def test_deeply_nested_variant_toml_is_a_usage_error(tmp_path, capsys):
    path = tmp_path / "deep.toml"
    path.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(ValueError, match="nested too deeply"):
        stratego.load_variant(path)
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["bench", "--variant", str(path), "--steps", "1", "--num-envs", "1"])
    assert exit_info.value.code == 2
    assert "nested too deeply" in capsys.readouterr().err


def test_non_utf8_variant_toml_names_the_file(tmp_path, capsys):
    path = tmp_path / "latin1.toml"
    path.write_bytes('name = "caf\u00e9"\n'.encode("latin-1"))
    with pytest.raises(ValueError, match=f"variant file '{path}' is not UTF-8 text"):
        stratego.load_variant(path)
    with pytest.raises(SystemExit):
        cli.main(["bench", "--variant", str(path)])
    assert str(path) in capsys.readouterr().err


def test_masked_arrays_are_refused():
    env = stratego.VecEnv(3, seed=1)
    actions = np.ma.masked_array(env.sample_actions().copy(), mask=[False, True, False])
    with pytest.raises(TypeError, match="masked array"):
        env.step(actions)
    game = stratego.Game(seed=1)
    action = game.legal_actions()[0]
    with pytest.raises(TypeError, match="MaskedArray"):
        game.play(np.ma.masked_array(action, mask=True))
    assert game.ply == 0


@pytest.mark.parametrize("piece", ["-5", "999999999", "13"])
def test_record_rescuepiece_out_of_range(piece):
    field = FIELD
    text = (f'<stratego><game type="classic"><field content="{field}"/>'
            f'<move id="1" source="A4" target="A5"><rescue rescuefield="F4" rescuepiece="{piece}"/>'
            f"</move></game></stratego>")
    with pytest.raises(RecordError, match=f"rescuepiece={piece} is not a piece number; expected 0..12"):
        read_record(text)


@pytest.mark.parametrize("bad,kind", [(1.5, TypeError), ("4", TypeError), (True, TypeError),
                                      (None, TypeError), (-1, ValueError), (99, ValueError),
                                      (BIG, ValueError)])
def test_history_k_one_exception_type_per_fault(bad, kind):
    """Game and VecEnv raise the same type for the same bad history_k: C checks it once."""
    errors = []
    for call in (lambda: stratego.VecEnv(1, history_k=bad),
                 lambda: stratego.VecEnv(1, history_k=bad, observations=False),
                 lambda: stratego.Game(seed=1).observation(history_k=bad),
                 lambda: stratego.channel_names(bad)):
        with pytest.raises(kind, match=f"history_k must be an int in \\[0, {stratego._core.HISTORY_NB}\\]") as info:
            call()
        errors.append(str(info.value))
    assert len(set(errors)) == 1, errors


@pytest.mark.parametrize("game_kwargs, env_kwargs, message", [
    (dict(obs_format="codes", dtype="float32"), dict(obs_format="codes", obs_dtype="float32"),
     "obs_format='codes' is uint8; expand_observation(codes, dtype='float32') gives float planes"),
    (dict(belief=True), dict(belief=True),
     "belief planes need float32 observations (VecEnv: obs_dtype='float32'; Game.observe: dtype='float32')"),
])
def test_observation_settings_are_checked_once_in_c(game_kwargs, env_kwargs, message):
    """Game and VecEnv ask the same C check (channel_names): one exception type and one
    message for one fault, given before VecEnv allocates anything."""
    with pytest.raises(ValueError) as from_game:
        stratego.Game(seed=0).observation(**game_kwargs)
    with pytest.raises(ValueError) as from_env:
        stratego.VecEnv(2, **env_kwargs)
    assert str(from_game.value) == str(from_env.value) == message


def test_from_field_refuses_a_side_without_a_flag_in_a_variant_with_flags():
    """No game reaches a side without its Flag (taking it ends the game), and played on it
    could never be won by capture: a silent wrong game (issue 26, item 5). A study
    position asks for it by name."""
    field = stratego.Game(seed=1).field
    for letter, side in (("M", "red"), ("Y", "blue")):
        with pytest.raises(ValueError, match=rf"^bad field: {side} has no Flag \(letter {letter}\), but the rules "
                                             r"give each side 1 \(a study position without one: allow_flagless=True\)$"):
            stratego.Game.from_field(field.replace(letter, "A"))
        study = stratego.Game.from_field(field.replace(letter, "A"), allow_flagless=True)
        assert not study.done and study.legal_actions()
    with pytest.raises(TypeError, match="allow_flagless must be a bool, got int"):
        stratego.Game.from_field(field, allow_flagless=1)
    # Duel has Flags too; a variant with none would take any field.
    duel = stratego.Game("duel", seed=1)
    with pytest.raises(ValueError, match="red has no Flag"):
        stratego.Game.from_field(duel.field.replace("M", "A"), variant="duel")
