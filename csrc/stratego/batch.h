/* batch.h: N games stepped together, writing into arrays the caller owns.
 *
 * Stratego on the seam of vec.h: the loops, outputs, autoreset and statistics are vec.h's
 * (what any game's batch shares); this file is Stratego's settings and hooks (batch.c).
 *
 * Auto-reset, as Gymnasium 1.x defines its modes (gymnasium.vector.AutoresetMode):
 *  - SAME_STEP: a game that ends during batch_step has its result written to the
 *    final_* arrays and its rewards set, and is replaced at once by a new game whose
 *    mask and player to move are what the step writes.
 *  - NEXT_STEP: a game that ends stays over for one step: the outputs show its final
 *    position (observation, an empty mask); the next step ignores its action, starts a
 *    new game and reports no reward and no end.
 *  - DISABLED: a game that ends stays over, its actions ignored (no reward, no end
 *    reported), until batch_reset_some starts it again.
 * In every mode no result is lost: every finished game shows in the outputs of the step
 * that ended it.
 *
 * Determinism: each game owns its random streams (setups in GameState.rng, the random
 * action sampler in sample_rng), seeded from (seed, game index); a game never reads
 * another's data, so any thread count gives the same games.
 */
#ifndef STRATEGO_BATCH_H
#define STRATEGO_BATCH_H

#include <stdint.h>

#include "board.h"
#include "game.h"
#include "observe.h"
#include "record.h"
#include "rules.h"
#include "engine/pool.h"
#include "engine/vec.h"

typedef struct {
    int64_t games_finished;
    int64_t red_wins;
    int64_t blue_wins;
    int64_t draws;
    int64_t cap_draws;         /* draws by max_plies or max_plies_without_attack */
    int64_t plies_of_finished; /* total length of the finished games */
    uint64_t checksum;         /* order-free hash of (game, ply, winner, reason) */
} BatchStats;

/* Learner against a bot in C (batch_step, "learner vs opponent" below). */
enum { LEARNER_RED = 0, LEARNER_BLUE = 1, LEARNER_RANDOM = 2, LEARNER_ALTERNATE = 3, LEARNER_MODE_NB = 4 };

/* A game's side of the learner-vs-opponent mode: the opponent's random stream (stream
 * 2 of the game) and the learner's colour in the current episode. */
typedef struct {
    uint64_t rng;
    int8_t learner;
    uint8_t reserved[7]; /* zero: the struct is saved as bytes */
} VersusSlot;

/* The largest game_offset: far beyond any run, and offset + index stays exact. */
#define BATCH_MAX_GAME_OFFSET ((int64_t)1 << 48)

/* The batch's integer settings, each once: (field, C type, kind, default, lo, hi, what
 * a refusal says is expected). BatchConfig's fields, batch_config_default's defaults and
 * the binding's parsing, defaults and refusals of its keywords (the field's name;
 * csrc/python/batch_type.c) come from it. kind: BATCH_OPTION_INT, an integer in
 * [lo, hi]; BATCH_OPTION_FLAG, a truth value (0 or 1). The defaults are the binding's:
 * no observations (a C program asks for them: batch_config_default). */
enum { BATCH_OPTION_INT, BATCH_OPTION_FLAG };
#define BATCH_OPTIONS(X)                                                                                    \
    /* 0: leave mask untouched (benchmarks of the bare step) */                                             \
    X(write_mask, int, BATCH_OPTION_FLAG, 1, 0, 1, NULL)                                                    \
    /* the mask packed with mask_bits (mask_bits.h) */                                                      \
    X(mask_bits, int, BATCH_OPTION_FLAG, 0, 0, 1, NULL)                                                     \
    /* Observations (observe_player.h), or 0 for none. With 1 each game has the view of its                \
     * player to move; with 2 the views of red then blue. With obs_spec.codes the rows are                  \
     * the compact codes (observe_codes.h), and spec.probabilities puts the belief planes in                \
     * belief / final_belief. */                                                                            \
    X(obs_views, int, BATCH_OPTION_INT, 0, 0, 2, "0, 1 or 2")                                               \
    /* 1: the player to move's view (as obs_views 1), 2: red's, blue's (the binding: 0 as obs_views) */    \
    X(final_views, int, BATCH_OPTION_INT, 0, 0, 2, "0 (as obs_views), 1 or 2")                              \
    /* the full view as codes, [N][100] (observe_full.h) */                                                 \
    X(full_codes, int, BATCH_OPTION_FLAG, 0, 0, 1, NULL)                                                    \
    /* AUTORESET_* (vec.h) */                                                                               \
    X(autoreset, int, BATCH_OPTION_INT, AUTORESET_SAME_STEP, AUTORESET_SAME_STEP, AUTORESET_DISABLED,       \
      "0 (same step), 1 (next step) or 2 (disabled)")                                                       \
    /* a BotKind: learner vs opponent below; -1 the two-player batch */                                     \
    X(opponent, int, BATCH_OPTION_INT, -1, -1, BOT_KIND_NB - 1, "-1 (none) or a bot kind")                  \
    /* LEARNER_* */                                                                                         \
    X(learner_mode, int, BATCH_OPTION_INT, LEARNER_RED, 0, LEARNER_MODE_NB - 1, NULL)                       \
    /* The run-wide index of game 0: game i is game game_offset + i of its run, in its random               \
     * streams, its first learner colour and the checksum. Slices of one run played apart                   \
     * (stratego.distributed's actors) then play exactly that run's games, and their                        \
     * checksums add up to its checksum. */                                                                 \
    X(game_offset, int64_t, BATCH_OPTION_INT, 0, 0, BATCH_MAX_GAME_OFFSET,                                  \
      "an int in [0, 2**48] (the run-wide index of the batch's game 0)")                                    \
    /* 0: no records; else keep every game's actions, this many a game (record.h) */                        \
    X(record_capacity, uint32_t, BATCH_OPTION_INT, 0, 0, RECORD_CAPACITY_MAX, "0 (no records) or actions a game")

/* A batch's settings: everything but the arrays it writes. */
typedef struct {
    int num_envs;
    Rules rules;
    SetupTable setups;   /* rows the games draw their setups from; n 0 for random ones; the
                          * caller keeps the rows alive and unchanged while the batch lives */
    ObsSpec obs_spec;    /* the observations' settings (observe.h), with obs_views */
    int full_obs;        /* write the full view of the player to move (observe_full.h) */
#define BATCH_OPTION_FIELD(field, type, kind, fallback, lo, hi, expected) type field;
    BATCH_OPTIONS(BATCH_OPTION_FIELD)
#undef BATCH_OPTION_FIELD
} BatchConfig;

/* The arrays a batch writes, owned by the caller: the outputs every game's batch has
 * (vec.h) and Stratego's own. */
typedef struct {
    VecOutputs vec;
    float *belief;       /* with codes and probabilities: [N][obs_views][12][100] */
    float *final_belief; /* [N][final_views][12][100] */
    uint8_t *full_obs;   /* [N][FULL_OBS_CHANNELS][100] or [N][100] codes, with full_obs */
} BatchOutputs;

typedef struct {
    int num_envs;
    Rules rules;
    GameState *states;   /* num_envs, owned by the batch */
    uint64_t *sample_rng; /* num_envs, owned by the batch */
    BatchStats stats;
    SetupTable setups;
    int write_mask;
    int mask_bits;
    /* [N], owned by the batch, with the mask written and no opponent (NULL otherwise): 1
     * while game i's mask row already holds what its turn's output needs, written by
     * the end of the turn it played (game_apply_action_mask), from the play of a step to
     * the write of its outputs, which then skips the mask. */
    uint8_t *mask_ready;
    /* Output arrays (vec.h): mask [N][rules_num_actions], or [N][MASK_BITS_BYTES] packed;
     * rewards [N][2] of red and blue; obs [N][obs_views][batch_obs_bytes]. */
    VecOutputs out;
    ObsSpec obs_spec;
    int obs_views;
    int final_views;
    float *belief;
    float *final_belief;
    uint8_t *full_obs;      /* NULL: no full view */
    int full_codes;
    int autoreset;
    /* Learner vs opponent: opponent is a BotKind, or -1 for the two-player batch. Then
     * every step plays the learner's action and the opponent's replies (in C, from the
     * opponent's own view) until the learner is to move again, and every output is the
     * learner's: mask, to_play (its colour), reward, and observations in its view
     * (obs_views 1; final_obs its last view of a finished game). An episode in which
     * the opponent's opening plies end the game before the learner's first move is
     * drawn again (new setups and replies from the same streams), never handed out. */
    int opponent;
    int learner_mode;       /* LEARNER_* */
    VersusSlot *versus;     /* [N], owned by the batch; NULL in the two-player batch */
    int64_t game_offset;    /* as in BatchConfig */
    /* Records (record.h): every game's start and actions, and the finished games until
     * the caller takes them; recording 0 leaves rec empty and every game as it would be. */
    int recording;
    Recorder rec;
    PoolPaces paces; /* whether its loops' helpers pay (engine/pool.h) */
} Batch;

/* The settings of a classic batch of n games: default rules, random setups, the legal
 * mask as bytes, one view a game as uint8 planes with 4 plies of history, autoreset in
 * the same step, two players. */
void batch_config_default(BatchConfig *c, int num_envs);

/* Byte sizes of the outputs of a batch under c (vec.h), for the caller to allocate. */
VecShape batch_shape(const BatchConfig *c);

/* Makes b a batch of c->num_envs games writing into `out`, every array of the sizes
 * batch_shape(c) gives (belief arrays with codes and probabilities, full_obs with
 * c->full_obs). It allocates the games and their streams; batch_reset starts them.
 * 0, or -1 when memory runs out (b then holds nothing to free). */
int batch_init(Batch *b, const BatchConfig *c, const BatchOutputs *out);

/* The bytes batch_init allocates for each game under c: its state, its sampler stream, its
 * learner-vs-opponent slot (with an opponent) and its mask-ahead flag (writing the mask
 * without one). What a batch holds besides its outputs, per game (the memory check's). */
size_t batch_game_bytes(const BatchConfig *c);

/* Frees what batch_init allocated (not the outputs, which are the caller's); safe on a
 * batch whose batch_init failed and a second time. */
void batch_free(Batch *b);

/* Every output of a batch under c allocated (zeroed) for a program without Python
 * (main.c, fuzzers): batch_shape(c)'s arrays, and the belief and full-view arrays when
 * c asks for them. 0, or -1 with nothing left allocated. */
int batch_outputs_alloc(const BatchConfig *c, BatchOutputs *out);
void batch_outputs_free(BatchOutputs *out);

/* Bytes of one view in b->out.obs: the planes or the codes (observe_spec_bytes). */
size_t batch_obs_bytes(const Batch *b);

/* Bytes of one game's row of b->mask. */
int batch_mask_bytes(const Batch *b);

/* Starts every game anew from `seed`. */
void batch_reset(Batch *b, uint64_t seed, int num_threads);

/* Starts anew the games i with reset_mask[i] != 0; with `reseed`, game i's streams are
 * seeded again from (seed, i) as batch_reset would, otherwise they go on. The other
 * games and the counters are left as they are. reset_mask NULL: every game, and the
 * counters start anew (batch_reset is this with reseed). */
void batch_reset_some(Batch *b, const uint8_t *reset_mask, int reseed, uint64_t seed, int num_threads);

/* Writes every game's outputs (mask, player to move, observations) from its state, and
 * clears the per-step results: after a restore of saved states. */
void batch_write_outputs(Batch *b, int num_threads);

/* The checks and the step skip games that are over (NEXT_STEP, DISABLED): their
 * actions are ignored, whatever they are. */

/* First game whose action is outside [0, rules_num_actions), or -1. */
int64_t batch_find_out_of_range(const Batch *b, const int64_t *actions);

/* First game whose action is not legal there, or -1; *code gets moves_check_action's code.
 * Changes no game; b is not const because the loop's pace is recorded in b->paces. */
int64_t batch_find_illegal(Batch *b, const int64_t *actions, int *code, int num_threads);

/* Plays actions[i] in game i (all in range; under ILLEGAL_RAISE all legal). 0; or, when
 * recording, -1 with nothing played if games finished earlier still cannot be queued
 * (memory, record.h): a game must not finish again over its unqueued record. If this
 * step's finished games cannot be queued, they wait, kept, for the next call. */
int batch_step(Batch *b, const int64_t *actions, int illegal_mode, int num_threads);

/* For each game a uniformly random set entry of its row of b->out.mask (the legal actions
 * unless the caller narrowed them), from the game's own sampler stream; -1 if none.
 * With write_mask 0, a uniformly random legal action generated afresh. */
void batch_sample_actions(Batch *b, int64_t *actions, int num_threads);

/* For each game the action bot `kind` (bot.h) plays for the player to move, from the
 * player's own view and legal actions, drawing on the game's sampler stream (so
 * BOT_RANDOM gives what batch_sample_actions gives from the engine's mask). With `games`
 * (one byte a game, or NULL for all), only the games it marks: the others get -1 and their
 * streams are not drawn on, so a game's moves depend on its own bots only (an arena asks
 * each bot for the games it plays, not for every game of the batch). */
void batch_bot_actions(Batch *b, int kind, const uint8_t *games, int64_t *actions, int num_threads);

#endif
