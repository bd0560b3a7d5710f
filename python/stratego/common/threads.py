"""How many threads a VecEnv uses: the default when num_threads is 0, and the cut of a
request above what the machine runs (the pool's cap, csrc/engine/pool.h).

The CPUs this process may use, the smallest of:
- `os.sched_getaffinity(0)` (taskset, cpusets, a job scheduler's allocation);
- the cgroup CPU quota, rounded up (cgroup v2 `cpu.max`, v1 `cpu.cfs_quota_us` /
  `cpu.cfs_period_us`): a container limited to 2.5 CPUs on a 64-core host gets 3;
- `OMP_NUM_THREADS`, when set to a positive integer (its first entry if a list), the
  variable every threaded numerical library reads, so one setting caps them all.
"""
from __future__ import annotations

import math
import numbers
import os
import warnings
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")


def _cgroup_dirs(root: Path, proc_cgroup: Path) -> list[Path]:
    """The cgroup folders whose quota bounds this process: its own (v2's unified one,
    v1's cpu controller) and every parent up to the root, where a container sees its own."""
    own = []
    try:
        lines = proc_cgroup.read_text().splitlines()
    except OSError:
        lines = []
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        rel = path.strip().lstrip("/")
        if controllers == "":
            own.append(root / rel)
        elif "cpu" in controllers.split(","):
            own += [root / name / rel for name in ("cpu,cpuacct", "cpu")]
    dirs = []
    for folder in own + [root, root / "cpu,cpuacct", root / "cpu"]:
        while folder not in dirs:
            dirs.append(folder)
            if folder == root or folder.parent == folder or root not in folder.parents:
                break
            folder = folder.parent
    return dirs


def _quota(folder: Path) -> float | None:
    """CPUs of the quota set in one cgroup folder (v2 `cpu.max`, v1 cfs files), or None."""
    try:
        v2 = (folder / "cpu.max").read_text().split()
    except OSError:
        v2 = None
    if v2:
        if v2[0] == "max":
            return None
        return int(v2[0]) / int(v2[1]) if len(v2) > 1 else int(v2[0]) / 100000
    try:
        quota = int((folder / "cpu.cfs_quota_us").read_text())
        period = int((folder / "cpu.cfs_period_us").read_text())
    except (OSError, ValueError):
        return None
    return quota / period if quota > 0 and period > 0 else None


def cgroup_cpu_limit(root: Path = CGROUP_ROOT, proc_cgroup: Path = Path("/proc/self/cgroup")) -> float | None:
    """CPUs the tightest cgroup quota over this process allows (a float), or None."""
    quotas = [q for q in map(_quota, _cgroup_dirs(root, proc_cgroup)) if q is not None]
    return min(quotas) if quotas else None


def _omp_num_threads() -> int | None:
    value = os.environ.get("OMP_NUM_THREADS", "").split(",")[0].strip()
    try:
        count = int(value)
    except ValueError:
        return None
    return count if count > 0 else None


def default_num_threads() -> int:
    """The thread count VecEnv(num_threads=0) uses (see the module's docstring)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    try:
        quota = cgroup_cpu_limit()
    except (OSError, ValueError):
        quota = None
    if quota is not None:
        cpus = min(cpus, max(1, math.ceil(quota)))
    omp = _omp_num_threads()
    if omp is not None:
        cpus = min(cpus, omp)
    from .. import _core

    return max(1, min(cpus, _core.MAX_THREADS))


def resolve_num_threads(num_threads):
    """The thread count a batch gets for a `num_threads` argument: 0 is
    default_num_threads(); a count above the pool's cap (`_core.pool_max_threads()`: a
    few threads a CPU of this process's affinity, csrc/engine/pool.h) is cut to the cap with a
    RuntimeWarning naming both counts (the games are the same for any count; more
    threads than that would only take turns on the same cores). Anything else goes to
    the core unchanged, which checks it (type, range)."""
    # Plain integers only: an object with its own __index__ goes to the core, which
    # converts it once (a second conversion here could run its code twice).
    if isinstance(num_threads, bool) or not isinstance(num_threads, numbers.Integral):
        return num_threads
    requested = int(num_threads)
    if requested == 0:
        return default_num_threads()
    from .. import _core

    cap = _core.pool_max_threads()
    if cap < requested <= _core.MAX_THREADS:
        warnings.warn(f"num_threads={requested} is more threads than this machine runs at once: using {cap}, "
                      f"the pool's cap for the CPUs this process may run on (stratego._core.pool_max_threads(), "
                      f"docs/performance.md#threads)", RuntimeWarning, stacklevel=4)
        return cap
    return num_threads
