/* chase.h: the chasing rule (ISF article 11, the "more-squares rule"), as a setting.
 *
 * ISF 11.1: it is not allowed to continuously chase one or more pieces of the opponent
 * endlessly; the continuous chaser may not play a chasing move that leads to a position
 * that has already taken place. 11.2: chasing moves back to the square where the
 * chasing piece came from in the directly preceding turn are allowed (unless the
 * two-square rule forbids them). 11.3 (also Gravon's text): to threaten is to move a
 * piece next to (before, behind or beside) an opponent's piece; to evade is to move a
 * piece away promptly after it was threatened; a continuous chase is one player
 * non-stop threatening one or more pieces that keep evading; a chasing move threatens
 * an opponent's piece that evaded during the chase. The engine reads it so:
 *
 *   - A threat is a move to an empty square that ends orthogonally next to enemy
 *     pieces (the threatened pieces). An evasion is the opponent's very next move, when
 *     it moves one of the threatened pieces to an empty square.
 *   - A chase starts with a threat that is evaded: that threat is its first move, and
 *     the position after it is the chase's first position. It goes on while each
 *     move of the chaser is a chasing move (to an empty square next to a piece that
 *     evaded in this chase) and each move of the other side is an evasion.
 *   - One or more pieces: the chased side may evade with any piece the chaser's last
 *     move threatened, one piece or several in turn; every piece that evaded stays
 *     chased, and the chase's positions run on across the change of piece.
 *   - Any other move of either side, any attack and any rescue ends the chase (a new
 *     one may start at once, from the move that ended it if that move was a threat or,
 *     for the other side, if it evaded a threat). An attack changes the pieces for good,
 *     so no earlier position can come back after one (a rescue changes them too).
 *   - The chase keeps every position after its chaser's moves (pieces and squares, by
 *     Zobrist hash), from its first threat on; nothing is forgotten (CHASE_POSITIONS
 *     and the no-attack cap, types.h).
 *   - A chasing move that would recreate one of them is illegal, unless the moving
 *     piece is the one that moved last in the chase and it goes back to the square it
 *     came from.
 *   - One chase at a time: while a chase goes on, a threat of the chased side (say, an
 *     evasion that ends next to a chaser's piece) starts no chase of its own; it can
 *     start one when the first chase ends, as the first threat of the new chase.
 */
#ifndef STRATEGO_CHASE_H
#define STRATEGO_CHASE_H

#include "board.h"
#include "rules.h"

/* 1 if piece `id` of the player to move going from `from` to the empty square `to`
 * breaks the chasing rule. */
int chase_forbids(const GameState *s, int id, int from, int to);

/* Updates the chase after a move of piece `id` from `from` to `to` (the board and hash
 * already show the move's result; `attack` tells whether it was one). */
void chase_record(GameState *s, int id, int from, int to, int attack);

/* Ends any chase and forgets both players' threats (after a rescue). */
void chase_reset(GameState *s);

#endif
