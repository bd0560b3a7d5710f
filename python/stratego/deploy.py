"""Where a game's setups come from: `setup=` of Game, VecEnv, StrategoEnv and the
PettingZoo env (docs/deployment.md).

- "random": uniformly random setups (never one that leaves a side without a move);
- "human": setups of human players drawn at random (stratego.setups);
- "agent": the players deploy their own pieces, one placement an action, before the
  first move (the deployment phase, csrc/stratego/game.h);
- a pair (red's, blue's) for mixed modes: one side "agent", the other "random" or
  "human", e.g. ("agent", "human") for an agent that learns to deploy against fixed
  human setups.

The rules and the order of the phase are C's (csrc/stratego/game.h); this module only reads the
words.
"""
from __future__ import annotations

from .setups import human_setups
from .variants import Variant, load_variant

SOURCES = ("random", "human", "agent")


def parse_setup(setup, variant: Variant) -> tuple[Variant, object, int]:
    """(variant, table, deploy) for `setup`: the variant with deploy=1 where a side
    deploys (its action space then holds the placements), the table of human setups or
    None, and the deploying sides as bits (1 red, 2 blue)."""
    if isinstance(setup, str):
        sides = (setup, setup)
    elif isinstance(setup, (tuple, list)) and len(setup) == 2 and all(isinstance(s, str) for s in setup):
        sides = tuple(setup)
    else:
        raise ValueError(f"setup must be one of {SOURCES} or a pair (red's, blue's) of them, got {setup!r}")
    for side in sides:
        if side not in SOURCES:
            raise ValueError(f"setup must be one of {SOURCES} or a pair (red's, blue's) of them, got {setup!r}")
    fixed = {side for side in sides if side != "agent"}
    if len(fixed) > 1:
        raise ValueError(f"setup {setup!r}: the sides that do not deploy share one source; "
                         "pair 'agent' with 'random' or 'human'")
    deploy = sum(1 << p for p, side in enumerate(sides) if side == "agent")
    table = human_setups(variant) if "human" in fixed else None
    if deploy and not variant.settings.get("deploy", 0):
        variant = load_variant(variant, deploy=1)
    return variant, table, deploy
