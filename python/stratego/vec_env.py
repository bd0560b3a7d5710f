"""`VecEnv`: thousands of games stepped together in C, a Gymnasium `VectorEnv`.

The arrays are allocated once and overwritten in place by every reset and step (zero
copy): copy what you keep across steps.
"""
from __future__ import annotations

import operator

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from .common.arguments import check_one_of
from . import _core
from .observation import OBSERVATION_VERSION
from .deploy import parse_setup
from .records.recording import RecordedGames
from .common.seeding import resolve_seed
from .variants import Variant, load_variant
from .common.threads import resolve_num_threads
from .common.arguments import check_autoreset_mode
from .vec_shell import AUTORESET_MODES, VecShell, batch_space, check_memory, fixed_array, layout_bytes_per_game

ILLEGAL_ACTION_MODES = {"raise": _core.ILLEGAL_RAISE, "lose": _core.ILLEGAL_LOSES}
END_REASONS: tuple[str, ...] = _core.END_REASONS
VIEWS = {"to_play": 1, "both": 2}
LEARNER_COLORS = {name: mode for mode, name in enumerate(_core.LEARNER_COLORS)}
OBS_DTYPES = {"uint8": np.uint8, "float32": np.float32}
MAX_ENVS: int = _core.MAX_ENVS
OBS_FORMATS = ("planes", "codes")
MASK_FORMATS = ("bool", "bits")


class VecEnv(VecShell):
    """N games of one variant; each step plays one action per game.

    - reset(seed) starts all games; game i draws its setups from its own stream made
      from (seed, i), so results do not depend on num_threads.
    - step(actions) plays actions[i] (in the acting player's frame) in game i and
      returns (obs, reward, terminated, truncated, info) for the player to move next.
      reward[i] is the reward of the player who acted (+1 win, -1 loss, 0 otherwise).
    - info["acted"][i] is the player who acted in game i in the last step (-1: none,
      its action was ignored), info["rewards"][i] what red and blue received in it: a
      loss arrives on the winner's step (see stratego.agents.selfplay for per-player returns).
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
      setup="agent": every game starts with a deployment phase, one placement a step
      (actions 2200 + type * 50 + h, the action space reaching through that block),
      info["deploying"] says which games are in it, and the observation has the
      deployment planes (hand_<type>, deploying); a pair such as ("agent", "human")
      deploys one side only (docs/deployment.md). Against an opponent bot the pair is
      (the learner's, the bot's), whatever the colours; a bot that deploys places its
      pieces at random.
    - opponent="random" or "heuristic" (a bot in C, stratego.BOTS) turns every game into
      a learner against that bot: step() plays the learner's action and the bot's
      replies in C, and obs, mask, reward and to_play (the learner's colour) are the
      learner's only; reward +1 win, -1 loss, 0 draw at the end of a game, including a
      loss on the bot's reply; final_obs is the learner's last view. learner_color:
      "red", "blue", "random" (per episode, from the game's stream) or "alternate"
      (even slots start red, odd ones blue, and each slot flips every episode). An
      episode that the bot's opening plies would end before the learner's first move
      is drawn again, never handed out (docs/agents.md).
    - game_offset=k makes game i of this env game k + i of a larger run: its random
      streams, first learner colour and checksum term are that game's. Slices
      [k, k + num_envs) of one run, stepped apart (stratego.integrations.distributed's Ray actors),
      play exactly the games of one env of the whole run, and their stats() checksums
      add up (mod 2**64) to its checksum.
    - record=True keeps every game's start and actions in C (the bot's replies too) and
      hands the finished ones out with pop_records(), in the order they ended: for
      datasets of games (docs/recording.md). record_plies: the actions a game's record
      holds; by default the variant's exact bound (max_plies, twice that with the
      rescue rule); a variant without max_plies needs it given, and a game that plays
      more is recorded incomplete (RecordedGames.complete), never cut silently.
    """

    # Stratego's own outputs, set from the layout (None where it leaves them out).
    belief_obs: np.ndarray | None = None
    final_belief_obs: np.ndarray | None = None
    full_obs: np.ndarray | None = None

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
        game_offset: int = 0,
        record: bool = False,
        record_plies: int | None = None,
        **settings: int,
    ):
        num_envs = _core.check_num_envs(num_envs)  # checked in C, as the batch checks it
        check_one_of("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        check_one_of("obs_dtype", obs_dtype, OBS_DTYPES)
        check_one_of("views", views, VIEWS)
        autoreset_mode = check_autoreset_mode(autoreset_mode)
        final_views = views if final_views is None else final_views
        if final_views not in VIEWS:
            raise ValueError(f"final_views must be one of {sorted(VIEWS)} or None (as views), got {final_views!r}")
        # history_k and belief are checked once, in C (channel_names below), so Game and
        # VecEnv raise the same exception for the same fault.
        check_one_of("obs_format", obs_format, OBS_FORMATS)
        check_one_of("mask_format", mask_format, MASK_FORMATS)
        codes = obs_format == "codes"
        self.variant, setups, deploy = parse_setup(setup, load_variant(variant, **settings))
        self.deploy = deploy
        if opponent is not None and opponent not in _core.BOT_NAMES:
            # The bots step inside C; a policy (a zoo agent) plays from Python: StrategoEnv.
            hint = (" (a zoo agent is a policy, which VecEnv's C loop cannot play: use StrategoEnv(opponent=...) "
                    "or stratego.agents.arena.run_arena)") if isinstance(opponent, str) and opponent.startswith("zoo:") else ""
            raise ValueError(f"opponent must be None (two players) or one of the bots {list(_core.BOT_NAMES)}, "
                             f"got {opponent!r}{hint}")
        check_one_of("learner_color", learner_color, LEARNER_COLORS)
        self.opponent, self.learner_color = opponent, learner_color
        self.setup = setup
        n = self.num_envs = int(num_envs)
        num_actions = self.num_actions = self.variant.num_actions
        self.illegal_action = illegal_action
        self._mode = ILLEGAL_ACTION_MODES[illegal_action]
        # The one check (C) of history_k and of settings that do not go together (codes in
        # float32, belief planes in uint8), even without observations, before allocating.
        deploy_planes = bool(self.variant.settings.get("deploy", 0))
        channels = _core.channel_names(history_k, bool(belief), obs_dtype == "float32", codes, deploy_planes)
        self.observation_channels = channels if observations else ()
        self.observation_version = OBSERVATION_VERSION
        self.history_k, self.belief, self.views = history_k, bool(belief), views
        self.obs_format, self.mask_format = obs_format, mask_format
        dtype = OBS_DTYPES[obs_dtype]
        self.record_plies = _record_capacity(self.variant, record, record_plies)
        self.recording = self.record_plies > 0
        # The batch's options, given once to layout() and to the batch: C answers every
        # output's shape, dtype and bytes from them, and checks them, before allocating.
        options = dict(
            obs_views=VIEWS[views] if observations else 0, history_k=history_k, probabilities=bool(belief),
            as_float=dtype == np.float32, write_mask=bool(action_mask), setups=setups,
            opponent=-1 if opponent is None else _core.BOT_NAMES.index(opponent),
            learner_mode=LEARNER_COLORS[learner_color],
            final_views=VIEWS[final_views] if observations else 0, autoreset=AUTORESET_MODES[autoreset_mode],
            obs_codes=codes, mask_bits=mask_format == "bits", full_codes=codes, game_offset=game_offset,
            record_capacity=self.record_plies, deploy=deploy,
        )
        self.batch_layout = _core.Batch.layout(n, self.variant.rules, full_obs=bool(full_obs), **options)
        check_memory(n, layout_bytes_per_game(self.batch_layout, n))
        arrays = self._allocate_outputs(self.batch_layout)
        self._batch = _core.Batch(n, resolve_num_threads(num_threads), self.variant.rules, **arrays, **options)
        self.game_offset = int(game_offset)
        self._deploying = fixed_array((n,), np.bool_) if deploy_planes else None
        self.autoreset_mode = autoreset_mode
        self.metadata = {**self.metadata, "autoreset_mode": autoreset_mode}
        if not action_mask:
            self.action_mask = None
        high = 255 if dtype == np.uint8 else np.float32(255)
        if not observations:
            single = spaces.Box(0, 0, (0,), np.uint8)
        elif self.belief_obs is not None:
            single = spaces.Dict({"codes": spaces.Box(0, 255, arrays["obs"].shape[1:], np.uint8),
                                  "belief": spaces.Box(0, 1, arrays["belief"].shape[1:], np.float32)})
        else:
            single = spaces.Box(0, high, arrays["obs"].shape[1:], dtype)
        self.single_observation_space = single
        # Bounds that do not grow with n (vec_shell.BatchBox); without observations, the
        # empty Box of no observation.
        self.observation_space = batch_space(single, n) if observations else single
        self.single_action_space = spaces.Discrete(num_actions)
        self.action_space = spaces.MultiDiscrete(np.full(n, num_actions, dtype=np.int64))
        self.render_mode = "ansi"
        if seed is not None:
            self.reset(seed=seed)

    def render(self, index: int = 0, perspective: str | int | None = "full"):
        """Game `index` (0 by default, Gymnasium's render()) as text: "full" (or None)
        the whole board, "red"/"blue" (or 0/1) what that player knows, as Game.render."""
        from .viewing.render import parse_perspective, render_cells
        perspective = parse_perspective(perspective)
        if isinstance(index, bool):
            raise TypeError("index must be a game number (int), got bool")
        state = self._batch.game(index)  # checks index (and a closed env)
        view = None if perspective is None else state.view_cells(perspective)
        return render_cells(state.cells(), view, perspective)

    def bot_actions(self, name: str, games: np.ndarray | None = None) -> np.ndarray:
        """The action bot `name` ("random", "heuristic" or "pimc", see stratego.BOTS) plays in
        each game for its player to move: int64, one per game, computed in C with the
        GIL released; not played (pass them to step). `games`: a bool array (num_envs,)
        to ask only for the games it marks: the others get -1 and their streams are not
        drawn on (a batch whose games have different players asks each bot for its own
        games: PIMC's thousands of playouts a decision only where it plays).

        Each bot sees only its player's view and legal actions (never the env's mask
        buffer, which a caller may narrow). Random choices come from each game's
        sampler stream, seeded from (seed, game index), the stream sample_actions()
        draws on: bot_actions("random") is what sample_actions() gives with the engine's
        mask. The returned array is overwritten by the next call, like sample_actions.
        """
        return self._bot_actions(name, games)

    def sample_worlds(self, k: int, seed: int, players=None, out: np.ndarray | None = None, *,
                      skip: bool = False):
        """`k` worlds of every game that its player cannot tell from it (players: an
        array of N ints 0/1, or None for each game's player to move), drawn uniformly in
        C with the GIL released on the engine's threads (docs/sampling.md). Returns a new
        uint8 array (N, k, stratego.GAME_SAVE_BYTES): world j of game i is a game save,
        for Game.from_save(worlds[i, j], env.variant). Game i draws on its own stream of
        `seed`, so the worlds are the same for any thread count, and game 0's are those
        Game.sample_worlds(k, seed) gives for the same position. `out`: an array of that
        shape and dtype to write into instead of a new one (a search that samples every
        move reuses it; a new 6 MB array a call costs its page faults).

        A game cannot be sampled when it is finished (autoreset "next_step" and
        "disabled" keep finished games) or when `players` names the player not to move
        during the opponent's rescue choice. By default that is a ValueError naming the
        first such game: asked for every game's worlds, a caller gets all or an error.
        skip=True samples the others instead and returns (worlds, ok): ok a bool array
        of N, False for the games not sampled, whose rows of worlds are zeros."""
        if isinstance(k, bool) or not hasattr(type(k), "__index__"):
            raise TypeError(f"k must be an int in [1, {_core.SAMPLE_WORLDS_MAX}], got {type(k).__name__}")
        k = operator.index(k)
        if not 1 <= k <= _core.SAMPLE_WORLDS_MAX:
            raise ValueError(f"k must be an int in [1, {_core.SAMPLE_WORLDS_MAX}], got {k}")
        seed = resolve_seed(seed)
        n = self.num_envs
        if players is not None:
            players = np.ascontiguousarray(players)
            if players.shape != (n,) or players.dtype.kind not in "iu":
                raise ValueError(f"players must be {n} ints (one per game), got shape {players.shape} "
                                 f"dtype {players.dtype}")
            players = players.astype(np.int64)
        if out is None:
            check_memory(n * k, _core.GAME_SAVE_BYTES, "worlds",
                          f"use a smaller k (here {k} for each of {n} games)")
            out = np.empty((n, k, _core.GAME_SAVE_BYTES), dtype=np.uint8)
        failed = np.zeros(n, dtype=np.uint8)
        self._batch.sample_worlds(players, k, seed, out, failed, bool(skip))
        if not skip:
            return out
        ok = failed == 0
        out[~ok] = 0
        return out, ok

    def pop_records(self) -> RecordedGames:
        """The games finished since the last call (record=True), in the order they ended:
        by step, then by game index, whatever num_threads. Each finished game is handed
        out once; a game abandoned unfinished by reset() is not a record."""
        return RecordedGames(self._batch.pop_records(), self.variant)

    @property
    def records_waiting(self) -> int:
        """Finished games recorded and not yet handed out (0 when not recording)."""
        return self._batch.records_waiting

    def save_state(self) -> bytes:
        """Every game, random stream and counter, as bytes (docs/api.md, "Saves").

        The save names what the games depend on: format version, rule settings, piece
        set, setup source and num_envs. load_state() of it, into this env or another
        with the same of these, continues exactly as this env would; the observation
        settings may differ (observations are recomputed). A recording env's save holds
        the records of the games in progress (and loads only into an env with the same
        record_plies); with finished games waiting, pop_records() first (ValueError). The payload is this engine
        build's memory layout: not for other builds or machines.
        """
        return self._batch.save()

    def load_state(self, data: bytes) -> tuple:
        """Restores save_state() bytes, checked completely first: a corrupt save, or one
        made under other rules, piece set, setups or num_envs, raises ValueError naming
        the difference and changes nothing. Returns (obs, info) for the restored games."""
        return self._restore(data)

    def game_field(self, index: int) -> str:
        """The board of game `index` as 100 Gravon letters."""
        return self._batch.game(index).field()

    def _observation(self, final: bool = False):
        """The observation buffers: one array, or the codes and their belief block."""
        obs = self.final_obs if final else self.obs
        if self.belief_obs is None:
            return obs
        return {"codes": obs, "belief": self.final_belief_obs if final else self.belief_obs}

    def _turn_info(self, info: dict) -> None:
        if self._deploying is not None:
            # The engine's phase of each game (setup="agent").
            self._batch.deploying(self._deploying)
            info["deploying"] = self._deploying
        if self.full_obs is not None:
            info["full_obs"] = self.full_obs


def _record_capacity(variant: Variant, record, record_plies) -> int:
    """The actions a game's record holds (0: not recording), checked."""
    if not isinstance(record, (bool, np.bool_)):
        raise TypeError(f"record must be a bool, got {type(record).__name__}")
    if not record:
        if record_plies is not None:
            raise ValueError("record_plies is the size of each game's record: it needs record=True")
        return 0
    bound = _core.record_capacity_bound(variant.rules)
    if record_plies is None:
        if bound == 0:
            raise ValueError(
                f"variant {variant.name!r} has no max_plies, so its games have no length bound: pass "
                f"record_plies (actions a game's record holds, in [{_core.RECORD_CAPACITY_MIN}, "
                f"{_core.RECORD_CAPACITY_MAX}]); a longer game is recorded incomplete")
        return bound
    if isinstance(record_plies, (bool, np.bool_)) or not isinstance(record_plies, (int, np.integer)):
        raise TypeError(f"record_plies must be an int, got {type(record_plies).__name__}")
    if not _core.RECORD_CAPACITY_MIN <= record_plies <= _core.RECORD_CAPACITY_MAX:
        raise ValueError(f"record_plies must be in [{_core.RECORD_CAPACITY_MIN}, {_core.RECORD_CAPACITY_MAX}], "
                         f"got {record_plies}")
    return int(record_plies)

