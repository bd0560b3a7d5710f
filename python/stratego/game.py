"""`Game`: one game of Stratego, for people, debugging, replays and tests."""
from __future__ import annotations

import operator

import numpy as np

from . import _core
from .common.arrays import mask_bytes
from .actions import action_to_move, move_to_action, rescue_to_action, squares_to_action
from .history import HistoryMove, Record, RecordError, action_players, make_record
from .deploy import parse_setup
from .common.pickle_check import CHECK_KEY, check_digest, parts_digest
from .notation import check_numbering, format_move, is_rescue_text, parse_move, parse_rescue
from .viewing.render import board_tokens, parse_perspective, render_cells
from .common.seeding import resolve_seed
from .variants import PIECE_NAMES, Variant, load_variant

# The agent names of the multi-agent envs (PettingZoo, RLlib): index = colour, red first.
AGENTS = ("player_0", "player_1")


# Endings the players decide (game_concede, csrc/stratego/game.h).
_CONCEDED = ("resigned", "agreed_draw", "timeout")
# A pickle's actions: little-endian uint16 whatever the machine, so a pickle made on one
# loads on any other (docs/records.md "History").
_ACTION_BYTES = np.dtype("<u2")


class Game:
    """One game. Players: 0 red (moves first), 1 blue.

    Game(variant="classic", seed=None, **settings) starts from random legal setups;
    setup="human" from human setups, setup="agent" with a deployment phase in which the
    players place their own pieces, one `play` each (`deploying`, docs/deployment.md),
    and a pair such as ("agent", "human") deploys one side only;
    Game.from_field(field, to_move=0, ...) from a 100-letter Gravon board.

    bot_move(name) asks a bot in C ("random", "heuristic", "pimc") for the move of the player
    to move; its random stream is seeded with the game (see bot_move).

    A game keeps its history (docs/records.md): the position it started from
    (`start_field`, `start_to_move`) and every action played since (`history`);
    `replay(n)` rebuilds the game after its first n actions, `record()` gives the whole
    game as a stratego.history.Record and `Game.from_record` plays one back. Placements
    are not part of the history: it starts at the setup a deployment reaches.
    """

    def __init__(self, variant: str | Variant = "classic", seed: int | None = None, *,
                 setup: str | tuple[str, str] = "random", numbering: str = "new", **settings: int):
        self._variant, table, deploy = parse_setup(setup, load_variant(variant, **settings))
        self.numbering = check_numbering(numbering)
        self._state = _core.GameState(self._variant.rules)
        self._state.reset(resolve_seed(seed), table, deploy)
        self._begin_history()

    @classmethod
    def from_field(cls, field: str, to_move: int = 0, variant: str | Variant = "classic", *,
                   numbering: str = "new", seed: int | None = 0, allow_flagless: bool = False,
                   **settings: int) -> "Game":
        """A game from a Gravon field string (docs/rules.md "Notation (Gravon)"), `to_move` to play.

        `seed` seeds only the bots' stream (bot_move): the board is given. A side without
        a Flag where the variant has Flags is a ValueError (no game reaches it, and it
        could never be won by capture), unless `allow_flagless=True` asks for such a study
        position: it ends only by a side unable to move or by a cap."""
        if not isinstance(allow_flagless, bool):
            raise TypeError(f"allow_flagless must be a bool, got {type(allow_flagless).__name__}")
        if not isinstance(field, str):
            raise TypeError(f"field must be a str of 100 letters, got {type(field).__name__}")
        game = cls.__new__(cls)
        game._variant = load_variant(variant, **settings)
        game.numbering = check_numbering(numbering)
        game._state = _core.GameState(game._variant.rules)
        game._state.set_field(field, to_move, allow_flagless)
        game._state.seed_bot(resolve_seed(seed))
        game._begin_history()
        return game

    @classmethod
    def from_record(cls, record: Record, *, numbering: str = "new", seed: int | None = 0) -> "Game":
        """The game of a Record (stratego.history) with all its actions played and its
        ending applied: a resignation, an agreed draw, a loss on time or an illegal
        action's forfeit as recorded; an ending the position decides (a captured flag, no
        move left, a cap) must be the one the moves reach. RecordError names the first
        action that is illegal, or the result that differs. `seed` as from_field's."""
        return cls._from_record(record, numbering, seed)

    @classmethod
    def _from_record(cls, record: Record, numbering: str = "new", seed: int | None = 0, before=None) -> "Game":
        """from_record, calling before(game, i) ahead of each action i (stratego.records.pairs)."""
        if not isinstance(record, Record):
            raise TypeError(f"record must be a stratego.history.Record, got {type(record).__name__} "
                            "(stratego.records.replay takes Gravon records too)")
        where = f"{record.source}: " if record.source else ""
        try:
            # A record's start is played as written, a study position without a Flag too:
            # its moves and result are checked, and a writer's record reads back.
            game = cls.from_field(record.field, record.to_move, record.variant, numbering=numbering, seed=seed,
                                  allow_flagless=True)
        except ValueError as exc:
            raise RecordError(f"{where}bad start: {exc}") from None
        game._play_recorded(record.actions, [f"action {i + 1}" for i in range(len(record.actions))], where, before)
        game._end_as_recorded(record.winner, record.reason, where)
        return game

    def _play_recorded(self, actions, names: list[str], where: str, before=None) -> None:
        """Plays a record's actions; RecordError names (names[i]) the first that the rules
        refuse, a rescue they do not open, or a rescue they open that the record skips.
        before(self, i), when given, sees the position ahead of action i."""
        for i, (action, name) in enumerate(zip(actions, names)):
            # The label for a message only: decoding every action would double the cost.
            label = lambda: f"{where}{name} ({action_to_move(action, self.to_move)})"  # noqa: E731, B023 (called in this pass)
            if self.done:
                raise RecordError(f"{where}the game is over ({self.end_reason}) before {name}")
            rescue = action >= _core.RESCUE_ACTION_BASE
            if rescue != self.rescue_pending:
                raise RecordError(f"{label()}: " + (
                    "the record makes a rescue the rules do not open" if rescue else
                    "the rules open a rescue here (a piece returns, or 'pass'), the record moves on"))
            if before is not None:
                before(self, i)
            try:
                self.play(action)
            except ValueError as exc:
                raise RecordError(f"{label()}: {exc}") from None

    def _end_as_recorded(self, winner: int | None, reason: str | None, where: str) -> None:
        """Ends the game as its record says, after its last action."""
        if reason in _CONCEDED and not self.done:
            if reason == "agreed_draw" and winner is not None:
                raise RecordError(f"{where}an agreed draw has no winner, the record gives {winner}")
            if reason != "agreed_draw" and winner is None:
                raise RecordError(f"{where}{reason} needs a winner, the record gives none")
            self._state.concede(reason, 0 if winner is None else 1 - winner)
        elif reason == "illegal_action" and not self.done:
            if winner != 1 - self.to_move:
                raise RecordError(f"{where}illegal_action: the player to move ({self.to_move}) loses, "
                                  f"the record's winner is {winner}")
            self._state.play_or_forfeit(-1)  # out of range: the forfeit, decided in C
        if (self.end_reason, self.winner) != (reason, winner):
            got = f"ends ({self.end_reason}, winner {self.winner})" if self.done else "are not over"
            raise RecordError(f"{where}the record's result is ({reason}, winner {winner}), its moves {got}")

    def _begin_history(self) -> None:
        """The history starts here: this position, no action yet."""
        self._start = self._state.copy()  # never played on: replays copy it
        self._actions: list[int] = []

    # -- history -------------------------------------------------------------
    @property
    def start_field(self) -> str:
        """The field the history starts from (100 Gravon letters)."""
        return self._start.field()

    @property
    def start_to_move(self) -> int:
        """The player to move at the start of the history."""
        return self._start.status()[0]

    @property
    def history(self) -> tuple[HistoryMove, ...]:
        """Every action played since the start, in order: (player, action, move) with the
        move in notation in the game's numbering. A rescue (or "pass") is an entry of its
        own, after the move that opened it, by the same player."""
        players = action_players(self.start_to_move, self._actions)
        return tuple(HistoryMove(p, a, action_to_move(a, p, self.numbering)) for a, p in zip(self._actions, players))

    def replay(self, n: int) -> "Game":
        """A new Game: the start with the first `n` actions of `history` played (0 the
        start, len(history) the position now, before any resignation, agreed draw or
        forfeit). Its bot stream is the one the start had."""
        if isinstance(n, bool) or not hasattr(type(n), "__index__"):
            raise TypeError(f"n must be an int, got {type(n).__name__}")
        n = operator.index(n)
        if not 0 <= n <= len(self._actions):
            raise ValueError(f"n must be in [0, {len(self._actions)}] (the actions of this game's history), got {n}")
        other = Game.__new__(Game)
        other._variant, other.numbering = self._variant, self.numbering
        other._state, other._start, other._actions = self._start.copy(), self._start, []
        for action in self._actions[:n]:
            other._state.play_action(action)
            other._actions.append(action)
        return other

    def record(self, source: str | None = None) -> Record:
        """The game as a Record (stratego.history): variant, start, actions and result."""
        return make_record(self._variant, self.start_field, self._actions, to_move=self.start_to_move,
                           winner=self.winner, reason=self.end_reason, source=source)

    # -- state -------------------------------------------------------------
    @property
    def variant(self) -> Variant:
        return self._variant

    @property
    def field(self) -> str:
        """The current board as 100 Gravon letters."""
        return self._state.field()

    @property
    def to_move(self) -> int:
        return self._state.status()[0]

    @property
    def done(self) -> bool:
        return self._state.status()[1]

    @property
    def winner(self) -> int | None:
        """0 red, 1 blue; None for a draw or an unfinished game."""
        w = self._state.status()[2]
        return None if w < 0 else w

    @property
    def end_reason(self) -> str | None:
        """Why the game ended (see README, "End of game"), None while it goes on."""
        return self._state.status()[3]

    @property
    def ply(self) -> int:
        return self._state.status()[4]

    @property
    def plies_since_attack(self) -> int:
        return self._state.status()[5]

    @property
    def rescue_pending(self) -> bool:
        """Rescue rule: the player to move has reached the opponent's back row and now
        returns a captured piece ("6@F4") or declines ("pass")."""
        return self._state.status()[6]

    @property
    def deploying(self) -> bool:
        """The deployment phase (setup="agent"): the player to move places a piece from
        its hand ("F@A1", or an action of the rescue block) before the first move."""
        return self._state.status()[9]

    def hand(self, player: int | None = None) -> dict[str, int]:
        """Pieces `player` (default: the player to move) still has to place, by name;
        empty once the deployment is over."""
        player = self.to_move if player is None else player
        if player not in (0, 1):
            raise ValueError(f"player must be 0 (red) or 1 (blue), got {player!r}")
        if not self.deploying:
            return {}
        # Nothing is captured before play: the hand is the piece set less the board.
        letters = self.field
        first = ord("B") if player == 0 else ord("N")
        on_board = [letters.count(chr(first + t)) for t in range(len(PIECE_NAMES))]
        return {name: n - b for name, n, b in zip(PIECE_NAMES, self._variant.piece_counts, on_board) if n > b}

    @property
    def rescues(self) -> tuple[int, int]:
        """Rescues made by red and by blue."""
        return tuple(self._state.status()[7:9])

    def captured(self, player: int) -> list[str]:
        """Names of `player`'s captured pieces."""
        return [PIECE_NAMES[t] for t in self._state.captured(player)]

    # -- moves -------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        """Legal actions of the player to move, in its frame (see stratego.actions)."""
        return self._state.legal_actions()

    def action_mask(self, mask_format: str = "bool") -> np.ndarray:
        """Legal actions of the player to move as a bool array of `variant.num_actions`
        entries (what VecEnv's `action_mask` holds for a game); all False once over.
        mask_format="bits": packed 8 actions a byte, as VecEnv(mask_format="bits")."""
        n = self._variant.num_actions
        if mask_format == "bool":
            mask = np.zeros(n, dtype=np.bool_)
        elif mask_format == "bits":
            mask = np.zeros(mask_bytes(n), dtype=np.uint8)
        else:
            raise ValueError(f"mask_format must be 'bool' or 'bits', got {mask_format!r}")
        self._state.action_mask(mask)
        return mask

    def legal_moves(self) -> list[str]:
        """Legal moves of the player to move in Gravon notation, e.g. "B4-B7" (in a
        rescue phase: "6@F4" rescues and "pass")."""
        player = self.to_move
        return [action_to_move(a, player, self.numbering) for a in self._state.legal_actions()]

    def play(self, move: str | int) -> None:
        """Plays a move ("B4-B7"), a rescue ("6@F4", "pass") or an action index of the
        player to move.

        Raises ValueError naming the move and why it is illegal.
        """
        if isinstance(move, str):
            if "@" in move and self.deploying:
                # A placement ("F@A1"): checked on its squares first, since a square
                # outside the own half has no action.
                piece_type, sq = parse_rescue(move, self.numbering)
                reason = self._state.check_place(piece_type, sq)
                if reason is not None:
                    raise ValueError(f"illegal move {move.strip()}: {reason}")
                self._place(rescue_to_action(piece_type, sq, self.to_move))
                return
            if is_rescue_text(move):
                action = move_to_action(move, self.to_move, self.numbering)
                label = move.strip()
            else:
                src, dst = parse_move(move)
                reason = self._state.check_move(src, dst)
                if reason is not None:
                    raise ValueError(f"illegal move {format_move(src, dst)}: {reason}")
                player = self.to_move
                self._state.play_move(src, dst)
                self._actions.append(squares_to_action(src, dst, player))
                return
        elif isinstance(move, (bool, np.ma.MaskedArray)) or not hasattr(type(move), "__index__"):
            raise TypeError(f"a move is a str like 'B4-B7' or an action int, got {type(move).__name__}")
        else:
            action = operator.index(move)
            num_actions = self._variant.num_actions
            if not 0 <= action < num_actions:
                raise ValueError(f"illegal move {action}: this variant's actions are in [0, {num_actions})")
            label = None
        reason = self._state.check_action(action)
        if reason is not None:
            label = label or f"{action} ({action_to_move(action, self.to_move, self.numbering)})"
            raise ValueError(f"illegal move {label}: {reason}")
        if self.deploying:
            self._place(action)
            return
        self._state.play_action(action)
        self._actions.append(action)

    def _place(self, action: int) -> None:
        """Plays a legal placement; the history starts at the position the deployment
        reached: where it ends (records store the setup it reached, docs/records.md),
        or where the game ends during it (a forfeit, a resignation)."""
        self._state.play_action(action)
        self._begin_history()

    def _play_or_forfeit(self, action: int) -> bool:
        """Plays `action`, or, if it is illegal (out of range too), ends the game with the
        mover's loss (end reason "illegal_action"); decided in C, as a batch's
        illegal_action="lose" decides it: for StrategoEnv. True if played."""
        deploying = self.deploying
        played = self._state.play_or_forfeit(action)
        if played and deploying:
            self._begin_history()  # as _place
        elif played:
            self._actions.append(operator.index(action))
        return played

    # -- endings the players decide ------------------------------------------
    def resign(self, player: int | None = None) -> None:
        """`player` (default: the player to move) resigns: the other wins (end reason
        "resigned"). ValueError once the game is over."""
        self._state.concede("resigned", self.to_move if player is None else player)

    def agree_draw(self) -> None:
        """Both players agree to a draw (end reason "agreed_draw")."""
        self._state.concede("agreed_draw", 0)

    def lose_on_time(self, player: int | None = None) -> None:
        """`player` (default: the player to move) runs out of time: the other wins (end
        reason "timeout", Gravon's clock and absence results)."""
        self._state.concede("timeout", self.to_move if player is None else player)

    def bot_move(self, name: str = "heuristic") -> int:
        """The action bot `name` ("random", "heuristic" or "pimc", see stratego.BOTS) plays for
        the player to move, in its frame; the move is not played (`play` it). -1 once
        the game is over.

        The bot sees only what the player to move may know (its view, as in its
        observation, and its legal actions). Its random choices come from the game's
        bot stream: stream 1 of game 0 under the game's seed (Game(seed=s)) or
        from_field's `seed` (0 by default), the stream VecEnv(..., seed=s) gives its
        game 0, so both ask the same questions the same way. Each call advances the
        stream; clone() and pickling keep it.

        `name` may also be a zoo agent, "zoo:NAME" (stratego.agents.zoo: a trained policy, needs
        torch), which plays greedily from the player to move's observation; it must have
        been trained for this game's variant.
        """
        if isinstance(name, str) and name.startswith("zoo:"):
            # The name and variant are checked first, a finished game too (then -1).
            from .agents import zoo  # torch, only when a zoo agent plays
            return zoo.game_action(self, name, self._variant)
        return self._state.bot_action(name)

    # -- hidden state ------------------------------------------------------
    def sample_worlds(self, k: int, seed: int, player: int | None = None) -> list["Game"]:
        """`k` complete games that `player` (default: the player to move) cannot tell
        from this one, drawn uniformly and independently from every assignment of types
        to the opponent pieces it has not identified that agrees with the information the
        belief planes use (docs/sampling.md; under silent defense that leaves out the
        fight outcomes the player saw). Each world is a
        full Game that plays on with this game's history in its state (two-square and
        chasing state, position hashes of its own types; its `history` of actions starts
        at the world), its bot stream drawn from the same stream.
        Deterministic given `seed`; VecEnv.sample_worlds gives game 0's worlds the same
        way from the same seed.

        ValueError for a finished game (nothing is hidden any more), for the player not
        to move during the opponent's rescue phase, and for k outside [1, 65536].
        """
        player = self.to_move if player is None else player
        states = self._state.sample_worlds(player, k, seed)
        worlds = []
        for state in states:
            world = Game.__new__(Game)
            world._variant, world.numbering, world._state = self._variant, self.numbering, state
            # Its Game history starts at the world: the true game's start holds the types
            # the player never saw (the actions before are this game's `history`).
            world._begin_history()
            worlds.append(world)
        return worlds

    @classmethod
    def from_save(cls, data, variant: str | Variant = "classic", *, numbering: str = "new",
                  **settings: int) -> "Game":
        """A game from a game save (bytes or a uint8 array row: a world of
        VecEnv.sample_worlds, a pickle's state), checked completely against `variant`'s
        rules (docs/api.md "Saves")."""
        if isinstance(data, np.ndarray):
            if data.dtype != np.uint8 or data.ndim != 1:
                raise ValueError(f"a game save array must be 1-D uint8, got {data.ndim}-D {data.dtype}")
            data = data.tobytes()
        game = cls.__new__(cls)
        game._variant = load_variant(variant, **settings)
        game.numbering = check_numbering(numbering)
        game._state = _core.GameState(game._variant.rules)
        game._state.from_bytes(data)
        game._begin_history()
        return game

    # -- observations --------------------------------------------------------
    def observation(self, player: int | None = None, *, dtype: str = "uint8", history_k: int = 4,
                    belief: bool = False, obs_format: str = "planes"):
        """`player`'s partial view (default: the player to move), shape (C, 10, 10).

        The same tensor VecEnv gives with the same settings (see docs/observations.md).
        obs_format="codes": the compact codes (L,) uint8, and with belief=True a dict
        {"codes", "belief"} (the belief planes (12, 10, 10) float32), as VecEnv gives them.
        """
        if player is None:
            player = self.to_move
        if dtype not in ("uint8", "float32"):
            raise ValueError(f"dtype must be 'uint8' or 'float32', got {dtype!r}")
        # history_k, and the settings that do not go together, are checked once, in C
        # (channel_names), as VecEnv's are.
        deploy = bool(self._variant.settings.get("deploy", 0))  # the deployment planes
        _core.channel_names(history_k, bool(belief), dtype == "float32", obs_format == "codes", deploy)
        if obs_format == "codes":
            codes = np.zeros(_core.observation_shape(history_k, bool(belief), True, False, deploy), dtype=np.uint8)
            beliefs = np.zeros(_core.observation_shape(history_k, True, True, True), np.float32) if belief else None
            self._state.observe(player, codes, history_k, bool(belief), True, beliefs)
            return codes if beliefs is None else {"codes": codes, "belief": beliefs}
        if obs_format != "planes":
            raise ValueError(f"obs_format must be 'planes' or 'codes', got {obs_format!r}")
        out = np.zeros(_core.observation_shape(history_k, bool(belief), False, False, deploy), dtype=dtype)
        self._state.observe(player, out, history_k, bool(belief))
        return out

    def full_observation(self, player: int | None = None, *, obs_format: str = "planes") -> np.ndarray:
        """The full-information view (true types of every piece) in `player`'s frame;
        obs_format="codes": its 100 square codes (stratego.expand_full_observation).

        For centralized critics and debugging only: it shows hidden pieces.
        """
        if player is None:
            player = self.to_move
        if obs_format not in ("planes", "codes"):
            raise ValueError(f"obs_format must be 'planes' or 'codes', got {obs_format!r}")
        codes = obs_format == "codes"
        out = np.zeros(_core.full_observation_shape(codes), dtype=np.uint8)
        self._state.observe_full(player, out, codes)
        return out

    # -- tools -------------------------------------------------------------
    def render(self, perspective: int | None = None) -> str:
        """The board as text: None the full board, 0/1 that player's view; ranks in the
        game's numbering ("new" or "old")."""
        view = None if perspective is None or isinstance(perspective, bool) else self._state.view_cells(perspective)
        return render_cells(self._state.cells(), view, perspective, self.numbering)

    def svg(self, perspective: str | int | None = "full") -> str:
        """The board as an SVG picture: "full" (or None) every piece, "red"/"blue" (or
        0/1) only what that player knows, drawn from its view as render() is; the latest
        move framed, its target in orange after an attack."""
        from .viewing.svg import board_svg
        perspective = parse_perspective(perspective)
        tokens = self._tokens(perspective)
        name = {None: "full board", 0: "red's view", 1: "blue's view"}[perspective]
        return board_svg(tokens, perspective, last_move=self.last_move(), title=f"{self!r}, {name}")

    def rgb(self, perspective: str | int | None = "full") -> "np.ndarray":
        """The picture svg() draws, as an RGB image (436 x 436 x 3 uint8, stratego.viewing.raster):
        for videos and the envs' render_mode="rgb_array"."""
        from .viewing.raster import board_rgb
        perspective = parse_perspective(perspective)
        return board_rgb(self._tokens(perspective), perspective, last_move=self.last_move())

    def _repr_svg_(self) -> str:
        # Jupyter shows a Game as its full board.
        return self.svg("full")

    def _tokens(self, perspective: int | None) -> list[str]:
        """render.board_tokens of this position; a player's from its view only."""
        view = None if perspective is None else self._state.view_cells(perspective)
        return board_tokens(self._state.cells(), view, perspective, self.numbering)

    def last_move(self) -> tuple[int, int, bool] | None:
        """(from, to, attack) squares of the latest ply, None before the first. Read from
        red's observation codes (the latest ply's squares are public, and red's frame is
        the board's own)."""
        codes = self.observation(0, obs_format="codes", history_k=1)
        src, dst, attack = codes[_core.CODES_HISTORY:_core.CODES_HISTORY + 3]
        return None if src == _core.CODES_NO_MOVE else (int(src), int(dst), bool(attack))

    def perft(self, depth: int) -> int:
        """Number of move sequences of exactly `depth` plies from here (C, for tests)."""
        return self._state.perft(depth)

    # -- copies and pickling -------------------------------------------------
    def clone(self) -> "Game":
        """An independent copy (a memcpy of the C state: cheap enough for search; a
        pickle goes through the save format instead, docs/api.md "Saves")."""
        other = Game.__new__(Game)
        other._variant = self._variant
        other.numbering = self.numbering
        other._state = self._state.copy()
        other._start, other._actions = self._start, list(self._actions)
        return other

    def __getstate__(self) -> dict:
        # The state's save holds the bot stream too (csrc/stratego/save.h). The history is two
        # things the C save format already has, the start's save and action ints: it is
        # unbounded, the C state fixed-size (docs/records.md "History").
        data = {"variant": self._variant, "state": self._state.to_bytes(), "numbering": self.numbering,
                "start": self._start.to_bytes(), "actions": np.asarray(self._actions, _ACTION_BYTES).tobytes()}
        data[CHECK_KEY] = _pickle_digest(data)
        return data

    def __setstate__(self, data: dict) -> None:
        # A pickle without a history (made before games kept one) starts its history at
        # the position it holds.
        # A pickle made before the check (CHECK_KEY) has none: it loads as before.
        if not isinstance(data, dict) or set(data) - {"start", "actions", CHECK_KEY} != {"variant", "state", "numbering"} \
                or ("start" in data) != ("actions" in data) or (CHECK_KEY in data and "start" not in data):
            got = sorted(map(str, data)) if isinstance(data, dict) else type(data).__name__
            raise ValueError("not a pickled stratego.Game: expected a dict of variant, state and numbering, "
                             f"with start and actions together, and check only with them; got {got}")
        numbering = check_numbering(data["numbering"])
        variant = data["variant"]
        if not isinstance(variant, Variant):
            raise TypeError(f"pickled variant must be a Variant, got {type(variant).__name__}")
        variant = load_variant(variant)
        state = _core.GameState(variant.rules)
        state.from_bytes(data["state"])  # the save names its rules: checked against the variant's
        start, actions = state.copy(), []
        if "start" in data:
            start = _core.GameState(variant.rules)
            start.from_bytes(data["start"])
            if not isinstance(data["actions"], bytes) or len(data["actions"]) % 2:
                raise ValueError("a pickled Game's actions are little-endian uint16 bytes")
            actions = np.frombuffer(data["actions"], _ACTION_BYTES).tolist()
            if any(a >= variant.num_actions for a in actions):
                raise ValueError(f"a pickled Game's actions are in [0, {variant.num_actions})")
        if CHECK_KEY in data:  # the parts are known good types now: bound together?
            check_digest("stratego.Game", data[CHECK_KEY], _pickle_digest(data))
        # Only a game that loaded is set: a refused pickle leaves no half-made Game.
        self._variant, self.numbering, self._state = variant, numbering, state
        self._start, self._actions = start, actions

    def __repr__(self) -> str:
        status = f"winner={self.winner} ({self.end_reason})" if self.done else f"to_move={self.to_move}"
        return f"Game(variant={self._variant.name!r}, ply={self.ply}, {status})"


def _pickle_digest(data: dict) -> str:
    """The digest of a pickled Game's parts (stratego.common.pickle_check): its variant, both
    saves, the actions and the numbering."""
    variant = data["variant"]
    return parts_digest([variant.name, variant.description, list(variant.piece_counts), dict(variant.settings)],
                        data["state"], data["start"], data["actions"], data["numbering"])
