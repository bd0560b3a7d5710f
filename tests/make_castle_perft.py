"""Regenerate tests/data/castle_perft.json with the castle reference mover.

    python tests/make_castle_perft.py            # writes tests/data/castle_perft.json
    python tests/make_castle_perft.py --check    # exits 1 if the file is out of date

Each entry is {"name", "mode", "settings", "start", "prefix", "counts"}: ``start`` a
start position in the text board of docs/castle.md (fixed setups drawn from a seed),
``prefix`` the decisions played from it (notation strings), ``counts`` the perft counts
(decision sequences of 1, 2, 3 decisions) from the position the prefix reaches, under
``settings`` (keywords of stratego.castle.Game; absent ones take their defaults).

The prefixes come from seeded random games whose moves lean towards the castle and
towards fights, so that they reach what the rules make special: pieces on the ring and
the turret, carriers and lone flags (abandoned ones too), a pending take or recruit
decision, cannons that can fire, back-and-forth runs near the limit. For each mode and
each such situation the first ply (after the opening) where it holds is kept.
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import castle_reference as ref  # noqa: E402

OUT = HERE / "data" / "castle_perft.json"
DEPTHS = (1, 2, 3)
OPENING = 24  # plies before a situation counts as mid-game


def setup_text(settings: ref.Settings, seed: int) -> str:
    rng = random.Random(seed)
    geo = settings.geometry
    return ref.to_text(ref.start(settings, {x: ref.random_setup(geo, x, rng) for x in geo.seats}))


def castle_distance(node: str) -> int:
    if node in ref.CASTLE:
        return 0
    col, row = ref.cell_of(node)
    return abs(col - 7) + abs(row - 7)


def back_move(state: ref.State) -> str | None:
    """The move that would continue the back-and-forth run of the seat to move, if legal."""
    record = state.repeat[state.to_move]
    if record is None:
        return None
    _, at, other, _ = record
    for move in ref.legal(state):
        if move.split()[0].replace("x", "-") == f"{at}-{other}":
            return move
    return None


def choose(state: ref.State, rng: random.Random, shuffle: float) -> str:
    """A random decision that leans towards the castle and towards fights, and with
    probability ``shuffle`` goes back where the mover's last move came from."""
    options = ref.legal(state)
    if state.phase == "move" and rng.random() < shuffle:
        back = back_move(state)
        if back is not None:
            return back
    if state.phase != "move" or rng.random() < 0.3:
        return rng.choice(options)
    fights = [m for m in options if "x" in m or "*" in m]
    if fights and rng.random() < 0.6:
        return rng.choice(fights)

    def gain(move: str) -> int:
        src, dst = move.split()[0].replace("x", "-").replace("*", "-").split("-")
        return castle_distance(src) - castle_distance(dst)

    best = max(gain(m) for m in options)
    return rng.choice([m for m in options if gain(m) == best])


SITUATIONS = {
    "ring": lambda s: ref.RING in s.board,
    "turret": lambda s: ref.TURRET in s.board,
    "carrier-of-rival": lambda s: any(p.flag is not None and p.flag != p.seat for p in s.board.values()),
    "lone-flag": lambda s: any(s.lone.values()) and s.phase == "move",
    "abandoned": lambda s: any(a for flags in s.lone.values() for _, a in flags),
    "take": lambda s: s.phase == "take",
    "recruit": lambda s: s.phase == "recruit",
    "shot": lambda s: s.phase == "move" and any("*" in m for m in ref.legal(s)),
    # The seat to move has a piece whose next move back would break the limit.
    "back-and-forth": lambda s: s.phase == "move" and back_move(s) is None and
    s.repeat[s.to_move] is not None and s.repeat[s.to_move][3] >= s.settings.back_and_forth and
    s.board.get(s.repeat[s.to_move][1]) is not None and s.board[s.repeat[s.to_move][1]].pid == s.repeat[s.to_move][0],
}


def find_situations(settings: ref.Settings, start_text: str, seeds, wanted, shuffle: float) -> dict:
    """{situation: prefix}: the first ply of the seeded games where each one holds."""
    found: dict[str, list[str]] = {}
    for seed in seeds:
        rng = random.Random(seed)
        state = ref.from_text(start_text, settings)
        prefix: list[str] = []
        while not state.done and len(prefix) < 1500 and len(found) < len(wanted):
            if len(prefix) >= OPENING:
                for name in wanted:
                    if name not in found and SITUATIONS[name](state) and ref.legal(state):
                        found[name] = list(prefix)
            move = choose(state, rng, shuffle)
            prefix.append(move)
            state = ref.play(state, move)
        if len(found) == len(wanted):
            break
    return found


# (mode, settings, setup seed, situations, game seeds, shuffle)
R4 = {"back_and_forth": 10, "recruit_public": 0, "abandon": 0}  # the fan game's choices
GENERAL = [name for name in SITUATIONS if name != "back-and-forth"]
PLANS = [
    ("ffa4", {}, 11, GENERAL, range(100, 140), 0.0),
    ("teams4", {}, 12, GENERAL, range(200, 240), 0.0),
    ("ffa3", {}, 13, GENERAL, range(300, 340), 0.0),
    ("ffa4", {}, 21, ["back-and-forth"], range(110, 150), 0.8),
    ("teams4", {}, 22, ["back-and-forth"], range(210, 250), 0.8),
    ("ffa3", {}, 23, ["back-and-forth"], range(310, 350), 0.8),
    # The A-choices a setting flips, each where it changes the moves.
    ("ffa4", {"cannon_over_lakes": 0}, 14, ["shot"], range(400, 440), 0.0),
    ("ffa4", {"scout_line_attack": 0}, 15, ["ring"], range(500, 540), 0.0),
    ("ffa4", {"flag_recruit_owner": 1}, 16, ["carrier-of-rival", "recruit"], range(600, 640), 0.0),
    ("teams4", R4, 17, ["carrier-of-rival", "recruit"], range(700, 740), 0.0),
    ("teams4", R4, 17, ["back-and-forth"], range(700, 740), 0.9),
    ("ffa4", {"back_and_forth": 2}, 18, ["back-and-forth"], range(800, 840), 0.8),
]


def entries() -> list[dict]:
    out = []
    for mode, extra, setup_seed, wanted, seeds, shuffle in PLANS:
        settings = ref.Settings(mode=mode, **extra)
        start = setup_text(settings, setup_seed)
        tag = "-".join(f"{k}={v}" for k, v in extra.items())
        name = f"{mode}{'-' + tag if tag else ''}"
        positions = {"start": []} if not extra and shuffle == 0 else {}
        found = find_situations(settings, start, seeds, wanted, shuffle)
        missing = set(wanted) - set(found)
        if missing:
            raise SystemExit(f"{name}: no game of seeds {seeds} reached {sorted(missing)}")
        for situation, prefix in found.items():
            # One entry per position: a situation met at the same ply as another is left out.
            if prefix not in positions.values():
                positions[situation] = prefix
        for situation, prefix in positions.items():
            state = ref.from_text(start, settings)
            for move in prefix:
                state = ref.play(state, move)
            counts = [ref.perft(state, d) for d in DEPTHS]
            out.append({"name": f"{name}-{situation}", "mode": mode, "settings": extra,
                        "start": start, "prefix": prefix, "counts": counts})
            print(f"{name}-{situation}: ply {len(prefix)}, counts {counts}", file=sys.stderr)
    return out


def main(argv: list[str]) -> int:
    # One entry a line: small, and a change shows as the entries it touches.
    data = "[\n" + ",\n".join(json.dumps(entry) for entry in entries()) + "\n]\n"
    if "--check" in argv:
        if OUT.read_text() != data:
            print(f"{OUT} is out of date: run python tests/make_castle_perft.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(data)
    print(f"wrote {OUT} ({len(data)} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
