"""`stratego bench --game castle`: random castle games in parallel, timed, with a
checksum (docs/castle.md "Bench figures").

Every seat plays uniformly random legal actions drawn in C (VecEnv.sample_actions). Each
configuration steps the same games from the same seed, so all print the same checksum
(a sum of hashes of every finished game's index, length, winner and end), whatever the
thread count; a change to the rules changes it. The configurations: no observation
(the mask as bits), the compact codes with the bit mask (the performance goal's
formats), and the planes with the bool mask.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from .variants import seat_letters
from .vec_env import VecEnv

CONFIGS = {  # label -> VecEnv keywords
    "no obs": dict(obs_format=None, mask_format="bits"),
    "codes+bits": dict(obs_format="codes", mask_format="bits"),
    "planes+bool": dict(obs_format="planes", mask_format="bool"),
}


@dataclass
class CastleBenchResult:
    label: str
    mode: str
    num_envs: int
    num_threads: int
    batch_steps: int
    seconds: float
    cpu_seconds: float
    games_finished: int
    wins: tuple
    draws: int
    cap_draws: int
    plies: int
    checksum: int
    bytes_per_step: int

    @property
    def steps_per_second(self) -> float:
        """Decisions per second over all games (one step = one game advancing one ply)."""
        return self.batch_steps * self.num_envs / self.seconds

    @property
    def steps_per_cpu_second(self) -> float:
        """The same over the CPU time the process used (all its threads): per core, and
        what a loaded machine's wall clock hides."""
        return self.batch_steps * self.num_envs / max(self.cpu_seconds, 1e-9)

    @property
    def mean_game_length(self) -> float:
        return self.plies / self.games_finished if self.games_finished else float("nan")


def run_castle_bench(label: str, num_envs: int = 4096, batch_steps: int = 3200, num_threads: int = 1,
                     seed: int = 0, mode: str = "ffa4", progress=None, **env_kwargs) -> CastleBenchResult:
    """Steps num_envs random games batch_steps times; `progress(fraction, rate)` is called
    now and then when given."""
    if isinstance(batch_steps, bool) or not isinstance(batch_steps, int) or batch_steps < 1:
        raise ValueError(f"batch_steps must be an int >= 1, got {batch_steps!r}")
    env = VecEnv(num_envs, mode, num_threads=num_threads, **env_kwargs)
    try:
        env.reset(seed=seed)
        start, cpu_start = time.perf_counter(), time.process_time()
        for step in range(batch_steps):
            env.step(env.sample_actions())
            if progress is not None and step % 16 == 15:
                now = time.perf_counter() - start
                progress((step + 1) / batch_steps, (step + 1) * num_envs / max(now, 1e-9))
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
        if progress is not None:
            progress(1.0, batch_steps * num_envs / max(elapsed, 1e-9))
        stats = env.stats()
        arrays = [env.action_mask, env.rewards, env.reward, env.terminated, env.truncated, env.to_play,
                  env.final_winner, env.final_reason, env.final_plies] + ([env.obs] if env.obs is not None else [])
        return CastleBenchResult(
            label=label, mode=mode, num_envs=num_envs, num_threads=env.num_threads, batch_steps=batch_steps,
            seconds=elapsed, cpu_seconds=cpu, games_finished=stats["games_finished"], wins=tuple(stats["wins"]),
            draws=stats["draws"], cap_draws=stats["cap_draws"], plies=stats["plies"], checksum=stats["checksum"],
            bytes_per_step=sum(a.nbytes for a in arrays) // num_envs)
    finally:
        env.close()


def format_castle_result(r: CastleBenchResult) -> str:
    finished = max(r.games_finished, 1)
    letters = seat_letters(len(r.wins))
    wins = "  ".join(f"{letter} {100 * w / finished:.1f}%" for letter, w in zip(letters, r.wins))
    return "\n".join([
        f"{r.label}: {r.mode}, {r.num_envs} games x {r.batch_steps} steps on {r.num_threads} thread(s) "
        f"in {r.seconds:.2f} s",
        f"  steps/s           {r.steps_per_second:,.0f} ({r.steps_per_cpu_second:,.0f} per CPU second, "
        f"{r.cpu_seconds:.2f} s of CPU)",
        f"  games finished    {r.games_finished:,} (mean length {r.mean_game_length:.1f} plies)",
        f"  results by seat   {wins}  draws {100 * r.draws / finished:.1f}% "
        f"(of which ply cap {100 * r.cap_draws / finished:.1f}%)",
        f"  bytes written/step {r.bytes_per_step:,}",
        f"  checksum          {r.checksum:016x}",
    ])
