"""Self-play bookkeeping: per-player returns and GAE advantages from a rollout of a
two-player `VecEnv`, where one policy plays both sides.

In a two-player batch the players take turns in each game, so one player's transition
does not end at the next step: it ends at that player's next move, and what it earned
includes the reply. A win arrives on the winner's step as +1 for it and -1 for the
loser (`info["rewards"]`, both players' rewards of the step), so the loser's last move
has its -1 one step later. `per_player_gae` follows each player's own chain of moves in
each game, so a training loop needs to store, per step, only what the env gives:

    players[t] = info["acted"]        # who acted (-1: none, the action was ignored)
    rewards[t] = info["rewards"]      # (N, 2): what red and blue received in the step
    dones[t]   = terminated | truncated
    values[t]  = V(obs[t])            # the value of the acting player's observation

and, after the last step, the value of the next observation (`next_value`, from the
view of `next_to_play`, the env's `to_play`).
"""
from __future__ import annotations

import numpy as np


def per_player_gae(rewards, values, players, dones, next_value, next_to_play, *,
                   gamma: float = 0.99, gae_lambda: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Advantages and returns, each (T, N), of every step's acting player.

    Step t of game slot i is a transition of players[t, i] (0 red, 1 blue; -1 for a step
    whose action the env ignored: it gets 0 and should be left out of the loss). Its
    reward is what that player received from step t up to its next move in the same
    game; it ends the player's chain if the game ended before that move (dones); its
    next value is values at that next move. Discounting (gamma) and GAE (gae_lambda)
    run along each player's own moves, as in a single-agent rollout.

    A move whose successor falls beyond the buffer bootstraps from the value of the
    observation after the last step: `next_value` for the player `next_to_play`, and
    `-next_value` for the other one. The second is the zero-sum estimate: the games end
    +1/-1 or 0/0, so the value of a position to the player not to move is minus its value
    to the player to move.

    rewards (T, N, 2) float; values (T, N); players (T, N) int; dones (T, N) bool;
    next_value (N,); next_to_play (N,) int 0/1. Returns (advantages, returns), float32,
    with returns = advantages + values (0 where players is -1). With gamma = gae_lambda = 1
    and zero values, the returns of each move are the final result of its player (+1, -1
    or 0) in a game that ended within the buffer.
    """
    values = np.asarray(values, dtype=np.float64)
    if values.ndim != 2:
        raise ValueError(f"values must have shape (T, N), got {values.shape}")
    steps, n = values.shape
    rewards = _checked(rewards, "rewards", (steps, n, 2), np.float64)
    players = _checked(players, "players", (steps, n), np.int64)
    dones = _checked(dones, "dones", (steps, n), np.bool_)
    next_value = _checked(next_value, "next_value", (n,), np.float64)
    next_to_play = _checked(next_to_play, "next_to_play", (n,), np.int64)
    if not np.isin(players, (-1, 0, 1)).all():
        raise ValueError("players must hold 0 (red), 1 (blue) or -1 (no action)")
    if not np.isin(next_to_play, (0, 1)).all():
        raise ValueError("next_to_play must hold 0 (red) or 1 (blue)")
    for name, x in (("gamma", gamma), ("gae_lambda", gae_lambda)):
        if not 0.0 <= float(x) <= 1.0:
            raise ValueError(f"{name} must be in [0, 1], got {x}")

    slots = np.arange(n)
    # Per slot and player: the value and advantage of that player's next move (already
    # seen, going backwards), the rewards it received since, and whether the game ended
    # before that move.
    next_val = np.empty((n, 2))
    next_val[slots, next_to_play] = next_value
    next_val[slots, 1 - next_to_play] = -next_value
    next_adv = np.zeros((n, 2))
    received = np.zeros((n, 2))
    ended = np.zeros((n, 2), dtype=np.bool_)
    advantages = np.zeros((steps, n))
    for t in range(steps - 1, -1, -1):
        # A game that ended at step t: the rewards and moves seen so far (later steps)
        # belong to the next game in the slot.
        received[dones[t]] = 0.0
        ended[dones[t]] = True
        received += rewards[t]
        acting = players[t] >= 0
        rows, player = slots[acting], players[t, acting]
        live = ~ended[rows, player]
        delta = received[rows, player] + gamma * live * next_val[rows, player] - values[t, rows]
        adv = delta + gamma * gae_lambda * live * next_adv[rows, player]
        advantages[t, rows] = adv
        next_val[rows, player] = values[t, rows]
        next_adv[rows, player] = adv
        received[rows, player] = 0.0
        ended[rows, player] = False
    returns = np.where(players >= 0, advantages + values, 0.0)
    return advantages.astype(np.float32), returns.astype(np.float32)


def _checked(x, name: str, shape: tuple, dtype) -> np.ndarray:
    arr = np.asarray(x)
    if arr.shape != shape:
        raise ValueError(f"{name} must have shape {shape} (from values' (T, N)), got {arr.shape}")
    if dtype is np.bool_ and arr.dtype != np.bool_:
        raise TypeError(f"{name} must be a bool array, got dtype {arr.dtype}")
    if dtype is np.int64 and not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"{name} must be an integer array, got dtype {arr.dtype}")
    return arr.astype(dtype, copy=False)
