#include "observe_full.h"

#include <string.h>

void observe_full(const GameState *s, int player, uint8_t *out) {
    memset(out, 0, FULL_OBS_CHANNELS * SQ_NB);
    for (int sq = 0; sq < SQ_NB; sq++) {
        int f = sq_to_frame(sq, player);
        uint8_t cell = s->board[sq];
        if (cell == CELL_EMPTY) {
            out[29 * SQ_NB + f] = 1;
        } else if (cell == CELL_LAKE) {
            out[28 * SQ_NB + f] = 1;
        } else {
            int id = cell - 1, own = piece_owner(id) == player;
            uint8_t flags = s->piece_flags[id];
            out[((own ? 0 : 12) + s->piece_type[id]) * SQ_NB + f] = 1;
            if (flags & PIECE_MOVED) out[(own ? 24 : 26) * SQ_NB + f] = 1;
            if (flags & (PIECE_REVEALED | PIECE_SCOUTED)) out[(own ? 25 : 27) * SQ_NB + f] = 1;
        }
    }
}
