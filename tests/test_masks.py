"""The legal-action mask agrees with the move walk.

The mask (VecEnv's `action_mask`, `Game.action_mask()`) comes from square sets
(csrc/stratego/squareset.h): one-square pieces are shifted all at once and each Scout's lines end
at the nearest occupied square. `legal_actions()` walks the pieces one by one. The two
are separate code, so every position of random games in every variant must give the
same set, including the piece the two-square rule limits, chases, rescues and Captains
that move two squares (where the mask falls back to the walk).
"""
from __future__ import annotations

import random

import numpy as np
import pytest
import stratego
from boards import LAKES
from boards import game as drawn
from stratego.variants import variants as list_variants

RED_LETTERS, BLUE_LETTERS = "BCDEFGHIJKLM", "NOPQRSTUVWXY"
SCOUT, BOMB, FLAG = 2, 0, 11


def assert_mask_matches_walk(game: stratego.Game, where: str) -> None:
    mask = game.action_mask()
    assert mask.dtype == np.bool_ and mask.shape == (game.variant.num_actions,)
    walk = game.legal_actions()
    assert len(walk) == len(set(walk)), where
    assert set(np.flatnonzero(mask).tolist()) == set(walk), where


def limited_differs(game: stratego.Game) -> bool:
    """Whether the repetition rules forbid a move now: the same board without history
    (no two-square run, no chase) has more legal moves."""
    if game.done or game.rescue_pending:
        return False
    fresh = stratego.Game.from_field(game.field, to_move=game.to_move, variant=game.variant)
    return set(fresh.legal_actions()) != set(game.legal_actions())


def play_random(game: stratego.Game, rng: random.Random, plies: int, where: str) -> int:
    """Plays random legal moves, often a piece's last move back again (so two-square runs
    and chases grow), checking the mask at every ply; returns the number of positions
    where a repetition rule forbade a move."""
    limited = 0
    last: dict[int, str] = {}
    for ply in range(plies):
        if game.done:
            break
        assert_mask_matches_walk(game, f"{where} ply {ply}")
        limited += limited_differs(game)
        moves, player = game.legal_moves(), game.to_move
        back = "-".join(reversed(last[player].split("-"))) if "-" in last.get(player, "") else None
        move = back if back in moves and rng.random() < 0.7 else rng.choice(moves)
        last[player] = move
        game.play(move)
    assert_mask_matches_walk(game, f"{where} end")
    return limited


def small_field(rng: random.Random, scouts: int) -> str:
    """A few pieces a side anywhere off the lakes (Scouts among them), so that pieces run
    back and forth and the repetition rules bite often."""
    while True:
        cells = ["_" if sq in LAKES else "A" for sq in range(100)]
        free = [sq for sq in range(100) if sq not in LAKES]
        rng.shuffle(free)
        for letters in (RED_LETTERS, BLUE_LETTERS):
            types = [FLAG, BOMB] + [SCOUT] * scouts + [rng.randint(1, 10) for _ in range(rng.randint(1, 3))]
            for t in types:
                cells[free.pop()] = letters[t]
        field = "".join(cells)
        if not stratego.Game.from_field(field).done:
            return field


@pytest.mark.parametrize("variant", list_variants())
def test_mask_matches_walk_in_random_full_games(variant: str) -> None:
    rng = random.Random(variant)
    for game_no in range(3):
        game = stratego.Game(variant=variant, seed=rng.randrange(1 << 30))
        play_random(game, rng, 400, f"{variant} game {game_no}")


@pytest.mark.parametrize("variant,settings", [
    ("classic", {}),
    ("classic", {"two_square_limit": 2}),
    ("gravon", {}),
    ("isf", {}),
    ("ultimate-lightning", {}),
])
def test_mask_matches_walk_where_repetition_rules_bite(variant: str, settings: dict) -> None:
    rng = random.Random(f"{variant}{settings}")
    limited = 0
    for game_no in range(40):
        field = small_field(rng, scouts=rng.randint(0, 3))
        game = stratego.Game.from_field(field, to_move=rng.randint(0, 1), variant=variant, **settings)
        limited += play_random(game, rng, 150, f"{variant} {settings} field {field}")
    # The test must reach positions where the walk and the board alone disagree.
    assert limited >= 100, limited


def test_mask_of_a_finished_game_is_empty() -> None:
    game = stratego.Game.from_field(small_field(random.Random(5), scouts=1))
    while not game.done:
        game.play(game.legal_actions()[0])
    assert not game.action_mask().any()


def test_scout_lines_in_both_frames() -> None:
    # A red and a blue Scout in open lines: reach to the edge, stop before an own piece,
    # and end on an enemy piece (the attack).
    drawing = """
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . b2 . .
        . . . . . . . . . .
        . . ~ ~ . . ~ ~ . .
        . . ~ ~ . . ~ ~ . .
        . r2 . . . . . . b4 .
        . . . . . . . . . .
        . rF . . . . . . . .
        . . . . . . . . . bF
    """
    for to_move in (0, 1):
        g = drawn(drawing, to_move=to_move)
        assert_mask_matches_walk(g, f"to_move {to_move}")
        assert g.action_mask().sum() == len(g.legal_actions()) > 10
