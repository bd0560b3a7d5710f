"""A policy-value network that costs a fraction of ConvPolicyNet per position on the CPU
(needs torch: the train extra); docs/training.md has the measured speeds.

Where ConvPolicyNet's time goes on a CPU (torch 2.13, one thread, minibatch 1024): a
10x10 board is too small for the convolution kernels, whose backward pass is most of a
training step, and its 3x3 stem on the 68 planes costs as much as a residual block. So
`SlimPolicyNet` keeps its features square by square, channels last, (B, 100, C), and
spends convolutions only where squares must mix:
- the stem is a per-square linear map of the planes (the planes are one-hot codes,
  counts broadcast over the board and the last plies: mixing them square by square
  loses little, and a matrix product trains several times faster than a 1x1 convolution);
- each residual block is two 3x3 convolutions (on the channels-last layout, no copy)
  plus what a square's row and column hold (their mean features, a linear map each,
  broadcast back): a line move's target may be 9 squares away, beyond a 3x3 stack's reach;
- the heads are linear maps per square, whose outputs are already in the action layout
  (from * 18 + k: stratego.actions), and a value head on the pooled features.
One class serves every variant (num_actions), as ConvPolicyNet does: 18 line targets a
square, 4 diagonal steps, 12 rescue types on the own half, one decline.

It takes the observation planes (B, C, 10, 10) as every policy does, or the compact
codes (B, L) uint8 of `obs_format="codes"` (stratego.compact): those are expanded on the
tensor's own device, so a GPU receives 1/40th of the bytes.

`import stratego` does not import this module (nor torch).
"""
from __future__ import annotations

import torch
from torch import nn

from .. import _core
from ..compact import codes_bytes, expand_observation
from .nets import DIAG_TARGETS, HALF_ROWS, LINE_TARGETS, check_network_arguments, input_scale, square_heads
from .policy import ObservationSettings

SIDE = 10


class LineBlock(nn.Module):
    """x + conv(relu(conv(x))) + row and column context, then relu; x (B, 10, 10, C)."""

    def __init__(self, channels: int):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)
        self.row = nn.Linear(channels, channels, bias=False)
        self.col = nn.Linear(channels, channels, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # permute: the NCHW view of channels-last data, which the convolutions take as is.
        local = self.conv2(torch.relu(self.conv1(x.permute(0, 3, 1, 2)))).permute(0, 2, 3, 1)
        lines = self.row(x.mean(dim=2, keepdim=True)) + self.col(x.mean(dim=1, keepdim=True))
        return torch.relu(x + local + lines)


class SlimPolicyNet(nn.Module):
    """obs planes (B, C, 10, 10) or codes (B, L) -> (logits (B, num_actions), value (B,)
    in [-1, 1]). Logits are unmasked (stratego.agents.torch_policy.masked_logits). The
    constructor's arguments are plain values, kept in `init_kwargs` (save_policy)."""

    scale: torch.Tensor

    def __init__(self, num_actions: int = _core.LINE_ACTION_NB, history_k: int = 2, belief: bool = False,
                 obs_dtype: str = "uint8", channels: int = 32, blocks: int = 1, value_hidden: int = 64,
                 deploy: bool = False):
        super().__init__()
        check_network_arguments(num_actions, channels, blocks, value_hidden)
        self.observation_settings = ObservationSettings(history_k, belief, obs_dtype, deploy=deploy)
        self.init_kwargs = dict(num_actions=num_actions, history_k=history_k, belief=belief, obs_dtype=obs_dtype,
                                channels=channels, blocks=blocks, value_hidden=value_hidden, deploy=deploy)
        self.num_actions = num_actions
        in_channels = len(self.observation_settings.channels)
        # The codes carry no belief planes (a float block of their own): planes only then.
        self.codes_length = None if belief else codes_bytes(history_k, deploy)
        self.register_buffer("scale", input_scale(self.observation_settings), persistent=False)
        self.stem = nn.Linear(in_channels, channels)
        self.trunk = nn.Sequential(*[LineBlock(channels) for _ in range(blocks)])
        self.heads = square_heads(num_actions)
        self.policy_head = nn.Linear(channels, self.heads)
        self.decline_head = nn.Linear(channels, 1) if num_actions > _core.RESCUE_DECLINE else None
        self.value_head = nn.Sequential(nn.Linear(channels, value_hidden), nn.ReLU(), nn.Linear(value_hidden, 1),
                                        nn.Tanh())

    def planes(self, obs: torch.Tensor) -> torch.Tensor:
        """The observation planes (B, C, 10, 10): obs itself, or expanded from codes (B, L)."""
        if obs.dim() != 2:
            return obs
        if self.codes_length is None:
            raise ValueError("a SlimPolicyNet with belief planes takes observation planes (B, C, 10, 10); "
                             "the compact codes carry no belief")
        if obs.dtype != torch.uint8 or obs.shape[1] != self.codes_length:
            raise ValueError(f"compact codes must be uint8 of shape (B, {self.codes_length}) for "
                             f"{self.observation_settings}, got {obs.dtype} {tuple(obs.shape)}")
        return expand_observation(obs, dtype=self.observation_settings.obs_dtype)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        planes = self.planes(obs)
        b = planes.shape[0]
        # (B, C, 10, 10) -> (B, 10, 10, C): square by square, channels last.
        x = planes.permute(0, 2, 3, 1).to(self.scale.dtype) * self.scale
        x = self.trunk(torch.relu(self.stem(x)))
        per_square = self.policy_head(x).reshape(b, SIDE * SIDE, self.heads)  # square = row * 10 + col
        parts = [per_square[:, :, :LINE_TARGETS].reshape(b, -1)]  # from * 18 + k
        if self.num_actions > _core.DIAG_ACTION_BASE:
            parts.append(per_square[:, :, LINE_TARGETS:LINE_TARGETS + DIAG_TARGETS].reshape(b, -1))  # from * 4 + d
        if self.num_actions > _core.RESCUE_ACTION_BASE:
            rescue = per_square[:, :HALF_ROWS * SIDE, LINE_TARGETS + DIAG_TARGETS:]
            parts.append(rescue.transpose(1, 2).reshape(b, -1))  # type * 50 + h, h = row * 10 + col
        pooled = x.mean(dim=(1, 2))
        if self.decline_head is not None:
            parts.append(self.decline_head(pooled))
        logits = torch.cat(parts, dim=1)[:, :self.num_actions]
        return logits, self.value_head(pooled).squeeze(1)
