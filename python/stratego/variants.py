"""Variants: the rule settings of each game type, read from TOML files in configs/.

A variant is a name (a file `configs/<name>.toml` shipped with the package) or a path to
such a file. Keyword settings override the file's `[rules]` values, so
`load_variant("classic", two_square_limit=5)` is classic with Gravon's limit.
"""
from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from typing import Any, Mapping

from . import _core
from .common.variant_files import read_variant_file, setting_int, shipped_variants, unknown_name

#: Piece names in the engine's type order (Gravon's letter order B..M), from the C core.
PIECE_NAMES: tuple[str, ...] = _core.PIECE_NAMES

#: Rule settings a variant file's [rules] table (or a keyword) may set, with the
#: inclusive range the engine accepts: read from the C core's one list (csrc/stratego/rules.h,
#: _core.RULE_SETTINGS), never written here.
RULE_SETTINGS: dict[str, tuple[int, int]] = {name: (lo, hi) for name, _type, lo, hi, _default, _moves, _doc in _core.RULE_SETTINGS}
#: The switches (range 0..1): a file that leaves one out has its default (off).
SWITCHES: tuple[str, ...] = tuple(name for name, (lo, hi) in RULE_SETTINGS.items() if (lo, hi) == (0, 1))
#: Every rule setting's default, from the same list.
RULE_DEFAULTS: dict[str, int] = {name: default for name, _type, _lo, _hi, default, _moves, _doc in _core.RULE_SETTINGS}
#: Where the shipped variant files are (configs/, installed as this package).
PACKAGE = "stratego.configs"


@dataclass(frozen=True)
class Variant:
    """A variant's name, description, piece counts and rule settings.

    Checked when made, so that no path plays or records a setting the engine does not
    know: `settings` names every setting of RULE_SETTINGS (a misspelt or missing one is a
    ValueError naming it and the nearest known names), each an integer in its range
    (NumPy integers too; stored as Python ints); `piece_counts` is 12 integers."""

    name: str
    description: str
    piece_counts: tuple[int, ...]
    settings: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        where = f"Variant {self.name!r:.60}"
        if not isinstance(self.name, str):
            raise TypeError(f"a Variant's name must be a str, got {type(self.name).__name__}")
        if not isinstance(self.description, str):
            raise TypeError(f"{where}: description must be a str, got {type(self.description).__name__}")
        counts = self.piece_counts
        if isinstance(counts, (str, bytes)) or not hasattr(counts, "__len__") or len(counts) != len(PIECE_NAMES):
            raise ValueError(f"{where}: piece_counts must be {len(PIECE_NAMES)} ints ({', '.join(PIECE_NAMES)}), "
                             f"got {counts!r:.80}")
        counts = tuple(setting_int(where, f"piece_counts[{i}] ({n})", c, 0, _core.MAX_PIECES)
                       for i, (n, c) in enumerate(zip(PIECE_NAMES, counts)))
        if not isinstance(self.settings, Mapping):
            raise TypeError(f"{where}: settings must be a mapping of setting names to ints, "
                            f"got {type(self.settings).__name__}")
        settings = {}
        for key, value in self.settings.items():
            if key not in RULE_SETTINGS:
                raise ValueError(f"{where}: " + unknown_name("rule setting", key, RULE_SETTINGS))
            settings[key] = setting_int(where, key, value, *RULE_SETTINGS[key], switch=key in SWITCHES)
        missing = [key for key in RULE_SETTINGS if key not in settings]
        if missing:
            raise ValueError(f"{where}: settings lack {', '.join(missing)}; a Variant names every rule setting "
                             "(load_variant(name, **settings) fills them from a variant file)")
        object.__setattr__(self, "piece_counts", counts)
        object.__setattr__(self, "settings", settings)

    def __reduce__(self):
        # Unpickled through the constructor, so a pickle is checked as a new Variant is.
        return (Variant, (self.name, self.description, tuple(self.piece_counts), dict(self.settings)))

    @property
    def rules(self) -> dict[str, Any]:
        """The dict the C core takes."""
        return {"piece_counts": list(self.piece_counts), **self.settings}

    @property
    def num_pieces(self) -> int:
        return sum(self.piece_counts)

    @functools.cached_property
    def num_actions(self) -> int:
        """Size of the action space: 1800 line moves, then Captains' diagonal moves and
        rescues where the variant has them (see stratego.actions). Asked of C once: Game.play
        reads it every move."""
        return _core.num_actions(self.rules)


def variants() -> list[str]:
    """Names of the variants shipped with the package (configs/*.toml)."""
    return shipped_variants(PACKAGE)


def load_variant(variant: str | os.PathLike | Variant = "classic", **overrides: int) -> Variant:
    """Reads a variant by name or path; keyword settings override its [rules]."""
    if isinstance(variant, Variant):
        base = variant
    else:
        data, where = read_variant_file(variant, PACKAGE, "variant ")
        unknown = set(data) - {"name", "description", "pieces", "rules"}
        if unknown:
            raise ValueError(f"variant {where}: unknown keys {sorted(unknown)}; expected name, description, pieces, rules")
        pieces = data.get("pieces")
        if not isinstance(pieces, dict):
            raise ValueError(f"variant {where}: needs a [pieces] table with counts of {PIECE_NAMES}")
        bad = set(pieces) - set(PIECE_NAMES)
        if bad:
            raise ValueError(f"variant {where}: unknown pieces {sorted(bad)}; expected names from {PIECE_NAMES}")
        counts = tuple(setting_int(where, n, pieces.get(n, 0), 0, _core.MAX_PIECES) for n in PIECE_NAMES)
        rules = data.get("rules", {})
        if not isinstance(rules, dict):
            raise ValueError(f"variant {where}: [rules] must be a table")
        settings = {}
        for key, value in rules.items():
            if key not in RULE_SETTINGS:
                raise ValueError(f"variant {where}: " + unknown_name("rule setting", key, RULE_SETTINGS))
            settings[key] = setting_int(f"variant {where}", key, value, *RULE_SETTINGS[key], switch=key in SWITCHES)
        for switch in SWITCHES:
            settings.setdefault(switch, RULE_DEFAULTS[switch])
        missing = set(RULE_SETTINGS) - set(settings)
        if missing:
            raise ValueError(f"variant {where}: [rules] is missing {sorted(missing)}")
        base = Variant(str(data.get("name", where)), str(data.get("description", "")), counts, settings)
    if not overrides:
        return base
    settings = dict(base.settings)
    for key, value in overrides.items():
        if key not in RULE_SETTINGS:
            raise ValueError(unknown_name("rule setting", key, RULE_SETTINGS))
        settings[key] = setting_int("setting", key, value, *RULE_SETTINGS[key], switch=key in SWITCHES)
    return Variant(base.name, base.description, base.piece_counts, settings)
