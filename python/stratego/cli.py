"""Command line: `stratego bench` (the main job) and `stratego arena`."""
from __future__ import annotations

import argparse
import os
import sys

from . import _core
from .common.atomic_write import target_path, write_file
from .common.arguments import MAX_ENVS, MAX_THREADS, float_in, int_in
from .bench import format_result, run_bench
from .castle.variants import seat_letters
from .integrations.distributed import CONNECT_TIMEOUT, ActorFailed
from .common.threads import default_num_threads
from .variants import RULE_SETTINGS, load_variant, variants

MAX_STEPS = 2**31 - 1
MAX_SECONDS = 1e6  # eleven days: more is a typo
MAX_PLIES = RULE_SETTINGS["max_plies"][1]


def _version() -> str:
    """The installed distribution's version (pyproject.toml's), else the package's own."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("stratego-sim")
    except PackageNotFoundError:  # run from a source tree without installing
        from . import __version__
        return __version__


def _bench(args: argparse.Namespace) -> int:
    if args.steps is None:
        args.steps = 3200 if args.game == "castle" else 2000
    if args.game == "castle":
        return _bench_castle(args)
    # The variant is checked before the banner: a typo is an error, not a run's first line.
    load_variant(args.variant)
    if args.ray is not None:
        return _bench_ray(args)
    print(f"stratego bench: variant {args.variant}, default threads {default_num_threads()}, "
          f"state {_core.STATE_BYTES} bytes/game")
    steps = None if args.seconds else args.steps
    common = dict(num_envs=args.num_envs, batch_steps=steps, seconds=args.seconds,
                  num_threads=args.threads, seed=args.seed, variant=args.variant,
                  progress=not args.no_progress)
    runs = []
    if not args.no_obs:
        runs.append(run_bench(label="obs on", obs_dtype=args.obs_dtype, **common))
    runs.append(run_bench(label="obs off", observations=False, **common))
    for r in runs:
        print(format_result(r))
    if len(runs) == 2:
        a, b = runs
        if steps is not None and a.checksum != b.checksum:
            print("ERROR: observations changed the games (checksums differ)", file=sys.stderr)
            return 1
        print(f"observations cost: obs on runs at {a.steps_per_second / b.steps_per_second:.2f}x "
              f"the speed of obs off")
    return 0


def _bench_castle(args: argparse.Namespace) -> int:
    """`stratego bench --game castle`: the castle game's random games (docs/castle.md)."""
    from .bench import ProgressBar
    from .castle.bench import CONFIGS, format_castle_result, run_castle_bench
    if args.ray is not None or args.seconds is not None:
        print("stratego bench --game castle: --ray and --seconds are for the classic game; use --steps",
              file=sys.stderr)
        return 2
    steps = args.steps
    print(f"stratego bench --game castle: mode {args.mode}, state {_core.CASTLE_STATE_BYTES} bytes/game")
    labels = ["no obs", "codes+bits"] + ([] if args.no_obs else ["planes+bool"])
    runs = []
    for label in labels:
        bar = ProgressBar(label, not args.no_progress)
        runs.append(run_castle_bench(label, num_envs=args.num_envs, batch_steps=steps, num_threads=args.threads,
                                     seed=args.seed, mode=args.mode, progress=bar.update, **CONFIGS[label]))
        bar.close()
    for r in runs:
        print(format_castle_result(r))
    if len({r.checksum for r in runs}) != 1:
        print("ERROR: observations changed the games (checksums differ)", file=sys.stderr)
        return 1
    base = runs[0].steps_per_second
    print("observations cost: " + ", ".join(f"{r.label} at {r.steps_per_second / base:.2f}x" for r in runs[1:])
          + " the speed of no obs")
    return 0


def _bench_ray(args: argparse.Namespace) -> int:
    from .integrations.distributed import connect, run_bench_ray
    if args.seconds:
        raise ValueError("--ray runs --steps (a timed run has no checksum to compare): leave out --seconds")
    address = None if args.ray == "local" else args.ray
    ray = connect(address, num_cpus=args.actors * max(args.threads, 1) if address is None else None,
                  timeout=args.ray_timeout)
    print(f"stratego bench --ray: variant {args.variant}, {args.actors} actor(s) x {max(args.threads, 1)} "
          f"thread(s), Ray {ray.__version__} at {address or 'a local Ray started here'}")
    r = run_bench_ray(args.num_envs, args.steps, actors=args.actors, threads=max(args.threads, 1),
                      seed=args.seed, variant=args.variant, address=address, observations=not args.no_obs,
                      obs_dtype=args.obs_dtype, connect_timeout=args.ray_timeout)
    for s, a in zip(r.slices, r.actors):
        print(f"  {s}: {a.steps_per_second:,.0f} steps/s in {a.seconds:.2f} s, checksum {a.checksum:016x}")
    print(format_result(r.total))
    print(f"  Ray overhead      {r.overhead_seconds:.3f} s (driver wall time beyond the slowest actor)")
    return 0


def _arena(args: argparse.Namespace) -> int:
    from .agents.arena import run_arena
    if args.json:
        target_path(args.json, "JSON file")  # refused before the games, not after
    result = run_arena(args.players, games=args.games, variant=args.variant, seed=args.seed, setup=args.setup,
                       num_threads=args.threads, batch_size=args.batch_size, max_plies=args.max_plies,
                       sample=args.sample, check_rules=not args.ignore_rules, trust=args.trust,
                       progress=not args.no_progress)
    # The results first, then the table: a reader that stops early (`| head`) loses no games.
    written = result.write_json(args.json) if args.json else None
    print(f"stratego arena: variant {result.variant}, {args.setup} setups, seed {result.seed}, "
          f"{result.games} games per pairing and colour (the first game of each slot), {result.seconds:.1f} s")
    print(result.table())
    if written:
        print(f"results written to {written}")
    return 0


def _view(args: argparse.Namespace) -> int:
    from .castle import viewer as castle_viewer
    if castle_viewer.is_castle_file(args.game):
        limits = {} if args.max_moves is None else {"max_moves": args.max_moves}
        page = castle_viewer.viewer_html(castle_viewer.load_game(args.game, args.index, **limits),
                                         perspective=args.perspective, title=args.title)
    else:
        from .viewing.viewer import load_game, viewer_html
        page = viewer_html(load_game(args.game, args.index, max_moves=args.max_moves), perspective=args.perspective, title=args.title)
    # Written only once the whole page is made, and whole or not at all.
    print(f"{write_file(args.output, page, what='HTML file')}: {args.perspective} view of {args.game}")
    return 0


def _replay(args: argparse.Namespace) -> int:
    from .viewing.terminal import replay_game
    from .viewing.viewer import load_game
    return replay_game(load_game(args.game, args.index, max_moves=args.max_moves), perspective=args.perspective)


def _play(args: argparse.Namespace) -> int:
    import random
    from .game import Game
    from .common.seeding import resolve_seed
    from .viewing.terminal import play_game
    seed = resolve_seed(args.seed)
    # The colour drawn from the seed too: one seed, one game.
    color = args.color if args.color != "random" else random.Random(seed).choice(["red", "blue"])
    game = Game(args.variant, seed=seed, setup=args.setup, numbering=args.numbering)
    status = play_game(game, ("red", "blue").index(color), args.bot)
    if args.save and (game.history or game.done):  # a game resigned before any move is a game too
        from .records import RecordWriter
        index = _records_in(args.save)
        with RecordWriter(args.save, append=True) as out:  # one game a line: a file collects games
            out.write(game)
        print(f"game saved to {args.save} as game {index} (stratego view {args.save} --index {index} -o game.html)")
    return status


def _records_in(path: str) -> int:
    """How many games a JSON lines file holds (one a line), 0 if there is no file."""
    try:
        with open(path, "rb") as lines:
            return sum(1 for line in lines if line.strip())
    except FileNotFoundError:
        return 0


def _add_max_moves(parser) -> None:
    """The option of the commands that read record files: their readers refuse longer games."""
    from .records import MAX_JSONL_MOVES, MAX_MOVES
    parser.add_argument("--max-moves", type=int_in(0, MAX_STEPS), default=None,
                        help=f"refuse games of more moves (default: {MAX_MOVES} a Gravon record, {MAX_JSONL_MOVES} "
                             "a JSON lines game; docs/records.md)")


# Subcommands for people: watch a game (view, replay) or play one (play).
_VIEWING = {"view": _view, "replay": _replay, "play": _play}


def _add_viewing(sub) -> None:
    from .viewing.viewer import VIEWS
    view = sub.add_parser("view", help="a recorded game as one HTML page (no network needed)",
                          description="Writes a self-contained HTML page of a game: board, moves, captured "
                          "pieces, steps by move (buttons, slider, keys). --perspective red or blue writes only "
                          "what that player knew.")
    view.add_argument("game", metavar="GAME", help="a Gravon .xml record, a folder of them, or a JSON lines file of games "
                      "(--index), the castle game's too")
    view.add_argument("-o", "--output", required=True, help="the HTML file to write")
    view.add_argument("--perspective", default="full", choices=VIEWS + tuple(seat_letters(4)),
                      help="full: every piece, with buttons for each player's view (default); red/blue: that player's "
                           "view only; n/e/s/w: a castle game's seat's view only (docs/castle.md)")
    view.add_argument("--index", type=int_in(0, MAX_STEPS), default=0, help="the game's number in the file or folder (from 0)")
    view.add_argument("--title", default=None, help="the page's title")
    _add_max_moves(view)
    replay = sub.add_parser("replay", help="step through a recorded game in the terminal",
                            description="Shows a recorded game in the terminal one move at a time, forward and "
                            "back by keys (docs/viewing.md); --perspective red or blue shows only what that "
                            "player knew.")
    replay.add_argument("game", metavar="FILE", help="a Gravon .xml record, a folder of them, or a JSON lines file of games (--index)")
    replay.add_argument("--perspective", default="full", choices=VIEWS)
    replay.add_argument("--index", type=int_in(0, MAX_STEPS), default=0, help="the game's number in the file or folder (from 0)")
    _add_max_moves(replay)
    play = sub.add_parser("play", help="play against a bot in the terminal, from your own view",
                          description="A game against a bot of the engine in the terminal: you see your own "
                          "view only and type moves in Gravon notation (B4-B5; columns A-I and K); --save "
                          "appends the game to a JSON lines file (docs/viewing.md).")
    play.add_argument("--bot", default="heuristic", choices=list(_core.BOT_NAMES))
    play.add_argument("--color", default="red", choices=["red", "blue", "random"], help="your colour (red moves first)")
    play.add_argument("--variant", default="classic", help=f"one of {variants()} or a .toml path")
    play.add_argument("--setup", default="random", choices=["random", "human"], help="how both setups are drawn")
    play.add_argument("--numbering", default="new", choices=["new", "old"], help="ranks: new (Marshal 10) or old (Marshal 1)")
    play.add_argument("--seed", type=int, default=None, help="seed of the setups and the bot (default: fresh)")
    play.add_argument("--save", default=None, help="append the game to this JSON lines file of records")


def _serve(args: argparse.Namespace) -> int:
    from .web import serve
    serve(host=args.host, port=args.port, policies=args.policy, save=args.save or None, move_seconds=args.move_seconds,
          trust=args.trust)
    return 0


def _add_serve(sub) -> None:
    from .web import DEFAULT_HOST, DEFAULT_PORT
    serve = sub.add_parser("serve", help="play against the bots in a browser (a local web app, the web extra)",
                           description="A local web app to play against the bots and saved policies in a "
                           "browser (docs/playing.md). Needs pip install -e '.[web]'.")
    serve.add_argument("--host", default=DEFAULT_HOST,
                       help=f"address to listen on ({DEFAULT_HOST}: this machine only)")
    serve.add_argument("--port", type=int_in(1, 65535), default=DEFAULT_PORT, help=f"port ({DEFAULT_PORT})")
    serve.add_argument("--policy", action="append", default=[], metavar="FILE",
                       help="a saved policy file (.pt) to offer as an opponent, named by its file's stem "
                            "(repeatable; needs the train extra)")
    serve.add_argument("--save", default="stratego-games.jsonl",
                       help="append each finished game to this JSON lines file ('' for none; "
                            "default stratego-games.jsonl)")
    serve.add_argument("--move-seconds", type=float_in(0, MAX_SECONDS, lo_open=True), default=10.0,
                       help="a bot that takes longer for a move loses on time (10)")
    serve.add_argument("--trust", action="store_true",
                       help="let --policy files import the network module they name; without it only stratego's "
                            "networks and those installed packages register load (docs/agents.md)")


def _pairs(args: argparse.Namespace) -> int:
    from .records.pairs import save_pairs, training_pairs
    from .records import read_records

    target_path(args.output, ".npz file")  # refused before the games are replayed, not after
    # As read: training_pairs replays each game once (a Record from load_records would be a replay already).
    records = read_records(args.records, max_moves=args.max_moves)
    players = {"both": (0, 1), "red": (0,), "blue": (1,)}[args.players]
    pairs = training_pairs(records, players=players, history_k=args.history_k, obs_format=args.obs_format)
    written = save_pairs(args.output, pairs)
    print(f"stratego pairs: {len(pairs['action'])} pairs of {args.players} from "
          f"{len(set(pairs['game'].tolist()))} games written to {written}")
    return 0


def _record(args: argparse.Namespace) -> int:
    from .bench import ProgressBar
    from .records.dataset import write_dataset

    bar = ProgressBar("record", not args.no_progress, unit="k games", scale=1)
    run = write_dataset(args.output, args.games, args.variant, num_envs=args.num_envs, num_threads=args.threads,
                        seed=args.seed, red=args.red, blue=args.blue, setup=args.setup,
                        record_plies=args.record_plies,
                        progress=lambda done, total: bar.update(done / total, done / 1000))
    bar.close()
    print(f"stratego record: variant {args.variant}, {args.red} (red) vs {args.blue} (blue), seed {args.seed}: "
          f"{run.summary()} to {args.output}")
    return 0


# Each subcommand's function, by name: the one table main() dispatches through (the docs
# test replaces it to parse commands without running them).
COMMANDS = {"bench": _bench, "arena": _arena, "pairs": _pairs, "record": _record, "serve": _serve, **_VIEWING}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="stratego", description="Stratego simulator for RL.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    bench = sub.add_parser("bench", help="random-vs-random games in parallel: speed and checksum",
                           description="The main job: games of uniformly random legal moves chosen in C, "
                           "stepped in parallel, with and without observations; prints the speed and a "
                           "checksum of the games, the same for any --threads (docs/performance.md). The "
                           "progress bar shows on a terminal only.")
    bench.add_argument("--num-envs", type=int_in(1, MAX_ENVS), default=4096, help="games at once (4096)")
    bench.add_argument("--steps", type=int_in(1, MAX_STEPS), default=None,
                       help="batch steps, each one ply of every game (2000: every game started in the first step ends, by the ply cap at the latest; castle 3200)")
    bench.add_argument("--seconds", type=float_in(0, MAX_SECONDS, lo_open=True), default=None,
                       help="run for this long instead of --steps")
    bench.add_argument("--threads", type=int_in(0, MAX_THREADS), default=0,
                       help="threads, 0 = the default (stratego.default_num_threads())")
    bench.add_argument("--seed", type=int, default=0)
    bench.add_argument("--variant", default="classic", help=f"one of {variants()} or a .toml path")
    bench.add_argument("--obs-dtype", default="uint8", choices=["uint8", "float32"])
    bench.add_argument("--no-obs", action="store_true", help="only the run without observations")
    bench.add_argument("--no-progress", action="store_true", help="no progress bar")
    bench.add_argument("--game", default="stratego", choices=["stratego", "castle"],
                       help="the classic game, or the 3/4-player castle game (docs/castle.md)")
    bench.add_argument("--mode", default="ffa4", choices=["ffa4", "teams4", "ffa3"], help="castle: the mode (ffa4)")
    bench.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                       help="run across Ray actors: at ADDRESS (HOST:PORT of `ray start --head`), or on a local "
                            "Ray started here when no address is given (docs/distributed.md)")
    bench.add_argument("--ray-timeout", type=float_in(0, MAX_SECONDS, lo_open=True), default=CONNECT_TIMEOUT,
                       metavar="SECONDS", help=f"with --ray ADDRESS: how long to wait for the Ray head to answer "
                                               f"({CONNECT_TIMEOUT:g}); past it the run stops with an error")
    bench.add_argument("--actors", type=int_in(1, MAX_THREADS), default=2,
                       help="with --ray: actors, each stepping a slice of the games on --threads threads (2)")
    arena = sub.add_parser("arena", help="round robin among bots and policies, with Elo ratings",
                           description="Every pair of players meets in --games games with each colour; only the "
                           "first game of each env slot counts, so short games are not favoured. Elo: "
                           "Bradley-Terry fit, draws as half a win, random anchored at 0.")
    arena.add_argument("players", nargs="+", metavar="PLAYER",
                       help=f"a bot ({', '.join(repr(b) for b in _core.BOT_NAMES)}), a zoo agent ('zoo:NAME', "
                            "docs/zoo.md), a policy file (.pt), "
                            "'module:function' or 'file.py:function'")
    arena.add_argument("--games", type=int_in(1, MAX_ENVS), default=100, help="games per pairing and colour (100)")
    arena.add_argument("--variant", default="classic", help=f"one of {variants()} or a .toml path")
    arena.add_argument("--setup", default="random", choices=["random", "human", "agent"],
                       help="random or human setups, or agent: every player deploys its own pieces first "
                            "(the bots at random; policies must observe the deployment planes)")
    arena.add_argument("--seed", type=int, default=0)
    arena.add_argument("--threads", type=int_in(0, MAX_THREADS), default=0,
                       help="threads of the env, 0 = the default (stratego.default_num_threads()); "
                            "at most one per 256 games of a batch")
    arena.add_argument("--batch-size", type=int_in(1, MAX_ENVS), default=4096, help="games stepped at once (4096)")
    arena.add_argument("--max-plies", type=int_in(1, MAX_PLIES), default=None,
                       help="ply cap of every game (default: the variant's; 2000 if it has none)")
    arena.add_argument("--sample", action="store_true",
                       help="policy files sample their moves (seeded) instead of playing the most likely one")
    arena.add_argument("--ignore-rules", action="store_true",
                       help="let a policy file play a variant whose rule settings differ from its own "
                            "(pieces and actions must still match)")
    arena.add_argument("--trust", action="store_true",
                       help="let policy files import the network module they name; without it only stratego's "
                            "networks and those installed packages register load (docs/agents.md)")
    arena.add_argument("--json", default=None, help="write the results to this JSON file")
    arena.add_argument("--no-progress", action="store_true", help="no progress bar")
    pairs = sub.add_parser("pairs", help="training pairs (observation, mask, action, player) from game records",
                           description="Every decision in the records, seen by the player who made it, into an "
                           ".npz of arrays obs, mask, action, player, game, step (docs/records.md).")
    pairs.add_argument("records", help="a JSON lines file of games, a Gravon .xml record, or a folder of them")
    pairs.add_argument("-o", "--output", required=True, help="the .npz file to write")
    pairs.add_argument("--players", default="both", choices=["both", "red", "blue"], help="whose decisions (both)")
    pairs.add_argument("--history-k", type=int, default=4, help="observation history planes (4; the range is checked in C)")
    pairs.add_argument("--obs-format", default="planes", choices=["planes", "codes"])
    _add_max_moves(pairs)
    record = sub.add_parser("record", help="play games in the batch and write them as JSON lines (a dataset)",
                            description="Games played in C by a recording VecEnv, one JSON line each "
                            "(docs/records.md), in the order they end; slot i of --num-envs writes its first "
                            "games only, so short games are not favoured; the file is the same for any "
                            "--threads (docs/recording.md).")
    record.add_argument("--games", type=int_in(1, MAX_STEPS), required=True, help="games to write")
    record.add_argument("-o", "--output", required=True, help="the .jsonl file to write (.jsonl.gz: gzip)")
    record.add_argument("--variant", default="classic", help=f"one of {variants()} or a .toml path")
    record.add_argument("--red", default="random", choices=["random", *_core.BOT_NAMES[1:]],
                        help="red's player: random legal moves or a bot (random)")
    record.add_argument("--blue", default="random", choices=["random", *_core.BOT_NAMES[1:]],
                        help="blue's player (random)")
    record.add_argument("--setup", default="random", choices=["random", "human"])
    record.add_argument("--num-envs", type=int_in(1, MAX_ENVS), default=4096, help="games at once (4096)")
    record.add_argument("--threads", type=int_in(0, MAX_THREADS), default=0,
                        help="threads, 0 = the default (stratego.default_num_threads())")
    record.add_argument("--seed", type=int, default=0)
    record.add_argument("--record-plies", type=int, default=None,
                        help="actions a game's record holds (default: the variant's bound; required for a "
                             "variant without max_plies)")
    record.add_argument("--no-progress", action="store_true", help="no progress bar")
    _add_viewing(sub)
    _add_serve(sub)
    args = parser.parse_args(argv)
    run = COMMANDS[args.command]
    try:
        return run(args)
    except BrokenPipeError:
        # The reader of stdout went away (`stratego arena ... | head`): no bad setting, so no
        # usage message. stdout goes to devnull, or the interpreter's last flush raises again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except (ValueError, TypeError, MemoryError, OSError, ImportError, ActorFailed) as exc:
        # Bad settings (an unknown variant, too many games): the message, no traceback,
        # under the usage of the subcommand that was given them.
        sub.choices[args.command].error(str(exc))


if __name__ == "__main__":
    sys.exit(main())
