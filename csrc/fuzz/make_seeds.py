"""Writes the seed inputs of the fuzz targets (see README.md in this folder).

    .venv/bin/python csrc/fuzz/make_seeds.py [GRAVON_DIR]

corpus_engine/: random games under the classic rules, real Gravon start fields with the
first moves of their games (encoded as fuzz_engine.c reads them), variants with
fuzzed rules, batches. corpus_field/: Gravon fields, a few broken ones. corpus_state/:
states of random games as saved bytes. corpus_records/:
a handful of small real Gravon records, and JSON lines records of random games (a
barrage game, an Ultimate Lightning game with rescues, a variant of its own that ends
by resignation). The seeds are a starting point only: after a
run, `make -C csrc/fuzz merge` keeps the inputs that add coverage.
"""
from __future__ import annotations

import hashlib
import random
import struct
import sys
from pathlib import Path

import stratego
from stratego.actions import squares_to_action
from stratego.records import iter_records, record_to_json
from stratego.variants import SWITCHES

HERE = Path(__file__).resolve().parent
GRAVON = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE.parents[2] / "shared" / "data" / "gravon"
FIELD_LETTERS = "A_BCDEFGHIJKLMNOPQRSTUVWXY"

# Bit i of the fuzzers' variant byte is the i-th switch of rules.h (fuzz_set_switches).
VARIANT_SWITCHES = SWITCHES
MODE_FIELD, MODE_BLUE_FIRST, MODE_RULES, MODE_RAW_FIELD, MODE_BATCH, MODE_VIEWS = (1 << i for i in range(6))


def write(folder: str, data: bytes) -> None:
    path = HERE / folder
    path.mkdir(exist_ok=True)
    (path / hashlib.sha1(data).hexdigest()).write_bytes(data)


def rules_bytes(counts, setup_rows, limit, max_plies, quiet) -> bytes:
    # fuzz_engine.c reads counts % 6 (flag % 3), setup_rows % 6, caps & 0x7fff % cap.
    return bytes(counts) + bytes([setup_rows, limit]) + struct.pack("<HH", max_plies, quiet)


def legal_plies(rng: random.Random, n: int) -> bytes:
    # op bit 0: the (pick % n)-th legal move; bit 1 sometimes: check the views.
    return b"".join(bytes([1 | (2 if rng.random() < 0.1 else 0)]) + struct.pack("<H", rng.randrange(65536))
                    for _ in range(n))


def main() -> None:
    rng = random.Random(20240601)
    records = [r for r in iter_records(GRAVON) if r.moves][:400]
    rng.shuffle(records)

    # Random games, classic rules.
    for i in range(6):
        write("corpus_engine", bytes([0]) + struct.pack("<Q", rng.getrandbits(64)) + legal_plies(rng, 150))
    # Real start fields and their first moves, as raw actions (op 0).
    for rec in records[:8]:
        data = bytes([MODE_FIELD | MODE_RAW_FIELD]) + bytes(FIELD_LETTERS.index(c) for c in rec.field)
        for k, mv in enumerate(rec.moves[:80]):
            data += bytes([0]) + struct.pack("<H", squares_to_action(mv.source, mv.target, k % 2))
        write("corpus_engine", data)
    # Small variants: barrage-like counts, short caps, tight two-square limit.
    barrage = [1, 1, 2, 1, 0, 0, 0, 0, 0, 1, 1, 1]
    for setup_rows, limit, caps in ((4, 3, (200, 50)), (2, 1, (60, 20)), (1, 5, (0x8000, 0x8000))):
        data = bytes([MODE_RULES]) + rules_bytes(barrage, setup_rows, limit, *caps) + bytes([0])
        data += struct.pack("<Q", rng.getrandbits(64)) + legal_plies(rng, 120)
        write("corpus_engine", data)
    # A field with few pieces (scouts, a bomb, flags), to reach endings.
    for _ in range(4):
        field = ["_" if (r in (4, 5) and c in (2, 3, 6, 7)) else "A" for r in range(10) for c in range(10)]
        for letter in "BDDMNPPY" + rng.choice(["E", "Q", "L", "X"]):
            sq = rng.choice([i for i, ch in enumerate(field) if ch == "A"])
            field[sq] = letter
        data = bytes([MODE_FIELD | MODE_RAW_FIELD | MODE_VIEWS | (MODE_BLUE_FIRST * rng.randrange(2))])
        data += bytes(FIELD_LETTERS.index(c) for c in field) + legal_plies(rng, 100)
        write("corpus_engine", data)
    # Batches: classic rules with sampled and raw actions, all view settings.
    for views in range(3):
        shape = 1 | (views << 1) | (8 if views == 2 else 0)
        spec = (4 if views < 2 else 32) | (0xC0 if views == 1 else 0)
        steps = b"".join(bytes([1]) if rng.random() < 0.8 else bytes([0]) + rng.randbytes(6) for _ in range(40))
        data = bytes([MODE_BATCH, shape, spec]) + struct.pack("<Q", rng.getrandbits(64)) + bytes([40]) + steps
        write("corpus_engine", data + struct.pack("<Q", rng.getrandbits(64)) + legal_plies(rng, 20))

    # Field target: real fields, and broken ones (short, bad letter, lake moved, 41 pieces).
    for rec in records[:12]:
        write("corpus_field", rec.field.encode())
    f = records[0].field
    write("corpus_field", f[:99].encode())
    write("corpus_field", (f[:10] + "Z" + f[11:]).encode())
    write("corpus_field", (f[:42] + "A" + f[43:]).encode())
    write("corpus_field", ("B" * 40 + "AA__AA__AA" * 2 + "C" + "A" * 39).encode())

    # State target: states of random games at various plies, as GameState.to_bytes()
    # gives them (the bytes a pickle or a save holds), then a limit byte and plies.
    # The variant byte after the limit byte matches the variant's switches.
    for name in stratego.variants():
        rules = stratego.load_variant(name).rules
        switches = sum(int(rules.get(key, 0)) << bit for bit, key in enumerate(VARIANT_SWITCHES))
        for i in range(3):
            try:
                game = stratego.Game(variant=name, seed=rng.getrandbits(32))
            except ValueError:
                break
            for _ in range(rng.choice([0, 5, 40, 150, 400])):
                if game.done:
                    break
                game.play(rng.choice(game.legal_actions()))
            write("corpus_state", game._state.to_bytes() + bytes([rules.get("two_square_limit", 3) % 8, switches])
                  + legal_plies(rng, 20))
    # Engine: the default counts under each variant's switches (mode bit 6).
    for name in stratego.variants():
        rules = stratego.load_variant(name).rules
        switches = sum(int(rules.get(key, 0)) << bit for bit, key in enumerate(VARIANT_SWITCHES))
        write("corpus_engine", bytes([1 << 6, switches]) + struct.pack("<Q", rng.getrandbits(64)) + legal_plies(rng, 150))

    # Records: the smallest real records of each game type.
    by_type: dict[str, list] = {}
    for rec in iter_records(GRAVON):
        by_type.setdefault(rec.game_type, []).append(rec)
    for recs in by_type.values():
        for rec in sorted(recs, key=lambda r: len(r.moves))[:3]:
            write("corpus_records", Path(rec.path).read_bytes())
    # JSON lines records (the project's format): every kind of line the writer makes.
    barrage = stratego.load_variant("barrage")
    own = stratego.Variant("mine", "own", barrage.piece_counts, dict(barrage.settings, aggressor_wins=1))
    for variant, seed, plies in (("barrage", 3, None), ("ultimate-lightning", 1, None), (own, 2, 20)):
        game = stratego.Game(variant, seed=seed)
        while not game.done and (plies is None or len(game.history) < plies):
            game.play(game.bot_move("random"))
        if not game.done:
            game.resign()
        write("corpus_records", (record_to_json(game.record()) + "\n").encode())


if __name__ == "__main__":
    main()
