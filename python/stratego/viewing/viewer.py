"""`stratego view`: a game as one self-contained HTML page (no network, no external file).

The page holds one frame a position (the start, then one after each move or rescue) for
each perspective it shows: "full" (every piece), "red" and "blue" (what that player
knew). A frame holds the board as render.board_tokens, the latest move, the captured
pieces and the move's label. A page written for one player (perspective="red") holds
that player's frames only, each built from the player's view (GameState.view_cells and
its observation codes), so the file cannot name a piece the player had not identified.
"""
from __future__ import annotations

import json
import os
from html import escape
from importlib import resources
from typing import Sequence

from .. import _core, records
from ..actions import action_to_move
from ..game import Game
from ..notation import RANK_SYMBOLS, move_name, parse_rescue, rescue_name
from .render import PERSPECTIVES, PLAYER_NAMES, parse_perspective
from .svg import COLORS

#: The perspectives a page can hold, in the order its buttons show them.
VIEWS = tuple(PERSPECTIVES)  # "full", "red", "blue"
_OWNER = "rb"
_COUNTS = _core.CODES_COUNTS  # own counts by type, then the opponent's (observe_codes.h)


def check_view(perspective: str) -> str:
    """`perspective` if it names a view in VIEWS; ValueError otherwise."""
    if perspective not in VIEWS:
        raise ValueError(f"perspective must be one of {list(VIEWS)}, got {perspective!r}")
    return perspective


def view_counts(game: Game, player: int) -> tuple[list[int], list[int]]:
    """(own pieces of each type on the board, opponent pieces of each type not known to
    be captured): the count values of `player`'s observation, nothing more."""
    codes = game.observation(player, obs_format="codes", history_k=1)
    n = len(RANK_SYMBOLS["new"])
    return [int(x) for x in codes[_COUNTS:_COUNTS + n]], [int(x) for x in codes[_COUNTS + n:_COUNTS + 2 * n]]


class ViewFrames:
    """Builds the frames of one perspective, position by position (the viewer's pages,
    `stratego play` and `stratego serve` show a player its own frames)."""

    def __init__(self, name: str, start: Game):
        self.name, self.perspective = name, parse_perspective(name)
        self.symbols = RANK_SYMBOLS[start.numbering]
        self.frames: list[dict] = []
        if self.perspective is not None:
            self.start_own, self.start_opp = view_counts(start, self.perspective)

    def add(self, game: Game, move: str | None, mover: int | None, last) -> None:
        tokens = game._tokens(self.perspective)
        frame = {"board": " ".join(tokens), "last": last, "to_move": _OWNER[game.to_move],
                 "captured": self._captured(game, tokens)}
        if move is not None:
            frame["move"], frame["mover"] = move, _OWNER[mover]
        self.frames.append(frame)

    def _captured(self, game: Game, tokens: list[str]) -> dict:
        if self.perspective is None:
            return {_OWNER[p]: {"ranks": [self.symbols[t] for t in sorted(game._state.captured(p))], "unknown": 0}
                    for p in (0, 1)}
        me = self.perspective
        own, opp = view_counts(game, me)
        lost_own = [self.symbols[t] for t, (a, b) in enumerate(zip(self.start_own, own)) for _ in range(a - b)]
        lost_opp = [self.symbols[t] for t, (a, b) in enumerate(zip(self.start_opp, opp)) for _ in range(a - b)]
        # Every capture removes a piece the player sees go; under silent defense it may
        # not learn which: those are the unidentified ones.
        on_board = sum(1 for t in tokens if t[0] == _OWNER[1 - me])
        unknown = sum(self.start_opp) - on_board - len(lost_opp)
        return {_OWNER[me]: {"ranks": lost_own, "unknown": 0},
                _OWNER[1 - me]: {"ranks": lost_opp, "unknown": unknown}}


def game_frames(game: Game, views: Sequence[str] = VIEWS) -> dict[str, list[dict]]:
    """The frames of each of `views` ("full", "red", "blue") for `game`'s history: its
    start (Game.replay(0)), then one after each move or rescue."""
    return _play(game.replay(0), [h.action for h in game.history], views)[0]


def _play(start: Game, moves: Sequence[str | int], views: Sequence[str]) -> tuple[dict[str, list[dict]], Game]:
    """game_frames, and the game after the last move."""
    game = start.clone()
    builders = [ViewFrames(v, game) for v in views]
    for b in builders:
        b.add(game, None, None, None)
    for i, move in enumerate(moves):
        if game.done:
            raise ValueError(f"move {i + 1} ({move!r}): the game is already over ({game.end_reason})")
        mover, rescue, before = game.to_move, game.rescue_pending, game._tokens(None)
        try:
            game.play(move)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"move {i + 1}: {exc}") from None
        if rescue:
            square = _rescue_parts(move, mover, game.numbering)[1]
            last = None if square is None else [square, square, False]
        else:
            last = list(game.last_move())
        for b in builders:
            b.add(game, move_label(game, move, mover, rescue, b.perspective, before), mover, last)
    return {b.name: b.frames for b in builders}, game


def _rescue_parts(move: str | int, mover: int, numbering: str) -> tuple[str, int | None]:
    """(label, square) of a rescue ("6@F4", its square) or of "pass" (None)."""
    label = move.strip() if isinstance(move, str) else action_to_move(move, mover, numbering)
    if "@" not in label:
        return label, None
    piece, square = parse_rescue(label, numbering)
    return rescue_name(RANK_SYMBOLS[numbering][piece], square), square


def move_label(after: Game, move: str | int, mover: int, rescue: bool, perspective: int | None,
               before: list[str] | None = None) -> str:
    """The move `mover` just played (`after` is the game after it) as `perspective` saw
    it: "E4-E5", "E4xE5" for an attack, with both ranks on the full board ("E4xE5 (r7
    x b5)", given the full tokens `before` the move; under silent defense a player does
    not see the defender's); a rescue ("6@F4", "pass") names the returned piece only
    to a perspective that knows it ("?@F4")."""
    if rescue:
        label, square = _rescue_parts(move, mover, after.numbering)
        if square is None or perspective in (None, mover) or "?" not in after._tokens(perspective)[square]:
            return label
        return rescue_name("?", square)
    src, dst, attack = after.last_move()
    label = move_name(src, dst, attack)
    if attack and perspective is None and before is not None:
        label += f" ({before[src]} x {before[dst]})"
    return label


def result_text(game: Game) -> str:
    """How `game` ended, for people: "Red wins: flag captured", "Blue resigned: Red
    wins", "Draw: agreed", or "Not finished after N plies"."""
    if not game.done:
        return f"Not finished after {game.ply} plies"
    reason = game.end_reason or ""
    if game.winner is None:
        return "Draw: agreed" if reason == "agreed_draw" else f"Draw: {reason.replace('_', ' ')}"
    winner, loser = PLAYER_NAMES[game.winner], PLAYER_NAMES[1 - game.winner]
    if reason == "resigned":
        return f"{loser} resigned: {winner} wins"
    if reason == "timeout":
        return f"{loser} lost on time: {winner} wins"
    return f"{winner} wins: {reason.replace('_', ' ')}"


def viewer_html(game: Game, *, perspective: str = "full", title: str | None = None) -> str:
    """The page of `game` (its history, from the start to now). perspective="full":
    every piece, with buttons for each player's view too; "red" or "blue": that
    player's view only (the file holds nothing else)."""
    views = VIEWS if check_view(perspective) == "full" else (perspective,)
    frames = game_frames(game, views)
    title = title or f"Stratego, {game.variant.name}"
    data = {"title": title, "result": result_text(game), "frames": frames}
    # "<" as \u003c: no text of the game can close the <script> element it sits in.
    payload = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
    head, tail = page_template("viewer.html").split("__DATA__")  # the data goes in last: no text of it is replaced
    return fill_colours(head.replace("__TITLE__", escape(title))) + payload + tail


def fill_colours(text: str) -> str:
    """`text` with the board's colour names (__LIGHT__, __RED__, ...) as svg.COLORS has them."""
    for key, value in (("LIGHT", COLORS["light"]), ("DARK", COLORS["dark"]),
                       ("LAKE", COLORS["lake"]), ("RED", COLORS["r"]), ("BLUE", COLORS["b"]),
                       ("LAST", COLORS["last"]), ("ATTACK", COLORS["attack"])):
        text = text.replace(f"__{key}__", value)
    return text


def page_template(name: str) -> str:
    """A page of stratego/data (viewer.html, castle_viewer.html) with what both share put
    in: the controls (viewer_controls.js) where it says __CONTROLS__, the common style
    rules (viewer_common.css) where it says __COMMON_CSS__, the board's (viewer_board.css,
    `stratego serve`'s page draws its board with them too) where it says __BOARD_CSS__, the
    classic board's drawing (stratego_board.js, shared with `stratego serve`) where it says
    __STRATEGO_BOARD__, and
    the castle game's board (castle_board.js, castle_board.css, shared with `stratego
    serve` too) where it says __CASTLE_BOARD__ and __CASTLE_BOARD_CSS__."""
    data = resources.files("stratego.data")
    page = data.joinpath(name).read_text(encoding="utf-8")
    for key, shared in (("__CONTROLS__", "viewer_controls.js"), ("__COMMON_CSS__", "viewer_common.css"),
                        ("__BOARD_CSS__", "viewer_board.css"), ("__STRATEGO_BOARD__", "stratego_board.js"),
                        ("__CASTLE_BOARD__", "castle_board.js"),
                        ("__CASTLE_BOARD_CSS__", "castle_board.css")):
        page = page.replace(key, data.joinpath(shared).read_text(encoding="utf-8"))
    return page


def load_game(path: str | os.PathLike, index: int = 0, *, max_moves: int | None = None) -> Game:
    """Game `index` (from 0) of a record file or folder, as records.read_records reads
    it (a Gravon .xml record, a folder of them, or a JSON lines file; `max_moves` as
    there), replayed through the engine (records.replay). Raises records.RecordError
    naming what is wrong with the file, the record or its moves, OSError if it cannot
    be read."""
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise ValueError(f"index must be a game number >= 0, got {index!r}")
    count = 0
    # Streamed, as read: the games before it are parsed, not replayed; it stops at the game.
    for count, record in enumerate(records.read_records(path, max_moves=max_moves), 1):
        if count > index:
            return records.replay(record)
    raise records.RecordError(f"{path}: has {count} game(s); expected an index below that, got {index}")
