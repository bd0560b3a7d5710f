"""Fuzzing the castle game's ways in (docs/castle.md "Text board", pickles): random boards,
corrupted texts and corrupted state bytes are either refused with a ValueError naming
the problem or make a game that plays on soundly (its text reads back the same, every
legal action plays, the bots answer, random play goes on); nothing crashes. The records'
corrupted bytes are test_castle_records.py's."""
from __future__ import annotations

import random

import pytest

from stratego import _core
from stratego.castle import Game, geometry

MODES = ["ffa4", "teams4", "ffa3"]
RANKS = [9, 8, 7, 7, 6, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 3, 2, 1, 1]
COLS = "ABCDEFGHIJKLMNO"


def random_board(mode: str, rng: random.Random) -> str:
    """A random position: a random subset of each seat's pieces on random nodes, random
    public knowledge, each flag carried by a random piece or lying alone somewhere
    (abandoned or not), random sliders, a random seat to move."""
    g = geometry(mode)
    letters = "new" if g["seats"] == 3 else "nesw"
    names = g["node_names"]
    nodes = list(range(len(names)))
    rng.shuffle(nodes)
    tokens: dict[int, str] = {}
    for letter in letters:
        for rank in rng.sample(RANKS, rng.randint(1, 20)):
            if not nodes:
                break
            tokens[nodes.pop()] = (letter.upper() if rng.random() < 0.3 else letter) + str(rank)
    lone = []
    free = [n for n, t in tokens.items()]
    for letter in letters:
        if free and rng.random() < 0.6:
            node = free.pop(rng.randrange(len(free)))
            tokens[node] += letter
        else:
            lone.append(f"{letter}@{names[rng.randrange(len(names))]}" + ("!" if rng.random() < 0.3 else ""))
    lines = [f"mode: {mode}", f"to_move: {rng.choice(letters)}",
             "sliders: " + " ".join(f"{k}={rng.randint(0, 5)}" for k in letters),
             "lone: " + " ".join(lone),
             f"ring: {tokens.get(g['ring'], '.')}", f"turret: {tokens.get(g['turret'], '.')}"]
    for r, row in enumerate(g["cells"]):
        cells = []
        for c, kind in enumerate(row):
            node = names.index(f"{COLS[c]}{r + 1}") if kind == "." else None
            cells.append({" ": "-", "~": "~", "O": "O", "T": "T"}.get(kind) or tokens.get(node, "."))
        lines.append(f"{r + 1:2d} " + " ".join(cells))
    return "\n".join(lines) + "\n"


def check_sound(game: Game, rng: random.Random, plies: int = 40) -> None:
    """A game that loaded plays on: its text reads back, its views render, every legal
    action plays on a clone, the bots choose legal actions, random play goes on."""
    for _ in range(plies):
        # from_text reads running games in the move phase (a result line is not read).
        if game.phase == "move" and not game.done:
            again = Game.from_text(game.to_text(), mode=game.mode)
            assert again.to_text() == game.to_text()
        for seat in range(game.seats):
            assert game.to_text(seat)
        if game.done:
            assert game.legal_actions() == [] and game.bot_move() == -1
            return
        legal = game.legal_actions()
        assert legal and list(game.legal_mask()).count(1) == len(legal)
        for action in legal[:60]:
            # The core's clone: Game.clone rebuilds the geometry dict each time (~1 ms).
            copy = game._core.clone()
            assert copy.check(action) is None
            copy.apply(action)
        assert game.bot_move("heuristic") in legal and game.bot_move("random") in legal
        game.play(rng.choice(legal))


@pytest.mark.parametrize("mode", MODES)
def test_random_boards(mode):
    rng = random.Random(mode)
    loaded = 0
    for _ in range(150):
        text = random_board(mode, rng)
        try:
            game = Game.from_text(text)
        except ValueError as exc:
            assert str(exc)
            continue
        loaded += 1
        check_sound(game, rng, plies=10)
    assert loaded >= 60


def _mutate(text: str, rng: random.Random) -> str:
    data = list(text)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(4)
        k = rng.randrange(len(data))
        if op == 0:
            data[k] = rng.choice("nesw?NESW0123456789.~OT-!@:= \n" + chr(rng.randrange(1, 0x250)))
        elif op == 1:
            del data[k:k + rng.randint(1, 6)]
        elif op == 2:
            data[k:k] = rng.choice(["n9", " e5", "s?", "w1w", "@ring", "!", "\n", "99", "-1", "ring: n3\n"])
        else:
            lines = "".join(data).split("\n")
            i = rng.randrange(len(lines))
            lines.insert(rng.randrange(len(lines) + 1), lines[i])
            data = list("\n".join(lines))
    return "".join(data)


@pytest.mark.parametrize("mode", MODES)
def test_corrupted_texts(mode):
    """Texts of real positions with characters changed, cut, inserted or lines doubled."""
    rng = random.Random(f"text {mode}")
    bases = []
    for seed in range(4):
        game = Game(mode, seed=seed)
        while not game.done and game.ply < 60 * (seed + 1):
            game.play(game.bot_move() if rng.random() < 0.5 else rng.choice(game.legal_actions()))
        while not game.done and game.phase != "move":
            game.play(game.legal_actions()[0])
        bases.append(game.to_text())
    refused = 0
    for trial in range(300):
        text = _mutate(bases[trial % len(bases)], rng)
        try:
            game = Game.from_text(text, mode=mode)
        except ValueError as exc:
            assert str(exc)
            refused += 1
            continue
        check_sound(game, rng, plies=5)
    assert refused >= 100


@pytest.mark.parametrize("mode", MODES)
def test_corrupted_state_bytes(mode):
    """A pickle's state bytes with bytes changed: refused ("bad castle state") or a game
    whose every field agreed with the others, which then plays on soundly."""
    rng = random.Random(f"state {mode}")
    game = Game(mode, seed=3)
    states = []
    while not game.done and game.ply < 400:
        if game.ply % 50 == 0 or game.phase != "move":
            states.append(game._core.state())
        game.play(game.bot_move() if rng.random() < 0.5 else rng.choice(game.legal_actions()))
    settings = game._core.settings()
    refused = 0
    for trial in range(600):
        data = bytearray(rng.choice(states))
        for _ in range(rng.randint(1, 3)):
            k = rng.randrange(len(data))
            data[k] = rng.choice([0, 0xFF, data[k] ^ (1 << rng.randrange(8)), rng.randrange(256)])
        try:
            core = _core.CastleGame.from_state(settings, bytes(data))
        except ValueError as exc:
            assert "bad castle state" in str(exc)
            refused += 1
            continue
        check_sound(Game._wrap(core), rng, plies=5)
    assert refused >= 200
    with pytest.raises(ValueError, match="bytes"):
        _core.CastleGame.from_state(settings, bytes(states[0])[:-3])
    with pytest.raises(TypeError):
        _core.CastleGame.from_state(settings, "not bytes")
