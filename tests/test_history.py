"""Game history (start, actions, replay, record) and the endings the players decide
(resignation, agreed draw, loss on time), through clones, pickles, bots and saves."""
from __future__ import annotations

import pickle

import numpy as np
import pytest

import stratego
from stratego.history import HistoryMove, Record, RecordError, action_players, make_record


def _bot_game(variant="classic", seed=3, plies=60, bot="random", **settings):
    game = stratego.Game(variant, seed=seed, **settings)
    for _ in range(plies):
        if game.done:
            break
        game.play(game.bot_move(bot))
    return game


def test_history_holds_every_action_with_player_and_notation():
    game = stratego.Game(seed=5)
    start = game.field
    game.play("A4-A5") if "A4-A5" in game.legal_moves() else game.play(game.legal_moves()[0])
    first = game.history[0]
    blue = game.legal_actions()[0]
    game.play(blue)
    assert game.start_field == start and game.start_to_move == 0
    assert len(game.history) == 2
    assert first.player == 0 and isinstance(first, HistoryMove)
    assert game.history[1] == HistoryMove(1, blue, stratego.action_to_move(blue, 1))
    assert first.move == stratego.action_to_move(first.action, 0)


def test_replay_rebuilds_every_earlier_position():
    game = _bot_game(plies=80)
    fields = [game.replay(n).field for n in range(len(game.history) + 1)]
    assert fields[0] == game.start_field and fields[-1] == game.field
    walk = game.replay(0)
    for n, entry in enumerate(game.history):
        assert walk.field == fields[n]
        walk.play(entry.action)
    mid = game.replay(30)
    assert mid.history == game.history[:30] and mid.ply == 30
    assert (mid.observation() == game.replay(30).observation()).all()
    with pytest.raises(ValueError, match=r"n must be in \[0, 80\]"):
        game.replay(81)
    with pytest.raises(TypeError, match="n must be an int"):
        game.replay(1.5)


def test_history_survives_clone_pickle_and_bot_moves():
    game = _bot_game(plies=40, bot="heuristic")
    clone = game.clone()
    back = pickle.loads(pickle.dumps(game))
    assert clone.history == game.history == back.history
    assert back.start_field == game.start_field
    clone.play(clone.legal_actions()[0])
    assert len(clone.history) == 41 and len(game.history) == 40  # the clone's own list
    game.bot_move("random")  # asks, plays nothing
    assert len(game.history) == 40


def test_pickle_without_history_starts_its_history_there():
    game = _bot_game(plies=10)
    data = game.__getstate__()
    old = {k: data[k] for k in ("variant", "state", "numbering")}
    back = stratego.Game.__new__(stratego.Game)
    back.__setstate__(old)
    assert back.history == () and back.start_field == game.field
    bad = dict(data, actions=b"\x01")
    with pytest.raises(ValueError, match="uint16"):
        stratego.Game.__new__(stratego.Game).__setstate__(bad)
    with pytest.raises(ValueError, match="not a pickled"):
        stratego.Game.__new__(stratego.Game).__setstate__({k: data[k] for k in ("variant", "state", "numbering", "start")})


def test_rescues_are_entries_of_their_own():
    game = stratego.Game("ultimate-lightning", seed=1)  # a random game with 2 rescues
    while not game.done:
        game.play(game.bot_move("random"))
    rescues = [h for h in game.history if h.action >= stratego.actions.RESCUE_ACTION_BASE]
    assert len(rescues) == 2
    players = [h.player for h in game.history]
    for i, h in enumerate(game.history):
        if h.action >= stratego.actions.RESCUE_ACTION_BASE:
            assert players[i - 1] == h.player  # by the mover whose move opened it
    assert stratego.Game.from_record(game.record()).field == game.field


def test_action_players():
    rescue = stratego.actions.RESCUE_ACTION_BASE
    assert action_players(0, [1, 2, 3]) == [0, 1, 0]
    assert action_players(1, [1, 2]) == [1, 0]
    assert action_players(0, [1, rescue, 2, stratego.actions.RESCUE_DECLINE, 3]) == [0, 0, 1, 1, 0]


@pytest.mark.parametrize("end, reason, winner", [
    (lambda g: g.resign(), "resigned", 1),
    (lambda g: g.resign(1), "resigned", 0),
    (lambda g: g.agree_draw(), "agreed_draw", None),
    (lambda g: g.lose_on_time(), "timeout", 1),
    (lambda g: g.lose_on_time(0), "timeout", 1),
])
def test_endings_the_players_decide(end, reason, winner):
    game = _bot_game(plies=10)
    end(game)
    assert (game.done, game.end_reason, game.winner) == (True, reason, winner)
    assert game.legal_actions() == [] and not game.action_mask().any()
    back = pickle.loads(pickle.dumps(game))  # through the C save
    assert (back.end_reason, back.winner) == (reason, winner)
    assert stratego.Game.from_record(game.record()).end_reason == reason
    with pytest.raises(ValueError, match="the game is over"):
        game.resign()
    with pytest.raises(ValueError, match="the game is over"):
        game.agree_draw()


def test_conceding_checks_its_arguments():
    game = stratego.Game(seed=1)
    with pytest.raises(ValueError, match="player"):
        game.resign(2)
    with pytest.raises(ValueError, match="not an ending the players decide"):
        game._state.concede("flag_captured", 0)
    assert not game.done
    assert stratego.END_REASONS[8:] == ("resigned", "agreed_draw", "timeout")


def test_record_round_trips_through_from_record():
    for variant in stratego.variants():
        game = _bot_game(variant, seed=11, plies=300)
        record = game.record()
        back = stratego.Game.from_record(record)
        assert back.record() == record, variant
        assert (back.field, back.done, back.winner, back.end_reason) == (game.field, game.done, game.winner, game.end_reason)


def test_forfeit_round_trips():
    game = _bot_game(plies=7)
    assert not game._play_or_forfeit(5000)
    record = game.record()
    assert (record.reason, record.winner) == ("illegal_action", 0)
    back = stratego.Game.from_record(record)
    assert (back.end_reason, back.winner) == ("illegal_action", 0)
    wrong = make_record("classic", record.field, record.actions, winner=1, reason="illegal_action")
    with pytest.raises(RecordError, match="the player to move"):
        stratego.Game.from_record(wrong)


def test_from_record_names_what_is_wrong():
    game = _bot_game(plies=20)
    record = game.record()
    illegal = make_record("classic", record.field, record.actions[:5] + (record.actions[5] ^ 1,) + record.actions[6:])
    with pytest.raises(RecordError, match=r"action 6 \("):
        stratego.Game.from_record(illegal)
    with pytest.raises(RecordError, match="its moves are not over"):
        stratego.Game.from_record(make_record("classic", record.field, record.actions, winner=0, reason="flag_captured"))
    with pytest.raises(RecordError, match="agreed draw has no winner"):
        stratego.Game.from_record(make_record("classic", record.field, record.actions, winner=0, reason="agreed_draw"))
    with pytest.raises(RecordError, match="rescue the rules do not open"):
        stratego.Game.from_record(make_record("ultimate-lightning", _bot_game("ultimate-lightning").start_field,
                                              [stratego.actions.RESCUE_DECLINE]))
    with pytest.raises(TypeError, match="Record"):
        stratego.Game.from_record("game.xml")


@pytest.mark.parametrize("kwargs, message", [
    ({"field": "A" * 99}, "100 letters, got 99"),
    ({"to_move": 2}, "to_move"),
    ({"winner": 0}, "without an end reason"),
    ({"reason": "won"}, "unknown end reason"),
    ({"winner": True, "reason": "resigned"}, "winner must be"),
    ({"actions": [1, 1800]}, r"action 2 is 1800; this variant's actions are in \[0, 1800\)"),
    ({"actions": [1, "A4-A5"]}, "action 2 is a str"),
    ({"actions": "A4-A5"}, "sequence of action ints"),
    ({"actions": np.zeros((2, 2), np.int64)}, "1-d integer array"),
    ({"actions": np.array([5, -1], np.int16)}, r"action 2 is -1; this variant's actions are in \[0, 1800\)"),
    ({"variant": "nope"}, "bad variant"),
])
def test_make_record_refuses_bad_parts(kwargs, message):
    parts = {"variant": "classic", "field": stratego.Game(seed=0).field, "actions": [1]}
    parts.update(kwargs)
    with pytest.raises(RecordError, match=message):
        make_record(parts.pop("variant"), parts.pop("field"), parts.pop("actions"), **parts)


def test_make_record_takes_settings_and_arrays():
    field = stratego.Game(seed=0).field
    record = make_record("classic", field, np.array([3, 4], np.uint16), two_square_limit=5)
    assert isinstance(record, Record) and record.actions == (3, 4)
    assert record.variant.settings["two_square_limit"] == 5


def test_a_pickles_actions_are_little_endian_on_every_machine():
    """docs/records.md "History": the actions are little-endian uint16, whatever the
    machine's byte order, both when written and when read."""
    import struct

    game = stratego.Game(seed=5)
    for _ in range(6):
        game.play(game.bot_move("random"))
    state = game.__getstate__()
    actions = [h.action for h in game.history]
    assert state["actions"] == struct.pack(f"<{len(actions)}H", *actions)
    assert stratego.game._ACTION_BYTES == np.dtype("<u2")  # read with the same dtype
    back = stratego.Game.__new__(stratego.Game)
    back.__setstate__(state)
    assert back.history == game.history
