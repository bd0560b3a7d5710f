"""How many threads a VecEnv uses when num_threads is 0.

The CPUs this process may use, the smallest of:
- `os.sched_getaffinity(0)` (taskset, cpusets, a job scheduler's allocation);
- the cgroup CPU quota, rounded up (cgroup v2 `cpu.max`, v1 `cpu.cfs_quota_us` /
  `cpu.cfs_period_us`): a container limited to 2.5 CPUs on a 64-core host gets 3;
- `OMP_NUM_THREADS`, when set to a positive integer (its first entry if a list), the
  variable every threaded numerical library reads, so one setting caps them all.
"""
from __future__ import annotations

import math
import os
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
    return max(1, min(cpus, 4096))
