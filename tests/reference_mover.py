"""A deliberately simple reference move generator for perft tests.

Written from docs/rules.md only, independent of the C engine, and kept slow and obvious
on purpose: classic movement and combat ("Movement and combat"), and the variant rules
that change which moves exist or what a move leaves behind ("Seed tournament rules",
"Other variants"): aggressor advantage, one-time bombs, Captains that move two squares,
and the rescue. Not here: the repetition rules (the two-square rule and the chasing
rule). Neither can forbid a move within the first few plies from a position with no
history: a two-square run needs more moves of one piece, and a chase can recreate a
position no sooner than its chaser's third move (ply 5), so perft counts to depth 4 do
not depend on them. Silent defense changes what is shown, not what may move.

A position is a 100-letter Gravon field string plus the player to move (0 red, 1 blue).
``field[sq]`` describes square ``sq = row * 10 + col``; 'A' empty, '_' lake, 'B'..'M'
red and 'N'..'Y' blue, in the order bomb, spy, scout, miner, sergeant, lieutenant,
captain, major, colonel, general, marshal, flag (piece types 0..11). For spy..marshal
the type number is the rank compared in combat. Under the rescue rule a position also
holds the captured pieces and the rescues made: ``State``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

EMPTY = "A"
LAKE = "_"

BOMB, SPY, SCOUT, MINER, CAPTAIN, MARSHAL, FLAG = 0, 1, 2, 3, 6, 10, 11

# Lakes: rows 4 and 5 (0-based), columns 2, 3 and 6, 7.
LAKES = frozenset(r * 10 + c for r in (4, 5) for c in (2, 3, 6, 7))

# Orthogonal steps as (d_row, d_col).
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1))




@dataclass(frozen=True)
class Variant:
    """The rule switches that change the moves (docs/rules.md "Seed tournament rules",
    "Other variants"); all off is the classic game."""

    aggressor_wins: bool = False       # equal ranks: the attacker wins
    one_time_bombs: bool = False       # a bomb that is hit goes too
    captain_two_squares: bool = False  # Captains move up to two squares, turning after the first
    rescue: bool = False               # the opponent's back row returns a captured piece


CLASSIC = Variant()


def variant_from_toml(path: str | Path) -> Variant:
    """The switches of a variant file in configs/ (absent means off)."""
    rules = tomllib.loads(Path(path).read_text(encoding="utf-8")).get("rules", {})
    return Variant(**{name: bool(rules.get(name, False)) for name in Variant.__dataclass_fields__})


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


def legal_moves(field: str, player: int, variant: Variant = CLASSIC) -> list[tuple[int, int]]:
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
        if variant.captain_two_squares and piece_type(letter) == CAPTAIN:
            moves += [(src, dst) for dst in captain_second_squares(field, player, src) if (src, dst) not in moves]
    return moves


def captain_second_squares(field: str, player: int, src: int) -> list[int]:
    """Rule (Ultimate Lightning): a Captain moves up to two squares, turning after the
    first if it likes; the first square must be empty (a Captain passes no piece, and
    an attack on the first square ends its move there); the second may hold an enemy,
    which it attacks; never back to where it started. Each target once, however many
    ways lead there."""
    row, col = divmod(src, 10)
    targets: list[int] = []
    for d_row, d_col in DIRECTIONS:
        r1, c1 = row + d_row, col + d_col
        if not (0 <= r1 < 10 and 0 <= c1 < 10) or field[r1 * 10 + c1] != EMPTY:
            continue
        for e_row, e_col in DIRECTIONS:
            r2, c2 = r1 + e_row, c1 + e_col
            if (r2, c2) == (row, col) or not (0 <= r2 < 10 and 0 <= c2 < 10):
                continue
            dst = r2 * 10 + c2
            if field[dst] == LAKE or owner(field[dst]) == player or dst in targets:
                continue
            targets.append(dst)
    return targets


def fight(attacker: str, defender: str, variant: Variant = CLASSIC) -> str:
    """Outcome of an attack: 'attacker', 'defender' or 'both' (both removed).

    Capturing the flag is reported as 'attacker' (the caller ends the game)."""
    a, d = piece_type(attacker), piece_type(defender)
    # Rule: attacking the flag captures it.
    if d == FLAG:
        return "attacker"
    # Rule: a miner removes a bomb and takes its square; any other attacker of a
    # bomb is removed and the bomb stays, unless bombs go once hit (Ultimate Lightning).
    if d == BOMB:
        if a == MINER:
            return "attacker"
        return "both" if variant.one_time_bombs else "defender"
    # Rule: the spy wins when it attacks the marshal (only then: a marshal that
    # attacks the spy wins by rank below, and the spy loses every other fight).
    if a == SPY and d == MARSHAL:
        return "attacker"
    # Rule: the lower rank is removed; equal ranks are both removed, unless the aggressor
    # has the advantage (then the attacker wins).
    if a > d:
        return "attacker"
    if a < d:
        return "defender"
    return "attacker" if variant.aggressor_wins else "both"


def apply_unchecked(field: str, player: int, move: tuple[int, int],
                    variant: Variant = CLASSIC) -> tuple[str, bool]:
    """Play a move known to be legal. Returns (new_field, game_ended)."""
    src, dst = move
    board = list(field)
    attacker, defender = board[src], board[dst]
    board[src] = EMPTY
    flag_captured = False
    if defender == EMPTY:
        board[dst] = attacker
    else:
        outcome = fight(attacker, defender, variant)
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


def apply(field: str, player: int, move: tuple[int, int], variant: Variant = CLASSIC) -> tuple[str, bool]:
    """Play ``move`` (checked for legality) and return (new_field, game_ended)."""
    check_field(field)
    move = (int(move[0]), int(move[1]))
    if move not in legal_moves(field, player, variant):
        raise ValueError(f"illegal move {move} for player {player}")
    return apply_unchecked(field, player, move, variant)


def is_ended(field: str) -> bool:
    """Whether a position is already over by the no-movable-piece rule."""
    return not has_movable_piece(field, 0) or not has_movable_piece(field, 1)


# -- the rescue rule: a position that remembers captures and rescues --------------------

RESCUE_LIMIT = 2  # rule: at most two rescues per player


@dataclass(frozen=True)
class State:
    """A position with what the rescue rule needs: who each piece is (``ids[sq]``, so
    that "the same piece cannot make both rescues" can be told), each player's captured
    pieces as (letter, id), the rescues made, the piece that made each player's first
    rescue, and ``rescuer``: the piece whose move opened a rescue its owner must now
    make or decline (the same player acts again)."""

    field: str
    to_move: int
    ids: tuple = ()
    captured: tuple = ((), ())
    rescues: tuple = (0, 0)
    first_rescuer: tuple = (None, None)
    rescuer: int | None = None
    ended: bool = False


def start(field: str, to_move: int) -> State:
    """The position of a field, with nothing captured yet; each piece named by its square."""
    check_field(field)
    ids = tuple(sq if owner(ch) is not None else None for sq, ch in enumerate(field))
    return State(field, to_move, ids, ended=is_ended(field))


def actions(state: State, variant: Variant = CLASSIC) -> list[tuple]:
    """What the player to move may do: ("move", src, dst); during a rescue
    ("rescue", type, square) for each captured type that may return and each empty
    square of the own half, and ("pass",) to return none."""
    if state.ended:
        return []
    if state.rescuer is None:
        return [("move", src, dst) for src, dst in legal_moves(state.field, state.to_move, variant)]
    player = state.to_move
    # Rule: a bomb cannot be rescued (and a captured flag has ended the game).
    types = sorted({piece_type(letter) for letter, _ in state.captured[player]} - {BOMB, FLAG})
    # Rule: the piece returns to any empty square of its owner's half (rows 0-4 for red).
    half = range(0, 50) if player == 0 else range(50, 100)
    squares = [sq for sq in half if state.field[sq] == EMPTY]
    return [("rescue", t, sq) for t in types for sq in squares] + [("pass",)]


def play(state: State, action: tuple, variant: Variant = CLASSIC) -> State:
    """The position after a legal action."""
    player = state.to_move
    if action[0] == "pass":
        return replace(state, to_move=1 - player, rescuer=None)
    if action[0] == "rescue":
        _, kind, sq = action
        captured = list(state.captured[player])
        # Which captured piece of the type comes back matters only if it made the first
        # rescue (it could not make the second); no perft position gets that far.
        letter, pid = next(piece for piece in captured if piece_type(piece[0]) == kind)
        captured.remove((letter, pid))
        board, ids = list(state.field), list(state.ids)
        board[sq], ids[sq] = letter, pid
        rescues, first = list(state.rescues), list(state.first_rescuer)
        rescues[player] += 1
        if first[player] is None:
            first[player] = state.rescuer
        return replace(state, field="".join(board), ids=tuple(ids),
                       captured=_with(state.captured, player, tuple(captured)),
                       rescues=tuple(rescues), first_rescuer=tuple(first), to_move=1 - player, rescuer=None)
    _, src, dst = action
    field, ended = apply_unchecked(state.field, player, (src, dst), variant)
    attacker, defender = state.field[src], state.field[dst]
    ids, captured = list(state.ids), [list(state.captured[0]), list(state.captured[1])]
    mover = ids[src]
    outcome = "move" if defender == EMPTY else fight(attacker, defender, variant)
    if outcome in ("defender", "both"):
        captured[player].append((attacker, mover))
    if outcome in ("attacker", "both"):
        captured[1 - player].append((defender, ids[dst]))
    ids[src] = None
    if outcome in ("move", "attacker"):
        ids[dst] = mover
    elif outcome == "both":
        ids[dst] = None
    new = replace(state, field=field, ids=tuple(ids), captured=(tuple(captured[0]), tuple(captured[1])),
                  to_move=1 - player, ended=ended)
    if not ended and variant.rescue and _rescue_opens(new, player, mover, dst):
        return replace(new, to_move=player, rescuer=mover)
    return new


def _with(pair: tuple, index: int, value) -> tuple:
    return (value, pair[1]) if index == 0 else (pair[0], value)


def _rescue_opens(state: State, player: int, mover: int, dst: int) -> bool:
    """Rule (rescue): a move that ends on a square of the opponent's back row lets its
    player return a captured piece, if the mover survived there, is no Scout, the player
    has rescues left, the mover did not make the player's first rescue, and a captured
    piece other than a bomb can come back."""
    back_row = 9 if player == 0 else 0
    if dst // 10 != back_row or state.ids[dst] != mover:
        return False
    if piece_type(state.field[dst]) == SCOUT or state.rescues[player] >= RESCUE_LIMIT:
        return False
    if state.first_rescuer[player] == mover:
        return False
    return any(piece_type(letter) not in (BOMB, FLAG) for letter, _ in state.captured[player])


def perft(field: str, player: int, depth: int, variant: Variant = CLASSIC) -> int:
    """Number of action sequences of exactly ``depth`` plies from this position.

    perft(0) = 1; otherwise the sum over legal actions of perft(child, depth - 1). A game
    that has ended (flag captured, a side without movable pieces, or the player to move
    without a legal move) has no children, so it counts 0 for any depth > 0. A rescue
    (or passing on one) is a ply of its own, by the player who opened it.
    """
    return perft_state(start(field, player), depth, variant)


def perft_state(state: State, depth: int, variant: Variant = CLASSIC) -> int:
    if depth == 0:
        return 1
    children = actions(state, variant)
    if depth == 1:
        return len(children)
    return sum(perft_state(play(state, a, variant), depth - 1, variant) for a in children)


# -- Gravon notation, for the prefixes of perft.json ------------------------------------

COLUMNS = "ABCDEFGHIK"  # Gravon has no J


def square(name: str) -> int:
    """'E4' -> square index; row 10 is written ':' (or '10')."""
    row = 9 if name[1:] in (":", "10") else int(name[1:]) - 1
    return row * 10 + COLUMNS.index(name[0])


def action_from_text(text: str) -> tuple:
    """"E4-E5" a move, "6@F4" a rescue of the piece of that rank ("S" the Spy), "pass"
    none."""
    if text == "pass":
        return ("pass",)
    if "@" in text:
        rank, name = text.split("@")
        return ("rescue", SPY if rank == "S" else int(rank), square(name))
    src, dst = text.split("-")
    return ("move", square(src), square(dst))


def state_after(field: str, to_move: int, prefix, variant: Variant = CLASSIC) -> State:
    """The position after playing the actions of `prefix` (checked legal) from the field."""
    state = start(field, to_move)
    for text in prefix:
        action = action_from_text(text)
        if action not in actions(state, variant):
            raise ValueError(f"{text} is not legal here")
        state = play(state, action, variant)
    return state
