/* moves_check.c: the legality of one move, rescue or action (moves_check.h). */
#include "moves_check.h"

#include "action.h"
#include "move_rules.h"
#include "moves.h"
#include "rays.h"
#include "walk.h"

static const char *const REASON_TEXT[ILLEGAL_REASON_NB] = {
#define ILLEGAL_REASON_TEXT(name, text) [name] = text,
    ILLEGAL_REASONS(ILLEGAL_REASON_TEXT)
#undef ILLEGAL_REASON_TEXT
};

const char *moves_illegal_reason(int reason) {
    return reason >= 0 && reason < ILLEGAL_REASON_NB ? REASON_TEXT[reason] : "unknown reason";
}

/* A Captain's two-square move (variant): an empty square between, straight or turned. */
static int captain_reaches(const GameState *s, int from, int to) {
    uint8_t targets[8];
    int n = walk_captain_targets(s, from, targets);
    for (int k = 0; k < n; k++) {
        if (targets[k] == to) return 1;
    }
    return 0;
}

/* moves_check once both squares are on the board and the move's shape is known: `line`
 * 1 along a row or column (then `d` its direction), 0 otherwise; `dist` the rows plus
 * columns between the squares. The reasons in the order moves_check gives them. */
static inline __attribute__((always_inline)) IllegalReason check_squares(const GameState *s, const Rules *r,
                                                                          int player, int from, int to, int line,
                                                                          int d, int dist) {
    uint8_t cell = s->board[from];
    if (cell == CELL_EMPTY || cell == CELL_LAKE || piece_owner(cell - 1) != player) return ILLEGAL_NO_OWN_PIECE;
    int id = cell - 1, type = s->piece_type[id];
    if (!piece_type_is_movable(type)) return ILLEGAL_IMMOBILE;
    if (from == to) return ILLEGAL_NOT_ON_LINE;
    if (s->board[to] == CELL_LAKE) return ILLEGAL_LAKE;
    if (s->board[to] != CELL_EMPTY && piece_owner(s->board[to] - 1) == player) return ILLEGAL_OWN_TARGET;
    if (type == CAPTAIN && r->captain_two_squares && dist == 2) {
        if (!captain_reaches(s, from, to)) return ILLEGAL_CAPTAIN_BLOCKED;
    } else {
        if (!line) return ILLEGAL_NOT_ON_LINE;
        /* Farther than one square: only a Scout, over empty squares (rulebook
         * "Movement"), not across a lake (where the ray ends, rays.h). */
        if (dist > 1) {
            if (type != SCOUT) return ILLEGAL_TOO_FAR;
            if (dist > rays_len[from][d]) return ILLEGAL_BLOCKED;
            for (int i = 0; i < dist - 1; i++) {
                if (s->board[rays_sq[from][d][i]] != CELL_EMPTY) return ILLEGAL_BLOCKED;
            }
        }
    }
    /* The board allows it; the settings that forbid moves are the walk's predicate. */
    return move_forbidden(s, r, id, from, to);
}

IllegalReason moves_check(const GameState *s, const Rules *r, int player, int from, int to) {
    if (from < 0 || from >= SQ_NB || to < 0 || to >= SQ_NB) return ILLEGAL_OFF_BOARD;
    int dr = sq_row(to) - sq_row(from), dc = sq_col(to) - sq_col(from);
    int d = dr > 0 ? DIR_UP : dr < 0 ? DIR_DOWN : dc < 0 ? DIR_LEFT : DIR_RIGHT;
    int dist = (dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc);
    return check_squares(s, r, player, from, to, dr == 0 || dc == 0, d, dist);
}

IllegalReason moves_check_rescue(const GameState *s, int type, int sq) {
    if (s->phase != PHASE_RESCUE) return ILLEGAL_NO_RESCUE_PENDING;
    if (type == BOMB || type == FLAG || moves_captured_piece(s, s->to_move, type) < 0)
        return ILLEGAL_RESCUE_NO_PIECE;
    if (sq < 0 || sq >= SQ_NB || sq_to_frame(sq, s->to_move) >= RESCUE_SQ_NB || s->board[sq] != CELL_EMPTY)
        return ILLEGAL_RESCUE_SQUARE;
    return MOVE_LEGAL;
}

IllegalReason moves_check_place(const GameState *s, const Rules *r, int type, int sq) {
    if (s->phase != PHASE_DEPLOY) return ILLEGAL_NOT_DEPLOYING;
    if (type < 0 || type >= PIECE_TYPE_NB || moves_hand(s, r, s->to_move, type) <= 0) return ILLEGAL_PLACE_NOT_IN_HAND;
    if (sq < 0 || sq >= SQ_NB) return ILLEGAL_OFF_BOARD;
    if (!rules_in_setup_zone(r, sq_to_frame(sq, s->to_move))) return ILLEGAL_PLACE_OUTSIDE_ZONE;
    if (s->board[sq] != CELL_EMPTY) return ILLEGAL_PLACE_OCCUPIED;
    return MOVE_LEGAL;
}

IllegalReason moves_check_action(const GameState *s, const Rules *r, int action) {
    if (s->done) return ILLEGAL_GAME_OVER;
    /* Diagonal steps exist only for Captains of some variants. */
    if (action >= DIAG_ACTION_BASE && action < RESCUE_ACTION_BASE && !r->captain_two_squares)
        return ILLEGAL_NOT_ON_LINE;
    if (action < 0 || action >= rules_num_actions(r)) return ILLEGAL_NOT_IN_VARIANT;
    /* The common case, a line move in the move phase: its squares and shape from the
     * table (the board turned for blue: the direction reversed). */
    if (action < LINE_ACTION_NB && s->phase == PHASE_MOVE) {
        int player = s->to_move;
        ActionLine m = action_lines[action];
        return check_squares(s, r, player, sq_to_frame(m.from, player), sq_to_frame(m.to, player), 1,
                             m.dir ^ player, m.dist);
    }
    int a, b;
    ActionKind kind = action_decode(s->to_move, action, &a, &b);
    /* While deploying, the rescue block is the placements (types.h) and nothing else. */
    if (s->phase == PHASE_DEPLOY) return kind == ACTION_RESCUE ? moves_check_place(s, r, a, b) : ILLEGAL_DEPLOYING;
    switch (kind) {
    case ACTION_MOVE:
        if (s->phase == PHASE_RESCUE) return ILLEGAL_RESCUE_PENDING;
        return moves_check(s, r, s->to_move, a, b);
    case ACTION_RESCUE:
        /* Without the rescue rule the block holds only placements. */
        if (!r->rescue) return ILLEGAL_NOT_DEPLOYING;
        return moves_check_rescue(s, a, b);
    case ACTION_DECLINE:
        return s->phase == PHASE_RESCUE ? MOVE_LEGAL : ILLEGAL_NO_RESCUE_PENDING;
    }
    return ILLEGAL_NOT_IN_VARIANT;
}
