"""The castle game's settings and variant files (docs/castle.md "Settings and variant files").

The list of settings is C's (`_core.CASTLE_SETTINGS`: name, low, high, default, meaning);
this module only reads TOML files of `configs/castle/` (or a path) and keyword overrides
into the tuple the core takes, with errors that name the setting.
"""
from __future__ import annotations

from stratego import _core
from stratego.common.variant_files import read_variant_file, setting_int, shipped_variants, unknown_name

SETTINGS = tuple(row[0] for row in _core.CASTLE_SETTINGS)
MODES = tuple(_core.CASTLE_MODES)
_INFO = {row[0]: row for row in _core.CASTLE_SETTINGS}
PACKAGE = "stratego.configs.castle"
#: The seats' letters and names in seat order (docs/castle.md "Modes and seats"): north,
#: east, south, west, clockwise; with three players (ffa3, board A2) the third seat plays
#: the west zone, so its letters are "new".
SEAT_NAMES = {"n": "North", "e": "East", "s": "South", "w": "West"}


def seat_letters(seats: int) -> str:
    """The letters of a game's seats, seat 0 first: "nesw" for four, "new" for three."""
    return "new" if seats == 3 else "nesw"


def variant_names() -> list[str]:
    """The variant files shipped with the package (configs/castle/*.toml)."""
    return shipped_variants(PACKAGE)


def _value(name: str, value) -> int:
    """A setting's value as the core's int: mode by name, switches by bool, integers
    (NumPy's too) in range; errors name the setting and, for a misspelt one, the nearest."""
    if name not in _INFO:
        raise ValueError(unknown_name("castle setting", name, SETTINGS))
    _, lo, hi, _, doc = _INFO[name]
    if name == "mode" and isinstance(value, str):
        if value not in MODES:
            raise ValueError(f"mode must be one of {list(MODES)}, got {value!r}")
        return MODES.index(value)
    return setting_int("", name, value, lo, hi, switch=(lo, hi) == (0, 1), meaning=doc)


def load_settings(variant=None, **overrides) -> dict[str, int]:
    """The settings of a variant (a name, a path, or None for the defaults), then overrides."""
    settings = {row[0]: row[3] for row in _core.CASTLE_SETTINGS}
    if variant is not None:
        data, where = read_variant_file(variant, PACKAGE)
        table = data.get("castle")
        if not isinstance(table, dict):
            raise ValueError(f"{where}: expected a [castle] table of settings")
        extra = set(data) - {"name", "description", "castle"}
        if extra:
            raise ValueError(f"{where}: unknown keys {sorted(extra)}; expected name, description and [castle]")
        for name, value in table.items():
            try:
                settings[name] = _value(name, value)
            except (TypeError, ValueError) as exc:
                raise type(exc)(f"{where}: {exc}") from None
    for name, value in overrides.items():
        settings[name] = _value(name, value)
    seats = 3 if settings["mode"] == MODES.index("ffa3") else 4
    if settings["first_seat"] >= seats:
        raise ValueError(f"first_seat must be below the {seats} seats of {MODES[settings['mode']]}, got {settings['first_seat']}")
    return settings


def settings_tuple(settings: dict[str, int]) -> tuple[int, ...]:
    """The core's order of a settings dict."""
    return tuple(settings[name] for name in SETTINGS)
