"""A deliberately simple reference move generator for perft tests.

Written from docs/rules.md only (classic movement and combat, no repetition rule, no
tournament options), independent of the C engine, and kept slow and obvious on purpose.

A position is a 100-letter Gravon field string plus the player to move (0 red, 1 blue).
``field[sq]`` describes square ``sq = row * 10 + col``; 'A' empty, '_' lake, 'B'..'M'
red and 'N'..'Y' blue, in the order bomb, spy, scout, miner, sergeant, lieutenant,
captain, major, colonel, general, marshal, flag (piece types 0..11). For spy..marshal
the type number is the rank compared in combat.
"""

from __future__ import annotations

EMPTY = "A"
LAKE = "_"

BOMB, SPY, SCOUT, MINER, MARSHAL, FLAG = 0, 1, 2, 3, 10, 11

# Lakes: rows 4 and 5 (0-based), columns 2, 3 and 6, 7.
LAKES = frozenset(r * 10 + c for r in (4, 5) for c in (2, 3, 6, 7))

# Orthogonal steps as (d_row, d_col).
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def owner(letter: str) -> int | None:
    """0 for a red piece ('B'..'M'), 1 for a blue one ('N'..'Y'), None otherwise."""
    if "B" <= letter <= "M":
        return 0
    if "N" <= letter <= "Y":
        return 1
    return None


def piece_type(letter: str) -> int:
    """Piece type 0..11 of a piece letter (bomb 0 ... marshal 10, flag 11)."""
    side = owner(letter)
    if side is None:
        raise ValueError(f"{letter!r} is not a piece")
    return ord(letter) - ord("B") - 12 * side


def is_movable(letter: str) -> bool:
    """Rule: bombs and the flag never move; every other piece can."""
    return owner(letter) is not None and piece_type(letter) not in (BOMB, FLAG)


def has_movable_piece(field: str, player: int) -> bool:
    return any(owner(ch) == player and is_movable(ch) for ch in field)


def check_field(field: str) -> None:
    """Refuse anything but 100 Gravon letters with the lakes in place."""
    if len(field) != 100:
        raise ValueError(f"field has {len(field)} letters, expected 100")
    for sq, ch in enumerate(field):
        if ch != LAKE and ch != EMPTY and owner(ch) is None:
            raise ValueError(f"bad letter {ch!r} at square {sq}")
        if (ch == LAKE) != (sq in LAKES):
            raise ValueError(f"lake mismatch at square {sq}")


def field_from_ascii(picture: str) -> str:
    """A 100-letter field from a drawing of ten rows of ten letters.

    The first line drawn is row 9 (blue's back row, Gravon row 10), the last is row 0
    (red's back row), so the board reads as seen from red's side. '.' is an empty
    square, '_' a lake; spaces between letters are ignored."""
    rows = [line.replace(" ", "") for line in picture.strip().splitlines()]
    if len(rows) != 10 or any(len(r) != 10 for r in rows):
        raise ValueError("expected 10 rows of 10 squares")
    field = "".join(reversed(rows)).replace(".", EMPTY)
    check_field(field)
    return field


def legal_moves(field: str, player: int) -> list[tuple[int, int]]:
    """All legal (source, target) moves of ``player``, sources in square order."""
    moves: list[tuple[int, int]] = []
    for src, letter in enumerate(field):
        if owner(letter) != player or not is_movable(letter):
            continue
        row, col = divmod(src, 10)
        # Rule: a scout moves any number of squares in a straight line; every other
        # movable piece moves exactly one square.
        max_steps = 9 if piece_type(letter) == SCOUT else 1
        for d_row, d_col in DIRECTIONS:
            for step in range(1, max_steps + 1):
                r, c = row + d_row * step, col + d_col * step
                # Rule: never off the board, never onto (or across) a lake.
                if not (0 <= r < 10 and 0 <= c < 10):
                    break
                dst = r * 10 + c
                target = field[dst]
                if target == LAKE:
                    break
                if target == EMPTY:
                    # Rule: a move onto an empty square; a scout may go on past it.
                    moves.append((src, dst))
                    continue
                # Rule: never onto an own piece; an enemy piece may be attacked, and
                # it ends the line (a scout attacks only the first piece on its line,
                # and cannot jump over any piece).
                if owner(target) != player:
                    moves.append((src, dst))
                break
    return moves


def fight(attacker: str, defender: str) -> str:
    """Outcome of an attack: 'attacker', 'defender' or 'both' (both removed).

    Capturing the flag is reported as 'attacker' (the caller ends the game)."""
    a, d = piece_type(attacker), piece_type(defender)
    # Rule: attacking the flag captures it.
    if d == FLAG:
        return "attacker"
    # Rule: a miner removes a bomb and takes its square; any other attacker of a
    # bomb is removed and the bomb stays.
    if d == BOMB:
        return "attacker" if a == MINER else "defender"
    # Rule: the spy wins when it attacks the marshal (only then: a marshal that
    # attacks the spy wins by rank below, and the spy loses every other fight).
    if a == SPY and d == MARSHAL:
        return "attacker"
    # Rule: the lower rank is removed; equal ranks are both removed.
    if a > d:
        return "attacker"
    if a < d:
        return "defender"
    return "both"


def apply_unchecked(field: str, player: int, move: tuple[int, int]) -> tuple[str, bool]:
    """Play a move known to be legal. Returns (new_field, game_ended)."""
    src, dst = move
    board = list(field)
    attacker, defender = board[src], board[dst]
    board[src] = EMPTY
    flag_captured = False
    if defender == EMPTY:
        board[dst] = attacker
    else:
        outcome = fight(attacker, defender)
        if outcome == "attacker":
            flag_captured = piece_type(defender) == FLAG
            board[dst] = attacker  # a winning attacker takes the square
        elif outcome == "both":
            board[dst] = EMPTY
        # outcome == "defender": the defender stays, the attacker is gone.
    new_field = "".join(board)
    # Rule: capturing the flag ends the game. Gravon's rule: after any move, a side
    # with no movable piece left (only bombs/flag, or nothing) ends the game at once,
    # even when it happened on that side's own move; both sides at once is a draw.
    ended = (
        flag_captured
        or not has_movable_piece(new_field, 0)
        or not has_movable_piece(new_field, 1)
    )
    return new_field, ended


def apply(field: str, player: int, move: tuple[int, int]) -> tuple[str, bool]:
    """Play ``move`` (checked for legality) and return (new_field, game_ended)."""
    check_field(field)
    move = (int(move[0]), int(move[1]))
    if move not in legal_moves(field, player):
        raise ValueError(f"illegal move {move} for player {player}")
    return apply_unchecked(field, player, move)


def is_ended(field: str) -> bool:
    """Whether a position is already over by the no-movable-piece rule."""
    return not has_movable_piece(field, 0) or not has_movable_piece(field, 1)


def perft(field: str, player: int, depth: int) -> int:
    """Number of move sequences of exactly ``depth`` plies from this position.

    perft(0) = 1; otherwise the sum over legal moves of perft(child, depth - 1). A game
    that has ended (flag captured, a side without movable pieces, or the player to move
    without a legal move) has no children, so it counts 0 for any depth > 0.
    """
    check_field(field)
    if depth == 0:
        return 1
    if is_ended(field):
        return 0
    return _perft(field, player, depth)


def _perft(field: str, player: int, depth: int) -> int:
    total = 0
    for move in legal_moves(field, player):
        child, ended = apply_unchecked(field, player, move)
        if depth == 1:
            total += 1
        elif not ended:
            total += _perft(child, 1 - player, depth - 1)
    return total
