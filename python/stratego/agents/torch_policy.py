"""A torch network as a policy (the protocol of stratego.agents.policy); needs torch.

`TorchPolicy(net, observation_settings)` wraps any `nn.Module` whose forward takes a
batch of observations and returns the logits (B, num_actions), alone or as the first
item of a tuple (e.g. `(logits, value)`). It plays greedily (the most likely legal
action) or samples from the masked softmax; sampling draws from its own NumPy stream,
so a seed gives the same actions on every device.
"""
from __future__ import annotations

import numpy as np
import torch

from .policy import ObservationSettings


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Logits with the illegal actions at the dtype's lowest value (not -inf: a softmax
    entropy of -inf logits gives 0 * inf = NaN, and a training step would be lost)."""
    return logits.masked_fill(~mask, torch.finfo(logits.dtype).min)


class TorchPolicy:
    """policy(obs, mask) -> actions for a torch network. See the module docstring.

    batch_size bounds the rows given to the network at once (memory); the answers do
    not depend on it.
    """

    def __init__(self, net: torch.nn.Module, observation_settings: ObservationSettings | None = None, *,
                 sample: bool = False, temperature: float = 1.0, seed: int | None = None,
                 device: str | torch.device | None = None, batch_size: int = 4096):
        if not isinstance(net, torch.nn.Module):
            raise TypeError(f"net must be a torch.nn.Module, got {type(net).__name__}")
        if observation_settings is None:
            observation_settings = getattr(net, "observation_settings", None)
        if not isinstance(observation_settings, ObservationSettings):
            raise TypeError("observation_settings must be a stratego.agents.policy.ObservationSettings "
                            "(the network has none of its own)")
        if not temperature > 0:
            raise ValueError(f"temperature must be > 0, got {temperature}")
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive int, got {batch_size!r}")
        self.net = net
        self.observation_settings = observation_settings
        self.sample, self.temperature, self.batch_size = bool(sample), float(temperature), batch_size
        self.device = torch.device(device) if device is not None else next(net.parameters(), torch.empty(0)).device
        self.seed(seed)

    def seed(self, seed: int | None) -> None:
        """Restarts the sampling stream (None: a fresh random one)."""
        self._rng = np.random.default_rng(seed)

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """The network's raw logits for a batch, float32 (B, num_actions)."""
        chunks = []
        with torch.inference_mode():
            for start in range(0, len(obs), self.batch_size):
                x = torch.from_numpy(np.ascontiguousarray(obs[start:start + self.batch_size])).to(self.device)
                out = self.net(x)
                out = out[0] if isinstance(out, (tuple, list)) else out
                chunks.append(out.float().cpu().numpy())
        return np.concatenate(chunks) if chunks else np.zeros((0, 0), np.float32)

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        obs, mask = np.asarray(obs), np.asarray(mask)
        expected = (len(self.observation_settings.channels), 10, 10)
        if obs.ndim != 4 or obs.shape[1:] != expected:
            raise ValueError(f"obs must have shape (B, {expected[0]}, 10, 10) for {self.observation_settings}; "
                             f"got {obs.shape}")
        if mask.dtype != np.bool_ or mask.ndim != 2 or mask.shape[0] != obs.shape[0]:
            raise ValueError(f"mask must be bool of shape ({obs.shape[0]}, num_actions), got {mask.dtype} {mask.shape}")
        logits = self.logits(obs)
        if logits.shape != mask.shape:
            raise ValueError(f"the network returned logits of shape {logits.shape} for a mask of shape "
                             f"{mask.shape}: it was built for another action space (variant)")
        no_move = np.flatnonzero(~mask.any(axis=1))
        if no_move.size:
            raise ValueError(f"mask row {int(no_move[0])} has no legal action: a policy is only asked to move "
                             "in a game that goes on")
        if not np.isfinite(logits).all():
            raise ValueError("the network returned NaN or infinite logits")
        scores = logits / self.temperature if self.sample else logits
        if self.sample:
            # Gumbel-max: argmax of logits + Gumbel noise is a draw from the softmax.
            scores = scores + self._rng.gumbel(size=scores.shape).astype(np.float32)
        return np.where(mask, scores, -np.inf).argmax(axis=1)
