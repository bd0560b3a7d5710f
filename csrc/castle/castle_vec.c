/* castle_vec.c: the castle game's batch (castle_vec.h): its VecGame hooks, run by vec.h's
 * loops on the pool, the random agent and saves. */
#include "castle_vec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "castle_view.h"
#include "engine/mask_bits.h"
#include "engine/pool.h"
#include "engine/rng.h"

/* ------------------------------------------------------------------ the mask as bits */

/* The random agent counts a game's legal actions when it writes the mask and picks the
 * k-th when it samples: mask_bits_count / mask_bits_select (mask_bits.c chooses popcnt
 * where the CPU has it). */

/* The bool mask (one byte an action) of packed bits. */
static void bits_unpack(const uint8_t *bits, int n, uint8_t *mask) {
    memset(mask, 0, (size_t)n);
    for (int k = 0; k < (n + 7) / 8; k++)
        for (unsigned byte = bits[k]; byte; byte &= byte - 1) mask[8 * k + __builtin_ctz(byte)] = 1;
}

size_t castle_obs_bytes(int obs_format) {
    return obs_format == CASTLE_OBS_FORMAT_PLANES  ? (size_t)CASTLE_PLANES_BYTES
           : obs_format == CASTLE_OBS_FORMAT_CODES ? (size_t)CASTLE_CODES_BYTES
                                                   : 0;
}

VecShape castle_batch_shape(int num_envs, const CastleSettings *cfg, int obs_format, int mask_bits) {
    int actions = castle_geometry(cfg->mode)->actions, views = obs_format != CASTLE_OBS_FORMAT_NONE;
    VecShape shape = {num_envs, cfg->mode == CASTLE_FFA3 ? 3 : 4,
                      mask_bits ? (size_t)MASK_BITS_BYTES(actions) : (size_t)actions,
                      castle_obs_bytes(obs_format), views, views};
    return shape;
}

/* ------------------------------------------------------------------ the hooks */

static void hook_seed(void *ctx, int64_t i, uint64_t seed) {
    CastleBatch *b = ctx;
    b->states[i].rng = rng_seed_stream(seed, (uint64_t)i, 0);
    b->sample_rng[i] = rng_seed_stream(seed, (uint64_t)i, 1);
}

static void hook_start(void *ctx, int64_t i, int first) {
    CastleBatch *b = ctx;
    (void)first;
    castle_reset(&b->states[i], &b->cfg);
}

static int hook_over(const void *ctx, int64_t i) { return ((const CastleBatch *)ctx)->states[i].done; }

static int hook_play(void *ctx, int64_t i, int64_t action, int illegal_mode) {
    CastleBatch *b = ctx;
    CastleState *s = &b->states[i];
    int actor = s->to_move;
    (void)illegal_mode; /* the binding refuses illegal actions before the step */
    castle_apply(s, &b->cfg, (int)action);
    return actor;
}

/* +1 for the crowning seat (teams4: its team, castle_seat_won), -1 the others; a draw
 * (winner NONE) leaves every reward 0. The tally counts wins by the crowning seat. */
static VecResult hook_finish(const void *ctx, int64_t i, float *rewards) {
    const CastleBatch *b = ctx;
    const CastleState *s = &b->states[i];
    if (s->winner != CASTLE_NONE)
        for (int p = 0; p < s->seats; p++) rewards[p] = castle_seat_won(s, p) ? 1.0f : -1.0f;
    VecResult r = {s->winner == CASTLE_NONE ? s->seats : s->winner, s->end_reason, s->ply,
                   s->end_reason == CASTLE_END_CAP};
    return r;
}

static void write_view(const CastleBatch *b, const CastleState *s, int seat, uint8_t *out) {
    if (b->obs_format == CASTLE_OBS_FORMAT_CODES) {
        castle_view_codes(s, &b->cfg, seat, out);
    } else if (b->obs_format == CASTLE_OBS_FORMAT_PLANES) {
        uint8_t codes[CASTLE_CODES_BYTES];
        castle_view_codes(s, &b->cfg, seat, codes);
        castle_obs_expand(codes, out);
    }
}

static void hook_write_turn(void *ctx, int64_t i) {
    CastleBatch *b = ctx;
    const CastleState *s = &b->states[i];
    uint8_t *bits = b->legal + (size_t)i * b->bits_bytes;
    uint8_t *mask = b->out.mask + (size_t)i * (b->mask_bits ? b->bits_bytes : (size_t)b->actions);
    if (s->done) {
        b->legal_count[i] = 0;
        memset(bits, 0, b->bits_bytes);
        memset(mask, 0, b->mask_bits ? b->bits_bytes : (size_t)b->actions);
    } else {
        castle_legal_bits(s, &b->cfg, bits);
        b->legal_count[i] = (uint16_t)mask_bits_count(bits, b->actions);
        if (b->mask_bits) memcpy(mask, bits, b->bits_bytes);
        else bits_unpack(bits, b->actions, mask);
    }
    b->out.to_play[i] = (int8_t)s->to_move;
    if (b->out.obs != NULL) write_view(b, s, s->to_move, b->out.obs + (size_t)i * castle_obs_bytes(b->obs_format));
}

static void hook_write_final(void *ctx, int64_t i, int actor) {
    CastleBatch *b = ctx;
    if (b->out.final_obs != NULL)
        write_view(b, &b->states[i], actor, b->out.final_obs + (size_t)i * castle_obs_bytes(b->obs_format));
}

/* Two tables, one a seat count: the rewards' width and a draw's winner (= players). */
#define CASTLE_HOOKS(n)                                                                                \
    {.players = (n), .seed = hook_seed, .start = hook_start, .over = hook_over, .play = hook_play,      \
     .finish = hook_finish, .write_turn = hook_write_turn, .write_final = hook_write_final, .prefetch = NULL}
static const VecGame CASTLE_GAME4 = CASTLE_HOOKS(4);
static const VecGame CASTLE_GAME3 = CASTLE_HOOKS(3);

/* The tasks on the pool: vec.h's loops with the table of the batch's seat count (each
 * branch sees a constant table, so the hooks are inlined in both). */
static void reset_task(void *ctx, int64_t begin, int64_t end) {
    const VecResetJob *job = ctx;
    if (((CastleBatch *)job->game)->seats == 3) vec_reset_range(&CASTLE_GAME3, job, begin, end);
    else vec_reset_range(&CASTLE_GAME4, job, begin, end);
}

static void step_task(void *ctx, int64_t begin, int64_t end) {
    VecStepJob *job = ctx;
    CastleBatch *b = job->game;
    if (b->seats == 3) vec_step_range(&CASTLE_GAME3, job, b->num_envs, begin, end);
    else vec_step_range(&CASTLE_GAME4, job, b->num_envs, begin, end);
}

static void write_task(void *ctx, int64_t begin, int64_t end) {
    CastleBatch *b = ctx;
    if (b->seats == 3) vec_write_range(&CASTLE_GAME3, b, &b->out, begin, end);
    else vec_write_range(&CASTLE_GAME4, b, &b->out, begin, end);
}

typedef struct {
    CastleBatch *b;
    int64_t *out;
} SampleJob;

static void sample_task(void *ctx, int64_t begin, int64_t end) {
    SampleJob *job = ctx;
    CastleBatch *b = job->b;
    for (int64_t i = begin; i < end; i++) {
        const uint8_t *bits = b->legal + (size_t)i * b->bits_bytes;
        int count = b->legal_count[i];
        job->out[i] = count ? mask_bits_select(bits, b->actions, (int)rng_below(&b->sample_rng[i], (uint32_t)count)) : -1;
    }
}

/* ------------------------------------------------------------------ the batch */

int castle_batch_init(CastleBatch *b, int num_envs, const CastleSettings *cfg, int obs_format, int mask_bits,
                      int autoreset, const VecOutputs *out) {
    castle_view_init();
    memset(b, 0, sizeof(*b));
    const CastleGeometry *g = castle_geometry(cfg->mode);
    b->bits_bytes = (size_t)MASK_BITS_BYTES(g->actions);
    b->states = calloc((size_t)num_envs, sizeof(CastleState));
    b->sample_rng = calloc((size_t)num_envs, sizeof(uint64_t));
    b->legal = calloc((size_t)num_envs, b->bits_bytes);
    b->legal_count = calloc((size_t)num_envs, sizeof(uint16_t));
    if (b->states == NULL || b->sample_rng == NULL || b->legal == NULL || b->legal_count == NULL) {
        castle_batch_free(b);
        return -1;
    }
    b->num_envs = num_envs;
    b->seats = g->seats;
    b->actions = g->actions;
    b->cfg = *cfg;
    b->out = *out;
    b->obs_format = obs_format;
    b->mask_bits = mask_bits;
    b->autoreset = autoreset;
    return 0;
}

size_t castle_batch_game_bytes(const CastleSettings *cfg) {
    return sizeof(CastleState) + sizeof(uint64_t) + (size_t)MASK_BITS_BYTES(castle_geometry(cfg->mode)->actions) +
           sizeof(uint16_t);
}

void castle_batch_free(CastleBatch *b) {
    free(b->states);
    free(b->sample_rng);
    free(b->legal);
    free(b->legal_count);
    memset(b, 0, sizeof(*b));
}

void castle_batch_reset_some(CastleBatch *b, const uint8_t *mask, int reseed, uint64_t seed, int threads) {
    VecResetJob job = {.game = b, .out = &b->out, .reset_mask = mask, .reseed = reseed, .seed = seed};
    if (mask == NULL) memset(&b->stats, 0, sizeof(b->stats));
    pool_run(&b->paces, threads, b->num_envs, reset_task, &job);
}

void castle_batch_step(CastleBatch *b, const int64_t *actions, int threads) {
    VecStepJob job = {.game = b, .out = &b->out, .autoreset = b->autoreset, .actions = actions,
                      .illegal_mode = ILLEGAL_RAISE};
    pool_run(&b->paces, threads, b->num_envs, step_task, &job);
    vec_tally_collect(&job.tally, &b->stats);
}

void castle_batch_write_outputs(CastleBatch *b, int threads) {
    pool_run(&b->paces, threads, b->num_envs, write_task, b);
}

void castle_batch_sample(CastleBatch *b, int64_t *out, int threads) {
    SampleJob job = {b, out};
    pool_run(&b->paces, threads, b->num_envs, sample_task, &job);
}

/* ------------------------------------------------------------------ saves */

typedef struct {
    VecSaveFrame frame;
    uint32_t num_games;
    CastleSettings settings;
} CastleSaveHeader;

static const char CASTLE_MAGIC[8] = {'C', 'A', 'S', 'T', 'L', 'E', 0, 0};

static void save_header(const CastleBatch *b, CastleSaveHeader *h) {
    memset(h, 0, sizeof(*h));
    vec_save_frame_fill(&h->frame, CASTLE_MAGIC, CASTLE_SAVE_VERSION, VEC_SAVE_BATCH, sizeof(CastleState));
    h->num_games = (uint32_t)b->num_envs;
    h->settings = b->cfg;
}

size_t castle_save_bytes(const CastleBatch *b) {
    return sizeof(CastleSaveHeader) + sizeof(VecTally) + (size_t)b->num_envs * (sizeof(CastleState) + sizeof(uint64_t));
}

void castle_save_write(const CastleBatch *b, uint8_t *out) {
    CastleSaveHeader h;
    save_header(b, &h);
    memcpy(out, &h, sizeof(h));
    out += sizeof(h);
    memcpy(out, &b->stats, sizeof(b->stats));
    out += sizeof(b->stats);
    memcpy(out, b->states, (size_t)b->num_envs * sizeof(CastleState));
    memcpy(out + (size_t)b->num_envs * sizeof(CastleState), b->sample_rng, (size_t)b->num_envs * sizeof(uint64_t));
}

int castle_save_check(const CastleBatch *b, const uint8_t *data, size_t len, char *err, size_t err_len) {
    CastleSaveHeader ours, h;
    save_header(b, &ours);
    if (vec_save_frame_check(data, len, sizeof(h), &ours.frame, "castle", "a batch of games", err, err_len) < 0)
        return -1;
    memcpy(&h, data, sizeof(h));
    if (h.frame.state_bytes != sizeof(CastleState)) {
        snprintf(err, err_len, "its games are %u bytes each, this build's %zu", h.frame.state_bytes, sizeof(CastleState));
        return -1;
    }
    if (h.num_games != ours.num_games) {
        snprintf(err, err_len, "it holds %u games, this batch %d", h.num_games, b->num_envs);
        return -1;
    }
    int32_t mine[CASTLE_SETTING_NB], theirs[CASTLE_SETTING_NB];
    memcpy(mine, &ours.settings, sizeof(mine));
    memcpy(theirs, &h.settings, sizeof(theirs));
    for (int k = 0; k < CASTLE_SETTING_NB; k++)
        if (mine[k] != theirs[k]) {
            snprintf(err, err_len, "it was played with %s = %d, this batch has %d", CASTLE_SETTING_INFO[k].name,
                     (int)theirs[k], (int)mine[k]);
            return -1;
        }
    if (len != castle_save_bytes(b)) {
        snprintf(err, err_len, "%zu bytes, a save of %d games has %zu", len, b->num_envs, castle_save_bytes(b));
        return -1;
    }
    /* A save may come from anywhere: every state is checked before a rule reads it. */
    const uint8_t *states = data + sizeof(h) + sizeof(VecTally);
    for (int i = 0; i < b->num_envs; i++) {
        CastleState s;
        char why[160];
        memcpy(&s, states + (size_t)i * sizeof(CastleState), sizeof(s));
        if (castle_state_check(&s, &b->cfg, why, sizeof(why)) < 0) {
            snprintf(err, err_len, "game %d: %s", i, why);
            return -1;
        }
    }
    return 0;
}

void castle_save_read(CastleBatch *b, const uint8_t *data) {
    data += sizeof(CastleSaveHeader);
    memcpy(&b->stats, data, sizeof(b->stats));
    data += sizeof(b->stats);
    memcpy(b->states, data, (size_t)b->num_envs * sizeof(CastleState));
    memcpy(b->sample_rng, data + (size_t)b->num_envs * sizeof(CastleState), (size_t)b->num_envs * sizeof(uint64_t));
}
