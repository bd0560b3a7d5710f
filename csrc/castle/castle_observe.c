/* castle_observe.c: the planes of a view's codes (castle_observe.h). It sees codes only, never a game
 * state: whatever the planes show, the codes (castle_view.c) let the seat know. */
#include "castle_observe.h"

#include <string.h>

#define RANKS(p) p "cannon", p "spy", p "scout", p "sergeant", p "lieutenant", p "captain", p "major", p "general", p "marshal"
#define PLACES(p) p "self", p "left", p "across", p "right"
#define REMOVED(q) "removed_" q "_cannon", "removed_" q "_spy", "removed_" q "_scout", "removed_" q "_sergeant", \
    "removed_" q "_lieutenant", "removed_" q "_captain", "removed_" q "_major", "removed_" q "_general",      \
    "removed_" q "_marshal"

const char *const CASTLE_OBS_CHANNEL_NAMES[CASTLE_OBS_CHANNELS] = {
    RANKS("own_"), "own_revealed",
    "left_unknown", RANKS("left_"), "across_unknown", RANKS("across_"), "right_unknown", RANKS("right_"),
    "empty", "lake", "ring", "turret",
    PLACES("zone_"), PLACES("recruit_"), PLACES("carried_flag_"), PLACES("lone_flag_"), "abandoned_flag",
    "take_here", PLACES("slider_"),
    REMOVED("self"), REMOVED("left"), REMOVED("across"), REMOVED("right"),
    "phase_move", "phase_take", "phase_recruit", PLACES("to_move_"), PLACES("mover_"), "teams", "ply_progress",
};

#define NO 255
#define OWN(r) {CASTLE_CH_OWN + (r) - 1, NO, NO}, {CASTLE_CH_OWN + (r) - 1, CASTLE_CH_OWN_REVEALED, NO}
#define OTHER_RANK(q, k) {CASTLE_CH_OTHER + 10 * ((q) - 1) + (k), NO, NO}
#define OTHER(q) OTHER_RANK(q, 0), OTHER_RANK(q, 1), OTHER_RANK(q, 2), OTHER_RANK(q, 3), OTHER_RANK(q, 4), \
    OTHER_RANK(q, 5), OTHER_RANK(q, 6), OTHER_RANK(q, 7), OTHER_RANK(q, 8), OTHER_RANK(q, 9)
const uint8_t CASTLE_CELL_PLANES[CASTLE_CELL_CODES][3] = {
    {NO, NO, NO}, {CASTLE_CH_LAKE, NO, NO}, {CASTLE_CH_EMPTY, NO, NO},
    OWN(1), OWN(2), OWN(3), OWN(4), OWN(5), OWN(6), OWN(7), OWN(8), OWN(9),
    OTHER(1), OTHER(2), OTHER(3),
};
_Static_assert(sizeof(CASTLE_CELL_PLANES) == CASTLE_CELL_CODES * 3, "one row a code");

/* A value in every cell of a channel (the planes start zeroed). */
static inline void fill(uint8_t *planes, int channel, uint8_t value) {
    if (value) memset(planes + channel * CASTLE_OBS_CELLS, value, CASTLE_OBS_CELLS);
}

/* Marks a position's cells in channel (an OR: several flags may share a node). */
static inline void mark(uint8_t *planes, int channel, int pos) {
    uint8_t *p = planes + channel * CASTLE_OBS_CELLS;
    if (pos == CASTLE_POS_RING) {
        for (int k = 0; k < 8; k++) p[CASTLE_RING_CELLS[k]] = 1;
    } else if (pos < CASTLE_OBS_CELLS) {
        p[pos] = 1;
    }
}

void castle_obs_expand(const uint8_t *codes, uint8_t *planes) {
    memset(planes, 0, CASTLE_PLANES_BYTES);
    for (int c = 0; c < CASTLE_OBS_CELLS; c++) {
        const uint8_t *row = CASTLE_CELL_PLANES[codes[c] < CASTLE_CELL_CODES ? codes[c] : 0];
        for (int k = 0; k < 2 && row[k] != NO; k++) planes[row[k] * CASTLE_OBS_CELLS + c] = 1;
    }
    mark(planes, CASTLE_CH_RING, CASTLE_POS_RING);
    mark(planes, CASTLE_CH_TURRET, CASTLE_TURRET_CELL);
    int missing = codes[CASTLE_CODE_MISSING] & 3;
    const CastleObsFrame *frame = &castle_obs_frames()[missing];
    for (int c = 0; c < CASTLE_OBS_CELLS; c++) {
        if (frame->zone[c] < 4) planes[(CASTLE_CH_ZONE + frame->zone[c]) * CASTLE_OBS_CELLS + c] = 1;
        if (frame->recruit[c] < 4) planes[(CASTLE_CH_RECRUIT + frame->recruit[c]) * CASTLE_OBS_CELLS + c] = 1;
    }
    for (int q = 0; q < CASTLE_OBS_PLACES; q++) {
        int pos = codes[CASTLE_CODE_FLAG_POS + q], state = codes[CASTLE_CODE_FLAG_STATE + q];
        if (state == CASTLE_FLAG_CARRIED) mark(planes, CASTLE_CH_CARRIED + q, pos);
        if (state == CASTLE_FLAG_LONE || state == CASTLE_FLAG_ABANDONED) mark(planes, CASTLE_CH_LONE + q, pos);
        if (state == CASTLE_FLAG_ABANDONED) mark(planes, CASTLE_CH_ABANDONED, pos);
        fill(planes, CASTLE_CH_SLIDER + q, codes[CASTLE_CODE_SLIDER + q]);
        for (int r = 0; r < CASTLE_OBS_RANKS; r++)
            fill(planes, CASTLE_CH_REMOVED + q * CASTLE_OBS_RANKS + r, codes[CASTLE_CODE_REMOVED + q * CASTLE_OBS_RANKS + r]);
    }
    mark(planes, CASTLE_CH_TAKE, codes[CASTLE_CODE_TAKE]);
    if (codes[CASTLE_CODE_PHASE] < 3) fill(planes, CASTLE_CH_PHASE + codes[CASTLE_CODE_PHASE], 1);
    fill(planes, CASTLE_CH_TO_MOVE + (codes[CASTLE_CODE_TO_MOVE] & 3), 1);
    fill(planes, CASTLE_CH_MOVER + (codes[CASTLE_CODE_MOVER] & 3), 1);
    fill(planes, CASTLE_CH_TEAMS, codes[CASTLE_CODE_TEAMS]);
    fill(planes, CASTLE_CH_PROGRESS, codes[CASTLE_CODE_PROGRESS]);
}
