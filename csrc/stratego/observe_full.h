/* observe_full.h: the full-information view, for centralized critics and debugging.
 * It shows every piece's true type: never give it to a player's policy.
 *
 * Layout (uint8, observer's frame, 30 channels):
 *   0..11 own_<type>, 12..23 opp_<type> (true types), 24 own_moved, 25 own_revealed,
 *   26 opp_moved, 27 opp_revealed, 28 lake, 29 empty.
 */
#ifndef STRATEGO_OBSERVE_FULL_H
#define STRATEGO_OBSERVE_FULL_H

#include <stddef.h>
#include <stdint.h>

#include "board.h"

enum {
    FULL_OWN = 0,
    FULL_OPP = FULL_OWN + PIECE_TYPE_NB,
    FULL_OWN_MOVED = FULL_OPP + PIECE_TYPE_NB,
    FULL_OWN_REVEALED,
    FULL_OPP_MOVED,
    FULL_OPP_REVEALED,
    FULL_LAKE,
    FULL_EMPTY,
    FULL_OBS_CHANNELS
};

void observe_full(const GameState *s, int player, uint8_t *out);

/* The full view as one code a square (100 bytes, observer's frame): FULL_CODE_EMPTY,
 * FULL_CODE_LAKE, FULL_CODE_OWN / FULL_CODE_OPP + 4 * type + 2 * revealed + moved.
 * observe_full_codes_table() gives each code's channels: table[code][channel], 0/1. */
enum {
    FULL_CODE_EMPTY = 0,
    FULL_CODE_LAKE = 1,
    FULL_CODE_OWN = 2,
    FULL_CODE_OPP = FULL_CODE_OWN + 4 * PIECE_TYPE_NB,
    FULL_CODE_NB = FULL_CODE_OPP + 4 * PIECE_TYPE_NB,
};

/* Builds the code table. Idempotent; call once before any thread observes (stratego_init). */
void observe_full_init(void);

const uint8_t *observe_full_codes_table(void);

void observe_full_codes(const GameState *s, int player, uint8_t *out);

/* Name of full-view channel c (for Python), into buf. */
void observe_full_channel_name(int c, char *buf, size_t len);

#endif
