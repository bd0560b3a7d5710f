"""Compact observations and masks, and their expanders (NumPy arrays or PyTorch tensors).

`obs_format="codes"` gives each view as `codes_bytes(history_k)` uint8 values (144 at
history_k 4, against 6,800 for the planes): one code a square, then the piece counts,
the progress counts and the latest plies. `expand_observation` turns them into exactly
the default planes, on whatever device the tensor is on. (`mask_format="bits"`, the packed masks,
are stratego.common.arrays': both games pack them alike.) The layout and the code table belong to the C core
(csrc/stratego/observe_codes.h); this module reads them from `_core`.
"""
from __future__ import annotations

import numpy as np

from . import _core
from .common.arrays import array_ops
from .observation import FULL_OBSERVATION_CHANNELS

#: The board planes (channels 0..29 of the default observation) of each square code.
CODES_TABLE: np.ndarray = _core.codes_table()
#: The full view's 30 planes of each full-view square code.
FULL_CODES_TABLE: np.ndarray = _core.full_codes_table()
PIECE_TYPES: int = len(_core.PIECE_NAMES)
SQUARES: int = _core.SQ_NB


#: Bytes after the plies with setup="agent": the pieces in hand (12) and the phase.
DEPLOY_BYTES: int = _core.CODES_DEPLOY_NB


def codes_bytes(history_k: int = 4, deploy: bool = False) -> int:
    """Bytes of one view's codes (deploy: with the deployment bytes, setup="agent"), as
    the engine lays them out (csrc/stratego/observe_codes.h)."""
    return _core.observation_shape(history_k, False, True, False, deploy)[0]


# (history_k, deploy) of each length codes can have: the engine's lengths, read back
# (13 deployment bytes leave a remainder the 3 bytes of a ply cannot, so none repeats).
_LAYOUTS = {codes_bytes(k, deploy): (k, deploy) for k in range(_core.HISTORY_NB + 1) for deploy in (False, True)}


def _history_k(length: int) -> tuple[int, bool]:
    """(history_k, deploy) of codes `length` bytes long."""
    if length not in _LAYOUTS:
        raise ValueError(f"observation codes have {_core.CODES_HISTORY} + 3 * history_k bytes (history_k in "
                         f"[0, {_core.HISTORY_NB}]), and {DEPLOY_BYTES} more with setup='agent', in their "
                         f"last axis, got {length}")
    return _LAYOUTS[length]


def _progress(ops, codes, at):
    """The progress fraction (float32) and its uint8 plane value from the codes' counts."""
    count = ops.f32(ops.u16(codes[..., at], codes[..., at + 1]))
    cap = ops.f32(ops.u16(codes[..., at + 2], codes[..., at + 3]))
    # count / cap in float32, as the C encoder divides; 0 without a cap (count is 0 then).
    fraction = ops.where(cap > 0, count / ops.where(cap > 0, cap, cap + 1), count * 0)
    return fraction, ops.to(fraction * 255.0, "uint8")


def expand_observation(codes, belief=None, *, dtype: str | None = None):
    """The default planes, shape (..., C, 10, 10), from codes of shape (..., L).

    dtype "uint8" (the default without belief) or "float32" (the progress planes at full
    precision, as `obs_dtype="float32"` gives them); `belief`, the float block of an env
    made with `belief=True`, shape (..., 12, 10, 10), is appended (float32). Works on
    NumPy arrays and on PyTorch tensors (on their device); bit-identical to the planes
    the env would have written.
    """
    ops = array_ops(codes)
    dtype = dtype or ("float32" if belief is not None else "uint8")
    if dtype not in ("uint8", "float32"):
        raise ValueError(f"dtype must be 'uint8' or 'float32', got {dtype!r}")
    if belief is not None and dtype != "float32":
        raise ValueError("belief planes are probabilities: expand with dtype='float32'")
    k, deploy = _history_k(codes.shape[-1])
    lead = tuple(codes.shape[:-1])
    if belief is not None and tuple(belief.shape) != lead + (PIECE_TYPES, 10, 10):
        raise ValueError(f"belief must have shape {lead + (PIECE_TYPES, 10, 10)} to go with codes of shape "
                         f"{tuple(codes.shape)}, got {tuple(belief.shape)}")
    board = ops.swap_last(ops.table(CODES_TABLE)[ops.index(codes[..., :SQUARES])])
    # The k plies at once: a ply is shown if it and every later one exist (observe.c
    # stops at the first missing one); from and to one-hot, attack on the to square.
    plies = codes[..., _core.CODES_HISTORY:_core.CODES_HISTORY + 3 * k].reshape(lead + (k, 3))
    shown = ops.all_so_far(plies[..., 0] != _core.CODES_NO_MOVE)[..., None] if k else plies[..., 0, None] > 0
    squares = ops.arange(SQUARES)
    from_planes = (squares == plies[..., 0, None]) & shown
    to_planes = (squares == plies[..., 1, None]) & shown
    attack_planes = to_planes & (plies[..., 2, None] != 0)
    history = ops.to(ops.stack([from_planes, to_planes, attack_planes], axis=-2), "uint8").reshape(lead + (3 * k, SQUARES))
    counts = codes[..., _core.CODES_COUNTS:_core.CODES_COUNTS + 2 * PIECE_TYPES, None]
    counts = ops.broadcast(counts, lead + (2 * PIECE_TYPES, SQUARES))
    fractions, levels = zip(*(_progress(ops, codes, _core.CODES_PROGRESS + 4 * j) for j in range(2)))
    # setup="agent": the pieces in hand and the phase, after the progress planes.
    at = _core.CODES_HISTORY + 3 * k
    deployment = [ops.broadcast(codes[..., at:at + DEPLOY_BYTES, None], lead + (DEPLOY_BYTES, SQUARES))] if deploy else []
    if dtype == "uint8":
        progress = [ops.broadcast(v[..., None, None], lead + (1, SQUARES)) for v in levels]
        parts = [board, history, counts] + progress + deployment
        planes = ops.cat(parts, axis=-2)
    else:
        progress = [ops.broadcast(v[..., None, None], lead + (1, SQUARES)) for v in fractions]
        parts = [ops.f32(board), ops.f32(history), ops.f32(counts)] + progress + [ops.f32(d) for d in deployment]
        if belief is not None:
            parts.append(ops.f32(belief.reshape(lead + (PIECE_TYPES, SQUARES))))
        planes = ops.cat(parts, axis=-2)
    return planes.reshape(lead + (planes.shape[-2], 10, 10))


def expand_full_observation(codes):
    """The full-information planes (..., 30, 10, 10) uint8 from full-view codes (..., 100)."""
    ops = array_ops(codes)
    if codes.shape[-1] != SQUARES:
        raise ValueError(f"full-view codes have {SQUARES} bytes in their last axis, got {codes.shape[-1]}")
    planes = ops.swap_last(ops.table(FULL_CODES_TABLE)[ops.index(codes)])
    return planes.reshape(tuple(codes.shape[:-1]) + (len(FULL_OBSERVATION_CHANNELS), 10, 10))
