"""Gravon records and the engine: a record replayed as a Game, and a game written as a
Gravon record.

A Gravon record (stratego.records.gravon_xml) plays under its game type's variant
(GRAVON_VARIANTS) with the server's rules (SERVER_SETTINGS); its result type is applied
or checked at the end. The other way, record_to_gravon turns a game's Record into a
GameRecord and replays it to check that Gravon's rules give the same game back.
"""

from __future__ import annotations

import os

from ..common.atomic_write import write_file
from ..actions import (
    RESCUE_ACTION_BASE, action_to_squares, check_in_variant, decode_action, rescue_to_action, squares_to_action,
)
from .gravon_xml import _PLAYER_TO_WINNER, GameRecord, Move, format_record
from ..history import Record, RecordError
from ..notation import format_move
from ..variants import SWITCHES, load_variant

#: The engine's variant for each Gravon game type ("classicfree": classic pieces, free
#: setup), played under the server's rules: SERVER_SETTINGS over the variant's.
GRAVON_VARIANTS = {
    "classic": "gravon",
    "classicfree": "gravon",
    "barrage": "barrage",
    "ultimate lightning": "ultimate-lightning",
}
#: Gravon's server: a two-square limit of 5 (some recorded games need it), no draw caps:
#: the settings of configs/gravon.toml that are not switches, over every game type.
SERVER_SETTINGS = {k: v for k, v in load_variant("gravon").settings.items() if k not in SWITCHES}

# Gravon result types of endings the players decide, and the engine's end reasons for
# them; 10-14 are the clock's and absence's (docs/rules.md "Notation (Gravon)"). The
# writer writes the first type of each reason: a clock's ending as 13, the archive's.
_CONCEDED_TYPES = {3: "resigned", 4: "agreed_draw", 13: "timeout", **{t: "timeout" for t in (10, 11, 12, 14)}}
# Result types the position decides: the engine's end reasons that may stand for them.
_DECIDED_TYPES = {
    0: ("no_movable_pieces", "no_legal_move"),
    1: ("flag_captured",),
    2: ("no_movable_pieces", "neither_can_move"),
}


def gravon_actions(record: GameRecord, num_actions: int) -> tuple[list[int], list[str]]:
    """The record's moves as actions of a variant of `num_actions` actions (red moves
    first, moves alternate; a rescue is the mover's action after its move), with the
    name of each for messages."""
    actions, names = [], []
    for i, move in enumerate(record.moves):
        player = i % 2
        try:
            action = squares_to_action(move.source, move.target, player)
            actions.append(check_in_variant(action, num_actions, format_move(move.source, move.target)))
            names.append(f"move {i + 1}")
            if move.rescue_piece is not None:
                # The piece number is Gravon's letter index (B = 1 bomb .. M = 12 flag):
                # in every archive record that piece is among the mover's captured ones.
                if move.rescue_piece == 0:
                    raise ValueError("rescue piece 0 is no piece (Gravon numbers them 1 bomb .. 12 flag)")
                actions.append(rescue_to_action(move.rescue_piece - 1, move.rescue_square, player))
                names.append(f"move {i + 1}'s rescue")
        except ValueError as exc:
            raise RecordError(f"{record.path or 'record'}: move {i + 1}: {exc}") from None
    return actions, names


def replay(record: GameRecord | Record, **settings: int):
    """The Game of a record with all its moves played and its ending applied.

    A Record (stratego.history, the JSON lines format's) plays as Game.from_record. A
    Gravon GameRecord plays under its game type's variant (GRAVON_VARIANTS) with the
    server's rules (SERVER_SETTINGS; `settings` override them); a resignation (result
    type 3), an agreed draw (4) or a clock's ending (10-14) is applied after the last
    move, and an ending the position decides (0, 1, 2) must be one the moves reach.
    RecordError (a ValueError) names the first illegal move, or the result that differs.
    """
    return replay_watched(record, settings)


def gravon_variant(record: GameRecord, settings: dict):
    """The variant a Gravon record replays under: its game type's, with the server's
    rules (SERVER_SETTINGS, `settings` over them)."""
    where = f"{record.path or 'record'}: "
    if record.game_type not in GRAVON_VARIANTS:
        raise RecordError(f"{where}game type {record.game_type!r} has no variant here; expected one of "
                          f"{', '.join(repr(t) for t in GRAVON_VARIANTS)}")
    try:
        return load_variant(GRAVON_VARIANTS[record.game_type], **{**SERVER_SETTINGS, **settings})
    except ValueError as exc:
        raise RecordError(f"{where}bad start: {exc}") from None


def replay_watched(record: GameRecord | Record, settings: dict, before=None, parsed=None):
    """replay, calling before(game, i) ahead of each action i; `parsed`: the Gravon
    record's (variant, (actions, names)) when the caller has them already."""
    from ..game import Game

    if isinstance(record, Record):
        if settings:
            raise TypeError("a Record holds its own rule settings; settings apply to Gravon records")
        return Game._from_record(record, before=before)
    if not isinstance(record, GameRecord):
        raise TypeError(f"replay takes a GameRecord or a Record, got {type(record).__name__}")
    where = f"{record.path or 'record'}: "
    if parsed is None:
        variant = gravon_variant(record, settings)
        parsed = variant, gravon_actions(record, variant.num_actions)
    variant, (actions, names) = parsed
    try:
        # Played as written: the archive holds a start without a Flag (classicfree-2005.5-4228).
        game = Game.from_field(record.field, 0, variant, allow_flagless=True)
    except ValueError as exc:
        raise RecordError(f"{where}bad start: {exc}") from None
    game._play_recorded(actions, names, where, before)
    result = record.result_type
    if result in _CONCEDED_TYPES:
        game._end_as_recorded(record.winner, _CONCEDED_TYPES[result], where)
    elif result in _DECIDED_TYPES:
        if game.end_reason not in _DECIDED_TYPES[result] or game.winner != record.winner:
            got = f"end ({game.end_reason}, winner {game.winner})" if game.done else "are not over"
            raise RecordError(f"{where}result type {result} (winner {record.winner}): the moves {got}")
    elif result is not None:
        raise RecordError(f"{where}result type {result} is not one Gravon writes; expected 0-4 or 10-14")
    return game


# --------------------------------------------------------------------------- writing

def _result_type(reason: str, winner: int | None) -> int:
    """The Gravon result type the writer gives an end reason (the reader's tables read
    backwards): of the position's endings, 2 is the drawn one (neither side can move),
    0 and 1 have a winner. RecordError for an ending Gravon has no result for."""
    for result, reasons in _DECIDED_TYPES.items():
        if reason in reasons and (result == 2) == (winner is None):
            return result
    for result, conceded in _CONCEDED_TYPES.items():
        if conceded == reason:
            return result
    raise RecordError(f"Gravon has no result for {reason!r}; the JSON lines format (write_jsonl) keeps it")


# Gravon game types by the variant they replay under (GRAVON_VARIANTS read backwards).
_GRAVON_TYPES = {variant: tuple(t for t, v in GRAVON_VARIANTS.items() if v == variant)
                 for variant in dict.fromkeys(GRAVON_VARIANTS.values())}
# The switches a game written as a Gravon type must share with it: every one but the
# chasing rule, which only forbids moves (as a stricter two-square limit or a cap only
# forbids or ends: the replay under the server's rules that record_to_gravon makes shows
# where that matters).
_GRAVON_SWITCHES = tuple(k for k in SWITCHES if k != "chasing_rule")


def gravon_game_types(variant) -> tuple[str, ...]:
    """The Gravon game types a game of `variant` can be written as (its piece set and
    the switches that change fights and moves are that type's), () if none."""
    for name, types in _GRAVON_TYPES.items():
        base = load_variant(name)
        if base.piece_counts == variant.piece_counts and all(
                variant.settings.get(k) == base.settings.get(k) for k in _GRAVON_SWITCHES):
            return types
    return ()


def record_to_gravon(record: Record, *, game_type: str | None = None, check: bool = True) -> GameRecord:
    """The Gravon record of a game (a Record). RecordError if Gravon cannot hold it: no
    game type has its variant's pieces and rules, red does not move first, a rescue is
    declined (Gravon notes only rescues made), or it ended in a way Gravon has no result
    for (a cap, an illegal action). `game_type` picks among the types that fit ("classic"
    or "classicfree"; the first by default). With `check`, the record is replayed under
    the server's rules (replay) and must give back the game's moves and result: a game
    played under a stricter rule (a two-square limit of 3, the chasing rule) whose end
    the server's rules would not reach is refused."""
    if not isinstance(record, Record):
        raise TypeError(f"record must be a stratego.history.Record, got {type(record).__name__}")
    types = gravon_game_types(record.variant)
    if not types:
        raise RecordError(f"Gravon has no game type for variant {record.variant.name!r} (its pieces and rules); "
                          "the JSON lines format (write_jsonl) holds every variant")
    if game_type is None:
        game_type = types[0]
    elif game_type not in types:
        raise RecordError(f"a game of variant {record.variant.name!r} is written as {' or '.join(types)}, "
                          f"not {game_type!r}")
    if record.to_move != 0:
        raise RecordError("a Gravon record starts with red to move; this game starts with blue")
    result_type = None if record.reason is None else _result_type(record.reason, record.winner)
    moves: list[Move] = []
    for i, (action, player) in enumerate(zip(record.actions, record.players)):
        if action < RESCUE_ACTION_BASE:
            moves.append(Move(*action_to_squares(action, player)))
            continue
        kind, piece_type, square = decode_action(action, player)
        if kind != "rescue":
            raise RecordError(f"action {i + 1} declines a rescue; Gravon records note only rescues made")
        if not moves or moves[-1].rescue_piece is not None:
            raise RecordError(f"action {i + 1} is a rescue without a move before it")
        # Gravon numbers the rescued piece by its letter (B = 1 bomb .. M = 12 flag).
        moves[-1] = Move(moves[-1].source, moves[-1].target, square, piece_type + 1)
    raw_winner = None if result_type is None else _PLAYER_TO_WINNER[record.winner]
    out = GameRecord(game_type, record.field, tuple(moves), result_type,
                     None if result_type is None else record.winner, raw_winner, record.source)
    if check:
        back = replay(out).record()
        if (back.actions, back.winner, back.reason) != (record.actions, record.winner, record.reason):
            raise RecordError(f"under Gravon's rules (two-square limit 5, no caps) this game ends "
                              f"({back.reason}, winner {back.winner}), not ({record.reason}, winner {record.winner})")
    return out


def gravon_to_record(record: GameRecord, **settings: int) -> Record:
    """A Gravon record as a Record (its variant under the server's rules, its actions and
    its result, the engine's end reason where the position decides it): it replays it."""
    return replay(record, **settings).record(source=record.path)



def write_record(game, path: str | os.PathLike | None = None, *, game_type: str | None = None,
                 check: bool = True) -> str:
    """A game as Gravon XML text, written to `path` too when given (the file whole, or
    nothing: RecordError before anything is written). `game` is a Game, a Record
    (record_to_gravon says which fit, with `game_type` and `check`) or a GameRecord
    (written as it is). read_record gives back its field, moves, rescues and result."""
    from ..game import Game

    if isinstance(game, Game):
        game = game.record()
    if isinstance(game, Record):
        game = record_to_gravon(game, game_type=game_type, check=check)
    elif not isinstance(game, GameRecord):
        raise TypeError(f"write_record takes a Game, a Record or a GameRecord, got {type(game).__name__}")
    text = format_record(game)
    if path is not None:
        write_file(path, text, what="Gravon XML file")
    return text
