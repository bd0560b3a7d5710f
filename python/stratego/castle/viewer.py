"""The castle game in the HTML viewer (docs/viewing.md, docs/castle.md "Viewer"): one
self-contained page (no network, no external file) per game.

The page holds one frame a position (the start, then one after each decision) for each
perspective it shows: "full" (every piece) and each seat's view ("n", "e", "s", "w";
3 players: "n", "e", "w"). A frame is the engine's text board of that perspective
(`Game.to_text(seat)`, the seat's knowledge, A12) read into its parts: the grid's tokens,
the ring's and turret's pieces, lone flags, sliders, removed piles, who decides; and the
decision's label. A page written for one seat holds that seat's frames only, so it
cannot name a rank the seat did not know.
"""
from __future__ import annotations

import json
import os
import re
from html import escape

from stratego.viewing.viewer import page_template

from . import records
from .game import Game
from .notation import move_nodes, parse_pairs, parse_text
from .raster import COLORS
from .variants import SEAT_NAMES

#: The perspectives a page can hold: "full", then the seats' letters.
FULL = "full"



def views_of(game: Game) -> tuple[str, ...]:
    return (FULL,) + tuple(game.seat_letters)


def check_view(game: Game, perspective: str) -> str:
    """`perspective` if it names a view of the game ("full" or a seat letter); ValueError."""
    views = views_of(game)
    if perspective not in views:
        raise ValueError(f"perspective must be one of {list(views)} for this {game.mode} game, got {perspective!r}")
    return perspective


def frame_of(game: Game, seat: int | None) -> dict:
    """The frame of `game` now from `seat`'s view (None: the full board)."""
    parts = parse_text(game.to_text(seat))
    lone = []
    for item in parts.get("lone", "").split():
        owner, _, node = item.partition("@")
        lone.append([owner, node.rstrip("!"), node.endswith("!")])
    return {"grid": [" ".join(row) for row in parts["grid"]], "ring": parts["ring"], "turret": parts["turret"],
            "lone": lone, "sliders": {k: int(v) for k, v in parse_pairs(parts["sliders"]).items()},
            "removed": {k: [int(r) for r in v.split(",") if r] for k, v in parse_pairs(parts["removed"]).items()},
            "to_move": parts["to_move"], "phase": parts["phase"], "ply": int(parts["ply"])}


def move_label(label: str, mover: int, viewer: int | None, recruit_public: bool) -> str:
    """A decision as `viewer` saw it: the notation, but a recruitment's rank only to the
    recruiter when recruitment is hidden (setting recruit_public off, A9)."""
    if label.startswith("recruit ") and label != "recruit none" and not recruit_public and viewer not in (None, mover):
        return "recruit ?"
    return label


def start_of(game: Game) -> Game:
    """A new game at `game`'s start (its seed and setups, or its position)."""
    return records.start_game(game.record())


def game_frames(game: Game, views=None) -> dict[str, list[dict]]:
    """The frames of each of `views` (default: all) for `game`'s history: its start, then
    one after each decision."""
    views = views_of(game) if views is None else tuple(check_view(game, v) for v in views)
    seats = {v: None if v == FULL else game.seat_letters.index(v) for v in views}
    replay = start_of(game)
    public = bool(game.settings["recruit_public"])
    frames = {v: [frame_of(replay, seats[v])] for v in views}
    for label in game.history:
        mover = replay.to_play
        replay.play(label)
        for v in views:
            frame = frame_of(replay, seats[v])
            frame["move"] = move_label(label, mover, seats[v], public)
            frame["mover"] = game.seat_letters[mover]
            frame["last"] = move_nodes(label)
            frames[v].append(frame)
    return frames


def result_text(game: Game) -> str:
    """How the game ended, for people: "North wins: turret", "North and South win: turret",
    "Draw: ply cap", or "Not finished after N plies"."""
    if not game.done:
        return f"Not finished after {game.ply} plies"
    if not game.winners:
        return "Draw: " + {"cap": "ply cap", "stuck": "nobody can move"}.get(game.end_reason, game.end_reason)
    who = " and ".join(SEAT_NAMES[game.seat_letters[s]] for s in game.winners)
    return f"{who} {'win' if len(game.winners) > 1 else 'wins'}: the flag carried onto the turret"


def viewer_html(game: Game, *, perspective: str = FULL, title: str | None = None) -> str:
    """The page of `game` (its history, from the start to now). perspective="full": every
    piece, with buttons for each seat's view too; a seat letter: that seat's view only
    (the file holds nothing else)."""
    views = views_of(game) if check_view(game, perspective) == FULL else (perspective,)
    title = title or f"Stratego castle game, {game.mode}"
    geometry = game._geometry
    data = {"title": title, "result": result_text(game), "mode": game.mode, "seats": game.seat_letters,
            "rows": geometry["rows"], "frames": game_frames(game, views)}
    # "<" as \u003c: no text of the game can close the <script> element it sits in.
    payload = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
    head, tail = page_template("castle_viewer.html").split("__DATA__")  # the data goes in last: no text of it is replaced
    return fill_colours(head.replace("__TITLE__", escape(title))) + payload + tail


def fill_colours(text: str) -> str:
    """`text` with the colour names (__N__, __LIGHT__, ...) as COLORS has them."""
    for key, value in COLORS.items():
        text = text.replace(f"__{key.upper()}__", value)
    return text


def is_castle_file(path) -> bool:
    """Whether `path` is a file whose first line is a castle record (its "format"), so
    `stratego view` shows it with this page; False for anything else (a folder, another
    format, an unreadable file: the classic reader then says what is wrong)."""
    if not os.path.isfile(path):  # a folder, or a pipe that a read would block on
        return False
    try:
        with open(path, "rb") as handle:
            first = handle.readline(4096)
    except OSError:
        return False
    return re.search(rb'^\s*\{\s*"format"\s*:\s*"stratego-castle"', first) is not None


def load_game(path: str | os.PathLike, index: int = 0, **limits) -> Game:
    """Game `index` (from 0) of a file of castle records, replayed (records.replay);
    RecordError naming what is wrong."""
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise ValueError(f"index must be a game number >= 0, got {index!r}")
    count = 0
    for count, record in enumerate(records.iter_records(path, **limits), 1):
        if count > index:
            return records.replay(record)
    raise records.RecordError(f"{path}: has {count} game(s); expected an index below that, got {index}")
