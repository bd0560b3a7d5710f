/* tiny_game.h: "tinyhide", a second game on the batch seam of csrc/engine/vec.h, for the tests
 * only (not in the public API). It has what a castle game needs and Stratego lacks:
 *
 *  - three seats, and a skipped seat: seat TINY_SKIP_SEAT sits out every odd round,
 *    and a seat with no token left is out for good;
 *  - hidden values: each token has a value 1..TINY_TOKENS that only its owner knows
 *    until a fight shows it to everyone;
 *  - a board of 12 x 12 = 144 cells, more than a 128-bit square set holds.
 *
 * Rules. Seats move in turn (0, 1, 2, then 0 again: a new round). An action moves one
 * own token one cell (action = cell * 4 + direction). Moving onto another seat's token
 * is a fight: both values are shown, the higher value stays on the target cell, a tie
 * removes both. The game ends when one seat has tokens left (it wins), when none has
 * (a draw), or after max_plies plies (a draw). Under ILLEGAL_LOSES an illegal action
 * takes every token of its seat off the board.
 *
 * The whole game is this header: state, rules, view, and its VecGame hooks; the batch
 * loop, autoreset, outputs and statistics are vec.h's.
 */
#ifndef TINY_GAME_H
#define TINY_GAME_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/pool.h"
#include "engine/rng.h"
#include "engine/vec.h"

enum {
    TINY_SIDE = 12,
    TINY_CELLS = TINY_SIDE * TINY_SIDE,
    TINY_SEATS = 3,
    TINY_TOKENS = 4,
    TINY_DIRS = 4,
    TINY_ACTIONS = TINY_CELLS * TINY_DIRS,
    TINY_SKIP_SEAT = 1,
    TINY_EMPTY = 0xFF,
    /* Observation: a code a cell, then ply % 256, the seat to move and each seat's
     * tokens left, all relative to the observer. */
    TINY_OBS_BYTES = TINY_CELLS + 2 + TINY_SEATS,
};
_Static_assert(TINY_CELLS > 128, "the board does not fit a 128-bit square set");
_Static_assert((int)TINY_SEATS <= (int)VEC_PLAYERS_MAX, "seats fit the batch's rewards");

enum { TINY_END_NONE = 0, TINY_END_LAST_STANDING = 1, TINY_END_NOBODY_LEFT = 2, TINY_END_PLY_CAP = 3 };

/* Cell codes of the observation: empty, an own token (TINY_CODE_OWN + value: the owner
 * knows its values), another seat's token (TINY_CODE_OTHER + 5 * (relative seat - 1) +
 * value, value 0 while hidden). */
enum { TINY_CODE_EMPTY = 0, TINY_CODE_OWN = 0, TINY_CODE_OTHER = 5 };

typedef struct {
    uint8_t cell[TINY_CELLS];                   /* token id (seat * TINY_TOKENS + k) or TINY_EMPTY */
    uint8_t value[TINY_SEATS * TINY_TOKENS];    /* hidden until shown; 0: taken */
    uint8_t shown[TINY_SEATS * TINY_TOKENS];    /* a fight showed its value to everyone */
    uint8_t left[TINY_SEATS];                   /* tokens on the board */
    uint8_t to_move, done, winner, end_reason;  /* winner TINY_SEATS: a draw */
    uint32_t ply, round;
    uint64_t rng;
} TinyState;
_Static_assert(sizeof(TinyState) <= 256, "a game is small fixed-size data");

typedef struct {
    uint32_t max_plies;
} TinyRules;

static inline int tiny_seat_of(int token) { return token / TINY_TOKENS; }

/* The cell a step in direction d (up, right, down, left) leads to, or -1 off the board. */
static inline int tiny_step(int cell, int d) {
    int row = cell / TINY_SIDE, col = cell % TINY_SIDE;
    row += d == 0 ? 1 : d == 2 ? -1 : 0;
    col += d == 1 ? 1 : d == 3 ? -1 : 0;
    return row < 0 || row >= TINY_SIDE || col < 0 || col >= TINY_SIDE ? -1 : row * TINY_SIDE + col;
}

/* Whether `action` is legal for the seat to move. */
static inline int tiny_legal(const TinyState *s, int64_t action) {
    if (s->done || action < 0 || action >= TINY_ACTIONS) return 0;
    int from = (int)(action / TINY_DIRS), to = tiny_step(from, (int)(action % TINY_DIRS));
    uint8_t token = s->cell[from];
    if (token == TINY_EMPTY || tiny_seat_of(token) != s->to_move || to < 0) return 0;
    return s->cell[to] == TINY_EMPTY || tiny_seat_of(s->cell[to]) != s->to_move;
}

static inline int tiny_legal_mask(const TinyState *s, uint8_t *mask) {
    int count = 0;
    for (int a = 0; a < TINY_ACTIONS; a++) count += mask[a] = (uint8_t)tiny_legal(s, a);
    return count;
}

/* Whether seat p sits out round `round`: the skipped seat every odd round. */
static inline int tiny_sits_out(int p, uint32_t round) { return p == TINY_SKIP_SEAT && (round & 1); }

static inline int tiny_can_move(const TinyState *s, int p) {
    TinyState t = *s;
    t.to_move = (uint8_t)p;
    for (int a = 0; a < TINY_ACTIONS; a++)
        if (tiny_legal(&t, a)) return 1;
    return 0;
}

/* Ends the game when at most one seat has tokens, or at the ply cap. */
static inline int tiny_judge(TinyState *s, const TinyRules *r) {
    int seats = 0, last = TINY_SEATS;
    for (int p = 0; p < TINY_SEATS; p++)
        if (s->left[p]) seats++, last = p;
    if (seats <= 1) {
        s->done = 1;
        s->winner = (uint8_t)last;
        s->end_reason = seats ? TINY_END_LAST_STANDING : TINY_END_NOBODY_LEFT;
    } else if (r->max_plies && s->ply >= r->max_plies) {
        s->done = 1;
        s->winner = TINY_SEATS;
        s->end_reason = TINY_END_PLY_CAP;
    }
    return s->done;
}

/* Passes the turn to the next seat that plays this round and can move; a game where no
 * seat can move is a draw. */
static inline void tiny_next_turn(TinyState *s) {
    for (int k = 0; k < 2 * TINY_SEATS + 1; k++) {
        int p = s->to_move + 1;
        if (p == TINY_SEATS) {
            p = 0;
            s->round++;
        }
        s->to_move = (uint8_t)p;
        if (s->left[p] && !tiny_sits_out(p, s->round) && tiny_can_move(s, p)) return;
    }
    s->done = 1;
    s->winner = TINY_SEATS;
    s->end_reason = TINY_END_NOBODY_LEFT;
}

static inline void tiny_remove(TinyState *s, int cell) {
    uint8_t token = s->cell[cell];
    s->value[token] = 0;
    s->left[tiny_seat_of(token)]--;
    s->cell[cell] = TINY_EMPTY;
}

/* A new game from s->rng (kept): every seat's tokens on random free cells, values a
 * random order of 1..TINY_TOKENS. */
static inline void tiny_reset(TinyState *s) {
    uint64_t rng = s->rng;
    memset(s, 0, sizeof(*s));
    memset(s->cell, TINY_EMPTY, sizeof(s->cell));
    for (int p = 0; p < TINY_SEATS; p++) {
        uint8_t values[TINY_TOKENS];
        for (int k = 0; k < TINY_TOKENS; k++) values[k] = (uint8_t)(k + 1);
        for (int k = TINY_TOKENS - 1; k > 0; k--) {
            int j = (int)rng_below(&rng, (uint32_t)k + 1);
            uint8_t v = values[k];
            values[k] = values[j];
            values[j] = v;
        }
        for (int k = 0; k < TINY_TOKENS; k++) {
            int cell;
            do cell = (int)rng_below(&rng, TINY_CELLS);
            while (s->cell[cell] != TINY_EMPTY);
            s->cell[cell] = (uint8_t)(p * TINY_TOKENS + k);
            s->value[p * TINY_TOKENS + k] = values[k];
        }
        s->left[p] = TINY_TOKENS;
    }
    s->rng = rng;
}

/* Plays an action of the seat to move (legal, or under ILLEGAL_LOSES anything: then the
 * seat loses every token). */
static inline void tiny_apply(TinyState *s, const TinyRules *r, int64_t action) {
    int p = s->to_move;
    if (!tiny_legal(s, action)) {
        for (int c = 0; c < TINY_CELLS; c++)
            if (s->cell[c] != TINY_EMPTY && tiny_seat_of(s->cell[c]) == p) tiny_remove(s, c);
    } else {
        int from = (int)(action / TINY_DIRS), to = tiny_step(from, (int)(action % TINY_DIRS));
        uint8_t mover = s->cell[from];
        if (s->cell[to] != TINY_EMPTY) {
            /* A fight shows both values; the lower token is taken, a tie takes both. */
            uint8_t defender = s->cell[to];
            s->shown[mover] = s->shown[defender] = 1;
            int diff = s->value[mover] - s->value[defender];
            if (diff <= 0) tiny_remove(s, from);
            if (diff >= 0) tiny_remove(s, to);
            if (diff > 0) {
                s->cell[to] = mover;
                s->cell[from] = TINY_EMPTY;
            }
        } else {
            s->cell[to] = mover;
            s->cell[from] = TINY_EMPTY;
        }
    }
    s->ply++;
    if (!tiny_judge(s, r)) tiny_next_turn(s);
}

/* What seat `player` sees: its own values, the others' values once shown, never a
 * hidden one; seats relative to the observer (its next seat is 1). */
static inline void tiny_observe(const TinyState *s, int player, uint8_t *out) {
    for (int c = 0; c < TINY_CELLS; c++) {
        uint8_t token = s->cell[c];
        if (token == TINY_EMPTY) {
            out[c] = TINY_CODE_EMPTY;
            continue;
        }
        int rel = (tiny_seat_of(token) - player + TINY_SEATS) % TINY_SEATS;
        if (rel == 0) out[c] = (uint8_t)(TINY_CODE_OWN + s->value[token]);
        else out[c] = (uint8_t)(TINY_CODE_OTHER + 5 * (rel - 1) + (s->shown[token] ? s->value[token] : 0));
    }
    out[TINY_CELLS] = (uint8_t)s->ply;
    out[TINY_CELLS + 1] = (uint8_t)((s->to_move - player + TINY_SEATS) % TINY_SEATS);
    for (int rel = 0; rel < TINY_SEATS; rel++) out[TINY_CELLS + 2 + rel] = s->left[(player + rel) % TINY_SEATS];
}

/* ------------------------------------------------------------ the batch (vec.h) */

typedef struct {
    int num_envs;
    TinyRules rules;
    TinyState *states;    /* owned */
    uint64_t *sample_rng; /* owned: the random agent's stream of each game */
    VecOutputs out;       /* the caller's */
    int obs_views;        /* 0 or 1: the view of the seat to move */
    int autoreset;
    VecTally stats;
    PoolPaces paces; /* whether its loops' helpers pay (engine/pool.h) */
} TinyBatch;

static void tiny_hook_seed(void *ctx, int64_t i, uint64_t seed) {
    TinyBatch *b = ctx;
    b->states[i].rng = rng_seed_stream(seed, (uint64_t)i, 0);
    b->sample_rng[i] = rng_seed_stream(seed, (uint64_t)i, 1);
}

static void tiny_hook_start(void *ctx, int64_t i, int first) {
    (void)first;
    tiny_reset(&((TinyBatch *)ctx)->states[i]);
}

static int tiny_hook_over(const void *ctx, int64_t i) { return ((const TinyBatch *)ctx)->states[i].done; }

static int tiny_hook_play(void *ctx, int64_t i, int64_t action, int illegal_mode) {
    TinyBatch *b = ctx;
    TinyState *s = &b->states[i];
    int actor = s->to_move;
    (void)illegal_mode; /* under ILLEGAL_RAISE the caller checked; tiny_apply judges the rest */
    tiny_apply(s, &b->rules, action);
    return actor;
}

/* The last seat standing +1, every other seat -1; a draw 0 for all. */
static VecResult tiny_hook_finish(const void *ctx, int64_t i, float *rewards) {
    const TinyState *s = &((const TinyBatch *)ctx)->states[i];
    if (s->winner < TINY_SEATS)
        for (int p = 0; p < TINY_SEATS; p++) rewards[p] = p == s->winner ? 1.0f : -1.0f;
    VecResult r = {s->winner, s->end_reason, s->ply, s->end_reason == TINY_END_PLY_CAP};
    return r;
}

static void tiny_hook_write_turn(void *ctx, int64_t i) {
    TinyBatch *b = ctx;
    const TinyState *s = &b->states[i];
    uint8_t *mask = b->out.mask + i * TINY_ACTIONS;
    if (s->done) memset(mask, 0, TINY_ACTIONS);
    else tiny_legal_mask(s, mask);
    b->out.to_play[i] = (int8_t)s->to_move;
    if (b->obs_views) tiny_observe(s, s->to_move, b->out.obs + i * TINY_OBS_BYTES);
}

static void tiny_hook_write_final(void *ctx, int64_t i, int actor) {
    TinyBatch *b = ctx;
    (void)actor;
    if (b->obs_views) tiny_observe(&b->states[i], b->states[i].to_move, b->out.final_obs + i * TINY_OBS_BYTES);
}

static const VecGame TINY_GAME = {
    .players = TINY_SEATS,
    .seed = tiny_hook_seed,
    .start = tiny_hook_start,
    .over = tiny_hook_over,
    .play = tiny_hook_play,
    .finish = tiny_hook_finish,
    .write_turn = tiny_hook_write_turn,
    .write_final = tiny_hook_write_final,
    .prefetch = NULL,
};

static inline VecShape tiny_shape(int num_envs, int obs_views) {
    VecShape shape = {num_envs, TINY_SEATS, TINY_ACTIONS, obs_views ? TINY_OBS_BYTES : 0, obs_views, obs_views};
    return shape;
}

/* 0, or -1 when memory runs out (nothing left to free). The outputs are the caller's
 * (tiny_shape's sizes). */
static inline int tiny_batch_init(TinyBatch *b, int num_envs, TinyRules rules, int obs_views, int autoreset,
                                  const VecOutputs *out) {
    memset(b, 0, sizeof(*b));
    b->states = calloc((size_t)num_envs, sizeof(TinyState));
    b->sample_rng = calloc((size_t)num_envs, sizeof(uint64_t));
    if (b->states == NULL || b->sample_rng == NULL) {
        free(b->states);
        free(b->sample_rng);
        memset(b, 0, sizeof(*b));
        return -1;
    }
    b->num_envs = num_envs;
    b->rules = rules;
    b->out = *out;
    b->obs_views = obs_views;
    b->autoreset = autoreset;
    return 0;
}

static inline void tiny_batch_free(TinyBatch *b) {
    free(b->states);
    free(b->sample_rng);
    memset(b, 0, sizeof(*b));
}

/* A save: vec.h's frame, the number of games, the statistics, then every state and
 * sampler stream. */
typedef struct {
    VecSaveFrame frame;
    uint32_t num_games;
    uint32_t reserved;
} TinySaveHeader;

static const char TINY_MAGIC[8] = {'T', 'I', 'N', 'Y', 'H', 'I', 'D', 'E'};
enum { TINY_SAVE_VERSION = 1 };

static inline size_t tiny_save_bytes(const TinyBatch *b) {
    return sizeof(TinySaveHeader) + sizeof(VecTally) + (size_t)b->num_envs * (sizeof(TinyState) + sizeof(uint64_t));
}

static inline void tiny_save_header(const TinyBatch *b, TinySaveHeader *h) {
    memset(h, 0, sizeof(*h));
    vec_save_frame_fill(&h->frame, TINY_MAGIC, TINY_SAVE_VERSION, VEC_SAVE_BATCH, sizeof(TinyState));
    h->num_games = (uint32_t)b->num_envs;
}

static inline void tiny_save_write(const TinyBatch *b, uint8_t *out) {
    TinySaveHeader h;
    tiny_save_header(b, &h);
    memcpy(out, &h, sizeof(h));
    out += sizeof(h);
    memcpy(out, &b->stats, sizeof(b->stats));
    out += sizeof(b->stats);
    memcpy(out, b->states, (size_t)b->num_envs * sizeof(TinyState));
    memcpy(out + (size_t)b->num_envs * sizeof(TinyState), b->sample_rng, (size_t)b->num_envs * sizeof(uint64_t));
}

/* 0 if data is a save that loads into b, else -1 with the problem in err. */
static inline int tiny_save_check(const TinyBatch *b, const uint8_t *data, size_t len, char *err, size_t err_len) {
    TinySaveHeader ours, h;
    tiny_save_header(b, &ours);
    if (vec_save_frame_check(data, len, sizeof(h), &ours.frame, "tinyhide", "a batch of games", err, err_len) < 0)
        return -1;
    memcpy(&h, data, sizeof(h));
    if (h.frame.state_bytes != sizeof(TinyState) || h.num_games != ours.num_games || len != tiny_save_bytes(b)) {
        snprintf(err, err_len, "the save is of another build or number of games");
        return -1;
    }
    return 0;
}

/* Loads a save tiny_save_check accepted; the caller writes the outputs afterwards. */
static inline void tiny_save_read(TinyBatch *b, const uint8_t *data) {
    data += sizeof(TinySaveHeader);
    memcpy(&b->stats, data, sizeof(b->stats));
    data += sizeof(b->stats);
    memcpy(b->states, data, (size_t)b->num_envs * sizeof(TinyState));
    memcpy(b->sample_rng, data + (size_t)b->num_envs * sizeof(TinyState), (size_t)b->num_envs * sizeof(uint64_t));
}

/* The three tasks a game runs on the pool: each is vec.h's loop with this game's hooks. */
static void tiny_reset_task(void *ctx, int64_t begin, int64_t end) { vec_reset_range(&TINY_GAME, ctx, begin, end); }

static void tiny_step_task(void *ctx, int64_t begin, int64_t end) {
    VecStepJob *job = ctx;
    vec_step_range(&TINY_GAME, job, ((TinyBatch *)job->game)->num_envs, begin, end);
}

static void tiny_write_task(void *ctx, int64_t begin, int64_t end) {
    TinyBatch *b = ctx;
    vec_write_range(&TINY_GAME, b, &b->out, begin, end);
}

static inline void tiny_batch_reset_some(TinyBatch *b, const uint8_t *mask, int reseed, uint64_t seed, int threads) {
    VecResetJob job = {.game = b, .out = &b->out, .reset_mask = mask, .reseed = reseed, .seed = seed};
    if (mask == NULL) memset(&b->stats, 0, sizeof(b->stats));
    pool_run(&b->paces, threads, b->num_envs, tiny_reset_task, &job);
}

static inline void tiny_batch_step(TinyBatch *b, const int64_t *actions, int illegal_mode, int threads) {
    VecStepJob job = {.game = b, .out = &b->out, .autoreset = b->autoreset, .actions = actions,
                      .illegal_mode = illegal_mode};
    pool_run(&b->paces, threads, b->num_envs, tiny_step_task, &job);
    vec_tally_collect(&job.tally, &b->stats);
}

static inline void tiny_batch_write_outputs(TinyBatch *b, int threads) {
    pool_run(&b->paces, threads, b->num_envs, tiny_write_task, b);
}

#endif
