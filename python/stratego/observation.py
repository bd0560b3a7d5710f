"""The layout of observations, and a readable print of one (for debugging).

The encoder is C (csrc/stratego/observe.c); this module only names its channels and shows
them. See the README table or `channel_names()` for the layout.
"""
from __future__ import annotations

import numpy as np

from . import _core
from .notation import COLUMNS
from .viewing.render import SYMBOLS
from .variants import PIECE_NAMES

#: Bumped whenever the channel layout changes.
OBSERVATION_VERSION: int = _core.OBSERVATION_VERSION

#: Channels of the full-information view (true types of every piece).
FULL_OBSERVATION_CHANNELS: tuple[str, ...] = _core.full_channel_names()


def channel_names(history_k: int = 4, belief: bool = False, deploy: bool = False) -> tuple[str, ...]:
    """Names of the partial view's channels, in order (deploy: with the deployment
    planes of setup="agent", docs/deployment.md). history_k is checked in C (an int in
    [0, HISTORY_NB]; 1.5 is a TypeError, not 1), as Game and VecEnv check it."""
    return _core.channel_names(history_k, bool(belief), True, False, bool(deploy))


def format_observation(obs: np.ndarray, history_k: int = 4, belief: bool = False, deploy: bool = False) -> str:
    """One partial observation (C, 10, 10) as a board, the observer at the bottom.

    Own pieces show their rank in capitals with a '*' when the opponent knows them;
    opponent pieces show 'x' + rank when identified, '?' unknown unmoved, '?m' unknown
    moved. Then the counts and progress planes (and with deploy, setup="agent", the
    pieces in hand while deploying).
    """
    names = channel_names(history_k, belief, deploy)
    obs = np.asarray(obs)
    shape = _core.observation_shape(history_k, bool(belief), False, False, bool(deploy))
    if obs.shape != shape:
        raise ValueError(f"obs must have shape {shape} for history_k={history_k}, "
                         f"belief={belief}, deploy={deploy}; got {obs.shape}")
    idx = {name: i for i, name in enumerate(names)}
    lines = ["    " + "".join(f"{c:^4}" for c in COLUMNS)]
    for row in range(9, -1, -1):
        cells = []
        for col in range(10):
            text = "."
            if obs[idx["lake"], row, col]:
                text = "~~"
            for name, sym in zip(PIECE_NAMES, SYMBOLS):
                if obs[idx[f"own_{name}"], row, col]:
                    text = sym + ("*" if obs[idx["own_revealed"], row, col] else "")
                if obs[idx[f"opp_{name}"], row, col]:
                    text = "x" + sym
            if obs[idx["opp_unknown_moved"], row, col]:
                text = "?m"
            if obs[idx["opp_unknown_unmoved"], row, col]:
                text = "?"
            cells.append(f"{text:^4}")
        lines.append(f"{row + 1:>2}  " + "".join(cells))
    own = [int(obs[idx[f"own_count_{n}"], 0, 0]) for n in PIECE_NAMES]
    opp = [int(obs[idx[f"opp_count_{n}"], 0, 0]) for n in PIECE_NAMES]
    lines.append("own on board: " + " ".join(f"{s}:{c}" for s, c in zip(SYMBOLS, own)))
    lines.append("opp on board: " + " ".join(f"{s}:{c}" for s, c in zip(SYMBOLS, opp)))
    lines.append(f"ply progress {float(obs[idx['ply_progress'], 0, 0]):g}, "
                 f"no-attack progress {float(obs[idx['no_attack_progress'], 0, 0]):g}")
    if deploy and obs[idx["deploying"], 0, 0]:
        hand = [int(obs[idx[f"hand_{n}"], 0, 0]) for n in PIECE_NAMES]
        lines.append("deploying; in hand: " + " ".join(f"{s}:{c}" for s, c in zip(SYMBOLS, hand)))
    return "\n".join(lines)

