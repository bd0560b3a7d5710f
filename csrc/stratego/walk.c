/* walk.c: the generic walk over the legal moves (walk.h). */
#include "walk.h"

#include <stddef.h>

#include "action.h"
#include "move_rules.h"
#include "rays.h"

/* One walk serves listing, masking and "is there any move?"; the mode is a constant at
 * each call, so the compiler makes a loop for each without branches on it. */
enum { WALK_LIST, WALK_MASK, WALK_ANY };

#define EMIT(action)                                       \
    do {                                                   \
        if (mode == WALK_ANY) return 1;                    \
        if (mode == WALK_LIST) list[n_moves] = (action);   \
        if (mode == WALK_MASK) mask[(action)] = 1;         \
        n_moves++;                                         \
    } while (0)

/* Captains (Ultimate Lightning): a second square after an empty first one, straight on
 * or turned; an enemy there is attacked (docs/rules.md "Other variants"). */
int walk_captain_targets(const GameState *s, int from, uint8_t targets[8]) {
    int n = 0;
    for (int d = 0; d < DIR_NB; d++) {
        if (rays_len[from][d] == 0) continue;
        int mid = rays_sq[from][d][0];
        if (s->board[mid] != CELL_EMPTY) continue;
        for (int e = 0; e < DIR_NB; e++) {
            /* not back to from */
            if ((d ^ e) == 1) continue;
            if (rays_len[mid][e] == 0) continue;
            int t = rays_sq[mid][e][0];
            /* a diagonal target reached both ways is listed once */
            int seen = 0;
            for (int k = 0; k < n; k++) seen |= targets[k] == t;
            if (!seen) targets[n++] = (uint8_t)t;
        }
    }
    return n;
}

/* The moves of one piece `id` of `player` (movable, on the board); `reach` is
 * move_forbidden_reach's for the player: the pieces a rule may refuse a move of now. */
static inline __attribute__((always_inline)) int piece_walk(const GameState *s, const Rules *r, int player,
                                                            int id, int reach, int mode, uint16_t *list,
                                                            uint8_t *mask) {
    int n_moves = 0;
    int ruled = reach == MOVE_RULES_ALL || reach == id;
    /* Cells 1 + id hold the player's pieces for ids first..first + 39. */
    unsigned own_first_cell = (unsigned)player * MAX_PIECES + 1;
    int from = s->piece_sq[id], type = s->piece_type[id];
    if (type != SCOUT) {
        /* One square: to a neighbour that holds no own piece. */
        const uint8_t *nb = rays_nbr_sq[from];
        const uint16_t *acts = rays_nbr_action[player][from];
        if (mode == WALK_MASK && !ruled) {
            /* No rule can refuse this piece's moves: store every neighbour's verdict,
             * no branches (each action belongs to this piece alone). */
            for (int k = 0; k < rays_nbr_len[from]; k++) {
                int legal = s->board[nb[k]] - own_first_cell >= MAX_PIECES;
                mask[acts[k]] = (uint8_t)legal;
                n_moves += legal;
            }
        } else {
            for (int k = 0; k < rays_nbr_len[from]; k++) {
                unsigned cell = s->board[nb[k]];
                if (cell - own_first_cell < MAX_PIECES) continue;
                if (!ruled || !move_forbidden(s, r, id, from, nb[k])) EMIT(acts[k]);
            }
        }
    } else {
        /* Scouts go any number of empty squares; an enemy ends the line with an attack. */
        for (int d = 0; d < DIR_NB; d++) {
            const uint8_t *ray = rays_sq[from][d];
            const uint16_t *acts = rays_action[player][from][d];
            for (int i = 0; i < rays_len[from][d]; i++) {
                unsigned cell = s->board[ray[i]];
                if (cell - own_first_cell < MAX_PIECES) break;
                if (!ruled || !move_forbidden(s, r, id, from, ray[i])) EMIT(acts[i]);
                if (cell != CELL_EMPTY) break;
            }
        }
    }
    if (type == CAPTAIN && r->captain_two_squares) {
        uint8_t targets[8];
        int n = walk_captain_targets(s, from, targets);
        for (int k = 0; k < n; k++) {
            unsigned cell = s->board[targets[k]];
            if (cell - own_first_cell < MAX_PIECES) continue;
            if (!ruled || !move_forbidden(s, r, id, from, targets[k]))
                EMIT(action_encode(player, from, targets[k]));
        }
    }
    return n_moves;
}

static inline __attribute__((always_inline)) int pieces_walk(const GameState *s, const Rules *r, int player,
                                                             int mode, uint16_t *list, uint8_t *mask) {
    int n_moves = 0;
    int first = player * MAX_PIECES, last = first + s->placed[player];
    int reach = move_forbidden_reach(s, r, player);
    for (int id = first; id < last; id++) {
        if (s->piece_sq[id] == SQ_NONE || !piece_type_is_movable(s->piece_type[id])) continue;
        int n = piece_walk(s, r, player, id, reach, mode, list ? list + n_moves : NULL, mask);
        if (mode == WALK_ANY && n) return 1;
        n_moves += n;
    }
    return n_moves;
}

int walk_list(const GameState *s, const Rules *r, int player, uint16_t *list) {
    return pieces_walk(s, r, player, WALK_LIST, list, NULL);
}

int walk_mask(const GameState *s, const Rules *r, int player, uint8_t *mask) {
    return pieces_walk(s, r, player, WALK_MASK, NULL, mask);
}

int walk_any(const GameState *s, const Rules *r, int player) {
    return pieces_walk(s, r, player, WALK_ANY, NULL, NULL);
}

int walk_piece_list(const GameState *s, const Rules *r, int id, uint16_t *list) {
    int player = piece_owner(id);
    return piece_walk(s, r, player, id, move_forbidden_reach(s, r, player), WALK_LIST, list, NULL);
}

int walk_piece_mask(const GameState *s, const Rules *r, int id, uint8_t *mask) {
    int player = piece_owner(id);
    return piece_walk(s, r, player, id, move_forbidden_reach(s, r, player), WALK_MASK, NULL, mask);
}
