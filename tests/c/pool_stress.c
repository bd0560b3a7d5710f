/* pool_stress.c: the thread pool (csrc/engine/pool.c) from several caller threads at once, for
 * ThreadSanitizer (tests/test_pool.py and tests/tsan.py build it with -fsanitize=thread,
 * and any report fails the run). CALLERS threads each run many loops of varied sizes (0
 * to 5,000 games, at and around the chunk sizes) and thread counts (1 to 12, past the cap
 * on a small machine), and every index of every loop must run exactly once: a plain byte
 * an index counts, so two threads running one index is also a race that TSan reports.
 * Now and then a caller pauses past the idle period (STRATEGO_POOL_IDLE_MS, 2 ms here
 * unless set), so workers exit while other callers start loops and start new workers.
 * Every caller checks after each of its loops, and the first chunk of each loop checks
 * while it runs, that no more than the cap of workers are running; at the end every
 * worker must have left. First, several times over: once every worker has left, a loop
 * on 2 threads starts one, which must take part in that very loop (not wait for the next).
 *
 *   pool_stress [loops]   loops a caller (default 300); prints one line and "ok", or
 *                         names the failed check and exits 1.
 *   pool_stress race      a loop whose task races on purpose (one counter for all
 *                         games, unguarded): a TSan build must report it, which shows
 *                         the detector is armed.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/pool.h"

#define CHECK(cond)                                                                         \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            fprintf(stderr, "pool_stress: check failed at line %d: %s\n", __LINE__, #cond); \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

enum { CALLERS = 4, POOL_MAX_N = 5000, MAX_THREADS_ASKED = 12 };

static int loops_per_caller = 300;
static int cap; /* pool_max_threads() */

static void sleep_ms(int ms) {
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static uint64_t next_random(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

typedef struct {
    uint8_t *hits; /* a byte an index, written without atomics: each index runs once */
    int64_t work;  /* a little arithmetic an index, so that loops overlap */
} PoolJob;

static void count_task(void *ctx, int64_t begin, int64_t end) {
    PoolJob *job = ctx;
    for (int64_t i = begin; i < end; i++) {
        volatile uint64_t x = (uint64_t)i;
        for (int64_t k = 0; k < job->work; k++) x = x * 6364136223846793005ull + 1;
        job->hits[i]++;
    }
    /* While the loop runs, too: the cap holds at every moment, not only once joined. */
    if (begin == 0) CHECK(pool_workers() <= cap - 1);
}

typedef struct {
    pthread_t caller;
    atomic_int off_caller; /* chunks run by a worker */
} JoinLoop;

static void join_task(void *ctx, int64_t begin, int64_t end) {
    JoinLoop *loop = ctx;
    (void)begin, (void)end;
    if (!pthread_equal(pthread_self(), loop->caller)) atomic_fetch_add(&loop->off_caller, 1);
    /* Long enough a chunk (64 chunks, 1 ms each) for a started worker to claim some. */
    sleep_ms(1);
}

/* A worker started by a loop joins that loop: with none left (idle), a loop on 2 threads
 * starts one, which must run some of its chunks. Each size is a new loop to the pool's
 * pace (pool.h), whose first run has helpers. */
static void new_worker_joins(void) {
    for (int k = 0; k < 5; k++) {
        for (int wait = 0; wait < 2000 && pool_workers() > 0; wait++) sleep_ms(1);
        CHECK(pool_workers() == 0);
        JoinLoop loop = {pthread_self(), 0};
        pool_run(NULL, 2, 1024 + 16 * k, join_task, &loop);
        if (atomic_load(&loop.off_caller) == 0) {
            fprintf(stderr, "pool_stress: the worker started by loop %d did not take part in it\n", k);
            exit(1);
        }
    }
}

/* Sizes at the edges of the pool's rules: the caller alone (n at most a chunk, 16
 * games), chunk edges (16, 256), and random ones. */
static const int64_t EDGES[] = {0, 1, 15, 16, 17, 31, 32, 33, 255, 256, 257, 511, 1000, 4095, 4096, POOL_MAX_N};

static void *pool_caller(void *arg) {
    uint64_t rng = 0x9e3779b97f4a7c15ull * (uint64_t)(intptr_t)arg + 1;
    PoolJob job = {calloc(POOL_MAX_N, 1), 0};
    /* The caller's own paces, as a batch's: judged under the pool's lock while the other
     * callers run. */
    PoolPaces paces = {0};
    CHECK(job.hits != NULL);
    for (int loop = 0; loop < loops_per_caller; loop++) {
        uint64_t r = next_random(&rng);
        int64_t n = (r & 1) ? EDGES[(r >> 1) % (sizeof(EDGES) / sizeof(EDGES[0]))]
                            : (int64_t)((r >> 8) % (POOL_MAX_N + 1));
        int threads = 1 + (int)((r >> 20) % MAX_THREADS_ASKED);
        job.work = (int64_t)((r >> 32) % 8);
        pool_run(&paces, threads, n, count_task, &job);
        CHECK(pool_workers() <= cap - 1);
        for (int64_t i = 0; i < n; i++) {
            if (job.hits[i] != 1) {
                fprintf(stderr, "pool_stress: loop %d of %lld games on %d threads ran game %lld %d times\n", loop,
                        (long long)n, threads, (long long)i, job.hits[i]);
                exit(1);
            }
        }
        memset(job.hits, 0, (size_t)n);
        /* Past the idle period now and then: workers exit while the others run loops. */
        if ((r >> 40) % 16 == 0) sleep_ms(5);
    }
    free(job.hits);
    return NULL;
}

static int64_t race_total; /* deliberately unguarded: the race mode's shared counter */

static void race_task(void *ctx, int64_t begin, int64_t end) {
    (void)ctx;
    /* A chunk lasts long enough for the helpers to wake and claim chunks of their own
     * (and to pay, so that the pool keeps them: pool.h). */
    sleep_ms(1);
    for (int64_t i = begin; i < end; i++) race_total++;
}

int main(int argc, char **argv) {
    setenv("STRATEGO_POOL_IDLE_MS", "2", 0);
    cap = pool_max_threads();
    CHECK(cap >= 1 && cap <= POOL_MAX_THREADS);
    if (argc > 1 && strcmp(argv[1], "race") == 0) {
        /* Chunks of 16 games: 64 chunks a loop, enough for every helper to join. */
        for (int k = 0; k < 10; k++) pool_run(NULL, cap, 1024, race_task, NULL);
        printf("pool_stress race: %lld (no report means the detector is off)\n", (long long)race_total);
        return 0;
    }
    if (argc > 1) loops_per_caller = atoi(argv[1]);
    CHECK(loops_per_caller >= 1);
    new_worker_joins();
    pthread_t callers[CALLERS];
    for (int k = 0; k < CALLERS; k++) CHECK(pthread_create(&callers[k], NULL, pool_caller, (void *)(intptr_t)(k + 1)) == 0);
    for (int k = 0; k < CALLERS; k++) pthread_join(callers[k], NULL);
    CHECK(pool_workers() <= cap - 1);
    /* Idle, every worker leaves. */
    for (int wait = 0; wait < 2000 && pool_workers() > 0; wait++) sleep_ms(5);
    CHECK(pool_workers() == 0);
    printf("pool_stress: %d callers x %d loops, every game once; cap %d threads, no worker left idle\nok\n", CALLERS,
           loops_per_caller, cap);
    return 0;
}
