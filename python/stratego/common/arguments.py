"""Checks of arguments: a keyword that names one of a set of choices (check_one_of), an
autoreset mode by name or value (check_autoreset_mode), and
argparse types for numeric command-line options that refuse what the option cannot mean.

float("nan"), float("inf") and "1e999" all parse as floats, and a NaN passes every
comparison test by failing it (`nan <= 0` is False), so a time limit of NaN would never
be reached. Each type here takes the option's range and raises
argparse.ArgumentTypeError (a usage error naming the option) for text that is not a
number, not finite, or out of range. Shared by `stratego` and the benchmarks/ scripts.
"""
from __future__ import annotations

import argparse
import math
from typing import Callable

from gymnasium.vector import AutoresetMode

from .._core import MAX_ENVS, MAX_THREADS  # noqa: F401 (cli.py's) a Batch's limits (num_threads 0: VecEnv resolves it, stratego.default_num_threads)


def check_one_of(name: str, value, choices) -> None:
    """ValueError naming `name`, the choices (in their own order) and the value, unless
    `value` is one of `choices` (a dict's keys, a tuple...)."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {list(choices)}, got {value!r}")


def check_autoreset_mode(mode) -> AutoresetMode:
    """An AutoresetMode from the enum, its name in any case ("next_step") or its value
    ("NextStep")."""
    if isinstance(mode, AutoresetMode):
        return mode
    names = {m.value: m for m in AutoresetMode} | {m.name.lower(): m for m in AutoresetMode}
    if isinstance(mode, str) and (mode in names or mode.lower() in names):
        return names.get(mode) or names[mode.lower()]
    raise ValueError(f"autoreset_mode must be a gymnasium.vector.AutoresetMode or one of "
                     f"{sorted(m.name.lower() for m in AutoresetMode)}, got {mode!r}")


def int_in(lo: int, hi: int) -> Callable[[str], int]:
    """An integer option in [lo, hi]."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer in [{lo}, {hi}], got {text!r}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"must be in [{lo}, {hi}], got {value}")
        return value
    parse.__name__ = "integer"  # argparse names the type in its own messages
    return parse


def float_in(lo: float, hi: float, *, lo_open: bool = False) -> Callable[[str], float]:
    """A finite float option in [lo, hi] ((lo, hi] with lo_open)."""
    low = f"({lo:g}" if lo_open else f"[{lo:g}"
    high = f"{hi:g}]"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number in {low}, {high}, got {text!r}") from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"must be a finite number in {low}, {high}, got {text!r}")
        if value < lo or (lo_open and value == lo) or value > hi:
            raise argparse.ArgumentTypeError(f"must be in {low}, {high}, got {text!r}")
        return value
    parse.__name__ = "number"
    return parse


def int_list(lo: int, hi: int) -> Callable[[str], list[int]]:
    """A comma-separated list of integers in [lo, hi], e.g. "256,4096"."""
    item = int_in(lo, hi)

    def parse(text: str) -> list[int]:
        parts = [p.strip() for p in text.split(",")]
        if not all(parts):
            raise argparse.ArgumentTypeError(f"expected integers separated by commas, got {text!r}")
        return [item(p) for p in parts]
    parse.__name__ = "list of integers"
    return parse
