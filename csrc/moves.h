/* moves.h: the action space and legal moves.
 *
 * An action is from * 18 + k in the acting player's frame (see types.h): k < 9 picks
 * the target column along the row (columns left to right, skipping the from column),
 * k >= 9 the target row along the column (rows bottom to top, skipping the from row).
 * Every (from, to) pair on a common line has exactly one action.
 */
#ifndef STRATEGO_MOVES_H
#define STRATEGO_MOVES_H

#include "board.h"
#include "rules.h"

/* Builds the ray tables. Idempotent; call once before any thread uses moves_*. */
void moves_init(void);

/* Action of moving from `from` to `to` (absolute squares) for `player`, or -1 if the
 * squares are not on a common row or column (or equal). */
int action_encode(int player, int from, int to);

/* The absolute squares of `action` (0 <= action < ACTION_NB) for `player`. */
void action_decode(int player, int action, int *from, int *to);

/* Writes the legal actions of `player` in the current position; returns their number
 * (at most ACTION_NB). Ignores whether the game is over. */
int moves_list(const GameState *s, const Rules *r, int player, uint16_t *actions);

/* 1 if `player` has at least one legal move. */
int moves_any_legal(const GameState *s, const Rules *r, int player);

/* 0 if moving from `from` to `to` is legal for `player`; otherwise a negative code
 * whose text moves_illegal_reason() gives. */
int moves_check(const GameState *s, const Rules *r, int player, int from, int to);
const char *moves_illegal_reason(int code);

/* mask[a] = 1 for each legal action of the player to move, 0 elsewhere; returns the
 * number of legal actions. */
int moves_legal_mask(const GameState *s, const Rules *r, uint8_t *mask);

#endif
