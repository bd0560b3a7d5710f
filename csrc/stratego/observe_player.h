/* observe_player.h: one player's observation of a game, built and encoded in one call.
 *
 * The one bridge from a game to the observation encoders (as bot_game.c is to the
 * bots): it builds the player's view (view.h) with the plies the spec shows, then
 * encodes it as planes (observe.h) or codes (observe_codes.h). The encoders see only the
 * view. An ObsSpec knows the shape of what it writes, so no caller spells (C, 10, 10).
 */
#ifndef STRATEGO_OBSERVE_PLAYER_H
#define STRATEGO_OBSERVE_PLAYER_H

#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "observe.h"
#include "observe_codes.h"
#include "view_codes.h"

/* The most dimensions of an observation (planes: channels, rows, columns). */
enum { OBS_DIMS_MAX = 3 };

/* Bytes of one observation under spec: the planes, or the codes. Inline: the batch asks
 * for every row it writes. */
static inline size_t observe_spec_bytes(const ObsSpec *spec) {
    return spec->codes ? CODES_BYTES(spec->history_k) + (spec->deploy ? CODES_DEPLOY_NB : 0) : observe_bytes(spec);
}

/* The shape of one observation under spec into dims (planes: channels x BOARD_SIZE x
 * BOARD_SIZE; codes: the code bytes); returns the number of dimensions. */
int observe_spec_shape(const ObsSpec *spec, int64_t dims[OBS_DIMS_MAX]);

/* The shape of the belief block beside the codes (spec.codes and probabilities): one
 * plane per piece type, BOARD_SIZE x BOARD_SIZE; returns the number of dimensions. */
int observe_belief_shape(int64_t dims[OBS_DIMS_MAX]);

/* The shape of the full-information view (observe_full.h): FULL_OBS_CHANNELS planes, or
 * with codes one code a square; returns the number of dimensions. */
int observe_full_shape(int codes, int64_t dims[OBS_DIMS_MAX]);

/* observe_player through the player's view (view.h): every spec but the codes without
 * belief planes goes this way. */
void observe_player_view(const GameState *s, int player, const ObsSpec *spec, uint8_t *out, float *belief);

/* Writes `player`'s observation of s under spec into out (observe_spec_bytes bytes),
 * and with codes and probabilities the belief planes into belief
 * (PIECE_TYPE_NB x SQ_NB floats; otherwise belief is not read and may be NULL). Inline,
 * so that the step pays no call for the choice: the codes without belief planes need no
 * view and are written straight from the game (view_codes.h). */
static inline void observe_player(const GameState *s, int player, const ObsSpec *spec, uint8_t *out, float *belief) {
    if (spec->codes && !spec->probabilities) {
        view_codes_write(s, player, spec, out);
    } else {
        observe_player_view(s, player, spec, out, belief);
    }
}

#endif
