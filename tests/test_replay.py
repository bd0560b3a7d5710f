"""Real human games from the Gravon archive, replayed move by move through the engine.

Every move of every game (classic, classicfree, barrage, Ultimate Lightning with its
rescues) must be legal under the two-square limit of 5 (the server's rule), and a game
whose record says the flag was captured, or that a side could not move, must end the
same way in the engine.
"""
from __future__ import annotations

import pytest

import stratego
from stratego.notation import format_move
from stratego.records import iter_records

from conftest import GRAVON_DIR, needs_gravon

# The engine's variant for each game type of the archive, under the server's rules: a
# two-square limit of 5 and no draw caps.
SERVER = {"two_square_limit": 5, "max_plies": 0, "max_plies_without_attack": 0}
VARIANT_OF = {
    "classic": "gravon",
    "classicfree": "gravon",
    "barrage": "barrage",
    "ultimate lightning": "ultimate-lightning",
}
SUPPORTED = set(VARIANT_OF)


def _records():
    if not GRAVON_DIR.is_dir():
        return []
    return list(iter_records(GRAVON_DIR))


RECORDS = _records()


def replay(record, **settings):
    """Plays the record's moves; returns the game. Raises ValueError on an illegal move.

    Ultimate Lightning records note a rescue as a child of the move; its piece number is
    Gravon's letter index (B = 1 bomb .. M = 12 flag), so the piece type is one less:
    in every record that piece is among the mover's captured pieces.
    """
    game = stratego.Game.from_field(record.field, variant=VARIANT_OF[record.game_type], **{**SERVER, **settings})
    for i, move in enumerate(record.moves):
        if game.done:
            raise AssertionError(f"{record.path}: game over ({game.end_reason}) before move {i + 1}")
        try:
            game.play(format_move(move.source, move.target))
            if move.rescue_piece is not None:
                assert game.rescue_pending, f"{record.path}: move {i + 1} records a rescue the engine does not open"
                game.play(stratego.rescue_to_action(move.rescue_piece - 1, move.rescue_square, game.to_move))
            else:
                assert not game.rescue_pending, f"{record.path}: move {i + 1} opens a rescue the record does not make"
        except ValueError as exc:
            raise ValueError(f"{record.path}: move {i + 1}: {exc}") from None
    return game


@needs_gravon
def test_archive_is_complete():
    assert len(RECORDS) == 180
    types = {r.game_type for r in RECORDS}
    assert types == SUPPORTED


@needs_gravon
@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.path.rsplit("/", 1)[-1] if r.path else "?")
def test_replay(record):
    game = replay(record)
    if record.result_type == 1:
        assert game.done and game.end_reason == "flag_captured"
        assert game.winner == record.winner
    elif record.result_type == 0:
        assert game.done and game.end_reason in ("no_movable_pieces", "no_legal_move")
        assert game.winner == record.winner
    elif record.result_type == 2:
        assert game.done and game.winner is None
        assert game.end_reason in ("no_movable_pieces", "neither_can_move")
    else:
        # Resignation, agreed draw, clock: the position itself was still playable.
        assert not game.done, f"engine ended the game ({game.end_reason}) but the record says type {record.result_type}"


@needs_gravon
def test_limit_of_three_rejects_some_real_games():
    """The two-square limit is a real setting: at 3 (ISF) some Gravon games break."""
    rejected = []
    for record in RECORDS:
        try:
            replay(record, two_square_limit=3)
        except ValueError as exc:
            rejected.append(str(exc))
    assert rejected, "every game replays under a limit of 3: the limit setting has no effect"
    assert all("two-square rule" in msg for msg in rejected)


@needs_gravon
def test_ultimate_lightning_rescues_replay():
    """The five recorded rescues happen, and the rescued pieces come back to the board."""
    rescues = 0
    for record in RECORDS:
        if record.game_type != "ultimate lightning":
            continue
        game = replay(record)
        rescues += sum(game.rescues)
    assert rescues == 5
