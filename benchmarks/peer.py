"""Steps/s of the peer simulator stratego_env (Python + Numba), on one core.

    NUMBA_NUM_THREADS=1 python benchmarks/peer.py [--steps N] [--json]

The peer is not a dependency of this project and none of its code is here: install
it yourself, in a virtual environment of its own, since it needs NumPy < 2 and the
old `gym` (see benchmarks/README.md, "The peer"). `benchmarks/suite.py --peer-python
PATH` runs this script with that interpreter in the same run as our own figures, so
the ratio it prints compares two measurements taken minutes apart on one machine.

Random play, classic board, random setups (the peer's default), one game at a time as
the peer is built. Two figures, each the work of our `step()` with observation and mask
(the headline config), the random choice of an action excluded from the timing as ours
is:
- `env`: the peer's user-facing multi-agent env, whose `step()` returns the next
  player's partial observation and legal-action mask;
- `core`: the peer's Numba functions called directly (next state, game over, legal mask,
  partial observation), without the env's Python bookkeeping.
The suite prints our ratio to both (benchmarks/README.md, "The peer": which one the goal
is checked on, and why).
"""
import argparse
import json
import time

import numpy as np


def _env_steps_per_s(steps: int, seed: int) -> float:
    from stratego_env import GameVersions, ObservationComponents, ObservationModes, StrategoMultiAgentEnv

    env = StrategoMultiAgentEnv(env_config={
        "version": GameVersions.STANDARD,
        "observation_mode": ObservationModes.PARTIALLY_OBSERVABLE,
    })
    mask_key = ObservationComponents.VALID_ACTIONS_MASK.value
    rng = np.random.default_rng(seed)
    obs = env.reset()
    timed = 0.0
    for _ in range(steps):
        player = next(iter(obs))
        action = int(rng.choice(np.flatnonzero(obs[player][mask_key].reshape(-1))))
        start = time.perf_counter()
        obs, _, done, _ = env.step({player: action})
        if done["__all__"]:
            obs = env.reset()
        timed += time.perf_counter() - start
    return steps / timed


def _core_steps_per_s(steps: int, seed: int) -> float:
    from stratego_env import GameVersions, StrategoMultiAgentEnv

    # The env builds the procedural core and the random-setup function; only those are used.
    env = StrategoMultiAgentEnv(env_config={"version": GameVersions.STANDARD})
    core, new_state = env.base_env, env.random_initial_state_fn
    rng = np.random.default_rng(seed)
    state, player = new_state(), 1

    def legal_mask(state, player):
        # As the env does: the mover's perspective, where the mover is always player 1.
        own = core.get_state_from_player_perspective(state, player)
        core.get_partially_observable_observation(own, 1)
        return core.get_valid_moves_as_1d_mask(own, 1)

    mask = legal_mask(state, player)
    timed = 0.0
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(mask)))
        start = time.perf_counter()
        action = core.get_action_1d_index_from_player_perspective(action, player)
        state, player = core.get_next_state(state, player, action)
        if core.get_game_ended(state, player) != 0:
            state, player = new_state(), 1
        mask = legal_mask(state, player)
        timed += time.perf_counter() - start
    return steps / timed


def measure(steps: int, seed: int = 0) -> dict:
    """The peer's steps/s, both ways, after a warm-up that compiles its Numba code."""
    _env_steps_per_s(500, seed)
    _core_steps_per_s(500, seed)
    env = _env_steps_per_s(steps, seed)
    core = _core_steps_per_s(steps, seed)
    return {"env": env, "core": core, "best": max(env, core), "steps": steps}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=20000, help="steps timed each way (default 20000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object (for suite.py)")
    args = parser.parse_args()
    if args.steps < 1:
        parser.error(f"--steps must be >= 1, got {args.steps}")
    result = measure(args.steps, args.seed)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"stratego_env, 1 core, random play: env.step {result['env']:,.0f} steps/s, "
              f"Numba core {result['core']:,.0f} steps/s")


if __name__ == "__main__":
    main()
