"""`stratego.castle.VecEnv`: N castle games stepped together in C (docs/castle.md "The
batch"), a Gymnasium vector env on `stratego.vec_shell.VecShell` around `_core.CastleBatch`.

Each step gives the observation and legal mask of the seat to decide in each game
(`info["to_play"]`), and every seat's reward in `info["rewards"]`: +1 for the seat that
crowns (teams4: both seats of its team), -1 for the others, 0 for all in a draw. Reset,
step, autoreset, info (final_info, final_obs), sampling and statistics are the shell's.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from stratego import _core
from stratego.common.arrays import unpack_mask
from stratego.common.threads import resolve_num_threads
from stratego.common.arguments import check_autoreset_mode
from stratego.vec_shell import AUTORESET_MODES, VecShell, batch_space, check_memory, layout_bytes_per_game

from . import variants
from .observation import CHANNELS

OBS_FORMATS = {None: 0, "planes": 1, "codes": 2}
MASK_FORMATS = ("bool", "bits")


class VecEnv(VecShell):
    """`VecEnv(num_envs, mode="ffa4", *, variant=None, seed=None, num_threads=1,
    obs_format="planes", mask_format="bool", autoreset_mode="same_step", **settings)`.

    obs_format: "planes" (115, 15, 15) uint8, "codes" (280,) uint8 (expand with
    `stratego.castle.expand_observation`), or None. mask_format: "bool" (num_actions,) or
    "bits" (8 actions a byte, `stratego.unpack_mask`). Settings by keyword override the
    variant's (docs/castle.md "Settings"). Illegal actions raise ValueError."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, num_envs: int, mode: str | None = None, *, variant=None, seed: int | None = None,
                 num_threads: int = 1, obs_format: str | None = "planes", mask_format: str = "bool",
                 autoreset_mode=AutoresetMode.SAME_STEP, **settings):
        if not isinstance(num_envs, (int, np.integer)) or isinstance(num_envs, bool) or num_envs <= 0:
            raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
        if obs_format not in OBS_FORMATS:
            raise ValueError(f"obs_format must be 'planes', 'codes' or None, got {obs_format!r}")
        if mask_format not in MASK_FORMATS:
            raise ValueError(f"mask_format must be 'bool' or 'bits', got {mask_format!r}")
        if mode is not None:
            settings["mode"] = mode
        values = variants.load_settings(variant, **settings)
        n = self.num_envs = int(num_envs)
        self.settings = values
        self.mode = variants.MODES[values["mode"]]
        self.obs_format, self.mask_format = obs_format, mask_format
        self.autoreset_mode = check_autoreset_mode(autoreset_mode)
        self._mode = _core.ILLEGAL_RAISE
        geometry = _core.castle_geometry(values["mode"])
        self.num_actions = geometry["layout"]["actions"]
        self.num_players = geometry["seats"]
        settings_row = variants.settings_tuple(values)
        # The batch's options, given once to layout() and to the batch: C answers every
        # output's shape, dtype and bytes, and the memory it holds, before allocating.
        options: dict[str, Any] = dict(obs_format=OBS_FORMATS[obs_format], mask_bits=mask_format == "bits",
                       autoreset=AUTORESET_MODES[self.autoreset_mode])
        self.batch_layout = _core.CastleBatch.layout(n, settings_row, **options)
        check_memory(n, layout_bytes_per_game(self.batch_layout, n))
        arrays = self._allocate_outputs(self.batch_layout)
        self._batch = _core.CastleBatch(n, resolve_num_threads(num_threads), settings=settings_row, **arrays, **options)
        self.observation_channels = CHANNELS if obs_format == "planes" else None
        if obs_format:
            self.single_observation_space = spaces.Box(0, 255, arrays["obs"].shape[1:], np.uint8)
            self.observation_space = batch_space(self.single_observation_space, n)
        self.single_action_space = spaces.Discrete(self.num_actions)
        self.action_space = spaces.MultiDiscrete(np.full(n, self.num_actions, dtype=np.int64))
        if seed is not None:
            self.reset(seed=seed)

    def legal_mask(self) -> np.ndarray:
        """The legal mask as bools (num_envs, num_actions), whatever mask_format is (a copy
        for bits, the output itself for bools)."""
        if self.mask_format == "bits":
            return unpack_mask(self.action_mask, self.num_actions)
        return self.action_mask

    def bot_actions(self, name: str, games: np.ndarray | None = None) -> np.ndarray:
        """The action the castle bot `name` ("random" or "heuristic", csrc/castle/castle_bot.h)
        plays in each game for its seat to decide: int64, one per game (-1 for a game
        over), computed in C with the GIL released; not played (pass them to step).
        Each bot sees only its seat's view and legal actions. Random choices come from
        each game's sampler stream, the one sample_actions() draws on:
        bot_actions("random") is what sample_actions() gives. The returned array is
        overwritten by the next call, like sample_actions. `games`: a bool array
        (num_envs,) to ask only for the games it marks: the others get -1 and their
        streams are not drawn on (stratego.VecEnv.bot_actions)."""
        if not isinstance(name, str):
            raise TypeError(f"name must be a str ('random' or 'heuristic'), got {type(name).__name__}")
        return self._bot_actions(name, games)

    def game(self, i: int):
        """Game i now as a `stratego.castle.Game` (an independent copy)."""
        from .game import _restore
        settings, state = self._batch.game_state(i)
        return _restore(settings, state)

    def save_state(self) -> bytes:
        """The batch exactly (games, streams, counters); load_state restores it."""
        return self._batch.save()

    def load_state(self, data: bytes):
        """Restores a save of a batch with the same settings and number of games; returns
        (obs, info) as reset does. ValueError naming what differs otherwise."""
        return self._restore(data)
