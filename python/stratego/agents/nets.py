"""A reference policy-value network sized for CPU training (needs torch: the train extra).

`ConvPolicyNet` is fully convolutional: the action layout (see stratego.actions) gives
every square the same 18 line targets, so the 1,800 line-move logits are a 1x1
convolution with 18 outputs per square, read square by square (`from * 18 + k`). The
larger variants' extra actions are per-square too: 4 diagonal steps per square (Captains
that move two squares) and 12 rescue types per square of the own half; only "decline the
rescue" (one action) comes from a linear layer on pooled features. So one network class
serves every variant, with `num_actions` its only variant-dependent size.

`import stratego` does not import this module (nor torch).
"""
from __future__ import annotations

import torch
from torch import nn

from .. import _core
from .policy import ObservationSettings

LINE_TARGETS = 18       # line moves per square: 9 along the row, 9 along the column
DIAG_TARGETS = 4        # diagonal steps per square: 2 * up + right
RESCUE_TYPES = 12       # piece types a rescue can return
HALF_ROWS = 5           # a rescued piece returns to a square of its own half (frame rows 0-4)
# Plane counts: the largest number of one type in the shipped piece sets is 8 (Scouts).
COUNT_SCALE = 1.0 / 8.0
#: Most residual blocks: each is Python objects, made before a loader can weigh the
#: network (stratego.agents.policy_file builds it on the meta device first), so a file's
#: `blocks` must be bounded here. Far deeper than a CPU-sized network needs.
MAX_BLOCKS = 256


def input_scale(settings: ObservationSettings) -> torch.Tensor:
    """Per-channel factors that bring the observation planes near [0, 1]: counts are
    raw numbers, and uint8 observations store the progress planes as 0..255."""
    scale = torch.ones(len(settings.channels))
    for i, name in enumerate(settings.channels):
        if "_count_" in name or name.startswith("hand_"):
            scale[i] = COUNT_SCALE
        elif name.endswith("_progress") and settings.obs_dtype == "uint8":
            scale[i] = 1.0 / 255.0
    return scale


class ResidualBlock(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + self.conv2(torch.relu(self.conv1(x))))


def check_network_arguments(num_actions: int, channels: int, blocks: int, value_hidden: int) -> None:
    """The checks of the package's networks' sizes (a policy file names them: a bad one
    is a clear ValueError before anything is allocated)."""
    if not _core.LINE_ACTION_NB <= num_actions <= _core.ACTION_MAX:
        raise ValueError(f"num_actions must be in [{_core.LINE_ACTION_NB}, {_core.ACTION_MAX}] "
                         f"(a variant's num_actions), got {num_actions}")
    for key, value in (("channels", channels), ("blocks", blocks), ("value_hidden", value_hidden)):
        if isinstance(value, bool) or not isinstance(value, int) or value < (0 if key == "blocks" else 1):
            raise ValueError(f"{key} must be a positive int, got {value!r}")
    if blocks > MAX_BLOCKS:
        raise ValueError(f"blocks must be at most {MAX_BLOCKS}, got {blocks}")


def square_heads(num_actions: int) -> int:
    """Outputs a square's policy head has: one per action of each block the variant uses
    (the blocks are a prefix: line targets, diagonal steps, rescue types)."""
    heads = LINE_TARGETS
    if num_actions > _core.DIAG_ACTION_BASE:
        heads += DIAG_TARGETS
    if num_actions > _core.RESCUE_ACTION_BASE:
        heads += RESCUE_TYPES
    return heads


class ConvPolicyNet(nn.Module):
    """obs (B, C, 10, 10) as the env gives it (uint8 or float32) -> (logits (B,
    num_actions), value (B,) in [-1, 1]). Logits are unmasked; see
    `stratego.agents.torch_policy.masked_logits`.

    The constructor's arguments are plain values and are kept in `init_kwargs`, so
    `save_policy` can record how to rebuild the network.
    """

    def __init__(self, num_actions: int = _core.LINE_ACTION_NB, history_k: int = 4, belief: bool = False,
                 obs_dtype: str = "uint8", channels: int = 32, blocks: int = 4, value_hidden: int = 64,
                 deploy: bool = False):
        super().__init__()
        check_network_arguments(num_actions, channels, blocks, value_hidden)
        # deploy: the deployment planes of setup="agent" (docs/deployment.md); the
        # placements are the rescue block's per-square type heads below.
        self.observation_settings = ObservationSettings(history_k, belief, obs_dtype, deploy=deploy)
        self.init_kwargs = dict(num_actions=num_actions, history_k=history_k, belief=belief, obs_dtype=obs_dtype,
                                channels=channels, blocks=blocks, value_hidden=value_hidden)
        if deploy:
            self.init_kwargs["deploy"] = True
        self.num_actions = num_actions
        in_channels = len(self.observation_settings.channels)
        # Derived from the settings, so not saved with the weights.
        self.register_buffer("scale", input_scale(self.observation_settings).view(1, -1, 1, 1), persistent=False)
        self.stem = nn.Sequential(nn.Conv2d(in_channels, channels, 3, padding=1), nn.ReLU())
        self.trunk = nn.Sequential(*[ResidualBlock(channels) for _ in range(blocks)])
        self.policy_head = nn.Conv2d(channels, square_heads(num_actions), 1)
        self.decline_head = nn.Linear(channels, 1) if num_actions > _core.RESCUE_DECLINE else None
        self.value_head = nn.Sequential(
            nn.Conv2d(channels, 2, 1), nn.ReLU(), nn.Flatten(),
            nn.Linear(2 * 100, value_hidden), nn.ReLU(), nn.Linear(value_hidden, 1), nn.Tanh(),
        )

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = obs.to(self.scale.dtype) * self.scale
        x = self.trunk(self.stem(x))
        b = x.shape[0]
        per_square = self.policy_head(x)  # (B, heads, 10, 10); square = row * 10 + col
        # (B, 18, 10, 10) -> (B, 10, 10, 18) -> from * 18 + k
        parts = [per_square[:, :LINE_TARGETS].permute(0, 2, 3, 1).reshape(b, -1)]
        if self.num_actions > _core.DIAG_ACTION_BASE:
            diag = per_square[:, LINE_TARGETS:LINE_TARGETS + DIAG_TARGETS]
            parts.append(diag.permute(0, 2, 3, 1).reshape(b, -1))  # from * 4 + d
        if self.num_actions > _core.RESCUE_ACTION_BASE:
            rescue = per_square[:, LINE_TARGETS + DIAG_TARGETS:, :HALF_ROWS]
            parts.append(rescue.reshape(b, -1))  # type * 50 + h, h = row * 10 + col
        if self.decline_head is not None:
            parts.append(self.decline_head(x.mean(dim=(2, 3))))
        logits = torch.cat(parts, dim=1)[:, :self.num_actions]
        return logits, self.value_head(x).squeeze(1)
