/* castle_vec.h: N castle games stepped together on the batch seam of csrc/engine/vec.h
 * (docs/castle.md "The batch"). The hooks, outputs, the random agent and saves; the
 * loops, autoreset and tallies are vec.h's.
 *
 * Each step writes, for every game, the legal mask of the seat to decide (bytes or
 * bits: mask_bits.h's order), that seat (to_play), its observation (planes or codes,
 * castle_observe.h) and every seat's reward: +1 for the seat that crowns (teams4: both
 * seats of its team), -1 for every other seat, 0 for all in a draw (stuck or the ply
 * cap). Every end is a rule: terminated, never truncated. final_obs is the view of the
 * seat that made the last decision.
 */
#ifndef CASTLE_VEC_H
#define CASTLE_VEC_H

#include <stddef.h>
#include <stdint.h>

#include "castle.h"
#include "engine/pool.h"
#include "engine/vec.h"

enum { CASTLE_OBS_FORMAT_NONE = 0, CASTLE_OBS_FORMAT_PLANES = 1, CASTLE_OBS_FORMAT_CODES = 2 };
enum { CASTLE_MASK_BYTES_MAX = (CASTLE_ACTIONS_MAX + 7) / 8 };

typedef struct {
    int num_envs, seats, actions;
    CastleSettings cfg;
    CastleState *states;  /* owned */
    uint64_t *sample_rng; /* owned: the random agent's stream of each game */
    uint8_t *legal;       /* owned: each game's legal actions as bits (bits_bytes a game) */
    uint16_t *legal_count; /* owned: how many */
    size_t bits_bytes;
    VecOutputs out; /* the caller's */
    int obs_format, mask_bits, autoreset;
    VecTally stats;
    PoolPaces paces; /* whether its loops' helpers pay (engine/pool.h) */
} CastleBatch;

/* The outputs' sizes for these settings (mask bytes: one a action, or bits). */
VecShape castle_batch_shape(int num_envs, const CastleSettings *cfg, int obs_format, int mask_bits);
/* Bytes of one view: planes, codes, or 0. */
size_t castle_obs_bytes(int obs_format);

/* 0, or -1 when memory runs out (nothing left allocated). cfg is checked by the caller. */
int castle_batch_init(CastleBatch *b, int num_envs, const CastleSettings *cfg, int obs_format, int mask_bits,
                      int autoreset, const VecOutputs *out);
void castle_batch_free(CastleBatch *b);
/* The memory castle_batch_init holds a game besides the caller's arrays: its state,
 * sampler stream, legal bits and their count. */
size_t castle_batch_game_bytes(const CastleSettings *cfg);

/* Resets every game (mask NULL) or those in mask; reseed: their streams from (seed, i). */
void castle_batch_reset_some(CastleBatch *b, const uint8_t *mask, int reseed, uint64_t seed, int threads);
/* Plays one legal action of each running game (castle_batch_legal first). */
void castle_batch_step(CastleBatch *b, const int64_t *actions, int threads);
/* Writes every game's outputs from its state (after a restore). */
void castle_batch_write_outputs(CastleBatch *b, int threads);
/* Whether `action` is legal in game i now (0 for a game that is over). */
static inline int castle_batch_legal(const CastleBatch *b, int64_t i, int64_t action) {
    const uint8_t *bits = b->legal + (size_t)i * b->bits_bytes;
    return action >= 0 && action < b->actions && ((bits[action >> 3] >> (action & 7)) & 1);
}
/* The random agent: a uniformly random legal action of each game from its own stream,
 * -1 where there is none (a game over). */
void castle_batch_sample(CastleBatch *b, int64_t *out, int threads);

/* Saves: vec.h's frame ("CASTLE\0\0", CASTLE_SAVE_VERSION), the number of games and the
 * settings, the tally, then every state and sampler stream. */
enum { CASTLE_SAVE_VERSION = 1 };
size_t castle_save_bytes(const CastleBatch *b);
void castle_save_write(const CastleBatch *b, uint8_t *out);
/* 0 if data is a save this batch loads (every state checked), else -1 with why in err. */
int castle_save_check(const CastleBatch *b, const uint8_t *data, size_t len, char *err, size_t err_len);
/* Loads a save castle_save_check accepted; then castle_batch_write_outputs. */
void castle_save_read(CastleBatch *b, const uint8_t *data);

#endif
