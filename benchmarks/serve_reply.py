"""How long a person waits for the bot's reply in `stratego serve` (docs/playing.md).

    python benchmarks/serve_reply.py --bot heuristic --moves 300 --cpu 0

Runs the app under uvicorn on 127.0.0.1 in this process, pinned with the client to one
core (`--cpu`), and times each move request from the client's side: the request, the
person's move, the bot's reply in its worker thread, the answer built from the
person's view, and the JSON back. The person plays random legal moves; new games start
as games end. Prints the median, 95th percentile and worst reply in milliseconds. Needs
the web extra.
"""
from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import threading
import time

import httpx
import uvicorn

from stratego.web.app import create_app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="heuristic", help="the opponent (heuristic)")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--moves", type=int, default=300, help="move requests timed (300)")
    parser.add_argument("--cpu", type=int, default=0, help="the one core server and client run on (0)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    os.sched_setaffinity(0, {args.cpu})  # every thread of this process, the bot's worker threads too

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning", lifespan="off"))
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while not server.started:
        time.sleep(0.01)
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    rng = random.Random(args.seed)
    times = []
    with httpx.Client(base_url=base) as client:
        state = None
        while len(times) < args.moves:
            if state is None or state["phase"] == "over":
                r = client.post("/api/games", json={"opponent": args.bot, "variant": args.variant,
                                                    "seed": rng.randrange(2**32)}).json()
                game_id, state, seen = r["id"], r["state"], r["state"]["move_count"]
                continue
            move = rng.choice(state["legal"])[2]
            t = time.perf_counter()
            r = client.post(f"/api/games/{game_id}/move?since={seen}", json={"move": move})
            times.append(time.perf_counter() - t)
            r.raise_for_status()
            state = r.json()["state"]
            seen = state["move_count"]
    server.should_exit = True
    ms = sorted(1000 * t for t in times)
    print(f"stratego serve, {args.bot} bot, {args.variant}, one core (cpu {args.cpu}), {len(ms)} moves: "
          f"reply median {statistics.median(ms):.2f} ms, p95 {ms[int(0.95 * (len(ms) - 1))]:.2f} ms, "
          f"worst {ms[-1]:.2f} ms")


if __name__ == "__main__":
    main()
