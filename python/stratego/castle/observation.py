"""A seat's observation of the castle game (docs/castle.md "Observation"): channel names,
the compact codes' layout and `expand_observation`, which turns codes into exactly the
planes the engine writes (NumPy arrays or PyTorch tensors, on the tensor's device).

The layout, the code table and the frames are the C core's (csrc/castle/castle_observe.h);
this module reads them from `_core.castle_obs_tables()`.
"""
from __future__ import annotations

import numpy as np

from stratego import _core
from stratego.common.arrays import array_ops

_T = _core.castle_obs_tables()
#: The planes' channel names, in order (115).
CHANNELS: tuple[str, ...] = tuple(_T["channels"])
NUM_CHANNELS: int = len(CHANNELS)
SIDE: int = _T["side"]
CELLS: int = SIDE * SIDE
#: Bytes of one view's codes.
CODES_BYTES: int = _T["codes_bytes"]
OBSERVATION_VERSION: int = _T["version"]
#: The shapes of one view in each format.
SHAPES = {"planes": (NUM_CHANNELS, SIDE, SIDE), "codes": (CODES_BYTES,)}

_RING = CHANNELS.index("ring")
_CARRIED = CHANNELS.index("carried_flag_self")


def _tables():
    cell_planes = np.frombuffer(_T["cell_planes"], np.uint8).reshape(-1, 3)
    # Each cell code's board planes (channels below `ring`), one-hot; codes past the
    # table set nothing.
    cell = np.zeros((256, _RING), np.uint8)
    for code, row in enumerate(cell_planes):
        for ch in row:
            if ch != 255:
                cell[code, ch] = 1
    # A position's cells: a frame cell, the ring's 8 cells, or none.
    ring = np.frombuffer(_T["ring_cells"], np.uint8)
    pos = np.zeros((256, CELLS), np.uint8)
    pos[np.arange(CELLS), np.arange(CELLS)] = 1
    pos[_T["pos_ring"], ring] = 1
    # The static planes (ring, turret, zones, recruitment spaces) of each `missing`.
    zone = np.frombuffer(_T["zone"], np.uint8).reshape(4, CELLS)
    recruit = np.frombuffer(_T["recruit"], np.uint8).reshape(4, CELLS)
    static = np.zeros((4, _CARRIED - _RING, CELLS), np.uint8)
    static[:, 0] = pos[_T["pos_ring"]]
    static[:, 1, _T["turret_cell"]] = 1
    for q in range(4):
        static[:, 2 + q] = zone == q
        static[:, 6 + q] = recruit == q
    return cell, pos, static


_CELL, _POS, _STATIC = _tables()


def expand_observation(codes):
    """The planes (..., 115, 15, 15) uint8 of codes (..., CODES_BYTES): a NumPy array or a
    PyTorch tensor of any leading shape; bit-identical to the engine's planes."""
    ops = array_ops(codes)
    if codes.shape[-1] != CODES_BYTES:
        raise ValueError(f"castle observation codes have {CODES_BYTES} bytes in their last axis, got {codes.shape[-1]}")
    at = _T
    cells = ops.swap_last(ops.table(_CELL)[ops.index(codes[..., :CELLS])])
    static = ops.table(_STATIC)[ops.index(codes[..., at["missing"]] & 3)]
    pos = ops.table(_POS)
    flags = pos[ops.index(codes[..., at["flag_pos"]:at["flag_pos"] + 4])]
    state = codes[..., at["flag_state"]:at["flag_state"] + 4][..., None]
    carried = flags * ops.to(state == 1, "uint8")
    lone = flags * ops.to((state == 2) | (state == 3), "uint8")
    left = flags * ops.to(state == 3, "uint8")
    abandoned = (left[..., 0, :] | left[..., 1, :] | left[..., 2, :] | left[..., 3, :])[..., None, :]
    take = pos[ops.index(codes[..., at["take"]])][..., None, :]

    def one_hot(value, n):
        return ops.to(value[..., None] == ops.table(np.arange(n, dtype=np.uint8)), "uint8")

    values = ops.cat([
        codes[..., at["slider"]:at["slider"] + 4],
        codes[..., at["removed"]:at["removed"] + 36],
        one_hot(codes[..., at["phase"]], 3),
        one_hot(codes[..., at["to_move"]] & 3, 4),
        one_hot(codes[..., at["mover"]] & 3, 4),
        codes[..., at["teams"]:at["teams"] + 1],
        codes[..., at["progress"]:at["progress"] + 1],
    ], -1)
    broadcast = ops.broadcast(values[..., None], (*values.shape, CELLS))
    planes = ops.cat([cells, static, carried, lone, abandoned, take, broadcast], -2)
    return planes.reshape(*codes.shape[:-1], NUM_CHANNELS, SIDE, SIDE)
