"""Real human games from the Gravon archive, replayed move by move through the engine
(stratego.records.replay).

Every move of every game (classic, classicfree, barrage, Ultimate Lightning with its
rescues) must be legal under the two-square limit of 5 (the server's rule), and a game
whose record says the flag was captured, or that a side could not move, must end the
same way in the engine.
"""
from __future__ import annotations

import pytest

from stratego.records import GRAVON_VARIANTS, RecordError, iter_records, read_record, replay

from conftest import GRAVON, GRAVON_DIR, needs_gravon

SUPPORTED = set(GRAVON_VARIANTS)


def _records():
    if not GRAVON_DIR.is_dir():
        return []
    return list(iter_records(GRAVON_DIR))


RECORDS = _records()


@needs_gravon
def test_archive_is_complete():
    assert len(RECORDS) == sum(GRAVON["by_type"].values())
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
        # Resignation, agreed draw, clock: endings the players decide, after the last move.
        reason = {3: "resigned", 4: "agreed_draw", 13: "timeout"}[record.result_type]
        assert game.done and game.end_reason == reason and game.winner == record.winner


@needs_gravon
def test_endings_in_the_archive():
    """85 of the 180 games end by resignation, 4 by an agreed draw and 1 on time (3, 2
    and 1 of the sample's 19)."""
    reasons = [replay(record).end_reason for record in RECORDS]
    assert (reasons.count("resigned"), reasons.count("agreed_draw"), reasons.count("timeout")) == GRAVON["decided"]


@needs_gravon
def test_limit_of_three_rejects_some_real_games():
    """The two-square limit is a real setting: at 3 (ISF) some Gravon games break."""
    rejected = []
    for record in RECORDS:
        try:
            replay(record, two_square_limit=3)
        except RecordError as exc:
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


GOOD_FIELD = ("BFBFEDEDDDGBMJCDIEDJFBBEBKIEDLHDGHFGHGIH" "AA__AA__AAAA__AA__AA"
              "TSTXTSWTSSPNPPUPOQPPUQVPPRNVNUQQQRRNYNRN")


@pytest.mark.parametrize("body, message", [
    ('<move id="1" source="F4" target="F5"/><result type="7" winner="1"/>', "result type 7 is not one Gravon writes"),
    ('<move id="1" source="F4" target="H6"/>', "move 1: no action moves"),
    ('<move id="1" source="F4" target="G5"/>', r"move 1: F4-G5: a diagonal move; this variant has only moves along rows"),
    ('<move id="1" source="F4" target="F6"/>', "move 1 .F4-F6.: "),
    ('<move id="1" source="F4" target="F5"/><result type="1" winner="1"/>', "result type 1 .winner 0.: the moves are not over"),
    ('<move id="1" source="F4" target="F5"><rescue rescuefield="F4" rescuepiece="7"/></move>',
     "move 1's rescue .*the record makes a rescue the rules do not open"),
    ('<result type="3" winner="3"/>', "resigned needs a winner"),
])
def test_hostile_records_replay_to_a_clear_error(body, message):
    text = f'<stratego><game type="classic"><field content="{GOOD_FIELD}"/>{body}</game></stratego>'
    with pytest.raises(RecordError, match=message):
        replay(read_record(text))


def test_unknown_game_type_is_named():
    text = f'<stratego><game type="chess"><field content="{GOOD_FIELD}"/></game></stratego>'
    with pytest.raises(RecordError, match="game type 'chess' has no variant here"):
        replay(read_record(text))
