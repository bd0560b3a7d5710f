"""The main job: random-vs-random games in parallel, timed, with a checksum.

Every game plays uniformly random legal moves chosen in C (VecEnv.sample_actions), so
the run measures the simulator alone. The checksum sums a hash of every finished
game's (index, length, winner, reason) over a fixed seed and step count: the same
numbers on every machine and thread count, and a change to the rules changes it.
"""
from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass

from .vec_env import VecEnv


@dataclass
class BenchResult:
    label: str
    num_envs: int
    num_threads: int
    batch_steps: int
    seconds: float
    games_finished: int
    red_wins: int
    blue_wins: int
    draws: int
    cap_draws: int
    plies_of_finished: int
    checksum: int
    bytes_per_step: int

    @property
    def steps_per_second(self) -> float:
        """Plies per second over all games (one step = one game advancing one ply)."""
        return self.batch_steps * self.num_envs / self.seconds

    @property
    def games_per_second(self) -> float:
        return self.games_finished / self.seconds

    @property
    def mean_game_length(self) -> float:
        return self.plies_of_finished / self.games_finished if self.games_finished else float("nan")


def step_bytes(env: VecEnv) -> int:
    """Bytes the engine writes per game per step: mask, rewards, flags, observations."""
    arrays = [a for a in (env.action_mask,) if a is not None] + [env.rewards, env.reward, env.terminated, env.truncated,
              env.to_play, env.final_winner, env.final_reason, env.final_plies]
    if env.obs is not None:
        arrays.append(env.obs)
    if env.full_obs is not None:
        arrays.append(env.full_obs)
    return sum(a.nbytes for a in arrays) // env.num_envs


def stderr_is_terminal() -> bool:
    """Whether stderr is a terminal, where a progress bar is for someone to watch."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced by an object without it, or closed
        return False


class ProgressBar:
    """Progress of a run on stderr, for people; the rate is shown divided by `scale`,
    followed by `unit`. On a terminal: tqdm's bar (redrawn at most 10 times a second)
    when tqdm is installed (the train extra), else a plain line at each tenth of the run;
    when stderr is not a terminal (a log, a pipe), nothing: a file gets no frames."""

    STEPS = 1000  # the bar's resolution: fractions are shown in thousandths

    def __init__(self, label: str, enabled: bool, unit: str = "M steps/s", scale: float = 1e6):
        self.label, self.unit, self.scale = label, unit, scale
        self.enabled = enabled and stderr_is_terminal()
        self._bar = None
        self._tenths = -1
        if not self.enabled:
            return
        try:
            from tqdm import tqdm
        except ImportError:  # the core install: plain lines
            return
        self._bar = tqdm(total=self.STEPS, desc=f"{label:<12}", file=sys.stderr, mininterval=0.1, leave=True,
                         bar_format="{desc} {bar:30} {percentage:5.1f}%{postfix}")

    def update(self, fraction: float, rate: float, force: bool = False) -> None:
        if not self.enabled:
            return
        fraction = min(fraction, 1.0)
        shown = f"{rate / self.scale:6.2f} {self.unit}"
        if self._bar is not None:
            self._bar.set_postfix_str(shown, refresh=False)
            self._bar.update(round(self.STEPS * fraction) - self._bar.n)
            if force:
                self._bar.refresh()
            return
        tenths = int(10 * fraction)
        if tenths > self._tenths or force:
            self._tenths = tenths
            sys.stderr.write(f"{self.label:<12} {100 * fraction:5.1f}%  {shown}\n")
            sys.stderr.flush()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


def run_bench(
    num_envs: int = 4096,
    batch_steps: int | None = 1000,
    seconds: float | None = None,
    num_threads: int = 0,
    seed: int = 0,
    variant: str = "classic",
    label: str = "bench",
    progress: bool = True,
    **env_kwargs,
) -> BenchResult:
    """Steps num_envs games for batch_steps steps (or for `seconds`) from `seed`."""
    if (batch_steps is None) == (seconds is None):
        raise ValueError("give exactly one of batch_steps and seconds")
    # A NaN limit is never reached (every comparison with it is False): refuse it.
    if seconds is not None and not (isinstance(seconds, (int, float)) and 0 < seconds < math.inf):
        raise ValueError(f"seconds must be a finite number > 0, got {seconds!r}")
    if batch_steps is not None and (isinstance(batch_steps, bool) or not isinstance(batch_steps, int)
                                    or batch_steps < 1):
        raise ValueError(f"batch_steps must be an int >= 1, got {batch_steps!r}")
    env = VecEnv(num_envs, variant, num_threads=num_threads, **env_kwargs)
    try:
        env.reset(seed=seed)
        bar = ProgressBar(label, progress)
        done_steps = 0
        start = time.perf_counter()
        while True:
            elapsed = time.perf_counter() - start
            if batch_steps is not None and done_steps >= batch_steps:
                break
            if seconds is not None and elapsed >= seconds:
                break
            env.step(env.sample_actions())
            done_steps += 1
            # The rate over the time these steps took (not the time before the last one).
            now = time.perf_counter() - start
            fraction = done_steps / batch_steps if batch_steps else now / seconds
            bar.update(fraction, done_steps * num_envs / max(now, 1e-9))
        elapsed = time.perf_counter() - start
        bar.update(1.0, done_steps * num_envs / max(elapsed, 1e-9), force=True)
        bar.close()
        stats = env.stats()
        return BenchResult(
            label=label, num_envs=num_envs, num_threads=env.num_threads, batch_steps=done_steps,
            seconds=elapsed, bytes_per_step=step_bytes(env), **stats,
        )
    finally:
        env.close()


def format_result(r: BenchResult) -> str:
    finished = max(r.games_finished, 1)
    decisive = r.red_wins + r.blue_wins
    return "\n".join([
        f"{r.label}: {r.num_envs} games x {r.batch_steps} steps on {r.num_threads} thread(s) in {r.seconds:.2f} s",
        f"  steps/s           {r.steps_per_second:,.0f}",
        f"  games/s           {r.games_per_second:,.0f}",
        f"  games finished    {r.games_finished:,} (mean length {r.mean_game_length:.1f} plies)",
        f"  results           red {100 * r.red_wins / finished:.1f}%  blue {100 * r.blue_wins / finished:.1f}%  "
        f"draws {100 * r.draws / finished:.1f}% (of which cap endings {100 * r.cap_draws / finished:.1f}%)",
        f"  decisive games    {decisive:,}",
        f"  bytes written/step {r.bytes_per_step:,}",
        f"  checksum          {r.checksum:016x}",
    ])
