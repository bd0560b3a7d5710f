/* pool.h: the worker threads that run a loop over games in parallel.
 *
 * Why not OpenMP: measured on a 2-core machine shared with other work, an OpenMP
 * parallel loop with a static schedule waits for its slowest thread at every step, and
 * libgomp's threads spin while waiting; with two busy processes, 2 threads ran at 0.43x
 * one thread. PyTorch ships its own libgomp.so.1, which a process that imports torch
 * first shares with us (same soname), so its wait policy and thread pool are torch's,
 * and a network trained in another thread fought ours for the same team. libgomp also
 * hangs a fork()ed child whose parent had a parallel region. This pool avoids all three:
 *
 *   - work is claimed in small chunks from one counter, so the games of a thread the
 *     system has descheduled are taken by the threads that run, and no thread waits
 *     for another that has not started;
 *   - a thread waiting for work (or the caller waiting for the last chunk) spins for a
 *     bounded time, then sleeps on a condition variable: it gives its core away;
 *   - pthread_atfork makes a fork()ed child start with no workers, creating new ones
 *     when it first runs a loop on more than one thread.
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

/* Runs task over [0, n) on up to num_threads threads, the caller among them, and
 * returns when every game is done. Runs on the caller alone when num_threads is 1, n
 * is small, another loop is running (two batches stepped from two threads at once), or
 * no worker thread could be started. */
void pool_run(int num_threads, int64_t n, PoolTask task, void *ctx);

/* Worker threads started (for tests of fork safety; 0 in a fresh fork()ed child). */
int pool_workers(void);

#endif
