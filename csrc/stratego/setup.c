#include "setup.h"

#include "engine/rng.h"

void setup_random(GameState *s, const Rules *r, int player, uint64_t *rng) {
    uint8_t squares[MAX_PIECES];
    int zone = r->setup_rows * BOARD_SIZE;
    /* Red's zone is rows 0.., blue's the mirrored rows ..9 (docs/rules.md "Classic board
     * and pieces": back four rows). */
    for (int i = 0; i < zone; i++) squares[i] = (uint8_t)(player == RED ? i : SQ_NB - 1 - i);
    /* Fisher-Yates over the zone; the first `total` squares get the pieces. */
    for (int i = zone - 1; i > 0; i--) {
        int j = (int)rng_below(rng, (uint32_t)(i + 1));
        uint8_t tmp = squares[i];
        squares[i] = squares[j];
        squares[j] = tmp;
    }
    int k = 0;
    for (int type = 0; type < PIECE_TYPE_NB; type++) {
        for (int c = 0; c < r->piece_counts[type]; c++) board_place(s, player, type, squares[k++]);
    }
}

SetupTableCheck setup_table_check(const uint8_t *letters, int64_t k, const Rules *r, SetupFault *fault) {
    for (int64_t row = 0; row < k; row++) {
        int counts[PIECE_TYPE_NB] = {0};
        fault->row = row;
        for (int i = 0; i < MAX_PIECES; i++) {
            uint8_t c = letters[row * MAX_PIECES + i];
            if (c == 'A') continue;
            fault->index = i;
            fault->letter = c;
            if (c < 'B' || c > 'M') return SETUP_BAD_LETTER;
            /* Letter i stands 3 - i / 10 rows above the back row (setup_from_letters). */
            if (3 - i / BOARD_SIZE >= r->setup_rows) return SETUP_OUT_OF_ZONE;
            counts[c - 'B']++;
        }
        for (int t = 0; t < PIECE_TYPE_NB; t++) {
            if (counts[t] != r->piece_counts[t]) {
                fault->type = t;
                fault->count = counts[t];
                return SETUP_BAD_COUNT;
            }
        }
    }
    return SETUP_TABLE_OK;
}

int setup_from_letters(GameState *s, int player, const uint8_t *letters) {
    for (int i = 0; i < MAX_PIECES; i++) {
        uint8_t c = letters[i];
        if (c == 'A') continue;
        if (c < 'B' || c > 'M') return -1;
        /* letter i stands (3 - i / 10) rows above the player's back row */
        int frame_sq = (3 - i / BOARD_SIZE) * BOARD_SIZE + i % BOARD_SIZE;
        if (board_place(s, player, c - 'B', sq_to_frame(frame_sq, player)) < 0) return -1;
    }
    return 0;
}
