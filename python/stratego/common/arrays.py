"""Array operations both games' compact forms use, on NumPy arrays or PyTorch tensors
(torch is imported only when given a tensor): `array_ops` picks the few operations an
expander needs (the classic game's stratego.compact, the castle's
stratego.castle.observation), and the packed legal masks (`mask_format="bits"`: 8
actions a byte, in `np.unpackbits(..., bitorder="little")` order) of either game.
"""
from __future__ import annotations

import numpy as np


class NumpyOps:
    """The few array operations the expanders need, for NumPy arrays."""

    def __init__(self, like):
        self.like = like

    def table(self, table):
        return table

    def arange(self, n):
        return np.arange(n)

    def cat(self, parts, axis):
        return np.concatenate(parts, axis=axis)

    def to(self, x, dtype):
        return x.astype(np.dtype(dtype), copy=False)

    def u16(self, lo, hi):
        return lo.astype(np.int32) | (hi.astype(np.int32) << 8)

    def f32(self, x):
        return x.astype(np.float32)

    def where(self, cond, a, b):
        return np.where(cond, a, b)

    def broadcast(self, x, shape):
        return np.broadcast_to(x, shape)

    def index(self, x):
        return x.astype(np.intp)

    def stack(self, parts, axis):
        return np.stack(parts, axis=axis)

    def all_so_far(self, x):
        """x[..., j] and every x[..., i < j] (bool)."""
        return np.logical_and.accumulate(x, axis=-1)

    def swap_last(self, x):
        return x.swapaxes(-1, -2)


class TorchOps(NumpyOps):
    """The same operations for PyTorch tensors, on the tensor's device."""

    def __init__(self, like):
        import torch
        self.torch, self.like = torch, like

    def table(self, table):
        return self.torch.tensor(table, device=self.like.device)

    def arange(self, n):
        return self.torch.arange(n, device=self.like.device)

    def cat(self, parts, axis):
        return self.torch.cat(parts, dim=axis)

    def to(self, x, dtype):
        return x.to({"uint8": self.torch.uint8, "float32": self.torch.float32, "bool": self.torch.bool}[dtype])

    def u16(self, lo, hi):
        return lo.to(self.torch.int32) | (hi.to(self.torch.int32) << 8)

    def f32(self, x):
        return x.to(self.torch.float32)

    def where(self, cond, a, b):
        return self.torch.where(cond, a, b)

    def broadcast(self, x, shape):
        return x.expand(shape)

    def index(self, x):
        return x.long()

    def stack(self, parts, axis):
        return self.torch.stack(parts, dim=axis)

    def all_so_far(self, x):
        return self.torch.cummin(x.to(self.torch.uint8), dim=-1).values.bool()

    def swap_last(self, x):
        return x.transpose(-1, -2)


def array_ops(x):
    """NumPy or PyTorch operations for x (torch is imported only when x is a tensor)."""
    if isinstance(x, np.ndarray):
        if x.dtype != np.uint8:
            raise TypeError(f"compact observations and masks are uint8, got dtype {x.dtype}")
        return NumpyOps(x)
    if type(x).__module__.split(".")[0] == "torch":
        import torch
        if x.dtype != torch.uint8:
            raise TypeError(f"compact observations and masks are uint8, got dtype {x.dtype}")
        return TorchOps(x)
    raise TypeError(f"expected a numpy.ndarray or a torch.Tensor of uint8, got {type(x).__name__}")


def mask_bytes(num_actions: int) -> int:
    """Bytes of one packed mask of num_actions actions."""
    return (num_actions + 7) // 8


def unpack_mask(bits, num_actions: int):
    """The bool mask (..., num_actions) of a packed one (..., mask_bytes(num_actions)):
    action a is bit a % 8 of byte a // 8 (np.unpackbits' little bit order)."""
    array_ops(bits)
    if bits.shape[-1] != mask_bytes(num_actions):
        raise ValueError(f"a packed mask of {num_actions} actions has {mask_bytes(num_actions)} bytes in its "
                         f"last axis, got {bits.shape[-1]}")
    if isinstance(bits, np.ndarray):
        return np.unpackbits(bits, axis=-1, count=num_actions, bitorder="little").astype(bool)
    import torch
    shifts = torch.arange(8, device=bits.device, dtype=bits.dtype)
    unpacked = (bits[..., :, None] >> shifts) & 1
    return unpacked.reshape(tuple(bits.shape[:-1]) + (-1,))[..., :num_actions].bool()


def pack_mask(mask):
    """The packed form (uint8, ..., mask_bytes(n)) of a bool mask (..., n), NumPy only:
    for narrowing a packed env's mask from a bool one."""
    mask = np.asarray(mask)
    if mask.dtype != np.bool_:
        raise TypeError(f"mask must be a bool array, got dtype {mask.dtype}")
    return np.packbits(mask, axis=-1, bitorder="little")
