"""Win rates and decision speed of the C bots (docs/agents.md, "Bots").

    python benchmarks/bots.py winrate --games 2000 --seed 1
    python benchmarks/bots.py speed --num-envs 4096 --threads 1
    python benchmarks/bots.py losses --games 2000 --seed 100 --setups random

`winrate` plays `--games` games of bot A against bot B for each setup kind (random and
human) in one VecEnv per kind, A red in the even slots and blue in the odd ones, and
counts only the first game of each slot, so that short games are not favoured. It
prints A's wins, draws and losses with Wilson 95% intervals, by colour and in all; a
draw counts as not won. The heuristic bot's weights were tuned on seeds 100-199: quote
figures from other seeds (the default, 1).

`losses` plays the same games and sorts A's losses by where A's Flag stood at the start
(its row counted from A's back row; a front-row Flag in a lane column, with an open square
in front of it, or behind a lake) and by the move that took it (a Scout's line move or a
step; from the front, a side or behind), with the loss rate of each Flag place and the
plies at which the losses came: where to look when tuning the heuristic.

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
    slot. Returns a's results as arrays by slot: winner (0/1/-1), a's colour, plies, the
    end reason (an index into stratego.END_REASONS), the last action and the player who
    played it, and the boards at the start (Gravon letters)."""
    env = stratego.VecEnv(games, variant, seed=seed, setup=setup, observations=False,
                          num_threads=threads)
    a_color = np.arange(games) % 2
    winner = np.full(games, -2, dtype=np.int64)
    plies = np.zeros(games, dtype=np.int64)
    reason = np.zeros(games, dtype=np.int64)
    last_action = np.zeros(games, dtype=np.int64)
    last_mover = np.zeros(games, dtype=np.int64)
    start_fields = [env.game_field(g) for g in range(games)]
    while (winner == -2).any():
        acts_a = env.bot_actions(a).copy()
        acts_b = env.bot_actions(b)
        mover = env.to_play.copy()
        actions = np.where(mover == a_color, acts_a, acts_b)
        env.step(actions)
        done = (env.terminated | env.truncated) & (winner == -2)
        winner[done] = env.final_winner[done]
        plies[done] = env.final_plies[done]
        reason[done] = env.final_reason[done]
        last_action[done] = actions[done]
        last_mover[done] = mover[done]
    env.close()
    return {"winner": winner, "a_color": a_color, "plies": plies, "reason": reason,
            "last_action": last_action, "last_mover": last_mover, "start_fields": start_fields}


def report_line(label: str, winner: np.ndarray, a_color: np.ndarray) -> str:
    n = len(winner)
    wins = int((winner == a_color).sum())
    draws = int((winner == -1).sum())
    losses = n - wins - draws
    lo, hi = wilson(wins, n)
    return (f"  {label:<10} games {n:5d}  won {wins:5d} ({wins / n:6.1%}, 95% CI {lo:.3f}-{hi:.3f})  "
            f"drawn {draws:4d}  lost {losses:4d}")


def cmd_winrate(args) -> None:
    if args.seeds < 1:
        raise SystemExit(f"--seeds must be at least 1, got {args.seeds}")
    seeds = range(args.seed, args.seed + args.seeds)
    named = f"seed {args.seed}" if args.seeds == 1 else f"seeds {seeds[0]}-{seeds[-1]}, pooled"
    print(f"{args.a} vs {args.b}, {args.variant}, {args.games} games per setup kind and seed, {named}")
    all_w, all_c = [], []
    for setup in args.setups:
        t0 = time.perf_counter()
        runs = [play_first_games(args.a, args.b, args.games, args.variant, setup, seed, args.threads)
                for seed in seeds]
        w = np.concatenate([r["winner"] for r in runs])
        c = np.concatenate([r["a_color"] for r in runs])
        plies = np.concatenate([r["plies"] for r in runs])
        all_w.append(w)
        all_c.append(c)
        print(f"setup {setup} ({time.perf_counter() - t0:.0f} s, mean length {plies.mean():.0f} plies):")
        for color, name in ((0, "as red"), (1, "as blue")):
            print(report_line(name, w[c == color], c[c == color]))
        print(report_line("both", w, c))
    if len(all_w) > 1:
        print("all setups:")
        print(report_line("both", np.concatenate(all_w), np.concatenate(all_c)))


# Gravon letters of the Flags (piece type 11: B..M red, N..Y blue).
FLAG_LETTERS = ("M", "Y")
# Columns whose squares in rows 4 and 5 are lakes in classic.
LAKE_COLUMNS = (2, 3, 6, 7)


def flag_place(field: str, color: int) -> str:
    """Where `color`'s Flag stands in a start field: "row R" counted from its back row,
    the front row split by what is in front of it ("front row, lane" or "front row,
    lake"); "no flag" if the field has none."""
    sq = field.find(FLAG_LETTERS[color])
    if sq < 0:
        return "no flag"
    row = sq // 10 if color == 0 else 9 - sq // 10
    if row != 3:
        return f"row {row}"
    return "front row, lake" if sq % 10 in LAKE_COLUMNS else "front row, lane"


def capture_kind(action: int, mover: int, loser: int) -> str:
    """How a move took the loser's Flag: "line" (a move of more than one square: a
    Scout) or "step", and from which side of the Flag, seen from the loser."""
    kind, src, dst = stratego.actions.decode_action(action, mover)
    if kind != "move":
        return kind
    diff = dst - src
    length = abs(diff) // 10 if abs(diff) >= 10 else abs(diff)
    # Towards the loser's back row is "from the front": red's back row is row 0.
    toward_back = diff < 0 if loser == 0 else diff > 0
    side = "a side" if abs(diff) < 10 else ("the front" if toward_back else "behind")
    return f"{'line' if length > 1 else 'step'} from {side}"


def cmd_losses(args) -> None:
    print(f"{args.a}'s losses against {args.b}, {args.variant}, {args.games} games per setup kind, seed {args.seed}")
    for setup in args.setups:
        r = play_first_games(args.a, args.b, args.games, args.variant, setup, args.seed, args.threads)
        w, c = r["winner"], r["a_color"]
        lost = (w != c) & (w != -1)
        places = np.array([flag_place(f, int(col)) for f, col in zip(r["start_fields"], c)])
        print(f"setup {setup}: {int(lost.sum())} lost of {len(w)}")
        print("  by the Flag's place at the start: games, lost (loss rate)")
        for place in sorted(set(places)):
            sel = places == place
            print(f"    {place:<16} {int(sel.sum()):5d} {int((lost & sel).sum()):5d} ({(lost & sel).sum() / sel.sum():6.1%})")
        reasons = {}
        for g in np.nonzero(lost)[0]:
            reason = stratego.END_REASONS[r["reason"][g]]
            if reason == "flag_captured":
                reason += ", " + capture_kind(int(r["last_action"][g]), int(r["last_mover"][g]), int(c[g]))
            reasons[reason] = reasons.get(reason, 0) + 1
        print("  by how the game was lost:")
        for reason, count in sorted(reasons.items(), key=lambda kv: -kv[1]):
            print(f"    {count:5d}  {reason}")
        if lost.any():
            q = np.percentile(r["plies"][lost], [25, 50, 75])
            print(f"  plies of the losses: quartiles {q[0]:.0f}, {q[1]:.0f}, {q[2]:.0f}")


def cmd_speed(args) -> None:
    env = stratego.VecEnv(args.num_envs, args.variant, seed=args.seed, observations=False,
                          num_threads=args.threads)
    # Positions from random play, spread over the opening and the middle game.
    for _ in range(args.warmup):
        env.step(env.sample_actions())
    # The PIMC bot searches (milliseconds a decision): benchmarks/suite.py times it apart.
    for name in [b for b in stratego.BOTS if b != "pimc"]:
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
    w.add_argument("--seeds", type=int, default=1, help="play seeds SEED..SEED+SEEDS-1 and pool them")
    w.add_argument("--threads", type=int, default=0)
    w.set_defaults(func=cmd_winrate)
    lo = sub.add_parser("losses", help="where bot A's losses against bot B come from")
    lo.add_argument("--a", default="heuristic", choices=stratego.BOTS)
    lo.add_argument("--b", default="random", choices=stratego.BOTS)
    lo.add_argument("--games", type=int, default=2000)
    lo.add_argument("--variant", default="classic")
    lo.add_argument("--setups", nargs="+", default=["random"], choices=["random", "human"])
    lo.add_argument("--seed", type=int, default=100)
    lo.add_argument("--threads", type=int, default=0)
    lo.set_defaults(func=cmd_losses)
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
