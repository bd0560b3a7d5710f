/* chase.h: the chasing rule (ISF article 11, the "more-squares rule"), as a setting.
 *
 * ISF: a player who is continuously chasing an enemy piece may not make a chasing move
 * that recreates a position that has already occurred in that chase; moving back to the
 * square the chaser just came from is allowed (unless the two-square rule forbids it).
 * The engine reads it so:
 *
 *   - A chasing move is a move to an empty square next to (orthogonally) the piece the
 *     opponent moved on the ply before, the chased piece.
 *   - A chase starts with a chasing move and goes on while the chaser keeps making
 *     chasing moves and the opponent keeps moving the chased piece. Any other move of
 *     either player, an attack, or the chased piece's capture ends it.
 *   - The chase remembers the positions (pieces and squares, by Zobrist hash) after
 *     each of the chaser's moves, the last CHASE_POSITIONS of them.
 *   - A chasing move that would recreate a remembered position is illegal, unless the
 *     moving piece is the one that moved last in the chase and it goes back to the
 *     square it came from.
 */
#ifndef STRATEGO_CHASE_H
#define STRATEGO_CHASE_H

#include "board.h"
#include "rules.h"

/* 1 if piece `id` of the player to move going from `from` to the empty square `to`
 * breaks the chasing rule. */
int chase_forbids(const GameState *s, int id, int from, int to);

/* Updates the chase after a move of piece `id` from `from` to `to` (the board already
 * shows the move's result; `attack` tells whether it was one). `last_moved` is the
 * piece the opponent moved on the ply before, or SQ_NONE. */
void chase_record(GameState *s, int id, int from, int to, int attack, int last_moved);

#endif
