"""Self-play PPO on the CPU: an agent that learns to beat the bots, in one file.

    pip install torch==2.13.0 && pip install -e '.[train]'
    python examples/ppo_selfplay.py --minutes 15 --seed 1 --out runs/ppo

Two phases share one wall-time budget (`--minutes`), data generation included (each
phase makes at least one update, however short its share):
1. Warm start by imitation of the C heuristic bot (`--imitation-minutes`): the bot plays
   both sides (with some random moves, so the positions vary) and the network learns its
   move (cross-entropy on the masked logits) and the game's result (the value head).
   The labels cost microseconds: they come from `VecEnv.bot_actions("heuristic")`.
   With `--dagger` the network itself plays one colour in a share of the games, so that
   the bot labels the positions the student's own play reaches.
2. PPO (clipped objective, GAE) on a two-player `VecEnv`. In each game slot the learner
   takes one colour, and the other is, drawn again for every game: the learner itself
   (self-play: both players' moves are training data), a snapshot from a pool of past
   versions of the network, the heuristic bot or the random bot. Per-player returns and
   advantages come from `stratego.agents.selfplay.per_player_gae`, which follows each player's
   own chain of moves; only the learner's moves enter the loss.

Every `--eval-minutes` the agent plays the arena (`stratego.agents.arena.run_arena`: the first
game of each slot, both colours) against `random` and `heuristic` on seeds that training
never uses; that time counts in the budget. It writes, under `--out`:
    log.csv        one row per update and per evaluation
    policy.pt      the latest checkpoint, in the saved-policy format (stratego.agents.policy_file)
    checkpoints/   one per evaluation, named by the wall time it had (policy-015.0min.pt)
    curve.png      score against random and heuristic over wall time
    summary.json   the final evaluation (after the budget, not counted in it), throughput
                   and where the time went
See docs/training.md for the figures this example reached and how to reproduce them.
"""
from __future__ import annotations

import argparse
import contextlib
import copy
import csv
import json
import os
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from tqdm import tqdm

import stratego
from stratego.agents.arena import run_arena
from stratego.agents.nets import ConvPolicyNet
from stratego.agents.policy_file import load_policy, save_policy
from stratego.agents.selfplay import per_player_gae
from stratego.agents.slim_net import SlimPolicyNet
from stratego.agents.torch_policy import TorchPolicy, masked_logits
from stratego.variants import load_variant

# Evaluation seeds live far from the training seeds (seed * 1000 + small offsets), so no
# evaluation game is ever a training game.
EVAL_SEED_BASE = 10**9
# Who plays the learner's opponent in a PPO game slot.
SELF, SNAPSHOT, HEURISTIC, RANDOM = 0, 1, 2, 3
OPPONENT_NAMES = ("self", "snapshot", "heuristic", "random")


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--seed", type=int, default=1, help="training seed (evaluation uses other seeds)")
    p.add_argument("--device", default="cpu", help="torch device: cpu, cuda, cuda:1 ...")
    p.add_argument("--minutes", type=float, default=15.0, help="wall-time budget of training, evaluations included")
    p.add_argument("--imitation-minutes", type=float, default=6.0, help="share of the budget for the warm start")
    p.add_argument("--out", type=Path, default=Path("runs/ppo"), help="folder for the log, checkpoint and plot")
    p.add_argument("--variant", default="classic")
    p.add_argument("--num-envs", type=int, default=256, help="game slots stepped together")
    p.add_argument("--rollout-steps", type=int, default=32, help="steps per slot between updates")
    p.add_argument("--history-k", type=int, default=2, help="past plies in the observation")
    p.add_argument("--net", choices=("conv", "slim"), default=None,
                   help="(default conv) conv: stratego.agents.nets.ConvPolicyNet; slim: stratego.agents.slim_net.SlimPolicyNet (1x1 stem, "
                        "several times the positions/s, docs/training.md)")
    p.add_argument("--obs-format", choices=("planes", "codes"), default="planes",
                   help="what the training envs write and the buffers hold: the planes, or the compact codes "
                        "(40x fewer bytes, expanded by the network on its device: for a GPU; needs --net slim)")
    p.add_argument("--init", type=Path, default=None,
                   help="start from this saved policy (its network and weights) instead of a new network; "
                        "--net, --channels and --blocks describe a new one, so they are refused with it")
    p.add_argument("--channels", type=int, default=None, help="width of the network (32)")
    p.add_argument("--blocks", type=int, default=None, help="residual blocks of the network (default: 3 conv, 1 slim)")
    p.add_argument("--lr", type=float, default=1e-3, help="learning rate of the imitation phase")
    p.add_argument("--ppo-lr", type=float, default=2.5e-4, help="learning rate of the PPO phase")
    p.add_argument("--epochs", type=int, default=2, help="PPO: passes over each rollout")
    p.add_argument("--imitation-epochs", type=int, default=1,
                   help="imitation: passes over each batch of the bot's games (fresh games cost microseconds)")
    p.add_argument("--minibatch", type=int, default=1024)
    p.add_argument("--explore", type=float, default=0.1, help="imitation: chance of a random move instead of the bot's")
    p.add_argument("--dagger", type=float, default=0.0,
                   help="imitation: share of the game slots where the network plays one colour with its own "
                        "sampled moves (DAgger): the teacher labels the positions the student's play reaches")
    p.add_argument("--gamma", type=float, default=0.995)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--entropy", type=float, default=0.003, help="entropy bonus")
    p.add_argument("--value-coef", type=float, default=0.5)
    p.add_argument("--teacher-coef", type=float, default=0.0,
                   help="PPO: weight of the heuristic bot's move as a second target on the learner's moves "
                        "(cross-entropy), which keeps what the imitation taught while PPO improves on it")
    p.add_argument("--opponents", default="0.4,0.2,0.2,0.2",
                   help="chances of self, snapshot, heuristic, random as the learner's opponent")
    p.add_argument("--opponent-sampling", choices=("fixed", "beats"), default="fixed",
                   help="fixed: --opponents as given; beats: each of snapshot, heuristic and random weighted "
                        "further by how often it beats the learner (1 - the learner's running score + 0.1)")
    p.add_argument("--train-setups", choices=("random", "human"), default="random",
                   help="setups of the training games (imitation and PPO): random, or drawn from the human "
                        "collection (stratego/data, setup='human'); evaluations keep their own")
    p.add_argument("--imitation-plies", type=int, default=0,
                   help="also end the imitation phase after this many plies (0: time only); for comparing "
                        "recipes per positions seen on a loaded machine")
    p.add_argument("--plies", type=int, default=0,
                   help="also end training after this many plies in all (0: time only)")
    p.add_argument("--snapshot-every", type=int, default=10, help="updates between snapshots added to the pool")
    p.add_argument("--pool-size", type=int, default=8, help="snapshots kept")
    p.add_argument("--eval-minutes", type=float, default=5.0, help="wall time between evaluations")
    p.add_argument("--eval-games", type=int, default=50, help="evaluation games per opponent and colour")
    p.add_argument("--final-eval-games", type=int, default=500,
                   help="final evaluation games per opponent and colour (random and human setups)")
    p.add_argument("--torch-threads", type=int, default=0, help="torch threads (0: the cores this process may use)")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--deploy", action="store_true",
                   help="the agent deploys its own pieces (setup='agent', docs/deployment.md) in training and "
                        "evaluation; the bots place theirs at random")
    p.add_argument("--ray-actors", type=int, default=0,
                   help="PPO rollouts on this many Ray actors (1 CPU each), the learner here (0: in-process)")
    p.add_argument("--ray-address", default=None,
                   help="with --ray-actors: the Ray cluster's HOST:PORT (default: a local Ray started here)")
    args = p.parse_args(argv)
    if args.init is not None:
        given = [f"--{k}" for k in ("net", "channels", "blocks") if getattr(args, k) is not None]
        if given:  # ignored silently, they would describe a network this run does not train
            p.error(f"--init takes the saved policy's network as it is; {', '.join(given)} "
                    f"{'describes' if len(given) == 1 else 'describe'} a new one: leave {'it' if len(given) == 1 else 'them'} out")
    else:  # a new network: the defaults (with --init they stay None: summary.json's args say so)
        args.net = args.net or "conv"
        args.channels = 32 if args.channels is None else args.channels
        if args.blocks is None:
            args.blocks = 1 if args.net == "slim" else 3
    positive = {"minutes": args.minutes, "num-envs": args.num_envs, "rollout-steps": args.rollout_steps,
                "epochs": args.epochs, "imitation-epochs": args.imitation_epochs,
                "minibatch": args.minibatch,
                "eval-minutes": args.eval_minutes, "eval-games": args.eval_games,
                "final-eval-games": args.final_eval_games, "snapshot-every": args.snapshot_every,
                "pool-size": args.pool_size}
    if args.init is None:
        positive["channels"] = args.channels
    for name, value in positive.items():
        if not value > 0:
            p.error(f"--{name} must be > 0, got {value}")
    if not 0 <= args.imitation_minutes <= args.minutes:
        p.error(f"--imitation-minutes must be in [0, --minutes={args.minutes}], got {args.imitation_minutes}")
    if (args.blocks or 0) < 0 or args.torch_threads < 0 or args.imitation_plies < 0 or args.plies < 0:
        p.error("--blocks, --torch-threads, --imitation-plies and --plies must be >= 0")
    if args.obs_format == "codes" and (args.net != "slim" or args.init is not None):
        p.error("--obs-format codes needs --net slim (SlimPolicyNet expands the codes; ConvPolicyNet takes planes)")
    if args.deploy and args.train_setups == "human":
        p.error("--train-setups human and --deploy exclude each other: with --deploy the agent places its pieces")
    if args.teacher_coef < 0:
        p.error(f"--teacher-coef must be >= 0, got {args.teacher_coef}")
    if not 0 <= args.dagger <= 1:
        p.error(f"--dagger must be in [0, 1], got {args.dagger}")
    if not 0 <= args.ray_actors <= args.num_envs:
        p.error(f"--ray-actors must be in [0, --num-envs={args.num_envs}], got {args.ray_actors}")
    try:
        mix = np.array([float(x) for x in args.opponents.split(",")])
    except ValueError:
        p.error(f"--opponents must be 4 numbers separated by commas, got {args.opponents!r}")
    if mix.shape != (4,) or (mix < 0).any() or mix.sum() <= 0:
        p.error(f"--opponents must be 4 non-negative numbers (self, snapshot, heuristic, random) with a "
                f"positive sum, got {args.opponents!r}")
    args.opponent_mix = mix / mix.sum()
    # With --deploy every game starts with a deployment phase: the variant's rules gain
    # deploy (its action space reaches the placements), and evaluations deploy too.
    args.setup = "agent" if args.deploy else "random"
    args.train_setup = "agent" if args.deploy else args.train_setups
    args.rules = load_variant(args.variant, **({"deploy": 1} if args.deploy else {}))
    return args


class Clock:
    """Wall time by activity, so the summary can say where the time went."""

    def __init__(self):
        self.start = time.perf_counter()
        self.spent: dict[str, float] = {}

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    @contextlib.contextmanager
    def track(self, name: str):
        start = time.perf_counter()
        try:
            yield
        finally:
            self.spent[name] = self.spent.get(name, 0.0) + time.perf_counter() - start


def evaluate(net, args, games: int, seed: int, setup: str = "random") -> dict:
    """Scores (wins + draws / 2) of the greedy agent against each bot, both colours."""
    net.eval()
    agent = TorchPolicy(net, device=args.device)
    result = run_arena([("agent", agent), "random", "heuristic"], games=games, variant=args.rules, seed=seed,
                       setup=setup, num_threads=1)
    return {f"{setup}_{bot}": result.score("agent", bot) for bot in ("random", "heuristic")} | {
        f"{setup}_{bot}_games": sum(result.record("agent", bot)) for bot in ("random", "heuristic")}


def forward(net, obs: np.ndarray, mask: np.ndarray, device) -> tuple[torch.Tensor, torch.Tensor]:
    logits, value = net(torch.from_numpy(obs).to(device))
    return masked_logits(logits, torch.from_numpy(mask).to(device)), value


def imitation(net, args, clock: Clock, log, until: float, progress, evaluate_now) -> int:
    """Phase 1: learn the heuristic bot's moves and the games' results. Returns plies played."""
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    env = stratego.VecEnv(args.num_envs, args.rules, seed=args.seed * 1000, history_k=args.history_k, num_threads=1,
                          setup=args.train_setup, obs_format=args.obs_format)
    rng = np.random.default_rng(args.seed * 1000 + 1)
    obs, info = env.reset(seed=args.seed * 1000)
    t_steps, n = args.rollout_steps * 4, args.num_envs
    buf_obs = np.zeros((t_steps, *obs.shape), obs.dtype)
    buf_mask = np.zeros((t_steps, *info["action_mask"].shape), np.bool_)
    buf_act = np.zeros((t_steps, n), np.int64)
    players = np.zeros((t_steps, n), np.int64)
    rewards = np.zeros((t_steps, n, 2), np.float32)
    dones = np.zeros((t_steps, n), np.bool_)
    plies = updates = student_moves = 0
    # --dagger: student[i] is the colour the network plays in slot i (-1: the teacher plays
    # both), drawn again for each game from a stream of its own, so that --dagger 0 leaves
    # the other draws as they were.
    dagger_rng = np.random.default_rng(args.seed * 1000 + 4)
    student = np.full(n, -1)

    def draw_students(rows) -> None:
        student[rows] = np.where(dagger_rng.random(len(rows)) < args.dagger, dagger_rng.integers(0, 2, len(rows)), -1)

    draw_students(np.arange(n))
    # At least one update when the phase has a budget: on a busy machine a short budget
    # can pass before the first (the smoke test's 0.4 minutes did, at a load of 9).
    while ((clock.elapsed() < until and not (args.imitation_plies and plies >= args.imitation_plies))
           or (updates == 0 and until > 0)):
        for t in range(t_steps):
            with clock.track("simulator"):
                buf_obs[t], buf_mask[t] = obs, info["action_mask"]
                teacher = env.bot_actions("heuristic").copy()
                random_moves = env.sample_actions().copy()
                buf_act[t] = teacher
                actions = np.where(rng.random(n) < args.explore, random_moves, teacher)
            rows = np.flatnonzero(student == env.to_play)
            student_moves += rows.size
            if rows.size:
                # The student's own moves; the label stays the teacher's.
                with clock.track("inference"), torch.inference_mode():
                    net.eval()
                    logits, _ = forward(net, obs[rows], info["action_mask"][rows], args.device)
                    actions[rows] = torch.distributions.Categorical(logits=logits).sample().cpu().numpy()
            with clock.track("simulator"):
                obs, _, terminated, truncated, info = env.step(actions)
                players[t], rewards[t], dones[t] = info["acted"], info["rewards"], terminated | truncated
                if args.dagger:
                    draw_students(np.flatnonzero(dones[t]))
        plies += t_steps * n
        with clock.track("bookkeeping"):
            # Monte-Carlo results: gamma = lambda = 1 with zero values gives each move's
            # final result for its player, where its game ended inside the buffer (a game
            # that goes on past it gives 0, which is no draw: those moves get no value loss).
            zeros = np.zeros((t_steps, n), np.float32)
            _, returns = per_player_gae(rewards, zeros, players, dones, np.zeros(n), env.to_play,
                                        gamma=1.0, gae_lambda=1.0)
            resolved = np.flip(np.logical_or.accumulate(np.flip(dones, 0), axis=0), 0)
            flat_obs, flat_mask = buf_obs.reshape(-1, *obs.shape[1:]), buf_mask.reshape(t_steps * n, -1)
            flat_act, flat_ret = buf_act.reshape(-1), returns.reshape(-1)
            flat_resolved = resolved.reshape(-1).astype(np.float32)
        net.train()
        for _ in range(args.imitation_epochs):
            order = np.random.default_rng(args.seed + updates).permutation(len(flat_act))
            for start in range(0, len(order), args.minibatch):
                idx = order[start:start + args.minibatch]
                with clock.track("update forward"):
                    logits, value = forward(net, flat_obs[idx], flat_mask[idx], args.device)
                    target = torch.from_numpy(flat_act[idx]).to(args.device)
                    policy_loss = F.cross_entropy(logits, target)
                    weight = torch.from_numpy(flat_resolved[idx]).to(args.device)
                    error = (value - torch.from_numpy(flat_ret[idx]).to(args.device)) ** 2
                    value_loss = (error * weight).sum() / weight.sum().clamp(min=1.0)
                    loss = policy_loss + args.value_coef * value_loss
                with clock.track("backward"):
                    opt.zero_grad()
                    loss.backward()
                    opt.step()
        updates += 1
        accuracy = float((logits.argmax(1) == target).float().mean())
        log({"phase": "imitation", "plies": plies, "updates": updates, "policy_loss": policy_loss.item(),
             "value_loss": value_loss.item(), "imitation_accuracy": accuracy, "student_moves": student_moves})
        progress()
        evaluate_now()
    return plies


class Collector:
    """The PPO phase's games: a slice of the game slots, who plays the learner's opponent in
    each, and one rollout of `--rollout-steps` steps at a time. In-process it steps with the
    learner's own network; as a Ray actor (--ray-actors) it holds a copy, loaded from the
    weights the learner sends through Ray's object store before every rollout."""

    def __init__(self, args, num_envs: int, game_offset: int = 0, net=None):
        self.args, self.n = args, num_envs
        if net is None:  # a Ray actor: its own copy of the network, one torch thread
            torch.set_num_threads(1)
            net = make_net(args)
        self.net = net
        self.opponent_net = copy.deepcopy(net).eval()
        # game_offset: the slots of the whole run (stratego.integrations.distributed), and the opponent
        # draws a stream of the slice's own.
        self.env = stratego.VecEnv(num_envs, args.rules, history_k=args.history_k, num_threads=1,
                                   game_offset=game_offset, setup=args.train_setup, obs_format=args.obs_format)
        self.rng = np.random.default_rng([args.seed * 1000 + 3, 1, game_offset])
        self.obs, self.info = self.env.reset(seed=args.seed * 1000 + 2)
        # controller[i, c]: who moves colour c in slot i (SELF is the learner).
        self.controller = np.zeros((num_envs, 2), np.int64)
        # The learner's running score against each kind of opponent (--opponent-sampling
        # beats): an average over its last ~50 games against that kind.
        self.score = np.full(4, 0.5)
        self.mix = args.opponent_mix
        self.draw_opponents(np.arange(num_envs))
        self.clock = Clock()  # where a rollout's time goes: inference, simulator

    def draw_opponents(self, rows) -> None:
        self.controller[rows] = SELF
        learner_colour = self.rng.integers(0, 2, len(rows))
        self.controller[rows, 1 - learner_colour] = self.rng.choice(4, size=len(rows), p=self.mix)

    def record_results(self, rows, rewards) -> None:
        """The learner's results in the games of `rows` that just ended (rewards (n, 2)),
        and with --opponent-sampling beats the opponents' chances from them: an opponent
        that beats the learner more often is drawn more often."""
        for row in rows:
            learner = np.flatnonzero(self.controller[row] == SELF)
            kind = self.controller[row, 1 - learner[0]] if len(learner) == 1 else SELF
            if kind != SELF:
                self.score[kind] += 0.02 * ((rewards[row, learner[0]] + 1) / 2 - self.score[kind])
        if self.args.opponent_sampling == "beats":
            weight = self.args.opponent_mix * np.where(np.arange(4) == SELF, 1.0, 1.1 - self.score)
            self.mix = weight / weight.sum()

    def collect(self, snapshot: dict, weights: dict | None = None) -> dict:
        """One rollout: arrays (steps, slots, ...) and the bootstrap values after it."""
        args, n, env, net = self.args, self.n, self.env, self.net
        if weights is not None:
            net.load_state_dict(weights)
        self.opponent_net.load_state_dict(snapshot)
        net.eval()
        t_steps, obs, info, slots = args.rollout_steps, self.obs, self.info, np.arange(n)
        out = {"obs": np.zeros((t_steps, *obs.shape), obs.dtype),
               "mask": np.zeros((t_steps, *info["action_mask"].shape), np.bool_),
               "act": np.zeros((t_steps, n), np.int64), "logp": np.zeros((t_steps, n), np.float32),
               "values": np.zeros((t_steps, n), np.float32), "learner": np.zeros((t_steps, n), np.bool_),
               "players": np.zeros((t_steps, n), np.int64), "rewards": np.zeros((t_steps, n, 2), np.float32),
               "dones": np.zeros((t_steps, n), np.bool_), "teacher": np.zeros((t_steps, n), np.int64)}
        for t in range(t_steps):
            mover = self.controller[slots, env.to_play]
            mask = info["action_mask"]
            actions = np.zeros(n, np.int64)
            with self.clock.track("inference"), torch.inference_mode():
                logits, value = forward(net, obs, mask, args.device)
                dist = torch.distributions.Categorical(logits=logits)
                sampled = dist.sample()
                actions[:] = sampled.cpu().numpy()
                out["logp"][t] = dist.log_prob(sampled).cpu().numpy()
                out["values"][t] = value.cpu().numpy()
                rows = np.flatnonzero(mover == SNAPSHOT)
                if rows.size:
                    snap_logits, _ = forward(self.opponent_net, obs[rows], mask[rows], args.device)
                    actions[rows] = torch.distributions.Categorical(logits=snap_logits).sample().cpu().numpy()
            with self.clock.track("simulator"):
                # --teacher-coef: the heuristic's move in every slot is the learner's second
                # target, and the heuristic opponents play it (one draw of the bot's stream).
                moves = {}
                if args.teacher_coef:
                    moves["heuristic"] = out["teacher"][t] = env.bot_actions("heuristic").copy()
                for kind, name in ((HEURISTIC, "heuristic"), (RANDOM, "random")):
                    rows = np.flatnonzero(mover == kind)
                    if rows.size:
                        actions[rows] = (moves[name] if name in moves else env.bot_actions(name))[rows]
                out["obs"][t], out["mask"][t], out["act"][t], out["learner"][t] = obs, mask, actions, mover == SELF
                obs, _, terminated, truncated, info = env.step(actions)
                out["players"][t], out["rewards"][t] = info["acted"], info["rewards"]
                out["dones"][t] = terminated | truncated
                finished = np.flatnonzero(out["dones"][t])
                if finished.size:
                    self.record_results(finished, info["rewards"])
                    self.draw_opponents(finished)
        self.obs, self.info = obs, info
        # The bootstrap after the last step: V of the player to move's view; per_player_gae
        # takes minus it for the other player (zero-sum), an estimate from the opponent's
        # view that the critic sees only in training, never when the agent plays.
        with self.clock.track("inference"), torch.inference_mode():
            _, next_value = forward(net, obs, info["action_mask"], args.device)
        out["next_value"], out["to_play"] = next_value.cpu().numpy(), env.to_play.copy()
        return out

    def time_spent(self) -> dict:
        return dict(self.clock.spent)


class RayCollectors:
    """--ray-actors N: N Collector actors, each with a slice of the game slots; the
    learner stays here and sends its weights through Ray's object store."""

    def __init__(self, args):
        from stratego.integrations.distributed import connect, split_games
        self.ray = connect(args.ray_address, num_cpus=args.ray_actors if args.ray_address is None else None)
        remote = self.ray.remote(num_cpus=1)(Collector)
        self.actors = [remote.remote(args, s.num_envs, s.offset) for s in split_games(args.num_envs, args.ray_actors)]

    def collect(self, snapshot: dict, weights: dict) -> dict:
        weights_ref, snapshot_ref = self.ray.put(weights), self.ray.put(snapshot)
        parts = self.ray.get([a.collect.remote(snapshot_ref, weights_ref) for a in self.actors], timeout=600)
        # Slots side by side (per_player_gae follows each slot's column on its own): the
        # per-step arrays are (steps, slots, ...), the bootstrap ones (slots,).
        return {k: np.concatenate([p[k] for p in parts], axis=1 if parts[0][k].ndim > 1 else 0) for k in parts[0]}

    def time_spent(self) -> dict:
        """The actors' time, summed over actors (it overlaps in wall time)."""
        total: dict[str, float] = {}
        for spent in self.ray.get([a.time_spent.remote() for a in self.actors], timeout=60):
            for k, v in spent.items():
                total[f"actors' {k}"] = total.get(f"actors' {k}", 0.0) + v
        return total


def make_net(args):
    if args.init is not None:
        # A saved policy's own network (any registered class) with its weights.
        net = load_policy(args.init, variant=args.rules, device=None).net
        if net.observation_settings.history_k != args.history_k:
            raise SystemExit(f"--init {args.init} observes history_k={net.observation_settings.history_k}; "
                             f"pass --history-k {net.observation_settings.history_k}")
        return net.to(args.device)
    cls = SlimPolicyNet if args.net == "slim" else ConvPolicyNet
    return cls(num_actions=args.rules.num_actions, history_k=args.history_k,
               channels=args.channels, blocks=args.blocks, deploy=args.deploy).to(args.device)


def ppo(net, args, clock: Clock, log, until: float, progress, evaluate_now, plies: int):
    """Phase 2: PPO against itself, its past snapshots and the bots. Returns plies played
    and the collectors' own time."""
    opt = torch.optim.Adam(net.parameters(), lr=args.ppo_lr)
    n, t_steps = args.num_envs, args.rollout_steps
    rng = np.random.default_rng(args.seed * 1000 + 3)
    collector = RayCollectors(args) if args.ray_actors else Collector(args, n, net=net)
    pool = [copy.deepcopy(net.state_dict())]
    updates = 0
    # At least one update, as in imitation().
    while (clock.elapsed() < until and not (args.plies and plies >= args.plies)) or updates == 0:
        snapshot = pool[rng.integers(len(pool))]
        # In-process the collector's own clock splits the rollout into inference and
        # simulator; on Ray the learner waits for the actors ("rollouts on Ray").
        with clock.track("rollouts on Ray") if args.ray_actors else contextlib.nullcontext():
            roll = collector.collect(snapshot, {k: v.cpu() for k, v in net.state_dict().items()}
                                     if args.ray_actors else None)
        buf_obs, buf_mask, buf_act, buf_logp = roll["obs"], roll["mask"], roll["act"], roll["logp"]
        values, learner, players, rewards, dones = (roll["values"], roll["learner"], roll["players"],
                                                    roll["rewards"], roll["dones"])
        plies += t_steps * n
        with clock.track("bookkeeping"):
            advantages, returns = per_player_gae(rewards, values, players, dones, roll["next_value"],
                                                 roll["to_play"], gamma=args.gamma, gae_lambda=args.gae_lambda)
            keep = np.flatnonzero(learner.reshape(-1) & (players.reshape(-1) >= 0))
            flat_obs = buf_obs.reshape(-1, *buf_obs.shape[2:])
            flat_mask = buf_mask.reshape(t_steps * n, -1)
            # Advantages normalised once over the learner's moves of the rollout (per
            # minibatch, a short last one would divide by a zero or NaN spread).
            adv_all = advantages.reshape(-1)
            adv_all = (adv_all - adv_all[keep].mean()) / (adv_all[keep].std() + 1e-8)
            flat = {"act": buf_act.reshape(-1), "logp": buf_logp.reshape(-1), "adv": adv_all.astype(np.float32),
                    "ret": returns.reshape(-1), "teacher": roll["teacher"].reshape(-1)}
        net.train()
        for _ in range(args.epochs):
            order = rng.permutation(keep)
            for start in range(0, len(order), args.minibatch):
                idx = order[start:start + args.minibatch]
                with clock.track("update forward"):
                    logits, value = forward(net, flat_obs[idx], flat_mask[idx], args.device)
                    dist = torch.distributions.Categorical(logits=logits)
                    act = torch.from_numpy(flat["act"][idx]).to(args.device)
                    adv = torch.from_numpy(flat["adv"][idx]).to(args.device)
                    ratio = torch.exp(dist.log_prob(act) - torch.from_numpy(flat["logp"][idx]).to(args.device))
                    policy_loss = -torch.min(ratio * adv, ratio.clamp(1 - args.clip, 1 + args.clip) * adv).mean()
                    value_loss = F.mse_loss(value, torch.from_numpy(flat["ret"][idx]).to(args.device))
                    entropy = dist.entropy().mean()
                    loss = policy_loss + args.value_coef * value_loss - args.entropy * entropy
                    teacher_loss = None
                    if args.teacher_coef:
                        teacher = torch.from_numpy(flat["teacher"][idx]).to(args.device)
                        teacher_loss = F.cross_entropy(logits, teacher)
                        loss = loss + args.teacher_coef * teacher_loss
                    if not torch.isfinite(loss):
                        raise FloatingPointError(f"PPO loss is {loss.item()} at update {updates}: lower --ppo-lr")
                with clock.track("backward"):
                    opt.zero_grad()
                    loss.backward()
                    torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
                    opt.step()
        updates += 1
        if updates % args.snapshot_every == 0:
            pool = (pool + [copy.deepcopy(net.state_dict())])[-args.pool_size:]
        log({"phase": "ppo", "plies": plies, "updates": updates, "policy_loss": policy_loss.item(),
             "value_loss": value_loss.item(), "entropy": entropy.item(), "learner_moves": len(keep),
             "teacher_loss": None if teacher_loss is None else teacher_loss.item()})
        progress()
        evaluate_now()
    scores = collector.score if isinstance(collector, Collector) else None
    return plies, collector.time_spent(), scores


def plot(rows: list[dict], path: Path, setup: str = "random") -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    evals = [r for r in rows if r.get(f"{setup}_random") is not None]
    fig, ax = plt.subplots(figsize=(7, 4))
    for key, label in ((f"{setup}_random", "vs random"), (f"{setup}_heuristic", "vs heuristic")):
        ax.plot([r["wall_s"] / 60 for r in evals], [r[key] for r in evals], marker="o", label=label)
    ax.axhline(0.95, color="grey", lw=0.8, ls="--")
    ax.axhline(0.5, color="grey", lw=0.8, ls=":")
    ax.set_xlabel("wall time (minutes)")
    ax.set_ylabel("score (wins + draws / 2)")
    ax.set_ylim(0, 1)
    ax.set_title("examples/ppo_selfplay.py: score of the greedy agent, classic, " + ("own deployment" if setup == "agent" else "random setups"))
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv=None) -> dict:
    args = parse_args(argv)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.torch_threads or len(os.sched_getaffinity(0)))
    (args.out / "checkpoints").mkdir(parents=True, exist_ok=True)
    net = make_net(args)
    clock = Clock()
    budget = args.minutes * 60
    fields = ["wall_s", "phase", "plies", "updates", "policy_loss", "value_loss", "entropy", "imitation_accuracy",
              "learner_moves", "student_moves", "teacher_loss"] + [f"{args.setup}_{k}" for k in ("random", "heuristic", "random_games", "heuristic_games")]
    rows: list[dict] = []
    log_file = open(args.out / "log.csv", "w", newline="")
    writer = csv.DictWriter(log_file, fieldnames=fields, extrasaction="ignore")
    writer.writeheader()

    def log(row: dict) -> None:
        row = {"wall_s": round(clock.elapsed(), 2), **row}
        rows.append(row)
        writer.writerow(row)
        log_file.flush()

    bar = tqdm(total=round(budget), unit="s", disable=args.no_progress, desc="training")

    def progress() -> None:
        bar.update(max(0, min(round(clock.elapsed()), round(budget)) - bar.n))
        last = next((r for r in reversed(rows) if r.get(f"{args.setup}_random") is not None), None)
        if last:
            bar.set_postfix(vs_random=f"{last[f'{args.setup}_random']:.3f}",
                            vs_heuristic=f"{last[f'{args.setup}_heuristic']:.3f}")

    evaluations = 0
    next_eval = args.eval_minutes * 60

    def evaluate_now(force: bool = False) -> None:
        nonlocal evaluations, next_eval
        # A forced evaluation (end of a phase) is skipped if the network has not changed
        # since the last one.
        if force and rows and rows[-1]["phase"] == "evaluation":
            return
        if not force and clock.elapsed() < next_eval:
            return
        with clock.track("evaluation"):
            # The checkpoint first: its wall time is the time the agent had to learn.
            minutes = clock.elapsed() / 60
            metadata = {"example": "ppo_selfplay", "seed": args.seed, "wall_minutes": minutes}
            save_policy(args.out / "checkpoints" / f"policy-{minutes:05.1f}min.pt", net, args.rules,
                        metadata=metadata)
            save_policy(args.out / "policy.pt", net, args.rules, metadata=metadata)
            scores = evaluate(net, args, args.eval_games, EVAL_SEED_BASE + args.seed * 1000 + evaluations, args.setup)
        evaluations += 1
        # A fixed schedule (every --eval-minutes of wall time), whatever an evaluation costs.
        while next_eval <= clock.elapsed():
            next_eval += args.eval_minutes * 60
        log({"phase": "evaluation", **scores})
        progress()

    plies = imitation(net, args, clock, log, args.imitation_minutes * 60, progress, evaluate_now)
    evaluate_now(force=True)
    plies, collector_time, opponent_scores = ppo(net, args, clock, log, budget, progress, evaluate_now, plies)
    for name, seconds in collector_time.items():
        clock.spent[name] = clock.spent.get(name, 0.0) + seconds
    wall = clock.elapsed()
    evaluate_now(force=True)
    bar.close()
    log_file.close()
    plot(rows, args.out / "curve.png", args.setup)

    # The final evaluation: outside the budget, seeds of their own, both setups (with
    # --deploy the agent's own deployment against the bots' random placements).
    final = {}
    for setup in ("agent",) if args.deploy else ("random", "human"):
        final |= evaluate(net, args, args.final_eval_games, EVAL_SEED_BASE + 999_999 + args.seed, setup)
    spent = dict(clock.spent)
    train_time = sum(v for k, v in spent.items() if k != "evaluation")
    summary = {
        "args": {k: (str(v) if isinstance(v, Path) else v.tolist() if isinstance(v, np.ndarray) else v)
                 for k, v in vars(args).items() if k != "rules"},  # rules: the Variant --deploy derives
        "wall_s": wall, "plies": plies, "plies_per_s": plies / max(train_time, 1e-9),
        "time_share": {k: v / wall for k, v in sorted(spent.items())},
        "final": final,
        # The learner's running score against each kind of opponent at the end (in-process
        # collector only; with --opponent-sampling beats these weighted the draw).
        "opponent_scores": None if opponent_scores is None else {
            OPPONENT_NAMES[k]: float(opponent_scores[k]) for k in (SNAPSHOT, HEURISTIC, RANDOM)},
        "evaluations": [r for r in rows if r["phase"] == "evaluation"],
    }
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(f"trained {wall / 60:.1f} min, {plies:,} plies ({summary['plies_per_s']:,.0f} plies/s outside evaluation)")
    print("time: " + ", ".join(f"{k} {v:.0%}" for k, v in summary["time_share"].items()))
    print("final: " + ", ".join(f"{k} {v:.3f}" if isinstance(v, float) else f"{k} {v}" for k, v in final.items()))
    print(f"wrote {args.out}/log.csv, policy.pt, curve.png, summary.json")
    return summary


if __name__ == "__main__":
    main()
