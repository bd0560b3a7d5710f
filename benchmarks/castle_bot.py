"""The castle heuristic bot against random seats (docs/castle.md "Bots").

    python benchmarks/castle_bot.py --games 600 --seed 1
    python benchmarks/castle_bot.py --speed

For each mode, one VecEnv of `--games` games: in game i the heuristic sits at seat
i % seats and every other seat (a teams4 partner included) plays uniformly random legal
actions; only the first game of each slot counts, so short games are not favoured. It
prints the heuristic's wins (its seat among the winners), draws and losses with a Wilson
95% interval, and the mean plies of the counted games. The bot's weights were set on
seeds 100-199 (tests/test_castle_bot.py's games): quote other seeds (the default, 1).

`--speed` times VecEnv.bot_actions (the seat's view, its legal list and the bot's choice;
no step) on 4096 positions after 60 random plies, 1 thread, best of 5 calls, and prints
decisions per second for each bot and mode.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from bots import wilson  # benchmarks/bots.py, beside this file
from stratego.castle import VecEnv


def play(mode: str, games: int, seed: int) -> dict:
    env = VecEnv(games, mode, seed=seed, obs_format=None)
    seats = env.num_players
    bot_seat = np.arange(games) % seats
    _, info = env.reset(seed=seed)
    result = np.full(games, -2)  # 1 won, 0 draw, -1 lost; -2 not finished yet
    plies = np.zeros(games, dtype=np.int64)
    counting = np.zeros(games, dtype=np.int64)
    while (result == -2).any():
        heuristic = env.bot_actions("heuristic").copy()
        random = env.sample_actions().copy()
        actions = np.where(info["to_play"] == bot_seat, heuristic, random)
        _, _, terminated, truncated, info = env.step(actions)
        counting += 1
        for i in np.flatnonzero(terminated | truncated):
            if result[i] == -2:
                r = info["rewards"][i][bot_seat[i]]
                result[i] = 1 if r > 0 else (0 if r == 0 else -1)
                plies[i] = counting[i]
    env.close()
    return {"games": games, "wins": int((result == 1).sum()), "draws": int((result == 0).sum()),
            "losses": int((result == -1).sum()), "mean_plies": float(plies.mean())}


def speed(mode: str, seed: int) -> None:
    env = VecEnv(4096, mode, seed=seed, obs_format=None, num_threads=1)
    for _ in range(60):
        env.step(env.sample_actions())
    for name in ("random", "heuristic"):
        env.bot_actions(name)
        best = min(_timed(env, name) for _ in range(5))
        print(f"{mode} {name}: {env.num_envs / best / 1e3:.0f}k decisions/s (1 thread)")
    env.close()


def _timed(env, name: str) -> float:
    start = time.perf_counter()
    env.bot_actions(name)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--modes", default="ffa4,teams4,ffa3")
    parser.add_argument("--speed", action="store_true", help="time the bots' decisions instead")
    args = parser.parse_args()
    for mode in args.modes.split(","):
        if args.speed:
            speed(mode, args.seed)
            continue
        r = play(mode, args.games, args.seed)
        lo, hi = wilson(r["wins"], r["games"])
        print(f"{mode}: heuristic wins {r['wins']}/{r['games']} = {r['wins'] / r['games']:.3f} "
              f"[{lo:.3f}, {hi:.3f}], draws {r['draws']}, losses {r['losses']}, "
              f"mean plies {r['mean_plies']:.0f}")


if __name__ == "__main__":
    main()
