"""The flat action space and conversions between actions, squares and notation.

ACTION_NB = 1800 actions, in the acting player's frame (blue sees the board turned 180
degrees, so one policy can play both sides): action = from * 18 + k, from the square
index in that frame, k < 9 a target along the row (columns left to right, skipping the
from column), k >= 9 along the column (rows from the player's back row up, skipping the
from row). Every pair of distinct squares on a common row or column is one action.
"""
from __future__ import annotations

import operator

from . import _core
from .notation import format_move, parse_move

ACTION_NB: int = _core.ACTION_NB


def action_to_squares(action: int, player: int) -> tuple[int, int]:
    """(from, to) absolute squares of `player`'s action."""
    return _core.action_decode(player, operator.index(action))


def squares_to_action(src: int, dst: int, player: int) -> int:
    """`player`'s action for the move src -> dst (absolute squares)."""
    action = _core.action_encode(player, src, dst)
    if action < 0:
        raise ValueError(f"no action moves from square {src} to {dst}: squares must share a row or a column")
    return action


def action_to_move(action: int, player: int) -> str:
    """Gravon notation ("B4-B7") of `player`'s action."""
    return format_move(*action_to_squares(action, player))


def move_to_action(move: str, player: int) -> int:
    """`player`'s action for a move in Gravon notation."""
    return squares_to_action(*parse_move(move), player)
