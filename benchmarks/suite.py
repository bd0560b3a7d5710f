#!/usr/bin/env python3
"""Benchmark suite: stepping throughput, thread scaling, reset cost, the memory
bandwidth limit, per-game memory and a behaviour checksum, in one run.

    python benchmarks/suite.py            # full run (a few minutes on 2 cores)
    python benchmarks/suite.py --quick    # smoke run (under a minute)
    python benchmarks/suite.py --contention   # N threads vs 1 with other work on every core
    python benchmarks/suite.py --recording    # only recording on vs off (issue 16), 4,096 games

One step = one game advancing one ply. Writes <out>/<date>-<host>.json and .png and
prints the Markdown table for the README and the target checks. See benchmarks/README.md.
"""
from __future__ import annotations

import sys

# A training script imports torch before the simulator; the contention mode measures
# that case (torch brings its own OpenMP runtime).
if "--contention" in sys.argv[1:]:
    try:
        import torch  # noqa: F401
    except ImportError:
        pass

import argparse
import datetime as dt
import gzip
import io
import json
import os
import platform
import socket
import subprocess
import threading
import time
import zlib
from pathlib import Path

import numpy as np

import stratego
from stratego.common.arguments import MAX_ENVS, MAX_THREADS, float_in, int_in, int_list
from stratego.bench import step_bytes

CONFIGS = {  # name -> VecEnv keywords
    "step": dict(observations=False, action_mask=False),
    "step+mask": dict(observations=False),
    "step+mask+obs": dict(),  # the default: uint8 observation and legal mask
    "step+mask+obs_f32": dict(obs_dtype="float32"),
    "step+bits+codes": dict(obs_format="codes", mask_format="bits"),  # the compact formats
}
COMPACT = "step+bits+codes"
# The peer simulator stratego_env (Python + Numba), quoted at 39,000 steps/s on one core of
# the development machine in issue 12: the goal's figure; --peer-python measures the peer as well.
PEER_QUOTED_STEPS_PER_S = 39_000
DEFAULT = "step+mask+obs"
FULL_ENVS = [256, 1024, 4096, 16384, 65536]
QUICK_ENVS = [256, 4096]
SAMPLER_BYTES = 8  # the per-game sampler stream, owned by the batch
WARMUP_STEPS = 3
HERE = Path(__file__).resolve().parent


def check_steps_for(num_envs: int) -> int:
    """Steps after reset at which the checksum is taken: about 2^20 plies, 16..256 steps."""
    return max(16, min(256, (1 << 20) // num_envs))


def thread_counts(spec: str, ncpu: int) -> list[int]:
    if spec == "all":
        return list(range(1, ncpu + 1))
    if spec == "pow2":  # 1, 2, 4, ... and the core count itself
        counts = [1 << i for i in range(ncpu.bit_length()) if 1 << i <= ncpu]
        return sorted(set(counts + [ncpu]))
    return sorted(set(int_list(1, MAX_THREADS)(spec)))


# -- machine -------------------------------------------------------------------------
def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=HERE, capture_output=True, text=True, timeout=10)
        return out.stdout.strip() if out.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        return None


def machine_info() -> dict:
    commit = _git("rev-parse", "HEAD")
    dirty = _git("status", "--porcelain", "--untracked-files=no")
    return {
        "date": dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "hostname": socket.gethostname(),
        "platform": platform.platform(),
        "cpu_model": _cpu_model(),
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "stratego": stratego.__version__,
        "default_num_threads": stratego.default_num_threads(),
        "git_commit": commit,
        "git_dirty": bool(dirty) if dirty is not None else None,
        "omp_env": {k: v for k, v in os.environ.items() if k.startswith(("OMP_", "GOMP_"))},
        "loadavg_start": os.getloadavg(),
    }


# -- measurements --------------------------------------------------------------------
def _mean_call_time(fn, min_time: float, max_reps: int = 1_000_000) -> float:
    fn()  # warm
    reps, start = 0, time.perf_counter()
    while True:
        fn()
        reps += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_time or reps >= max_reps:
            return elapsed / reps


def measure_point(env, threads: int, seed: int, check_steps: int, min_time: float) -> dict:
    """One (config, num_envs, threads) point: reset cost, then random play from `seed`,
    timing step() and sample_actions() separately; checksum after check_steps steps."""
    env.num_threads = threads
    reset_s = _mean_call_time(lambda: env.reset(seed=seed), min_time / 10, max_reps=20)
    env.reset(seed=seed)
    step_s = sample_s = 0.0
    done = timed = 0
    step_times = []
    crc = 0
    check = None
    while done < check_steps or step_s + sample_s < min_time:
        t0 = time.perf_counter()
        actions = env.sample_actions()
        t1 = time.perf_counter()
        env.step(actions)
        t2 = time.perf_counter()
        done += 1
        if done <= check_steps:
            crc = zlib.crc32(actions, crc)
            if done == check_steps:
                check = env.stats()
        if done > WARMUP_STEPS:
            step_s += t2 - t1
            step_times.append(t2 - t1)
            sample_s += t1 - t0
            timed += 1
    n = env.num_envs
    return {
        "threads": threads,
        "steps": timed,
        "step_seconds": step_s,
        "sample_seconds": sample_s,
        "steps_per_s": timed * n / step_s,
        "steps_per_s_with_sample": timed * n / (step_s + sample_s),
        "steps_per_s_median": n / float(np.median(step_times)),  # robust to other work on the machine
        "step_call_s": step_s / timed,
        "reset_call_s": reset_s,
        "reset_over_step": reset_s / (step_s / timed),
        "check_steps": check_steps,
        "checksum": f"{check['checksum']:016x}",
        "actions_crc32": f"{crc:08x}",
        "games_finished": check["games_finished"],
    }


def memory_per_game(env) -> dict:
    arrays = {k: v.nbytes for k, v in vars(env).items() if isinstance(v, np.ndarray)}
    buffers = sum(arrays.values()) // env.num_envs
    return {
        "state_bytes": stratego.STATE_BYTES,
        "sampler_bytes": SAMPLER_BYTES,
        "buffer_bytes": buffers,
        "total_bytes": stratego.STATE_BYTES + SAMPLER_BYTES + buffers,
        "buffers": {k: v // env.num_envs for k, v in arrays.items()},
    }


def copy_times(nbytes: int, min_time: float) -> dict:
    """Single-threaded numpy memset (fill) and memcpy (copyto) of nbytes, touched first."""
    dst = np.ones(nbytes, np.uint8)
    src = np.ones(nbytes, np.uint8)
    memset = _mean_call_time(lambda: dst.fill(0), min_time)
    memcpy = _mean_call_time(lambda: np.copyto(dst, src), min_time)
    return {"bytes": nbytes, "memset_s": memset, "memcpy_s": memcpy,
            "memset_GBps": nbytes / memset / 1e9, "memcpy_GBps": nbytes / memcpy / 1e9}


def _step_time(env, min_time: float) -> float:
    """Mean seconds of step() alone, the learner's actions drawn by sample_actions()."""
    for _ in range(WARMUP_STEPS):
        env.step(env.sample_actions())
    spent, reps = 0.0, 0
    while spent < min_time:
        actions = env.sample_actions()
        t0 = time.perf_counter()
        env.step(actions)
        spent += time.perf_counter() - t0
        reps += 1
    return spent / reps


# The bots that answer in about a microsecond; the PIMC bot searches (measure_pimc).
FAST_BOTS = tuple(b for b in stratego.BOTS if b != "pimc")


def measure_versus(n: int, seed: int, min_time: float) -> dict:
    """1 thread, the default observation and mask: plies/s of the plain two-player step,
    learner steps/s against each bot (every learner step is the learner's ply and the
    bot's reply, computed in C), and the bots' decisions/s alone (bot_actions: the
    player's view, its legal actions and the choice; no step). Measured in one run so
    that the ratios hold on a shared machine."""
    out = {"num_envs": n, "threads": 1}
    env = stratego.VecEnv(n, seed=seed, num_threads=1)
    out["plain_plies_per_s"] = n / _step_time(env, min_time)
    for name in FAST_BOTS:
        out[f"{name}_decisions_per_s"] = n / _mean_call_time(lambda: env.bot_actions(name), min_time)
    env.close()
    for name in FAST_BOTS:
        env = stratego.VecEnv(n, seed=seed, num_threads=1, opponent=name, learner_color="alternate")
        rate = n / _step_time(env, min_time)
        env.close()
        out[f"learner_steps_per_s_vs_{name}"] = rate
        out[f"learner_over_plain_vs_{name}"] = rate / out["plain_plies_per_s"]
    return out


def deployment_steps_per_second(num_envs: int, steps: int | None = None, seed: int = 0,
                                rounds: int = 3) -> tuple[float, float]:
    """(deployment steps/s, move steps/s) of one setup="agent" env, 1 thread, the default
    observation and mask: each round resets (every game deploying), times the placement
    steps (`steps`, at most every piece of both sides), then as many move steps; the
    fastest round of each, so other work on a shared machine disturbs both alike."""
    env = stratego.VecEnv(num_envs, setup="agent", num_threads=1, seed=seed)
    placements = 2 * env.variant.num_pieces
    steps = placements if steps is None else min(steps, placements)
    best = [float("inf"), float("inf")]
    try:
        for r in range(rounds):
            env.reset(seed=seed + r)
            for phase in range(2):
                if phase == 1:  # the rest of the deployment, untimed
                    for _ in range(placements - steps):
                        env.step(env.sample_actions())
                spent = 0.0
                for _ in range(steps):
                    actions = env.sample_actions()
                    t0 = time.perf_counter()
                    env.step(actions)
                    spent += time.perf_counter() - t0
                best[phase] = min(best[phase], spent / steps)
    finally:
        env.close()
    return num_envs / best[0], num_envs / best[1]


SAMPLE_PLIES = (0, 100, 400)


def measure_sampling(seed: int, min_time: float, n: int = 64, k: int = 64) -> dict:
    """Hidden-state worlds a second on one thread (VecEnv.sample_worlds: drawn in C, each
    written as a game save into one array reused) for the player to move, in n games after 0, 100 and 400
    random plies from reset (a game that ended meanwhile restarted: its mean ply is
    given)."""
    out = {"num_envs": n, "worlds_per_game": k}
    for plies in SAMPLE_PLIES:
        env = stratego.VecEnv(n, num_threads=1, observations=False, action_mask=False, seed=seed)
        try:
            env.reset(seed=seed)
            for _ in range(plies):
                env.step(env.sample_actions())
            mean_ply = float(np.mean([env._batch.game(i).status()[4] for i in range(n)]))
            calls, worlds = iter(range(1 << 62)), np.zeros((n, k, stratego.GAME_SAVE_BYTES), np.uint8)
            cpu0, reps0 = time.process_time(), next(calls)
            t = _mean_call_time(lambda: env.sample_worlds(k, seed=next(calls), out=worlds), min_time)
            # Per CPU second too: on a shared machine the wall clock counts others' work.
            cpu = (time.process_time() - cpu0) / (next(calls) - reps0 - 1)
            out[f"ply_{plies}"] = {"worlds_per_s": n * k / t, "worlds_per_cpu_s": n * k / cpu, "mean_ply": mean_ply}
        finally:
            env.close()
    return out


def measure_pimc(seed: int, min_time: float, n: int = 16) -> dict:
    """The PIMC bot's decisions a second on one thread (bot_actions("pimc"), the setting
    in csrc/stratego/bots/bot.h) in n games after 100 random plies."""
    env = stratego.VecEnv(n, num_threads=1, observations=False, seed=seed)
    try:
        env.reset(seed=seed)
        for _ in range(100):
            env.step(env.sample_actions())
        rate = n / _mean_call_time(lambda: env.bot_actions("pimc"), min_time)
    finally:
        env.close()
    return {"num_envs": n, "decisions_per_s": rate, "ms_per_decision": 1000 / rate}


def interleaved_best(n: int, seed: int, rounds: int) -> dict:
    """Fastest single step() of each of `step`, DEFAULT and COMPACT at n games and 1
    thread, their steps alternating, and of a memcpy of the default's mask + observation
    bytes: on a machine shared with other work, the fastest of many short calls is the
    least disturbed, and alternating makes a change in the other work hit all alike."""
    names = ["step", DEFAULT, COMPACT]
    envs = {name: stratego.VecEnv(n, num_threads=1, seed=seed, **CONFIGS[name]) for name in names}
    best = dict.fromkeys(names, float("inf"))
    try:
        for env in envs.values():
            if env.final_obs is not None:
                env.final_obs.fill(0)
        for _ in range(rounds):
            for name, env in envs.items():
                for _ in range(5):
                    actions = env.sample_actions()
                    t0 = time.perf_counter()
                    env.step(actions)
                    best[name] = min(best[name], time.perf_counter() - t0)
        written = sum(a.nbytes for a in (envs[DEFAULT].action_mask, envs[DEFAULT].obs))
    finally:
        for env in envs.values():
            env.close()
    src, dst = np.ones(written, np.uint8), np.ones(written, np.uint8)
    memcpy = float("inf")
    for _ in range(5 * rounds):
        t0 = time.perf_counter()
        np.copyto(dst, src)
        memcpy = min(memcpy, time.perf_counter() - t0)
    return {"num_envs": n, "rounds": rounds, "best_step_s": best, "memcpy_s": memcpy,
            "steps_per_s": {k: n / v for k, v in best.items()},
            "compact_over_default": best[DEFAULT] / best[COMPACT],
            "default_write_over_memcpy": (best[DEFAULT] - best["step"]) / memcpy}


def measure_recording(n: int, seed: int, rounds: int, warmup: int, jsonl_games: int = 200) -> dict:
    """VecEnv(record=True) against the same env without records (issue 16): n games, 1
    thread, for the bare step with its mask and for the default observation. Both envs
    first play `warmup` steps, so that games end every step as in a long run (a game
    lasts ~600 plies at random), then their steps alternate, the recording one handing
    its finished games out (pop_records) in every step it times; the fastest and the
    median step of each, and whether the games were the same (checksums). Bytes a game:
    what the batch holds for each game slot (two sheets of record_plies actions), what
    a finished game takes handed out (RecordedGames' arrays) and on disk as JSON lines
    (rec16's writer), for the games finished while timing."""
    out = {"num_envs": n, "threads": 1, "rounds": rounds, "warmup_steps": warmup, "configs": {}}
    popped = []
    for name in ("step+mask", DEFAULT):
        envs = {rec: stratego.VecEnv(n, num_threads=1, seed=seed, record=rec, **CONFIGS[name]) for rec in (False, True)}
        times = {False: [], True: []}
        try:
            for rec, env in envs.items():
                for _ in range(warmup):
                    env.step(env.sample_actions())
                if rec:
                    env.pop_records()
            for k in range(rounds):
                # Each env first in every other round, so that neither always steps with
                # the caches the other one left.
                for rec in ((False, True) if k % 2 == 0 else (True, False)):
                    env = envs[rec]
                    for _ in range(3):
                        actions = env.sample_actions()
                        t0 = time.perf_counter()
                        env.step(actions)
                        if rec:
                            records = env.pop_records()
                        times[rec].append(time.perf_counter() - t0)
                        if rec and name == DEFAULT:
                            popped.append(records)
            same = envs[False].stats() == envs[True].stats()
            record_plies = envs[True].record_plies
        finally:
            for env in envs.values():
                env.close()
        best = {rec: min(t) for rec, t in times.items()}
        median = {rec: float(np.median(t)) for rec, t in times.items()}
        out["configs"][name] = {
            "steps_per_s_off": n / median[False], "steps_per_s_on": n / median[True],
            "on_over_off_median": median[False] / median[True], "on_over_off_best": best[False] / best[True],
            "checksums_identical": same,
        }
    games = sum(len(r) for r in popped)
    out["record_plies"] = record_plies
    out["games_handed_out"] = games
    out["mean_actions"] = sum(int(r.count.sum()) for r in popped) / max(games, 1)
    out["slot_bytes"] = stratego._core.record_game_bytes(record_plies)
    out["handed_out_bytes_per_game"] = sum(r.nbytes for r in popped) / max(games, 1)
    out["jsonl_bytes_per_game"] = _jsonl_bytes_per_game([rec for r in popped for rec in r][:jsonl_games])
    return out


def _jsonl_bytes_per_game(records) -> dict | None:
    """Bytes a game of these records takes as JSON lines, plain and gzip-compressed (the
    project's one-game-a-line format, stratego.records.write_jsonl); None if there are no
    records or no writer."""
    write = getattr(stratego.records, "write_jsonl", None)
    if not records or write is None:
        return None
    buf = io.StringIO()
    write(records, buf)
    raw = buf.getvalue().encode()
    return {"games": len(records), "plain": len(raw) / len(records),
            "gzip": len(gzip.compress(raw, 6)) / len(records)}


def recording_lines(rec: dict) -> list[str]:
    lines = [f"recording, n={rec['num_envs']}, 1 thread (median steps/s off -> on, ratio; fastest-step ratio):"]
    for name, c in rec["configs"].items():
        lines.append(f"  {name:<16} {c['steps_per_s_off'] / 1e6:.2f} -> {c['steps_per_s_on'] / 1e6:.2f} M steps/s, "
                     f"{c['on_over_off_median']:.3f}x; fastest {c['on_over_off_best']:.3f}x; "
                     f"same games {c['checksums_identical']}")
    j = rec["jsonl_bytes_per_game"]
    lines.append(f"  bytes a game: {rec['slot_bytes']:,} held per slot (record_plies {rec['record_plies']}); "
                 f"{rec['handed_out_bytes_per_game']:,.0f} handed out ({rec['mean_actions']:.0f} actions on average, "
                 f"{rec['games_handed_out']} games)" +
                 (f"; JSON lines {j['plain']:,.0f} plain, {j['gzip']:,.0f} gzip ({j['games']} games)" if j else
                  "; JSON lines: no writer"))
    return lines


def run(args) -> dict:
    ncpu = os.cpu_count() or 1
    threads = thread_counts(args.threads, ncpu)
    envs = args.envs or (QUICK_ENVS if args.quick else FULL_ENVS)
    configs = args.configs or list(CONFIGS)
    result = {"machine": machine_info(),
              "settings": {"quick": args.quick, "seed": args.seed, "min_time": args.min_time,
                           "warmup_steps": WARMUP_STEPS, "num_envs": envs, "threads": threads,
                           "configs": {c: CONFIGS[c] for c in configs}},
              "points": [], "physical": [], "memory": {}, "checksums": {}}
    for n in envs:
        check_steps = check_steps_for(n)
        sizes = {}  # bytes per game -> which memsets to time
        for name in configs:
            env = stratego.VecEnv(n, num_threads=1, **CONFIGS[name])
            try:
                if env.final_obs is not None:  # fault in the pages a long run would have
                    env.final_obs.fill(0)
                per_step = step_bytes(env)
                written = sum(a.nbytes for a in (env.action_mask, env.obs) if a is not None) // n
                result["memory"].setdefault(name, memory_per_game(env))
                for t in threads:
                    p = measure_point(env, t, args.seed, check_steps, args.min_time)
                    p.update(config=name, num_envs=n, bytes_per_step=per_step, mask_obs_bytes=written)
                    result["points"].append(p)
                    rates = (p[k] / 1e6 for k in ("steps_per_s", "steps_per_s_with_sample", "steps_per_s_median"))
                    print(f"{name:<18} n={n:<6} t={t:<3} " + "{:7.2f} M steps/s (+sample {:6.2f}, median {:6.2f})"
                          .format(*rates) + f"  reset/step {p['reset_over_step']:5.2f}  checksum {p['checksum']}",
                          flush=True)
            finally:
                env.close()
                del env
            if written:
                sizes[written] = sizes[per_step] = None
        for per_game in sorted(sizes):
            c = copy_times(per_game * n, args.min_time / 3)
            c.update(num_envs=n, bytes_per_game=per_game)
            result["physical"].append(c)
    headline = args.headline_envs if args.headline_envs in envs else envs[len(envs) // 2]
    result["versus"] = measure_versus(headline, args.seed, args.min_time)
    v = result["versus"]
    print(f"learner vs bot, n={headline}, 1 thread: plain {_m(v['plain_plies_per_s'])} M plies/s; " +
          "; ".join(f"vs {b} {_m(v[f'learner_steps_per_s_vs_{b}'])} M learner steps/s "
                    f"({v[f'learner_over_plain_vs_{b}']:.2f}x)" for b in FAST_BOTS) +
          "; decisions " + ", ".join(f"{b} {_m(v[f'{b}_decisions_per_s'])} M/s" for b in FAST_BOTS), flush=True)
    result["recording"] = measure_recording(headline, args.seed, 10 if args.quick else 100, 200 if args.quick else 700)
    print("\n".join(recording_lines(result["recording"])), flush=True)
    deploy, move = deployment_steps_per_second(headline, seed=args.seed, rounds=2 if args.quick else 5)
    result["deployment"] = {"num_envs": headline, "threads": 1, "deploy_steps_per_s": deploy,
                            "move_steps_per_s": move, "deploy_step_over_move_step": move / deploy}
    print(f"setup='agent', n={headline}, 1 thread: deployment {_m(deploy)} M steps/s, moves {_m(move)} M steps/s "
          f"(a placement step costs {move / deploy:.2f}x a move step)", flush=True)
    if DEFAULT in configs and COMPACT in configs and "step" in configs:
        result["interleaved"] = interleaved_best(args.headline_envs if args.headline_envs in envs else envs[0],
                                                 args.seed, 10 if args.quick else 40)
    result["sampling"] = measure_sampling(args.seed, args.min_time)
    result["pimc"] = measure_pimc(args.seed, args.min_time)
    print(f"PIMC bot, 1 thread: {result['pimc']['decisions_per_s']:.0f} decisions/s "
          f"({result['pimc']['ms_per_decision']:.1f} ms each)", flush=True)
    print("hidden-state worlds, 1 thread: " + ", ".join(
        f"ply {p} {_m(result['sampling'][f'ply_{p}']['worlds_per_s'])} M/s "
        f"({_m(result['sampling'][f'ply_{p}']['worlds_per_cpu_s'])} M per CPU s)" for p in SAMPLE_PLIES), flush=True)
    result["peer"] = measure_peer(args.peer_python, 5000 if args.quick else 20000)
    result["machine"]["loadavg_end"] = os.getloadavg()
    result["checksums"] = check_checksums(result["points"])
    result["physical_ratios"] = physical_ratios(result)
    result["scaling"] = scaling(result["points"])
    result["targets"] = targets(result, args.headline_envs)
    return result


def measure_peer(python: Path | None, steps: int) -> dict:
    """The peer's steps/s on one core: measured by benchmarks/peer.py under the peer's own
    interpreter (it needs NumPy < 2, so it cannot share ours), else the figure quoted in
    issue 12."""
    if python is None:
        return {"steps_per_s": PEER_QUOTED_STEPS_PER_S, "measured": False, "source": "quoted in issue 12"}
    env = dict(os.environ, NUMBA_NUM_THREADS="1", OMP_NUM_THREADS="1")
    cmd = [str(python), str(HERE / "peer.py"), "--json", "--steps", str(steps)]
    try:
        # Bounded like every wait of the package (docs/distributed.md): a peer that hangs
        # stops the suite with its command named instead of holding it for good.
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
    except subprocess.TimeoutExpired:
        raise SystemExit(f"--peer-python: {' '.join(cmd)} did not finish within 1800 s") from None
    if proc.returncode != 0:
        raise SystemExit(f"--peer-python: {' '.join(cmd)} failed (exit {proc.returncode}):\n{proc.stderr[-2000:]}")
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    print(f"stratego_env, 1 core: env.step {got['env']:,.0f} steps/s, Numba core {got['core']:,.0f} steps/s", flush=True)
    return {"steps_per_s": got["best"], "measured": True, "env": got["env"], "core": got["core"],
            "source": "measured in this run (the faster of env.step and the Numba core)"}


def peer_references(peer: dict | None) -> list:
    """What our steps/s are divided by: (label, the peer's steps/s, whether issue 12's
    100x goal is checked on it, where the figure comes from). The goal's own figure, the
    39,000 quoted in issue 12, always; when --peer-python measured the peer in this run,
    also its env.step (like ours: a step that hands back the next player's observation
    and mask, the goal checked on it too) and, for information, its Numba functions called
    without its env (no env bookkeeping: the strictest comparison, not the goal's)."""
    refs = [("at issue 12's figure", PEER_QUOTED_STEPS_PER_S, True, "quoted in issue 12 (the goal's figure)")]
    if peer and peer.get("measured"):
        refs.append(("env.step", peer["env"], True, "the peer's env.step, measured in this run"))
        refs.append(("Numba core", peer["core"], False,
                     "the peer's Numba functions without its env, measured in this run (information)"))
    return refs


# -- derived figures -----------------------------------------------------------------
def _point(points, config, n, t):
    return next((p for p in points if (p["config"], p["num_envs"], p["threads"]) == (config, n, t)), None)


def check_checksums(points) -> dict:
    """Per num_envs: the (checksum, actions crc) of every config and thread count must agree."""
    out = {}
    for n in sorted({p["num_envs"] for p in points}):
        seen = {(p["checksum"], p["actions_crc32"]) for p in points if p["num_envs"] == n}
        (checksum, crc), *_ = sorted(seen)
        out[str(n)] = {"check_steps": check_steps_for(n), "checksum": checksum, "actions_crc32": crc,
                       "identical": len(seen) == 1,
                       "variants": sorted(f"{a}/{b}" for a, b in seen) if len(seen) > 1 else []}
    return out


def physical_ratios(result) -> list[dict]:
    """1 thread: time of the mask+obs writing (step of the config minus the bare step)
    and of the whole step, over a memset / memcpy of the same bytes."""
    pts, out = result["points"], []
    copies = {(c["num_envs"], c["bytes_per_game"]): c for c in result["physical"]}
    for p in pts:
        bare = _point(pts, "step", p["num_envs"], 1)
        if p["threads"] != 1 or not p["mask_obs_bytes"] or bare is None:
            continue
        n, written, total = p["num_envs"], p["mask_obs_bytes"], p["bytes_per_step"]
        cw, ct = copies[(n, written)], copies[(n, total)]
        extra = p["step_call_s"] - bare["step_call_s"]
        out.append({"config": p["config"], "num_envs": n, "mask_obs_bytes": written, "bytes_per_step": total,
                    "write_s": extra, "memset_s": cw["memset_s"], "memcpy_s": cw["memcpy_s"],
                    "write_over_memset": extra / cw["memset_s"], "write_over_memcpy": extra / cw["memcpy_s"],
                    "step_over_memset_all": p["step_call_s"] / ct["memset_s"],
                    "step_over_memcpy_all": p["step_call_s"] / ct["memcpy_s"]})
    return out


def scaling(points) -> list[dict]:
    out = []
    for p in points:
        one = _point(points, p["config"], p["num_envs"], 1)
        if one is not None:
            out.append({"config": p["config"], "num_envs": p["num_envs"], "threads": p["threads"],
                        "speedup": p["steps_per_s"] / one["steps_per_s"]})
    return out


def targets(result, headline: int) -> list[dict]:
    pts = result["points"]
    envs = sorted({p["num_envs"] for p in pts})
    n = headline if headline in envs else envs[len(envs) // 2]
    ncpu = max(p["threads"] for p in pts)
    out = []

    def add(name, value, goal, passed, note=""):
        out.append({"target": name, "value": value, "goal": goal,
                    "passed": None if passed is None else bool(passed), "note": note})

    one = _point(pts, DEFAULT, n, 1)
    best = max((p for p in pts if p["config"] == DEFAULT and p["threads"] == 1),
               key=lambda p: p["steps_per_s"], default=None)
    if one:
        add("steps/s, 1 thread, default obs + mask", one["steps_per_s"], ">= 3,000,000",
            one["steps_per_s"] >= 3e6, f"num_envs={n}; best {best['steps_per_s']:,.0f} at {best['num_envs']}")
    ratio = next((r for r in result["physical_ratios"] if (r["config"], r["num_envs"]) == (DEFAULT, n)), None)
    if ratio:
        add("obs + mask writing / memset of the same bytes", ratio["write_over_memset"], "<= 2",
            ratio["write_over_memset"] <= 2, f"num_envs={n}, 1 thread")
    two = _point(pts, DEFAULT, n, 2)
    if one and two:
        s = two["steps_per_s"] / one["steps_per_s"]
        add("speedup, 2 threads vs 1", s, ">= 1.8", s >= 1.8, f"num_envs={n}")
    else:
        add("speedup, 2 threads vs 1", None, ">= 1.8", None, "fewer than 2 threads measured")
    add("game state bytes", stratego.STATE_BYTES, "<= 2048", stratego.STATE_BYTES <= 2048)
    if one:
        add("reset / step", one["reset_over_step"], "<= 10", one["reset_over_step"] <= 10, f"num_envs={n}, 1 thread")
    top = _point(pts, DEFAULT, n, 16)
    if one and top:
        s = top["steps_per_s"] / one["steps_per_s"]
        add("speedup, 16 threads vs 1", s, ">= 12", s >= 12, f"num_envs={n}")
    else:
        allt = _point(pts, DEFAULT, n, ncpu)
        s = allt["steps_per_s"] / one["steps_per_s"] if one and allt else None
        add("speedup, 16 threads vs 1", s, ">= 12 (16-core machine)", None,
            f"not measured: {ncpu} threads max; speedup at {ncpu} shown")
    compact = _point(pts, COMPACT, n, 1)
    if one and compact:
        add("bytes/step, codes + bit mask vs default", compact["bytes_per_step"] / one["bytes_per_step"], "<= 0.1",
            compact["bytes_per_step"] * 10 <= one["bytes_per_step"],
            f"{compact['bytes_per_step']:,} vs {one['bytes_per_step']:,} bytes")
        r = compact["steps_per_s"] / one["steps_per_s"]
        add("steps/s, codes + bit mask vs default planes, 1 thread", r, ">= 2", r >= 2, f"num_envs={n}")
    if ratio:
        add("default planes writing / memcpy of the same bytes", ratio["write_over_memcpy"], "<= 1.1",
            ratio["write_over_memcpy"] <= 1.1, f"num_envs={n}, 1 thread")
    peers = peer_references(result.get("peer"))
    inter = result.get("interleaved")
    if inter:
        r = inter["compact_over_default"]
        add("steps/s, codes + bit mask vs default planes, fastest alternating steps", r, ">= 2", r >= 2,
            f"num_envs={inter['num_envs']}, 1 thread, robust to other work")
        r = inter["default_write_over_memcpy"]
        add("default planes writing / memcpy, fastest alternating steps", r, "<= 1.1", r <= 1.1,
            f"num_envs={inter['num_envs']}, 1 thread")
    for label, peer_steps, is_goal, source in peers:
        figures = [(name, "1 thread", (_point(pts, name, n, 1) or {}).get("steps_per_s")) for name in (DEFAULT, COMPACT)]
        if inter:
            figures += [(name, "fastest alternating steps", inter["steps_per_s"][name]) for name in (DEFAULT, COMPACT)]
        for name, how, ours in figures:
            if ours:
                r = ours / peer_steps
                add(f"vs stratego_env {label} ({peer_steps:,.0f} steps/s), {name}, {how}", r, ">= 100 (compact)",
                    r >= 100 if name == COMPACT and is_goal else None, source)
    dep = result.get("deployment")
    if dep:
        r = dep["deploy_step_over_move_step"]
        add("deployment step / move step (setup='agent')", r, "<= 1.5", r <= 1.5,
            f"num_envs={dep['num_envs']}, 1 thread, default obs + mask, same env")
    sampling = result.get("sampling")
    if sampling:
        w = sampling["ply_100"]["worlds_per_s"]
        add("hidden-state worlds sampled/s at ply 100, 1 thread", w, ">= 1,000,000", w >= 1e6,
            f"{sampling['num_envs']} games x {sampling['worlds_per_game']} worlds a call, each a game save "
            f"(VecEnv.sample_worlds); ply 0 {sampling['ply_0']['worlds_per_s']:,.0f}, "
            f"ply 400 {sampling['ply_400']['worlds_per_s']:,.0f}")
    pimc = result.get("pimc")
    if pimc:
        add("PIMC bot ms a decision, 1 thread", pimc["ms_per_decision"], "< 200", pimc["ms_per_decision"] < 200,
            f"{pimc['num_envs']} games after 100 random plies (bot_actions)")
    same = all(c["identical"] for c in result["checksums"].values())
    add("checksum identical across threads and configs", same, "true", same)
    rec = result.get("recording")
    if rec:
        for name, c in rec["configs"].items():
            r = c["on_over_off_median"]
            add(f"steps/s, recording on / off, {name}", r, ">= 0.9 (<= 10% slower)", r >= 0.9,
                f"num_envs={rec['num_envs']}, 1 thread, median alternating steps with pop_records; "
                f"fastest {c['on_over_off_best']:.3f}")
        same = all(c["checksums_identical"] for c in rec["configs"].values())
        add("recording changes no game (checksums on = off)", same, "true", same)
    v = result.get("versus")
    if v:
        for b in FAST_BOTS:
            r = v[f"learner_over_plain_vs_{b}"]
            add(f"learner steps/s vs {b} / plain plies/s", r, ">= 0.45", r >= 0.45,
                f"num_envs={v['num_envs']}, 1 thread, default obs + mask, same run")
        d = v["heuristic_decisions_per_s"]
        add("heuristic bot decisions/s, 1 thread", d, ">= 1,000,000", d >= 1e6,
            f"num_envs={v['num_envs']}; the decision alone (bot_actions)")
    return out


# -- output --------------------------------------------------------------------------
def _m(x: float) -> str:
    return f"{x / 1e6:.2f}"


def markdown(result, headline: int) -> str:
    m, pts = result["machine"], result["points"]
    envs = sorted({p["num_envs"] for p in pts})
    n = headline if headline in envs else envs[len(envs) // 2]
    tmax = max(p["threads"] for p in pts)
    mem = result["memory"]
    ratios = {(r["config"], r["num_envs"]): r for r in result["physical_ratios"]}
    commit = (m["git_commit"] or "unknown")[:10] + ("+dirty" if m["git_dirty"] else "")
    lines = [f"Measured {m['date'][:10]} on {m['cpu_model']} ({m['cpu_count']} cores), {m['platform']}, "
             f"commit {commit}, `python benchmarks/suite.py`; M steps/s of `step()` alone "
             f"(with `sample_actions()` in brackets), num_envs = {n:,}.",
             "",
             f"| config | bytes/step | 1 thread | {tmax} threads | speedup | reset/step | write/memset | memory/game |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name in result["settings"]["configs"]:
        a, b = _point(pts, name, n, 1), _point(pts, name, n, tmax)
        if not a or not b:
            continue
        r = ratios.get((name, n))
        write = f"{r['write_over_memset']:.2f}" if r else "-"
        lines.append(f"| {name} | {a['bytes_per_step']:,} "
                     f"| {_m(a['steps_per_s'])} ({_m(a['steps_per_s_with_sample'])}) "
                     f"| {_m(b['steps_per_s'])} ({_m(b['steps_per_s_with_sample'])}) "
                     f"| {b['steps_per_s'] / a['steps_per_s']:.2f}x | {a['reset_over_step']:.2f} "
                     f"| {write} | {mem[name]['total_bytes']:,} B |")
    lines += ["", f"M steps/s of `step()` by num_envs, 1 thread / {tmax} threads:", "",
              "| config | " + " | ".join(f"{e:,}" for e in envs) + " |",
              "| --- |" + " ---: |" * len(envs)]
    for name in result["settings"]["configs"]:
        cells = []
        for e in envs:
            a, b = _point(pts, name, e, 1), _point(pts, name, e, tmax)
            cells.append(f"{_m(a['steps_per_s'])} / {_m(b['steps_per_s'])}" if a and b else "-")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    load = m["loadavg_start"][0], m["loadavg_end"][0]
    # The start only: the load average at the end counts the suite's own threads.
    if load[0] > 0.25 * m["cpu_count"]:
        lines += ["", f"Note: other work was running (load average {load[0]:.1f} at the start, {load[1]:.1f} at "
                  f"the end, {m['cpu_count']} cores): the figures, thread scaling above all, understate the engine."]
    checks = result["checksums"]
    lines += ["", f"Game state {stratego.STATE_BYTES} B. Checksums (seed {result['settings']['seed']}, "
              "identical across threads and configs: "
              f"{'yes' if all(c['identical'] for c in checks.values()) else 'NO'}): "
              + ", ".join(f"{int(k):,} games x {c['check_steps']} steps `{c['checksum']}`" for k, c in checks.items())
              + "."]
    return "\n".join(lines)


def format_targets(result) -> str:
    rows = []
    for t in result["targets"]:
        v = t["value"]
        if v is None or isinstance(v, bool):
            shown = "-" if v is None else str(v)
        else:
            shown = f"{v:,.0f}" if v >= 1000 else f"{v:.2f}" if isinstance(v, float) else str(v)
        mark = {True: "PASS", False: "FAIL", None: "n/a "}[t["passed"]]
        note = f"  [{t['note']}]" if t["note"] else ""
        rows.append(f"  {mark}  {t['target']}: {shown} (goal {t['goal']}){note}")
    return "\n".join(rows)


def plot(result, path: Path, headline: int) -> bool:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import NullFormatter, NullLocator
    except ImportError:
        print("matplotlib is not installed: no plot. Install it with `pip install matplotlib` "
              "(or `pip install -e '.[bench]'`).", file=sys.stderr)
        return False
    pts = result["points"]
    envs = sorted({p["num_envs"] for p in pts})
    n = headline if headline in envs else envs[len(envs) // 2]
    tmax = max(p["threads"] for p in pts)
    fig, (left, right) = plt.subplots(1, 2, figsize=(14, 4.8))
    for i, name in enumerate(result["settings"]["configs"]):
        color = f"C{i}"
        mine = sorted((p for p in pts if p["config"] == name and p["num_envs"] == n), key=lambda p: p["threads"])
        left.plot([p["threads"] for p in mine], [p["steps_per_s"] for p in mine], "o-", color=color, label=name)
        for t, style in ((1, "o-"), (tmax, "s--")):
            row = sorted((p for p in pts if p["config"] == name and p["threads"] == t), key=lambda p: p["num_envs"])
            right.plot([p["num_envs"] for p in row], [p["steps_per_s"] for p in row], style, color=color,
                       label=f"{name}, {t} thread{'s' if t > 1 else ''}")
            if tmax == 1:
                break
    left.set(title=f"steps/s vs threads (num_envs={n:,})", xlabel="threads", ylabel="steps/s (step() alone)",
             yscale="log")
    left.set_xticks(sorted({p["threads"] for p in pts}))
    right.set(title="steps/s vs num_envs", xlabel="num_envs", ylabel="steps/s (step() alone)", xscale="log",
              yscale="log")
    right.set_xticks(envs, [f"{e:,}" for e in envs])
    right.xaxis.set_minor_locator(NullLocator())
    left.legend(fontsize=8)
    right.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    for ax in (left, right):
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.grid(True, which="both", alpha=0.3)
    m = result["machine"]
    fig.suptitle(f"stratego-sim {m['date'][:10]}, {m['cpu_model']} ({m['cpu_count']} cores), "
                 f"commit {(m['git_commit'] or 'unknown')[:10]}{'+dirty' if m['git_dirty'] else ''}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def compare(old_path: Path, result) -> int:
    """Prints the checksum agreement and speed ratios against an earlier JSON; returns
    the number of checksum mismatches on points both runs share."""
    old = json.loads(old_path.read_text())
    bad = 0
    for n, c in result["checksums"].items():
        o = old.get("checksums", {}).get(n)
        if o and o["check_steps"] == c["check_steps"] and old["settings"]["seed"] == result["settings"]["seed"]:
            same = (o["checksum"], o["actions_crc32"]) == (c["checksum"], c["actions_crc32"])
            bad += not same
            print(f"  num_envs {n}: checksum {'same' if same else 'CHANGED ' + o['checksum'] + ' -> ' + c['checksum']}")
    label = (old["machine"]["git_commit"] or "the old run")[:10]
    for p in result["points"]:
        o = _point(old["points"], p["config"], p["num_envs"], p["threads"])
        if o:
            print(f"  {p['config']:<18} n={p['num_envs']:<6} t={p['threads']:<3} "
                  f"{p['steps_per_s'] / o['steps_per_s']:.2f}x the steps/s of {label}")
    return bad


# -- contention -----------------------------------------------------------------------
CONTENTION_KINDS = ("busy", "torch", "busy+torch")


class Contention:
    """Other work on every core while the simulator runs: `busy`, one spinning process per
    core; `torch`, PyTorch matrix products in another thread of this process (torch's
    own thread count, all cores by default); `busy+torch`, both."""

    def __init__(self, kind: str):
        self.kind, self.procs, self.stop, self.thread = kind, [], threading.Event(), None

    def __enter__(self):
        if "busy" in self.kind:
            # Each spins until its parent is gone, so a killed suite leaves none behind.
            spin = "import os\nparent = os.getppid()\nwhile os.getppid() == parent: pass"
            self.procs = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(os.cpu_count() or 1)]
        if "torch" in self.kind:
            import torch
            a, b = torch.randn(512, 512), torch.randn(512, 512)

            def products():
                while not self.stop.is_set():
                    torch.mm(a, b)

            self.thread = threading.Thread(target=products, daemon=True)
            self.thread.start()
        time.sleep(0.5)  # let the load settle on the cores
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for p in self.procs:
            p.kill()
            p.wait()
        if self.thread is not None:
            self.thread.join()


def run_contention(args) -> dict:
    """N threads against 1 under each kind of contention at --headline-envs games: the
    points alternate between thread counts, `--repeats` times, and the median of each
    count is compared, so that a change in the other work hits both alike."""
    ncpu = os.cpu_count() or 1
    threads = thread_counts(args.threads, ncpu)
    n = args.headline_envs
    kinds = args.kinds or list(CONTENTION_KINDS)
    try:
        import torch  # noqa: F401
    except ImportError:
        print("torch is not installed: the torch kinds are skipped (pip install -e '.[train]')", file=sys.stderr)
        kinds = [k for k in kinds if "torch" not in k]
    configs = args.configs or [DEFAULT, COMPACT]
    result = {"machine": machine_info(), "settings": {"contention": kinds, "num_envs": n, "threads": threads,
                                                      "repeats": args.repeats, "min_time": args.min_time,
                                                      "seed": args.seed, "configs": configs},
              "points": [], "ratios": []}
    check_steps = check_steps_for(n)
    for kind in kinds:
        for name in configs:
            env = stratego.VecEnv(n, num_threads=1, **CONFIGS[name])
            try:
                with Contention(kind):
                    runs = {t: [] for t in threads}
                    for _ in range(args.repeats):
                        for t in threads:
                            p = measure_point(env, t, args.seed, check_steps, args.min_time)
                            p.update(config=name, num_envs=n, contention=kind)
                            result["points"].append(p)
                            runs[t].append(p)
            finally:
                env.close()
            one = float(np.median([p["steps_per_s"] for p in runs[threads[0]]]))
            for t in threads:
                med = float(np.median([p["steps_per_s"] for p in runs[t]]))
                ratio = med / one
                result["ratios"].append({"contention": kind, "config": name, "threads": t, "steps_per_s": med,
                                         "ratio": ratio})
                print(f"contention {kind:<11} {name:<16} t={t:<3} {med / 1e6:6.3f} M steps/s  "
                      f"{ratio:4.2f}x {threads[0]} thread" + ("s" if threads[0] > 1 else ""), flush=True)
    result["machine"]["loadavg_end"] = os.getloadavg()
    seen = {(p["checksum"], p["actions_crc32"]) for p in result["points"]}
    result["checksums_identical"] = len(seen) == 1
    worst = min((r["ratio"] for r in result["ratios"] if r["threads"] > threads[0]), default=None)
    result["targets"] = [{"target": "N threads / 1 thread under contention (worst)", "value": worst,
                          "goal": ">= 0.9", "passed": None if worst is None else worst >= 0.9, "note": f"num_envs={n}"},
                         {"target": "checksum identical across threads, configs and contention",
                          "value": result["checksums_identical"], "goal": "true",
                          "passed": result["checksums_identical"], "note": ""}]
    return result


def contention_markdown(result) -> str:
    s = result["settings"]
    threads = s["threads"]
    lines = [f"Contention, {s['num_envs']:,} games, median of {s['repeats']} alternating runs, M steps/s of `step()` "
             f"(N threads / 1 thread):", "",
             "| contention | config | " + " | ".join(f"{t} thread{'s' if t > 1 else ''}" for t in threads) + " |",
             "| --- | --- |" + " ---: |" * len(threads)]
    for kind in s["contention"]:
        for name in s["configs"]:
            cells = [f"{r['steps_per_s'] / 1e6:.2f} ({r['ratio']:.2f}x)" for r in result["ratios"]
                     if (r["contention"], r["config"]) == (kind, name)]
            lines.append(f"| {kind} | {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="smoke run: 2 sizes, short timings (under a minute)")
    ap.add_argument("--out", type=Path, default=HERE / "results", help="directory for the JSON and PNG")
    ap.add_argument("--envs", type=int_list(1, MAX_ENVS), help="num_envs list, e.g. 256,4096")
    ap.add_argument("--threads", default="all", help="'all' (1..cores), 'pow2' (1,2,4,..,cores) or a list: 1,2,8")
    ap.add_argument("--configs", type=lambda s: s.split(","), help=f"subset of {','.join(CONFIGS)}")
    ap.add_argument("--min-time", type=float_in(0, 3600, lo_open=True), help="seconds timed per point (default 0.3, quick 0.1)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--headline-envs", type=int_in(1, MAX_ENVS), default=4096, help="num_envs of the table and the target checks")
    ap.add_argument("--compare", type=Path, help="an earlier results JSON: checksums and speed ratios against it")
    ap.add_argument("--contention", action="store_true",
                    help="measure N threads vs 1 with other work on every core (see --kinds) instead of the grid")
    ap.add_argument("--kinds", type=lambda s: s.split(","), help=f"contention kinds, subset of {','.join(CONTENTION_KINDS)}")
    ap.add_argument("--repeats", type=int, default=3, help="contention: alternating runs per thread count")
    ap.add_argument("--peer-python", type=Path,
                    help="the Python of a venv where stratego_env is installed: measure the peer in this run "
                         "(benchmarks/peer.py) as well as quoting issue 12's figure")
    ap.add_argument("--recording", action="store_true",
                    help="only VecEnv(record=True) against record=False at --headline-envs games, 1 thread")
    args = ap.parse_args(argv)
    if args.recording:
        rec = measure_recording(args.headline_envs, args.seed, 10 if args.quick else 100, 200 if args.quick else 700)
        print("\n".join(recording_lines(rec)))
        return 0 if all(c["checksums_identical"] for c in rec["configs"].values()) else 1
    if args.threads not in ("all", "pow2"):
        try:
            thread_counts(args.threads, 1)
        except argparse.ArgumentTypeError as exc:
            ap.error(f"argument --threads: {exc}")
    if args.configs and set(args.configs) - set(CONFIGS):
        ap.error(f"unknown configs {sorted(set(args.configs) - set(CONFIGS))}; choose from {list(CONFIGS)}")
    if args.kinds and set(args.kinds) - set(CONTENTION_KINDS):
        ap.error(f"unknown contention kinds {sorted(set(args.kinds) - set(CONTENTION_KINDS))}")
    if args.min_time is None:
        args.min_time = 1.0 if args.contention else 0.1 if args.quick else 0.3
    if args.contention:
        result = run_contention(args)
        args.out.mkdir(parents=True, exist_ok=True)
        path = args.out / f"{result['machine']['date'][:10]}-{result['machine']['hostname']}-contention.json"
        path.write_text(json.dumps(result, indent=1) + "\n")
        print()
        print(contention_markdown(result))
        print("\nTargets:")
        print(format_targets(result))
        print(f"\nresults: {path}")
        return 0 if result["checksums_identical"] else 1

    result = run(args)
    args.out.mkdir(parents=True, exist_ok=True)
    stem = f"{result['machine']['date'][:10]}-{result['machine']['hostname']}{'-quick' if args.quick else ''}"
    json_path, png_path = args.out / f"{stem}.json", args.out / f"{stem}.png"
    json_path.write_text(json.dumps(result, indent=1) + "\n")
    plotted = plot(result, png_path, args.headline_envs)

    print()
    print(markdown(result, args.headline_envs))
    print("\nTargets:")
    print(format_targets(result))
    print(f"\nresults: {json_path}" + (f"\nplot:    {png_path}" if plotted else ""))
    bad = 0
    if args.compare:
        print(f"\nAgainst {args.compare}:")
        bad = compare(args.compare, result)
    same = all(c["identical"] for c in result["checksums"].values())
    if not same:
        print("\nCHECKSUM MISMATCH across threads or configs: the games differ.", file=sys.stderr)
    return 0 if same and not bad else 1


if __name__ == "__main__":
    sys.exit(main())
