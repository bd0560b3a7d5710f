"""One person's game against a bot, as `stratego serve` plays it: the rules go through a
`stratego.Game`, and every message for the person is built from that person's view.

A message (PlayedGame.message) holds the board as render.board_tokens of the person's
view (GameState.view_cells, the cells its observation is made from), its legal actions
(the engine's mask, Game.legal_actions, decoded), the moves as the person saw them
(viewer.move_label), every fight's result as its view and its observation's piece
counts tell it, and the captured pieces (viewer's frames). Nothing is read from the
full board until the game is over; then the full board and the record are shown. So two
games that differ only in what the person cannot see give byte-identical messages
(tests/test_serve.py proves it over HTTP).

No web framework here: stratego.web.app puts this behind HTTP.
"""
from __future__ import annotations

import json
import random
import secrets
import time
from dataclasses import dataclass
from typing import Callable

from ..actions import decode_action
from ..game import Game
from ..history import RecordError
from ..records.jsonl import record_to_json
from ..notation import RANK_SYMBOLS, move_name, rescue_name
from ..agents.opponent import Opponent
from ..castle.variants import seat_letters
from ..common.seeding import resolve_seed
from ..viewing.terminal import bot_accepts_draw
from ..variants import PIECE_NAMES, variants
from ..viewing.viewer import ViewFrames, move_label, result_text, view_counts
from .request import ID_BYTES, RequestError

__all__ = ["SETUPS", "COLOURS", "GAMES", "CASTLE_SEATS", "RequestError", "Options", "PlayedGame", "dumps"]

#: How a person's side is set up: drawn at random, a human setup from the shipped
#: collection (stratego.setups), or placed by hand in the deployment phase.
SETUPS = ("random", "human", "hand")
COLOURS = ("red", "blue", "random")
#: The games served: classic Stratego and its variants, and the castle game.
GAMES = ("stratego", "castle")
#: A castle seat by its letter (docs/castle.md "Modes and seats"), or drawn at random.
CASTLE_SEATS = (*seat_letters(4), "random")
_OWNER = "rb"

@dataclass(frozen=True)
class Options:
    """What a new game is: checked by `Options.parse`, from a request's JSON. `game` is
    "stratego" (the two-player game) or "castle" (stratego.castle, 3 or 4 seats: then
    `colour` is a seat letter and the opponents are the castle bots)."""

    game: str
    variant: str
    opponent: str
    colour: str
    setup: str
    seed: int | None
    people: tuple[str, ...] = ()

    @staticmethod
    def parse(body: object, opponents: tuple[str, ...]) -> "Options":
        from .castle import CASTLE_BOTS, CASTLE_VARIANTS
        if not isinstance(body, dict):
            raise RequestError(400, f"a new game is a JSON object, got {type(body).__name__}")
        known = {"game", "variant", "opponent", "color", "setup", "seed", "people"}
        unknown = sorted(set(body) - known)
        if unknown:
            raise RequestError(400, f"unknown field(s) {unknown}; a new game has {sorted(known)}")
        game = _choice(body, "game", "stratego", GAMES)
        if game == "castle":
            variant = _choice(body, "variant", "ffa4", CASTLE_VARIANTS)
            opponent = _choice(body, "opponent", "heuristic", CASTLE_BOTS)
            colour = _choice(body, "color", "n", CASTLE_SEATS)
            setup = _choice(body, "setup", "random", ("random",))
            people = body.get("people", [])
            if not isinstance(people, list) or len(people) > 3 or any(p not in CASTLE_SEATS[:-1] for p in people) \
                    or len(set(people)) != len(people):
                raise RequestError(400, f"people must be a list of other seats' letters (n, e, s, w) that people "
                                        f"play in other tabs, got {people!r:.60}")
        else:
            variant = _choice(body, "variant", "classic", variants())
            opponent = _choice(body, "opponent", "heuristic", opponents)
            colour = _choice(body, "color", "red", COLOURS)
            setup = _choice(body, "setup", "random", SETUPS)
            if "people" in body:
                raise RequestError(400, "people: only the castle game has seats for other people")
            people = []
        seed = body.get("seed")
        if seed is not None and (type(seed) is not int or not 0 <= seed < 2**63):
            raise RequestError(400, f"seed must be an int in [0, 2**63) or null, got {seed!r:.40}")
        if seed is not None and people:
            # The seed draws every seat's setup: its maker could replay the start and
            # see the other people's hidden pieces. Against bots it tells only the bots'.
            raise RequestError(400, "seed: a game with other people draws its seed at random (a chosen seed would "
                                    "tell its maker every seat's setup)")
        return Options(game, variant, opponent, colour, setup, seed, tuple(people))


def _choice(body: dict, key: str, default: str, allowed) -> str:
    value = body.get(key, default)
    if value not in allowed:
        raise RequestError(400, f"{key} must be one of {list(allowed)}, got {value!r:.60}")
    return value


class PlayedGame:
    """A game of a person (`human`, 0 red or 1 blue) against `opponent`.

    Every change goes through the app's event loop, one request of a game at a time
    (GameStore hands out a lock a game); the bot thinks on a copy (`bot_turn`), so a
    bot that overruns its time limit never touches the game.
    """

    kind = "stratego"

    def __init__(self, options: Options, opponent: Opponent):
        self.options, self.opponent = options, opponent
        self.id = secrets.token_urlsafe(ID_BYTES)
        seed = resolve_seed(options.seed)
        rng = random.Random(seed)  # the colour drawn from the seed too: one seed, one game
        colour = options.colour if options.colour != "random" else rng.choice(["red", "blue"])
        self.human = ("red", "blue").index(colour)
        # The bot's side takes a human setup when the person chose one, a random setup
        # otherwise; "hand" deploys the person's side only (docs/deployment.md).
        bot_setup = "human" if options.setup == "human" else "random"
        mine = "agent" if options.setup == "hand" else options.setup
        setup: str | tuple[str, str] = (mine, bot_setup) if self.human == 0 else (bot_setup, mine)
        if mine != "agent":
            setup = mine
        try:
            self.game = Game(options.variant, seed=seed, setup=setup)
        except ValueError as exc:  # no human setups for this variant's pieces
            raise RequestError(400, str(exc)) from None
        self.moves: list[dict] = []  # what the person saw of each move, in order
        self.frames: ViewFrames | None = None  # the person's frames, from the first move on
        self.draw_offer: str | None = None  # the bot's answer to the latest offer
        self.touched = time.monotonic()
        self.saved = False
        self._begin_play()

    # -- the person's view ---------------------------------------------------
    @property
    def bot(self) -> int:
        return 1 - self.human

    def _begin_play(self) -> None:
        """Starts the person's frames once the pieces stand (after any deployment)."""
        if self.frames is None and not self.game.deploying:
            self.frames = ViewFrames(("red", "blue")[self.human], self.game)

    def message(self, since: int = 0) -> dict:
        """Everything the page shows, from the person's view only (the full board once
        the game is over); of the moves, those after the first `since` (a page keeps the
        ones it has: a long game's message stays short)."""
        game, me = self.game, self.human
        over = game.done
        msg = {
            "variant": game.variant.name, "opponent": self.opponent.name,
            "you": _OWNER[me], "to_move": _OWNER[game.to_move], "ply": game.ply,
            "phase": "over" if over else "deploy" if game.deploying else
                     "rescue" if game.rescue_pending else "play",
            "your_turn": not over and game.to_move == me,
            "moves": self.moves[since:], "move_count": len(self.moves), "draw_offer": self.draw_offer,
            "rescues": list(game.rescues) if game.variant.settings.get("rescue", 0) else None,
        }
        if self.frames is not None:
            self.frames.add(game, None, None, None)
            frame = self.frames.frames.pop()  # one frame at a time: the list stays empty
            msg["board"], msg["captured"] = frame["board"].split(" "), frame["captured"]
        else:
            msg["board"], msg["captured"] = game._tokens(me), None
        msg["last"] = self.moves[-1]["squares"] if self.moves else None
        if game.deploying:
            msg["hand"] = {RANK_SYMBOLS["new"][PIECE_NAMES.index(n)]: c for n, c in game.hand(me).items()} \
                if game.to_move == me else {}
        msg["legal"] = self._legal() if msg["your_turn"] else []
        if over:
            msg["result"] = result_text(game)
            msg["winner"] = None if game.winner is None else _OWNER[game.winner]
            msg["reason"] = game.end_reason
            msg["board"] = game._tokens(None)  # the game is over: nothing is hidden any more
            msg["record"] = self.record_line() is not None
        return msg

    def _legal(self) -> list[list]:
        """The person's legal actions from the engine's mask: [from, to, notation] for a
        move, [rank, square, notation] for a placement or a rescue, [null, null, "pass"]."""
        me, symbols, out = self.human, RANK_SYMBOLS["new"], []
        for action in self.game.legal_actions():
            kind, a, b = decode_action(action, me)
            if kind == "move":
                out.append([a, b, move_name(a, b)])
            elif kind == "rescue":
                out.append([symbols[a], b, rescue_name(symbols[a], b)])
            else:
                out.append([None, None, "pass"])
        return out

    # -- playing ---------------------------------------------------------------
    @property
    def opponent_name(self) -> str:
        return self.opponent.name

    def bot_to_move(self) -> bool:
        return not self.game.done and self.game.to_move == self.bot

    def check_turn(self) -> None:
        if self.game.done:
            raise RequestError(409, f"the game is over ({self.game.end_reason})")
        if self.game.to_move != self.human:
            raise RequestError(409, "not your turn")

    def play_human(self, move: object) -> None:
        """Plays the person's move (notation: "B4-B5", "6@F4", "pass", "F@A1" while
        deploying); RequestError, and nothing changes, for anything illegal."""
        self.check_turn()
        if not isinstance(move, str) or len(move) > 12:
            raise RequestError(400, f"move must be a str in notation like 'B4-B5', '6@F4', 'F@A1' or 'pass', "
                                    f"got {move!r:.40}")
        try:
            self.apply(move)
        except (ValueError, TypeError) as exc:
            raise RequestError(400, str(exc)) from None

    def fill_hand(self) -> None:
        """Places the rest of the person's hand at random (the random bot's placements)."""
        self.check_turn()
        if not self.game.deploying:
            raise RequestError(409, "the deployment is over: nothing left to place")
        while self.game.deploying and self.game.to_move == self.human:
            self.apply(self.game.bot_move("random"))

    def apply(self, move: str | int) -> None:
        """Plays `move` of the player to move, noting what the person sees of it."""
        game, me = self.game, self.human
        mover, rescue, deploying = game.to_move, game.rescue_pending, game.deploying
        before = None if deploying or self.frames is None else (game._tokens(me), view_counts(game, me))
        game.play(move)
        self.touched = time.monotonic()
        if deploying:
            self._begin_play()
            return
        label = move_label(game, move, mover, rescue, me)
        if rescue and mover != me and label == "pass":
            # A declined rescue leaves no trace on the board; shown, it would tell that
            # the piece on the back row may rescue, so is no Scout (docs/rules.md).
            return
        entry = {"ply": len(self.moves) + 1, "mover": _OWNER[mover], "move": label, "squares": None}
        last = game.last_move()
        if not rescue and last is not None:  # a move, not a rescue, was just played
            src, dst, attack = last
            entry["squares"] = [src, dst, attack]
            if attack:
                entry["fight"] = self._fight(before, src, dst, mover)
        self.moves.append(entry)

    def _fight(self, before, src: int, dst: int, mover: int) -> dict:
        """A fight as the person saw it: each side's rank ("?" where its view never
        learnt it) and who won ("attacker", "defender" or "both" lost), from its view
        before and after and its observation's piece counts."""
        me = self.human
        tokens, (own, opp) = before
        after = self.game._tokens(me)
        own2, opp2 = view_counts(self.game, me)
        symbols = RANK_SYMBOLS[self.game.numbering]
        lost = {me: [symbols[t] for t, (a, b) in enumerate(zip(own, own2)) if a > b],
                1 - me: [symbols[t] for t, (a, b) in enumerate(zip(opp, opp2)) if a > b]}
        held = after[dst]
        winner = "both" if held == "." else "attacker" if held[0] == _OWNER[mover] else "defender"

        def rank(side: int, token: str) -> str:
            if side == me or "?" not in token:  # own pieces, and identified ones, are known
                return token[1:]
            if winner != "both" and (winner == "attacker") == (side == mover):  # it holds the square now
                return "?" if "?" in held else held[1:]
            return lost[side][0] if len(lost[side]) == 1 else "?"
        return {"attacker": rank(mover, tokens[src]), "defender": rank(1 - mover, tokens[dst]), "winner": winner}

    def bot_turn(self) -> Callable[[], Game]:
        """A function that plays the bot's turn on a copy of the game and returns the
        copy: run in a worker thread, it never touches this game (`adopt` takes the copy
        once it arrives in time). An illegal answer of a policy loses the game, decided
        in C (Game._play_or_forfeit)."""
        copy, opponent = self.game.clone(), self.opponent

        def think() -> Game:
            copy._play_or_forfeit(opponent.action(copy, check_legal=False))
            return copy
        return think

    def adopt(self, played: Game) -> None:
        """Takes the bot's turn from the copy `bot_turn` played it on."""
        if len(played._actions) == len(self.game._actions):  # a forfeit: no action was played
            self.game = played
            return
        # Played again here, so that the person's notes of it are made as for its own
        # moves; the bot stream goes on from where the copy left it.
        self.apply(played._actions[-1])
        self.game._state.set_bot_stream(played._state.bot_stream())

    def timed_out(self) -> None:
        """The bot overran its time: it loses on time."""
        self.game.lose_on_time(self.bot)

    def forfeit(self) -> None:
        """The bot failed (a policy raised): it loses, as for an illegal action (C decides)."""
        self.game._play_or_forfeit(-1)

    def resign(self) -> None:
        if self.game.done:
            raise RequestError(409, f"the game is over ({self.game.end_reason})")
        self.game.resign(self.human)

    def offer_draw(self) -> bool:
        """The bot takes a draw when it has fewer pieces on the board than the person
        (terminal.play's rule: a count both see)."""
        self.check_turn()
        if self.game.deploying:
            raise RequestError(409, "no draw while deploying: place your pieces first")
        accepted = bot_accepts_draw(self.game, self.human)
        self.draw_offer = "accepted" if accepted else "declined"
        if accepted:
            self.game.agree_draw()
        return accepted

    # -- the record ---------------------------------------------------------------
    def record_line(self) -> str | None:
        """The finished game as one JSON line (stratego.records.jsonl), None before its end or
        for a game ended before its pieces stood (it has no start to record)."""
        if not self.game.done or self.frames is None:
            return None
        try:
            return record_to_json(self.game.record(source=f"stratego serve vs {self.opponent.name}"))
        except RecordError:
            return None


def dumps(message: dict) -> bytes:
    """A message as the bytes sent: compact JSON, keys in a fixed order."""
    return json.dumps(message, separators=(",", ":"), sort_keys=True).encode("utf-8")

