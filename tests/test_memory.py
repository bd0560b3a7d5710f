"""The memory check before allocation counts what a vector env of either game allocates
for its games: its estimate (VecEnv's MemoryError before anything is allocated) within
1.5x of the peak measured in a fresh process, and an observation space whose bounds do
not grow with num_envs (vec_shell.BatchBox)."""
from __future__ import annotations

import copy
import json
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.vector.utils import batch_space as gym_batch_space

import stratego
from stratego import castle

# Measured in a fresh interpreter. MALLOC_PERTURB_ makes glibc fill every block it hands
# out (and calloc clear even fresh pages), so every page allocated is resident, as when a
# run writes all its buffers: the peak counts what was allocated, not what was touched.
# The peak is the kernel's high-water mark (VmHWM), reset just before the env is made.
_PEAK_SCRIPT = r"""
import json, os, sys
import stratego
from stratego import castle
import stratego.vec_env, stratego.castle.vec_env

estimates = []
def capture(check):
    def checked(n, per_game, *args, **kwargs):
        estimates.append(n * per_game)
        return check(n, per_game, *args, **kwargs)
    return checked
for module in (stratego.vec_env, stratego.castle.vec_env):
    module.check_memory = capture(module.check_memory)

def status(field):
    for line in open("/proc/self/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024

game, n, kwargs = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
make = stratego.VecEnv if game == "classic" else castle.VecEnv
warm = make(4, seed=0, **kwargs)  # the engine's tables and lazy imports, before measuring
warm.step(warm.sample_actions())
warm.close()
del warm
estimates.clear()
before = status("VmRSS")
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")  # resets VmHWM to the current resident size
env = make(n, seed=0, **kwargs)
env.step(env.sample_actions())
print(json.dumps({"estimate": estimates[0], "peak": status("VmHWM") - before}))
"""

CASES = [
    ("classic", 4096, {}),
    ("classic", 4096, {"views": "both"}),
    ("classic", 4096, {"obs_format": "codes", "belief": True}),
    ("classic", 8192, {"observations": False}),
    ("castle", 1024, {}),
    ("castle", 2048, {"obs_format": "codes"}),
]


@pytest.mark.skipif(not os.path.exists("/proc/self/clear_refs"), reason="needs Linux's /proc/self/clear_refs")
# ASan's allocator (redzones, quarantine, shadow pages; MALLOC_PERTURB_ is glibc's) measures
# itself, not the env: .ci/run's sanitizer pass leaves this to the first pass.
@pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""),
                    reason="the peak under AddressSanitizer's allocator is the sanitizer's, not the env's")
@pytest.mark.parametrize("game,n,kwargs", CASES, ids=[f"{g}-{n}-{'-'.join(k) or 'default'}" for g, n, k in CASES])
def test_memory_estimate_is_within_1_5x_of_the_peak(game, n, kwargs):
    env = {**os.environ, "MALLOC_PERTURB_": "165"}
    done = subprocess.run([sys.executable, "-c", _PEAK_SCRIPT, game, str(n), json.dumps(kwargs)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout.splitlines()[-1])
    estimate, peak = got["estimate"], got["peak"]
    # Gymnasium's Box bounds made the peak 3-3.3x the estimate here before BatchBox.
    assert peak <= 1.5 * estimate, f"peak {peak / 2**20:.1f} MiB, estimate {estimate / 2**20:.1f} MiB"
    assert estimate <= 1.5 * peak, f"peak {peak / 2**20:.1f} MiB, estimate {estimate / 2**20:.1f} MiB"


def _envs():
    yield stratego.VecEnv(6, seed=0)
    yield stratego.VecEnv(6, seed=0, obs_dtype="float32")
    yield stratego.VecEnv(6, seed=0, obs_format="codes", belief=True)
    yield castle.VecEnv(5, seed=0)


def _boxes(space):
    return list(space.spaces.values()) if isinstance(space, spaces.Dict) else [space]


def test_observation_space_is_gymnasiums_batch_without_full_size_bounds():
    for env in _envs():
        n = env.num_envs
        want = gym_batch_space(env.single_observation_space, n)
        space = env.observation_space
        assert space == want and space.shape == want.shape
        assert space.contains(env.observation_space.sample())
        obs = env.obs if getattr(env, "belief_obs", None) is None else {"codes": env.obs, "belief": env.belief_obs}
        assert space.contains(obs)
        for box, want_box in zip(_boxes(space), _boxes(want)):
            assert box.dtype == want_box.dtype and box.shape == want_box.shape
            for name in ("low", "high", "bounded_below", "bounded_above"):
                bound = getattr(box, name)
                np.testing.assert_array_equal(bound, getattr(want_box, name))
                # A view of one game's bounds: no bytes a game.
                assert bound.strides[0] == 0 and not bound.flags.writeable, name
        copy = pickle.loads(pickle.dumps(space))
        assert copy == want
        assert all(b.low.strides[0] == 0 for b in _boxes(copy))
        env.close()



def test_a_copy_of_a_seeded_observation_space_samples_as_the_space_does():
    # A copy carries the generator's state, as a copy of Gymnasium's batch_space does.
    for env in _envs():
        space = env.observation_space
        space.seed(7)
        space.sample()  # a generator part-way through its stream
        for copy_of in (copy.deepcopy, lambda s: pickle.loads(pickle.dumps(s))):
            duplicate = copy_of(space)
            got, want = duplicate.sample(), space.sample()
            for key in (want.keys() if isinstance(want, dict) else [None]):
                np.testing.assert_array_equal(got if key is None else got[key], want if key is None else want[key])
        env.close()
