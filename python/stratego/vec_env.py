"""`VecEnv`: thousands of games stepped together in C, a Gymnasium `VectorEnv`.

The arrays are allocated once and overwritten in place by every reset and step (zero
copy): copy what you keep across steps.
"""
from __future__ import annotations

import operator
import os

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv as GymVectorEnv

from .arguments import check_one_of
from . import _core
from .compact import mask_bytes
from .observation import OBSERVATION_VERSION, channel_names
from .seeding import resolve_seed
from .setups import human_setups
from .threads import default_num_threads
from .variants import Variant, load_variant

ILLEGAL_ACTION_MODES = {"raise": _core.ILLEGAL_RAISE, "lose": _core.ILLEGAL_LOSES}
END_REASONS: tuple[str, ...] = _core.END_REASONS
VIEWS = {"to_play": 1, "both": 2}
LEARNER_COLORS = {"red": 0, "blue": 1, "random": 2, "alternate": 3}
AUTORESET_MODES = {
    AutoresetMode.SAME_STEP: _core.AUTORESET_SAME_STEP,
    AutoresetMode.NEXT_STEP: _core.AUTORESET_NEXT_STEP,
    AutoresetMode.DISABLED: _core.AUTORESET_DISABLED,
}
OBS_DTYPES = {"uint8": np.uint8, "float32": np.float32}
MAX_ENVS: int = _core.MAX_ENVS
_MaskedArray = np.ma.MaskedArray  # looked up once: step() refuses these
OBS_FORMATS = ("planes", "codes")
MASK_FORMATS = ("bool", "bits")


def _bytes_per_game(mask: int, obs: int, full: int) -> int:
    """Memory one game takes: its C state and sampler stream, and every buffer (mask,
    observation and final observation together, full view bytes given)."""
    flags = 2 * 4 + 4 + 1 + 1 + 1 + 1 + 1 + 4 + 8  # rewards, reward, flags, finals, actions
    return _core.STATE_BYTES + 8 + 16 + mask + obs + full + flags  # 16: opponent stream


def _check_memory(num_envs: int, per_game: int) -> None:
    """MemoryError, before anything is allocated, when the games cannot fit in this
    machine's memory (rather than the allocation failing late or the OS killing us)."""
    try:
        physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return
    need = num_envs * per_game
    if need > physical:
        raise MemoryError(
            f"{num_envs} games need {need / 2**30:.1f} GiB ({per_game} bytes each), more than "
            f"this machine's {physical / 2**30:.1f} GiB of memory; use fewer games or no observations"
        )


def _resolve_threads(num_threads):
    """0 is the default count (stratego.default_num_threads); anything else goes to the
    core, which checks it."""
    if isinstance(num_threads, (int, np.integer)) and not isinstance(num_threads, bool) and num_threads == 0:
        return default_num_threads()
    return num_threads


class VecEnv(GymVectorEnv):
    """N games of one variant; each step plays one action per game.

    - reset(seed) starts all games; game i draws its setups from its own stream made
      from (seed, i), so results do not depend on num_threads.
    - step(actions) plays actions[i] (in the acting player's frame) in game i and
      returns (obs, reward, terminated, truncated, info) for the player to move next.
      reward[i] is the reward of the player who acted (+1 win, -1 loss, 0 otherwise).
    - info["acted"][i] is the player who acted in game i in the last step (-1: none,
      its action was ignored), info["rewards"][i] what red and blue received in it: a
      loss arrives on the winner's step (see stratego.selfplay for per-player returns).
    - Every end of a game is a rule of the game, the move caps included (a draw):
      terminated, never truncated (truncated is left to outside limits such as
      Gymnasium's TimeLimit).
    - autoreset_mode, as Gymnasium 1.x defines it (gymnasium.vector.AutoresetMode):
      SAME_STEP (default): finished games reset at once; info["final_obs"] holds the
      last observation of each game that ended (rows where info["_final_obs"]; the
      view of the player who would move next, or with final_views="both" red's and
      blue's), and info["final_info"] its winner, reason and length. NEXT_STEP: obs
      shows the final position; the next step ignores that game's action and starts a
      new game (reward 0, not terminated). DISABLED: a finished game stays over, its
      actions ignored, until reset(options={"reset_mask": mask}).
    - illegal_action="raise" (default): an illegal action raises ValueError naming the
      game, and no game changes. "lose": the player who sent it loses that game.
    - observations=False skips the observation tensors (obs is None): for pure
      simulation. views="both" returns both players' views, shape (N, 2, C, 10, 10).
      full_obs=True adds info["full_obs"], the full-information view (true types; for
      centralized critics and debugging, never for a player's policy).
      action_mask=False stops writing the legal mask (info["action_mask"] is None):
      for benchmarks of the bare step; sample_actions() then generates moves.
    - obs_format="codes" gives each view as a few uint8 codes (stratego.compact: one a
      square, then counts, progress and the latest plies), shape (N, L) or (N, 2, L);
      stratego.expand_observation turns them into exactly the planes (NumPy or PyTorch,
      on a GPU). With belief=True the observation is a dict {"codes", "belief"}, the
      belief planes a float32 block (N, [2,] 12, 10, 10). full_obs then gives codes too,
      (N, 100) (stratego.expand_full_observation).
    - mask_format="bits" packs info["action_mask"] 8 actions a byte, (N, ceil(A / 8))
      uint8 in np.unpackbits(bitorder="little") order (stratego.unpack_mask);
      sample_actions() reads it as it reads the bool mask.
    - setup="human" draws each side's setup from the human setups of the Gravon
      server (classic and barrage piece sets), per game from its own stream.
    - opponent="random" or "heuristic" (a bot in C, stratego.BOTS) turns every game into
      a learner against that bot: step() plays the learner's action and the bot's
      replies in C, and obs, mask, reward and to_play (the learner's colour) are the
      learner's only; reward +1 win, -1 loss, 0 draw at the end of a game, including a
      loss on the bot's reply; final_obs is the learner's last view. learner_color:
      "red", "blue", "random" (per episode, from the game's stream) or "alternate"
      (even slots start red, odd ones blue, and each slot flips every episode). An
      episode that the bot's opening plies would end before the learner's first move
      is drawn again, never handed out (docs/agents.md).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": ["ansi"]}

    def __init__(
        self,
        num_envs: int,
        variant: str | Variant = "classic",
        *,
        num_threads: int = 0,
        illegal_action: str = "raise",
        seed: int | None = None,
        observations: bool = True,
        obs_dtype: str = "uint8",
        history_k: int = 4,
        belief: bool = False,
        views: str = "to_play",
        full_obs: bool = False,
        action_mask: bool = True,
        setup: str = "random",
        opponent: str | None = None,
        learner_color: str = "alternate",
        obs_format: str = "planes",
        mask_format: str = "bool",
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
        final_views: str | None = None,
        **settings: int,
    ):
        if isinstance(num_envs, bool) or not hasattr(type(num_envs), "__index__"):
            raise TypeError(f"num_envs must be an int, got {type(num_envs).__name__}")
        num_envs = operator.index(num_envs)
        if not 1 <= num_envs <= MAX_ENVS:
            raise ValueError(f"num_envs must be in [1, {MAX_ENVS}], got {num_envs}")
        check_one_of("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        check_one_of("obs_dtype", obs_dtype, OBS_DTYPES)
        check_one_of("views", views, VIEWS)
        autoreset_mode = _autoreset_mode(autoreset_mode)
        final_views = views if final_views is None else final_views
        if final_views not in VIEWS:
            raise ValueError(f"final_views must be one of {sorted(VIEWS)} or None (as views), got {final_views!r}")
        # history_k and belief are checked once, in C (channel_names and _core.Batch), so
        # Game and VecEnv raise the same exception for the same fault.
        check_one_of("obs_format", obs_format, OBS_FORMATS)
        check_one_of("mask_format", mask_format, MASK_FORMATS)
        codes = obs_format == "codes"
        if codes and obs_dtype != "uint8":
            raise ValueError("obs_format='codes' is uint8; expand_observation(codes, dtype='float32') gives float planes")
        self.variant = load_variant(variant, **settings)
        if setup not in ("random", "human"):
            raise ValueError(f"setup must be 'random' or 'human', got {setup!r}")
        if opponent is not None and opponent not in _core.BOT_NAMES:
            raise ValueError(f"opponent must be None (two players) or one of the bots {list(_core.BOT_NAMES)}, "
                             f"got {opponent!r}")
        check_one_of("learner_color", learner_color, LEARNER_COLORS)
        self.opponent, self.learner_color = opponent, learner_color
        self.setup = setup
        setups = human_setups(self.variant) if setup == "human" else None
        n = self.num_envs = int(num_envs)
        num_actions = self.num_actions = self.variant.num_actions
        self.illegal_action = illegal_action
        self._mode = ILLEGAL_ACTION_MODES[illegal_action]
        channels = channel_names(history_k, belief)  # checks history_k even without observations
        self.observation_channels = channels if observations else ()
        self.observation_version = OBSERVATION_VERSION
        self.history_k, self.belief, self.views = history_k, bool(belief), views
        self.obs_format, self.mask_format = obs_format, mask_format
        lead = (n,) if views == "to_play" else (n, 2)
        final_lead = (n,) if final_views == "to_play" else (n, 2)
        dtype = OBS_DTYPES[obs_dtype]
        # One view's shape is the C spec's ((C, 10, 10) planes, (L,) codes), after the
        # leading (2,) of views="both".
        view_shape = _core.observation_shape(history_k, bool(belief), codes)
        obs_shape = lead[1:] + view_shape
        final_shape = final_lead[1:] + view_shape
        # obs and final_obs
        obs_bytes = (int(np.prod(obs_shape)) + int(np.prod(final_shape))) * np.dtype(dtype).itemsize
        if codes:
            belief_view = _core.observation_shape(history_k, True, True, True)
            belief_shape = lead[1:] + belief_view
            final_belief_shape = final_lead[1:] + belief_view
            if belief:  # each with its float32 belief block
                obs_bytes += 4 * (int(np.prod(belief_shape)) + int(np.prod(final_belief_shape)))
        mask_width = mask_bytes(num_actions) if mask_format == "bits" else num_actions
        full_shape = _core.full_observation_shape(codes)
        _check_memory(n, _bytes_per_game(mask_width, obs_bytes if observations else 0,
                                         int(np.prod(full_shape)) if full_obs else 0))
        try:
            self.action_mask = np.zeros((n, mask_width), dtype=np.uint8 if mask_format == "bits" else np.bool_)
            self.rewards = np.zeros((n, 2), dtype=np.float32)
            self.reward = np.zeros(n, dtype=np.float32)
            self.terminated = np.zeros(n, dtype=np.bool_)
            self.truncated = np.zeros(n, dtype=np.bool_)
            self.to_play = np.zeros(n, dtype=np.int8)
            self.final_winner = np.full(n, -1, dtype=np.int8)
            self.final_reason = np.zeros(n, dtype=np.uint8)
            self.final_plies = np.zeros(n, dtype=np.int32)
            self.obs = np.zeros((n, *obs_shape), dtype=dtype) if observations else None
            self.final_obs = np.zeros((n, *final_shape), dtype=dtype) if observations else None
            self.acted = np.full(n, -1, dtype=np.int8)
            self._over = np.zeros(n, dtype=np.bool_)
            self._acting = np.zeros(n, dtype=np.int8)
            self._reset_mask = np.zeros(n, dtype=np.bool_)
            with_belief = observations and codes and belief
            self.belief_obs = np.zeros((n, *belief_shape), np.float32) if with_belief else None
            self.final_belief_obs = np.zeros((n, *final_belief_shape), np.float32) if with_belief else None
            self.full_obs = np.zeros((n, *full_shape), np.uint8) if full_obs else None
            self._sampled = np.zeros(n, dtype=np.int64)
            self._finished = np.zeros(n, dtype=np.bool_)
        except (MemoryError, ValueError) as exc:
            raise MemoryError(f"cannot allocate the buffers of {n} games: {exc}") from None
        self._batch = _core.Batch(
            n, _resolve_threads(num_threads), self.variant.rules,
            self.action_mask, self.rewards, self.reward, self.terminated, self.truncated,
            self.to_play, self.final_winner, self.final_reason, self.final_plies,
            obs=self.obs, final_obs=self.final_obs, full_obs=self.full_obs,
            obs_views=VIEWS[views] if observations else 0,
            history_k=history_k, probabilities=bool(belief), as_float=dtype == np.float32,
            write_mask=bool(action_mask), setups=setups,
            opponent=-1 if opponent is None else _core.BOT_NAMES.index(opponent),
            learner_mode=LEARNER_COLORS[learner_color],
            final_views=VIEWS[final_views] if observations else 0, autoreset=AUTORESET_MODES[autoreset_mode],
            belief=self.belief_obs, final_belief=self.final_belief_obs, obs_codes=codes,
            mask_bits=mask_format == "bits", full_codes=codes,
        )
        self.autoreset_mode = autoreset_mode
        self.metadata = {**self.metadata, "autoreset_mode": autoreset_mode}
        if not action_mask:
            self.action_mask = None
        high = 255 if dtype == np.uint8 else np.float32(255)
        if not observations:
            single = spaces.Box(0, 0, (0,), np.uint8)
        elif self.belief_obs is not None:
            single = spaces.Dict({"codes": spaces.Box(0, 255, obs_shape, np.uint8),
                                  "belief": spaces.Box(0, 1, belief_shape, np.float32)})
        else:
            single = spaces.Box(0, high, obs_shape, dtype)
        self.single_observation_space = single
        if not observations:
            self.observation_space = single
        elif self.belief_obs is not None:
            self.observation_space = spaces.Dict({"codes": spaces.Box(0, 255, (n, *obs_shape), np.uint8),
                                                  "belief": spaces.Box(0, 1, (n, *belief_shape), np.float32)})
        else:
            self.observation_space = spaces.Box(0, high, (n, *obs_shape), dtype)
        self.single_action_space = spaces.Discrete(num_actions)
        self.action_space = spaces.MultiDiscrete(np.full(n, num_actions, dtype=np.int64))
        self.render_mode = "ansi"
        if seed is not None:
            self.reset(seed=seed)

    # -- Gymnasium API -----------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Starts every game anew. Returns (obs, info).

        options={"reset_mask": mask} (a bool array of shape (num_envs,), Gymnasium's
        convention) starts only the games where mask is True: their streams go on, or
        are seeded from (seed, i) as a full reset would when seed is given; the other
        games, their outputs and the counters are left as they are.
        """
        options = dict(options or {})
        reset_mask = options.pop("reset_mask", None)
        if options:
            raise ValueError(f"reset takes only the option 'reset_mask', got {sorted(options)}")
        if reset_mask is not None:
            return self._reset_some(reset_mask, seed)
        seed = resolve_seed(seed)
        self._batch.reset(seed)
        self._np_random_seed = seed
        self._over[:] = False
        self._set_acted(np.full(self.num_envs, -1, dtype=np.int8))
        return self._observation(), self._info(finished=False)

    def _reset_some(self, reset_mask, seed):
        if not isinstance(reset_mask, np.ndarray) or reset_mask.dtype != np.bool_:
            raise TypeError(f"options['reset_mask'] must be a numpy bool array, got "
                            f"{getattr(reset_mask, 'dtype', type(reset_mask).__name__)}")
        if reset_mask.shape != (self.num_envs,):
            raise ValueError(f"options['reset_mask'] must have shape ({self.num_envs},), got {reset_mask.shape}")
        seed = None if seed is None else resolve_seed(seed)
        # A private copy: C reads it with the GIL released.
        np.copyto(self._reset_mask, reset_mask)
        self._batch.reset_some(self._reset_mask, seed)
        self._over[self._reset_mask] = False
        self._set_acted(np.where(self._reset_mask, np.int8(-1), self.acted))
        return self._observation(), self._info(finished=False)

    def step(self, actions):
        """Plays one action per game. Returns (obs, reward, terminated, truncated, info)."""
        if not isinstance(actions, np.ndarray):
            actions = np.asarray(actions)
        elif isinstance(actions, _MaskedArray):
            # Its data would be played with the mask ignored: masked games have no action.
            raise TypeError("actions must be a plain numpy array, got a masked array: every game "
                            "needs an action (fill the masked entries first, e.g. .filled(a))")
        # Who acts: the player to move, except in games over since an earlier step
        # (NEXT_STEP, DISABLED), whose actions are ignored. Written after the step, so a
        # refused step leaves it as it was.
        acting = self._acting  # a buffer of its own: no allocation per step
        np.copyto(acting, self.to_play)
        np.copyto(acting, -1, where=self._over)
        self._batch.step(actions, self._mode)
        self._set_acted(acting)
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            np.copyto(self._over, self.terminated)
        elif self.autoreset_mode == AutoresetMode.DISABLED:
            self._over |= self.terminated
        return self._observation(), self.reward, self.terminated, self.truncated, self._info(finished=True)

    @property
    def over(self) -> np.ndarray:
        """Games that have ended and not started again (NEXT_STEP until the next step,
        DISABLED until a reset); never any under SAME_STEP. A copy."""
        return self._over.copy()

    def render(self):
        """The full board of game 0 as text (see Game.render for one player's view)."""
        from .render import render_cells
        return render_cells(self._batch.game(0).cells())  # the full board

    def close_extras(self, **kwargs) -> None:
        self._batch.close()

    # -- extras ------------------------------------------------------------------
    @property
    def num_threads(self) -> int:
        return self._batch.num_threads

    @num_threads.setter
    def num_threads(self, value: int) -> None:
        self._batch.num_threads = _resolve_threads(value)

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action for each game (C, per-game streams)."""
        self._batch.sample_actions(self._sampled)
        return self._sampled

    def bot_actions(self, name: str) -> np.ndarray:
        """The action bot `name` ("random" or "heuristic", see stratego.BOTS) plays in
        each game for its player to move: int64, one per game, computed in C with the
        GIL released; not played (pass them to step).

        Each bot sees only its player's view and legal actions (never the env's mask
        buffer, which a caller may narrow). Random choices come from each game's
        sampler stream, seeded from (seed, game index), the stream sample_actions()
        draws on: bot_actions("random") is what sample_actions() gives with the engine's
        mask. The returned array is overwritten by the next call, like sample_actions.
        """
        self._batch.bot_actions(name, self._sampled)
        return self._sampled

    def stats(self) -> dict:
        """Counters of the games finished since the last reset, and their checksum."""
        return self._batch.stats()

    def save_state(self) -> bytes:
        """Every game, random stream and counter, as bytes (docs/api.md, "Saves").

        The save names what the games depend on: format version, rule settings, piece
        set, setup source and num_envs. load_state() of it, into this env or another
        with the same of these, continues exactly as this env would; the observation
        settings may differ (observations are recomputed). The payload is this engine
        build's memory layout: not for other builds or machines.
        """
        return self._batch.save()

    def load_state(self, data: bytes) -> tuple:
        """Restores save_state() bytes, checked completely first: a corrupt save, or one
        made under other rules, piece set, setups or num_envs, raises ValueError naming
        the difference and changes nothing. Returns (obs, info) for the restored games."""
        self._batch.restore(data)
        # Finished games (NEXT_STEP, DISABLED) are saved as they are: a game that goes on
        # always has a legal action, so the written mask (bool or packed) tells them apart.
        if self.action_mask is not None:
            np.logical_not(self.action_mask.any(axis=1), out=self._over)
        else:
            self._over[:] = [self._batch.game(i).status()[1] for i in range(self.num_envs)]
        self._set_acted(np.full(self.num_envs, -1, dtype=np.int8))
        return self._observation(), self._info(finished=False)

    def game_field(self, index: int) -> str:
        """The board of game `index` as 100 Gravon letters."""
        return self._batch.game(index).field()

    def _set_acted(self, values: np.ndarray) -> None:
        """info["acted"] is written in Python after the C step: a caller who made it
        read-only keeps it as it was and gets a new array (as with _final_info)."""
        if self.acted.flags.writeable:
            self.acted[:] = values
        else:
            self.acted = values.astype(np.int8, copy=True)

    def _observation(self, final: bool = False):
        """The observation buffers: one array, or the codes and their belief block."""
        obs = self.final_obs if final else self.obs
        if self.belief_obs is None:
            return obs
        return {"codes": obs, "belief": self.final_belief_obs if final else self.belief_obs}

    def _info(self, finished: bool) -> dict:
        info = {"action_mask": self.action_mask, "to_play": self.to_play, "rewards": self.rewards, "acted": self.acted}
        if self.full_obs is not None:
            info["full_obs"] = self.full_obs
        if finished:
            # Into a buffer of its own, like every other output: no allocation per step.
            try:
                done = np.logical_or(self.terminated, self.truncated, out=self._finished)
            except ValueError:
                # The caller made it read-only: the step has been played, so rather than
                # lose its results, hand out a new buffer and never write the frozen one.
                if self._finished.flags.writeable:
                    raise
                self._finished = np.zeros_like(self._finished)
                done = np.logical_or(self.terminated, self.truncated, out=self._finished)
            if done.any():
                info["final_info"] = {
                    "winner": self.final_winner,
                    "reason": self.final_reason,
                    "plies": self.final_plies,
                }
                info["_final_info"] = done
                # Gymnasium gives final_obs under SAME_STEP only: in the other modes
                # obs itself holds the final position.
                if self.final_obs is not None and self.autoreset_mode == AutoresetMode.SAME_STEP:
                    info["final_obs"] = self._observation(final=True)
                    info["_final_obs"] = done
        return info

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _autoreset_mode(mode) -> AutoresetMode:
    """An AutoresetMode from the enum, its name in any case ("next_step") or its value
    ("NextStep")."""
    if isinstance(mode, AutoresetMode):
        return mode
    names = {m.value: m for m in AutoresetMode} | {m.name.lower(): m for m in AutoresetMode}
    if isinstance(mode, str) and (mode in names or mode.lower() in names):
        return names.get(mode) or names[mode.lower()]
    raise ValueError(f"autoreset_mode must be a gymnasium.vector.AutoresetMode or one of "
                     f"{sorted(m.name.lower() for m in AutoresetMode)}, got {mode!r}")
