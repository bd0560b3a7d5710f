/* walk.h: the generic walk over the legal moves of the move phase, piece by piece along
 * the ray tables (rays.h). It decides every rule and variant: the moves the board allows,
 * the Captains' two squares, and asks move_forbidden (move_rules.h) whether a setting
 * forbids a move (the two-square rule, the chasing rule). The square-set fast path (moves_fast.h)
 * is quicker where legality depends on the board alone and leaves the rest to it. */
#ifndef STRATEGO_WALK_H
#define STRATEGO_WALK_H

#include <stdint.h>

#include "board.h"
#include "rules.h"

/* The legal moves of `player`: as a list (returns their number), into a mask zeroed by
 * the caller (sets their entries to 1; returns their number), or whether there is any. */
int walk_list(const GameState *s, const Rules *r, int player, uint16_t *list);
int walk_mask(const GameState *s, const Rules *r, int player, uint8_t *mask);
int walk_any(const GameState *s, const Rules *r, int player);

/* The same for the one piece `id` (movable, on the board), of its owner. */
int walk_piece_list(const GameState *s, const Rules *r, int id, uint16_t *list);
int walk_piece_mask(const GameState *s, const Rules *r, int id, uint8_t *mask);

/* The squares a Captain on `from` reaches with two steps (variant: Captains that move two
 * squares): through an empty first square, straight on or turned, never back; each once.
 * Writes at most 8 squares to targets and returns their number; what stands on them is
 * for the caller to judge. */
int walk_captain_targets(const GameState *s, int from, uint8_t targets[8]);

#endif
