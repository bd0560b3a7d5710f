"""Speed and size of the JSON lines format (docs/records.md "JSON lines"): random games of
every shipped variant, played to their end, written to memory (write_jsonl) and read
back (iter_jsonl); the best of a few rounds, in moves (actions) a second.

    python benchmarks/jsonl_speed.py [--games-per-variant 5] [--rounds 3]
"""
from __future__ import annotations

import argparse
import io
import time

import stratego
from stratego.records import iter_jsonl, write_jsonl


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games-per-variant", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    records = []
    for variant in stratego.variants():
        for seed in range(args.games_per_variant):
            game = stratego.Game(variant, seed=seed)
            while not game.done:
                game.play(game.bot_move("random"))
            records.append(game.record())
    moves = sum(len(r.actions) for r in records)
    write_best = read_best = float("inf")
    for _ in range(args.rounds):
        text = io.StringIO()
        start = time.perf_counter()
        write_jsonl(records, text)
        write_best = min(write_best, time.perf_counter() - start)
        data = text.getvalue().encode()
        start = time.perf_counter()
        back = list(iter_jsonl(io.BytesIO(data)))
        read_best = min(read_best, time.perf_counter() - start)
        assert back == records
    longest = max(records, key=lambda r: len(r.actions))
    print(f"{len(records)} games, {moves} moves, {len(data)} bytes ({len(data) / moves:.1f} a move; "
          f"the longest game, {len(longest.actions)} moves: {len(stratego.records.record_to_json(longest))} bytes)")
    print(f"write {moves / write_best / 1e6:.2f} M moves/s, read {moves / read_best / 1e6:.2f} M moves/s "
          f"(best of {args.rounds})")


if __name__ == "__main__":
    main()
