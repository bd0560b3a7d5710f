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

/* Name of full-view channel c (for Python), into buf. */
void observe_full_channel_name(int c, char *buf, size_t len);

#endif
