/* observe_codes.h: the partial view (observe.h) as one small code a square plus a few
 * values a game, CODES_BYTES(k) bytes in place of 100 x channels planes. Expanding the
 * codes through the table observe_codes_table() gives the default planes exactly
 * (stratego.expand_observation does it in NumPy or PyTorch, on a GPU in one gather).
 *
 * Layout (uint8, OBSERVATION_VERSION of observe.h), k = history_k:
 *   0..99     square codes, observer's frame (below)
 *   100..111  own_count_<type>, 112..123 opp_count_<type> (the count planes' value)
 *   124..131  ply, max_plies, plies_since_attack, max_plies_without_attack: uint16
 *             little-endian, a count clamped to its cap and 0 without a cap, so that
 *             count / cap is the progress plane's value (float32 division, as in C)
 *   132..     from, to, attack for each of the k latest plies (i = 0 the latest);
 *             from = CODES_NO_MOVE where the game has fewer plies
 *   then      (spec->deploy only, setup="agent") hand_<type> (12 counts) and deploying
 *             (0/1): the deployment planes' values (observe.h)
 *
 * Square codes: CODE_EMPTY, CODE_LAKE, CODE_OPP_UNKNOWN_UNMOVED, CODE_OPP_UNKNOWN_MOVED,
 * CODE_OPP_KNOWN + type, CODE_OWN + 4 * type + 2 * revealed + moved.
 */
#ifndef STRATEGO_OBSERVE_CODES_H
#define STRATEGO_OBSERVE_CODES_H

#include <stdint.h>

#include "observe.h"
#include "view.h"

enum {
    CODE_EMPTY = 0,
    CODE_LAKE = 1,
    CODE_OPP_UNKNOWN_UNMOVED = 2,
    CODE_OPP_UNKNOWN_MOVED = 3,
    CODE_OPP_KNOWN = 4,                             /* + type */
    CODE_OWN = CODE_OPP_KNOWN + PIECE_TYPE_NB,      /* + 4 * type + 2 * revealed + moved */
    CODE_NB = CODE_OWN + 4 * PIECE_TYPE_NB,
};

enum {
    CODES_COUNTS = SQ_NB,
    CODES_PROGRESS = CODES_COUNTS + 2 * PIECE_TYPE_NB,
    CODES_HISTORY = CODES_PROGRESS + 8,
    CODES_NO_MOVE = 0xFF,
};

#define CODES_BYTES(history_k) ((size_t)CODES_HISTORY + 3 * (size_t)(history_k))
/* The deployment bytes after the plies: 13, so that (L - CODES_HISTORY) % 3 tells a
 * reader whether they are there. */
enum { CODES_DEPLOY_NB = PIECE_TYPE_NB + 1 };
_Static_assert(CODES_DEPLOY_NB % 3 == 1, "the deployment bytes leave a remainder the plies cannot");

/* Builds the tables. Idempotent; call once before any thread observes (stratego_init). */
void observe_codes_init(void);

/* The board planes (channels 0 .. OBS_HISTORY - 1) of each code: table[code][channel],
 * CODE_NB x OBS_HISTORY bytes of 0/1. */
const uint8_t *observe_codes_table(void);

/* Writes the codes of view v into out (CODES_BYTES(spec->history_k) bytes, and
 * CODES_DEPLOY_NB more with spec->deploy). */
void observe_codes(const PlayerView *v, const ObsSpec *spec, uint8_t *out);

/* Bytes CODES_PROGRESS.. of the codes as one little-endian word: each count clamped to
 * its cap (0 without one: count / cap is then observe.c's progress) and the cap, uint16
 * each (observe_codes and view_codes_write share it). */
static inline uint64_t observe_codes_progress(uint32_t ply, uint32_t plies_since_attack, const ObsSpec *spec) {
    uint32_t cap = spec->max_plies, cap2 = spec->max_plies_without_attack;
    uint64_t shown = ply < cap ? ply : cap, shown2 = plies_since_attack < cap2 ? plies_since_attack : cap2;
    return shown | (uint64_t)cap << 16 | shown2 << 32 | (uint64_t)cap2 << 48;
}

#endif
