/* pool_main.c: the thread pool's rule for helpers that do not pay (pool.h), as a rule
 * and in a real loop whose helper is held up as a descheduled thread is. Exit 0 when
 * every check holds; each failure printed. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include "engine/pool.h"

static int failures;
#define CHECK(cond)                                                   \
    do {                                                              \
        if (!(cond)) {                                                \
            printf("FAIL line %d: %s\n", __LINE__, #cond);           \
            failures++;                                               \
        }                                                             \
    } while (0)

/* Games of the made-up loops: long enough to be judged (POOL_PACE_SHORT_NS) at 2-4 ns
 * a game. */
#define N 1000000

static void rule(void) {
    PoolPace p = {0};
    /* Measured each way once first: with helpers, then alone. */
    CHECK(pool_pace_alone(&p, N) == 0);
    pool_pace_record(&p, 0, 400, 100); /* 4 ns a game with helpers */
    CHECK(pool_pace_alone(&p, N) == 1);
    pool_pace_record(&p, 1, 200, 100); /* 2 ns a game alone: the helpers cost */
    CHECK(p.parallel_ns == 4.0 && p.alone_ns == 2.0);
    /* Then the faster way, but one loop in POOL_PACE_PROBE the other. */
    int alone = 0, probes = 0;
    for (int k = 0; k < 10 * POOL_PACE_PROBE; k++) {
        if (pool_pace_alone(&p, N)) alone++;
        else probes++;
    }
    CHECK(probes == 10 && alone == 10 * POOL_PACE_PROBE - 10);
    /* A running mean: one odd loop moves it an eighth of the way. */
    pool_pace_record(&p, 1, 1000, 100);
    CHECK(p.alone_ns == 2.0 + (10.0 - 2.0) / 8);
    /* Near paces keep the helpers: alone only past POOL_PACE_MARGIN. */
    PoolPace q = {.parallel_ns = 2.4, .alone_ns = 2.0, .loops = 1};
    CHECK(pool_pace_alone(&q, N) == 0);
    q.parallel_ns = 2.6;
    CHECK(pool_pace_alone(&q, N) == 1);
    /* A short loop keeps its helpers however they pace. */
    CHECK(pool_pace_alone(&q, 1000) == 0);
    /* Helpers that pay again win back their loops as their pace is measured. */
    for (int k = 0; k < 40; k++) pool_pace_record(&p, 0, 100, 100);
    CHECK(p.parallel_ns < p.alone_ns);
    p.loops = 1;
    CHECK(pool_pace_alone(&p, N) == 0);
}

typedef struct {
    pthread_t caller;
    int hold_helpers;         /* a helper's chunk sleeps this many ms, as if descheduled */
    atomic_int off_caller;    /* chunks run by a helper */
    atomic_long games;
} Loop;

static void sleep_ms(int ms) {
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static void task(void *ctx, int64_t begin, int64_t end) {
    Loop *loop = ctx;
    if (!pthread_equal(pthread_self(), loop->caller)) {
        atomic_fetch_add(&loop->off_caller, 1);
        if (loop->hold_helpers) sleep_ms(loop->hold_helpers);
    }
    /* About a microsecond a game, so that a helper claims chunks before the caller is done. */
    for (int64_t i = begin; i < end; i++) {
        struct timespec t;
        for (int k = 0; k < 20; k++) clock_gettime(CLOCK_MONOTONIC, &t);
    }
    atomic_fetch_add(&loop->games, end - begin);
}

static void run(Loop *loop, int hold) {
    loop->caller = pthread_self();
    loop->hold_helpers = hold;
    atomic_store(&loop->off_caller, 0);
    atomic_store(&loop->games, 0);
    pool_run(2, 4096, task, loop);
    CHECK(atomic_load(&loop->games) == 4096);
}

static void loops(int64_t *parallel, int64_t *alone) { pool_loops(parallel, alone); }

static void real_loop(void) {
    Loop loop;
    int64_t par0, alone0, par1, alone1;
    loops(&par0, &alone0);
    /* A helper held 50 ms a chunk: after a loop each way, the pool runs this loop alone,
     * trying the helpers again once in POOL_PACE_PROBE loops. */
    int helped = 0;
    for (int k = 0; k < 2 * POOL_PACE_PROBE; k++) {
        run(&loop, 50);
        helped += atomic_load(&loop.off_caller) > 0;
    }
    loops(&par1, &alone1);
    CHECK(par1 + alone1 - par0 - alone0 == 2 * POOL_PACE_PROBE);
    /* The first loop and the probes have helpers (3 loops on a quiet machine); on a
     * loaded one a caller descheduled in its own loop makes running alone look slow for
     * a while, so the check is that most loops ran alone. */
    CHECK(alone1 - alone0 >= 3 * POOL_PACE_PROBE / 2);
    CHECK(helped <= POOL_PACE_PROBE / 2);
    printf("held loops: %lld with helpers, %lld alone\n", (long long)(par1 - par0), (long long)(alone1 - alone0));
}

int main(void) {
    rule();
    real_loop();
    if (failures == 0) printf("pool: all checks passed\n");
    return failures != 0;
}
