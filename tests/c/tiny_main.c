/* tiny_main.c: runs the second game of tiny_game.h through vec.h's batch loop on the
 * engine's thread pool and checks the seam (tests/test_second_game.py runs it):
 *
 *  - every output (mask, to_play, observations, rewards, results, final_obs) agrees with
 *    the game's own rules replayed on a copy of each state, under every autoreset mode;
 *  - 1, 2 and 3 threads give bit-identical outputs, states and statistics;
 *  - the skipped seat never acts in an odd round, and the others act in its place;
 *  - actions from cells past 127 are played (the board has 144);
 *  - an observation does not change with a hidden value, and does once it is shown;
 *  - a batch restored from another's save (vec.h's frame, then the game's payload;
 *    vec_write_range writes its outputs) goes on exactly as the original, and a save
 *    of another game or kind is refused.
 * Prints one line of figures and exits 0, or names the failed check and exits 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tiny_game.h"

#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "tiny_game: check failed at line %d: %s\n", __LINE__, #cond); \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

enum { N = 48, STEPS = 160, MAX_PLIES = 50 };

static uint64_t digest(uint64_t h, const void *data, size_t len) {
    const uint8_t *p = data;
    for (size_t k = 0; k < len; k++) h = (h ^ p[k]) * 0x100000001b3ull;
    return h;
}

typedef struct {
    uint64_t digest;
    VecTally stats;
    TinyState states[N];
    int64_t skipped_seat_acts, skipped_seat_odd_acts, odd_round_acts, high_cell_actions, illegal_played;
} Run;

/* What the caller reads of game i must be the state's: mask, seat to move, its view. */
static void check_turn(const TinyBatch *b, int64_t i) {
    const TinyState *s = &b->states[i];
    uint8_t mask[TINY_ACTIONS], obs[TINY_OBS_BYTES];
    if (s->done) memset(mask, 0, sizeof(mask));
    else CHECK(tiny_legal_mask(s, mask) > 0);
    CHECK(memcmp(mask, b->out.mask + i * TINY_ACTIONS, TINY_ACTIONS) == 0);
    CHECK(b->out.to_play[i] == s->to_move);
    tiny_observe(s, s->to_move, obs);
    CHECK(memcmp(obs, b->out.obs + i * TINY_OBS_BYTES, TINY_OBS_BYTES) == 0);
}

/* The results of game i after a step from `before` with `action`, against the rules
 * replayed on a copy. */
static void check_step(const TinyBatch *b, int64_t i, const TinyState *before, int64_t action, Run *run) {
    const VecOutputs *o = &b->out;
    const TinyState *s = &b->states[i];
    const float *rewards = o->rewards + TINY_SEATS * i;
    if (before->done) {
        /* Over since an earlier step: its action ignored, nothing reported. */
        CHECK(b->autoreset != AUTORESET_SAME_STEP);
        CHECK(!o->terminated[i] && o->reward[i] == 0.0f && o->final_winner[i] == -1);
        if (b->autoreset == AUTORESET_NEXT_STEP) {
            TinyState fresh = *before;
            tiny_reset(&fresh);
            CHECK(memcmp(&fresh, s, sizeof(fresh)) == 0);
        } else {
            CHECK(memcmp(before, s, sizeof(*s)) == 0);
        }
        return;
    }
    TinyState expect = *before;
    int actor = before->to_move;
    run->illegal_played += !tiny_legal(before, action);
    tiny_apply(&expect, &b->rules, action);
    if (actor == TINY_SKIP_SEAT) run->skipped_seat_acts++;
    if (actor == TINY_SKIP_SEAT && (before->round & 1)) run->skipped_seat_odd_acts++;
    if (before->round & 1) run->odd_round_acts++;
    if (action / TINY_DIRS >= 128) run->high_cell_actions++;
    CHECK(o->truncated[i] == 0);
    if (!expect.done) {
        CHECK(memcmp(&expect, s, sizeof(*s)) == 0);
        CHECK(!o->terminated[i] && o->final_winner[i] == -1 && o->final_reason[i] == 0);
        for (int p = 0; p < TINY_SEATS; p++) CHECK(rewards[p] == 0.0f);
        CHECK(o->reward[i] == 0.0f);
        return;
    }
    CHECK(o->terminated[i] == 1);
    CHECK(o->final_reason[i] == expect.end_reason && o->final_plies[i] == (int32_t)expect.ply);
    CHECK(o->final_winner[i] == (expect.winner < TINY_SEATS ? expect.winner : -1));
    for (int p = 0; p < TINY_SEATS; p++)
        CHECK(rewards[p] == (expect.winner == TINY_SEATS ? 0.0f : p == expect.winner ? 1.0f : -1.0f));
    CHECK(o->reward[i] == rewards[actor]);
    if (b->autoreset == AUTORESET_SAME_STEP) {
        /* The last view in final_obs, and already a new game from the same stream. */
        uint8_t obs[TINY_OBS_BYTES];
        tiny_observe(&expect, expect.to_move, obs);
        CHECK(memcmp(obs, o->final_obs + i * TINY_OBS_BYTES, TINY_OBS_BYTES) == 0);
        TinyState fresh = expect;
        tiny_reset(&fresh);
        CHECK(memcmp(&fresh, s, sizeof(*s)) == 0);
    } else {
        CHECK(memcmp(&expect, s, sizeof(*s)) == 0);
    }
}

/* The random agent, from each game's own stream (vec_mask_sample), and now and then an
 * illegal action, which ILLEGAL_LOSES plays: its seat loses every token. */
static void choose(TinyBatch *b, int t, int64_t *actions) {
    for (int64_t i = 0; i < b->num_envs; i++) {
        int64_t a = vec_mask_sample(b->out.mask + i * TINY_ACTIONS, TINY_ACTIONS, &b->sample_rng[i]);
        if (a < 0 || (t + 3 * i) % 41 == 0) {
            /* A move from an empty cell: illegal. */
            int cell = 0;
            while (b->states[i].cell[cell] != TINY_EMPTY) cell++;
            a = (int64_t)cell * TINY_DIRS;
        }
        actions[i] = a;
    }
}

static void run_batch(int threads, int autoreset, uint64_t seed, Run *run) {
    VecShape shape = tiny_shape(N, 1);
    VecOutputs out;
    TinyBatch b;
    int64_t actions[N];
    TinyState before[N];
    uint8_t reset_mask[N];
    memset(run, 0, sizeof(*run));
    CHECK(vec_outputs_alloc(&shape, &out) == 0);
    CHECK(tiny_batch_init(&b, N, (TinyRules){MAX_PLIES}, 1, autoreset, &out) == 0);
    tiny_batch_reset_some(&b, NULL, 1, seed, threads);
    for (int64_t i = 0; i < N; i++) check_turn(&b, i);
    uint64_t h = 0xcbf29ce484222325ull;
    for (int t = 0; t < STEPS; t++) {
        choose(&b, t, actions);
        memcpy(before, b.states, sizeof(before));
        tiny_batch_step(&b, actions, ILLEGAL_LOSES, threads);
        for (int64_t i = 0; i < N; i++) {
            check_step(&b, i, &before[i], actions[i], run);
            check_turn(&b, i);
        }
        /* DISABLED: a finished game waits for reset_some (streams going on). */
        if (autoreset == AUTORESET_DISABLED && t % 10 == 9) {
            for (int64_t i = 0; i < N; i++) reset_mask[i] = b.states[i].done;
            tiny_batch_reset_some(&b, reset_mask, 0, 0, threads);
            for (int64_t i = 0; i < N; i++) {
                check_turn(&b, i);
                CHECK(!b.states[i].done);
            }
        }
        h = digest(h, out.mask, (size_t)N * TINY_ACTIONS);
        h = digest(h, out.rewards, (size_t)N * TINY_SEATS * sizeof(float));
        h = digest(h, out.reward, (size_t)N * sizeof(float));
        h = digest(h, out.terminated, N);
        h = digest(h, out.to_play, N);
        h = digest(h, out.final_winner, N);
        h = digest(h, out.final_reason, N);
        h = digest(h, out.final_plies, (size_t)N * sizeof(int32_t));
        h = digest(h, out.obs, (size_t)N * TINY_OBS_BYTES);
        h = digest(h, out.final_obs, (size_t)N * TINY_OBS_BYTES);
    }
    run->digest = h;
    run->stats = b.stats;
    memcpy(run->states, b.states, sizeof(run->states));
    tiny_batch_free(&b);
    vec_outputs_free(&out);
}

/* A hidden value never reaches another seat's observation; a shown one does. */
static void check_hidden_values(void) {
    TinyState s;
    memset(&s, 0, sizeof(s));
    s.rng = 7;
    tiny_reset(&s);
    uint8_t a[TINY_OBS_BYTES], b[TINY_OBS_BYTES], own_a[TINY_OBS_BYTES], own_b[TINY_OBS_BYTES];
    /* Seat 2 swaps the values of two of its tokens: seat 0 cannot tell, seat 2 can. */
    tiny_observe(&s, 0, a);
    tiny_observe(&s, 2, own_a);
    int t0 = 2 * TINY_TOKENS, t1 = t0 + 1;
    uint8_t v = s.value[t0];
    s.value[t0] = s.value[t1];
    s.value[t1] = v;
    tiny_observe(&s, 0, b);
    tiny_observe(&s, 2, own_b);
    CHECK(memcmp(a, b, sizeof(a)) == 0);
    CHECK(memcmp(own_a, own_b, sizeof(own_a)) != 0);
    s.shown[t0] = 1;
    tiny_observe(&s, 0, b);
    CHECK(memcmp(a, b, sizeof(a)) != 0);
}

/* A second batch loaded from the first one's save, its outputs written by
 * vec_write_range, goes on exactly as the first; a damaged save is refused. */
static void check_restore(void) {
    VecShape shape = tiny_shape(N, 1);
    VecOutputs out_a, out_b;
    TinyBatch a, b;
    int64_t actions[N];
    CHECK(vec_outputs_alloc(&shape, &out_a) == 0 && vec_outputs_alloc(&shape, &out_b) == 0);
    CHECK(tiny_batch_init(&a, N, (TinyRules){MAX_PLIES}, 1, AUTORESET_SAME_STEP, &out_a) == 0);
    CHECK(tiny_batch_init(&b, N, (TinyRules){MAX_PLIES}, 1, AUTORESET_SAME_STEP, &out_b) == 0);
    tiny_batch_reset_some(&a, NULL, 1, 11, 2);
    tiny_batch_reset_some(&b, NULL, 1, 12, 2);
    for (int t = 0; t < 40; t++) {
        choose(&a, t, actions);
        tiny_batch_step(&a, actions, ILLEGAL_LOSES, 2);
    }
    /* Through the save format: vec.h's frame, then the game's header and payload. */
    size_t len = tiny_save_bytes(&a);
    uint8_t *blob = malloc(len);
    char err[200];
    CHECK(blob != NULL);
    tiny_save_write(&a, blob);
    CHECK(tiny_save_check(&b, blob, len, err, sizeof(err)) == 0);
    blob[0] ^= 1;
    CHECK(tiny_save_check(&b, blob, len, err, sizeof(err)) < 0 && strstr(err, "not a tinyhide save") != NULL);
    blob[0] ^= 1;
    ((TinySaveHeader *)(void *)blob)->frame.kind = VEC_SAVE_GAME;
    CHECK(tiny_save_check(&b, blob, len, err, sizeof(err)) < 0 && strstr(err, "of one game, expected a batch") != NULL);
    ((TinySaveHeader *)(void *)blob)->frame.kind = VEC_SAVE_BATCH;
    CHECK(tiny_save_check(&b, blob, len - 1, err, sizeof(err)) < 0);
    tiny_save_read(&b, blob);
    free(blob);
    tiny_batch_write_outputs(&b, 2);
    CHECK(memcmp(out_a.mask, out_b.mask, (size_t)N * TINY_ACTIONS) == 0);
    CHECK(memcmp(out_a.obs, out_b.obs, (size_t)N * TINY_OBS_BYTES) == 0);
    for (int t = 40; t < 80; t++) {
        choose(&a, t, actions);
        tiny_batch_step(&a, actions, ILLEGAL_LOSES, 2);
        choose(&b, t, actions);
        tiny_batch_step(&b, actions, ILLEGAL_LOSES, 2);
    }
    CHECK(memcmp(a.states, b.states, N * sizeof(TinyState)) == 0);
    CHECK(a.stats.checksum == b.stats.checksum && a.stats.finished == b.stats.finished);
    tiny_batch_free(&a);
    tiny_batch_free(&b);
    vec_outputs_free(&out_a);
    vec_outputs_free(&out_b);
}

int main(void) {
    static const char *const MODES[] = {"same_step", "next_step", "disabled"};
    check_hidden_values();
    check_restore();
    for (int mode = AUTORESET_SAME_STEP; mode <= AUTORESET_DISABLED; mode++) {
        static Run runs[3];
        for (int k = 0; k < 3; k++) run_batch(k + 1, mode, 2024, &runs[k]);
        for (int k = 1; k < 3; k++) {
            /* Any thread count: the same outputs at every step, states and totals. */
            CHECK(runs[k].digest == runs[0].digest);
            CHECK(memcmp(runs[k].states, runs[0].states, sizeof(runs[0].states)) == 0);
            CHECK(memcmp(&runs[k].stats, &runs[0].stats, sizeof(VecTally)) == 0);
        }
        const Run *r = &runs[0];
        const VecTally *st = &r->stats;
        CHECK(st->finished == st->wins[0] + st->wins[1] + st->wins[2] + st->draws);
        CHECK(st->finished > 0 && st->wins[0] + st->wins[1] + st->wins[2] > 0 && st->draws > 0);
        CHECK(r->skipped_seat_acts > 0 && r->skipped_seat_odd_acts == 0 && r->odd_round_acts > 0);
        CHECK(r->high_cell_actions > 0 && r->illegal_played > 0);
        printf("%s: %d games x %d steps, threads 1/2/3 identical (digest %016llx): finished %lld "
               "(wins %lld/%lld/%lld, draws %lld, caps %lld); seat %d acted %lld times, never in an odd "
               "round; %lld actions from cells >= 128; %lld illegal actions lost\n",
               MODES[mode], N, STEPS, (unsigned long long)r->digest, (long long)st->finished,
               (long long)st->wins[0], (long long)st->wins[1], (long long)st->wins[2], (long long)st->draws,
               (long long)st->marked, TINY_SKIP_SEAT, (long long)r->skipped_seat_acts,
               (long long)r->high_cell_actions, (long long)r->illegal_played);
    }
    printf("ok\n");
    return 0;
}
