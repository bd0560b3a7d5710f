/* batch.h: N games stepped together, writing into arrays the caller owns.
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
#include "rules.h"

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

typedef struct {
    int num_envs;
    Rules rules;
    GameState *states;   /* num_envs, owned by the batch */
    uint64_t *sample_rng; /* num_envs, owned by the batch */
    BatchStats stats;
    SetupTable setups;    /* rows the games draw their setups from; n 0 for random ones */
    /* Output arrays, owned by the caller, num_envs rows each. */
    uint8_t *mask;          /* [N][rules_num_actions] legal actions of the player to move, or
                             * [N][MASK_BITS_BYTES] packed with mask_bits (mask_bits.h) */
    int write_mask;         /* 0: leave mask untouched (benchmarks of the bare step) */
    int mask_bits;
    float *rewards;         /* [N][2] reward of red and blue for the last step */
    float *reward;          /* [N] reward of the player who acted in the last step */
    uint8_t *terminated;    /* [N] the game ended by the rules this step */
    uint8_t *truncated;     /* [N] always 0: every end is a rule of the game (caps are
                             * draws, rules.h); kept for Gymnasium's step signature */
    int8_t *to_play;        /* [N] player to move now */
    int8_t *final_winner;   /* [N] winner of the game that ended this step, -1 draw */
    uint8_t *final_reason;  /* [N] its EndReason */
    int32_t *final_plies;   /* [N] its length in plies */
    /* Observations (observe.h), or obs_views 0 for none. With obs_views 1 each game has
     * the view of its player to move; with 2 the views of red then blue. With obs_codes
     * the rows are the compact codes (observe_codes.h), and spec.probabilities puts the
     * belief planes in belief / final_belief. */
    ObsSpec obs_spec;
    int obs_views;
    int obs_codes;
    uint8_t *obs;           /* [N][obs_views][batch_obs_bytes] */
    uint8_t *final_obs;     /* [N][final_views][batch_obs_bytes]: the last view(s) of a game
                             * that ended this step (SAME_STEP only) */
    int final_views;        /* 1: the player to move's view (as obs_views 1), 2: red's, blue's */
    float *belief;          /* with obs_codes and probabilities: [N][obs_views][12][100] */
    float *final_belief;    /* [N][final_views][12][100] */
    uint8_t *full_obs;      /* [N][FULL_OBS_CHANNELS][100] of the player to move, or NULL */
    int autoreset;          /* AUTORESET_* */
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
    int full_codes;         /* full_obs holds [N][100] codes (observe_full.h) */
} Batch;

enum { ILLEGAL_RAISE = 0, ILLEGAL_LOSES = 1 };
enum { AUTORESET_SAME_STEP = 0, AUTORESET_NEXT_STEP = 1, AUTORESET_DISABLED = 2 };

/* Bytes of one view in b->obs: the planes or the codes. */
size_t batch_obs_bytes(const Batch *b);

/* Bytes of one game's row of b->mask. */
int batch_mask_bytes(const Batch *b);

/* Starts every game anew from `seed`. */
void batch_reset(Batch *b, uint64_t seed, int num_threads);

/* Starts anew the games i with reset_mask[i] != 0; with `reseed`, game i's streams are
 * seeded again from (seed, i) as batch_reset would, otherwise they go on. The other
 * games and the counters are left as they are. */
void batch_reset_some(Batch *b, const uint8_t *reset_mask, int reseed, uint64_t seed, int num_threads);

/* Writes every game's outputs (mask, player to move, observations) from its state, and
 * clears the per-step results: after a restore of saved states. */
void batch_write_outputs(Batch *b, int num_threads);

/* The checks and the step skip games that are over (NEXT_STEP, DISABLED): their
 * actions are ignored, whatever they are. */

/* First game whose action is outside [0, rules_num_actions), or -1. */
int64_t batch_find_out_of_range(const Batch *b, const int64_t *actions);

/* First game whose action is not legal there, or -1; *code gets moves_check_action's code. */
int64_t batch_find_illegal(const Batch *b, const int64_t *actions, int *code, int num_threads);

/* Plays actions[i] in game i (all in range; under ILLEGAL_RAISE all legal). */
void batch_step(Batch *b, const int64_t *actions, int illegal_mode, int num_threads);

/* For each game a uniformly random set entry of its row of b->mask (the legal actions
 * unless the caller narrowed them), from the game's own sampler stream; -1 if none.
 * With write_mask 0, a uniformly random legal action generated afresh. */
void batch_sample_actions(Batch *b, int64_t *actions, int num_threads);

/* For each game the action bot `kind` (bot.h) plays for the player to move, from the
 * player's own view and legal actions, drawing on the game's sampler stream (so
 * BOT_RANDOM gives what batch_sample_actions gives from the engine's mask). */
void batch_bot_actions(Batch *b, int kind, int64_t *actions, int num_threads);

#endif
