/* moves_fast.h: the square-set fast path of the move phase (squareset.h). Every piece
 * that moves one square is shifted at once, in each direction, onto the squares it may
 * enter; each Scout's four lines end at the nearest occupied square or lake. It decides
 * what the board alone decides: the pieces a setting marked FORBID or ADD in
 * RULE_SETTINGS' `moves` column touches now (move_rules_reach, move_rules.h) it leaves to
 * the walk (walk.h), one piece (the two-square rule's), or all (then it is off: a chase,
 * Captains that move two squares). */
#ifndef STRATEGO_MOVES_FAST_H
#define STRATEGO_MOVES_FAST_H

#include <stdint.h>

#include "board.h"
#include "rules.h"

/* Builds the square sets and action tables. Idempotent; moves_init calls it. */
void moves_fast_init(void);

/* The legal moves of the move phase, -1 (nothing written) where the fast path does not
 * decide them (a setting's reach is every piece). Into `mask`, one byte an action over the variant's
 * actions (cleared here), or into `bits`, packed 8 actions a byte (mask_bits.h's order,
 * ceil(n / 8) bytes); each returns the number of legal moves. */
int moves_fast_mask(const GameState *s, const Rules *r, uint8_t *mask);
int moves_fast_bits(const GameState *s, const Rules *r, uint8_t *bits);

/* 1 if `player` has a legal move, 0 if not, -1 where the fast path does not decide. */
int moves_fast_any(const GameState *s, const Rules *r, int player);

#endif
