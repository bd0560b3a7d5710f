#include "observe_full.h"

#include <stdio.h>
#include <string.h>

void observe_full_channel_name(int c, char *buf, size_t len) {
    static const char *const FIXED[] = {"own_moved", "own_revealed", "opp_moved", "opp_revealed",
                                        "lake", "empty"};
    if (c < FULL_OPP) snprintf(buf, len, "own_%s", PIECE_TYPE_NAMES[c - FULL_OWN]);
    else if (c < FULL_OWN_MOVED) snprintf(buf, len, "opp_%s", PIECE_TYPE_NAMES[c - FULL_OPP]);
    else snprintf(buf, len, "%s", FIXED[c - FULL_OWN_MOVED]);
}

void observe_full(const GameState *s, int player, uint8_t *out) {
    memset(out, 0, FULL_OBS_CHANNELS * SQ_NB);
    for (int sq = 0; sq < SQ_NB; sq++) {
        int f = sq_to_frame(sq, player);
        uint8_t cell = s->board[sq];
        if (cell == CELL_EMPTY) {
            out[FULL_EMPTY * SQ_NB + f] = 1;
        } else if (cell == CELL_LAKE) {
            out[FULL_LAKE * SQ_NB + f] = 1;
        } else {
            int id = cell - 1, own = piece_owner(id) == player;
            uint8_t flags = s->piece_flags[id];
            out[((own ? FULL_OWN : FULL_OPP) + s->piece_type[id]) * SQ_NB + f] = 1;
            if (flags & PIECE_MOVED) out[(own ? FULL_OWN_MOVED : FULL_OPP_MOVED) * SQ_NB + f] = 1;
            if (flags & PIECE_IDENTIFIED)
                out[(own ? FULL_OWN_REVEALED : FULL_OPP_REVEALED) * SQ_NB + f] = 1;
        }
    }
}

static uint8_t full_code_planes[FULL_CODE_NB][FULL_OBS_CHANNELS];

void observe_full_init(void) {
    static int ready;
    if (ready) return;
    full_code_planes[FULL_CODE_EMPTY][FULL_EMPTY] = 1;
    full_code_planes[FULL_CODE_LAKE][FULL_LAKE] = 1;
    for (int own = 0; own < 2; own++) {
        for (int t = 0; t < PIECE_TYPE_NB; t++) {
            for (int bits = 0; bits < 4; bits++) {
                uint8_t *planes = full_code_planes[(own ? FULL_CODE_OWN : FULL_CODE_OPP) + 4 * t + bits];
                planes[(own ? FULL_OWN : FULL_OPP) + t] = 1;
                planes[own ? FULL_OWN_REVEALED : FULL_OPP_REVEALED] = (uint8_t)(bits >> 1);
                planes[own ? FULL_OWN_MOVED : FULL_OPP_MOVED] = (uint8_t)(bits & 1);
            }
        }
    }
    ready = 1;
}

const uint8_t *observe_full_codes_table(void) { return &full_code_planes[0][0]; }

void observe_full_codes(const GameState *s, int player, uint8_t *out) {
    for (int sq = 0; sq < SQ_NB; sq++) {
        int f = sq_to_frame(sq, player);
        uint8_t cell = s->board[sq];
        if (cell == CELL_EMPTY) {
            out[f] = FULL_CODE_EMPTY;
        } else if (cell == CELL_LAKE) {
            out[f] = FULL_CODE_LAKE;
        } else {
            /* The same flags observe_full() shows as planes. */
            int id = cell - 1, own = piece_owner(id) == player;
            uint8_t flags = s->piece_flags[id];
            int revealed = (flags & PIECE_IDENTIFIED) != 0, moved = (flags & PIECE_MOVED) != 0;
            out[f] = (uint8_t)((own ? FULL_CODE_OWN : FULL_CODE_OPP) + 4 * s->piece_type[id] + 2 * revealed + moved);
        }
    }
}
