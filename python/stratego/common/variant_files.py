"""Variant files, as both games read them: TOML files a package ships (configs/,
configs/castle/) or given by path, the settings in them checked as integers in range,
and the message that names the nearest known name for a misspelt one. What a file's
tables mean is the game's (stratego.variants, stratego.castle.variants).
"""
from __future__ import annotations

import difflib
import operator
import os
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any


def unknown_name(what: str, name: Any, known) -> str:
    """The message for a name that is none of `known` (a setting, a key): the nearest
    known names (difflib), then all of them, so a misspelling is found at a glance."""
    known = list(known)
    near = difflib.get_close_matches(name, known, n=3) if isinstance(name, str) else []
    hint = f" (did you mean {' or '.join(repr(n) for n in near)}?)" if near else ""
    return f"unknown {what} {name!r:.60}{hint}; expected one of {', '.join(known)}"


def setting_int(where: str, key: str, value: Any, lo: int, hi: int, switch: bool = False, meaning: str = "") -> int:
    """A setting's value as a Python int in [lo, hi]: any integer (int, NumPy integers:
    operator.index), a bool only for a switch (TOML's true/false); else TypeError or
    ValueError naming `where` (if any), the setting and (if given) what it means."""
    prefix = f"{where}: " if where else ""
    about = f" ({meaning})" if meaning else ""
    if isinstance(value, bool):
        if switch:
            return int(value)
        raise TypeError(f"{prefix}{key} must be an int in [{lo}, {hi}]{about}, got a bool")
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"{prefix}{key} must be an int in [{lo}, {hi}]{about}, got {type(value).__name__}") from None
    if not lo <= value <= hi:
        raise ValueError(f"{prefix}{key} must be in [{lo}, {hi}]{about}, got {value}")
    return value


def shipped_variants(package: str) -> list[str]:
    """Names of the variant files a package ships (its *.toml, without the suffix)."""
    root = resources.files(package)
    return sorted(p.name[:-5] for p in root.iterdir() if p.name.endswith(".toml"))


def read_variant_file(variant: str | os.PathLike, package: str, prefix: str = "") -> tuple[dict[str, Any], str]:
    """The TOML table of a variant (a name `package` ships, or a path to a .toml file)
    and where it came from (the name or the path); ValueError (its message begins with
    `prefix` and where) for a missing, unreadable, non-UTF-8 or invalid file."""
    if isinstance(variant, os.PathLike) or (isinstance(variant, str) and variant.endswith(".toml")):
        path = Path(variant)
        if not path.is_file():
            raise ValueError(f"variant file {str(path)!r} does not exist")
        try:
            text, where = path.read_text(encoding="utf-8"), str(path)
        except UnicodeDecodeError as exc:
            raise ValueError(f"variant file {str(path)!r} is not UTF-8 text ({exc.reason} at byte "
                             f"{exc.start}); TOML files are UTF-8") from None
        except OSError as exc:
            raise ValueError(f"variant file {str(path)!r} cannot be read: {exc.strerror or exc}") from None
    elif not isinstance(variant, str):
        raise TypeError(f"variant must be a name or a path to a .toml file, got {type(variant).__name__}")
    else:
        known = shipped_variants(package)
        if variant not in known:
            raise ValueError(f"unknown variant {variant!r}; expected one of {known} or a path to a .toml file")
        text, where = resources.files(package).joinpath(f"{variant}.toml").read_text("utf-8"), variant
    try:
        return tomllib.loads(text), where
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{prefix}{where}: not valid TOML: {exc}") from None
    except RecursionError:
        # tomllib parses nested arrays and inline tables recursively.
        raise ValueError(f"{prefix}{where}: nested too deeply to be a variant file (a variant "
                         "holds tables of numbers)") from None
