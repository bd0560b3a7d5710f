"""`Game`, one castle game (docs/castle.md): moves in the notation, play, views, clone, pickle.

Every rule, name and check is the C core's (`_core.CastleGame`, csrc/castle/); this class
converts: seats to letters, the notation to actions, and the core's refusals to exceptions.
"""
from __future__ import annotations

import operator
import re
from stratego import _core
from stratego.common.pickle_check import CHECK_KEY, check_digest, parts_digest
from stratego.common.seeding import check_seed

from . import variants
from .history import CastleRecord, game_record

PHASES = tuple(_core.CASTLE_PHASES)
END_REASONS = tuple(_core.CASTLE_END_REASONS)
ACTION_KINDS = ("move", "drop", "shot", "take", "leave", "recruit", "no_recruit")


class IllegalMove(ValueError):
    """A move that is not legal now, or not a move at all; the message says which and why."""


# Each mode's tables, asked of C once: a game reads them on every clone and load.
_GEOMETRY: dict[int, dict] = {}


def _geometry(mode: int) -> dict:
    if mode not in _GEOMETRY:
        _GEOMETRY[mode] = _core.castle_geometry(mode)
    return _GEOMETRY[mode]


def geometry(mode) -> dict:
    """A board's tables (node names, neighbours, lines, zones, actions, layout) for a mode
    name or number; `ffa4` and `teams4` share board A1. A copy: change it freely."""
    if isinstance(mode, str):
        if mode not in variants.MODES:
            raise ValueError(f"mode must be one of {list(variants.MODES)}, got {mode!r}")
        mode = variants.MODES.index(mode)
    if mode not in range(len(variants.MODES)):
        raise ValueError(f"mode must be one of {list(variants.MODES)} or 0..{len(variants.MODES) - 1}, got {mode!r}")
    return {k: dict(v) if isinstance(v, dict) else v for k, v in _geometry(mode).items()}


def action_table(mode) -> list[tuple[str, str | None, str | int | None]]:
    """Every action of a mode's flat space as (kind, from node, to node / seat / rank)."""
    g = geometry(mode)
    names = g["node_names"]
    rows = []
    for kind, frm, to in g["actions"]:
        k = ACTION_KINDS[kind]
        if k in ("move", "drop", "shot"):
            rows.append((k, names[frm], names[to]))
        elif k == "take":
            rows.append((k, None, variants.seat_letters(g["seats"])[to]))
        else:
            rows.append((k, None, to if to >= 0 else None))
    return rows


class Game:
    """One castle game. `Game("ffa4", seed=1)`, `Game(variant="r4")`, `Game("teams4", back_and_forth=10)`.

    `setups` ({seat letter: 20 ranks}) places a seat's pieces on its zone's spaces in node
    order (`geometry(mode)["setup_nodes"]`); the other seats draw random setups."""

    def __init__(self, mode: str | None = None, *, variant=None, seed: int = 0, first_seat: int | None = None,
                 setups: dict | None = None, **settings):
        if mode is not None:
            settings["mode"] = mode
        if first_seat is not None:
            settings["first_seat"] = first_seat
        seed = check_seed(seed)
        values = variants.load_settings(variant, **settings)
        letters = variants.seat_letters(_geometry(values["mode"])["seats"])
        if setups is not None:
            if not isinstance(setups, dict) or not set(setups) <= set(letters):
                raise ValueError(f"setups must be a dict from seat letters ({', '.join(letters)}) to 20 ranks each, "
                                 f"got {setups!r}"[:300])
            setups = tuple(setups.get(letter) for letter in letters)
        self._core = _core.CastleGame(variants.settings_tuple(values), seed, setups)
        self._geometry = _geometry(values["mode"])
        # The game's history for its record (records.py): how it started and the moves.
        self._start = {"seed": seed}
        if setups is not None:
            self._start["setups"] = {k: [int(r) for r in v] for k, v in zip(letters, setups) if v is not None}
        self._moves = []
        self._bot_rng = seed  # the bots' stream (bot_move), apart from the setups'

    # -------------------------------------------------------------- making games
    @classmethod
    def from_text(cls, text: str, *, variant=None, **settings) -> "Game":
        """A position from a full text board (docs/castle.md "Text board"). The mode comes
        from the text's `mode:` line unless given; errors name the line and cell."""
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        if "mode" not in settings:
            found = re.search(r"^\s*mode:\s*(\S+)\s*$", text, re.MULTILINE)
            if found and variant is None:
                settings["mode"] = found.group(1)
        values = variants.load_settings(variant, **settings)
        game = cls._wrap(_core.CastleGame.from_text(variants.settings_tuple(values), text))
        game._start = {"position": text}
        return game

    @classmethod
    def _wrap(cls, core) -> "Game":
        game = cls.__new__(cls)
        game._core = core
        game._geometry = _geometry(core.info()["mode"])
        game._start, game._moves, game._bot_rng = None, [], 0
        return game

    def clone(self) -> "Game":
        game = Game._wrap(self._core.clone())
        game._start, game._moves, game._bot_rng = self._start, list(self._moves), self._bot_rng
        return game

    def __reduce__(self):
        # The history and the bots' stream as the pickle's state (set by __setstate__),
        # so the arguments stay (settings, state bytes); a check binds them together.
        settings, state = self._core.settings(), self._core.state()
        extra = {"_start": self._start, "_moves": list(self._moves), "_bot_rng": self._bot_rng}
        extra[CHECK_KEY] = _pickle_digest(settings, state, extra)
        return (_restore, (settings, state), extra)

    def __setstate__(self, extra) -> None:
        # A pickle made before the check (CHECK_KEY) has none: it loads as before.
        if not isinstance(extra, dict) or set(extra) - {CHECK_KEY} != {"_start", "_moves", "_bot_rng"}:
            got = sorted(map(str, extra)) if isinstance(extra, dict) else type(extra).__name__
            raise ValueError("not a pickled stratego.castle.Game: expected a dict of _start, _moves and _bot_rng "
                             f"(and check); got {got}")
        start, moves, bot_rng = extra["_start"], extra["_moves"], extra["_bot_rng"]
        if not (start is None or isinstance(start, dict)) or not isinstance(moves, list) or \
                not all(isinstance(m, str) for m in moves) or type(bot_rng) is not int:
            raise ValueError("a pickled stratego.castle.Game's history is its start (a dict or None), its moves "
                             "(a list of str) and its bot stream (an int)")
        if CHECK_KEY in extra:
            check_digest("stratego.castle.Game", extra[CHECK_KEY],
                         _pickle_digest(self._core.settings(), self._core.state(), extra))
        self._start, self._moves, self._bot_rng = start, list(moves), bot_rng

    # -------------------------------------------------------------- history
    @property
    def history(self) -> list[str]:
        """The moves played on this object (and its clones' ancestors), in the notation."""
        return list(self._moves)

    def record(self, **players) -> CastleRecord:
        """The game as a record (docs/castle.md "Records"): settings, start, moves, result.
        `players` name who sat where (`n="heuristic"`). A game restored from bare state
        bytes has no start to record: ValueError."""
        return game_record(self, players)

    # -------------------------------------------------------------- state
    @property
    def settings(self) -> dict[str, int]:
        return dict(zip(variants.SETTINGS, self._core.settings()))

    @property
    def mode(self) -> str:
        return variants.MODES[self._core.info()["mode"]]

    @property
    def seats(self) -> int:
        return self._geometry["seats"]

    @property
    def seat_letters(self) -> str:
        return variants.seat_letters(self.seats)

    @property
    def to_play(self) -> int:
        """The seat that decides now."""
        return self._core.info()["to_move"]

    @property
    def phase(self) -> str:
        """`"move"`, `"take"` or `"recruit"` (docs/castle.md "A turn")."""
        return PHASES[self._core.info()["phase"]]

    @property
    def done(self) -> bool:
        return bool(self._core.info()["done"])

    @property
    def ply(self) -> int:
        return self._core.info()["ply"]

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won (a crowning seat, with its partner in teams4); () otherwise."""
        info = self._core.info()
        if not info["done"] or info["winner"] < 0:
            return ()
        w = info["winner"]
        if self.mode == "teams4":
            return tuple(s for s in range(4) if s % 2 == w % 2)
        return (w,)

    @property
    def winner(self) -> int | None:
        """None while the game runs; then the crowning seat (ffa) or team (teams4: 0 N+S,
        1 E+W), or -1 for a draw."""
        info = self._core.info()
        if not info["done"]:
            return None
        w = info["winner"]
        if w < 0:
            return -1
        return w % 2 if self.mode == "teams4" else w

    @property
    def end_reason(self) -> str | None:
        info = self._core.info()
        return END_REASONS[info["end_reason"]] if info["done"] else None

    @property
    def sliders(self) -> dict[str, int]:
        return dict(zip(self.seat_letters, self._core.info()["sliders"]))

    @property
    def removed(self) -> dict[str, list[int]]:
        """Each seat's removed pile (public), ranks high to low."""
        return dict(zip(self.seat_letters, self._core.info()["removed"]))

    def flags(self) -> dict[str, tuple[str, str | None, bool]]:
        """Each seat's flag: (node, carrier's seat letter or None, abandoned on purpose)."""
        out = {}
        for letter, (node, carrier, abandoned) in zip(self.seat_letters, self._core.info()["flags"]):
            who = None if carrier is None else self.seat_letters[carrier // 20]
            out[letter] = (self.node_name(node), who, bool(abandoned))
        return out

    def lone_flags(self) -> dict[str, tuple[str, bool]]:
        """The flags lying alone: seat letter -> (node, abandoned on purpose)."""
        return {k: (node, ab) for k, (node, who, ab) in self.flags().items() if who is None}

    # -------------------------------------------------------------- nodes and pieces
    def node(self, name: str) -> int:
        try:
            return self._geometry["node_names"].index(name)
        except ValueError:
            raise ValueError(f"{name!r} is not a node of the {self.mode} board (A1..O15 spaces, ring, turret)") from None

    def node_name(self, node: int) -> str:
        """The name of node number `node` (0 .. nodes - 1)."""
        names = self._geometry["node_names"]
        if isinstance(node, bool) or not hasattr(type(node), "__index__") or not 0 <= int(node) < len(names):
            raise ValueError(f"node must be a node number in [0, {len(names)}), got {node!r}")
        return names[int(node)]

    def _node_arg(self, node) -> int:
        return self.node(node) if isinstance(node, str) else node

    def piece(self, node) -> tuple[str, int, str | None] | None:
        """The piece on a node (name or number): (seat letter, rank, carried flag's seat letter or None)."""
        found = self._core.piece(self._node_arg(node))
        if found is None:
            return None
        seat, rank, flag, _ = found
        return (self.seat_letters[seat], rank, None if flag is None else self.seat_letters[flag])

    def known(self, seat: int, node) -> bool:
        """Whether `seat` knows the rank of the piece on `node` (A12)."""
        return self._core.known(seat, self._node_arg(node))

    # -------------------------------------------------------------- actions
    @property
    def num_actions(self) -> int:
        return self._geometry["layout"]["actions"]

    @property
    def action_layout(self) -> dict[str, int]:
        """The offsets of the blocks of the flat action space (docs/castle.md "Actions")."""
        return dict(self._geometry["layout"])

    def legal_actions(self) -> list[int]:
        return list(self._core.legal_actions())

    def legal_mask(self) -> bytes:
        return self._core.legal_mask()

    def legal_moves(self) -> list[str]:
        return [self._core.action_name(a) for a in self._core.legal_actions()]

    def action_to_move(self, action: int) -> str:
        """The notation of an action in this position (x marks an attack now)."""
        return self._core.action_name(_action_int(action))

    def move_to_action(self, move: str) -> int:
        try:
            return self._core.parse(move)
        except ValueError as exc:
            raise IllegalMove(str(exc)) from None

    def play(self, move) -> "Game":
        """Plays a move (notation or action); IllegalMove says which and why if it is not legal."""
        if self.done:
            raise RuntimeError(f"the game is over ({self.end_reason}); no move can be played")
        action = self.move_to_action(move) if isinstance(move, str) else _action_int(move)
        reason = self._core.check(action)
        if reason is not None:
            raise IllegalMove(reason)
        self._moves.append(self._core.action_name(action))
        self._core.apply(action)
        return self

    def bot_move(self, name: str = "heuristic") -> int:
        """The action bot `name` ("random" or "heuristic", csrc/castle/castle_bot.h) plays for the
        seat to decide; the move is not played (`play` it). -1 once the game is over.
        The bot sees only what that seat may know (A12). Its random choices come from the
        game's bot stream, which starts at the game's seed (0 for from_text) and advances
        with each call; clone() and pickling keep it."""
        if not isinstance(name, str):
            raise TypeError(f"name must be a str ('random' or 'heuristic'), got {type(name).__name__}")
        action, self._bot_rng = self._core.bot_action(name, self._bot_rng)
        return action

    # -------------------------------------------------------------- text
    def observation(self, seat: int | None = None, *, obs_format: str = "planes"):
        """A seat's view (default: the seat to decide) as the batch writes it
        (docs/castle.md "Observation"): planes (115, 15, 15) uint8, or obs_format="codes"
        (280,) uint8."""
        import numpy as np

        from .observation import SHAPES
        if obs_format not in SHAPES:
            raise ValueError(f"obs_format must be 'planes' or 'codes', got {obs_format!r}")
        if seat is None:
            seat = self.to_play
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise TypeError(f"seat must be an int or None, got {type(seat).__name__}")
        data = self._core.observation(seat, obs_format == "planes")
        return np.frombuffer(data, np.uint8).reshape(SHAPES[obs_format]).copy()

    def to_text(self, seat: int | None = None) -> str:
        """The text board: the full board, or what `seat` may know (others' unknown ranks as ?)."""
        return self._core.to_text(-1 if seat is None else seat)

    def render(self, seat: int | None = None) -> str:
        return self.to_text(seat)

    def rgb(self, seat: int | None = None):
        """The board as an RGB image (H x W x 3 uint8, stratego.castle.raster): the full
        board, or what `seat` may know; north at the top."""
        from .raster import text_rgb
        return text_rgb(self.to_text(seat))

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        state = f"{self.end_reason}, winner {self.winner}" if self.done else f"{self.seat_letters[self.to_play]} to {self.phase}"
        return f"<castle.Game {self.mode} ply {self.ply}: {state}>"


def _action_int(action) -> int:
    """An action as an int: Python and NumPy integers, not bools or floats."""
    if isinstance(action, bool):
        raise TypeError("an action must be an int or a move in the notation, got a bool")
    try:
        return operator.index(action)
    except TypeError:
        raise TypeError(f"an action must be an int or a move in the notation, got {type(action).__name__}") from None


def _restore(settings, state) -> Game:
    return Game._wrap(_core.CastleGame.from_state(settings, state))


def _pickle_digest(settings, state: bytes, extra: dict) -> str:
    """The digest of a pickled Game's parts (stratego.common.pickle_check): settings, state,
    start, moves and bot stream."""
    return parts_digest(list(settings), state, extra["_start"], list(extra["_moves"]), extra["_bot_rng"])
