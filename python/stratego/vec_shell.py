"""The game-agnostic half of a vector env over a C batch (csrc/engine/vec.h).

`VecShell` is what `VecEnv` and any second game's vector env share: the outputs the C
batch writes in place (allocated once: zero copy), Gymnasium's reset, reset_mask, step
and autoreset bookkeeping (who acted, which games are over), the info dict with
final_info and final_obs, sampling, statistics and close. A game's env sets
`self._batch` (its binding's batch, built on csrc/python/vec_binding.h),
`self._mode` (ILLEGAL_RAISE or ILLEGAL_LOSES) and `self.autoreset_mode`, allocates the
outputs with `_allocate_outputs` from its batch type's `layout()` (C's answer: every
array's name, shape, dtype and bytes; csrc/python/batch_glue.h), counts memory with
`layout_bytes_per_game` and adds its own spaces, settings and extras.
"""
from __future__ import annotations

import os

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv as GymVectorEnv
from gymnasium.vector.utils import batch_space as gym_batch_space

from . import _core
from .common.seeding import resolve_seed
from .common.threads import resolve_num_threads

# The modes as every game's batch takes them (AUTORESET_* of csrc/engine/vec.h).
AUTORESET_MODES = {
    AutoresetMode.SAME_STEP: _core.AUTORESET_SAME_STEP,
    AutoresetMode.NEXT_STEP: _core.AUTORESET_NEXT_STEP,
    AutoresetMode.DISABLED: _core.AUTORESET_DISABLED,
}
_MaskedArray = np.ma.MaskedArray  # looked up once: step() refuses these


def check_memory(num_envs: int, per_game: int, what: str = "games",
                  advice: str = "use fewer games or no observations") -> None:
    """MemoryError, before anything is allocated, when the games (or `what`: worlds)
    cannot fit in this machine's memory (rather than the allocation failing late or the
    OS killing us); `advice` says what to change."""
    try:
        physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return
    need = num_envs * per_game
    if need > physical:
        raise MemoryError(
            f"{num_envs} {what} need {need / 2**30:.1f} GiB ({per_game} bytes each), more than "
            f"this machine's {physical / 2**30:.1f} GiB of memory; {advice}"
        )


# The shell's own buffers of one entry a game, beside the batch's outputs (attribute,
# dtype, fill): who acted, which games are over, the acting seats of a step, the private
# copy of a caller's mask over the games (reset_mask, bot_actions' games), the sampled
# actions and the finished games of a step.
SHELL_BUFFERS = (("acted", np.int8, -1), ("_over", np.bool_, 0), ("_acting", np.int8, 0),
                 ("_games_mask", np.bool_, 0), ("_sampled", np.int64, 0), ("_finished", np.bool_, 0))
# The attribute an output is kept under where it is not the batch's keyword.
OUTPUT_ATTRIBUTES = {"mask": "action_mask", "belief": "belief_obs", "final_belief": "final_belief_obs"}
# Outputs filled before the first reset writes them: no game has a winner yet.
_OUTPUT_FILLS = {"final_winner": -1}


def layout_bytes_per_game(layout: dict, num_envs: int) -> int:
    """The memory one game of a batch takes: its share of every output array and of what
    the batch holds itself (both C's answer, `layout()`), and the shell's buffers."""
    total = sum(nbytes for _, _, nbytes in layout["arrays"].values()) + layout["held_bytes"]
    return total // num_envs + sum(np.dtype(dtype).itemsize for _, dtype, _ in SHELL_BUFFERS)


class BatchBox(spaces.Box):
    """The Box of `num_envs` observations of one game's Box `single`: the space
    gymnasium.vector.utils.batch_space makes (same shape, dtype and bounds element for
    element, equal to it), but its bounds are read-only views of single's
    (np.broadcast_to), not arrays of num_envs rows. Gymnasium's Box keeps low, high,
    bounded_below and bounded_above at full size, four bytes for each byte of uint8
    observations, plus temporaries while it builds them: more than the observations
    themselves, and not in the memory check (issue 26: VecEnv(20000) peaked at about 5x
    its estimate). Pickles and copies as (single, num_envs) and its random generator
    (np_random, when seeded or drawn from), so that a copy samples as the space does, as a
    copy of Gymnasium's Box does."""

    def __init__(self, single: spaces.Box, num_envs: int):
        # Box's own checks of the bounds, on one row.
        super().__init__(single.low[np.newaxis], single.high[np.newaxis], dtype=single.dtype)
        shape = (int(num_envs), *single.shape)
        self._shape = shape
        self.low = np.broadcast_to(single.low, shape)
        self.high = np.broadcast_to(single.high, shape)
        self.bounded_below = np.broadcast_to(single.bounded_below, shape)
        self.bounded_above = np.broadcast_to(single.bounded_above, shape)
        self.single = single

    def __reduce__(self):
        # The bounds are rebuilt from single (views, not num_envs rows); the generator's
        # state travels as Gymnasium's Box pickles it, in the instance's __dict__.
        return type(self), (self.single, self.shape[0]), {"_np_random": self._np_random}


def batch_space(single: spaces.Space, num_envs: int) -> spaces.Space:
    """The observation space of num_envs games of one game's space `single`, as
    gymnasium.vector.utils.batch_space makes it, with every Box a BatchBox (a Dict's
    too): no part of the space grows with num_envs but its shape."""
    if isinstance(single, spaces.Box):
        return BatchBox(single, num_envs)
    if isinstance(single, spaces.Dict):
        return spaces.Dict({key: batch_space(space, num_envs) for key, space in single.spaces.items()})
    return gym_batch_space(single, num_envs)


def fixed_array(shape, dtype, fill=0) -> np.ndarray:
    """A new array filled with `fill` that nothing can resize, for the buffers C keeps a
    pointer to (the outputs, the sampler's): its memory is a bytearray's, which refuses
    to change size while an array holds it, and the array does not own that memory, so
    `resize(..., refcheck=False)` raises ValueError, as for any NumPy view, instead of
    freeing what C goes on writing into."""
    dtype = np.dtype(dtype)
    shape = tuple(int(d) for d in shape)
    array = np.frombuffer(bytearray(int(np.prod(shape)) * dtype.itemsize), dtype).reshape(shape)
    if fill:
        array.fill(fill)
    return array


class _Claim:
    """`with _Claim(batch):` the calling thread holds the batch (its binding's claim(),
    csrc/python/vec_binding.h) until the block ends: another thread's call is refused,
    with "used by another thread", before it writes anything the block writes or reads
    (the shell's buffers, the outputs). Arguments are converted before it: a conversion
    may call this env again from this thread."""

    __slots__ = ("batch",)

    def __init__(self, batch):
        self.batch = batch

    def __enter__(self) -> None:
        self.batch.claim()

    def __exit__(self, *exc) -> None:
        self.batch.release()


class VecShell(GymVectorEnv):
    """The parts of a vector env that know no game (module docstring)."""

    # What _allocate_outputs sets from the batch's layout: the nine outputs of every
    # game's batch, the observations (None, the class's, where the layout leaves them
    # out) and the shell's own buffers (SHELL_BUFFERS).
    action_mask: np.ndarray
    rewards: np.ndarray
    reward: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    to_play: np.ndarray
    final_winner: np.ndarray
    final_reason: np.ndarray
    final_plies: np.ndarray
    obs: np.ndarray | None = None
    final_obs: np.ndarray | None = None
    acted: np.ndarray
    _over: np.ndarray
    _acting: np.ndarray
    _games_mask: np.ndarray
    _sampled: np.ndarray
    _finished: np.ndarray

    def _allocate_outputs(self, layout: dict) -> dict:
        """Allocates every array the batch writes in place, as its layout() gives them
        (csrc/python/batch_glue.h), under its attribute (OUTPUT_ATTRIBUTES, else its
        name), and the shell's own buffers; an output the layout leaves out stays the
        class's None. Returns the outputs by the keywords the batch takes them by.
        MemoryError, naming the games, if they do not fit."""
        n = self.num_envs
        arrays = {}
        try:
            for name, (shape, dtype, _) in layout["arrays"].items():
                arrays[name] = fixed_array(shape, dtype, _OUTPUT_FILLS.get(name, 0))
            for attribute, dtype, fill in SHELL_BUFFERS:
                setattr(self, attribute, fixed_array((n,), dtype, fill))
        except (MemoryError, ValueError) as exc:
            raise MemoryError(f"cannot allocate the buffers of {n} games: {exc}") from None
        for name, array in arrays.items():
            setattr(self, OUTPUT_ATTRIBUTES.get(name, name), array)
        return arrays

    def _outputs(self) -> tuple:
        """The nine outputs in the order every game's binding takes them (vec_binding.h)."""
        return (self.action_mask, self.rewards, self.reward, self.terminated, self.truncated, self.to_play,
                self.final_winner, self.final_reason, self.final_plies)

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
        with _Claim(self._batch):
            self._batch.reset(seed)
            self._np_random_seed = seed
            self._batch.games_over(self._over)
            self._set_acted(np.full(self.num_envs, -1, dtype=np.int8))
            return self._observation(), self._info(finished=False)

    def _check_games_mask(self, mask, what: str) -> None:
        """Refuses anything but a numpy bool array of shape (num_envs,) (TypeError,
        ValueError naming `what`)."""
        if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_:
            raise TypeError(f"{what} must be a numpy bool array of shape ({self.num_envs},), got "
                            f"{getattr(mask, 'dtype', type(mask).__name__)}")
        if mask.shape != (self.num_envs,):
            raise ValueError(f"{what} must have shape ({self.num_envs},), got {mask.shape}")

    def _bot_actions(self, name: str, games) -> np.ndarray:
        """Both games' bot_actions: bot `name`'s action in each game, or in those `games`
        marks (-1 in the others, whose streams are not drawn on)."""
        if games is None:
            self._batch.bot_actions(name, self._sampled)
            return self._sampled
        self._check_games_mask(games, "games")
        with _Claim(self._batch):
            # A private copy: C reads it with the GIL released.
            np.copyto(self._games_mask, games)
            self._batch.bot_actions(name, self._sampled, self._games_mask)
        return self._sampled

    def _reset_some(self, reset_mask, seed):
        self._check_games_mask(reset_mask, "options['reset_mask']")
        seed = None if seed is None else resolve_seed(seed)
        with _Claim(self._batch):
            # A private copy: C reads it with the GIL released.
            np.copyto(self._games_mask, reset_mask)
            self._batch.reset_some(self._games_mask, seed)
            self._batch.games_over(self._over)
            self._set_acted(np.where(self._games_mask, np.int8(-1), self.acted))
            return self._observation(), self._info(finished=False)

    def step(self, actions):
        """Plays one action per game. Returns (obs, reward, terminated, truncated, info)."""
        if not isinstance(actions, np.ndarray):
            actions = np.asarray(actions)
        elif isinstance(actions, _MaskedArray):
            # Its data would be played with the mask ignored: masked games have no action.
            raise TypeError("actions must be a plain numpy array, got a masked array: every game "
                            "needs an action (fill the masked entries first, e.g. .filled(a))")
        with _Claim(self._batch):
            # Who acts: the player to move, except in games over since an earlier step
            # (NEXT_STEP, DISABLED; the engine's games_over), whose actions are ignored.
            # Written after the step, so a refused step leaves it as it was.
            acting = self._acting  # a buffer of its own: no allocation per step
            np.copyto(acting, self.to_play)
            np.copyto(acting, -1, where=self._over)
            self._batch.step(actions, self._mode)
            self._set_acted(acting)
            self._batch.games_over(self._over)
            return self._observation(), self.reward, self.terminated, self.truncated, self._info(finished=True)

    def _restore(self, data: bytes):
        """load_state of every game's env: the batch's restore (checked completely first:
        a refused save changes nothing), then (obs, info) as a reset gives them."""
        with _Claim(self._batch):
            self._batch.restore(data)
            # Finished games (NEXT_STEP, DISABLED) are saved as they are.
            self._batch.games_over(self._over)
            self._set_acted(np.full(self.num_envs, -1, dtype=np.int8))
            return self._observation(), self._info(finished=False)

    @property
    def over(self) -> np.ndarray:
        """Games that have ended and not started again (NEXT_STEP until the next step,
        DISABLED until a reset); never any under SAME_STEP. A copy."""
        return self._over.copy()

    def close_extras(self, **kwargs) -> None:
        # A constructor that raised left no batch; Gymnasium's __del__ still closes.
        batch = getattr(self, "_batch", None)
        if batch is not None:
            batch.close()

    # -- extras ------------------------------------------------------------------
    @property
    def num_threads(self) -> int:
        return self._batch.num_threads

    @num_threads.setter
    def num_threads(self, value: int) -> None:
        self._batch.num_threads = resolve_num_threads(value)

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action for each game (C, per-game streams)."""
        self._batch.sample_actions(self._sampled)
        return self._sampled

    def stats(self) -> dict:
        """Counters of the games finished since the last reset, and their checksum."""
        return self._batch.stats()

    def _set_acted(self, values: np.ndarray) -> None:
        """info["acted"] is written in Python after the C step: a caller who made it
        read-only keeps it as it was and gets a new array (as with _final_info)."""
        if self.acted.flags.writeable:
            self.acted[:] = values
        else:
            self.acted = fixed_array(values.shape, np.int8)
            self.acted[:] = values

    def _observation(self, final: bool = False):
        """The observation buffer (final: the final observations); a game with more than
        one array a view overrides it."""
        return self.final_obs if final else self.obs

    def _turn_info(self, info: dict) -> None:
        """Adds a game's own outputs of the turn to info (Stratego: the full view)."""

    def _info(self, finished: bool) -> dict:
        """info of a reset or step: the mask, seat to move, per-seat rewards and who acted;
        after a step, final_info (winner, reason, plies) and final_obs of the games that
        ended, flagged by _final_info / _final_obs as Gymnasium's vector envs do."""
        info = {"action_mask": self.action_mask, "to_play": self.to_play, "rewards": self.rewards, "acted": self.acted}
        self._turn_info(info)
        if finished:
            # Into a buffer of its own, like every other output: no allocation per step.
            try:
                done = np.logical_or(self.terminated, self.truncated, out=self._finished)
            except ValueError:
                # The caller made it read-only: the step has been played, so rather than
                # lose its results, hand out a new buffer and never write the frozen one.
                if self._finished.flags.writeable:
                    raise
                self._finished = fixed_array(self._finished.shape, np.bool_)
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
