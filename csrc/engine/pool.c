#define _GNU_SOURCE /* pthread_sigmask, clock_gettime, sched_getaffinity */
#include "pool.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#ifdef __SSE2__
#include <emmintrin.h>
#define cpu_relax() _mm_pause()
#else
#define cpu_relax() ((void)0)
#endif

#define CLAIM_CLOSED 0xFFFFFFFFull
/* A job's end is stored in the claim's index field, and the closed mark must stay above
 * every index a job hands out (pool.h). */
_Static_assert(POOL_MAX_GAMES < (int64_t)CLAIM_CLOSED, "the closed mark must be above every game index");

/* How long a thread spins before it sleeps: while it spins it wakes within a
 * microsecond, and a batch's next call (sample, then step) usually comes within tens of
 * microseconds; after it, the core goes to whatever else wants it. Measured on 2 cores
 * at 4,096 games (benchmarks/README.md): 50 us keeps 2 threads at 1.9x on an idle machine. */
static long spin_ns = 50000;

/* How long a worker sleeps without work before it exits (pool.h), and the most threads a
 * loop runs on; both set once by pool_init. */
static int64_t idle_ns = (int64_t)POOL_IDLE_EXIT_MS * 1000000;
static int max_threads = 1;

/* A worker's own place to sleep, so that a loop wakes only the helpers it counts on (a
 * broadcast woke every worker for every loop, and those above the loop's helpers went
 * back to sleep: a wake-up and a context switch each, for nothing), and a worker that
 * leaves wakes only the one below it, the next that may leave. Slot i belongs to worker
 * i; its condition variable is made when the first worker of that index starts.
 * start_generation is the generation a new worker starts from, the one before the job of
 * the loop that starts it (pool_grow writes it under run_lock, so it cannot change before
 * that job is published): reading the claim when its thread starts would usually see that
 * job published already, and the worker would sit out the loop it was started for. It is
 * rewritten only for a new worker of that index, after the one before it has left. */
typedef struct {
    pthread_cond_t wake;
    int sleeping; /* inside pthread_cond_(timed)wait(wake); guarded by pool.lock */
    uint32_t start_generation;
} PoolSlot;
static PoolSlot slots[POOL_MAX_THREADS];
static int slots_made; /* slots whose condition variable exists; guarded by pool.lock */

/* One loop at a time. `claim` packs the job's generation (high 32 bits) with the next
 * unclaimed game (low 32 bits; n <= POOL_MAX_GAMES, which pool_run checks): a worker
 * claims a chunk with a CAS that fails once the caller has moved to another job, so a
 * worker that slept through a job never touches the next job's games under the old
 * one's task. The caller closes the claim under the new generation (index CLAIM_CLOSED)
 * before it writes the job's fields and opens it after, all sequentially consistent: a
 * worker that read a newer job's field then sees the newer generation, and its CAS fails. */
static struct {
    pthread_mutex_t run_lock; /* held by the caller of the running loop */
    pthread_mutex_t lock;     /* guards the sleeps, the slots, `workers` and `loop_helpers` */
    pthread_cond_t done;      /* the caller waits here for the last chunk */
    int caller_sleeping;
    int workers;              /* threads running: indices 0..workers-1 */
    int loop_helpers;         /* helpers of the loop being run, from pool_grow to its end; else 0 */
    int held_idle;            /* workers past their idle period kept for that loop */
    _Atomic uint64_t claim;
    _Atomic(PoolTask) task;
    _Atomic(void *) ctx;
    _Atomic int64_t n, chunk;
    _Atomic int helpers;       /* workers with an index below this take part */
    _Atomic int64_t finished;  /* games done in the current job */
    uint32_t forks;            /* fork()ed children this process descends from (PoolPaces) */
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER};

static uint64_t claim_generation(uint64_t claim) { return claim >> 32; }

/* Loops run each way (pool_loops); guarded by run_lock. */
static int64_t loops_parallel, loops_alone;

int pool_pace_alone(PoolPace *p, int64_t n) {
    p->loops++;
    int alone;
    if (p->parallel_ns <= 0) {
        alone = 0; /* measure each way once first */
    } else if (p->alone_ns <= 0) {
        alone = 1;
    } else {
        /* Alone only when the helpers clearly cost, in a loop long enough for it to
         * matter: otherwise the helpers stay, since a loop run alone lets them fall
         * asleep and the next loop (the step after its sampling) waits for them to wake;
         * a helper descheduled in a loop makes it milliseconds long. */
        alone = p->parallel_ns * (double)n > POOL_PACE_SHORT_NS && p->parallel_ns > POOL_PACE_MARGIN * p->alone_ns;
        /* Now and then the other way, so that its pace follows the machine's load. */
        if (p->loops % POOL_PACE_PROBE == 0) alone = !alone;
    }
    return alone;
}

void pool_pace_record(PoolPace *p, int alone, int64_t ns, int64_t n) {
    double per_game = (double)ns / (double)(n > 0 ? n : 1);
    double *pace = alone ? &p->alone_ns : &p->parallel_ns;
    /* A running mean over about the last 8 loops: quick to follow a change of load, slow
     * to follow one odd loop. */
    *pace = *pace <= 0 ? per_game : *pace + (per_game - *pace) / 8;
}

/* The pace of this loop (a task, its number of games and thread count; not its context,
 * often the caller's stack) among the caller's; called with run_lock held. Paces measured
 * before a fork() are of the parent's helpers and load: the child starts them afresh,
 * its first loops with helpers of its own (which also starts them). */
static PoolPace *pace_of(PoolPaces *paces, PoolTask task, int64_t n, int num_threads) {
    if (paces->forks != pool.forks) *paces = (PoolPaces){.forks = pool.forks};
    for (int k = 0; k < POOL_PACE_LOOPS; k++) {
        PoolPace *p = &paces->loop[k];
        if (p->task == task && p->n == n && p->num_threads == num_threads) return p;
    }
    PoolPace *p = &paces->loop[paces->next++ % POOL_PACE_LOOPS];
    *p = (PoolPace){.task = task, .n = n, .num_threads = num_threads};
    return p;
}

/* A condition variable on the monotonic clock that a worker's idle deadline is measured
 * on (a change of the wall clock must not stretch or cut it). */
static void pool_cond_init(pthread_cond_t *cond) {
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(cond, &attr);
    pthread_condattr_destroy(&attr);
}

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Spins until done(arg) or spin_ns have passed; whether done. Checks the clock every 64
 * pauses, a few hundred nanoseconds. */
static int spin_until(int (*done)(const void *), const void *arg) {
    if (done(arg)) return 1;
    int64_t until = now_ns() + spin_ns;
    for (;;) {
        for (int i = 0; i < 64; i++) {
            cpu_relax();
            if (done(arg)) return 1;
        }
        if (now_ns() >= until) return done(arg);
    }
}

/* The claim once the job of `generation` is open: the caller may still be writing the
 * job's fields (its helpers, task and size) under the closed claim. Returns at once when
 * another generation has come. */
static uint64_t claim_opened(uint64_t generation) {
    uint64_t seen = atomic_load(&pool.claim);
    while (claim_generation(seen) == generation && (seen & CLAIM_CLOSED) == CLAIM_CLOSED) {
        cpu_relax();
        seen = atomic_load(&pool.claim);
    }
    return seen;
}

/* Claims and runs chunks of the job of `generation` until none is left. */
static void pool_work(uint64_t generation) {
    uint64_t seen = claim_opened(generation);
    PoolTask task = atomic_load(&pool.task);
    void *ctx = atomic_load(&pool.ctx);
    int64_t n = atomic_load(&pool.n);
    int64_t chunk = atomic_load(&pool.chunk);
    for (;;) {
        if (claim_generation(seen) != generation) return;
        int64_t begin = (int64_t)(seen & 0xFFFFFFFFu);
        if (begin >= n) return;
        int64_t end = begin + chunk < n ? begin + chunk : n;
        uint64_t next = (generation << 32) | (uint64_t)end;
        if (!atomic_compare_exchange_weak(&pool.claim, &seen, next)) continue;
        task(ctx, begin, end);
        int64_t total = atomic_fetch_add_explicit(&pool.finished, end - begin, memory_order_acq_rel) + (end - begin);
        if (total == n) {
            /* The last chunk: wake the caller if it sleeps (under the lock it checks
             * `finished` under, so the wake-up cannot fall between its check and its wait). */
            pthread_mutex_lock(&pool.lock);
            if (pool.caller_sleeping) pthread_cond_signal(&pool.done);
            pthread_mutex_unlock(&pool.lock);
        }
        seen = next;
    }
}

typedef struct {
    uint64_t generation;
} Seen;

static int new_job(const void *arg) {
    const Seen *s = arg;
    return claim_generation(atomic_load_explicit(&pool.claim, memory_order_acquire)) != s->generation;
}

/* Sleeps until a new job comes; 0 instead when the worker has had no work for the idle
 * period since `last_work` (its last loop, or its start) and is the highest-indexed one
 * left: it has then left the pool and must return. Idle counts from the last loop it
 * took part in, not from its last wake-up: a worker above a loop's helpers (started for
 * 8 threads, now asked for 2) is not woken for that loop, but may see it while it spins
 * and does no work in it. Workers leave from the top down, so the ones left are always
 * 0..workers-1 (pool_grow gives a new one the next index); each that leaves wakes the one
 * below it, so that those idle as long follow it at once. A worker among the helpers
 * of the loop being run (counted by pool_grow, before the loop's job is published) is
 * not idle: it stays until that loop ends, so that a loop never loses a helper it
 * counted on, however short the idle period. */
static int pool_sleep(int index, const Seen *seen, int64_t last_work) {
    int64_t deadline = last_work + idle_ns;
    struct timespec until = {(time_t)(deadline / 1000000000), (long)(deadline % 1000000000)};
    int idle_over = 0, stay = 1;
    PoolSlot *slot = &slots[index];
    pthread_mutex_lock(&pool.lock);
    slot->sleeping = 1;
    while (!new_job(seen)) {
        if (idle_over && index == pool.workers - 1 && index < pool.loop_helpers) {
            /* The loop's end (pool_loop_end) wakes it to look again. */
            pool.held_idle++;
            pthread_cond_wait(&slot->wake, &pool.lock);
            pool.held_idle--;
            continue;
        }
        if (idle_over && index == pool.workers - 1) {
            pool.workers--;
            if (index > 0 && slots[index - 1].sleeping) pthread_cond_signal(&slots[index - 1].wake);
            stay = 0;
            break;
        }
        /* Past its idle period a worker that is not the highest waits for the one above
         * it to leave (or for work), without a deadline. */
        if (idle_over) pthread_cond_wait(&slot->wake, &pool.lock);
        else idle_over = pthread_cond_timedwait(&slot->wake, &pool.lock, &until) == ETIMEDOUT;
    }
    slot->sleeping = 0;
    pthread_mutex_unlock(&pool.lock);
    return stay;
}

static void *pool_worker(void *arg) {
    int index = (int)(intptr_t)arg;
    pthread_mutex_lock(&pool.lock);
    Seen seen = {slots[index].start_generation};
    pthread_mutex_unlock(&pool.lock);
    int64_t last_work = now_ns();
    for (;;) {
        if (!spin_until(new_job, &seen) && !pool_sleep(index, &seen, last_work)) return NULL;
        seen.generation = claim_generation(atomic_load_explicit(&pool.claim, memory_order_acquire));
        /* The job's helper count is written while its claim is closed: read before the
         * claim opens, it may still be the last job's (0 for a pool's first job), and a
         * worker started for this job would sit it out. */
        claim_opened(seen.generation);
        if (index < atomic_load_explicit(&pool.helpers, memory_order_relaxed)) {
            pool_work(seen.generation);
            last_work = now_ns();
        }
    }
    return NULL;
}

/* Starts workers up to `want`, with every signal blocked (Python handles signals in its
 * main thread), and counts the first `want` as the helpers of the loop about to run (none
 * leaves before it ends). Returns how many there are. Called with run_lock held, before
 * the loop's job is published: each new worker starts from the generation before it, so
 * that it joins that job. Takes `lock`, so that no worker leaves while the indices are
 * handed out. */
static int pool_grow(int want) {
    pthread_mutex_lock(&pool.lock);
    pool.loop_helpers = want;
    if (pool.workers >= want) {
        int workers = pool.workers;
        pthread_mutex_unlock(&pool.lock);
        return workers;
    }
    uint32_t generation = (uint32_t)claim_generation(atomic_load(&pool.claim));
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    /* The tasks use little stack: a game's view and a few move lists. */
    pthread_attr_setstacksize(&attr, 1 << 20);
    while (pool.workers < want) {
        pthread_t t;
        if (pool.workers == slots_made) {
            pool_cond_init(&slots[slots_made].wake);
            slots_made++;
        }
        slots[pool.workers].start_generation = generation;
        if (pthread_create(&t, &attr, pool_worker, (void *)(intptr_t)pool.workers) != 0) break;
        pool.workers++;
    }
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    int workers = pool.workers;
    pthread_mutex_unlock(&pool.lock);
    return workers;
}

/* The loop's helpers may be idle again: those kept past their idle period look again. */
static void pool_loop_end(void) {
    pthread_mutex_lock(&pool.lock);
    pool.loop_helpers = 0;
    /* Only the highest worker can be held (pool_sleep). */
    if (pool.held_idle > 0) pthread_cond_signal(&slots[pool.workers - 1].wake);
    pthread_mutex_unlock(&pool.lock);
}

static int job_done(const void *arg) {
    return atomic_load_explicit(&pool.finished, memory_order_acquire) == *(const int64_t *)arg;
}

/* fork(): the prepare handler waits for a running loop to end, so the child copies a
 * pool at rest; the child has none of the parent's threads, so it starts with none. */
static void pool_before_fork(void) {
    pthread_mutex_lock(&pool.run_lock);
    pthread_mutex_lock(&pool.lock);
}

static void pool_after_fork_parent(void) {
    pthread_mutex_unlock(&pool.lock);
    pthread_mutex_unlock(&pool.run_lock);
}


static void pool_after_fork_child(void) {
    pthread_mutex_unlock(&pool.lock);
    pthread_mutex_unlock(&pool.run_lock);
    /* The parent's sleepers are not here; their condition variables are made anew. */
    pool_cond_init(&pool.done);
    for (int i = 0; i < slots_made; i++) {
        pool_cond_init(&slots[i].wake);
        slots[i].sleeping = 0;
    }
    pool.caller_sleeping = 0;
    pool.workers = 0;
    pool.loop_helpers = 0;
    pool.held_idle = 0;
    /* The parent's paces were of its helpers and its machine's load (pace_of). */
    pool.forks++;
    loops_parallel = loops_alone = 0;
}

static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

/* The CPUs this process may run on: its affinity mask, or the online CPUs where that
 * cannot be read (more CPUs than a cpu_set_t holds). */
static int pool_cpus(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? (int)(online < POOL_MAX_THREADS ? online : POOL_MAX_THREADS) : 1;
}

/* The environment variable `name` as a whole decimal number in [lo, hi], into *value;
 * else (unset, empty, "5s", out of range) *value is left as it was: a setting for tests
 * and benchmarks, and the core has no channel to warn on (pool.h). */
static void env_long(const char *name, long lo, long hi, long *value) {
    const char *text = getenv(name);
    if (text == NULL || text[0] == '\0') return;
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno == 0 && *end == '\0' && v >= lo && v <= hi) *value = v;
}

static void pool_init(void) {
    long us = spin_ns / 1000, ms = (long)(idle_ns / 1000000);
    env_long("STRATEGO_SPIN_US", 0, 1000000, &us);
    env_long("STRATEGO_POOL_IDLE_MS", 1, 3600000, &ms);
    spin_ns = us * 1000;
    idle_ns = (int64_t)ms * 1000000;
    int64_t cap = (int64_t)pool_cpus() * POOL_THREADS_PER_CPU;
    max_threads = cap < POOL_MAX_THREADS ? (int)cap : POOL_MAX_THREADS;
    pool_cond_init(&pool.done);
    pthread_atfork(pool_before_fork, pool_after_fork_parent, pool_after_fork_child);
}

int pool_max_threads(void) {
    pthread_once(&pool_once, pool_init);
    return max_threads;
}

int pool_workers(void) {
    pthread_once(&pool_once, pool_init);
    pthread_mutex_lock(&pool.lock);
    int workers = pool.workers;
    pthread_mutex_unlock(&pool.lock);
    return workers;
}

/* Chunks of about 1/32 of a thread's share, at least 16 games (a chunk costs one atomic
 * claim) and at most 256: a descheduled thread holds up the others for at most the chunk
 * it has claimed. */
static int64_t pool_chunk(int num_threads, int64_t n) {
    int64_t chunk = n / ((int64_t)num_threads * 32);
    return chunk < 16 ? 16 : chunk > 256 ? 256 : chunk;
}

#ifdef STRATEGO_POOL_OPENMP
/* The benchmark-only build (make -C csrc OPENMP=1, docs/performance.md "The pool against
 * OpenMP"): the same loops, chunks and cap under OpenMP's dynamic schedule, each chunk
 * handed to the next thread that asks, and on the caller alone where the pool always
 * runs alone (one thread, a loop of one chunk). No pace: OpenMP has no such rule. The
 * extension (setup.py) never defines it, and so never links libgomp. */
static void pool_run_openmp(int num_threads, int64_t n, PoolTask task, void *ctx) {
    int64_t chunk = pool_chunk(num_threads, n), chunks = (n + chunk - 1) / chunk;
#pragma omp parallel for schedule(dynamic) num_threads(num_threads) if (num_threads > 1 && n > chunk)
    for (int64_t c = 0; c < chunks; c++) {
        int64_t begin = c * chunk;
        task(ctx, begin, begin + chunk < n ? begin + chunk : n);
    }
}
#endif

void pool_run(PoolPaces *paces, int num_threads, int64_t n, PoolTask task, void *ctx) {
    if (n > POOL_MAX_GAMES) {
        fprintf(stderr, "pool_run: a loop of %lld games is more than the pool hands out (POOL_MAX_GAMES = %lld)\n",
                (long long)n, (long long)POOL_MAX_GAMES);
        abort();
    }
    pthread_once(&pool_once, pool_init);
    if (num_threads > max_threads) num_threads = max_threads;
#ifdef STRATEGO_POOL_OPENMP
    (void)paces;
    pool_run_openmp(num_threads < 1 ? 1 : num_threads, n, task, ctx);
    return;
#endif
    int64_t chunk = pool_chunk(num_threads, n);
    if (num_threads <= 1 || n <= chunk || pthread_mutex_trylock(&pool.run_lock) != 0) {
        task(ctx, 0, n);
        return;
    }
    PoolPace *pace = paces ? pace_of(paces, task, n, num_threads) : NULL;
    int64_t start = now_ns();
    if (pace && pool_pace_alone(pace, n)) { /* the helpers have not paid lately: alone */
        task(ctx, 0, n);
        pool_pace_record(pace, 1, now_ns() - start, n);
        loops_alone++;
        pthread_mutex_unlock(&pool.run_lock);
        return;
    }
    int helpers = pool_grow(num_threads - 1);
    if (helpers > num_threads - 1) helpers = num_threads - 1;
    if (helpers == 0) {
        pool_loop_end();
        pthread_mutex_unlock(&pool.run_lock);
        task(ctx, 0, n);
        return;
    }
    uint64_t generation = (claim_generation(atomic_load(&pool.claim)) + 1) & 0xFFFFFFFFu;
    atomic_store(&pool.claim, generation << 32 | CLAIM_CLOSED);
    atomic_store(&pool.task, task);
    atomic_store(&pool.ctx, ctx);
    atomic_store(&pool.n, n);
    atomic_store(&pool.chunk, chunk);
    atomic_store(&pool.helpers, helpers);
    atomic_store(&pool.finished, 0);
    atomic_store(&pool.claim, generation << 32);
    /* Wakes the loop's helpers that sleep, and no other worker. */
    pthread_mutex_lock(&pool.lock);
    for (int i = 0; i < helpers; i++) {
        if (slots[i].sleeping) pthread_cond_signal(&slots[i].wake);
    }
    pthread_mutex_unlock(&pool.lock);
    pool_work(generation);
    if (!spin_until(job_done, &n)) {
        pthread_mutex_lock(&pool.lock);
        pool.caller_sleeping = 1;
        while (!job_done(&n)) pthread_cond_wait(&pool.done, &pool.lock);
        pool.caller_sleeping = 0;
        pthread_mutex_unlock(&pool.lock);
    }
    pool_loop_end();
    if (pace) pool_pace_record(pace, 0, now_ns() - start, n);
    loops_parallel++;
    pthread_mutex_unlock(&pool.run_lock);
}

void pool_loops(int64_t *parallel, int64_t *alone) {
    pthread_once(&pool_once, pool_init);
    pthread_mutex_lock(&pool.run_lock);
    *parallel = loops_parallel;
    *alone = loops_alone;
    pthread_mutex_unlock(&pool.run_lock);
}
