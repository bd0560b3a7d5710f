/* pool_main.c: the thread pool's rule for helpers that do not pay (pool.h), as a rule
 * and in a real loop whose helper is held up as a descheduled thread is; two callers of
 * the same loop judged apart, each by its own paces, afresh in a fork()ed child; a loop
 * that wants one helper wakes that one and no other worker. Exit 0 when every check
 * holds; each failure printed.
 *
 *   pool_main [rule|paces|wake]   every check above but fork, or one group
 *   pool_main fork                the paces in a fork()ed child (not under TSan)
 *   pool_main too-many            a loop of POOL_MAX_GAMES + 1 games, which pool_run must refuse
 *                                 with its message and abort() (it prints "ran" and
 *                                 exits 1 if not)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

static void run(PoolPaces *paces, Loop *loop, int hold) {
    loop->caller = pthread_self();
    loop->hold_helpers = hold;
    atomic_store(&loop->off_caller, 0);
    atomic_store(&loop->games, 0);
    pool_run(paces, 2, 4096, task, loop);
    CHECK(atomic_load(&loop->games) == 4096);
}

static void loops(int64_t *parallel, int64_t *alone) { pool_loops(parallel, alone); }

static void real_loop(void) {
    Loop loop;
    PoolPaces paces = {0};
    int64_t par0, alone0, par1, alone1;
    loops(&par0, &alone0);
    /* A helper held 50 ms a chunk: after a loop each way, the pool runs this loop alone,
     * trying the helpers again once in POOL_PACE_PROBE loops. */
    int helped = 0;
    for (int k = 0; k < 2 * POOL_PACE_PROBE; k++) {
        run(&paces, &loop, 50);
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

/* Games that sleep (a millisecond a chunk of 16): a loop of them pays for its helper on
 * any machine (the caller alone would sleep through every game in turn), unless its
 * helpers are held (hold_ms). */
typedef struct {
    pthread_t caller;
    int hold_ms;
    atomic_int off_caller; /* chunks run by a helper */
} SleepLoop;

static void sleep_task(void *ctx, int64_t begin, int64_t end) {
    SleepLoop *loop = ctx;
    if (!pthread_equal(pthread_self(), loop->caller)) {
        atomic_fetch_add(&loop->off_caller, 1);
        if (loop->hold_ms) sleep_ms(loop->hold_ms);
    }
    struct timespec t = {0, (long)(end - begin) * 62500L};
    nanosleep(&t, NULL);
}

/* Whether a loop of 64 games (4 chunks of 16) on 2 threads had a helper take a chunk. */
static int sleep_loop(PoolPaces *paces, int hold_ms) {
    SleepLoop loop = {pthread_self(), hold_ms, 0};
    pool_run(paces, 2, 64, sleep_task, &loop);
    return atomic_load(&loop.off_caller) > 0;
}

/* Two callers of the same task, games and threads (two batches of one size), one whose
 * helpers are held 20 ms a chunk and one whose helpers pay: each is judged by its own
 * paces, so the first runs alone and the second keeps its helper. With one table for
 * the process, the held loops' pace made both run alone. */
static void paces_apart(void) {
    PoolPaces held = {0}, paying = {0};
    int held_helped = 0, paying_helped = 0;
    enum { LOOPS = POOL_PACE_PROBE };
    for (int k = 0; k < LOOPS; k++) {
        held_helped += sleep_loop(&held, 20);
        paying_helped += sleep_loop(&paying, 0);
    }
    printf("same loop, own paces: held helpers in %d of %d loops, paying ones in %d\n", held_helped, LOOPS,
           paying_helped);
    CHECK(held_helped <= LOOPS / 4);
    CHECK(paying_helped >= LOOPS / 2);
}

/* A fork()ed child's paces are its own: the parent's judgement of a loop (its helpers,
 * its load) is dropped, and the child's first loop is the first measured. Not under
 * ThreadSanitizer, which refuses a thread started after a multi-threaded fork. */
static void paces_after_fork(void) {
    PoolPaces held = {0};
    sleep_loop(&held, 20); /* measured with helpers, then alone */
    sleep_loop(&held, 20);
    pid_t child = fork();
    if (child == 0) {
        sleep_loop(&held, 0);
        int fresh = 0;
        for (int k = 0; k < POOL_PACE_LOOPS; k++) {
            const PoolPace *p = &held.loop[k];
            fresh += p->task == sleep_task && p->loops == 1 && p->alone_ns == 0 && p->parallel_ns > 0;
        }
        _exit(fresh == 1 ? 0 : 1);
    }
    int status = -1;
    CHECK(child > 0 && waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Voluntary context switches (sleeps) of each thread of this process but the caller. */
enum { MAX_TASKS = 64 };
static int thread_sleeps(long *tids, long *sleeps) {
    DIR *dir = opendir("/proc/self/task");
    if (dir == NULL) return -1;
    long self = (long)syscall(SYS_gettid);
    int count = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL && count < MAX_TASKS) {
        long tid = strtol(e->d_name, NULL, 10);
        if (tid <= 0 || tid == self) continue;
        char path[64], line[128];
        snprintf(path, sizeof(path), "/proc/self/task/%ld/status", tid);
        FILE *f = fopen(path, "r");
        if (f == NULL) continue;
        while (fgets(line, sizeof(line), f)) {
            if (strncmp(line, "voluntary_ctxt_switches:", 24) == 0) {
                tids[count] = tid;
                sleeps[count++] = strtol(line + 24, NULL, 10);
            }
        }
        fclose(f);
    }
    closedir(dir);
    return count;
}

/* A loop counts on its helpers and wakes only them: with three workers asleep (started
 * by a loop on 4 threads), loops on 2 threads wake worker 0 alone, and the two above it
 * sleep through them (a broadcast woke all three every loop, and two went back to sleep:
 * a context switch each, for nothing). */
static void wake_only_helpers(void) {
    SleepLoop first = {pthread_self(), 0, 0};
    pool_run(NULL, 4, 64, sleep_task, &first);
    sleep_ms(20); /* past every worker's spin: all asleep */
    long tids[MAX_TASKS], before[MAX_TASKS], tids_after[MAX_TASKS], after[MAX_TASKS];
    int n_before = thread_sleeps(tids, before);
    CHECK(n_before >= 3);
    enum { LOOPS = 40 };
    int helped = 0;
    for (int k = 0; k < LOOPS; k++) helped += sleep_loop(NULL, 0);
    int n_after = thread_sleeps(tids_after, after);
    int woken = 0; /* threads that slept again in at least half the loops */
    for (int i = 0; i < n_after; i++) {
        for (int j = 0; j < n_before; j++) {
            if (tids[j] == tids_after[i] && after[i] - before[j] >= LOOPS / 2) woken++;
        }
    }
    printf("loops on 2 threads with 3 workers: %d threads woke for them, a helper took chunks in %d of %d\n",
           woken, helped, LOOPS);
    CHECK(woken <= 1);
    CHECK(helped >= LOOPS / 2);
}

static void count_games(void *ctx, int64_t begin, int64_t end) { *(int64_t *)ctx += end - begin; }

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "too-many") == 0) {
        int64_t games = 0;
        pool_run(NULL, 2, POOL_MAX_GAMES + 1, count_games, &games);
        printf("ran %lld games\n", (long long)games);
        return 1;
    }
    const char *only = argc > 1 ? argv[1] : "";
    /* The largest loop the claim word holds is run (here on the caller alone). */
    int64_t games = 0;
    pool_run(NULL, 1, POOL_MAX_GAMES, count_games, &games);
    CHECK(games == POOL_MAX_GAMES);
    if (!*only || strcmp(only, "wake") == 0) wake_only_helpers();
    if (!*only || strcmp(only, "rule") == 0) {
        rule();
        real_loop();
    }
    if (!*only || strcmp(only, "paces") == 0) paces_apart();
    if (strcmp(only, "fork") == 0) paces_after_fork();
    if (failures == 0) printf("pool: all checks passed\n");
    return failures != 0;
}
