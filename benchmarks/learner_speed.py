"""Positions per second of the example's networks, old and new side by side in one run.

    python benchmarks/learner_speed.py                     # CPU, the torch threads this process may use
    python benchmarks/learner_speed.py --device cuda       # where there is a GPU
    python benchmarks/learner_speed.py --quick             # smoke run (tests/test_learner_speed.py)

For each network (ConvPolicyNet as examples/ppo_selfplay.py builds it by default, and
SlimPolicyNet with 1 and 2 blocks) it times, on positions from real games (heuristic bot, history_k 2):
- inference: forward passes under torch.inference_mode on batches of --batch, as a
  rollout does;
- training: forward, loss (cross-entropy on the masked logits + value error), backward
  and an Adam step on minibatches of --minibatch, as the imitation phase does.
Each figure is the best of --repeats timed rounds, the networks' rounds interleaved
(other work on the machine only ever slows a round down, and touches both alike). With --device cuda the slim networks get the compact codes
(obs_format="codes", 1/40th of the bytes) and expands them on the device; the old one
gets the planes, as the example gives them. Prints a table and each slim network's
ratios to ConvPolicyNet.
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import torch
import torch.nn.functional as F

import stratego
from stratego.agents.nets import ConvPolicyNet
from stratego.agents.slim_net import SlimPolicyNet
from stratego.agents.torch_policy import masked_logits

HISTORY_K = 2


def positions(n: int, seed: int, obs_format: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n observations (planes or codes), masks and the heuristic bot's moves, from games
    the heuristic plays against itself (one position per game slot, after 10-60 plies)."""
    env = stratego.VecEnv(n, history_k=HISTORY_K, num_threads=1, obs_format=obs_format)
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(int(rng.integers(10, 60))):
        obs, _, _, _, info = env.step(env.bot_actions("heuristic"))
    out = obs.copy(), info["action_mask"].copy(), np.asarray(env.bot_actions("heuristic"), np.int64).copy()
    env.close()
    return out


def timed(fn, sync) -> float:
    start = time.perf_counter()
    fn()
    sync()
    return time.perf_counter() - start


def workloads(net, obs, mask, act, args) -> dict:
    """The two timed jobs of one network: inference and training over all positions."""
    device = args.device
    x = torch.from_numpy(obs).to(device)
    m = torch.from_numpy(mask).to(device)
    a = torch.from_numpy(act).to(device)
    target = torch.zeros(len(act), device=device)
    b, mb = args.batch, args.minibatch
    opt = torch.optim.Adam(net.parameters(), lr=1e-4)

    def infer():
        net.eval()
        with torch.inference_mode():
            for start in range(0, len(x), b):
                net(x[start:start + b])

    def train():
        net.train()
        for start in range(0, len(x), mb):
            logits, value = net(x[start:start + mb])
            loss = F.cross_entropy(masked_logits(logits, m[start:start + mb]), a[start:start + mb])
            loss = loss + 0.5 * ((value - target[start:start + mb]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()

    return {"inference": infer, "training": train}


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--device", default="cpu")
    p.add_argument("--positions", type=int, default=4096, help="positions per timed round")
    p.add_argument("--batch", type=int, default=256, help="inference batch (the example's --num-envs)")
    p.add_argument("--minibatch", type=int, default=1024, help="training minibatch (the example's --minibatch)")
    p.add_argument("--repeats", type=int, default=5, help="timed rounds; the best counts")
    p.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--quick", action="store_true", help="smoke run: 512 positions, 1 round")
    args = p.parse_args(argv)
    if args.quick:
        args.positions, args.repeats = 512, 1
    for name in ("positions", "batch", "minibatch", "repeats"):
        if getattr(args, name) < 1:
            p.error(f"--{name} must be >= 1")
    if args.threads:
        torch.set_num_threads(args.threads)
    device = torch.device(args.device)
    sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: None)
    torch.manual_seed(args.seed)
    planes, mask, act = positions(args.positions, args.seed, "planes")
    codes = positions(args.positions, args.seed, "codes")[0] if device.type == "cuda" else planes
    nets = {
        "ConvPolicyNet (example default: 32 ch, 3 blocks)": (ConvPolicyNet(history_k=HISTORY_K, blocks=3), planes),
        "SlimPolicyNet (32 ch, per-square stem, 1 line block)": (SlimPolicyNet(history_k=HISTORY_K, blocks=1), codes),
        "SlimPolicyNet (32 ch, per-square stem, 2 line blocks)": (SlimPolicyNet(history_k=HISTORY_K, blocks=2), codes),
    }
    jobs = {}
    for name, (net, obs) in nets.items():
        net.to(device)
        jobs[name] = workloads(net, obs, mask, act, args)
        for fn in jobs[name].values():
            timed(fn, sync)  # warm-up: allocations, kernels chosen
    # Rounds interleave the networks, so that a change of load on the machine touches
    # both alike; the best round of each counts (other work only ever slows one down).
    best = {(name, job): float("inf") for name in jobs for job in ("inference", "training")}
    for _ in range(args.repeats):
        for name, fns in jobs.items():
            for job, fn in fns.items():
                best[name, job] = min(best[name, job], timed(fn, sync))
    rows = {name: (sum(t.numel() for t in net.parameters()), args.positions / best[name, "inference"],
                   args.positions / best[name, "training"]) for name, (net, _) in nets.items()}
    print(f"device {device}, torch {torch.__version__}, {torch.get_num_threads()} threads, "
          f"{args.positions} positions, inference batch {args.batch}, training minibatch {args.minibatch}, "
          f"best of {args.repeats}")
    width = max(len(n) for n in rows)
    print(f"{'network':<{width}}  {'params':>8}  {'inference pos/s':>16}  {'training pos/s':>15}")
    for name, (params, inference, training) in rows.items():
        print(f"{name:<{width}}  {params:>8,}  {inference:>16,.0f}  {training:>15,.0f}")
    (old, (_, old_i, old_t)), *new = rows.items()
    ratios = {}
    for name, (_, new_i, new_t) in new:
        ratios[name] = (new_i / old_i, new_t / old_t)
        print(f"{name} / {old.split(' (')[0]}: inference x{new_i / old_i:.2f}, training x{new_t / old_t:.2f}")
    return {"ratios": ratios, "rows": rows}


if __name__ == "__main__":
    main()
