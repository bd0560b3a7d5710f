/* vec.h: a vector of games stepped together: the parts of a batch that know no game.
 *
 * What every game's batch shares, apart from its rules: the output arrays the caller
 * owns (written in place, zero copy), their byte sizes, the autoreset modes, the step
 * of one game with its results and autoreset, the reset of one game from its own
 * random streams, and the statistics summed across threads in an order-free way. A
 * game supplies a VecGame, a constant table of its hooks, and runs these loops on the
 * thread pool (pool.h) in three small tasks of its own (batch.c for Stratego; the
 * second game of tests/c/tiny_game.h shows the whole seam on one page).
 *
 * The loop pieces are `static inline` and take the table by pointer: a game passes a
 * `static const VecGame`, so the compiler sees every hook and calls (and inlines) it
 * directly. The seam costs no indirect call on the hot path.
 *
 * Determinism: a game draws only on its own streams, rng_seed_stream(seed, index, k)
 * (rng.h) for the k its hooks choose, and the statistics are sums, so any thread count
 * gives the same games and the same totals.
 */
#ifndef STRATEGO_VEC_H
#define STRATEGO_VEC_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "rng.h"

/* The most seats a game of a batch may have (rewards and wins are per seat). */
enum { VEC_PLAYERS_MAX = 4 };

/* Auto-reset, as Gymnasium 1.x defines its modes (batch.h says what each means). */
enum { AUTORESET_SAME_STEP = 0, AUTORESET_NEXT_STEP = 1, AUTORESET_DISABLED = 2 };
/* What an illegal action does: the caller's check raises first, or the actor loses. */
enum { ILLEGAL_RAISE = 0, ILLEGAL_LOSES = 1 };

/* Byte sizes of one game's rows of the outputs. */
typedef struct {
    int num_envs;
    int num_players;   /* seats: the width of rewards */
    size_t mask_bytes; /* a row of mask */
    size_t obs_bytes;  /* one view in obs and final_obs; 0 for no observations */
    int obs_views;     /* views a game in obs (0: none) */
    int final_views;   /* views a game in final_obs */
} VecShape;

/* Output arrays, owned by the caller, num_envs rows each. */
typedef struct {
    uint8_t *mask;         /* [N][mask_bytes] the legal actions of the seat to move */
    float *rewards;        /* [N][num_players] every seat's reward for the last step */
    float *reward;         /* [N] the reward of the seat that acted */
    uint8_t *terminated;   /* [N] the game ended by its rules this step */
    uint8_t *truncated;    /* [N] always 0: limits outside the game are the caller's */
    int8_t *to_play;       /* [N] the seat to move now (whose view obs shows) */
    int8_t *final_winner;  /* [N] winner of the game that ended this step, -1 a draw */
    uint8_t *final_reason; /* [N] its end reason (the game's enum, 0 none) */
    int32_t *final_plies;  /* [N] its length */
    uint8_t *obs;          /* [N][obs_views][obs_bytes], or NULL */
    uint8_t *final_obs;    /* [N][final_views][obs_bytes]: the last view(s) of a game that
                            * ended this step (SAME_STEP only), or NULL */
} VecOutputs;

/* Allocates every array of `shape` (obs and final_obs only with obs_views), zeroed: for
 * programs without Python (main.c, fuzzers, tests), which own their outputs. 0, or -1
 * when memory runs out, with nothing left allocated. */
int vec_outputs_alloc(const VecShape *shape, VecOutputs *out);

/* Frees what vec_outputs_alloc allocated and clears out; safe on a cleared struct. */
void vec_outputs_free(VecOutputs *out);

/* The result of a game that just ended. */
typedef struct {
    int winner;      /* the winning seat, or num_players for a draw */
    int reason;      /* the game's end reason, not 0 */
    uint32_t plies;  /* its length */
    int marked;      /* 1 to count it in VecTally.marked (Stratego: a draw by a cap) */
} VecResult;

/* A game's hooks. `game` is the game's own batch struct; i a game's index. */
typedef struct {
    int players; /* seats */
    /* Seeds game i's streams from (seed, i). */
    void (*seed)(void *game, int64_t i, uint64_t seed);
    /* Starts game i's next game from its streams; first: the first since seeding. */
    void (*start)(void *game, int64_t i, int first);
    int (*over)(const void *game, int64_t i);
    /* Plays `action` (in range; legal unless illegal_mode is ILLEGAL_LOSES) and whatever
     * the game plays itself before the caller acts again; returns the seat that acted. */
    int (*play)(void *game, int64_t i, int64_t action, int illegal_mode);
    /* The result of game i, over; writes every seat's reward into rewards (zeroed). */
    VecResult (*finish)(const void *game, int64_t i, float *rewards);
    /* Writes what the caller reads of game i now: mask, to_play, observations. */
    void (*write_turn)(void *game, int64_t i);
    /* Writes the last view(s) of game i, just over, into final_obs (SAME_STEP). */
    void (*write_final)(void *game, int64_t i, int actor);
    /* Asks the caches for game i, stepped next (NULL: nothing to fetch). */
    void (*prefetch)(const void *game, int64_t i);
} VecGame;

/* Sums over finished games. */
typedef struct {
    int64_t finished, draws, marked, plies;
    int64_t wins[VEC_PLAYERS_MAX];
    uint64_t checksum; /* order-free hash of (game, plies, winner, reason) */
} VecTally;

/* The same, added to by every thread: addition commutes, so the totals do not depend
 * on which thread ran which games. */
typedef struct {
    _Atomic int64_t finished, draws, marked, plies;
    _Atomic int64_t wins[VEC_PLAYERS_MAX];
    _Atomic uint64_t checksum;
} VecTallyShared;

/* One step of a batch: shared by the threads running it. */
typedef struct {
    void *game;
    const VecOutputs *out;
    int autoreset;
    const int64_t *actions;
    int illegal_mode;
    int64_t game_offset; /* the run-wide index of game 0, which the checksum hashes (batch.h) */
    VecTallyShared tally;
} VecStepJob;

/* One reset (of every game, or of those in reset_mask). */
typedef struct {
    void *game;
    const VecOutputs *out;
    const uint8_t *reset_mask; /* NULL: every game */
    int reseed;
    uint64_t seed;
} VecResetJob;

/* Adds a chunk's tally to the shared one (nothing when no game finished). */
void vec_tally_add(VecTallyShared *shared, const VecTally *t);

/* Adds the shared tally, after the loop, to a batch's running totals. */
void vec_tally_collect(const VecTallyShared *shared, VecTally *total);

/* A hash of one finished game, summed over games so that the total does not depend on
 * the order in which threads finish them. */
static inline uint64_t vec_result_hash(int64_t index, const VecResult *r) {
    uint64_t h = (uint64_t)index * 0x9E3779B97F4A7C15ull ^ ((uint64_t)r->plies << 16) ^
                 ((uint64_t)r->winner << 8) ^ (uint64_t)r->reason;
    return rng_next(&h);
}

/* Clears game i's per-step results (no reward, nothing finished). */
static inline void vec_clear_results(const VecGame *g, const VecOutputs *o, int64_t i) {
    for (int p = 0; p < g->players; p++) o->rewards[(int64_t)g->players * i + p] = 0.0f;
    o->reward[i] = 0.0f;
    o->terminated[i] = o->truncated[i] = 0;
    o->final_winner[i] = -1;
    o->final_reason[i] = 0;
    o->final_plies[i] = 0;
}

/* Starts game i anew (seeding its streams again with reseed) and writes its outputs. */
static inline void vec_reset_game(const VecGame *g, const VecResetJob *job, int64_t i) {
    if (job->reseed) g->seed(job->game, i, job->seed);
    g->start(job->game, i, job->reseed);
    vec_clear_results(g, job->out, i);
    g->write_turn(job->game, i);
}

/* The reset task of a game's batch: games [begin, end) of job (a VecResetJob). */
static inline void vec_reset_range(const VecGame *g, const VecResetJob *job, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; i++) {
        if (job->reset_mask != NULL && !job->reset_mask[i]) continue;
        vec_reset_game(g, job, i);
    }
}

/* Writes the outputs of games [begin, end) from their states, results cleared: after a
 * restore of saved states. */
static inline void vec_write_range(const VecGame *g, void *game, const VecOutputs *o, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; i++) {
        vec_clear_results(g, o, i);
        g->write_turn(game, i);
    }
}

/* One step of game i under the autoreset modes (batch.h), adding a finished game to t. */
static inline void vec_step_game(const VecGame *g, const VecStepJob *job, int64_t i, VecTally *t) {
    void *game = job->game;
    const VecOutputs *o = job->out;
    /* A game over since an earlier step (never under SAME_STEP): its action is ignored;
     * NEXT_STEP starts its next game now, DISABLED waits for a reset. */
    if (g->over(game, i)) {
        vec_clear_results(g, o, i);
        if (job->autoreset != AUTORESET_NEXT_STEP) return;
        g->start(game, i, 0);
        g->write_turn(game, i);
        return;
    }
    int actor = g->play(game, i, job->actions[i], job->illegal_mode);
    float *rewards = o->rewards + (int64_t)g->players * i;
    vec_clear_results(g, o, i);
    if (g->over(game, i)) {
        /* Every end is a rule of the game: terminated, never truncated. */
        VecResult r = g->finish(game, i, rewards);
        o->terminated[i] = 1;
        o->final_reason[i] = (uint8_t)r.reason;
        o->final_plies[i] = (int32_t)r.plies;
        if (r.winner < g->players) {
            o->final_winner[i] = (int8_t)r.winner;
            t->wins[r.winner]++;
        } else {
            t->draws++;
        }
        t->finished++;
        t->marked += r.marked;
        t->plies += r.plies;
        t->checksum += vec_result_hash(job->game_offset + i, &r);
        if (job->autoreset == AUTORESET_SAME_STEP) {
            g->write_final(game, i, actor);
            g->start(game, i, 0);
        }
    }
    o->reward[i] = rewards[actor];
    g->write_turn(game, i);
}

/* The step task of a game's batch: games [begin, end) of job, n games in all. */
static inline void vec_step_range(const VecGame *g, VecStepJob *job, int64_t n, int64_t begin, int64_t end) {
    VecTally t = {0};
    for (int64_t i = begin; i < end; i++) {
        if (g->prefetch != NULL && i + 1 < n) g->prefetch(job->game, i + 1);
        vec_step_game(g, job, i, &t);
    }
    vec_tally_add(&job->tally, &t);
}

/* The frame every game's save starts with: what tells a save of this game and engine
 * build from anything else. A game's header goes on after it with what its games depend
 * on (rules, setups, sizes, the number of games), then its payload (save.h for Stratego). */
typedef struct {
    char magic[8];        /* the game's name, e.g. "STRATEGO" */
    uint32_t version;     /* the game's save format version */
    uint32_t kind;        /* VEC_SAVE_BATCH or VEC_SAVE_GAME */
    uint32_t byte_order;  /* VEC_SAVE_BYTE_ORDER as the writer stores a uint32_t */
    uint32_t state_bytes; /* sizeof the game's state */
} VecSaveFrame;

enum { VEC_SAVE_BATCH = 1, VEC_SAVE_GAME = 2 };
/* Written as a native uint32_t: a reader of the other byte order sees 0x04030201. */
enum { VEC_SAVE_BYTE_ORDER = 0x01020304 };

/* Fills a frame (padding and all: equal saves are equal bytes). */
void vec_save_frame_fill(VecSaveFrame *f, const char magic[8], uint32_t version, uint32_t kind, uint32_t state_bytes);

/* 0 if data (len bytes) is at least header_bytes long and starts with a frame like
 * `ours` in magic, byte order, version and kind; otherwise -1 with the first difference
 * in err ("not a <name> save", "format version 2, this engine reads version 3", "the
 * save is of one game, expected <expected_kind>"). The state size is left to the game,
 * which names it with its other sizes. */
int vec_save_frame_check(const uint8_t *data, size_t len, size_t header_bytes, const VecSaveFrame *ours,
                         const char *name, const char *expected_kind, char *err, size_t err_len);

/* A uniformly random set entry of mask[0..n) (any non-zero byte is set), drawn from
 * *rng, or -1 if none: the random agent of every game's bool mask. n <= VEC_ACTIONS_MAX. */
enum { VEC_ACTIONS_MAX = 1 << 14 };
int vec_mask_sample(const uint8_t *mask, int n, uint64_t *rng);

#endif
