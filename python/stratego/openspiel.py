"""Stratego as an OpenSpiel game (the `openspiel` extra: `pip install stratego[openspiel]`).

    import pyspiel, stratego.openspiel
    game = pyspiel.load_game("python_stratego")                  # classic
    game = pyspiel.load_game("python_stratego", {"variant": "barrage", "max_plies": 300})

Importing this module registers "python_stratego" with OpenSpiel (docs/sampling.md):

- The first move is a chance node: the setups, one of SETUP_SEEDS seeds of the engine's
  random setups (Game(variant, seed=outcome)), uniformly.
- Players 0 (red) and 1 (blue) then play actions in their own frame, the legal ones from
  the engine's mask (stratego.actions); the game's maximum length is its ply cap plus the
  chance node. A variant without a ply cap needs `max_plies`.
- Returns +1 / -1 for a win and a loss, 0 for a draw (the caps included).
- Observation and information-state tensors: the player's partial view as float32
  planes (docs/observations.md, history_k 4), nothing hidden. The observation string is
  the player's compact view codes; the information-state string adds the player's own
  setup and every action so far, so that it tells apart what the player saw (a fight's
  outcome shows in the view codes and counts; the actions are public).
- resample_from_infostate(player, sampler) draws a world from the engine's sampler
  (Game.sample_worlds): a state the player cannot tell from this one, uniformly over the
  assignments of its unseen types, with the same history; OpenSpiel's ISMCTS calls it.
- StrategoEvaluator: an evaluator for OpenSpiel's MCTS and ISMCTS bots that plays a
  short heuristic playout in C and scores its end by material.
"""
from __future__ import annotations

import numpy as np
import pyspiel

from . import _core
from .actions import action_to_move
from .game import Game
from .variants import load_variant

#: Setups a game starts from: the chance node's outcomes, seeds of the engine's setups.
SETUP_SEEDS = 1024
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


def _game_info(variant) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(num_distinct_actions=variant.num_actions, max_chance_outcomes=SETUP_SEEDS,
                            num_players=2, min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                            max_game_length=variant.rules["max_plies"] + 1)


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
        super().__init__(_GAME_TYPE, _game_info(self.variant), params)

    def new_initial_state(self):
        return StrategoState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return StrategoObserver(perfect_recall)


class StrategoState(pyspiel.State):
    """A state: before the chance node `engine` is None; then a stratego.Game."""

    def __init__(self, game: StrategoGame, engine: Game | None = None, actions: tuple = (), setups: tuple = ()):
        super().__init__(game)
        self._variant = game.variant
        self.engine = engine
        self._actions = list(actions)
        # Each player's own setup as it saw it at the start (its view codes of its setup
        # zone): what it knows of the chance outcome, for the information state.
        self._setups = setups

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
        p = 1.0 / SETUP_SEEDS
        return [(seed, p) for seed in range(SETUP_SEEDS)]

    def _apply_action(self, action):
        if self.engine is None:
            self.engine = Game(self._variant, seed=int(action))
            self._setups = tuple(self.engine.observation(p, obs_format="codes")[:40].tobytes().hex() for p in (0, 1))
            return
        self.engine.play(int(action))
        self._actions.append(int(action))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"setups:{action}"
        return action_to_move(int(action), int(player))

    def is_terminal(self):
        return self.engine is not None and self.engine.done

    def returns(self):
        if not self.is_terminal() or self.engine.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.engine.winner == 0 else [-1.0, 1.0]

    def __str__(self):
        return "(setups)" if self.engine is None else self.engine.render()

    def __deepcopy__(self, memo):
        engine = None if self.engine is None else self.engine.clone()
        return StrategoState(self.get_game(), engine, tuple(self._actions), self._setups)

    # -- hidden state --------------------------------------------------------------
    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one, drawn uniformly from the
        assignments of its unseen types (Game.sample_worlds), with this history; the
        world's seed comes from probability_sampler (a uniform draw in [0, 1))."""
        world = self.clone()  # OpenSpiel's clone keeps the history
        if self.engine is not None and not self.engine.done:
            seed = int(probability_sampler() * 2.0**53)
            world.engine = self.engine.sample_worlds(1, seed=seed, player=int(player_id))[0]
        return world


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
            return f"p{player} setups"
        codes = state.engine.observation(player, history_k=HISTORY_K, obs_format="codes")
        text = f"p{player} {codes.tobytes().hex()}"
        if self.perfect_recall:
            # Its own setup is what it knows of the chance outcome; the actions are public.
            text += f" setup {state._setups[player]} actions {','.join(map(str, state._actions))}"
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
