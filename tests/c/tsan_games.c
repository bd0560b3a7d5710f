/* tsan_games.c: both games' batches stepped from several caller threads at once, for
 * ThreadSanitizer (tests/tsan.py builds it with -fsanitize=thread; any report fails the
 * run). Each of CALLERS threads, at the same time as the others:
 *
 *  - steps a classic batch with observations and recording on 3 threads (the pool runs
 *    one loop at a time with helpers: the others run on their callers), then samples
 *    hidden-state worlds of every game on 3 threads: the same checksum, records (bytes
 *    and order) and worlds as on one thread;
 *  - steps a castle batch with observations on 3 threads: the same checksum as one.
 *
 * Workers leave after 2 ms asleep (STRATEGO_POOL_IDLE_MS, unless set), so they exit and
 * start again between the loops.
 *
 *   tsan_games [rounds]   rounds of the whole (default 1); prints one line and "ok", or
 *                         names the failed check and exits 1.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stratego/batch.h"
#include "castle/castle.h"
#include "castle/castle_observe.h"
#include "castle/castle_vec.h"
#include "stratego/init.h"
#include "engine/pool.h"
#include "stratego/record.h"
#include "stratego/sample.h"
#include "stratego/save.h"

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "tsan_games: check failed at line %d: %s\n", __LINE__, #cond); \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

enum { CALLERS = 4, CLASSIC_N = 160, CASTLE_N = 48, STEPS = 25, WORLDS = 3, GAME_THREADS = 3 };

/* ------------------------------------------------------------------ the classic batch */

typedef struct {
    uint64_t checksum;
    int64_t finished, records;
    uint64_t records_hash, worlds_hash;
} ClassicRun;

static uint64_t fnv(uint64_t h, const void *data, size_t len) {
    const uint8_t *p = data;
    for (size_t k = 0; k < len; k++) h = (h ^ p[k]) * 0x100000001b3ull;
    return h;
}

/* Steps a recording batch with observations on `threads` threads, then samples worlds
 * of every game on as many. */
static ClassicRun classic_run(int threads, uint64_t seed) {
    BatchConfig c;
    batch_config_default(&c, CLASSIC_N);
    c.record_capacity = record_capacity_bound(&c.rules);
    Batch b;
    BatchOutputs out;
    memset(&b, 0, sizeof(b));
    CHECK(batch_outputs_alloc(&c, &out) == 0 && batch_init(&b, &c, &out) == 0);
    int64_t *actions = malloc(CLASSIC_N * sizeof(int64_t));
    size_t world_bytes = save_game_bytes();
    uint8_t *worlds = calloc((size_t)CLASSIC_N * WORLDS, world_bytes);
    uint8_t *failed = calloc(CLASSIC_N, 1);
    CHECK(actions != NULL && worlds != NULL && failed != NULL);
    ClassicRun run = {0};
    batch_reset(&b, seed, threads);
    for (int t = 0; t < STEPS; t++) {
        batch_sample_actions(&b, actions, threads);
        CHECK(batch_step(&b, actions, ILLEGAL_RAISE, threads) == 0);
        /* The finished games' records, in the order they ended (whatever the threads). */
        run.records += recorder_waiting(&b.rec);
        run.records_hash = fnv(run.records_hash, b.rec.queue.data, b.rec.queue.len);
        recorder_clear_queue(&b.rec);
    }
    sample_games_worlds(b.states, CLASSIC_N, &b.rules, NULL, WORLDS, seed + 1, worlds, failed, threads);
    run.worlds_hash = fnv(fnv(0xcbf29ce484222325ull, worlds, (size_t)CLASSIC_N * WORLDS * world_bytes), failed,
                          CLASSIC_N);
    run.checksum = b.stats.checksum;
    run.finished = b.stats.games_finished;
    free(actions);
    free(worlds);
    free(failed);
    batch_free(&b);
    batch_outputs_free(&out);
    return run;
}

/* ------------------------------------------------------------------ the castle batch */

/* Steps a castle batch on `threads` threads; a hash of its totals (0 games finished is
 * a failed check: the run must reach the ends of games). */
static uint64_t castle_run(int threads, uint64_t seed) {
    CastleSettings cfg = castle_settings_default();
    cfg.max_plies = 120; /* every game ends within the run */
    VecShape shape = castle_batch_shape(CASTLE_N, &cfg, CASTLE_OBS_FORMAT_PLANES, 0);
    VecOutputs out;
    CastleBatch b;
    CHECK(vec_outputs_alloc(&shape, &out) == 0);
    CHECK(castle_batch_init(&b, CASTLE_N, &cfg, CASTLE_OBS_FORMAT_PLANES, 0, AUTORESET_SAME_STEP, &out) == 0);
    int64_t *actions = malloc(CASTLE_N * sizeof(int64_t));
    CHECK(actions != NULL);
    castle_batch_reset_some(&b, NULL, 1, seed, threads);
    for (int t = 0; t < 8 * STEPS; t++) {
        castle_batch_sample(&b, actions, threads);
        castle_batch_step(&b, actions, threads);
    }
    CHECK(b.stats.finished > 0);
    uint64_t checksum = fnv(fnv(b.stats.checksum, &b.stats.finished, sizeof(b.stats.finished)), &b.stats.plies,
                            sizeof(b.stats.plies));
    free(actions);
    castle_batch_free(&b);
    vec_outputs_free(&out);
    return checksum;
}

/* ------------------------------------------------------------------ callers */

typedef struct {
    int index;
    ClassicRun classic;
    uint64_t castle;
} GameCaller;

static void *game_caller(void *arg) {
    GameCaller *c = arg;
    uint64_t seed = 100 + (uint64_t)c->index;
    c->classic = classic_run(GAME_THREADS, seed);
    c->castle = castle_run(GAME_THREADS, seed);
    return NULL;
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 1;
    CHECK(rounds >= 1);
    /* Workers leave after 2 ms asleep (unless the caller set it): the exits and the
     * restarts run many times, alongside loops. */
    setenv("STRATEGO_POOL_IDLE_MS", "2", 0);
    /* The engines' tables, once before any thread (castle.h, init.h). */
    stratego_init();
    castle_init();
    castle_obs_frames();
    int cap = pool_max_threads();
    CHECK(cap >= 1 && cap <= POOL_MAX_THREADS);
    /* What one thread gives, for each caller's seed. */
    ClassicRun want_classic[CALLERS];
    uint64_t want_castle[CALLERS];
    for (int k = 0; k < CALLERS; k++) {
        want_classic[k] = classic_run(1, 100 + (uint64_t)k);
        want_castle[k] = castle_run(1, 100 + (uint64_t)k);
    }
    CHECK(want_classic[0].finished > 0 && want_classic[0].records == want_classic[0].finished);
    for (int round = 0; round < rounds; round++) {
        pthread_t game_threads[CALLERS];
        GameCaller games[CALLERS];
        for (int k = 0; k < CALLERS; k++) {
            games[k] = (GameCaller){.index = k};
            CHECK(pthread_create(&game_threads[k], NULL, game_caller, &games[k]) == 0);
        }
        for (int k = 0; k < CALLERS; k++) pthread_join(game_threads[k], NULL);
        for (int k = 0; k < CALLERS; k++) {
            CHECK(games[k].classic.checksum == want_classic[k].checksum);
            CHECK(games[k].classic.finished == want_classic[k].finished);
            CHECK(games[k].classic.records == want_classic[k].records);
            CHECK(games[k].classic.records_hash == want_classic[k].records_hash);
            CHECK(games[k].classic.worlds_hash == want_classic[k].worlds_hash);
            CHECK(games[k].castle == want_castle[k]);
        }
        CHECK(pool_workers() <= cap - 1);
    }
    printf("tsan_games: %d round(s) of %d callers each stepping a classic batch (recording, sampling worlds) "
           "and a castle batch on %d threads; cap %d threads\nok\n",
           rounds, CALLERS, GAME_THREADS, cap);
    return 0;
}
