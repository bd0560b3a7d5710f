/* moves.h: the legal moves of the player to move, as a list, a mask or a yes/no (the
 * action layout is in types.h, its encoding in action.h).
 *
 * Line moves: from * 18 + k in the acting player's frame, k < 9 the target column
 * along the row (left to right, skipping the from column), k >= 9 the target row along
 * the column (bottom to top, skipping the from row). Every (from, to) pair on a common
 * line has exactly one action. Diagonal moves (Captains that move two squares) and
 * rescues follow at fixed offsets.
 *
 * The files behind it, one concept each: rays.c (the lines a piece moves along),
 * walk.c (the generic walk, every rule), moves_fast.c (the square-set fast path, the
 * rules that depend on the board alone), moves_check.c (one action's legality and the
 * reasons it is illegal; included here), and this file's moves.c (which path decides,
 * and the rescue phase).
 */
#ifndef STRATEGO_MOVES_H
#define STRATEGO_MOVES_H

#include "action.h"
#include "board.h"
#include "moves_check.h"
#include "rules.h"

/* Builds the move tables. Idempotent; call once before any thread uses moves_*. */
void moves_init(void);

/* Writes the legal actions of the player to move; returns their number (at most
 * ACTION_MAX). In a rescue phase these are the rescues and the decline; under
 * PHASE_DEPLOY the placements: each type in hand onto each empty square of the setup zone. */
int moves_list(const GameState *s, const Rules *r, uint16_t *actions);

/* moves_list in increasing action order: the order of the mask's set entries, so that
 * a random pick from either gives the same action. */
int moves_list_ordered(const GameState *s, const Rules *r, uint16_t *actions);

/* 1 if `player` has at least one legal move (ignoring any rescue phase; under
 * PHASE_DEPLOY a placement of the player to move, none of the other). */
int moves_any_legal(const GameState *s, const Rules *r, int player);

/* mask[a] = 1 for each legal action of the player to move, 0 elsewhere, over the
 * variant's rules_num_actions(r) entries; returns the number of legal actions. */
int moves_legal_mask(const GameState *s, const Rules *r, uint8_t *mask);

/* moves_legal_mask packed 8 actions a byte (engine/mask_bits.h's order) into ceil(n / 8)
 * bytes: written directly where the fast path applies, else the mask packed; returns the
 * number of legal actions. */
int moves_legal_bits(const GameState *s, const Rules *r, uint8_t *bits);

/* Pieces `player` still has to place under PHASE_DEPLOY (0 otherwise), of `type` and in
 * all: the rules' set less what stands on the board (nothing is captured before play). */
static inline int moves_hand(const GameState *s, const Rules *r, int player, int type) {
    return s->phase == PHASE_DEPLOY ? r->piece_counts[type] - s->on_board[player][type] : 0;
}
static inline int moves_hand_total(const GameState *s, const Rules *r, int player) {
    return s->phase == PHASE_DEPLOY ? rules_piece_total(r) - s->placed[player] : 0;
}

/* The captured piece of `player` and `type` a rescue returns (one the opponent never
 * identified if there is one, else the lowest id), or -1. */
int moves_captured_piece(const GameState *s, int player, int type);

#endif
