"""Soak test: a VecEnv stepped for a long time must not grow in memory.

    python benchmarks/soak.py                      # 10^8 plies: 4096 games x 24,415 steps
    python benchmarks/soak.py --plies 2e7          # a smaller total
    python benchmarks/soak.py --quick              # 10^6 plies, a smoke test (seconds)

Random legal actions (VecEnv.sample_actions, the C sampler), observations on by default
(uint8, history 4; --float adds float32 with belief planes, --no-obs turns them off).
Resident memory (VmRSS from /proc/self/status) is read at the start, after the warm-up
(the first --warmup fraction of the steps: buffers touched, allocator settled; the
final-observation buffer, written only as games end, is touched before) and at the end. The run fails (exit 1) when RSS grew after the warm-up by more than
--tolerance-mb, since a step that allocates nothing must leave the footprint flat.
Prints steps/s (plies per second over all games), finished games and the checksum.
"""
from __future__ import annotations

import argparse
import gc
import sys
import time

import numpy as np

import stratego
from stratego.common.arguments import MAX_ENVS, MAX_THREADS, float_in, int_in


def rss_mb() -> float:
    """Resident set size of this process in MiB (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/status") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--plies", type=float_in(1, 1e15), default=1e8, help="total plies over all games (default 1e8)")
    parser.add_argument("--num-envs", type=int_in(1, MAX_ENVS), default=4096)
    parser.add_argument("--threads", type=int_in(0, MAX_THREADS), default=0, help="threads, 0 = stratego.default_num_threads()")
    parser.add_argument("--warmup", type=float_in(0, 1), default=0.05, help="fraction of steps before the baseline RSS")
    parser.add_argument("--tolerance-mb", type=float_in(0, 1e6), default=4.0, help="allowed RSS growth after warm-up")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="10^6 plies: a smoke test")
    parser.add_argument("--float", action="store_true", help="float32 observations with belief planes")
    parser.add_argument("--no-obs", action="store_true", help="no observation tensors")
    args = parser.parse_args(argv)
    plies = 1e6 if args.quick else args.plies
    steps = max(2, int(round(plies / args.num_envs)))
    warmup = max(1, int(steps * args.warmup))

    rss_start = rss_mb()
    obs_kwargs = {"observations": not args.no_obs}
    if args.float:
        obs_kwargs.update(obs_dtype="float32", belief=True)
    env = stratego.VecEnv(args.num_envs, num_threads=args.threads, seed=args.seed, **obs_kwargs)
    # The final-observation rows are first written when a game ends, so their pages
    # become resident one game at a time (np.zeros memory is mapped lazily): touch them
    # now, so that what grows later is a leak, not a first touch.
    final_obs = getattr(env, "final_obs", None)
    if final_obs is not None:
        final_obs.fill(0)
    print(f"soak: {args.num_envs} games x {steps} steps = {args.num_envs * steps:.3g} plies, "
          f"{env.num_threads} thread(s), observations {'off' if args.no_obs else ('float32+belief' if args.float else 'uint8')}; "
          f"RSS at start {rss_start:.1f} MiB, after creating the env {rss_mb():.1f} MiB", flush=True)

    finished = 0
    start = time.perf_counter()
    rss_warm = None
    warm_time = start
    report_every = max(1, steps // 10)
    for t in range(steps):
        actions = env.sample_actions()
        _, _, terminated, truncated, _ = env.step(actions)
        finished += int(np.count_nonzero(terminated | truncated))
        if t + 1 == warmup:
            gc.collect()
            rss_warm = rss_mb()
            warm_time = time.perf_counter()
            print(f"  after warm-up ({warmup} steps): RSS {rss_warm:.1f} MiB", flush=True)
        elif (t + 1) % report_every == 0:
            rate = (t + 1) * args.num_envs / (time.perf_counter() - start)
            print(f"  step {t + 1}/{steps}: RSS {rss_mb():.1f} MiB, {rate:,.0f} steps/s", flush=True)
    elapsed = time.perf_counter() - start
    gc.collect()
    rss_end = rss_mb()
    stats = env.stats()
    steady = (steps - warmup) * args.num_envs / max(elapsed - (warm_time - start), 1e-9)
    growth = rss_end - rss_warm
    print(f"soak: {args.num_envs * steps:.4g} plies in {elapsed:.1f} s: {args.num_envs * steps / elapsed:,.0f} steps/s "
          f"({steady:,.0f} after warm-up); {stats['games_finished']} games finished "
          f"(seen {finished}), checksum {stats['checksum']:016x}")
    print(f"soak: RSS start {rss_start:.1f} MiB, after warm-up {rss_warm:.1f} MiB, end {rss_end:.1f} MiB "
          f"(growth after warm-up {growth:+.1f} MiB, tolerance {args.tolerance_mb} MiB)")
    env.close()
    if stats["games_finished"] != finished:
        print("soak: FAIL: the finished-games counter disagrees with the terminated/truncated flags")
        return 1
    if growth > args.tolerance_mb:
        print("soak: FAIL: resident memory grew after the warm-up")
        return 1
    print("soak: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
