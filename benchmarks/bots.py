"""Win rates and decision speed of the C bots (docs/agents.md, "Bots").

    python benchmarks/bots.py winrate --games 2000 --seed 1
    python benchmarks/bots.py speed --num-envs 4096 --threads 1

`winrate` plays `--games` games of bot A against bot B for each setup kind (random and
human) in one VecEnv per kind, A red in the even slots and blue in the odd ones, and
counts only the first game of each slot, so that short games are not favoured. It
prints A's wins, draws and losses with Wilson 95% intervals, by colour and in all; a
draw counts as not won. The heuristic bot's weights were tuned on seeds 100-199: quote
figures from other seeds (the default, 1).

`speed` times VecEnv.bot_actions (the decision alone: the player's view, its legal
actions and the bot's choice; no step) on a batch of positions from random play, and
prints decisions per second per thread for each bot.
"""
from __future__ import annotations

import argparse
import math
import time

import numpy as np

import stratego


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for z = 1.96)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play_first_games(a: str, b: str, games: int, variant: str, setup: str, seed: int,
                     threads: int) -> dict:
    """Bot a against bot b in `games` slots, a red in even slots; the first game of each
    slot. Returns a's results as arrays by slot: winner (0/1/-1), a's colour, plies."""
    env = stratego.VecEnv(games, variant, seed=seed, setup=setup, observations=False,
                          num_threads=threads)
    a_color = np.arange(games) % 2
    winner = np.full(games, -2, dtype=np.int64)
    plies = np.zeros(games, dtype=np.int64)
    while (winner == -2).any():
        acts_a = env.bot_actions(a).copy()
        acts_b = env.bot_actions(b)
        actions = np.where(env.to_play == a_color, acts_a, acts_b)
        env.step(actions)
        done = (env.terminated | env.truncated) & (winner == -2)
        winner[done] = env.final_winner[done]
        plies[done] = env.final_plies[done]
    env.close()
    return {"winner": winner, "a_color": a_color, "plies": plies}


def report_line(label: str, winner: np.ndarray, a_color: np.ndarray) -> str:
    n = len(winner)
    wins = int((winner == a_color).sum())
    draws = int((winner == -1).sum())
    losses = n - wins - draws
    lo, hi = wilson(wins, n)
    return (f"  {label:<10} games {n:5d}  won {wins:5d} ({wins / n:6.1%}, 95% CI {lo:.3f}-{hi:.3f})  "
            f"drawn {draws:4d}  lost {losses:4d}")


def cmd_winrate(args) -> None:
    print(f"{args.a} vs {args.b}, {args.variant}, {args.games} games per setup kind, seed {args.seed}")
    all_w, all_c = [], []
    for setup in args.setups:
        t0 = time.perf_counter()
        r = play_first_games(args.a, args.b, args.games, args.variant, setup, args.seed, args.threads)
        w, c = r["winner"], r["a_color"]
        all_w.append(w)
        all_c.append(c)
        print(f"setup {setup} ({time.perf_counter() - t0:.0f} s, mean length {r['plies'].mean():.0f} plies):")
        for color, name in ((0, "as red"), (1, "as blue")):
            print(report_line(name, w[c == color], c[c == color]))
        print(report_line("both", w, c))
    if len(all_w) > 1:
        print("all setups:")
        print(report_line("both", np.concatenate(all_w), np.concatenate(all_c)))


def cmd_speed(args) -> None:
    env = stratego.VecEnv(args.num_envs, args.variant, seed=args.seed, observations=False,
                          num_threads=args.threads)
    # Positions from random play, spread over the opening and the middle game.
    for _ in range(args.warmup):
        env.step(env.sample_actions())
    for name in stratego.BOTS:
        env.bot_actions(name)
        reps, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < args.seconds:
            env.bot_actions(name)
            reps += 1
        dt = time.perf_counter() - t0
        rate = reps * args.num_envs / dt
        print(f"{name:<10} {rate / 1e6:6.2f} M decisions/s with {args.threads} thread(s) "
              f"({rate / args.threads / 1e6:.2f} M per thread; {args.num_envs} games)")
    env.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("winrate", help="win rates of bot A against bot B")
    w.add_argument("--a", default="heuristic", choices=stratego.BOTS)
    w.add_argument("--b", default="random", choices=stratego.BOTS)
    w.add_argument("--games", type=int, default=2000)
    w.add_argument("--variant", default="classic")
    w.add_argument("--setups", nargs="+", default=["random", "human"], choices=["random", "human"])
    w.add_argument("--seed", type=int, default=1)
    w.add_argument("--threads", type=int, default=0)
    w.set_defaults(func=cmd_winrate)
    s = sub.add_parser("speed", help="bot decisions per second")
    s.add_argument("--num-envs", type=int, default=4096)
    s.add_argument("--variant", default="classic")
    s.add_argument("--threads", type=int, default=1)
    s.add_argument("--seconds", type=float, default=2.0)
    s.add_argument("--warmup", type=int, default=60)
    s.add_argument("--seed", type=int, default=1)
    s.set_defaults(func=cmd_speed)
    args = ap.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
