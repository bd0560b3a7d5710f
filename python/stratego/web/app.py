"""The HTTP side of `stratego serve` (Starlette): the page, its files, and a JSON API
over stratego.web.session's games.

    GET  /                          the page (static/index.html); /castle the castle game's
    GET  /api/options               variants, opponents, colours, setups
    POST /api/games                 a new game {game, variant, opponent, color, setup, seed, people}
    GET  /api/games/{id}?since=N    the game as its person sees it (moves after the first N)
    POST /api/games/{id}/move       {"move": "B4-B5"}, then the bot's reply
    POST /api/games/{id}/fill       places the rest of the person's hand at random
    POST /api/games/{id}/resign     the person resigns
    POST /api/games/{id}/draw       the person offers a draw; the bot answers
    GET  /api/games/{id}/record     the finished game, one JSON line (stratego.records.jsonl)
    GET  /api/games/{id}/viewer     the finished game as `stratego view`'s page
    POST /api/games/{invite}/join   a castle seat's invitation, once: the seat's own id

Every answer is JSON (but the page, its files, the record and the viewer's page); a
refused request gets a 4xx and {"error": "..."} and changes nothing. Ids are
secrets.token_urlsafe: a game is reached only by the one who made it. One request of a
game runs at a time (a lock a game); the bots think in worker threads under a time
limit a move, so no bot blocks the server.
"""
from __future__ import annotations

import json
import logging
import math
import re
import secrets
import threading
import time
from importlib import resources
from pathlib import Path

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..common.atomic_write import LineAppender
from ..agents.opponent import BOT_OPPONENTS, Opponent
from ..variants import variants
from ..viewing.viewer import fill_colours, viewer_html
from ..castle import viewer as castle_viewer
from .castle import CASTLE_BOTS, CASTLE_VARIANTS, CastleSeat, PlayedCastle
from .request import ID_BYTES, RequestError
from .session import CASTLE_SEATS, COLOURS, GAMES, SETUPS, Options, PlayedGame, dumps

log = logging.getLogger("stratego.serve")

#: The largest request body read (a move is a few dozen bytes).
MAX_BODY_BYTES = 4096
#: Games the server holds at once; past it the oldest finished (or idle) one goes.
MAX_GAMES = 1000
#: A game untouched this long may make room for a new one.
IDLE_SECONDS = 3600.0
#: Bot moves past their time limit whose threads still run (a thread cannot be stopped:
#: it plays on to its end on a copy); at this many, new games and moves wait (503), so
#: that slow bots cannot pile up threads without bound.
MAX_LATE_BOTS = 8
#: Bot moves thinking at once, each in a worker thread (anyio's default number).
BOT_THREADS = 40
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
# A count in ASCII digits: str.isdigit also takes "²" and "١", which int() refuses or reads.
_COUNT = re.compile(r"[0-9]{1,9}")
# The page may load only what this server serves: no other host, no inline script.
_SECURITY = {"Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
             "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}


def _json(data, status: int = 200) -> Response:
    return Response(dumps(data), status_code=status, media_type="application/json", headers=_SECURITY)


class GameStore:
    """The games of the server by id, with a lock a game; bounded (MAX_GAMES)."""

    def __init__(self, opponents: dict[str, Opponent], *, move_seconds: float, max_games: int,
                 save: str | Path | None, max_late_bots: int = MAX_LATE_BOTS):
        self.opponents, self.move_seconds, self.max_games = opponents, move_seconds, max_games
        self.max_late_bots = max_late_bots
        self.late_bots = 0  # threads of bot moves past their time limit, still running
        self._late_lock = threading.Lock()
        self.bot_threads = anyio.CapacityLimiter(BOT_THREADS)
        self._any_thread = anyio.CapacityLimiter(math.inf)  # bot_threads gates them
        self.save = None if save is None else Path(save)
        self.games: dict[str, PlayedGame] = {}
        self.locks: dict[str, anyio.Lock] = {}
        # A castle game's seats for other people by invitation: each joins once and gets
        # an id of its own, so that the game's maker, who hands the invitations out,
        # cannot watch another person's seat (a joined link is dead to a second tab).
        self.invites: dict[str, CastleSeat] = {}
        self._save_lock = threading.Lock()

    def get(self, game_id: str) -> PlayedGame:
        game = self.games.get(game_id) if _ID.fullmatch(game_id) else None
        if game is None and game_id in self.invites:
            raise RequestError(409, f"{game_id!r} is an invitation to a seat: POST /api/games/{game_id}/join "
                                    f"joins it (once) and answers with the seat's own id")
        if game is None:
            raise RequestError(404, f"no game with id {game_id[:64]!r} (games are kept while the server runs, "
                                    f"at most {self.max_games})")
        return game

    def add(self, options: Options) -> PlayedGame | PlayedCastle:
        if options.game == "castle":
            played = PlayedCastle(options, options.opponent)
        else:
            opponent = self.opponents[options.opponent]
            played = PlayedGame(options, opponent)
            _check_policy_variant(opponent, played)
        if len(self.games) >= self.max_games:
            self._make_room()
        # Every seat of a game (a castle game's other people) shares the game's one lock.
        lock = anyio.Lock()
        seats = played.seat_handles() if played.kind == "castle" else {}
        self.games[played.id], self.locks[played.id] = played, lock
        played.invites = {}
        for letter, seat in seats.items():
            invite = secrets.token_urlsafe(ID_BYTES)
            self.invites[invite], self.locks[invite] = seat, lock
            played.invites[letter] = invite
        return played

    def join(self, invite: str) -> CastleSeat:
        """The seat of `invite`, under an id of its own from now on; the invitation is spent."""
        seat = self.invites.pop(invite, None) if _ID.fullmatch(invite) else None
        if seat is None:
            raise RequestError(404, f"no invitation with id {invite[:64]!r}: a link joins its seat once (a second "
                                    f"tab, or someone else, joined it first), or its game was closed")
        self.games[seat.id], self.locks[seat.id] = seat, self.locks.pop(invite)
        return seat

    def _make_room(self) -> None:
        now = time.monotonic()
        spare = [g for g in self.games.values() if g.game.done or now - g.touched > IDLE_SECONDS]
        if not spare:
            raise RequestError(503, f"the server holds {self.max_games} games in play; finish one or try later")
        lock = self.locks[min(spare, key=lambda g: g.touched).id]
        for game_id in [i for i, other in self.locks.items() if other is lock]:  # all its seats and invitations
            self.games.pop(game_id, None)
            self.invites.pop(game_id, None)
            del self.locks[game_id]

    def check_bots_free(self) -> None:
        """Refuses (503) a request that may start a bot move while MAX_LATE_BOTS late
        bot threads still run."""
        if self.late_bots >= self.max_late_bots:
            raise RequestError(503, f"{self.late_bots} bot moves past their time limit are still running; "
                                    f"try again in a few seconds")

    async def bot_replies(self, played: PlayedGame) -> None:
        """The bot plays while it is to move, each move in a worker thread within
        move_seconds; one that takes longer loses on time (its thread plays on a copy,
        so it changes nothing when it ends, and counts in late_bots until then)."""
        while played.bot_to_move():
            think = played.bot_turn()
            late = {"late": False, "ended": False}

            # The loop's names bound now: a late thread of this move ends after the loop
            # has gone on to the next move and rebound `think` and `late`.
            def run(think=think, late=late):
                try:
                    return think()
                finally:
                    with self._late_lock:
                        late["ended"] = True
                        self.late_bots -= late["late"]
            try:
                # The clock starts once the move has a thread: a bot kept waiting by other
                # games' bots does not lose on time for it.
                async with self.bot_threads:
                    with anyio.fail_after(self.move_seconds):
                        after = await anyio.to_thread.run_sync(run, abandon_on_cancel=True, limiter=self._any_thread)
            except TimeoutError:
                with self._late_lock:
                    late["late"] = not late["ended"]
                    self.late_bots += late["late"]
                log.warning("game %s: the %s bot took more than %g s", played.id[:6], played.opponent_name,
                            self.move_seconds)
                played.timed_out()
                continue
            except Exception as exc:  # a policy that fails: it forfeits, the server goes on
                log.error("game %s: the %s bot failed (%s): it forfeits", played.id[:6], played.opponent_name, exc)
                played.forfeit()
                continue
            played.adopt(after)

    def finished(self, played: PlayedGame) -> None:
        """Appends a game that just ended to the save file (one JSON line a game)."""
        if played.saved or not played.game.done:
            return
        played.saved = True
        line = played.record_line()
        if line is None or self.save is None:
            return
        # The castle game's records in a file of their own: `stratego view` reads a file
        # of one format (castle files by their first line).
        path = self.save if played.kind == "stratego" else self.save.with_name(
            f"{self.save.stem}-castle{self.save.suffix}")
        # One write of a whole line, one game at a time: a file of whole records, never a
        # line glued to a torn tail (stratego.common.atomic_write).
        with self._save_lock, LineAppender(path, "file of finished games") as out:
            out.append(line + "\n")


def _check_policy_variant(opponent: Opponent, played: PlayedGame) -> None:
    """A policy plays only the variant (pieces, actions and rules) it was saved for."""
    saved = getattr(opponent.spec, "variant", None)
    if saved is None:
        return
    from ..agents.policy_file import variant_differences
    diffs = variant_differences(saved, played.game.variant)
    if diffs:
        raise RequestError(400, f"policy {opponent.name!r} was saved for variant {saved.name!r}, not this game's "
                                f"({played.game.variant.name!r}, setup {played.options.setup!r}): {'; '.join(diffs)}")


async def _body(request: Request) -> object:
    """The request's JSON, read up to MAX_BODY_BYTES ({} for an empty body)."""
    length = request.headers.get("content-length")
    if length is not None and (not _COUNT.fullmatch(length) or int(length) > MAX_BODY_BYTES):
        raise RequestError(413, f"the body may hold at most {MAX_BODY_BYTES} bytes, got {length[:20]}")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise RequestError(413, f"the body may hold at most {MAX_BODY_BYTES} bytes")
    if not body.strip():
        return {}
    try:
        return json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise RequestError(400, f"the body is not JSON: {exc}"[:200]) from None


def _since(request: Request) -> int:
    text = request.query_params.get("since", "0")
    if not _COUNT.fullmatch(text):
        raise RequestError(400, f"since must be a number of moves >= 0, got {text[:20]!r}")
    return int(text)


def create_app(*, policies: dict | None = None, save: str | Path | None = None, move_seconds: float = 10.0,
               max_games: int = MAX_GAMES, max_late_bots: int = MAX_LATE_BOTS) -> Starlette:
    """The app of `stratego serve`: the bots of stratego.BOTS and `policies` (name ->
    policy, e.g. stratego.agents.policy_file.load_policy's) as opponents; finished games
    appended to `save` (a JSON lines file) when given; a bot that takes more than
    `move_seconds` for a move loses on time."""
    opponents = {name: Opponent(name) for name in BOT_OPPONENTS}
    for name, policy in (policies or {}).items():
        if name in opponents:
            raise ValueError(f"policy name {name!r} is taken by a bot; name it otherwise")
        opponents[name] = Opponent(policy)
        opponents[name].name = name
    store = GameStore(opponents, move_seconds=move_seconds, max_games=max_games, save=save,
                      max_late_bots=max_late_bots)
    static = resources.files("stratego.web").joinpath("static")

    async def page(request: Request) -> Response:
        return HTMLResponse(static.joinpath("index.html").read_text(encoding="utf-8"), headers=_SECURITY)

    async def board_css(request: Request) -> Response:
        # The viewer's common and board rules (stratego/data), then the page's own; the
        # colours from svg.COLORS, as the viewer fills them.
        data = resources.files("stratego.data")
        css = "\n".join(fill_colours(path.read_text(encoding="utf-8")) for path in
                        (data / "viewer_common.css", data / "viewer_board.css", static / "play.css"))
        return Response(css, media_type="text/css", headers=_SECURITY)

    async def castle_page(request: Request) -> Response:
        return HTMLResponse(static.joinpath("castle.html").read_text(encoding="utf-8"), headers=_SECURITY)

    async def castle_css(request: Request) -> Response:
        # The common rules, the castle viewer's board (stratego/data), then the page's own;
        # the colours as the castle viewer fills them.
        data = resources.files("stratego.data")
        css = "\n".join(castle_viewer.fill_colours(fill_colours(path.read_text(encoding="utf-8"))) for path in
                        (data / "viewer_common.css", data / "castle_board.css", static / "castle.css"))
        return Response(css, media_type="text/css", headers=_SECURITY)

    def viewer_script(name: str):
        """A board drawing the viewers' pages share with these pages (stratego/data)."""
        async def script(request: Request) -> Response:
            text = resources.files("stratego.data").joinpath(name).read_text(encoding="utf-8")
            return Response(text, media_type="text/javascript", headers=_SECURITY)
        return script

    async def options(request: Request) -> Response:
        return _json({"games": list(GAMES), "variants": variants(), "opponents": list(opponents),
                      "colors": list(COLOURS), "setups": list(SETUPS), "move_seconds": move_seconds,
                      "castle": {"variants": list(CASTLE_VARIANTS), "opponents": list(CASTLE_BOTS),
                                 "colors": list(CASTLE_SEATS)}})

    async def new_game(request: Request) -> Response:
        store.check_bots_free()
        played = store.add(Options.parse(await _body(request), tuple(opponents)))
        async with store.locks[played.id]:
            await store.bot_replies(played)  # the bot may move first
            store.finished(played)
            answer = {"id": played.id, "state": played.message()}
            if getattr(played, "invites", None):
                answer["invites"] = played.invites  # the other people's seats: an id each
            return _json(answer, 201)

    async def state(request: Request) -> Response:
        game_id = request.path_params["id"]
        played, lock = store.get(game_id), store.locks[game_id]
        since = _since(request)
        # Between requests only: in the middle of one the bot may be deciding a second
        # action of its turn (a rescue), which the person must not see pending.
        async with lock:
            return _json(played.message(since))

    def action(act, needs_body: bool = False, starts_bots: bool = False):
        async def endpoint(request: Request) -> Response:
            game_id = request.path_params["id"]
            played, lock = store.get(game_id), store.locks[game_id]  # before any wait
            since = _since(request)
            body = await _body(request) if needs_body else None
            async with lock:
                if store.games.get(game_id) is not played:  # made room for a new game meanwhile
                    raise RequestError(404, f"game {game_id!r} was closed to make room for new ones")
                if starts_bots:
                    store.check_bots_free()
                extra = act(played, body)
                await store.bot_replies(played)
                store.finished(played)
                return _json({**(extra or {}), "state": played.message(since)})
        return endpoint

    def move(played: PlayedGame, body) -> None:
        if not isinstance(body, dict) or set(body) != {"move"}:
            raise RequestError(400, 'a move is a JSON object {"move": "B4-B5"}')
        played.play_human(body["move"])

    async def join(request: Request) -> Response:
        seat = store.join(request.path_params["id"])
        return _json({"id": seat.id, "state": seat.message()}, 201)

    def draw(played: PlayedGame, body) -> dict:
        return {"accepted": played.offer_draw()}

    async def record(request: Request) -> Response:
        played = store.get(request.path_params["id"])
        line = _finished_line(played)
        name = f"stratego-{played.options.variant}-{played.id[:8]}.jsonl"
        return Response(line + "\n", media_type="application/x-ndjson",
                        headers={**_SECURITY, "Content-Disposition": f'attachment; filename="{name}"'})

    async def viewer(request: Request) -> Response:
        played = store.get(request.path_params["id"])
        _finished_line(played)
        # The viewer's page carries its script inline: its own policy, still no network.
        headers = {**_SECURITY, "Content-Security-Policy": "default-src 'none'; script-src 'unsafe-inline'; "
                   "style-src 'unsafe-inline'; img-src data:"}
        page = castle_viewer.viewer_html(played.game) if played.kind == "castle" else viewer_html(played.game)
        return HTMLResponse(page, headers=headers)

    async def refused(request: Request, exc: Exception) -> Response:
        return _json({"error": str(exc)}, exc.status)

    routes = [
        Route("/", page),
        Route("/board.css", board_css),
        Route("/castle", castle_page),
        Route("/castle.css", castle_css),
        Route("/castle_board.js", viewer_script("castle_board.js")),
        Route("/stratego_board.js", viewer_script("stratego_board.js")),
        Route("/api/options", options),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{id}", state),
        Route("/api/games/{id}/move", action(move, needs_body=True, starts_bots=True), methods=["POST"]),
        Route("/api/games/{id}/fill", action(lambda p, b: p.fill_hand(), starts_bots=True), methods=["POST"]),
        Route("/api/games/{id}/resign", action(lambda p, b: p.resign()), methods=["POST"]),
        Route("/api/games/{id}/draw", action(draw), methods=["POST"]),
        Route("/api/games/{id}/join", join, methods=["POST"]),
        Route("/api/games/{id}/record", record),
        Route("/api/games/{id}/viewer", viewer),
        Mount("/static", StaticFiles(packages=[("stratego.web", "static")])),
    ]
    app = Starlette(routes=routes, exception_handlers={RequestError: refused})
    app.state.store = store
    return app


def _finished_line(played: PlayedGame) -> str:
    line = played.record_line()
    if line is None:
        raise RequestError(409, "the record is shown once the game is over (it holds both setups)"
                           if not played.game.done else "this game ended before its pieces stood: no record")
    return line
