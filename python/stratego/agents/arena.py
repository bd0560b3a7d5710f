"""The arena: a round robin among bots and policies, with Elo ratings.

Players are the C bots ("random", "heuristic", "pimc"), Python policies (`module:function` or
`file.py:function`, the protocol of stratego.agents.policy) and policy files (paths; see
stratego.agents.policy_file). Every pair meets in `games` games with each colour. All games
run in one batch (`VecEnv`), and a game slot counts only its FIRST game: a slot whose
game ends early is replaced at once by the env, and counting its later games too would
favour players whose games are short (quick wins, or quick losses). So the arena steps
until every slot's first game has ended; the variant's move caps end every game (a
variant without a ply cap gets one, `max_plies`), so this terminates.

Policies that expect different observations (history_k, belief, dtype) get them from
envs that play the same games in lockstep: the same seed and the same actions give the
same games, and each env writes its own observations. Each policy is called once per
step with the observations and masks of the games where its player is to move.

The same seed and batch_size give the same games and results, whatever the number of
threads (each game draws from its own stream); the Elo fit is stratego.agents.elo.
"""
from __future__ import annotations

import importlib
import importlib.util
import itertools
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np

from .. import _core
from ..common.atomic_write import write_file
from ..bench import ProgressBar
from . import zoo
from .elo import EloFit, fit_elo
from .policy import ObservationSettings, checked_actions, observation_settings
from ..common.seeding import resolve_seed
from ..common.threads import default_num_threads
from ..variants import Variant, load_variant
from ..vec_env import END_REASONS, VecEnv

#: The C bots (VecEnv.bot_actions), by the engine's own list.
BOTS: tuple[str, ...] = _core.BOT_NAMES
ANCHOR = "random"
#: Ply cap the arena gives a variant that has none (gravon): random players may never end.
DEFAULT_MAX_PLIES = 2000
#: Fewest games per thread in a batch (see _play_chunk).
GAMES_PER_THREAD = 256
JSON_FORMAT = "stratego-arena"
JSON_VERSION = 1


@dataclass
class ArenaPlayer:
    """A resolved player: a bot name, or a policy callable with the observations it takes."""

    name: str
    spec: str
    bot: str | None = None
    policy: Callable | None = None
    observation: ObservationSettings | None = None


def _load_callable(spec: str) -> Callable:
    """The object `module:function` or `path/file.py:function` names."""
    module_name, _, attr = spec.rpartition(":")
    if not module_name or not attr:
        raise ValueError(f"player {spec!r}: expected 'module:function' or 'file.py:function'")
    if module_name.endswith(".py"):
        path = Path(module_name)
        if not path.is_file():
            raise ValueError(f"player {spec!r}: file {module_name!r} does not exist")
        mod_spec = importlib.util.spec_from_file_location(f"stratego_arena_{path.stem}", path)
        module = importlib.util.module_from_spec(mod_spec)
        mod_spec.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise ValueError(f"player {spec!r}: cannot import module {module_name!r} ({exc})") from None
    obj = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"player {spec!r}: {module_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    if isinstance(obj, type) or not callable(obj):
        kind = "class" if isinstance(obj, type) else type(obj).__name__
        raise ValueError(f"player {spec!r} names a {kind}; it must name a policy, a callable "
                         "policy(obs, mask) -> actions (a function, or an instance with __call__)")
    return obj


def _is_policy_file(spec: str) -> bool:
    return spec.endswith(".pt") or (Path(spec).is_file() and not spec.endswith(".py"))


def resolve_player(spec: Any, variant: Variant, *, sample: bool = False, check_rules: bool = True,
                   trust: bool = False) -> ArenaPlayer:
    """An ArenaPlayer from what a user gives: "random", "heuristic", "zoo:NAME" (stratego.agents.zoo), a policy file path,
    "module:function", a callable, or a (name, any of these) pair. `trust` lets a policy
    file import the network module it names (stratego.agents.policy_file.load_policy)."""
    if isinstance(spec, ArenaPlayer):
        return spec
    if isinstance(spec, tuple):
        if len(spec) != 2 or not isinstance(spec[0], str):
            raise ValueError(f"a named player is a (name, player) pair, got {spec!r}")
        player = resolve_player(spec[1], variant, sample=sample, check_rules=check_rules, trust=trust)
        player.name = spec[0]
        return player
    if isinstance(spec, os.PathLike):
        spec = os.fspath(spec)
    if isinstance(spec, str):
        if spec in BOTS:
            return ArenaPlayer(spec, spec, bot=spec)
        if zoo.is_zoo_spec(spec):
            policy = zoo.load(spec, variant)
            return ArenaPlayer(spec, spec, policy=policy, observation=policy.observation_settings)
        if _is_policy_file(spec):
            from .policy_file import load_policy  # needs torch: only for policy files
            policy = load_policy(spec, variant=variant, sample=sample, check_rules=check_rules, trust=trust)
            return ArenaPlayer(spec, spec, policy=policy, observation=policy.observation_settings)
        if ":" in spec:
            policy = _load_callable(spec)
            return ArenaPlayer(spec, spec, policy=policy, observation=observation_settings(policy, spec))
        raise ValueError(f"unknown player {spec!r}: expected one of {list(BOTS)}, a zoo agent "
                         f"{list(zoo.names())}, a policy file (a path), "
                         "'module:function' or 'file.py:function'")
    if callable(spec):
        name = getattr(spec, "__name__", type(spec).__name__)
        # What the JSON shows: the file of a loaded policy, else where the code lives.
        where = getattr(spec, "path", None)
        if where is None:
            code = spec if hasattr(spec, "__qualname__") else type(spec)
            where = f"{code.__module__}:{code.__qualname__}"
        return ArenaPlayer(name, str(where), policy=spec, observation=observation_settings(spec, name))
    raise TypeError(f"a player is a str, a path, a callable or a (name, player) pair; got {type(spec).__name__}")


@dataclass
class ArenaResult:
    """Every counted game (the first of each slot) and the Elo fit.

    Game g was played by red[g] (red) against blue[g] (indices into `names`); winner[g]
    is 0 red, 1 blue, -1 draw; reason[g] indexes stratego.END_REASONS.
    """

    names: tuple[str, ...]
    specs: tuple[str, ...]
    variant: str
    setup: str
    seed: int
    games: int
    max_plies: int
    red: np.ndarray
    blue: np.ndarray
    winner: np.ndarray
    reason: np.ndarray
    plies: np.ndarray
    elo: EloFit
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def _index(self, name: str) -> int:
        if name not in self.names:
            raise KeyError(f"no player {name!r} in this arena; players: {list(self.names)}")
        return self.names.index(name)

    def results(self) -> tuple[np.ndarray, np.ndarray]:
        """(wins, draws): wins[i, j] games i won against j, either colour; draws symmetric."""
        p = len(self.names)
        wins = np.zeros((p, p), dtype=np.int64)
        draws = np.zeros((p, p), dtype=np.int64)
        won = self.winner >= 0
        winners = np.where(self.winner == 0, self.red, self.blue)
        losers = np.where(self.winner == 0, self.blue, self.red)
        np.add.at(wins, (winners[won], losers[won]), 1)
        np.add.at(draws, (self.red[~won], self.blue[~won]), 1)
        return wins, draws + draws.T

    def record(self, name: str, opponent: str | None = None) -> tuple[int, int, int]:
        """(wins, draws, losses) of `name`, against `opponent` or everyone."""
        wins, draws = self.results()
        i = self._index(name)
        cols = [self._index(opponent)] if opponent is not None else [j for j in range(len(self.names)) if j != i]
        return int(wins[i, cols].sum()), int(draws[i, cols].sum()), int(wins[cols, i].sum())

    def score(self, name: str, opponent: str | None = None) -> float:
        """(wins + draws / 2) / games of `name`, against `opponent` or everyone."""
        w, d, l = self.record(name, opponent)
        return (w + 0.5 * d) / max(w + d + l, 1)

    def table(self) -> str:
        """The standings, best Elo first, and the cross table of scores."""
        order = np.argsort(-self.elo.ratings, kind="stable")
        width = max(12, *(len(n) for n in self.names))
        lines = [f"{'player':<{width}}  {'games':>6} {'wins':>6} {'draws':>6} {'losses':>6} {'score':>6} "
                 f"{'Elo':>7}  95% interval"]
        for i in order:
            name = self.names[i]
            w, d, l = self.record(name)
            lo, hi = self.elo.interval(name)
            interval = "anchor" if name == self.elo.anchor else f"[{lo:.0f}, {hi:.0f}]"
            lines.append(f"{name:<{width}}  {w + d + l:>6} {w:>6} {d:>6} {l:>6} {self.score(name):>6.3f} "
                         f"{self.elo.ratings[i]:>7.0f}  {interval}")
        lines.append("")
        lines.append("score of the row against the column:")
        short = [n if len(n) <= 10 else n[:9] + "~" for n in (self.names[i] for i in order)]
        lines.append(f"{'':<{width}}  " + " ".join(f"{s:>10}" for s in short))
        for i in order:
            cells = ["-" if i == j else f"{self.score(self.names[i], self.names[j]):.3f}" for j in order]
            lines.append(f"{self.names[i]:<{width}}  " + " ".join(f"{c:>10}" for c in cells))
        return "\n".join(lines + self.notes)

    def to_dict(self) -> dict:
        players = []
        for i, name in enumerate(self.names):
            w, d, l = self.record(name)
            lo, hi = self.elo.interval(name)
            players.append({"name": name, "spec": self.specs[i], "games": w + d + l, "wins": w, "draws": d,
                            "losses": l, "score": self.score(name), "elo": float(self.elo.ratings[i]),
                            "elo_95": [lo, hi]})
        pairings = []
        for r, b in itertools.permutations(range(len(self.names)), 2):
            sel = (self.red == r) & (self.blue == b)
            if not sel.any():
                continue
            reasons = {END_REASONS[k]: int(c) for k, c in zip(*np.unique(self.reason[sel], return_counts=True))}
            pairings.append({"red": self.names[r], "blue": self.names[b], "games": int(sel.sum()),
                             "red_wins": int((self.winner[sel] == 0).sum()),
                             "blue_wins": int((self.winner[sel] == 1).sum()),
                             "draws": int((self.winner[sel] < 0).sum()),
                             "mean_plies": float(self.plies[sel].mean()), "end_reasons": reasons})
        return {
            "format": JSON_FORMAT, "format_version": JSON_VERSION,
            "variant": self.variant, "setup": self.setup, "seed": self.seed, "games_per_pairing_and_colour": self.games,
            "max_plies": self.max_plies, "seconds": self.seconds,
            "elo": {"model": "Bradley-Terry maximum likelihood, draws as half a win, 1 virtual draw per pair",
                    "anchor": self.elo.anchor},
            "players": players, "pairings": pairings, "notes": list(self.notes),
        }

    def write_json(self, path: str | os.PathLike) -> Path:
        """Writes to_dict() as JSON, whole or not at all (stratego.common.atomic_write); returns the path."""
        return write_file(path, json.dumps(self.to_dict(), indent=2) + "\n", what="JSON file")


def _derive_seed(seed: int, *keys: int) -> int:
    """A 64-bit seed for one part of the run, from the run's seed (NumPy's SeedSequence)."""
    words = np.random.SeedSequence([seed, *keys]).generate_state(2, np.uint32)
    return int(words[0]) | int(words[1]) << 32


class _Progress:
    """Games done so far, shown by bench.ProgressBar (tqdm's bar on a terminal when tqdm
    is installed, plain lines without it, nothing in a log): the arena runs with the core
    install (bots, NumPy policies), so it must not need tqdm."""

    def __init__(self, total: int, enabled: bool):
        self.total, self.done, self.start = total, 0, time.perf_counter()
        self.bar = ProgressBar("arena", enabled, unit="games/s", scale=1.0)

    def update(self, n: int) -> None:
        self.done += n
        elapsed = max(time.perf_counter() - self.start, 1e-9)
        self.bar.update(self.done / self.total, self.done / elapsed, force=self.done == self.total)

    def close(self) -> None:
        self.bar.close()


def _play_chunk(players: list[ArenaPlayer], red: np.ndarray, blue: np.ndarray, first_game: int, variant: Variant,
                setup: str, seed: int, num_threads: int, progress: _Progress) -> tuple[np.ndarray, ...]:
    """Plays the first game of every slot of one batch; returns (winner, reason, plies)."""
    n = len(red)
    # A thread needs a few hundred games per step to pay for waking it and waiting for
    # it: a small batch on all cores runs slower than on one (100x on a busy 2-core
    # machine). 0 is the engine's default count (affinity, cgroup quota, OMP_NUM_THREADS).
    wanted = num_threads if num_threads > 0 else default_num_threads()
    num_threads = max(1, min(wanted, n // GAMES_PER_THREAD))
    used = sorted(set(red.tolist()) | set(blue.tolist()))
    settings = list(dict.fromkeys(players[p].observation for p in used if players[p].policy is not None))
    envs = {s: VecEnv(n, variant, num_threads=num_threads, setup=setup, **s.env_kwargs()) for s in settings}
    if not envs:
        envs = {None: VecEnv(n, variant, num_threads=num_threads, setup=setup, observations=False)}
    try:
        for env in envs.values():
            env.reset(seed=seed)
        primary = next(iter(envs.values()))
        winner = np.full(n, -1, dtype=np.int8)
        reason = np.zeros(n, dtype=np.uint8)
        plies = np.zeros(n, dtype=np.int32)
        done = np.zeros(n, dtype=np.bool_)
        actions = np.zeros(n, dtype=np.int64)
        while not done.all():
            running = ~done
            for env in envs.values():
                if not np.array_equal(env.to_play[running], primary.to_play[running]):
                    raise RuntimeError("internal error: the arena's lockstep envs diverged")
            actor = np.where(primary.to_play == 0, red, blue)
            # Every step, whoever plays: a slot's random stream (which the bots draw on)
            # then advances the same way whatever the other slots' players are.
            sampled = primary.sample_actions().copy()
            for p in used:
                moving = running & (actor == p)
                rows = np.flatnonzero(moving)
                if rows.size == 0:
                    continue
                player = players[p]
                if player.bot == "random":
                    actions[rows] = sampled[rows]  # what bot_actions("random") gives
                elif player.bot is not None:
                    # Only the slots where this bot moves: each slot's stream is drawn on by
                    # its own players' bots, and PIMC's playouts go where it plays.
                    actions[rows] = primary.bot_actions(player.bot, games=moving)[rows]
                else:
                    env = envs[player.observation]
                    answer = player.policy(env.obs[rows], env.action_mask[rows])
                    actions[rows] = checked_actions(answer, env.action_mask[rows], f"player {player.name!r}",
                                                    games=first_game + rows)
            # Slots whose first game is over go on with random moves, each env its own:
            # those games are not counted, and the envs may differ there.
            finished = np.flatnonzero(done)
            for env in envs.values():
                if finished.size:
                    mine = sampled if env is primary else env.sample_actions()
                    actions[finished] = mine[finished]
                env.step(actions)
            ended = running & (primary.terminated | primary.truncated)
            if ended.any():
                winner[ended] = primary.final_winner[ended]
                reason[ended] = primary.final_reason[ended]
                plies[ended] = primary.final_plies[ended]
                done |= ended
                progress.update(int(ended.sum()))
        return winner, reason, plies
    finally:
        for env in envs.values():
            env.close()


def run_arena(players: Iterable[Any], games: int = 100, variant: str | Variant = "classic", seed: int | None = None,
              *, setup: str = "random", num_threads: int = 0, batch_size: int = 4096, max_plies: int | None = None,
              sample: bool = False, check_rules: bool = True, trust: bool = False,
              progress: bool = False) -> ArenaResult:
    """Plays a round robin: every pair of `players` meets in `games` games with each
    colour (the first game of each env slot). Returns an ArenaResult with the Elo fit,
    anchored at "random" when it plays (else at the first player).

    players: "random", "heuristic", policy file paths, "module:function" strings,
    policy callables, or (name, player) pairs. sample: policy files sample from their
    distribution instead of playing their most likely move (seeded from `seed`).
    max_plies: a ply cap for the games (default: the variant's; 2000 if it has none).
    setup: "random", "human", or "agent" (every player deploys its own pieces before the
    first move, the bots at random; policies must observe the deployment planes).
    trust: policy files may import the network module they name (only the package's
    and registered networks otherwise; stratego.agents.policy_file).
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive int (games per pairing and colour), got {games!r}")
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ValueError(f"batch_size must be a positive int, got {batch_size!r}")
    if setup not in ("random", "human", "agent"):
        raise ValueError(f"setup must be 'random', 'human' or 'agent', got {setup!r}")
    if isinstance(num_threads, bool) or not isinstance(num_threads, int) or num_threads < 0:
        raise ValueError(f"num_threads must be an int >= 0 (0: stratego.default_num_threads()), got {num_threads!r}")
    # setup="agent": every player deploys its own pieces (the bots at random), under the
    # variant's rules with deploy (docs/deployment.md).
    base = load_variant(variant, **({"deploy": 1} if setup == "agent" else {}))
    notes = []
    if max_plies is None and base.settings["max_plies"] == 0:
        max_plies = DEFAULT_MAX_PLIES
        notes.append(f"variant {base.name} has no ply cap: games were capped at {max_plies} plies (a draw)")
    effective = load_variant(base, max_plies=max_plies) if max_plies is not None else base
    if effective.settings["max_plies"] == 0:
        raise ValueError("max_plies must be >= 1: the arena needs every game to end")
    # Policy files are checked against the variant as named: a cap the arena sets is its
    # own choice (it shows in the progress planes, which is the price of shorter games).
    resolved = [resolve_player(p, base, sample=sample, check_rules=check_rules, trust=trust) for p in players]
    names = [p.name for p in resolved]
    if len(resolved) < 2:
        raise ValueError(f"an arena needs at least 2 players, got {len(resolved)}")
    if len(set(names)) != len(names):
        raise ValueError(f"each player must appear once (by name), got {names}")
    blind = [p.name for p in resolved if setup == "agent" and p.policy is not None and not p.observation.deploy]
    if blind:
        raise ValueError(f"setup='agent' needs policies that observe the deployment planes (ObservationSettings"
                         f"(deploy=True)); {blind} do not")
    seed = resolve_seed(seed)
    for index, player in enumerate(resolved):
        if player.policy is not None and callable(getattr(player.policy, "seed", None)):
            player.policy.seed(_derive_seed(seed, 1, index))

    # Every pair with each colour, `games` slots each.
    blocks = [pair for i, j in itertools.combinations(range(len(resolved)), 2) for pair in ((i, j), (j, i))]
    red = np.repeat(np.array([r for r, _ in blocks], dtype=np.int64), games)
    blue = np.repeat(np.array([b for _, b in blocks], dtype=np.int64), games)
    total = len(red)
    winner = np.empty(total, dtype=np.int8)
    reason = np.empty(total, dtype=np.uint8)
    plies = np.empty(total, dtype=np.int32)
    bar = _Progress(total, progress)
    start = time.perf_counter()
    try:
        for chunk, lo in enumerate(range(0, total, batch_size)):
            hi = min(lo + batch_size, total)
            winner[lo:hi], reason[lo:hi], plies[lo:hi] = _play_chunk(
                resolved, red[lo:hi], blue[lo:hi], lo, effective, setup, _derive_seed(seed, 0, chunk),
                num_threads, bar)
    finally:
        bar.close()
    seconds = time.perf_counter() - start
    result = ArenaResult(tuple(names), tuple(p.spec for p in resolved), effective.name, setup, seed, games,
                         effective.settings["max_plies"], red, blue, winner, reason, plies, elo=None,
                         seconds=seconds, notes=notes)
    wins, draws = result.results()
    result.elo = fit_elo(names, wins, draws, anchor=ANCHOR if ANCHOR in names else names[0])
    return result
