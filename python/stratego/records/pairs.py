"""Training pairs for imitation learning: each recorded decision as (observation, mask,
action, player), the observation and mask from the deciding player's view, exactly
what Game.observation and Game.action_mask give at that point of the game (and so what
VecEnv gives with the same settings). docs/records.md "Training pairs".
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

import numpy as np

from ..common.atomic_write import atomic_write, target_path
from .gravon_replay import gravon_actions, gravon_variant, replay_watched
from .gravon_xml import GameRecord
from ..history import Record, RecordError, action_players

__all__ = ["training_pairs", "save_pairs"]


def _parsed(record):
    """(variant, actions, players, what replay_watched needs) of a record, read, not replayed."""
    if isinstance(record, Record):
        return record.variant, record.actions, record.players, None
    if isinstance(record, GameRecord):
        variant = gravon_variant(record, {})
        actions, names = gravon_actions(record, variant.num_actions)
        return variant, actions, action_players(0, actions), (variant, (actions, names))
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
    whose moves are illegal, or whose result its moves do not reach, raises RecordError
    naming it. The records are read first (their actions: tens of bytes a move), then
    each array is allocated once, whole, and each record replayed once into it.
    """
    from ..game import Game

    players = tuple(players)
    if not players or any(isinstance(p, bool) or p not in (0, 1) for p in players):
        raise ValueError(f"players must hold 0 (red) and/or 1 (blue), got {players!r}")
    obs_kwargs = dict(history_k=history_k, dtype=dtype, belief=belief, obs_format=obs_format)
    parsed, rows = [], {"action": [], "player": [], "game": [], "step": []}
    for index, record in enumerate(records):
        variant, actions, deciders, how = _parsed(record)
        if parsed and variant.num_actions != parsed[0][1].num_actions:
            raise RecordError(f"record {index} ({variant.name}) has {variant.num_actions} actions, "
                              f"the records before it {parsed[0][1].num_actions}: pairs hold one variant's "
                              "action space")
        parsed.append((record, variant, deciders, how))
        steps = [step for step, player in enumerate(deciders) if player in players]
        rows["action"] += [actions[step] for step in steps]
        rows["player"] += [deciders[step] for step in steps]
        rows["game"] += [index] * len(steps)
        rows["step"] += steps
    if not parsed:
        raise ValueError("no records: training pairs need at least one game")
    out = {name: np.asarray(rows[name], dtype_) for name, dtype_ in
           (("action", np.int64), ("player", np.int8), ("game", np.int64), ("step", np.int64))}
    # Shapes and dtypes from a start position; the arrays whole, filled in place.
    record, variant = parsed[0][0], parsed[0][1]
    probe = Game.from_field(record.field, getattr(record, "to_move", 0), variant, allow_flagless=True)
    example = probe.observation(0, **obs_kwargs)
    examples = {"obs": example, "mask": probe.action_mask(mask_format)}
    if isinstance(example, dict):
        examples.update(obs=example["codes"], belief=example["belief"])
    n = len(out["action"])
    arrays = {name: np.empty((n,) + ex.shape, ex.dtype) for name, ex in examples.items()}
    row = 0

    def record_decision(game, step):
        nonlocal row
        player = deciders[step]
        if player in players:
            obs = game.observation(player, **obs_kwargs)
            if isinstance(obs, dict):
                arrays["belief"][row] = obs["belief"]
                obs = obs["codes"]
            arrays["obs"][row] = obs
            arrays["mask"][row] = game.action_mask(mask_format)
            row += 1

    for index, (record, variant, deciders, how) in enumerate(parsed):  # noqa: B007 (record_decision reads them)
        try:
            replay_watched(record, {}, record_decision, how)
        except RecordError as exc:
            if getattr(record, "source", None) or getattr(record, "path", None):
                raise
            raise RecordError(f"record {index}: {exc}") from None
    out.update(arrays)
    return out


def save_pairs(path, pairs: dict[str, np.ndarray], *, compress: bool = True) -> Path:
    """Writes training_pairs' arrays to an .npz file (np.load reads them by name), whole
    or not at all (stratego.common.atomic_write), and returns its path: `path` with ".npz"
    added when it has no such suffix, as np.savez does. A folder is refused."""
    target_path(path, ".npz file")
    path = Path(path)
    if path.suffix != ".npz":
        path = path.with_name(path.name + ".npz")
    with atomic_write(path, "wb", what=".npz file") as out:
        (np.savez_compressed if compress else np.savez)(out, **pairs)
    return path
