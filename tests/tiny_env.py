"""The test game of tests/c/tiny_game.h as a Gymnasium vector env: stratego.vec_shell's
VecShell around the test-only extension `_tiny` (tests/c/tiny_binding.c). What a second
game's Python env costs on the seam: its spaces and settings; reset, step, autoreset,
info and the outputs are the shell's."""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from stratego import _core
from stratego.common.threads import resolve_num_threads
from stratego.common.arguments import check_autoreset_mode
from stratego.vec_shell import AUTORESET_MODES, VecShell


class TinyVecEnv(VecShell):
    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, tiny, num_envs: int, *, num_threads: int = 1, illegal_action: str = "raise",
                 autoreset_mode=AutoresetMode.SAME_STEP, max_plies: int = 50):
        n = self.num_envs = num_envs
        self.autoreset_mode = check_autoreset_mode(autoreset_mode)
        self._mode = {"raise": _core.ILLEGAL_RAISE, "lose": _core.ILLEGAL_LOSES}[illegal_action]
        view = (tiny.OBS_BYTES,)
        options = dict(autoreset=AUTORESET_MODES[self.autoreset_mode], max_plies=max_plies)
        self.batch_layout = tiny.Batch.layout(n, obs=True, **options)
        arrays = self._allocate_outputs(self.batch_layout)
        self._batch = tiny.Batch(n, resolve_num_threads(num_threads), **arrays, **options)
        self.single_observation_space = spaces.Box(0, 255, view, np.uint8)
        self.observation_space = spaces.Box(0, 255, (n, *view), np.uint8)
        self.single_action_space = spaces.Discrete(tiny.NUM_ACTIONS)
        self.action_space = spaces.MultiDiscrete(np.full(n, tiny.NUM_ACTIONS, dtype=np.int64))

    def save_state(self) -> bytes:
        return self._batch.save()

    def load_state(self, data: bytes):
        self._batch.restore(data)
        self._batch.games_over(self._over)
        self._set_acted(np.full(self.num_envs, -1, dtype=np.int8))
        return self._observation(), self._info(finished=False)
