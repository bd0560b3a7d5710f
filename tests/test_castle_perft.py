"""Castle perft: the engine (stratego.castle.Game) against counts and positions from the
independent reference mover (castle_reference.py, written from CASTLE.md and the
notation of docs/castle.md), from start positions and mid-game positions of every mode
and of the settings that change the moves (tests/data/castle_perft.json, written by
tests/make_castle_perft.py).

Besides the counts: every ply of every prefix reaches the same position with the same
legal decisions in both, and so does every first decision from the final position; and
seeded random games agree ply by ply (more of them in CI, tests/depth.py).
"""
from __future__ import annotations

import functools
import json
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import castle_reference as ref  # noqa: E402
from castle_boards import engine_game_type, parse  # noqa: E402
from depth import depth  # noqa: E402
from make_castle_perft import choose, setup_text  # noqa: E402

POSITIONS = json.loads((Path(__file__).parent / "data" / "castle_perft.json").read_text())
IDS = [pos["name"] for pos in POSITIONS]


def engine_type():
    game, reason = engine_game_type()
    if game is None:
        pytest.skip(reason)
    return game


@functools.lru_cache(maxsize=None)
def _reference_states(name: str) -> tuple:
    return tuple(_replay(next(pos for pos in POSITIONS if pos["name"] == name)))


def reference_states(pos) -> tuple:
    """The reference's state before each decision of the prefix, and the final one
    (replayed once per position; the tests only read them)."""
    return _reference_states(pos["name"])


def _replay(pos) -> list[ref.State]:
    state = ref.from_text(pos["start"], ref.Settings(mode=pos["mode"], **pos["settings"]))
    states = [state]
    for text in pos["prefix"]:
        state = ref.play(state, text)
        states.append(state)
    return states


def engine_start(pos):
    return engine_type().from_text(pos["start"], variant=pos["mode"], **pos["settings"])


def position(text: str) -> dict:
    """What a position's text says, in a form both implementations must agree on."""
    parts = parse(text)
    out = {key: parts.get(key, "") for key in ("to_move", "phase", "ply", "sliders", "ring", "turret")}
    out["removed"] = {item.partition("=")[0]: sorted(r for r in item.partition("=")[2].split(",") if r)
                      for item in parts.get("removed", "").split()}
    out["lone"] = sorted(parts.get("lone", "").split())
    out["repeat"] = sorted(parts.get("repeat", "").split())
    out["result"] = parts.get("result", "")
    out["cells"] = parts["cells"]
    if out["result"]:
        # Who would have moved next in a finished game is no rule's business.
        del out["to_move"], out["phase"]
    return out


def game_perft(game, depth: int) -> int:
    """Perft through the engine's Python API (action numbers: no strings to build)."""
    if depth == 0:
        return 1
    moves = game.legal_actions() if hasattr(game, "legal_actions") else game.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = game.clone()
        child.play(move)
        total += game_perft(child, depth - 1)
    return total


def test_every_mode_and_situation_has_positions():
    names = set(IDS)
    assert len(names) == len(IDS), "position names must be unique"
    for mode in ref.MODES:
        for situation in ("start", "ring", "turret", "take", "recruit", "shot", "back-and-forth",
                          "carrier-of-rival"):
            assert f"{mode}-{situation}" in names


@pytest.mark.parametrize("pos", POSITIONS, ids=IDS)
def test_reference_counts(pos):
    """The data still matches the reference (depths 1-2; make_castle_perft.py --check
    recomputes depth 3)."""
    state = reference_states(pos)[-1]
    assert [ref.perft(state, d) for d in (1, 2)] == pos["counts"][:2]


@pytest.mark.parametrize("pos", POSITIONS, ids=IDS)
def test_engine_counts(pos):
    game = engine_start(pos)
    for text in pos["prefix"]:
        game.play(text)
    perft = getattr(game, "perft", None)
    counts = [perft(d) if perft else game_perft(game, d) for d in (1, 2, 3)]
    assert counts == pos["counts"]


@pytest.mark.parametrize("pos", POSITIONS, ids=IDS)
def test_engine_follows_the_reference_ply_by_ply(pos):
    """Each ply of the prefix: the same legal decisions, then the same position."""
    game = engine_start(pos)
    states = reference_states(pos)
    for ply, (text, state) in enumerate(zip(pos["prefix"] + [None], states)):
        where = f"{pos['name']} ply {ply}"
        assert position(game.to_text()) == position(ref.to_text(state)), where
        assert sorted(game.legal_moves()) == sorted(ref.legal(state)), where
        if text is not None:
            game.play(text)


@pytest.mark.parametrize("pos", POSITIONS, ids=IDS)
def test_engine_children_match_the_reference(pos):
    """Every first decision from the final position leads to the same position, with the
    same legal decisions, seen the same way from every seat."""
    state = reference_states(pos)[-1]
    game = engine_start(pos)
    for text in pos["prefix"]:
        game.play(text)
    for text in ref.legal(state):
        child_state = ref.play(state, text)
        child = game.clone()
        child.play(text)
        assert position(child.to_text()) == position(ref.to_text(child_state)), text
        assert sorted(child.legal_moves()) == sorted(ref.legal(child_state)), text
        for seat in range(len(state.seats)):
            assert position(child.to_text(seat)) == position(ref.to_text(child_state, seat)), (text, seat)


# Setting mixes for the random games: the defaults of each mode, then every A-choice
# flipped somewhere.
RANDOM_SETTINGS = [
    ("ffa4", {}), ("teams4", {}), ("ffa3", {}),
    ("ffa4", {"cannon_over_lakes": 0, "scout_line_attack": 0}),
    ("teams4", {"flag_recruit_owner": 1, "recruit_public": 0}),
    ("ffa4", {"back_and_forth": 2, "abandon": 0}),
    ("ffa3", {"flag_recruit_owner": 1, "max_plies": 400}),
]
RANDOM_GAMES = depth(3, 21)
RANDOM_PLIES = depth(150, 1500)


@pytest.mark.parametrize("index", range(RANDOM_GAMES))
def test_engine_follows_the_reference_in_random_games(index):
    """Seeded random games (decisions leaning towards the castle, fights and back-and-forth
    runs): every ply the same position, legal decisions and view of every seat."""
    mode, extra = RANDOM_SETTINGS[index % len(RANDOM_SETTINGS)]
    settings = ref.Settings(mode=mode, **extra)
    start = setup_text(settings, 9000 + index)
    state = ref.from_text(start, settings)
    game = engine_type().from_text(start, variant=mode, **extra)
    rng = random.Random(index)
    for ply in range(RANDOM_PLIES):
        where = f"{mode} {extra} setup seed {9000 + index}, game seed {index}, ply {ply}"
        assert sorted(game.legal_moves()) == sorted(ref.legal(state)), where
        # The flat action numbers name the same decisions (docs/castle.md "Actions").
        assert sorted(map(game.action_to_move, game.legal_actions())) == sorted(ref.legal(state)), where
        for seat in [None, *range(len(state.seats))]:
            assert position(game.to_text(seat)) == position(ref.to_text(state, seat)), (where, seat)
        assert game.done == state.done, where
        if state.done:
            break
        move = choose(state, rng, shuffle=(0.0, 0.5, 0.9)[index % 3])
        state = ref.play(state, move)
        game.play(move)
