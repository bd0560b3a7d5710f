"""Castle game records (stratego.castle.records, docs/castle.md "Records"): games written
and replayed move for move in every mode, from a seed or a text position; each kind of
bad record refused with a RecordError naming the line, the move and why."""
from __future__ import annotations

import io
import json
import pickle
import random

import pytest

from stratego.castle import Game
from stratego.castle import records as R
from stratego.castle.game import _restore
from test_castle_core import board

MODES = ["ffa4", "teams4", "ffa3"]


def _play(game: Game, seed: int, plies: int | None = None) -> Game:
    """Random seats and one heuristic seat (so games end at the turret too)."""
    rng = random.Random(seed)
    while not game.done and (plies is None or game.ply < plies):
        game.play(game.bot_move() if game.to_play == seed % game.seats else rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("mode", MODES)
def test_round_trip_through_a_file(mode, tmp_path):
    games = [_play(Game(mode, seed=s, back_and_forth=3, first_seat=s % 3), s) for s in range(3)]
    games.append(_play(Game(mode, seed=9, max_plies=150), 1))          # a cap draw, or a win
    games.append(_play(Game(mode, seed=11), 2, plies=40))               # unfinished
    path = tmp_path / "castle.jsonl"
    assert R.write_records(games, path) == len(games)
    records = R.read_records(path)
    assert [r.source for r in records] == [f"{path}: line {i + 1}" for i in range(len(games))]
    for game, record in zip(games, records):
        again = R.replay(record)
        assert again.to_text() == game.to_text() and again.history == game.history
        assert again.settings == game.settings and again.winners == game.winners
        assert record.reason == game.end_reason
    assert records[-1].reason is None and records[-1].winners == []
    assert any(r.reason == "turret" for r in records)


def test_a_game_from_a_position_and_players(tmp_path):
    text = board({"D4": "n9", "D5": "e5", "H1": "n7n", "O8": "e4e"})
    game = _play(Game.from_text(text), 0, plies=30)
    line = json.loads(R.record_to_json(game.record(n="heuristic", e="random")))
    assert line["position"] == text and "seed" not in line and line["players"] == {"n": "heuristic", "e": "random"}
    assert line["version"] == R.CASTLE_VERSION and line["format"] == "stratego-castle"
    assert set(line["settings"]) == set(game.settings) - {"mode"}
    again = R.replay(R.record_from_json(json.dumps(line)))
    assert again.to_text() == game.to_text()
    with pytest.raises(ValueError, match="players maps seat letters"):
        game.record(x="me")


def test_a_game_from_explicit_setups():
    ranks = [9, 8, 7, 7, 6, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 3, 2, 1, 1]
    random.Random(1).shuffle(ranks)
    game = _play(Game("ffa3", seed=2, setups={"w": ranks}), 2, plies=50)
    line = json.loads(R.record_to_json(game))
    assert line["setups"] == {"w": ranks} and line["seed"] == 2
    assert R.replay(R.record_from_json(json.dumps(line))).to_text() == game.to_text()
    _refused(dict(line, setups={"w": ranks[:19]}), "must map seat letters of 'new' to lists of 20 ranks")
    _refused(dict(line, setups={"s": ranks}), "must map seat letters of 'new'")
    _refused(dict(line, setups={"w": [9] * 20}), "the start does not load")


def test_history_survives_clone_and_pickle():
    game = _play(Game("ffa3", seed=4), 4, plies=25)
    for copy in (game.clone(), pickle.loads(pickle.dumps(game))):
        assert copy.history == game.history and copy.record().to_dict() == game.record().to_dict()
    copy = game.clone()
    copy.play(copy.legal_actions()[0])
    assert len(copy.history) == len(game.history) + 1
    bare = _restore(game._core.settings(), game._core.state())
    with pytest.raises(ValueError, match="without its start"):
        bare.record()


GOOD = None


def _good() -> dict:
    global GOOD
    if GOOD is None:
        GOOD = _play(Game("ffa4", seed=3), 3).record().to_dict()
    return json.loads(json.dumps(GOOD))


def _refused(data, match, **limits):
    text = data if isinstance(data, (str, bytes)) else json.dumps(data)
    source = io.BytesIO((text.encode() if isinstance(text, str) else text) + b"\n")
    source.name = "games.jsonl"
    with pytest.raises(R.RecordError, match=match) as info:
        for record in R.iter_records(source, **limits):
            R.replay(record)
    assert "games.jsonl: line 1" in str(info.value)


def test_form_errors_name_the_line_and_the_problem():
    good = _good()
    cases = [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "a line is a JSON object"),
        ('{"format": 1, "format": 2}', "key 'format' appears twice"),
        ('{"seed": NaN}', "NaN is not a number"),
        ({**good, "colour": "red"}, "unknown key"),
        ({k: v for k, v in good.items() if k != "moves"}, "missing moves"),
        ({**good, "format": "stratego-game"}, "expected 'stratego-castle'"),
        ({**good, "version": 2}, "knows version 1"),
        ({**good, "version": True}, "knows version 1"),
        ({**good, "mode": "ffa5"}, "expected one of ffa4, teams4, ffa3"),
        ({**good, "settings": []}, "settings must be an object"),
        ({**good, "settings": {"mode": 1}}, "must not hold mode"),
        ({**good, "settings": {"back_and_forth": 0}}, r"back_and_forth must be in \[1, 50\]"),
        ({**good, "settings": {"colour": 1}}, "unknown castle setting 'colour'"),
        ({**good, "settings": {"first_seat": 3}, "mode": "ffa3"}, "first_seat must be below the 3 seats"),
        ({**good, "position": "mode: ffa4"}, "exactly one of them"),
        ({k: v for k, v in good.items() if k != "seed"}, "exactly one of them"),
        ({**good, "seed": -1}, r"seed must be an integer in \[0, 2\*\*64\)"),
        ({**good, "seed": "7"}, "seed must be an integer"),
        ({**good, "moves": "E3-E4"}, "moves must be a list"),
        ({**good, "moves": [17]}, "move 1 is 17; expected a move in the notation"),
        ({**good, "winners": ["x"]}, "winners must be a list of distinct seat letters"),
        ({**good, "winners": ["n", "n"]}, "distinct seat letters"),
        ({**good, "winners": ["n"], "reason": "cap"}, "need reason 'turret'"),
        ({**good, "reason": "resigned"}, "expected one of turret, stuck, cap or null"),
        ({**good, "players": {"n": 3}}, "players must map seat letters"),
        ("\n", "a blank line"),
    ]
    for data, match in cases:
        _refused(data, match)
    _refused(good, r"moves; expected at most 5 \(max_moves\)", max_moves=5)
    _refused(good, "longer than 100 bytes", max_line_bytes=100)
    with pytest.raises(R.RecordError, match="binary mode"):
        next(R.iter_records(io.StringIO(json.dumps(good) + "\n")))
    with pytest.raises(TypeError, match="source must be a path or a binary file"):
        next(R.iter_records(3))


def test_replay_errors_name_the_move_and_why():
    good = _good()
    moves = good["moves"]
    bad = dict(good, moves=moves[:5] + ["A1-A2"] + moves[6:])
    _refused(bad, r"move 6 'A1-A2' \(ply 5, \w to \w+\): A1-A2: A1 is not a node")
    # A move that parses but is not legal there (a piece that is not the mover's).
    game = Game("ffa4", seed=good["seed"])
    for move in moves[:7]:
        game.play(move)
    rival = next(m for m in Game("ffa4", seed=good["seed"]).legal_moves() if m not in game.legal_moves())
    _refused(dict(good, moves=moves[:7] + [rival]), f"move 8 '{rival}'")
    _refused(dict(good, moves=moves + ["leave"]), f"move {len(moves) + 1} 'leave': the game ended after move {len(moves)}")
    _refused(dict(good, winners=["e"] if good["winners"] != ["e"] else ["n"]), "the record says winners")
    _refused(dict(good, moves=moves[:-1]), r"its moves give winners \[\] \(None\)")
    start = {k: v for k, v in good.items() if k != "seed"}
    _refused(dict(start, position="mode: ffa4\nnonsense"), "the start does not load")


def test_corrupted_bytes_never_crash():
    """Byte flips, cuts and insertions in a good line: each line either reads and replays
    or is refused with a RecordError (a ValueError), nothing else."""
    text = json.dumps(_good()).encode()
    rng = random.Random(0)
    outcomes = {"ok": 0, "refused": 0}
    for trial in range(600):
        data = bytearray(text)
        for _ in range(rng.randint(1, 4)):
            k = rng.randrange(len(data))
            op = rng.randrange(3)
            if op == 0:
                data[k] = rng.randrange(256)
            elif op == 1:
                del data[k:k + rng.randint(1, 8)]
            else:
                data[k:k] = bytes(rng.randrange(32, 127) for _ in range(rng.randint(1, 4)))
        try:
            for record in R.iter_records(io.BytesIO(bytes(data).replace(b"\n", b" ") + b"\n")):
                R.replay(record)
            outcomes["ok"] += 1
        except R.RecordError:
            outcomes["refused"] += 1
    assert outcomes["refused"] > 300 and sum(outcomes.values()) == 600
