#!/usr/bin/env python3
"""The engine's thread pool against OpenMP's dynamic schedule, on the same batch loops.

    python benchmarks/pool_vs_openmp.py            # builds both, prints the table (a few minutes)
    python benchmarks/pool_vs_openmp.py --quick    # a smoke run (well under a minute)

Builds (csrc/Makefile) the engine's `stratego_main` as two shared libraries: with the pool
(`make bench-lib`) and with the same loops under `#pragma omp parallel for
schedule(dynamic) if(...)` (`make OPENMP=1 bench-lib`, benchmark-only: the extension never
links libgomp). Each build runs in a Python process of its own that calls the library's
main() (`bench N STEPS THREADS OBS`: a batch's sampling and step, checksum printed), so
that torch's threads can share the process as in training (the torch modes also count
the matrix products torch got done beside each run: a build that wins steps by taking
the cores from the work beside it shows there). For each contention mode and
observation format, the two builds and both thread counts run in turn, `--repeats` times
(A/B interleaved: a change of the machine's load hits both alike); the table gives the
median steps/s of each and the ratios of medians from this one run.

Modes (docs/performance.md, as `benchmarks/suite.py --contention`): idle; busy (one
spinning process a core); torch (512 x 512 matmuls in a thread of the same process,
torch imported first, so an OpenMP build shares torch's libgomp.so.1); busy+torch; and
fork (the parent runs a loop on 2 threads, then a fork()ed child runs a step on 2
threads: does it finish, within --fork-timeout seconds?). Every run's checksum must be
the same for a config whatever the build and thread count; the script says so, or exits 1.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CSRC = HERE.parent / "csrc"
BUILDS = {"pool": "stratego_bench.so", "openmp": "stratego_bench_openmp.so"}
MODES = ("idle", "busy", "torch", "busy+torch")
# bench's obs argument and the steps a run: a run of a fifth to half a second on 2 loaded cores.
CONFIGS = {"planes": (1, 60), "codes": (2, 200)}

# ---------------------------------------------------------------- the child process


def child(lib_path: str, torch_mode: bool) -> None:
    """Runs bench commands read from stdin (`N STEPS THREADS OBS`) on one build; answers
    each with its output line and `done`. Torch, when asked, is imported before the
    library is loaded (as a training script does) and multiplies matrices in a thread
    only while a command runs, so that the other build's idle process adds no load."""
    import ctypes

    busy = threading.Event()
    products_done = [0]
    if torch_mode:
        import torch

        a, b = torch.randn(512, 512), torch.randn(512, 512)
        for _ in range(50):  # torch's own start (its thread team) outside every run
            torch.mm(a, b)

        def products():
            while True:
                busy.wait()
                torch.mm(a, b)
                products_done[0] += 1

        threading.Thread(target=products, daemon=True).start()
    lib = ctypes.CDLL(lib_path)
    libc = ctypes.CDLL(None)
    gomp = [line.split()[-1] for line in open("/proc/self/maps") if "libgomp" in line]
    print(json.dumps({"libgomp": sorted(set(gomp))}), flush=True)
    for line in sys.stdin:
        words = line.split()
        if words[0] == "fork":
            print(json.dumps(fork_run(lib, libc, *map(int, words[1:]))), flush=True)
            continue
        argv = (ctypes.c_char_p * 6)(b"stratego_main", b"bench", *(w.encode() for w in words))
        if torch_mode:
            busy.set()
            time.sleep(0.3)  # let the products take their cores
        before, start = products_done[0], time.perf_counter()
        rc = lib.main(6, argv)
        # What the torch thread got done beside the run: a build can win steps by taking
        # the cores from the work beside it.
        products_per_s = (products_done[0] - before) / (time.perf_counter() - start)
        busy.clear()
        libc.fflush(None)
        print(f"done {rc} {products_per_s:.1f}", flush=True)


def fork_run(lib, libc, n: int, steps: int, timeout: float) -> dict:
    """A loop on 2 threads in this process, then a fork()ed child's run on 2 threads:
    whether the child finishes within `timeout` seconds, and its output."""
    import ctypes

    def argv(*words):
        return (ctypes.c_char_p * 6)(b"stratego_main", b"bench", *(str(w).encode() for w in words))

    lib.main(6, argv(n, steps, 2, 2))
    libc.fflush(None)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        os.dup2(write, 1)
        lib.main(6, argv(n, steps, 2, 2))
        libc.fflush(None)
        os._exit(0)
    os.close(write)
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            out = os.read(read, 65536).decode()
            os.close(read)
            return {"finished": True, "status": status, "output": out.strip()}
        time.sleep(0.05)
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    os.close(read)
    return {"finished": False, "output": ""}


# ---------------------------------------------------------------- the parent


class Runner:
    """One build's child process."""

    def __init__(self, build: str, torch_mode: bool):
        env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
        self.proc = subprocess.Popen([sys.executable, __file__, "--child", str(CSRC / BUILDS[build]),
                                      "1" if torch_mode else "0"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env)
        self.libgomp = json.loads(self.proc.stdout.readline())["libgomp"]

    def bench(self, n: int, steps: int, threads: int, obs: int) -> tuple[float, str, float]:
        """steps/s, the checksum, and torch's matrix products a second beside the run."""
        self.proc.stdin.write(f"{n} {steps} {threads} {obs}\n")
        self.proc.stdin.flush()
        result = None
        for line in self.proc.stdout:
            if line.startswith("done"):
                words = line.split()
                if words[1] != "0" or result is None:
                    raise RuntimeError(f"bench {n} {steps} {threads} {obs} failed: {line.strip()}")
                return (*result, float(words[2]))
            if " steps/s" in line:
                rate = float(line.split(": ")[1].split(" steps/s")[0])
                result = (rate, line.rsplit("checksum ", 1)[1].strip())
        raise RuntimeError("the benchmark's child process ended")

    def fork(self, n: int, steps: int, timeout: float) -> dict:
        self.proc.stdin.write(f"fork {n} {steps} {int(timeout)}\n")
        self.proc.stdin.flush()
        for line in self.proc.stdout:  # after the parent's own run's line
            if line.startswith("{"):
                return json.loads(line)
        raise RuntimeError("the benchmark's child process ended")

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


class Busy:
    """One spinning process a CPU this process may use, each until its parent is gone."""

    def __enter__(self):
        spin = "import os\nparent = os.getppid()\nwhile os.getppid() == parent: pass"
        self.procs = [subprocess.Popen([sys.executable, "-c", spin]) for _ in os.sched_getaffinity(0)]
        time.sleep(0.5)
        return self

    def __exit__(self, *exc):
        for p in self.procs:
            p.kill()
            p.wait()


def build() -> None:
    for extra in ([], ["OPENMP=1"]):
        subprocess.run(["make", "-s", "-C", str(CSRC), *extra, "bench-lib"], check=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--envs", type=int, default=4096)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--modes", default=",".join(MODES) + ",fork")
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--fork-timeout", type=float, default=20.0)
    ap.add_argument("--quick", action="store_true", help="1 repeat, 1,024 games, a tenth of the steps")
    ap.add_argument("--json", type=Path, help="also write every run here")
    args = ap.parse_args()
    if args.quick:
        args.repeats, args.envs = 1, 1024
    scale = 0.1 if args.quick else 1.0
    modes = args.modes.split(",")
    configs = args.configs.split(",")
    build()
    try:
        import torch  # noqa: F401
    except ImportError:
        print("torch is not installed: the torch modes are skipped (pip install -e '.[train]')", file=sys.stderr)
        modes = [m for m in modes if "torch" not in m]
    load = os.getloadavg()
    print(f"# {args.envs} games, {args.repeats} repeats interleaved, {len(os.sched_getaffinity(0))} CPUs, "
          f"load average {load[0]:.1f} at the start", flush=True)
    rows, runs, checksums = [], [], {}
    gomp_seen = {}
    for mode in modes:
        if mode == "fork":
            continue
        torch_mode = "torch" in mode
        runners = {b: Runner(b, torch_mode) for b in BUILDS}
        gomp_seen[mode] = runners["openmp"].libgomp
        try:
            with (Busy() if "busy" in mode else _Nothing()):
                for config in configs:
                    obs, steps = CONFIGS[config]
                    steps = max(10, int(steps * scale))
                    rates = {(b, t): [] for b in BUILDS for t in (1, 2)}
                    products = {(b, t): [] for b in BUILDS for t in (1, 2)}
                    for _ in range(args.repeats):
                        for t in (1, 2):
                            for b in BUILDS:
                                rate, checksum, mm = runners[b].bench(args.envs, steps, t, obs)
                                rates[(b, t)].append(rate)
                                products[(b, t)].append(mm)
                                checksums.setdefault(config, set()).add(checksum)
                                runs.append({"mode": mode, "config": config, "build": b, "threads": t,
                                             "steps_per_s": rate, "checksum": checksum,
                                             "torch_products_per_s": mm})
                    med = {k: statistics.median(v) for k, v in rates.items()}
                    med.update({("mm",) + k: statistics.median(v) for k, v in products.items()})
                    rows.append((mode, config, med))
                    print(_row(mode, config, med), flush=True)
        finally:
            for r in runners.values():
                r.close()
    fork = {}
    if "fork" in modes:
        for b in BUILDS:
            r = Runner(b, False)
            try:
                fork[b] = r.fork(1024, max(10, int(100 * scale)), args.fork_timeout)
            finally:
                r.close()
    print()
    print("| mode | config | pool 1 thread (M steps/s) | pool 2 threads | OpenMP 1 thread | OpenMP 2 threads | "
          "pool / OpenMP, 2 threads | torch products/s beside 1 / 2 threads: pool | OpenMP |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for mode, config, med in rows:
        print(_row(mode, config, med, markdown=True))
    for b, f in fork.items():
        what = "finished: " + f["output"].splitlines()[-1] if f["finished"] else \
            f"did not finish in {args.fork_timeout:.0f} s (killed)"
        print(f"\nfork, {b}: a child forked after the parent ran a loop on 2 threads {what}")
    for mode, paths in gomp_seen.items():
        print(f"OpenMP build's libgomp in mode {mode}: {', '.join(paths) or 'none loaded'}")
    same = all(len(v) == 1 for v in checksums.values())
    print(f"checksums: {'the same' if same else 'DIFFER'} for every build and thread count "
          f"({', '.join(f'{c} {sorted(v)[0]}' for c, v in checksums.items() if len(v) == 1)})")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    if args.json:
        args.json.write_text(json.dumps({"runs": runs, "fork": fork, "libgomp": gomp_seen}, indent=1))
    return 0 if same else 1


class _Nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None


def _row(mode: str, config: str, med: dict, markdown: bool = False) -> str:
    p1, p2, o1, o2 = (med[("pool", 1)], med[("pool", 2)], med[("openmp", 1)], med[("openmp", 2)])
    torch_mode = "torch" in mode
    mm = {k: med[("mm",) + k] for k in [("pool", 1), ("pool", 2), ("openmp", 1), ("openmp", 2)]}
    if markdown:
        beside = (f" {mm['pool', 1]:.0f} / {mm['pool', 2]:.0f} | {mm['openmp', 1]:.0f} / {mm['openmp', 2]:.0f} |"
                  if torch_mode else " - | - |")
        return (f"| {mode} | {config} | {p1 / 1e6:.2f} | {p2 / 1e6:.2f} ({p2 / p1:.2f}x) | {o1 / 1e6:.2f} | "
                f"{o2 / 1e6:.2f} ({o2 / o1:.2f}x) | {p2 / o2:.2f}x |" + beside)
    beside = (f"   torch products/s 1/2 threads: pool {mm['pool', 1]:.0f}/{mm['pool', 2]:.0f}, "
              f"openmp {mm['openmp', 1]:.0f}/{mm['openmp', 2]:.0f}" if torch_mode else "")
    return (f"{mode:<11} {config:<7} pool {p1 / 1e6:6.3f} -> {p2 / 1e6:6.3f} M steps/s ({p2 / p1:4.2f}x)   "
            f"openmp {o1 / 1e6:6.3f} -> {o2 / 1e6:6.3f} ({o2 / o1:4.2f}x)   pool/openmp at 2 threads {p2 / o2:4.2f}x"
            + beside)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3] == "1")
        sys.exit(0)
    sys.exit(main())
