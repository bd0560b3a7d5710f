"""Training pairs for imitation learning: each recorded decision as (observation, mask,
action, player), the observation and mask from the deciding player's view, exactly
what Game.observation and Game.action_mask give at that point of the game (and so what
VecEnv gives with the same settings). docs/records.md "Training pairs".
"""
from __future__ import annotations

from typing import Iterable

import numpy as np

from .history import Record, RecordError
from .records import GameRecord, gravon_to_record

__all__ = ["training_pairs", "save_pairs"]


def _as_record(record) -> Record:
    if isinstance(record, Record):
        return record
    if isinstance(record, GameRecord):
        return gravon_to_record(record)
    raise TypeError(f"training_pairs takes Records or Gravon GameRecords, got {type(record).__name__}")


def training_pairs(records: Iterable, *, players: Iterable[int] = (0, 1), history_k: int = 4,
                   dtype: str = "uint8", belief: bool = False, obs_format: str = "planes",
                   mask_format: str = "bool") -> dict[str, np.ndarray]:
    """The decisions of `players` (0 red, 1 blue; both by default) in `records` (Records,
    or Gravon GameRecords, replayed under the server's rules) as arrays:

    - "obs": (N, ...) the decider's observation before its action (Game.observation with
      history_k, dtype, belief, obs_format; with belief and codes, "obs" holds the codes
      and "belief" the belief planes);
    - "mask": (N, num_actions) bool (or packed bytes, mask_format="bits"): its legal actions;
    - "action": (N,) int64, in the decider's frame; always legal in "mask";
    - "player": (N,) int8; "game": (N,) int64, the index of the record; "step": (N,) int64,
      the index of the action in the record (Game.replay(step) is the position).

    Every record must have the same action count (one variant's action space). A record
    whose moves are illegal raises RecordError naming it.
    """
    from .game import Game

    players = tuple(players)
    if not players or any(isinstance(p, bool) or p not in (0, 1) for p in players):
        raise ValueError(f"players must hold 0 (red) and/or 1 (blue), got {players!r}")
    obs_kwargs = dict(history_k=history_k, dtype=dtype, belief=belief, obs_format=obs_format)
    columns: dict[str, list] = {"obs": [], "belief": [], "mask": [], "action": [], "player": [], "game": [], "step": []}
    num_actions = None
    for index, record in enumerate(records):
        record = _as_record(record)
        if num_actions is None:
            num_actions = record.variant.num_actions
        elif record.variant.num_actions != num_actions:
            raise RecordError(f"record {index} ({record.variant.name}) has {record.variant.num_actions} actions, "
                              f"the records before it {num_actions}: pairs hold one variant's action space")
        game = Game.from_field(record.field, record.to_move, record.variant)
        for step, (action, player) in enumerate(zip(record.actions, record.players)):
            if player in players:
                obs = game.observation(player, **obs_kwargs)
                if isinstance(obs, dict):
                    columns["belief"].append(obs["belief"])
                    obs = obs["codes"]
                columns["obs"].append(obs)
                columns["mask"].append(game.action_mask(mask_format))
                columns["action"].append(action)
                columns["player"].append(player)
                columns["game"].append(index)
                columns["step"].append(step)
            try:
                game.play(action)
            except ValueError as exc:
                where = record.source or f"record {index}"
                raise RecordError(f"{where}: action {step + 1}: {exc}") from None
    if num_actions is None:
        raise ValueError("no records: training pairs need at least one game")
    # Shapes and dtypes from a start position, for players who made no decision.
    probe = Game.from_field(record.field, record.to_move, record.variant)
    example = probe.observation(0, **obs_kwargs)
    examples = {"obs": example, "mask": probe.action_mask(mask_format)}
    if isinstance(example, dict):
        examples.update(obs=example["codes"], belief=example["belief"])
    out = {name: np.stack(columns[name]) if columns[name] else np.zeros((0,) + ex.shape, ex.dtype)
           for name, ex in examples.items()}
    for name, dtype_ in (("action", np.int64), ("player", np.int8), ("game", np.int64), ("step", np.int64)):
        out[name] = np.asarray(columns[name], dtype_)
    return out


def save_pairs(path, pairs: dict[str, np.ndarray], *, compress: bool = True) -> None:
    """Writes training_pairs' arrays to an .npz file (np.load reads them by name)."""
    (np.savez_compressed if compress else np.savez)(path, **pairs)
