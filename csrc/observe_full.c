#include "observe_full.h"

#include <stdio.h>
#include <string.h>

static const char *const TYPE_NAMES[PIECE_TYPE_NB] = {
    "bomb", "spy", "scout", "miner", "sergeant", "lieutenant",
    "captain", "major", "colonel", "general", "marshal", "flag",
};

void observe_full_channel_name(int c, char *buf, size_t len) {
    static const char *const FIXED[] = {"own_moved", "own_revealed", "opp_moved", "opp_revealed",
                                        "lake", "empty"};
    if (c < FULL_OPP) snprintf(buf, len, "own_%s", TYPE_NAMES[c - FULL_OWN]);
    else if (c < FULL_OWN_MOVED) snprintf(buf, len, "opp_%s", TYPE_NAMES[c - FULL_OPP]);
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
