"""Castle boards drawn in ASCII for tests, and one surface over both implementations.

A drawing is rows of the text board of docs/castle.md: the row number, then 15 tokens
(columns A..O): ``-`` off the board, ``~`` a lake, ``O`` a ring cell, ``T`` the turret,
``.`` an empty space, ``n9`` a piece (seat letter, rank), ``n9e`` one carrying e's flag,
``N9`` one whose rank every seat knows. Rows left out are empty. ``board()`` adds the
header lines and the missing rows, giving the text both implementations read: the
reference (castle_reference.py) and the engine (``stratego.castle.Game.from_text``).
"""
from __future__ import annotations

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import castle_reference as ref  # noqa: E402


def board(mode: str, drawing: str = "", *, to_move: str = "n", sliders: str = "",
          lone: str = "", ring: str = ".", turret: str = ".", ply: int = 0) -> str:
    """The text of a position in the move phase: ``drawing`` as in the module docstring;
    ``sliders`` such as "w=5", ``lone`` such as "e@F8 s@G12!", ``ring`` and ``turret``
    a piece token or "."; seats not named have slider 0. Every seat's flag must be
    carried or lone (docs/castle.md)."""
    settings = ref.Settings(mode=mode)
    geo = settings.geometry
    drawn = {}
    for line in drawing.strip().splitlines():
        if line.strip():
            number, *tokens = line.split()
            if len(tokens) != 15:
                raise ValueError(f"row {number}: {len(tokens)} tokens, expected 15")
            drawn[int(number)] = tokens
    empty = ref.to_text(ref.new_state(settings))
    grid = [line for line in empty.splitlines() if line.split()[0].isdigit()]
    rows = []
    for line in grid:
        number = int(line.split()[0])
        tokens = drawn.pop(number, line.split()[1:])
        rows.append(f"{number:>2}  " + " ".join(t.ljust(3) for t in tokens).rstrip())
    if drawn:
        raise ValueError(f"rows {sorted(drawn)} are not on the {mode} board")
    header = [f"mode: {mode}", f"to_move: {to_move}", "phase: move", f"ply: {ply}",
              "sliders: " + " ".join(f"{x}={dict(i.split('=') for i in sliders.split()).get(x, 0)}"
                                     for x in geo.seats),
              f"lone: {lone}".rstrip(), f"ring: {ring}", f"turret: {turret}",
              "    " + "   ".join(ref.COLUMNS)]
    return "\n".join(header + rows) + "\n"


def parse(text: str) -> dict:
    """The parts of a position's text: header values by key, and ``cells``: node -> token
    ('.' empty) for every space, the ring and the turret."""
    out: dict = {}
    cells = {}
    for line in text.splitlines():
        words = line.split()
        if not words:
            continue
        if ":" in words[0]:
            key, _, value = line.partition(":")
            out[key.strip()] = value.strip()
        elif words[0].isdigit():
            row = int(words[0]) - 1
            for col, token in enumerate(words[1:]):
                if token not in "-~OT":
                    cells[ref.cell_name(col, row)] = token
    for node in ref.CASTLE:
        cells[node] = out.get(node, ".")
    out["cells"] = cells
    return out


# -- one surface over both implementations ---------------------------------------------


class RefGame:
    """The reference behind the calls the tests make of ``stratego.castle.Game``
    (docs/castle.md "Python API")."""

    def __init__(self, mode: str = "ffa4", *, seed: int = 0, **settings):
        import random

        rng = random.Random(seed)
        settings = ref.Settings(mode=mode, **settings)
        geo = settings.geometry
        self.state = ref.start(settings, {x: ref.random_setup(geo, x, rng) for x in geo.seats})

    @classmethod
    def of(cls, state: ref.State) -> RefGame:
        game = cls.__new__(cls)
        game.state = state
        return game

    @classmethod
    def from_text(cls, text: str, variant: str = "ffa4", **settings) -> RefGame:
        return cls.of(ref.from_text(text, ref.Settings(mode=variant, **settings)))

    def clone(self) -> RefGame:
        return RefGame.of(self.state.copy())

    def legal_moves(self) -> list[str]:
        return ref.legal(self.state)

    def play(self, text: str) -> None:
        self.state = ref.play(self.state, text)

    def to_text(self, seat: int | None = None) -> str:
        return ref.to_text(self.state, seat)

    @property
    def done(self) -> bool:
        return self.state.done

    @property
    def winners(self) -> tuple:
        return tuple(self.state.winners)

    @property
    def end_reason(self) -> str | None:
        return self.state.end_reason

    @property
    def to_play(self) -> int:
        return self.state.to_move

    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def sliders(self) -> dict:
        return {x: self.state.sliders[i] for i, x in enumerate(self.state.seats)}

    @property
    def removed(self) -> dict:
        return {x: list(self.state.removed[i]) for i, x in enumerate(self.state.seats)}


ENGINE_MODULE = "stratego.castle"


def engine_game_type():
    """(stratego.castle.Game, "") or (None, the reason it is missing)."""
    try:
        module = importlib.import_module(ENGINE_MODULE)
    except ImportError as err:
        return None, f"{ENGINE_MODULE} is missing ({err})"
    game = getattr(module, "Game", None)
    if game is None:
        return None, f"{ENGINE_MODULE} has no Game"
    return game, ""


IMPLEMENTATIONS = ("reference", "engine")


def implementation(name: str):
    """The game type of an implementation name; pytest.skip while the engine is missing."""
    import pytest

    if name == "reference":
        return RefGame
    game, reason = engine_game_type()
    if game is None:
        pytest.skip(reason)
    return game
