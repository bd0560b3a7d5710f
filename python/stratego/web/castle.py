"""A castle game (stratego.castle, docs/castle.md) as `stratego serve` plays it: a person
against two or three bots, or with other people in other tabs (each seat a person plays
has an id of its own, CastleSeat): the counterpart of session.PlayedGame for the
3/4-player game, with the same methods the app calls.

A message holds the person's seat's frame (castle.viewer.frame_of: the engine's text
board of that seat's knowledge, A12, read into its parts), its legal decisions from the
engine's mask in notation, and the decisions so far as that seat saw them
(castle.viewer.move_label: a hidden recruitment's rank only to the recruiter). The full
board comes once the game is over.
"""
from __future__ import annotations

import random
import secrets
import time
from typing import Callable

from ..castle import records as castle_records
from ..castle import notation as castle_notation
from ..castle import viewer as castle_viewer
from ..castle.game import Game, IllegalMove
from ..castle.variants import variant_names
from ..common.seeding import resolve_seed
from .request import ID_BYTES, RequestError

#: The castle game's bots (csrc/castle/castle_bot.h).
CASTLE_BOTS = ("random", "heuristic")
#: The castle game's variant files (stratego/configs/castle).
CASTLE_VARIANTS = tuple(variant_names())


class PlayedCastle:
    """A castle game of a person (seat `human`), the people of `options.people` in their
    seats (each through a CastleSeat, `seat_handles`), and bots in the other seats."""

    kind = "castle"

    def __init__(self, options, bot: str):
        self.options, self.bot_name = options, bot
        self.id = secrets.token_urlsafe(ID_BYTES)
        seed = resolve_seed(options.seed)
        try:
            self.game = Game(variant=options.variant, seed=seed % 2**64)
        except ValueError as exc:
            raise RequestError(400, str(exc)) from None
        letters = self.game.seat_letters
        # A random seat among those no other person plays.
        free = [letter for letter in letters if letter not in options.people]
        seat = options.colour if options.colour != "random" else random.Random(seed).choice(free or letters)
        if seat not in letters:
            raise RequestError(400, f"color must be a seat of this {self.game.mode} game ({', '.join(letters)}) "
                                    f"or 'random', got {seat!r}")
        self.human = letters.index(seat)
        others = set(options.people)
        if not others <= set(letters) - {seat}:
            raise RequestError(400, f"people must be other seats of this {self.game.mode} game "
                                    f"({', '.join(set(letters) - {seat})}), got {sorted(others)}")
        self.people = {self.human} | {letters.index(s) for s in others}
        self.movers: list[int] = []  # the seat of each decision in game.history
        self.touched = time.monotonic()
        self.saved = False
        self.draw_offer = None

    @property
    def opponent_name(self) -> str:
        return self.bot_name

    def bot_to_move(self) -> bool:
        return not self.game.done and self.game.to_play not in self.people

    def seat_handles(self) -> dict[str, "CastleSeat"]:
        """An id of its own for each other seat a person plays: seat letter -> handle."""
        letters = self.game.seat_letters
        return {letters[s]: CastleSeat(self, s) for s in sorted(self.people - {self.human})}

    def message(self, since: int = 0, seat: int | None = None) -> dict:
        game, me = self.game, self.human if seat is None else seat
        letters = game.seat_letters
        over = game.done
        public = bool(game.settings["recruit_public"])
        moves = [{"ply": i + 1, "mover": letters[mover], "move": castle_viewer.move_label(label, mover, me, public)}
                 for i, (label, mover) in enumerate(zip(game.history[since:], self.movers[since:]), since)]
        your_turn = not over and game.to_play == me
        msg = {"game": "castle", "variant": self.options.variant, "mode": game.mode, "opponent": self.bot_name,
               "seats": letters, "you": letters[me], "to_move": letters[game.to_play], "ply": game.ply,
               "phase": "over" if over else game.phase, "your_turn": your_turn,
               "rows": game._geometry["rows"], "moves": moves, "move_count": len(self.movers),
               "frame": castle_viewer.frame_of(game, None if over else me),
               "last": castle_notation.move_nodes(game.history[-1]) if game.history else None,
               "people": [letters[s] for s in sorted(self.people)],
               "legal": self._legal() if your_turn else []}
        if over:
            msg["result"] = castle_viewer.result_text(game)
            msg["winners"] = [letters[s] for s in game.winners]
            msg["reason"] = game.end_reason
            msg["record"] = True
        return msg

    def _legal(self) -> list[list]:
        """[from node, to node, notation] of each legal decision that moves, attacks or
        shoots; [null, null, notation] of the others (take, leave, recruit ...)."""
        out = []
        for action in self.game.legal_actions():
            name = self.game.action_to_move(action)
            squares = castle_notation.move_nodes(name)
            out.append([squares[0], squares[1], name] if squares else [None, None, name])
        return out

    def check_turn(self, seat: int | None = None) -> None:
        if self.game.done:
            raise RequestError(409, f"the game is over ({self.game.end_reason})")
        if self.game.to_play != (self.human if seat is None else seat):
            raise RequestError(409, "not your turn")

    def play_human(self, move: object, seat: int | None = None) -> None:
        self.check_turn(seat)
        if not isinstance(move, str) or len(move) > 20:
            raise RequestError(400, f"move must be a str in the castle notation like 'H3-H4', 'D8*ring', "
                                    f"'recruit 7' or 'take', got {move!r:.40}")
        try:
            self.apply(move)
        except (IllegalMove, ValueError) as exc:
            raise RequestError(400, f"illegal move {move}: {exc}") from None

    def apply(self, move) -> None:
        mover = self.game.to_play
        self.game.play(move)
        self.movers.append(mover)
        self.touched = time.monotonic()

    def bot_turn(self) -> Callable[[], Game]:
        """The bot's decision on a copy (see session.PlayedGame.bot_turn)."""
        copy, name = self.game.clone(), self.bot_name

        def think() -> Game:
            copy.play(copy.bot_move(name))
            return copy
        return think

    def adopt(self, played: Game) -> None:
        self.movers.append(self.game.to_play)
        self.game = played
        self.touched = time.monotonic()

    def timed_out(self) -> None:
        """The castle rules have no loss on time: the late seat's decision is the random
        bot's instead (C, instant)."""
        self.apply(self.game.bot_move("random"))

    def forfeit(self) -> None:
        self.timed_out()

    def fill_hand(self) -> None:
        raise RequestError(409, "the castle game has no hand placement: its setups are drawn at random")

    def resign(self) -> None:
        raise RequestError(409, "the castle game's rules have no resignation (docs/castle.md); leave the tab")

    def offer_draw(self) -> bool:
        raise RequestError(409, "the castle game's rules have no agreed draw (docs/castle.md)")

    def record_line(self) -> str | None:
        if not self.game.done:
            return None
        players = {letter: "person" if seat in self.people else self.bot_name
                   for seat, letter in enumerate(self.game.seat_letters)}
        return castle_records.record_to_json(castle_records.game_record(self.game, players))


class CastleSeat:
    """Another person's seat of a PlayedCastle: an id of its own, the game's answers from
    that seat's view, its moves; everything else is the game's (one lock, one record)."""

    def __init__(self, played: PlayedCastle, seat: int):
        self.played, self.seat = played, seat
        self.id = secrets.token_urlsafe(ID_BYTES)

    def __getattr__(self, name: str):
        return getattr(self.played, name)

    @property
    def saved(self) -> bool:  # one record for the game, whichever seat ends it
        return self.played.saved

    @saved.setter
    def saved(self, value: bool) -> None:
        self.played.saved = value

    def message(self, since: int = 0) -> dict:
        return self.played.message(since, self.seat)

    def play_human(self, move: object) -> None:
        self.played.play_human(move, self.seat)
