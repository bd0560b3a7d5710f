"""The flat action space and conversions between actions, squares and notation.

Actions are in the acting player's frame (blue sees the board turned 180 degrees, so
one policy can play both sides), at fixed offsets; a variant uses a prefix of them
(`Variant.num_actions`):

- 0..1799 line moves: from * 18 + k, from the square index in that frame, k < 9 a target
  along the row (columns left to right, skipping the from column), k >= 9 along the
  column (rows from the player's back row up, skipping the from row);
- 1800..2199 diagonal steps (Captains that move two squares, turning): 1800 + from * 4
  + 2 * up + right;
- 2200..2799 rescues: 2200 + type * 50 + h, h the square of the own half (frame rows
  0-4) where the captured piece returns; 2800 declines the rescue.
"""
from __future__ import annotations

import operator

from . import _core
from .notation import PASS, format_move, format_rescue, parse_move, parse_rescue

ACTION_NB: int = _core.LINE_ACTION_NB  # the classic action space: line moves only
ACTION_MAX: int = _core.ACTION_MAX
DIAG_ACTION_BASE: int = _core.DIAG_ACTION_BASE
RESCUE_ACTION_BASE: int = _core.RESCUE_ACTION_BASE
RESCUE_DECLINE: int = _core.RESCUE_DECLINE


def decode_action(action: int, player: int) -> tuple[str, int, int]:
    """("move", from, to), ("rescue", piece type, square) or ("decline", 0, 0)."""
    return _core.action_decode(player, operator.index(action))


def action_to_squares(action: int, player: int) -> tuple[int, int]:
    """(from, to) absolute squares of `player`'s move action."""
    kind, a, b = decode_action(action, player)
    if kind != "move":
        raise ValueError(f"action {action} is a {kind}, not a move")
    if a == b:
        raise ValueError(f"action {action} is a diagonal step off the board: no move")
    return a, b


def squares_to_action(src: int, dst: int, player: int) -> int:
    """`player`'s action for the move src -> dst (absolute squares)."""
    action = _core.action_encode(player, src, dst)
    if action < 0:
        raise ValueError(f"no action moves from square {src} to {dst}: squares must share a row or a "
                         "column (or be diagonal neighbours, for Captains that move two squares)")
    return action


def rescue_to_action(piece_type: int, sq: int, player: int) -> int:
    """`player`'s action returning a captured piece of `piece_type` to square `sq`."""
    action = _core.action_encode_rescue(player, piece_type, sq)
    if action < 0:
        raise ValueError(f"square {sq} is not in player {player}'s half: a rescued piece returns to its own half")
    return action


def check_in_variant(action: int, num_actions: int, move: str) -> int:
    """`action` if a variant of `num_actions` actions has it (a variant uses a prefix of
    the blocks above); otherwise ValueError naming `move` (its notation), what kind of
    action it is, and what the variant has."""
    if action < num_actions:
        return action
    kind = ("a diagonal move" if action < RESCUE_ACTION_BASE else
            "a rescue" if action < RESCUE_DECLINE else "a declined rescue")
    has = ["moves along rows and columns"]
    if num_actions > DIAG_ACTION_BASE:
        has.append("diagonal steps")
    if num_actions > RESCUE_ACTION_BASE:
        has.append("rescues")
    raise ValueError(f"{move}: {kind}; this variant has only {' and '.join(has)}")


def action_to_move(action: int, player: int, numbering: str = "new") -> str:
    """Notation of `player`'s action: "B4-B7", a rescue "6@F4", or "pass"."""
    kind, a, b = decode_action(action, player)
    if kind == "move":
        return format_move(*action_to_squares(action, player))
    if kind == "rescue":
        return format_rescue(a, b, numbering)
    return PASS


def move_to_action(move: str, player: int, numbering: str = "new") -> int:
    """`player`'s action for a move ("B4-B7"), a rescue ("6@F4") or "pass"."""
    if not isinstance(move, str):
        raise TypeError(f"a move must be a str like 'B4-B7', got {type(move).__name__}")
    if move.strip().lower() == PASS:
        return RESCUE_DECLINE
    if "@" in move:
        piece_type, sq = parse_rescue(move, numbering)
        return rescue_to_action(piece_type, sq, player)
    return squares_to_action(*parse_move(move), player)
