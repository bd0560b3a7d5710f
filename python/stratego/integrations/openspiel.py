"""Stratego as an OpenSpiel game (the `openspiel` extra: `pip install stratego[openspiel]`).

    import pyspiel, stratego.integrations.openspiel
    game = pyspiel.load_game("python_stratego")                  # classic
    game = pyspiel.load_game("python_stratego", {"variant": "barrage", "max_plies": 300})

Importing this module registers "python_stratego" with OpenSpiel (docs/sampling.md):

- The setups are chance nodes, one a square of each side's setup zone (red's zone, then
  blue's, squares in increasing order): the outcome is what stands there, 0 empty or
  1 + a piece type, each with probability (how many of it are left) / (squares left).
  That is the uniform law over each side's setups, the prior the sampler assumes, and
  each player sees only its own side's placements (Stratego's setups are secret).
- Players 0 (red) and 1 (blue) then play actions in their own frame, the legal ones from
  the engine's mask (stratego.actions); the game's maximum length is the chance nodes
  plus its ply cap, twice the cap under the rescue rule (a rescue or its decline is an
  action but not a ply, and follows at most one ply each). A variant without a ply cap
  needs `max_plies`.
- Returns +1 / -1 for a win and a loss, 0 for a draw (the caps included).
- Observation and information-state tensors: the same, the player's partial view as
  float32 planes (docs/observations.md, history_k 4: the last four plies, not perfect
  recall), all zeros during the setups. The observation string is the player's compact
  view codes; the information-state string adds the player's own setup and every action
  so far, so that it tells apart what the player saw (a fight's outcome shows in the view
  codes and counts; the actions are public).
- resample_from_infostate(player, sampler) draws a world from the engine's sampler
  (Game.sample_worlds): a state the player cannot tell from this one, uniformly over the
  assignments of its unseen types, with the same actions; its opponent's setup (chance
  outcomes) is the world's, so it holds nothing of the true hidden state. OpenSpiel's
  ISMCTS calls it.
- StrategoEvaluator: an evaluator for OpenSpiel's MCTS and ISMCTS bots that plays a
  short heuristic playout in C and scores its end by material.
"""
from __future__ import annotations

import numpy as np
import pyspiel

from .. import _core
from ..actions import action_to_move
from ..game import Game
from ..variants import load_variant

#: The chance outcome of an empty square of a setup zone; 1 + t places piece type t.
EMPTY = 0
HISTORY_K = 4
SHORT_NAME = "python_stratego"
_DEFAULTS = {"variant": "classic", "max_plies": 0}


def _variant_of(params: dict):
    variant = load_variant(str(params.get("variant", "classic")))
    max_plies = int(params.get("max_plies", 0))
    if max_plies < 0:
        raise ValueError(f"max_plies must be >= 0 (0: the variant's cap), got {max_plies}")
    if max_plies:
        variant = load_variant(variant, max_plies=max_plies)
    if variant.rules["max_plies"] == 0:
        raise ValueError(f"variant {variant.name!r} has no ply cap: OpenSpiel needs a maximum game length, "
                         "give max_plies")
    return variant


def setup_zone(variant, player: int) -> list[int]:
    """The squares of `player`'s setup zone (the `setup_rows` rows nearest its back row;
    red's back row is row 0) in increasing order: the order of its chance nodes. The
    engine's zone (rules_in_setup_zone, csrc/stratego/rules.h)."""
    return list(_core.setup_zone(variant.rules, player))


def max_actions(variant) -> int:
    """The most player actions a game can have: its ply cap, and under the rescue rule one
    rescue or decline at most after each ply: the engine's bound (record_capacity_bound,
    csrc/stratego/record.c)."""
    return _core.record_capacity_bound(variant.rules)


def _game_info(variant) -> pyspiel.GameInfo:
    chance_nodes = len(setup_zone(variant, 0)) + len(setup_zone(variant, 1))
    return pyspiel.GameInfo(num_distinct_actions=variant.num_actions,
                            max_chance_outcomes=len(variant.piece_counts) + 1,
                            num_players=2, min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                            max_game_length=chance_nodes + max_actions(variant))


_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Stratego (stratego engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class StrategoGame(pyspiel.Game):
    """The OpenSpiel game: parameters `variant` (a name of stratego.variants()) and
    `max_plies` (0: the variant's cap)."""

    def __init__(self, params=None):
        params = {**_DEFAULTS, **(params or {})}
        self.variant = _variant_of(params)
        self.zones = (setup_zone(self.variant, 0), setup_zone(self.variant, 1))
        # The board before the setups: empty squares and the lakes where the engine has them.
        self.empty_field = "".join("_" if c == "_" else "A" for c in Game(self.variant, seed=0).field)
        super().__init__(_GAME_TYPE, _game_info(self.variant), params)

    def new_initial_state(self):
        return StrategoState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return StrategoObserver(perfect_recall)


#: Resampling draws again when a world's replay does not look the same to the player:
#: only under silent defense, whose fight outcomes the sampler does not use (sample.h).
RESAMPLE_TRIES = 1000


class StrategoState(pyspiel.State):
    """A state: during the setups `engine` is None and `placements` holds the chance
    outcomes so far (red's zone, then blue's); then `engine` is a stratego.Game."""

    def __init__(self, game: StrategoGame, engine: Game | None = None, actions: tuple = (),
                 placements: tuple = ()):
        super().__init__(game)
        self._variant = game.variant
        self._zones = game.zones
        self._empty_field = game.empty_field
        self.engine = engine
        self._actions = list(actions)
        self.placements = list(placements)

    # -- the setups ----------------------------------------------------------------
    def _placing(self) -> int:
        """The side whose zone the next chance node fills."""
        return 0 if len(self.placements) < len(self._zones[0]) else 1

    def own_placements(self, player: int) -> list[int]:
        """The chance outcomes of `player`'s zone so far: what it knows of the setups."""
        n = len(self._zones[0])
        return self.placements[:n] if player == 0 else self.placements[n:]

    def _field(self) -> str:
        field = list(self._empty_field)
        for player, first in ((0, "B"), (1, "N")):
            for sq, outcome in zip(self._zones[player], self.own_placements(player)):
                if outcome != EMPTY:
                    field[sq] = chr(ord(first) + outcome - 1)
        return "".join(field)

    # -- OpenSpiel's API -----------------------------------------------------------
    def current_player(self):
        if self.engine is None:
            return pyspiel.PlayerId.CHANCE
        if self.engine.done:
            return pyspiel.PlayerId.TERMINAL
        return self.engine.to_move

    def _legal_actions(self, player):
        if self.engine is None or self.engine.done or player != self.engine.to_move:
            return []
        return sorted(self.engine.legal_actions())

    def chance_outcomes(self):
        if self.engine is not None:
            return []
        player = self._placing()
        placed = self.own_placements(player)
        left = [len(self._zones[player]) - self._variant.num_pieces] + list(self._variant.piece_counts)
        for outcome in placed:
            left[outcome] -= 1
        squares = len(self._zones[player]) - len(placed)
        # Each square draws from what is left: the uniform law over the side's setups.
        return [(outcome, count / squares) for outcome, count in enumerate(left) if count > 0]

    def _apply_action(self, action):
        if self.engine is None:
            if action not in dict(self.chance_outcomes()):
                raise ValueError(f"setup outcome {action} is not possible here: "
                                 f"expected one of {[o for o, _ in self.chance_outcomes()]}")
            self.placements.append(int(action))
            if len(self.placements) == len(self._zones[0]) + len(self._zones[1]):
                self.engine = Game.from_field(self._field(), 0, self._variant, seed=0)
            return
        self.engine.play(int(action))
        self._actions.append(int(action))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return "empty" if action == EMPTY else f"type {action - 1}"
        return action_to_move(int(action), int(player))

    def is_terminal(self):
        return self.engine is not None and self.engine.done

    def returns(self):
        if not self.is_terminal() or self.engine.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.engine.winner == 0 else [-1.0, 1.0]

    def __str__(self):
        if self.engine is None:
            return f"(setups: {len(self.placements)} of {len(self._zones[0]) + len(self._zones[1])} squares)"
        return self.engine.render()

    def __deepcopy__(self, memo):
        engine = None if self.engine is None else self.engine.clone()
        return StrategoState(self.get_game(), engine, tuple(self._actions), tuple(self.placements))

    # -- hidden state --------------------------------------------------------------
    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one, drawn uniformly from the
        assignments of its unseen types (Game.sample_worlds; the seed from
        probability_sampler, a uniform draw in [0, 1)): the registered game played from
        the player's own setup and the world's opponent setup with this game's actions,
        so its history holds the world's chance outcomes and nothing of the true ones.
        During the setups: the player's placements and fresh draws for the rest."""
        player = int(player_id)
        if self.engine is not None and self.engine.done:
            return self.clone()  # a finished game hides nothing any more
        if self.engine is None:
            return self._replayed(player, None, probability_sampler)
        for _ in range(RESAMPLE_TRIES):
            seed = int(probability_sampler() * 2.0**53)
            sampled = self.engine.sample_worlds(1, seed=seed, player=player)[0]
            world = self._replayed(player, sampled, probability_sampler)
            if world is not None:
                return world
        raise RuntimeError(f"no world the player {player} cannot tell from this one in {RESAMPLE_TRIES} draws "
                           "(silent defense: the sampler does not use fight outcomes)")

    def _replayed(self, player: int, sampled: Game | None, probability_sampler):
        """This game again from `player`'s placements and the opponent's in `sampled`
        (the world's types on the opponent's start squares, whose pieces the start field
        numbered in increasing squares), or drawn from the chance law when `sampled` is
        None; None when its actions do not replay to the same information state."""
        world = self.get_game().new_initial_state()
        opponent = 1 - player
        if sampled is not None:
            types = iter(sampled._state.piece_types(opponent))
            theirs = [EMPTY if o == EMPTY else 1 + next(types) for o in self.own_placements(opponent)]
        else:
            theirs = []
        for _ in range(len(self.placements)):
            if world._placing() == player:
                world.apply_action(self.own_placements(player)[len(world.own_placements(player))])
            elif len(world.own_placements(opponent)) < len(theirs):
                world.apply_action(theirs[len(world.own_placements(opponent))])
            else:
                outcomes, probs = zip(*world.chance_outcomes())
                u, total = probability_sampler(), 0.0
                chosen = outcomes[-1]
                for outcome, prob in zip(outcomes, probs):
                    total += prob
                    if u < total:
                        chosen = outcome
                        break
                world.apply_action(chosen)
        try:
            for action in self._actions:
                world.apply_action(action)
        except ValueError:
            return None  # an action the world's fights made illegal (silent defense)
        if world.information_state_string(player) != self.information_state_string(player):
            return None
        return world


def _letters(placements) -> str:
    """Placements as setup letters: 'A' empty, 'B' + type (Gravon's red letters)."""
    return "".join(chr(ord("A") + outcome) for outcome in placements)


class StrategoObserver:
    """The player's partial view as float32 planes (OpenSpiel's PyObserver protocol);
    perfect_recall adds the player's setup and the actions to the string."""

    def __init__(self, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        shape = _core.observation_shape(HISTORY_K, False, False)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: StrategoState, player: int) -> None:
        if state.engine is None:
            self.tensor.fill(0)
            return
        self.dict["observation"][...] = state.engine.observation(player, dtype="float32", history_k=HISTORY_K)

    def string_from(self, state: StrategoState, player: int) -> str:
        if state.engine is None:
            # A player sees its own placements only (the information state's; the
            # observation, like the tensor, shows nothing until the setups end).
            return f"p{player} setup {_letters(state.own_placements(player))}" if self.perfect_recall else f"p{player} setups"
        codes = state.engine.observation(player, history_k=HISTORY_K, obs_format="codes")
        text = f"p{player} {codes.tobytes().hex()}"
        if self.perfect_recall:
            # Its own setup is what it knows of the chance outcome; the actions are public.
            text += f" setup {_letters(state.own_placements(player))} actions {','.join(map(str, state._actions))}"
        return text


class StrategoEvaluator:
    """An evaluator for OpenSpiel's MCTS and ISMCTS bots (evaluate, prior): `plies` plies
    of the heuristic bot in C from the state, then +1/-1/0 for a result, else each
    player's share of the pieces left on the board, from -1 to 1. The prior is uniform."""

    def __init__(self, plies: int = 20):
        self.plies = plies

    def evaluate(self, state: StrategoState):
        if state.is_terminal():
            return np.array(state.returns())
        g = state.engine.clone()
        for _ in range(self.plies):
            if g.done:
                return np.array(StrategoState(state.get_game(), g).returns())
            g.play(g.bot_move("heuristic"))
        cells = np.frombuffer(g._state.cells(), np.uint8).reshape(100, 3)
        red, blue = int(np.sum(cells[:, 0] == 0)), int(np.sum(cells[:, 0] == 1))
        v = (red - blue) / max(red + blue, 1)
        return np.array([v, -v])

    def prior(self, state: StrategoState):
        actions = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(actions)) for a in actions]


pyspiel.register_game(_GAME_TYPE, StrategoGame)
