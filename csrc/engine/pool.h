/* pool.h: the worker threads that run a loop over games in parallel.
 *
 * Why not OpenMP (docs/performance.md, "The pool against OpenMP": the same loops under
 * `omp parallel for schedule(dynamic)`, benchmarks/pool_vs_openmp.py): on free cores the
 * two are even (0.87-1.14x), but with more runnable threads than cores libgomp's threads
 * spin while they wait, at the end of every loop and between loops, on the cores the
 * threads holding chunks need: its 2 threads ran at 0.41-0.71x its one, the pool
 * 1.6-3.7x faster. PyTorch ships its own libgomp.so.1, which a process that imports torch
 * first shares with us (same soname), so its version, wait policy and thread pool are
 * torch's (there the two were even, the pool ahead under load). libgomp hangs a
 * fork()ed child whose parent had a parallel region, measured again.
 * This pool avoids all three:
 *
 *   - work is claimed in small chunks from one counter, so the games of a thread the
 *     system has descheduled are taken by the threads that run, and no thread waits
 *     for another that has not started;
 *   - a thread waiting for work (or the caller waiting for the last chunk) spins for a
 *     bounded time, then sleeps on a condition variable: it gives its core away;
 *   - pthread_atfork makes a fork()ed child start with no workers, creating new ones
 *     when it first runs a loop on more than one thread;
 *   - a loop runs on at most pool_max_threads() threads, whatever it asks for, and a
 *     worker asleep for the idle period exits (new ones start when a loop wants them):
 *     one step with num_threads=4096 used to leave 4,095 threads for the process's life.
 *
 * Determinism does not depend on which thread runs a game: each game owns its streams
 * (batch.h), and what tasks add up across games they add with commutative operations.
 */
#ifndef STRATEGO_POOL_H
#define STRATEGO_POOL_H

#include <stdint.h>

/* Runs games [begin, end) of the loop; called by several threads at once, on disjoint
 * ranges, and so must only touch those games' data (or use atomics). */
typedef void (*PoolTask)(void *ctx, int64_t begin, int64_t end);

/* The most games a loop may have: the claim word (pool.c) hands out games by a 32-bit
 * index, whose highest value marks a job not yet open. Batches hold an int of games,
 * far below it. */
#define POOL_MAX_GAMES ((int64_t)0xFFFFFFFE)

/* The most threads a loop runs on, the caller included: POOL_THREADS_PER_CPU times the
 * CPUs this process may run on (sched_getaffinity, read once; the online CPUs where that
 * fails), at most POOL_MAX_THREADS. More threads than that only take turns on the same
 * cores: each costs a stack and a slot in the scheduler and does no more work. A few a
 * CPU, not one, because the games never depend on the thread count and callers that ask
 * for a handful more than the cores (tests of odd counts) should get them. */
enum { POOL_THREADS_PER_CPU = 4, POOL_MAX_THREADS = 4096 };
int pool_max_threads(void);

/* How long a worker sleeps without work before it exits: POOL_IDLE_EXIT_MS, or
 * STRATEGO_POOL_IDLE_MS (read once: a whole decimal number of milliseconds, 1 to
 * 3,600,000; any other value is ignored and the default kept). Workers exit from the
 * highest index down, so the ones left are always 0..workers-1, and never one counted as
 * a helper of the loop being run; a loop that wants more starts them again (tens of
 * microseconds each, against the seconds they were idle), and they take part in that
 * loop, not only in the next. */
enum { POOL_IDLE_EXIT_MS = 5000 };

/* Worker threads running now (for tests of fork safety and of the cap and the idle
 * exit; 0 in a fresh fork()ed child). */
int pool_workers(void);

/* Helpers that do not pay. A thread the system deschedules while it holds a chunk holds
 * up the whole loop until it runs again, a few milliseconds on a machine where other
 * work wants every core, while a compact step of 4,096 games takes well under one
 * (issue 12: 2 threads at 0.81-0.85x one with codes + bit mask, one busy process a core
 * or PyTorch in another thread). So the pool measures each loop of a caller (a task, its
 * number of games and thread count: a batch's step, its sampling, ...; kept in the
 * caller's PoolPaces below) both ways, ns a game with helpers and on the caller alone,
 * each a running mean over about 8 loops, and runs it alone when that is clearly faster
 * (the helpers' pace over POOL_PACE_MARGIN times the caller's alone: a loop run alone
 * lets the helpers fall asleep, which the next loop pays for), and the loop with helpers
 * takes over POOL_PACE_SHORT_NS (a stall is milliseconds; a check of 4,096 actions, tens
 * of microseconds, is not worth judging); one loop in POOL_PACE_PROBE runs the other
 * way, so that both figures follow the machine's load (on an idle machine that probe
 * costs under 1% of the helpers' gain). The first loop of a task runs with helpers, the
 * second alone. Which thread runs a game never changes the games. */
enum { POOL_PACE_PROBE = 64 };
#define POOL_PACE_MARGIN 1.25
#define POOL_PACE_SHORT_NS 200000.0
typedef struct {
    PoolTask task;
    int64_t n;
    int num_threads;
    double parallel_ns, alone_ns; /* running means of ns a game; 0 before the first */
    uint32_t loops;
} PoolPace;

/* The paces of one caller's loops, owned by it: a batch keeps one for its life, so two
 * batches of the same size judge their helpers apart (their loads differ: one may run
 * beside a learner, the other in a quiet thread). POOL_PACE_LOOPS slots, enough for every
 * task a batch runs and a change of its thread count; a loop past them takes over the
 * oldest slot. Starts zeroed (a batch's memset); a fork()ed child measures its own
 * (`forks` tells the pool which process measured them). Read and written only by the
 * caller that holds the pool, so a batch stepped from two threads at once is safe. */
enum { POOL_PACE_LOOPS = 8 };
typedef struct {
    PoolPace loop[POOL_PACE_LOOPS];
    unsigned next;  /* the slot a new loop takes over */
    uint32_t forks; /* the pool's fork count when these were measured */
} PoolPaces;

/* The rule, exposed for its tests: whether the next loop of p, of n games, runs alone
 * (and counts it), and the record of a loop of n games that took ns. */
int pool_pace_alone(PoolPace *p, int64_t n);
void pool_pace_record(PoolPace *p, int alone, int64_t ns, int64_t n);

/* Runs task over [0, n) on up to num_threads threads (cut to pool_max_threads()), the
 * caller among them, and returns when every game is done. paces: the caller's (above),
 * which decide whether its helpers pay; NULL for a loop run once, never judged (it runs
 * with helpers). Runs on the caller alone when num_threads is 1, n is small, another
 * loop is running (two batches stepped from two threads at once), the helpers have not
 * paid, or no worker thread could be started. Only the helpers a loop counts on are
 * woken: the workers above them sleep on. n is at most POOL_MAX_GAMES: a larger loop is
 * a caller's bug, refused with a message naming both numbers and abort() (the claim
 * word could not hand it out, and running it alone would hide the bug). */
void pool_run(PoolPaces *paces, int num_threads, int64_t n, PoolTask task, void *ctx);

/* Loops run with helpers, and loops run alone because the helpers had not paid (for
 * tests and benchmarks: how often the pool gave them up). */
void pool_loops(int64_t *parallel, int64_t *alone);

#endif
