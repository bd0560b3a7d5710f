"""Scaling of the main job on Ray actors (docs/distributed.md).

    python benchmarks/ray_scaling.py --num-envs 4096 --steps 1000 --repeats 3

Runs the main job (random-vs-random games, observations on) in one process without Ray,
then on a local Ray with 1 actor and with 2 actors of 1 thread each, the same games in
every run (the checksums must agree), and prints the steps/s of each: the actors' own
stepping rate (summed over actors) and the driver's rate (wall time from dispatch to the
last result, Ray's overhead included). The actors live across runs (SimulationPool), so
no run pays for starting them. Then the overhead of one call: a run of one step, whose
wall time is almost all Ray's and set-up (dispatch, the actor's env allocation and reset,
the result's way back). Repeats interleave the configurations, and the best of each is printed (the
machine's other load only ever slows a run down).

Needs the ray extra (pip install -e '.[ray]', in a venv of its own: Ray pins Gymnasium).
"""
from __future__ import annotations

import argparse
import sys

from stratego.common.arguments import int_in
from stratego.bench import run_bench
from stratego.integrations.distributed import SimulationPool, connect


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--num-envs", type=int_in(2, 1 << 20), default=4096)
    p.add_argument("--steps", type=int_in(1, 1 << 20), default=1000)
    p.add_argument("--repeats", type=int_in(1, 100), default=3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--no-obs", action="store_true", help="observations off (on by default)")
    args = p.parse_args(argv)
    kwargs = {"observations": not args.no_obs}
    connect(num_cpus=2)
    best: dict[str, float] = {}
    checksums = set()
    one_step = []
    for _ in range(args.repeats):
        local = run_bench(args.num_envs, args.steps, seed=args.seed, num_threads=1, progress=False, **kwargs)
        best["local, 1 thread"] = max(best.get("local, 1 thread", 0), local.steps_per_second)
        checksums.add(local.checksum)
        for actors in (1, 2):
            # One pool at a time: the local Ray has 2 CPUs, an actor takes one.
            with SimulationPool(args.num_envs, actors=actors) as pool:
                r = pool.bench(args.steps, seed=args.seed, **kwargs)
                if actors == 2:
                    one_step.append(pool.bench(1, seed=args.seed, **kwargs).wall_seconds)
            checksums.add(r.total.checksum)
            own = sum(a.steps_per_second for a in r.actors)
            for key, value in ((f"{actors} actor(s), actors' own rate", own),
                               (f"{actors} actor(s), driver wall time", r.total.steps_per_second)):
                best[key] = max(best.get(key, 0), value)
    print(f"ray scaling: {args.num_envs} games x {args.steps} steps, observations "
          f"{'off' if args.no_obs else 'on'}, best of {args.repeats}")
    for key, value in best.items():
        print(f"  {key:<36} {value:>12,.0f} steps/s")
    base = best["1 actor(s), driver wall time"]
    print(f"  2 actors / 1 actor (driver wall time)  {best['2 actor(s), driver wall time'] / base:.2f}x")
    print(f"  2 actors / local 1 thread               {best['2 actor(s), driver wall time'] / best['local, 1 thread']:.2f}x")
    print(f"  one call (a 1-step run, 2 actors)       {min(one_step) * 1000:.0f} ms")
    if len(checksums) != 1:
        print(f"ERROR: the runs played different games: checksums {sorted(checksums)}", file=sys.stderr)
        return 1
    print(f"  checksum (every run)                    {checksums.pop():016x}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
