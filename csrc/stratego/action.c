/* action.c: encoding and decoding actions (layout in types.h, declared in action.h). */
#include "action.h"

#include <stdlib.h>

#include "board.h"

int action_encode(int player, int from, int to) {
    int f = sq_to_frame(from, player), t = sq_to_frame(to, player);
    int fr = sq_row(f), fc = sq_col(f), tr = sq_row(t), tc = sq_col(t);
    if (f == t) return -1;
    if (fr == tr) return f * TARGETS_PER_SQ + (tc < fc ? tc : tc - 1);
    if (fc == tc) return f * TARGETS_PER_SQ + 9 + (tr < fr ? tr : tr - 1);
    if ((tr - fr == 1 || fr - tr == 1) && (tc - fc == 1 || fc - tc == 1))
        return DIAG_ACTION_BASE + f * 4 + 2 * (tr > fr) + (tc > fc);
    return -1;
}

int action_encode_rescue(int player, int type, int sq) {
    int h = sq_to_frame(sq, player);
    if (type < 0 || type >= PIECE_TYPE_NB || h >= RESCUE_SQ_NB) return -1;
    return RESCUE_ACTION_BASE + type * RESCUE_SQ_NB + h;
}

ActionLine action_lines[LINE_ACTION_NB];

void action_init(void) {
    for (int action = 0; action < LINE_ACTION_NB; action++) {
        int from = action / TARGETS_PER_SQ, k = action % TARGETS_PER_SQ, fr = sq_row(from), fc = sq_col(from);
        /* k < 9: the other squares of the row, left to right; else of the column, bottom
         * to top (types.h). */
        int to = k < 9 ? fr * BOARD_SIZE + (k < fc ? k : k + 1) : ((k - 9) < fr ? (k - 9) : (k - 9) + 1) * BOARD_SIZE + fc;
        int dr = sq_row(to) - fr, dc = sq_col(to) - fc;
        int dir = dr > 0 ? DIR_UP : dr < 0 ? DIR_DOWN : dc < 0 ? DIR_LEFT : DIR_RIGHT;
        action_lines[action] = (ActionLine){(uint8_t)from, (uint8_t)to, (uint8_t)dir, (uint8_t)abs(dr + dc)};
    }
}

ActionKind action_decode_other(int player, int action, int *a, int *b) {
    if (action >= RESCUE_DECLINE) {
        *a = *b = 0;
        return ACTION_DECLINE;
    }
    if (action >= RESCUE_ACTION_BASE) {
        int k = action - RESCUE_ACTION_BASE;
        *a = k / RESCUE_SQ_NB;
        *b = sq_to_frame(k % RESCUE_SQ_NB, player);
        return ACTION_RESCUE;
    }
    /* A diagonal step (the line moves are action_decode's). */
    int k = action - DIAG_ACTION_BASE, f = k / 4;
    int up = (k % 4) / 2, right = k % 2;
    int tr = sq_row(f) + (up ? 1 : -1), tc = sq_col(f) + (right ? 1 : -1);
    /* Off-board diagonals decode to the from square itself: never legal. */
    int t = (tr < 0 || tr >= BOARD_SIZE || tc < 0 || tc >= BOARD_SIZE) ? f : tr * BOARD_SIZE + tc;
    *a = sq_to_frame(f, player);
    *b = sq_to_frame(t, player);
    return ACTION_MOVE;
}
