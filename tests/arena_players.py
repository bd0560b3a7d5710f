"""Python policies for the arena tests (loaded as 'tests/arena_players.py:NAME')."""
from __future__ import annotations

import numpy as np

from stratego import channel_names
from stratego.agents.policy import observes


def first_legal(obs, mask):
    """The legal action with the smallest index."""
    return mask.argmax(axis=1)


@observes(history_k=0, obs_dtype="float32")
def first_legal_float(obs, mask):
    """The same moves as first_legal, from other observations (another env in lockstep)."""
    assert obs.dtype == np.float32 and obs.shape[1:] == (len(channel_names(0)), 10, 10), obs.shape
    return mask.argmax(axis=1)


def last_legal(obs, mask):
    """The legal action with the largest index."""
    return mask.shape[1] - 1 - mask[:, ::-1].argmax(axis=1)


def always_zero(obs, mask):
    """Action 0 whatever the mask: illegal in almost every position."""
    return np.zeros(len(mask), dtype=np.int64)


def one_short(obs, mask):
    """One action too few."""
    return mask.argmax(axis=1)[:-1]


def floats(obs, mask):
    return mask.argmax(axis=1).astype(np.float64)
