"""`StrategoEnv`: one game against an opponent, as a single-agent Gymnasium env.

Registered as "stratego/Stratego-v0" when `stratego` is imported:

    import gymnasium as gym, stratego
    env = gym.make("stratego/Stratego-v0", opponent="heuristic", learner_color="random")

Gymnasium 1.x has no plugin entry points (removed in 1.0); `gym.make` imports a module
named before a colon instead, so `gym.make("stratego:stratego/Stratego-v0")` works
without importing stratego first.
"""
from __future__ import annotations

from typing import Any, Callable

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..common.arguments import check_one_of
from ..deploy import parse_setup
from ..game import Game
from ..agents.opponent import Opponent
from ..common.seeding import check_seed
from ..variants import RULE_SETTINGS, Variant, load_variant
from ..vec_env import ILLEGAL_ACTION_MODES, LEARNER_COLORS, MASK_FORMATS, OBS_DTYPES

ENV_ID = "stratego/Stratego-v0"
#: Draws of a new game before reset gives up: the opponent would have to end nearly
#: every game on its first move for this to be reached.
MAX_REDRAWS = 1000


class StrategoEnv(gym.Env):
    """One game of Stratego for a learner against an opponent that moves inside step().

    - The learner sees only its own turns and its own view (the partial observation,
      C x 10 x 10, channels first; actions in its frame, see stratego.actions).
    - opponent: a bot in C ("random", "heuristic" or "pimc", stratego.BOTS; its random choices
      come from the game's seed, drawn from the env's), a zoo agent "zoo:NAME" trained for
      the env's variant (stratego.agents.zoo, docs/zoo.md), or a policy of the policy
      protocol (stratego.agents.policy), called with a batch of one in the observations it
      declares, and reseeded on a seeded reset (see stratego.agents.opponent).
    - learner_color: "red", "blue", "random" (drawn per episode from the env's seed) or
      "alternate" (red, blue, red, ... from the first reset after a seeded one).
    - Reward: +1 win, -1 loss, 0 draw, at the end; 0 before. Every end is a rule of the
      game, the move caps included (a draw): terminated, never truncated.
    - An episode that would end before the learner's first move (the opponent, moving
      first as red, captures the flag or leaves the learner without a move) is never
      handed out: reset draws a new game instead (`redraws` counts them).
    - action_masks() and info["action_mask"]: the learner's legal actions, a bool
      array; mask_format="bits" packs both 8 actions a byte (stratego.unpack_mask; keep
      "bool" for MaskablePPO, which reads action_masks() as one bool per action).
    - obs_format="codes" (an observation setting, passed to Game.observation like
      history_k): the compact codes (stratego.expand_observation gives the planes); with
      belief=True a dict {"codes", "belief"} and a Dict observation space.
    - illegal_action="lose" (default): an illegal action (the learner's, or the
      opponent policy's) loses the game for its player (info["end_reason"] is
      "illegal_action"): agents without masks, and Gymnasium's and SB3's env checkers,
      which step random actions, get a game. "raise": ValueError naming the action and
      why it is illegal, and nothing changes.
    - setup "random", "human" or "agent" (a deployment phase: the learner places its
      pieces one action a step before the first move, the opponent its own in its turns;
      info["deploying"]), or a pair (the learner's, the opponent's) such as ("agent",
      "human") (docs/deployment.md); rule settings (max_plies=..., see
      stratego.variants.RULE_SETTINGS) override the variant's; every other keyword is
      an observation setting passed to Game.observation, as are history_k, belief and
      obs_dtype.
    - An exception raised by the opponent (its policy, or its illegal action under
      illegal_action="raise") leaves its side to move: step() then raises RuntimeError
      until the next reset(), so the learner's action is never played for the opponent;
      after a failed reset() likewise (docs/agents.md).
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        variant: str | Variant = "classic",
        opponent: str | Callable = "random",
        learner_color: str = "random",
        *,
        setup: str = "random",
        history_k: int = 4,
        belief: bool = False,
        obs_dtype: str = "uint8",
        illegal_action: str = "lose",
        render_mode: str | None = None,
        mask_format: str = "bool",
        **settings: Any,
    ):
        check_one_of("learner_color", learner_color, LEARNER_COLORS)
        check_one_of("obs_dtype", obs_dtype, OBS_DTYPES)
        check_one_of("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, got {render_mode!r}")
        check_one_of("mask_format", mask_format, MASK_FORMATS)
        self.mask_format = mask_format
        rules = {k: v for k, v in settings.items() if k in RULE_SETTINGS}
        # The setup words are checked here, and give the variant whose action space holds
        # the placements where a side deploys.
        self.variant = parse_setup(setup, load_variant(variant, **rules))[0]
        self.opponent = Opponent(opponent, self.variant)
        self.learner_color = learner_color
        self.setup = setup
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.learner = 0
        self._obs_settings = {"dtype": obs_dtype, "history_k": history_k, "belief": belief}
        self._obs_settings.update({k: v for k, v in settings.items() if k not in RULE_SETTINGS})
        # A first game checks every setting now (the setup mode, the observation
        # settings), not at the first reset, and gives the observation's shape.
        self._game = Game(self.variant, seed=0, setup=self._colour_setup())
        try:
            probe = self._game.observation(0, **self._obs_settings)
        except TypeError as exc:
            raise TypeError(f"{exc}: a keyword that is no rule setting ({sorted(RULE_SETTINGS)}) "
                            f"must be an observation setting of Game.observation") from None
        if isinstance(probe, dict):  # codes with their belief block
            self.observation_space = spaces.Dict({"codes": spaces.Box(0, 255, probe["codes"].shape, np.uint8),
                                                  "belief": spaces.Box(0, 1, probe["belief"].shape, np.float32)})
        else:
            high = 255 if probe.dtype == np.uint8 else np.float32(255)
            self.observation_space = spaces.Box(0, high, probe.shape, probe.dtype)
        self.action_space = spaces.Discrete(self.variant.num_actions)
        self.learner = 0
        self.redraws = 0
        self._episodes = 0
        self._mask = np.zeros_like(self._game.action_mask(mask_format))  # all False, in the chosen format
        # Why step() refuses until the next reset (None: it may step). An opponent that
        # raised left its own side to move: the learner's next action must never be
        # played for it.
        self._refusal: str | None = "call reset() before step()"

    # -- Gymnasium API -----------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """A new game; the opponent has made its first move if it plays red.
        Returns (obs, info)."""
        # Every check before the first write: a refused reset leaves the env's stream
        # (and so every later game) as it was.
        if options:
            raise ValueError(f"reset takes no options, got {sorted(options)}")
        super().reset(seed=None if seed is None else check_seed(seed))  # the rule of every env (common/seeding.py)
        if seed is not None:
            self._episodes = 0
            if self.opponent.seedable:
                self.opponent.seed(int(self.np_random.integers(2**63)))
        if self.learner_color == "random":
            self.learner = int(self.np_random.integers(2))
        elif self.learner_color == "alternate":
            self.learner = self._episodes % 2
        else:
            self.learner = 0 if self.learner_color == "red" else 1
        self._episodes += 1
        # Until this reset succeeds the game is not the learner's to play (an opponent
        # raising in its opening leaves its own side to move).
        self._refusal = ("the last reset() failed (the opponent raised before the learner's first "
                         "move); call reset() again")
        # Rejection: a game whose opening ply (the opponent's, as red) already ends it
        # is drawn again, setups and all, so every episode gives the learner a move.
        for _ in range(MAX_REDRAWS):
            game_seed = int(self.np_random.integers(2**63))
            self._game = Game(self.variant, seed=game_seed, setup=self._colour_setup())
            self._opponent_moves()
            if not self._done:
                break
            self.redraws += 1
        else:
            raise RuntimeError(f"the opponent ended {MAX_REDRAWS} games in a row before the learner's "
                               f"first move; this opponent and variant leave the learner no game")
        self._refusal = None
        return self._observe(), self._info()

    def step(self, action):
        """The learner's action, then the opponent's reply. Returns (obs, reward,
        terminated, truncated, info), reward the learner's."""
        if self._refusal is not None:
            raise RuntimeError(self._refusal)
        if self._done:
            raise RuntimeError("the game is over; call reset()")
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            if not (isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer)):
                raise TypeError(f"action must be an int, got {type(action).__name__}")
        self._play(int(action), "the learner's action")
        try:
            self._opponent_moves()
        except BaseException:
            # The learner's action was played and the opponent's reply was not: its side
            # is to move, so no later action of the learner may be played until reset.
            self._refusal = ("the opponent raised during the last step, so the game waits for its "
                             "move, not the learner's; call reset()")
            raise
        done = self._done
        reward = 0.0
        if done:
            winner = self._outcome()[0]
            reward = 0.0 if winner < 0 else 1.0 if winner == self.learner else -1.0
        return self._observe(), reward, done, False, self._info()

    def render(self):
        """The board as the learner sees it (its pieces in full, the opponent's only
        where identified): "ansi" returns the text, "human" prints it, "rgb_array"
        returns the picture of Game.svg as an RGB image (436 x 436 x 3 uint8, Game.rgb),
        for Gymnasium's RecordVideo and SB3's VecVideoRecorder."""
        if self.render_mode == "rgb_array":
            return self._game.rgb(self.learner)
        text = self._game.render(self.learner)
        if self.render_mode == "human":
            print(text, end="\n\n")
            return None
        return text

    # -- extras ------------------------------------------------------------------
    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (sb3-contrib MaskablePPO's convention with the
        default mask_format "bool"; packed with "bits"); all False once the game is over."""
        return self._mask.copy()

    @property
    def game(self) -> Game:
        """The game being played (its full state: for debugging, never for a policy)."""
        return self._game

    def _observe(self) -> np.ndarray:
        if self._done:
            self._mask[:] = False
        else:
            self._mask[:] = self._game.action_mask(self.mask_format)
        return self._game.observation(self.learner, **self._obs_settings)

    def _info(self) -> dict:
        info = {"action_mask": self._mask.copy(), "learner": self.learner, "ply": self._game.ply,
                "deploying": self._game.deploying}
        if self._done:
            info["winner"], info["end_reason"] = self._outcome()
        return info

    def _colour_setup(self):
        """The setup by colour (red's, blue's) from a pair given as (the learner's, the
        opponent's)."""
        if isinstance(self.setup, str):
            return self.setup
        learner, opponent = self.setup
        return (learner, opponent) if self.learner == 0 else (opponent, learner)

    def _opponent_moves(self) -> None:
        """The opponent's turn (a rescue phase of the rules is a second action of the
        same turn: it keeps playing while it is to move)."""
        game = self._game
        while not self._done and game.to_move != self.learner:
            action = self.opponent.action(game, check_legal=self.illegal_action == "raise")
            self._play(action, f"opponent {self.opponent.name!r}")

    def _play(self, action: int, who: str) -> None:
        """Plays `action` for the player to move; an illegal one raises or, under
        illegal_action="lose", ends the game with that player's loss."""
        game = self._game
        if self.illegal_action == "lose":
            game._play_or_forfeit(action)
            return
        try:
            game.play(action)
        except ValueError as exc:
            raise ValueError(f"{who}: {exc}") from None

    @property
    def _done(self) -> bool:
        return self._game.done

    def _outcome(self) -> tuple[int, str]:
        """(winner, -1 for a draw; end reason) of the finished game, as C decided it."""
        return (-1 if self._game.winner is None else self._game.winner), self._game.end_reason


def register() -> None:
    """Registers ENV_ID with Gymnasium (once; importing stratego calls it)."""
    if ENV_ID not in gym.registry:
        gym.register(id=ENV_ID, entry_point="stratego.integrations.gym_env:StrategoEnv")


register()
