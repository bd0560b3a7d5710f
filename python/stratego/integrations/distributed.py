"""Simulation on a Ray cluster, with the same games as one machine.

One run of N games is cut into slices [k, k + n); each slice is a `VecEnv(n,
game_offset=k)` owned by a Ray actor, whose OpenMP threads match the CPUs Ray gives it.
Game k + i of a slice draws on the streams of game k + i of the run (vec_env.VecEnv), so
the actors play exactly the games one local `VecEnv(N)` plays, and the sum of their
checksums is the local checksum (docs/distributed.md).

Faults: actors are created with `max_restarts` and `max_task_retries`, so an actor whose
process dies mid-run is restarted by Ray and its slice played again from the seed; the
result does not change. Every wait is bounded (`timeout`), and an actor's failure is
raised as `ActorFailed` naming the actor, its slice and the cause. Joining a cluster
takes at most `connect(timeout=)` seconds (CONNECT_TIMEOUT): the address is checked
without Ray first (probe_ray_head), then Ray's own connect runs against the rest of it.

Ray is an optional dependency (`pip install -e '.[ray]'`); this module imports it only
when called.
"""
from __future__ import annotations

import dataclasses
import math
import numbers
import os
import socket
import sys
import threading
import time
from dataclasses import dataclass

from ..bench import BenchResult

MASK64 = (1 << 64) - 1
# How long connect() waits for a Ray head by default: a head answers in milliseconds;
# Ray's own connect to an address that accepts TCP but is no head waited over 11 minutes.
CONNECT_TIMEOUT = 30.0
# HTTP/2's client connection preface and an empty SETTINGS frame (RFC 9113, sections 3.4
# and 6.5). A Ray head's address is its GCS, a gRPC server, which answers over HTTP/2
# with a SETTINGS frame of its own (frame type 4, on stream 0) at once.
_H2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
_H2_FRAME_HEADER = 9
_H2_SETTINGS = 4
# The package every actor imports; a test names a missing one to see the error a node
# without the package gives.
PACKAGE = "stratego"


class ActorFailed(RuntimeError):
    """A Ray actor of a distributed run failed (its message names the actor and cause)."""


@dataclass(frozen=True)
class Slice:
    """Games [offset, offset + num_envs) of a run, owned by actor `actor`."""

    actor: int
    offset: int
    num_envs: int

    def __str__(self) -> str:
        return f"actor {self.actor} (games {self.offset}..{self.offset + self.num_envs - 1})"


def split_games(num_envs: int, actors: int) -> list[Slice]:
    """num_envs games cut into `actors` contiguous slices whose sizes differ by at most one."""
    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
        raise ValueError(f"num_envs must be an int >= 1, got {num_envs!r}")
    if isinstance(actors, bool) or not isinstance(actors, int) or not 1 <= actors <= num_envs:
        raise ValueError(f"actors must be an int in [1, num_envs={num_envs}], got {actors!r}")
    base, extra = divmod(num_envs, actors)
    slices, offset = [], 0
    for a in range(actors):
        n = base + (a < extra)
        slices.append(Slice(a, offset, n))
        offset += n
    return slices


def _import_ray():
    try:
        import ray
    except ImportError:
        raise ImportError("stratego.integrations.distributed needs Ray: pip install -e '.[ray]' "
                          "(docs/distributed.md)") from None
    return ray


def _check_timeout(timeout) -> float:
    """A timeout in seconds as a float: any real number (NumPy's included) > 0 and finite."""
    if isinstance(timeout, bool) or not isinstance(timeout, numbers.Real):
        raise ValueError(f"timeout must be a number of seconds > 0, got {timeout!r} "
                         f"({type(timeout).__name__}, not a real number)")
    seconds = float(timeout)
    if not 0 < seconds < math.inf:
        raise ValueError(f"timeout must be a number of seconds > 0, got {timeout!r} "
                         f"(it must be finite and above 0)")
    return seconds


def probe_ray_head(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Checks, without Ray, that HOST:PORT answers as a Ray head within `timeout` seconds:
    it accepts a TCP connection and answers HTTP/2's connection preface with a SETTINGS
    frame, as the head's GCS (a gRPC server) does at once. ConnectionError when nothing
    listens or something else answers, TimeoutError when it accepts but stays silent
    (Ray's own connect waited there for over 11 minutes), each naming the address and
    what was expected. Under RAY_USE_TLS the GCS expects TLS first: only the TCP
    connection is checked. 'auto', 'local' and ray:// addresses are not probed."""
    timeout = _check_timeout(timeout)
    if address in ("auto", "local") or address.startswith("ray://"):
        return
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"a Ray address is HOST:PORT (e.g. 10.0.0.5:6379), 'auto' or ray://..., got {address!r}")
    deadline = time.monotonic() + timeout
    try:
        sock = socket.create_connection((host.strip("[]"), int(port)), timeout=timeout)
    except TimeoutError:
        raise TimeoutError(f"no Ray head at {address}: no TCP connection within {timeout:g} s (a firewall, or "
                           f"no such host?)") from None
    except OSError as exc:
        raise ConnectionError(f"no Ray head at {address}: {exc} (start one with `ray start --head`, "
                              f"or leave out the address to start a local Ray)") from None
    head = b""
    try:
        with sock:
            if os.environ.get("RAY_USE_TLS", "0").lower() in ("1", "true"):
                return
            sock.sendall(_H2_PREFACE)
            while len(head) < _H2_FRAME_HEADER:
                sock.settimeout(max(deadline - time.monotonic(), 1e-3))
                chunk = sock.recv(_H2_FRAME_HEADER - len(head))
                if not chunk:
                    break
                head += chunk
    except TimeoutError:
        raise TimeoutError(f"{address} accepted a TCP connection but did not answer as a Ray head within "
                           f"{timeout:g} s (a head's GCS answers HTTP/2 at once): is this the address "
                           f"`ray start --head` printed (HOST:6379 by default)? A slow network: raise the "
                           f"timeout (connect(timeout=), stratego bench --ray-timeout)") from None
    except OSError as exc:
        raise ConnectionError(f"{address} accepted a TCP connection, then failed before answering as a Ray "
                              f"head: {exc}") from None
    if not head:
        raise ConnectionError(f"{address} accepted a TCP connection, then closed it without answering as a Ray "
                              f"head (a head's GCS answers HTTP/2 with a SETTINGS frame): is this the address "
                              f"`ray start --head` printed (HOST:6379 by default)?")
    if len(head) < _H2_FRAME_HEADER or head[3] != _H2_SETTINGS:
        raise ConnectionError(f"{address} answered, but not as a Ray head: expected the HTTP/2 (gRPC) SETTINGS "
                              f"frame of a head's GCS, got {head[:16]!r}{' (then closed)' if len(head) < 9 else ''}")


# The thread of a ray.init that connect() gave up waiting for, while it still runs: Ray
# may yet connect there, so a later connect() is refused until it ends.
_pending_init: threading.Thread | None = None


def _init_within(ray, address: str, left: float, timeout: float) -> None:
    """ray.init(address) in a thread of its own, waited for at most `left` seconds (what
    is left of connect's `timeout`): Ray's connect has no deadline of its own to give
    (Ray 2.60, at a gRPC server that is no head: it retried in C++ for over 5 minutes). On
    time out the thread is left to Ray's retries (a daemon: the process still exits),
    kept as _pending_init, and TimeoutError names the address. Ray then logs that it set
    no SIGTERM handler (not the main thread): a driver stopped by SIGTERM ends as by
    default, which the cluster sees."""
    global _pending_init
    outcome = {}

    def init():
        try:
            ray.init(address=address, log_to_driver=False)
        except BaseException as exc:  # handed to the caller below
            outcome["error"] = exc

    worker = threading.Thread(target=init, name=f"ray.init({address})", daemon=True)
    worker.start()
    worker.join(left)
    if worker.is_alive():
        _pending_init = worker
        raise TimeoutError(f"Ray did not connect to the head at {address} within {timeout:g} s: the address "
                           f"answers as a gRPC server, but Ray's handshake did not finish (a head of another "
                           f"Ray version, or one still starting?); raise the timeout (connect(timeout=), "
                           f"stratego bench --ray-timeout) if the network is slow")
    if "error" in outcome:
        raise outcome["error"]


def connect(address: str | None = None, *, num_cpus: int | None = None, timeout: float = CONNECT_TIMEOUT):
    """Joins the Ray cluster at `address` (HOST:PORT, 'auto', ray://...), or starts a
    local one with num_cpus CPUs when address is None; nothing if Ray is already up.
    Returns the ray module. Joining takes at most `timeout` seconds (CONNECT_TIMEOUT, 30),
    the address's check included (probe_ray_head, which needs no Ray) but not the import
    of Ray (seconds, and no part of reaching the head): past it, or when the address is
    no Ray head, an error names the address and what was expected. After a connect that
    timed out, Ray's connect goes on in the background; until it ends, connect() refuses
    (RuntimeError), since Ray may still join that cluster."""
    timeout = _check_timeout(timeout)
    running = sys.modules.get("ray")
    if running is not None and running.is_initialized():
        return running
    if _pending_init is not None and _pending_init.is_alive():
        raise RuntimeError(f"an earlier connect() timed out, and its {_pending_init.name} still retries in the "
                           f"background (Ray has no way to stop it): it may yet join that cluster, so this "
                           f"process cannot connect again until it ends; start a new process to connect "
                           f"elsewhere")
    probe_start = time.monotonic()
    if address is not None:
        probe_ray_head(address, timeout)
    probed = time.monotonic() - probe_start
    ray = _import_ray()
    if ray.is_initialized():
        return ray
    if address is not None:
        _init_within(ray, address, max(timeout - probed, 1e-3), timeout)
    else:
        # Ray starts its workers 15 nice levels below the raylet by default, so on a busy
        # machine an actor ran at half the speed of the same loop in this process
        # (docs/distributed.md, "Measured here"). A local Ray for a run here gets the
        # driver's priority; a cluster keeps its own setting (RAY_worker_niceness).
        ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False,
                 _system_config={"worker_niceness": 0})
    return ray


def _actor_class(ray, max_restarts: int):
    class SimulationActor:
        """A slice of a run: its VecEnv lives in this actor (simulation stays local)."""

        def __init__(self, package: str):
            import importlib
            try:
                self.package = importlib.import_module(package)
            except ImportError as exc:
                raise ImportError(f"the package {package!r} is not installed on this Ray node "
                                  f"({socket.gethostname()}): {exc}; install it on every node "
                                  f"(docs/distributed.md)") from None

        def pid(self) -> int:
            return os.getpid()

        def bench(self, num_envs, game_offset, batch_steps, threads, seed, variant, env_kwargs):
            from stratego.bench import run_bench as bench_here
            result = bench_here(num_envs=num_envs, batch_steps=batch_steps, num_threads=threads,
                                seed=seed, variant=variant, progress=False, game_offset=game_offset,
                                label=f"games {game_offset}..", **env_kwargs)
            return result, os.getpid()

    return ray.remote(max_restarts=max_restarts, max_task_retries=max_restarts)(SimulationActor)


@dataclass
class RayBenchResult:
    """The run's totals (`total`, label "ray") and each actor's own result."""

    total: BenchResult
    actors: list[BenchResult]
    slices: list[Slice]
    pids: list[int]
    wall_seconds: float  # the driver's time from dispatch to the last result

    @property
    def overhead_seconds(self) -> float:
        """Driver wall time beyond the slowest actor's own stepping time: dispatch, Ray's
        calls and the results' way back."""
        return self.wall_seconds - max(r.seconds for r in self.actors)


def start_actors(slices: list[Slice], *, threads: int = 1, max_restarts: int = 1, package: str = PACKAGE,
                 timeout: float = 60.0):
    """One SimulationActor a slice, each with `threads` CPUs; returns them and their
    pids once every one is up, or ActorFailed naming the first that is not."""
    ray = _import_ray()
    cls = _actor_class(ray, max_restarts)
    actors = [cls.options(num_cpus=threads).remote(package) for _ in slices]
    try:
        pids = _gather(ray, [a.pid.remote() for a in actors], slices, timeout, "start")
    except Exception:
        for a in actors:
            ray.kill(a)
        raise
    return actors, pids


def _gather(ray, refs, slices, timeout, what):
    """ray.get of one ref a slice within `timeout` seconds; failures name the slice."""
    deadline = time.monotonic() + timeout
    results = []
    for ref, s in zip(refs, slices):
        left = deadline - time.monotonic()
        try:
            results.append(ray.get(ref, timeout=max(left, 0.001)))
        except ray.exceptions.GetTimeoutError:
            raise TimeoutError(f"{s} did not {what} within {timeout:g} s (raise `timeout` for longer runs, "
                               f"or check the cluster's free CPUs)") from None
        except ray.exceptions.RayError as exc:
            cause = getattr(exc, "cause", None) or exc
            raise ActorFailed(f"{s} failed to {what}: {type(cause).__name__}: {_first_line(cause)}") from None
    return results


def _first_line(exc) -> str:
    text = str(exc).strip()
    # Ray wraps a remote error in its traceback; the last line is the error itself.
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else type(exc).__name__


class SimulationPool:
    """Actors that each own a slice of `num_envs` games, kept alive across runs (a run
    then costs no actor start-up); a context manager that kills them on exit.

        with SimulationPool(4096, actors=2) as pool:
            result = pool.bench(1000, seed=0)
    """

    def __init__(self, num_envs: int, *, actors: int = 2, threads: int = 1, address: str | None = None,
                 max_restarts: int = 1, package: str = PACKAGE, start_timeout: float = 120.0,
                 connect_timeout: float = CONNECT_TIMEOUT):
        self.slices = split_games(num_envs, actors)
        self.threads = threads
        self.ray = connect(address, timeout=connect_timeout)
        self.actors, self.pids = start_actors(self.slices, threads=threads, max_restarts=max_restarts,
                                              package=package, timeout=start_timeout)

    def __enter__(self) -> "SimulationPool":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        for a in self.actors:
            self.ray.kill(a)
        self.actors = []

    def bench(self, batch_steps: int, *, seed: int = 0, variant: str = "classic", timeout: float | None = None,
              **env_kwargs) -> RayBenchResult:
        """The main job (stratego.bench.run_bench) on every slice: each actor steps its
        games for batch_steps steps from `seed` and returns statistics only. The total
        checksum equals run_bench's for the same games, seed and steps. `timeout` bounds
        the run (default: generous for the work asked)."""
        if isinstance(batch_steps, bool) or not isinstance(batch_steps, int) or batch_steps < 1:
            raise ValueError(f"batch_steps must be an int >= 1, got {batch_steps!r}")
        if not self.actors:
            raise RuntimeError("the pool is closed")
        if timeout is None:  # ~20 us a game step on a slow node, twice over for a restart
            timeout = 120.0 + batch_steps * max(s.num_envs for s in self.slices) * 4e-5
        start = time.perf_counter()
        refs = [a.bench.remote(s.num_envs, s.offset, batch_steps, self.threads, seed, variant, env_kwargs)
                for a, s in zip(self.actors, self.slices)]
        outcomes = _gather(self.ray, refs, self.slices, timeout, "run its slice")
        wall = time.perf_counter() - start
        results = [r for r, _ in outcomes]
        self.pids = [p for _, p in outcomes]
        return RayBenchResult(total=combine(results, wall), actors=results, slices=self.slices,
                              pids=self.pids, wall_seconds=wall)


def run_bench_ray(num_envs: int = 4096, batch_steps: int = 1000, *, actors: int = 2, threads: int = 1,
                  seed: int = 0, variant: str = "classic", address: str | None = None,
                  timeout: float | None = None, max_restarts: int = 1, package: str = PACKAGE,
                  on_started=None, connect_timeout: float = CONNECT_TIMEOUT, **env_kwargs) -> RayBenchResult:
    """One run of the main job on a SimulationPool made for it (and killed after).
    `on_started(pids)` is called once the actors are up (the fault test kills one)."""
    if isinstance(batch_steps, bool) or not isinstance(batch_steps, int) or batch_steps < 1:
        raise ValueError(f"batch_steps must be an int >= 1, got {batch_steps!r}")
    with SimulationPool(num_envs, actors=actors, threads=threads, address=address, max_restarts=max_restarts,
                        package=package, connect_timeout=connect_timeout) as pool:
        if on_started is not None:
            on_started(pool.pids)
        return pool.bench(batch_steps, seed=seed, variant=variant, timeout=timeout, **env_kwargs)


def combine(results: list[BenchResult], seconds: float) -> BenchResult:
    """Slices' results as one run's: counts add, checksums add mod 2**64, the time is the
    driver's wall time (so steps/s counts Ray's overhead)."""
    summed = {f.name: sum(getattr(r, f.name) for r in results)
              for f in dataclasses.fields(BenchResult)
              if f.name in ("num_envs", "games_finished", "red_wins", "blue_wins", "draws", "cap_draws",
                            "plies_of_finished")}
    return BenchResult(label="ray", num_threads=sum(r.num_threads for r in results),
                       batch_steps=results[0].batch_steps, seconds=seconds,
                       checksum=sum(r.checksum for r in results) & MASK64,
                       bytes_per_step=results[0].bytes_per_step, **summed)
