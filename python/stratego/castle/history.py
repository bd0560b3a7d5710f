"""A castle game as its record holds it (`CastleRecord`, docs/castle.md "Records"), made
from a game by `game_record` (Game.record()). Reading, writing and replaying records is
stratego.castle.records'; this module needs no Game, so Game can use it (as the classic
Game uses stratego.history).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import variants

__all__ = ["CASTLE_FORMAT", "CASTLE_VERSION", "RECORD_SETTINGS", "CastleRecord", "game_record"]

CASTLE_FORMAT = "stratego-castle"
CASTLE_VERSION = 1
#: The settings a record holds: all but the mode, which it names apart.
RECORD_SETTINGS = tuple(name for name in variants.SETTINGS if name != "mode")


@dataclass
class CastleRecord:
    """One castle game as a record says it: checked in form, not yet replayed."""

    mode: str
    settings: dict[str, int]
    moves: list[str]
    seed: int | None = None
    setups: dict[str, list[int]] | None = None
    position: str | None = None
    winners: list[str] = field(default_factory=list)
    reason: str | None = None
    players: dict[str, str] = field(default_factory=dict)
    source: str = "record"

    def to_dict(self) -> dict:
        line = {"format": CASTLE_FORMAT, "version": CASTLE_VERSION, "mode": self.mode,
                "settings": dict(self.settings)}
        if self.seed is not None:
            line["seed"] = self.seed
            if self.setups:
                line["setups"] = {k: list(v) for k, v in self.setups.items()}
        else:
            line["position"] = self.position
        line["moves"] = list(self.moves)
        line["winners"] = list(self.winners)
        line["reason"] = self.reason
        if self.players:
            line["players"] = dict(self.players)
        return line


def game_record(game, players: dict | None = None) -> CastleRecord:
    """The record of a game played through Game.play (Game.record())."""
    start = game._start
    if start is None:
        raise ValueError("this game was restored from state bytes without its start (seed or position); "
                         "only games made by Game(...) or Game.from_text(...) have a record")
    settings = game.settings
    letters = game.seat_letters
    for key, name in (players or {}).items():
        if key not in letters or not isinstance(name, str):
            raise ValueError(f"players maps seat letters of {letters!r} to names, got {key!r}: {name!r}")
    return CastleRecord(mode=game.mode, settings={k: settings[k] for k in RECORD_SETTINGS}, moves=game.history,
                        seed=start.get("seed"), setups=start.get("setups"), position=start.get("position"),
                        winners=[letters[s] for s in game.winners], reason=game.end_reason,
                        players=dict(players or {}))
