#include "batch.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "stratego/bots/bot.h"
#include "game.h"
#include "engine/mask_bits.h"
#include "moves.h"
#include "observe_full.h"
#include "observe_player.h"
#include "engine/pool.h"
#include "engine/rng.h"

size_t batch_obs_bytes(const Batch *b) { return observe_spec_bytes(&b->obs_spec); }

int batch_mask_bytes(const Batch *b) {
    int n = rules_num_actions(&b->rules);
    return b->mask_bits ? MASK_BITS_BYTES(n) : n;
}

void batch_config_default(BatchConfig *c, int num_envs) {
    memset(c, 0, sizeof(*c));
    c->num_envs = num_envs;
    rules_default(&c->rules);
#define BATCH_OPTION_DEFAULT(field, type, kind, fallback, lo, hi, expected) c->field = (type)(fallback);
    BATCH_OPTIONS(BATCH_OPTION_DEFAULT)
#undef BATCH_OPTION_DEFAULT
    c->obs_spec = (ObsSpec){4, 0, 0, c->rules.max_plies, c->rules.max_plies_without_attack, 0};
    /* A C program's batch observes: one view a game. */
    c->obs_views = c->final_views = 1;
}

VecShape batch_shape(const BatchConfig *c) {
    int actions = rules_num_actions(&c->rules);
    VecShape shape = {
        .num_envs = c->num_envs,
        .num_players = PLAYER_NB,
        .mask_bytes = (size_t)(c->mask_bits ? MASK_BITS_BYTES(actions) : actions),
        .obs_bytes = c->obs_views ? observe_spec_bytes(&c->obs_spec) : 0,
        .obs_views = c->obs_views,
        .final_views = c->obs_views ? c->final_views : 0,
    };
    return shape;
}

/* Against an opponent the mask is the learner's, after the opponent's replies: it is not
 * computed ahead. */
static int masks_ahead(const BatchConfig *c) { return c->write_mask && c->opponent < 0; }

size_t batch_game_bytes(const BatchConfig *c) {
    return sizeof(GameState) + sizeof(uint64_t) + (c->opponent >= 0 ? sizeof(VersusSlot) : 0) +
           (masks_ahead(c) ? 1 : 0);
}

int batch_init(Batch *b, const BatchConfig *c, const BatchOutputs *out) {
    memset(b, 0, sizeof(*b));
    size_t n = (size_t)c->num_envs;
    /* What batch_game_bytes counts, one array each. */
    b->states = malloc(n * sizeof(GameState));
    b->sample_rng = malloc(n * sizeof(uint64_t));
    b->versus = c->opponent >= 0 ? calloc(n, sizeof(VersusSlot)) : NULL;
    int mask_ahead = masks_ahead(c);
    b->mask_ready = mask_ahead ? calloc(n, 1) : NULL;
    if (b->states == NULL || b->sample_rng == NULL || (c->opponent >= 0 && b->versus == NULL) ||
        (mask_ahead && b->mask_ready == NULL)) {
        batch_free(b);
        return -1;
    }
    b->num_envs = c->num_envs;
    b->rules = c->rules;
    b->setups = c->setups;
    b->write_mask = c->write_mask;
    b->mask_bits = c->mask_bits;
    b->out = out->vec;
    b->obs_spec = c->obs_spec;
    b->obs_views = c->obs_views;
    b->final_views = c->obs_views ? c->final_views : 0;
    int beliefs = c->obs_views && c->obs_spec.codes && c->obs_spec.probabilities;
    b->belief = beliefs ? out->belief : NULL;
    b->final_belief = beliefs ? out->final_belief : NULL;
    b->full_obs = c->full_obs ? out->full_obs : NULL;
    b->full_codes = c->full_codes;
    b->autoreset = c->autoreset;
    b->opponent = c->opponent;
    b->learner_mode = c->learner_mode;
    b->game_offset = c->game_offset;
    if (c->record_capacity > 0) {
        if (recorder_init(&b->rec, c->num_envs, c->record_capacity) < 0) {
            batch_free(b);
            return -1;
        }
        b->recording = 1;
    }
    return 0;
}

void batch_free(Batch *b) {
    free(b->states);
    free(b->sample_rng);
    free(b->versus);
    free(b->mask_ready);
    recorder_free(&b->rec);
    b->recording = 0;
    b->states = NULL;
    b->sample_rng = NULL;
    b->versus = NULL;
    b->mask_ready = NULL;
}

int batch_outputs_alloc(const BatchConfig *c, BatchOutputs *out) {
    VecShape shape = batch_shape(c);
    size_t n = (size_t)c->num_envs;
    memset(out, 0, sizeof(*out));
    if (vec_outputs_alloc(&shape, &out->vec) < 0) return -1;
    if (c->obs_views && c->obs_spec.codes && c->obs_spec.probabilities) {
        size_t plane = (size_t)PIECE_TYPE_NB * SQ_NB * sizeof(float);
        out->belief = calloc(n * (size_t)shape.obs_views, plane);
        out->final_belief = calloc(n * (size_t)shape.final_views, plane);
        if (out->belief == NULL || out->final_belief == NULL) goto fail;
    }
    if (c->full_obs) {
        out->full_obs = calloc(n, c->full_codes ? SQ_NB : (size_t)FULL_OBS_CHANNELS * SQ_NB);
        if (out->full_obs == NULL) goto fail;
    }
    return 0;
fail:
    batch_outputs_free(out);
    return -1;
}

void batch_outputs_free(BatchOutputs *out) {
    vec_outputs_free(&out->vec);
    free(out->belief);
    free(out->final_belief);
    free(out->full_obs);
    memset(out, 0, sizeof(*out));
}

/* Writes game i's observation(s) into its row of `dst` (b->out.obs with b->obs_views, or
 * b->out.final_obs with b->final_views), and with codes and beliefs the belief planes
 * into `belief`: `views` 1 the view of `player`, 2 red's and blue's. */
static __attribute__((noinline)) void batch_write_views(const Batch *b, int64_t i, uint8_t *dst, float *belief,
                                                        int views, int player) {
    size_t bytes = batch_obs_bytes(b);
    size_t first = (size_t)i * (size_t)views;
    /* Rows of a large batch have left the caches since the last step: fetch this one
     * while the view is built. Measured with one thread: steps/s +35% at 4096 games
     * (28 MB of rows), +5% at 1024 (7 MB), no change at 768, -4% at 256 and 512, whose rows
     * stay cached and the prefetches only cost instructions. */
    enum { PREFETCH_MIN_BYTES = 6 << 20 };
    if (!b->obs_spec.codes && (size_t)b->num_envs * (size_t)views * bytes >= PREFETCH_MIN_BYTES)
        observe_prefetch(&b->obs_spec, dst + first * bytes, views);
    for (int v = 0; v < views; v++) {
        size_t row = first + (size_t)v;
        float *belief_row = belief != NULL ? belief + row * PIECE_TYPE_NB * SQ_NB : NULL;
        observe_player(&b->states[i], views == 1 ? player : v, &b->obs_spec, dst + row * bytes, belief_row);
    }
}

/* batch_write_views; the compact step's case, one view of codes without beliefs (rows
 * too small to fetch ahead), as a tail call without the loop's stack frame (-20
 * instructions of ~2,200 a step, callgrind). */
static void batch_write_obs(const Batch *b, int64_t i, uint8_t *dst, float *belief, int views, int player) {
    if (b->obs_spec.codes && views == 1 && belief == NULL) {
        observe_player(&b->states[i], player, &b->obs_spec, dst + (size_t)i * batch_obs_bytes(b), NULL);
    } else {
        batch_write_views(b, i, dst, belief, views, player);
    }
}

/* Writes what the caller reads for game i after a reset or a step: the view of the
 * player to move, or the learner's in the learner-vs-opponent mode (also while a
 * finished game waits under NEXT_STEP or DISABLED, whoever would move). */
static void batch_write_turn(Batch *b, int64_t i) {
    const GameState *s = &b->states[i];
    int viewer = b->versus ? b->versus[i].learner : s->to_move;
    if (b->mask_ready != NULL && b->mask_ready[i]) {
        b->mask_ready[i] = 0; /* written by the turn's end (batch_play) */
    } else if (b->write_mask) {
        uint8_t *row = b->out.mask + i * batch_mask_bytes(b);
        game_legal_mask(s, &b->rules, row, b->mask_bits); /* all clear for a game left over */
    }
    b->out.to_play[i] = (int8_t)viewer;
    if (b->obs_views) batch_write_obs(b, i, b->out.obs, b->belief, b->obs_views, viewer);
    if (b->full_obs) {
        if (b->full_codes) observe_full_codes(s, viewer, b->full_obs + i * SQ_NB);
        else observe_full(s, viewer, b->full_obs + i * FULL_OBS_CHANNELS * SQ_NB);
    }
}

/* Game i's record after `action` was played in s: a move goes on it; a placement does
 * not, but begins the record again at the position the deployment reached (records
 * store the resulting setup, docs/deployment.md). So a game saved, or ended by a
 * forfeit, during its deployment has a record that starts where it stands. */
static inline void batch_record(Batch *b, int64_t i, const GameState *s, int action, int was_deploying) {
    if (!b->recording) return;
    if (!was_deploying) {
        recorder_push(&b->rec, i, action);
    } else {
        recorder_begin(&b->rec, i, s);
    }
}

/* Learner vs opponent: the opponent plays, from its own view, until the learner is to
 * move or the game is over (a turn with a rescue is two actions of one player). Its
 * plies are game i's plies: they go on its record. */
static void versus_reply(Batch *b, int64_t i, GameState *s, VersusSlot *v) {
    while (!s->done && s->to_move != v->learner) {
        int action = bot_game_action(b->opponent, s, &b->rules, &v->rng);
        if (action < 0) break; /* a game not over always has a legal action (game.h) */
        int deploying = s->phase == PHASE_DEPLOY;
        game_apply_action(s, &b->rules, action);
        batch_record(b, i, s, action, deploying);
    }
}

/* A new game in slot i from its stream and `setups`, its record begun from its start
 * (begun again where a deployment ends: batch_record). */
static void batch_new_game(Batch *b, int64_t i, const SetupTable *setups) {
    game_reset(&b->states[i], &b->rules, setups);
    if (b->recording) recorder_begin(&b->rec, i, &b->states[i]);
}

/* Starts game i's next episode in the learner-vs-opponent mode: the learner's colour
 * (fixed, drawn from the opponent's stream, or the other colour than last episode's),
 * new setups, and the opponent's opening plies when it moves first. Setups in which
 * those plies end the game are drawn again (as game_reset redraws setups where red
 * cannot move): no episode is handed out that ends before the learner's first move.
 * This leaves out, e.g., a Flag that red's first move takes; the setups a learner
 * sees are those of the two-player batch, conditioned on surviving the opening. */
static void versus_start(Batch *b, int64_t i, int first_episode) {
    GameState *s = &b->states[i];
    VersusSlot *v = &b->versus[i];
    switch (b->learner_mode) {
    case LEARNER_RANDOM:
        v->learner = (int8_t)rng_below(&v->rng, 2);
        break;
    case LEARNER_ALTERNATE:
        /* Even slots start red, odd ones blue, so both colours are played equally. */
        v->learner = (int8_t)(first_episode ? (int)((b->game_offset + i) % 2) : 1 - v->learner);
        break;
    default:
        v->learner = (int8_t)b->learner_mode;
        break;
    }
    /* Against an opponent the deploying sides are named by role, bit 0 the learner's and
     * bit 1 the opponent's (so ("agent", "human") has the learner deploy against human
     * setups whatever its colour); the game names them by colour. */
    SetupTable setups = b->setups;
    int learner_bit = setups.deploy & 1, opponent_bit = setups.deploy >> 1 & 1;
    setups.deploy = (learner_bit << v->learner) | (opponent_bit << (1 - v->learner));
    for (int attempt = 0; attempt < 1000; attempt++) {
        batch_new_game(b, i, &setups);
        versus_reply(b, i, s, v);
        if (!s->done) return;
    }
}

/* ---------------------------------------------------------------- the hooks (vec.h) */

/* Seeds game i's streams from (seed, its run-wide index): setups, the sampler, the
 * opponent. */
static void batch_seed_game(void *ctx, int64_t i, uint64_t seed) {
    Batch *b = ctx;
    uint64_t index = (uint64_t)(b->game_offset + i);
    b->states[i].rng = rng_seed_stream(seed, index, 0);
    b->sample_rng[i] = rng_seed_stream(seed, index, 1);
    if (b->versus) {
        memset(&b->versus[i], 0, sizeof(VersusSlot));
        b->versus[i].rng = rng_seed_stream(seed, index, 2);
    }
}

/* Starts game i's next game (episode, against the opponent) from its streams. */
static void batch_start_game(void *ctx, int64_t i, int first_episode) {
    Batch *b = ctx;
    /* A new game's mask is written by its first turn, never taken from the last one's
     * end (batch_play sets mask_ready, batch_write_turn uses it up). */
    if (b->mask_ready != NULL) b->mask_ready[i] = 0;
    if (b->versus) {
        versus_start(b, i, first_episode);
    } else {
        batch_new_game(b, i, &b->setups);
    }
}

static int batch_game_over(const void *ctx, int64_t i) { return ((const Batch *)ctx)->states[i].done; }

/* Plays the action of the player to move (the learner, in the learner-vs-opponent mode,
 * then the opponent's replies); an illegal one loses under ILLEGAL_LOSES. Inlined into
 * the step loop, as it was before the seam: a call per game costs ~2% of the bare step. */
static inline __attribute__((always_inline)) int batch_play(void *ctx, int64_t i, int64_t action, int illegal_mode) {
    Batch *b = ctx;
    GameState *s = &b->states[i];
    int player = s->to_move;
    if (illegal_mode == ILLEGAL_LOSES && moves_check_action(s, &b->rules, (int)action) != 0) {
        /* Not played, so not recorded: the record ends with the reason illegal_action. */
        game_forfeit(s);
    } else {
        int deploying = s->phase == PHASE_DEPLOY;
        if (b->mask_ready != NULL) {
            /* The end of the turn asks whether the next player can move: the mask that
             * batch_write_turn would write answers it, so it is written there, once. */
            uint8_t *row = b->out.mask + i * batch_mask_bytes(b);
            b->mask_ready[i] = (uint8_t)game_apply_action_mask(s, &b->rules, (int)action, row, b->mask_bits);
        } else {
            game_apply_action(s, &b->rules, (int)action);
        }
        batch_record(b, i, s, (int)action, deploying);
    }
    if (b->versus) versus_reply(b, i, s, &b->versus[i]);
    if (b->recording && s->done) recorder_finish(&b->rec, i, s);
    return player;
}

/* The winner +1, the loser -1, a draw 0 each; a cap is a draw (game.h). */
static VecResult batch_finish(const void *ctx, int64_t i, float *rewards) {
    const GameState *s = &((const Batch *)ctx)->states[i];
    if (s->winner != NO_WINNER) {
        rewards[s->winner] = 1.0f;
        rewards[1 - s->winner] = -1.0f;
    }
    VecResult r = {s->winner, s->end_reason, s->ply, game_is_cap(s->end_reason)};
    return r;
}

static void batch_write_turn_hook(void *ctx, int64_t i) { batch_write_turn(ctx, i); }

/* The learner's last view, whoever ended the game; in the two-player batch the view of
 * the player who would move next (or both). */
static void batch_write_final(void *ctx, int64_t i, int actor) {
    Batch *b = ctx;
    if (b->obs_views)
        batch_write_obs(b, i, b->out.final_obs, b->final_belief, b->final_views,
                        b->versus ? actor : b->states[i].to_move);
}

/* Asks the caches for a game's state, which a step touches in a dozen places across the
 * whole struct: fetched one game ahead, it arrives while the current game is stepped
 * (measured, 4096 games, 1 thread: +13% steps/s with the default observation). The
 * chase's positions, more than half of the state, only under the chasing rule: no other
 * game reads them (move_rule_chasing_rule_reach, game_apply_move).
 * Always inlined: gcc takes a function of nothing but prefetches for one without side
 * effects (its pure-const pass) and deletes its calls, so that the prefetches vanish (the
 * function compiles to a bare return: a third of the compact step's time once). Inlined,
 * they stay: check the disassembly (objdump -d: prefetcht0 in batch_step_games). */
static inline __attribute__((always_inline)) void state_prefetch(const GameState *s, const Rules *r) {
    const char *at = (const char *)s;
    if (r->chasing_rule) {
        for (size_t k = 0; k < sizeof(GameState); k += 64) __builtin_prefetch(at + k);
        return;
    }
    /* Written out (the loop's count and compare were 35 instructions a step): one every
     * 64 bytes up to the chase's positions. */
    _Static_assert((offsetof(GameState, chase.positions) + 63) / 64 == 12, "12 prefetches reach the chase's positions");
    __builtin_prefetch(at);
    __builtin_prefetch(at + 64);
    __builtin_prefetch(at + 128);
    __builtin_prefetch(at + 192);
    __builtin_prefetch(at + 256);
    __builtin_prefetch(at + 320);
    __builtin_prefetch(at + 384);
    __builtin_prefetch(at + 448);
    __builtin_prefetch(at + 512);
    __builtin_prefetch(at + 576);
    __builtin_prefetch(at + 640);
    __builtin_prefetch(at + 704);
}

/* The lines of a state that the check of an action reads (moves_check_action: the board
 * and the piece types, to_move, done and phase, the two-square runs), not the dozen that a
 * step reads: the check is a pass of its own over the batch before the step, whose lines
 * leave the caches before the step reaches them. States are not aligned to lines: the
 * first and last byte of each field. */
static inline __attribute__((always_inline)) void check_prefetch(const GameState *s) {
    const char *at = (const char *)s;
    __builtin_prefetch(at);
    __builtin_prefetch(at + 64);
    __builtin_prefetch(at + 128);
    __builtin_prefetch(at + offsetof(GameState, piece_sq) - 1);
    __builtin_prefetch(at + offsetof(GameState, to_move));
    __builtin_prefetch(at + offsetof(GameState, phase));
    __builtin_prefetch(at + offsetof(GameState, streak) + sizeof(s->streak) - 1);
}

/* Always inlined too, into vec_step_range's loop: called there, it would be a call to a
 * function without side effects, which gcc deletes (as state_prefetch's). */
static inline __attribute__((always_inline)) void batch_prefetch(const void *ctx, int64_t i) {
    const Batch *b = ctx;
    state_prefetch(&b->states[i], &b->rules);
}

static const VecGame STRATEGO_GAME = {
    .players = PLAYER_NB,
    .seed = batch_seed_game,
    .start = batch_start_game,
    .over = batch_game_over,
    .play = batch_play,
    .finish = batch_finish,
    .write_turn = batch_write_turn_hook,
    .write_final = batch_write_final,
    .prefetch = batch_prefetch,
};

/* The red and blue seats of the hooks are Stratego's colours, and a draw's winner code
 * (NO_WINNER) is the seat count, as VecResult has it. */
_Static_assert(RED == 0 && BLUE == 1 && (int)NO_WINNER == (int)PLAYER_NB, "seats are colours");
_Static_assert((int)ACTION_MAX <= (int)VEC_ACTIONS_MAX, "vec_mask_sample covers the action space");

static void batch_reset_games(void *ctx, int64_t begin, int64_t end) {
    vec_reset_range(&STRATEGO_GAME, ctx, begin, end);
}

void batch_reset(Batch *b, uint64_t seed, int num_threads) { batch_reset_some(b, NULL, 1, seed, num_threads); }

void batch_reset_some(Batch *b, const uint8_t *reset_mask, int reseed, uint64_t seed, int num_threads) {
    /* Every game anew starts the counters anew (as the castle batch's reset_some). */
    if (reset_mask == NULL) memset(&b->stats, 0, sizeof(b->stats));
    VecResetJob job = {.game = b, .out = &b->out, .reset_mask = reset_mask, .reseed = reseed, .seed = seed};
    pool_run(&b->paces, num_threads, b->num_envs, batch_reset_games, &job);
}

static void batch_write_games(void *ctx, int64_t begin, int64_t end) {
    Batch *b = ctx;
    vec_write_range(&STRATEGO_GAME, b, &b->out, begin, end);
}

void batch_write_outputs(Batch *b, int num_threads) {
    pool_run(&b->paces, num_threads, b->num_envs, batch_write_games, b);
}

int64_t batch_find_out_of_range(const Batch *b, const int64_t *actions) {
    int64_t num_actions = rules_num_actions(&b->rules);
    /* The actions first: a game's state (a cache miss in a large batch) is read only for
     * an action out of range, never on the common path. */
    for (int64_t i = 0; i < b->num_envs; i++) {
        if (actions[i] >= 0 && actions[i] < num_actions) continue;
        if (!b->states[i].done) return i;
    }
    return -1;
}

typedef struct {
    const Batch *b;
    const int64_t *actions;
    _Atomic int64_t first; /* smallest illegal game found so far, num_envs if none */
} FindJob;

static void batch_find_in(void *ctx, int64_t begin, int64_t end) {
    FindJob *job = ctx;
    const Batch *b = job->b;
    int64_t n = b->num_envs;
    /* Four games ahead: a check is short (~100 instructions), so a state asked for one
     * game ahead has not arrived when its check starts. */
    enum { AHEAD = 4 };
    for (int64_t i = begin; i < begin + AHEAD && i < n; i++) check_prefetch(&b->states[i]);
    for (int64_t i = begin; i < end; i++) {
        if (i + AHEAD < n) check_prefetch(&b->states[i + AHEAD]);
        /* A game that is over (NEXT_STEP, DISABLED) ignores its action. */
        if (b->states[i].done || moves_check_action(&b->states[i], &b->rules, (int)job->actions[i]) == 0)
            continue;
        /* The first illegal game of this chunk; lower the shared minimum to it. */
        int64_t seen = atomic_load(&job->first);
        while (i < seen && !atomic_compare_exchange_weak(&job->first, &seen, i)) {
        }
        return;
    }
}

int64_t batch_find_illegal(Batch *b, const int64_t *actions, int *code, int num_threads) {
    /* In parallel (it runs before every step in the default mode, so a serial scan would
     * bound the thread scaling); the first illegal game is the smallest index found. */
    FindJob job = {b, actions, b->num_envs};
    pool_run(&b->paces, num_threads, b->num_envs, batch_find_in, &job);
    int64_t first = atomic_load(&job.first);
    if (first == b->num_envs) return -1;
    *code = moves_check_action(&b->states[first], &b->rules, (int)actions[first]);
    return first;
}

static void batch_step_games(void *ctx, int64_t begin, int64_t end) {
    VecStepJob *job = ctx;
    vec_step_range(&STRATEGO_GAME, job, ((const Batch *)job->game)->num_envs, begin, end);
}

int batch_step(Batch *b, const int64_t *actions, int illegal_mode, int num_threads) {
    if (b->recording && b->rec.uncollected > 0 && recorder_collect(&b->rec) < 0) return -1;
    VecStepJob job = {.game = b, .out = &b->out, .autoreset = b->autoreset, .actions = actions,
                      .illegal_mode = illegal_mode, .game_offset = b->game_offset};
    pool_run(&b->paces, num_threads, b->num_envs, batch_step_games, &job);
    VecTally t = {0};
    vec_tally_collect(&job.tally, &t);
    b->stats.games_finished += t.finished;
    b->stats.red_wins += t.wins[RED];
    b->stats.blue_wins += t.wins[BLUE];
    b->stats.draws += t.draws;
    b->stats.cap_draws += t.marked;
    b->stats.plies_of_finished += t.plies;
    b->stats.checksum += t.checksum;
    /* In game order, with one thread: the records' order is the threads' none. A failure
     * (memory) keeps them marked for the next call (batch.h). */
    if (b->recording && t.finished > 0) (void)recorder_collect(&b->rec);
    return 0;
}

typedef struct {
    Batch *b;
    int64_t *actions;
} SampleJob;

static void batch_sample_games(void *ctx, int64_t begin, int64_t end) {
    const SampleJob *job = ctx;
    Batch *b = job->b;
    int64_t *actions = job->actions;
    int num_actions = rules_num_actions(&b->rules);
    for (int64_t i = begin; i < end; i++) {
        if (!b->write_mask) {
            uint16_t legal[ACTION_MAX];
            /* In action order, as the mask would give them, so both paths play the same
             * games. */
            int count = moves_list_ordered(&b->states[i], &b->rules, legal);
            actions[i] = count > 0 ? legal[rng_below(&b->sample_rng[i], (uint32_t)count)] : -1;
            continue;
        }
        /* Uniform over the set entries of the mask as it stands: the engine's legal mask,
         * or a narrower one the caller wrote into it. A row with none gives -1. Packed or
         * not, the k-th set entry in action order: the same games either way. */
        if (b->mask_bits) {
            actions[i] = mask_bits_sample(b->out.mask + i * MASK_BITS_BYTES(num_actions), num_actions, &b->sample_rng[i]);
            continue;
        }
        actions[i] = vec_mask_sample(b->out.mask + i * num_actions, num_actions, &b->sample_rng[i]);
    }
}

void batch_sample_actions(Batch *b, int64_t *actions, int num_threads) {
    SampleJob job = {b, actions};
    pool_run(&b->paces, num_threads, b->num_envs, batch_sample_games, &job);
}

typedef struct {
    Batch *b;
    int kind;
    const uint8_t *games;
    int64_t *actions;
} BotJob;

static void batch_bot_games(void *ctx, int64_t begin, int64_t end) {
    const BotJob *job = ctx;
    Batch *b = job->b;
    for (int64_t i = begin; i < end; i++) {
        if (job->games != NULL && !job->games[i]) {
            job->actions[i] = -1;
            continue;
        }
        if (i + 1 < b->num_envs) state_prefetch(&b->states[i + 1], &b->rules);
        job->actions[i] = bot_game_action(job->kind, &b->states[i], &b->rules, &b->sample_rng[i]);
    }
}

void batch_bot_actions(Batch *b, int kind, const uint8_t *games, int64_t *actions, int num_threads) {
    BotJob job = {b, kind, games, actions};
    pool_run(&b->paces, num_threads, b->num_envs, batch_bot_games, &job);
}
