"""Command line: `stratego bench`, the main job."""
from __future__ import annotations

import argparse
import sys

from . import _core
from .arguments import MAX_ENVS, MAX_THREADS, float_in, int_in
from .bench import format_result, run_bench
from .threads import default_num_threads
from .variants import variants

MAX_STEPS = 2**31 - 1
MAX_SECONDS = 1e6  # eleven days: more is a typo


def _bench(args: argparse.Namespace) -> int:
    print(f"stratego bench: variant {args.variant}, default threads {default_num_threads()}, "
          f"state {_core.STATE_BYTES} bytes/game")
    steps = None if args.seconds else args.steps
    common = dict(num_envs=args.num_envs, batch_steps=steps, seconds=args.seconds,
                  num_threads=args.threads, seed=args.seed, variant=args.variant,
                  progress=not args.no_progress)
    runs = []
    if not args.no_obs:
        runs.append(run_bench(label="obs on", obs_dtype=args.obs_dtype, **common))
    runs.append(run_bench(label="obs off", observations=False, **common))
    for r in runs:
        print(format_result(r))
    if len(runs) == 2:
        a, b = runs
        if steps is not None and a.checksum != b.checksum:
            print("ERROR: observations changed the games (checksums differ)", file=sys.stderr)
            return 1
        print(f"observations cost: obs on runs at {a.steps_per_second / b.steps_per_second:.2f}x "
              f"the speed of obs off")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="stratego", description="Stratego simulator for RL.")
    sub = parser.add_subparsers(dest="command", required=True)
    bench = sub.add_parser("bench", help="random-vs-random games in parallel: speed and checksum")
    bench.add_argument("--num-envs", type=int_in(1, MAX_ENVS), default=4096, help="games at once (4096)")
    bench.add_argument("--steps", type=int_in(1, MAX_STEPS), default=2000,
                       help="batch steps, each one ply of every game (2000: every game started in the first step ends, by the ply cap at the latest)")
    bench.add_argument("--seconds", type=float_in(0, MAX_SECONDS, lo_open=True), default=None,
                       help="run for this long instead of --steps")
    bench.add_argument("--threads", type=int_in(0, MAX_THREADS), default=0,
                       help="threads, 0 = the default (stratego.default_num_threads())")
    bench.add_argument("--seed", type=int, default=0)
    bench.add_argument("--variant", default="classic", help=f"one of {variants()} or a .toml path")
    bench.add_argument("--obs-dtype", default="uint8", choices=["uint8", "float32"])
    bench.add_argument("--no-obs", action="store_true", help="only the run without observations")
    bench.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    try:
        return _bench(args)
    except (ValueError, TypeError, MemoryError) as exc:
        # Bad settings (an unknown variant, too many games): the message, no traceback.
        parser.error(str(exc))


if __name__ == "__main__":
    sys.exit(main())
