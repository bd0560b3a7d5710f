"""Tests of the partial observations (csrc/stratego/observe.h), the full-information view
(csrc/stratego/observe_full.h) and the VecEnv / Gymnasium interface that carries them.

The most important test here is the leak test: two games that differ only in the
types of opponent pieces the observer never saw must give that observer bit-identical
observations at every ply. The other tests compare the encoder with a reference
written in Python from the game's public history (tracked move by move below), and the
belief planes with a brute-force enumeration of every assignment of the hidden types.
"""
from __future__ import annotations

import random
import sys
from fractions import Fraction
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import stratego
from stratego.notation import parse_square
from stratego.variants import PIECE_NAMES

sys.path.insert(0, str(Path(__file__).resolve().parent))
from boards import LAKES, board  # noqa: E402
from depth import depth  # noqa: E402

RED, BLUE = 0, 1
T = {name: i for i, name in enumerate(PIECE_NAMES)}
BOMB, SCOUT, FLAG = T["bomb"], T["scout"], T["flag"]
IMMOBILE = (BOMB, FLAG)
CLASSIC = stratego.load_variant("classic")
CLASSIC_MAX_PLIES = CLASSIC.settings["max_plies"]
CLASSIC_MAX_NO_ATTACK = CLASSIC.settings["max_plies_without_attack"]


# -- helpers ---------------------------------------------------------------------------
def owner(letter: str) -> int | None:
    if "B" <= letter <= "M":
        return RED
    if "N" <= letter <= "Y":
        return BLUE
    return None


def ptype(letter: str) -> int:
    return ord(letter) - (ord("B") if owner(letter) == RED else ord("N"))


def letter(player: int, t: int) -> str:
    return chr((ord("B") if player == RED else ord("N")) + t)


def frame(sq: int, player: int) -> int:
    return 99 - sq if player == BLUE else sq


def expected_names(k: int, belief: bool) -> list[str]:
    names = [f"own_{t}" for t in PIECE_NAMES] + [f"opp_{t}" for t in PIECE_NAMES]
    names += ["opp_unknown_moved", "opp_unknown_unmoved", "own_revealed", "own_moved", "lake", "empty"]
    for i in range(k):
        names += [f"move_{i}_from", f"move_{i}_to", f"move_{i}_attack"]
    names += [f"own_count_{t}" for t in PIECE_NAMES] + [f"opp_count_{t}" for t in PIECE_NAMES]
    names += ["ply_progress", "no_attack_progress"]
    if belief:
        names += [f"belief_{t}" for t in PIECE_NAMES]
    return names


def idx(k: int = 4, belief: bool = False) -> dict[str, int]:
    return {n: i for i, n in enumerate(stratego.channel_names(k, belief))}


class Tracker:
    """Follows a game move by move and keeps, for every piece (named by its starting
    square), what was made public: whether it moved, moved more than one square, or
    fought. Combat results are read from the field after each move."""

    def __init__(self, game: stratego.Game):
        self.game = game
        field = game.field
        self.at = {sq: sq for sq, c in enumerate(field) if owner(c) is not None}  # square -> piece
        self.type = {sq: ptype(c) for sq, c in enumerate(field) if owner(c) is not None}
        self.side = {sq: owner(c) for sq, c in enumerate(field) if owner(c) is not None}
        self.moved: set[int] = set()
        self.scouted: set[int] = set()
        self.fought: set[int] = set()
        self.moves: list[tuple[int, int, bool]] = []  # absolute squares
        self.plies_since_attack = 0

    def play(self, action: int) -> None:
        g = self.game
        player = g.to_move
        src, dst = stratego.action_to_squares(action, player)
        before = g.field
        g.play(action)
        after = g.field
        piece = self.at.pop(src)
        assert self.side[piece] == player
        self.moved.add(piece)
        if abs(src // 10 - dst // 10) + abs(src % 10 - dst % 10) > 1:
            self.scouted.add(piece)
        attack = before[dst] != "A"
        if not attack:
            self.at[dst] = piece
            self.plies_since_attack += 1
        else:
            defender = self.at.pop(dst)
            self.fought.update((piece, defender))
            if owner(after[dst]) == player:
                self.at[dst] = piece
            elif owner(after[dst]) == 1 - player:
                self.at[dst] = defender
            self.plies_since_attack = 0
        self.moves.append((src, dst, attack))
        # The tracked board must be the game's board.
        for sq, c in enumerate(after):
            if owner(c) is None:
                assert sq not in self.at
            else:
                assert self.type[self.at[sq]] == ptype(c) and self.side[self.at[sq]] == owner(c)

    def identified(self, piece: int) -> int | None:
        """The type the opponent of the piece's owner knows, or None."""
        if piece in self.fought:
            return self.type[piece]
        if piece in self.scouted:
            return SCOUT
        return None


def closed_form_beliefs(unknown: dict[int, bool], counts: list[int]) -> dict[int, list[Fraction]]:
    """Marginals under a uniform prior over assignments of the multiset `counts` to the
    pieces of `unknown` (piece -> moved) with no Bomb or Flag on a moved piece."""
    u = sum(1 for m in unknown.values() if not m)
    immobile = counts[BOMB] + counts[FLAG]
    movable = len(unknown) - immobile
    out = {}
    for piece, moved in unknown.items():
        probs = [Fraction(0)] * 12
        for t in range(12):
            if t in IMMOBILE:
                probs[t] = Fraction(0) if moved or u == 0 else Fraction(counts[t], u)
            elif movable:
                share = Fraction(1) if moved or u == 0 else 1 - Fraction(immobile, u)
                probs[t] = share * Fraction(counts[t], movable)
        out[piece] = probs
    return out


def brute_force_beliefs(unknown: dict[int, bool], counts: list[int]) -> dict[int, list[Fraction]]:
    """The same marginals by enumerating every distinct assignment."""
    pieces = list(unknown)
    totals = {p: [0] * 12 for p in pieces}
    left = list(counts)
    assign: list[int] = []
    n = 0

    def rec(i: int) -> None:
        nonlocal n
        if i == len(pieces):
            n += 1
            for p, t in zip(pieces, assign):
                totals[p][t] += 1
            return
        for t in range(12):
            if left[t] == 0 or (unknown[pieces[i]] and t in IMMOBILE):
                continue
            left[t] -= 1
            assign.append(t)
            rec(i + 1)
            assign.pop()
            left[t] += 1

    rec(0)
    assert n > 0, "the true assignment is always consistent"
    return {p: [Fraction(c, n) for c in totals[p]] for p in pieces}


def hidden_pieces(tr: Tracker, p: int) -> tuple[dict[int, bool], list[int]]:
    """Opponent pieces on the board that p has not identified (piece -> moved), and the
    multiset of their true types (counts by type)."""
    unknown, counts = {}, [0] * 12
    for sq, piece in tr.at.items():
        if tr.side[piece] != p and tr.identified(piece) is None:
            unknown[piece] = piece in tr.moved
            counts[tr.type[piece]] += 1
    return unknown, counts


def reference_observation(tr: Tracker, p: int, k: int, belief: bool, dtype: str,
                          max_plies: int, max_no_attack: int, beliefs=closed_form_beliefs) -> np.ndarray:
    """What observe.h says player p's observation is, built from the tracked history."""
    ix = idx(k, belief)
    dt = np.float32 if dtype == "float32" else np.uint8
    obs = np.zeros((len(ix), 100), dtype=np.float64)
    own_count, opp_count = [0] * 12, [0] * 12
    unknown, counts = hidden_pieces(tr, p)
    probs = beliefs(unknown, counts) if belief else {}
    for sq in range(100):
        f = frame(sq, p)
        if sq in LAKES:
            obs[ix["lake"], f] = 1
            continue
        piece = tr.at.get(sq)
        if piece is None:
            obs[ix["empty"], f] = 1
            continue
        t = tr.type[piece]
        if tr.side[piece] == p:
            own_count[t] += 1
            obs[t, f] = 1
            if piece in tr.fought or piece in tr.scouted:
                obs[ix["own_revealed"], f] = 1
            if piece in tr.moved:
                obs[ix["own_moved"], f] = 1
        else:
            opp_count[t] += 1
            known = tr.identified(piece)
            if known is not None:
                obs[12 + known, f] = 1
                if belief:
                    obs[ix[f"belief_{PIECE_NAMES[known]}"], f] = 1
            else:
                obs[ix["opp_unknown_moved" if piece in tr.moved else "opp_unknown_unmoved"], f] = 1
                for t2 in range(12) if belief else ():
                    obs[ix[f"belief_{PIECE_NAMES[t2]}"], f] = float(probs[piece][t2])
    for i, (src, dst, attack) in enumerate(reversed(tr.moves[-k:] if k else [])):
        obs[ix[f"move_{i}_from"], frame(src, p)] = 1
        obs[ix[f"move_{i}_to"], frame(dst, p)] = 1
        if attack:
            obs[ix[f"move_{i}_attack"], frame(dst, p)] = 1
    for t in range(12):
        obs[ix[f"own_count_{PIECE_NAMES[t]}"]] = own_count[t]
        obs[ix[f"opp_count_{PIECE_NAMES[t]}"]] = opp_count[t]
    for name, value, cap in (("ply_progress", len(tr.moves), max_plies),
                             ("no_attack_progress", tr.plies_since_attack, max_no_attack)):
        if cap == 0:
            v = 0
        elif dtype == "float32":
            v = 1.0 if value >= cap else np.float32(value) / np.float32(cap)
        else:
            v = 255 if value >= cap else value * 255 // cap
        obs[ix[name]] = v
    return obs.astype(dt).reshape(len(ix), 10, 10)


def assert_obs_equal(got: np.ndarray, want: np.ndarray, names, where: str, atol: float = 0.0) -> None:
    assert got.shape == want.shape and got.dtype == want.dtype, (where, got.shape, want.shape, got.dtype)
    if atol:
        bad = ~np.isclose(got, want, atol=atol, rtol=0)
    else:
        bad = got != want
    if bad.any():
        chans = sorted({int(c) for c in np.nonzero(bad)[0]})
        detail = "; ".join(
            f"{names[c]}: got {got[c][bad[c]].tolist()[:5]} want {want[c][bad[c]].tolist()[:5]} "
            f"at frame squares {[int(r * 10 + q) for r, q in zip(*np.nonzero(bad[c]))][:5]}"
            for c in chans[:6])
        pytest.fail(f"{where}: observation differs in {len(chans)} channels: {detail}")


def random_small_field(rng: random.Random) -> str:
    """A few pieces a side anywhere off the lakes: a Flag, 0-2 Bombs, 2-4 movable pieces."""
    while True:
        field = ["_" if sq in LAKES else "A" for sq in range(100)]
        free = [sq for sq in range(100) if sq not in LAKES]
        rng.shuffle(free)
        for player in (RED, BLUE):
            types = [FLAG] + [BOMB] * rng.randint(0, 2)
            types += [rng.choice(range(1, 11)) for _ in range(rng.randint(2, 4))]
            for t in types:
                field[free.pop()] = letter(player, t)
        field = "".join(field)
        if not stratego.Game.from_field(field, 0).done:
            return field


# -- 1. the leak test ------------------------------------------------------------------
def play_random(game: stratego.Game, rng: random.Random, max_plies: int) -> tuple[list[int], Tracker]:
    tr = Tracker(game)
    actions = []
    while not game.done and len(actions) < max_plies:
        a = rng.choice(game.legal_actions())
        actions.append(a)
        tr.play(a)
    return actions, tr


def twin_field(field: str, tr: Tracker, opp: int, rng: random.Random) -> str:
    """`field` with the types of opp's pieces that never fought and never moved more
    than one square permuted among them, so that every move of the game stays legal:
    pieces that never moved take any of the pool's types, pieces that moved take a
    movable type."""
    pool = [pc for pc in tr.type if tr.side[pc] == opp and pc not in tr.fought and pc not in tr.scouted]
    unmoved = [pc for pc in pool if pc not in tr.moved]
    new = dict(tr.type)
    types = [tr.type[pc] for pc in unmoved]
    rng.shuffle(types)
    new.update(zip(unmoved, types))
    movers = [pc for pc in pool if pc in tr.moved] + [pc for pc in unmoved if new[pc] not in IMMOBILE]
    types = [new[pc] for pc in movers]
    rng.shuffle(types)
    new.update(zip(movers, types))
    assert all(new[pc] not in IMMOBILE for pc in pool if pc in tr.moved)
    out = list(field)
    for pc in pool:
        out[pc] = letter(opp, new[pc])
    return "".join(out)


LEAK_SPECS = [dict(dtype="uint8", history_k=4, belief=False), dict(dtype="float32", history_k=8, belief=True)]


@pytest.mark.parametrize("seed", range(depth(12, 50)))
@pytest.mark.parametrize("observer", [RED, BLUE])
def test_unseen_types_do_not_leak(seed: int, observer: int) -> None:
    rng = random.Random(seed * 2 + observer)
    start = stratego.Game(seed=seed).field
    for _ in range(10):  # a random game may end at once (a Scout finds a front-row Flag)
        a = stratego.Game.from_field(start, 0)
        actions, tr = play_random(a, rng, max_plies=400)
        if len(actions) >= 50:
            break
    assert len(actions) >= 50
    opp = 1 - observer
    twin = twin_field(start, tr, opp, rng)
    assert sorted(twin) == sorted(start)

    a = stratego.Game.from_field(start, 0)
    b = stratego.Game.from_field(twin, 0)
    changed = twin != start
    differed = False
    for ply in range(len(actions) + 1):
        for spec in LEAK_SPECS:
            oa, ob = a.observation(observer, **spec), b.observation(observer, **spec)
            assert_obs_equal(ob, oa, stratego.channel_names(spec["history_k"], spec["belief"]),
                             f"seed {seed}, observer {observer}, ply {ply}, {spec}; start {start}, twin {twin}")
        # The codes, written straight from the game (csrc/stratego/view_codes.h), as well.
        assert np.array_equal(a.observation(observer, obs_format="codes"), b.observation(observer, obs_format="codes")), \
            f"codes: seed {seed}, observer {observer}, ply {ply}; start {start}, twin {twin}"
        differed |= not np.array_equal(a.full_observation(observer), b.full_observation(observer))
        if ply == len(actions):
            break
        assert a.done == b.done == False  # noqa: E712
        a.play(actions[ply])
        b.play(actions[ply])
    assert differed == changed
    assert changed, f"seed {seed}: no opponent piece stayed hidden to permute"


def test_leak_twins_are_mostly_nontrivial() -> None:
    # The permuted pool must be large enough for the leak test to mean something.
    sizes = []
    for seed in range(10):
        g = stratego.Game.from_field(stratego.Game(seed=seed).field, 0)
        _, tr = play_random(g, random.Random(seed), max_plies=400)
        sizes.append(sum(1 for pc in tr.type if tr.side[pc] == BLUE and pc not in tr.fought
                         and pc not in tr.scouted))
    assert min(sizes) >= 5, sizes


def test_swapping_hidden_bomb_and_flag_on_the_start_position() -> None:
    for seed in range(20):
        start = stratego.Game(seed=seed).field
        for observer in (RED, BLUE):
            opp = 1 - observer
            bomb = start.index(letter(opp, BOMB))
            flag = start.index(letter(opp, FLAG))
            twin = list(start)
            twin[bomb], twin[flag] = twin[flag], twin[bomb]
            twin = "".join(twin)
            for to_move in (RED, BLUE):
                a = stratego.Game.from_field(start, to_move)
                b = stratego.Game.from_field(twin, to_move)
                for spec in LEAK_SPECS:
                    assert np.array_equal(a.observation(observer, **spec), b.observation(observer, **spec))
                assert not np.array_equal(a.full_observation(observer), b.full_observation(observer))
                # The swapped player's own view does change.
                assert not np.array_equal(a.observation(opp), b.observation(opp))


HIDDEN_BOMB_FLAG = """
    .  .  .  .  .  .  .  .  .  bB
    .  .  .  .  .  .  .  .  .  b4
    .  .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .  .
    .  .  ~  ~  .  .  ~  ~  .  .
    .  .  ~  ~  .  .  ~  ~  .  .
    .  .  .  .  .  .  .  .  .  .
    .  .  .  .  bF bB .  .  .  .
    .  .  .  .  r3 r5 .  .  .  .
    rF .  .  .  .  .  .  .  .  .
"""


def test_hidden_bomb_flag_swap_is_invisible_until_attacked() -> None:
    field = board(HIDDEN_BOMB_FLAG)
    e3, f3 = parse_square("E3"), parse_square("F3")
    twin = list(field)
    twin[e3], twin[f3] = twin[f3], twin[e3]
    twin = "".join(twin)
    a, b = stratego.Game.from_field(field, RED), stratego.Game.from_field(twin, RED)
    for spec in LEAK_SPECS:
        assert np.array_equal(a.observation(RED, **spec), b.observation(RED, **spec))
    # The red Miner attacks E3: a Flag in a, a Bomb in b.
    a.play("E2-E3")
    b.play("E2-E3")
    assert a.done and a.winner == RED and not b.done
    ix = idx()
    oa, ob = a.observation(RED), b.observation(RED)
    assert not np.array_equal(oa, ob)
    assert oa[ix["opp_count_flag"], 0, 0] == 0 and ob[ix["opp_count_flag"], 0, 0] == 1
    assert oa[ix["opp_count_bomb"], 0, 0] == 2 and ob[ix["opp_count_bomb"], 0, 0] == 1
    # The other hidden piece (F3) is still unknown and unmoved to red in both.
    r, c = divmod(f3, 10)
    assert oa[ix["opp_unknown_unmoved"], r, c] == ob[ix["opp_unknown_unmoved"], r, c] == 1
    # Attacking a hidden piece with a Sergeant instead: the Bomb is revealed.
    a2, b2 = stratego.Game.from_field(field, RED), stratego.Game.from_field(twin, RED)
    a2.play("F2-F3")  # a: the Lieutenant hits the Bomb and dies; b: it takes the Flag
    b2.play("F2-F3")
    assert not a2.done and b2.done and b2.winner == RED
    oa = a2.observation(RED)
    assert oa[ix["opp_bomb"], 2, 5] == 1 and oa[T["lieutenant"]].sum() == 0
    assert not np.array_equal(oa, b2.observation(RED))
    # Blue, too, sees the difference: its own piece was revealed (a) or its flag taken.
    assert not np.array_equal(a2.observation(BLUE), b2.observation(BLUE))


# -- 2. layout -------------------------------------------------------------------------
@pytest.mark.parametrize("k", [0, 1, 4, 8, 32])
@pytest.mark.parametrize("belief", [False, True])
def test_channel_count_and_names(k: int, belief: bool) -> None:
    names = stratego.channel_names(k, belief)
    assert len(names) == 30 + 3 * k + 24 + 2 + (12 if belief else 0)
    assert list(names) == expected_names(k, belief)
    g = stratego.Game(seed=k)
    dtype = "float32" if belief else "uint8"
    assert g.observation(dtype=dtype, history_k=k, belief=belief).shape == (len(names), 10, 10)
    assert g.observation(dtype="float32", history_k=k, belief=belief).dtype == np.float32
    assert g.observation(history_k=k).dtype == np.uint8


def test_observation_version_and_full_channels() -> None:
    assert stratego.OBSERVATION_VERSION == 1
    from stratego.observation import FULL_OBSERVATION_CHANNELS
    assert len(FULL_OBSERVATION_CHANNELS) == 30
    assert stratego.Game(seed=0).full_observation().shape == (30, 10, 10)


def test_bad_observation_arguments() -> None:
    g = stratego.Game(seed=0)
    with pytest.raises(ValueError):
        g.observation(dtype="float64")
    with pytest.raises(ValueError):
        g.observation(history_k=33)
    with pytest.raises(ValueError):
        g.observation(history_k=-1)
    with pytest.raises(TypeError):
        g.observation(history_k=2.0)
    with pytest.raises(ValueError):
        g.observation(belief=True)  # belief planes are probabilities: float32 only
    with pytest.raises(ValueError):
        g.observation(player=2)
    with pytest.raises(ValueError):
        g.full_observation(player=-1)


@pytest.mark.parametrize("seed", range(5))
def test_start_position_planes(seed: int) -> None:
    g = stratego.Game(seed=seed)
    field = g.field
    ix = idx()
    for p in (RED, BLUE):
        obs = g.observation(p)
        for sq, c in enumerate(field):
            r, col = divmod(frame(sq, p), 10)
            cell = obs[:30, r, col]
            if sq in LAKES:
                assert cell[ix["lake"]] == 1 and cell.sum() == 1
            elif c == "A":
                assert cell[ix["empty"]] == 1 and cell.sum() == 1
            elif owner(c) == p:
                assert cell[ptype(c)] == 1 and cell.sum() == 1
            else:
                assert cell[ix["opp_unknown_unmoved"]] == 1 and cell.sum() == 1
        # Own pieces on the observer's back rows 0..3 of its frame.
        own = obs[:12].sum(axis=0)
        assert own[:4].all() and not own[4:].any()
        opp = obs[ix["opp_unknown_unmoved"]]
        assert opp[6:].all() and not opp[:6].any()
        for t in range(12):
            n_own = sum(1 for c in field if owner(c) == p and ptype(c) == t)
            n_opp = sum(1 for c in field if owner(c) == 1 - p and ptype(c) == t)
            assert (obs[ix[f"own_count_{PIECE_NAMES[t]}"]] == n_own).all()
            assert (obs[ix[f"opp_count_{PIECE_NAMES[t]}"]] == n_opp).all()
            assert n_own == CLASSIC.piece_counts[t]
        # Nothing else at ply 0.
        assert not obs[ix["move_0_from"]:ix["own_count_bomb"]].any()
        assert not obs[ix["ply_progress"]].any() and not obs[ix["no_attack_progress"]].any()
        assert not obs[12:25].any() and not obs[ix["own_revealed"]].any() and not obs[ix["own_moved"]].any()


def test_blue_frame_is_the_board_turned() -> None:
    field = board("""
        bF .  .  .  .  .  .  .  .  b10
        .  .  .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .  .  .
        .  .  ~  ~  .  .  ~  ~  .  .
        .  .  ~  ~  .  .  ~  ~  .  .
        .  .  .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .  .  .
        rF r2 .  .  .  .  .  .  .  .
    """)
    g = stratego.Game.from_field(field, RED)
    red, blue = g.observation(RED), g.observation(BLUE)
    ix = idx()
    # Red's flag on A1 = square 0; blue sees its own flag on ITS bottom-right (frame 9),
    # its Marshal on K10 = square 99 at frame 0.
    assert red[T["flag"], 0, 0] == 1 and red[T["scout"], 0, 1] == 1
    assert blue[T["flag"], 0, 9] == 1 and blue[T["marshal"], 0, 0] == 1
    assert red[ix["opp_unknown_unmoved"], 9, 0] == 1 and red[ix["opp_unknown_unmoved"], 9, 9] == 1
    assert blue[ix["opp_unknown_unmoved"], 9, 9] == 1 and blue[ix["opp_unknown_unmoved"], 9, 8] == 1
    # Lakes are symmetric under the turn; empty squares match the turned field.
    assert np.array_equal(red[ix["lake"]], blue[ix["lake"]][::-1, ::-1])
    assert np.array_equal(red[ix["empty"]], blue[ix["empty"]][::-1, ::-1])
    lakes = np.zeros(100, np.uint8)
    lakes[list(LAKES)] = 1
    assert np.array_equal(red[ix["lake"]].ravel(), lakes)
    # Blue's planes are red's full view turned: compare own/opp type planes of full obs.
    fr, fb = g.full_observation(RED), g.full_observation(BLUE)
    assert np.array_equal(fr[:12], fb[12:24][:, ::-1, ::-1])
    assert np.array_equal(fr[12:24], fb[:12][:, ::-1, ::-1])


def play_against_reference(g: stratego.Game, rng: random.Random, plies: int, specs, max_plies: int,
                           max_no_attack: int, where: str) -> None:
    """Plays random moves; at every ply both players' observations under each (dtype,
    history_k, belief) spec equal the Python reference built from the public history."""
    tr = Tracker(g)
    for ply in range(plies):
        for p in (RED, BLUE):
            for dtype, k, belief in specs:
                got = g.observation(p, dtype=dtype, history_k=k, belief=belief)
                want = reference_observation(tr, p, k, belief, dtype, max_plies, max_no_attack)
                assert_obs_equal(got, want, stratego.channel_names(k, belief),
                                 f"{where} ply {ply} player {p} {dtype} k={k}", atol=1e-6 if belief else 0)
        if g.done:
            break
        tr.play(rng.choice(g.legal_actions()))


@pytest.mark.parametrize("seed", range(depth(1, 6)))
def test_random_games_match_the_reference_encoder(seed: int) -> None:
    """Every plane of both players' views, at every ply of random classic games, equals
    the Python reference built from the public history."""
    rng = random.Random(1000 + seed)
    g = stratego.Game(seed=seed)
    specs = [("uint8", 4, False), ("uint8", 0, False), ("float32", 8, True), ("float32", 32, True)]
    play_against_reference(g, rng, 300, specs, CLASSIC_MAX_PLIES, CLASSIC_MAX_NO_ATTACK, f"seed {seed}")


@pytest.mark.parametrize("seed", range(30))
def test_small_random_positions_match_the_reference_encoder(seed: int) -> None:
    rng = random.Random(seed)
    max_plies, max_no_attack = 40, 7
    g = stratego.Game.from_field(random_small_field(rng), 0, max_plies=max_plies,
                                 max_plies_without_attack=max_no_attack)
    play_against_reference(g, rng, 60, [("uint8", 3, False), ("float32", 5, True)], max_plies, max_no_attack,
                           f"field {g.field}")


def test_progress_planes() -> None:
    g = stratego.Game(seed=3, max_plies=70, max_plies_without_attack=30)
    ix, ixf = idx(), idx(4, True)
    rng = random.Random(3)
    while not g.done:
        u8 = g.observation()
        f32 = g.observation(dtype="float32", belief=True)
        for name, value, cap in (("ply_progress", g.ply, 70), ("no_attack_progress", g.plies_since_attack, 30)):
            want = np.float32(1.0) if value >= cap else np.float32(value) / np.float32(cap)
            assert (f32[ixf[name]] == want).all(), (name, value, f32[ixf[name], 0, 0], want)
            assert (u8[ix[name]] == min(255, value * 255 // cap)).all(), (name, value, u8[ix[name], 0, 0])
        g.play(rng.choice(g.legal_actions()))
    assert g.end_reason in ("max_plies", "max_plies_without_attack", "flag_captured",
                            "no_movable_pieces", "no_legal_move")
    # Without caps both planes stay 0.
    g = stratego.Game(seed=3, max_plies=0, max_plies_without_attack=0)
    for _ in range(10):
        g.play(rng.choice(g.legal_actions()))
    f32 = g.observation(dtype="float32")
    assert not f32[ix["ply_progress"]].any() and not f32[ix["no_attack_progress"]].any()


def test_history_planes_latest_first_in_observer_frame() -> None:
    g = stratego.Game(seed=11)
    rng = random.Random(11)
    played = []
    for ply in range(12):
        k = 8
        ix = idx(k)
        for p in (RED, BLUE):
            obs = g.observation(p, history_k=k)
            for i in range(k):
                planes = obs[ix[f"move_{i}_from"]:ix[f"move_{i}_from"] + 3].reshape(3, 100)
                if i >= len(played):
                    assert not planes.any(), (ply, p, i)
                    continue
                src, dst, attack = played[-1 - i]
                want = np.zeros((3, 100), np.uint8)
                want[0, frame(src, p)] = 1
                want[1, frame(dst, p)] = 1
                want[2, frame(dst, p)] = attack
                assert np.array_equal(planes, want), (ply, p, i)
        a = rng.choice(g.legal_actions())
        src, dst = stratego.action_to_squares(a, g.to_move)
        attack = g.field[dst] != "A"
        g.play(a)
        played.append((src, dst, attack))


FIGHTS = """
    .  .  .  .  .  .  .  .  .  bF
    .  .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .  .
    .  .  ~  ~  .  .  ~  ~  .  .
    .  .  ~  ~  .  .  ~  ~  .  .
    .  b10 .  .  b5 .  .  .  b7 .
    .  .  .  .  r6 .  .  .  b4 .
    r2 .  .  .  .  .  .  .  r8 .
    rF .  .  .  .  .  .  .  .  .
"""


def test_attacks_reveal_both_pieces() -> None:
    g = stratego.Game.from_field(board(FIGHTS), RED)
    ix = idx()
    e3, e4 = parse_square("E3"), parse_square("E4")
    # Red's Captain takes blue's Lieutenant: it is revealed and moved for red, a known
    # Captain for blue, and the move is an attack in both histories.
    g.play("E3-E4")
    red, blue = g.observation(RED), g.observation(BLUE)
    r, c = divmod(e4, 10)
    assert red[T["captain"], r, c] == 1 and red[ix["own_revealed"], r, c] == 1 and red[ix["own_moved"], r, c] == 1
    assert red[ix["move_0_attack"], r, c] == 1 and red[ix["move_0_from"]].ravel()[e3] == 1
    br, bc = divmod(99 - e4, 10)
    assert blue[12 + T["captain"], br, bc] == 1
    assert blue[ix["opp_unknown_moved"], br, bc] == 0 and blue[ix["opp_unknown_unmoved"], br, bc] == 0
    assert blue[ix["move_0_attack"], br, bc] == 1 and blue[ix["move_0_from"]].ravel()[99 - e3] == 1
    assert blue[ix["own_count_lieutenant"], 0, 0] == 0 and red[ix["opp_count_lieutenant"], 0, 0] == 0
    # Blue's Sergeant on I3 attacks red's Colonel on I2 and dies: the Colonel is revealed
    # (own_revealed for red, opp_colonel for blue) and has not moved.
    g.play("I3-I2")
    red, blue = g.observation(RED), g.observation(BLUE)
    i2 = parse_square("I2")
    assert g.field[parse_square("I3")] == "A"
    assert red[T["colonel"]].ravel()[i2] == 1 and red[ix["own_revealed"]].ravel()[i2] == 1
    assert red[ix["own_moved"]].ravel()[i2] == 0
    assert blue[12 + T["colonel"]].ravel()[99 - i2] == 1 and blue[ix["opp_unknown_unmoved"]].ravel()[99 - i2] == 0
    assert red[ix["move_0_attack"]].ravel()[i2] == 1 and red[ix["move_1_attack"]].ravel()[e4] == 1
    assert red[ix["opp_count_sergeant"], 0, 0] == 0 and blue[ix["own_count_sergeant"], 0, 0] == 0
    # Red's Scout runs three squares: blue sees a Scout; red sees it as revealed.
    g.play("A2-A5")
    red, blue = g.observation(RED), g.observation(BLUE)
    a5 = parse_square("A5")
    assert blue[12 + T["scout"]].ravel()[99 - a5] == 1 and blue[ix["opp_unknown_moved"]].ravel()[99 - a5] == 0
    assert red[ix["own_revealed"]].ravel()[a5] == 1 and red[ix["own_moved"]].ravel()[a5] == 1
    # Blue's Marshal steps one square: an unknown moved piece for red.
    g.play("B4-B5")
    red = g.observation(RED)
    b5 = parse_square("B5")
    assert red[ix["opp_unknown_moved"]].ravel()[b5] == 1 and not red[12:24, :, :].reshape(12, 100)[:, b5].any()
    # Red's Scout attacks the Marshal and loses: the Marshal stays, known to red.
    g.play("A5-B5")
    red, blue = g.observation(RED), g.observation(BLUE)
    assert red[12 + T["marshal"]].ravel()[b5] == 1 and red[ix["opp_unknown_moved"]].ravel()[b5] == 0
    assert blue[T["marshal"]].ravel()[99 - b5] == 1 and blue[ix["own_revealed"]].ravel()[99 - b5] == 1
    assert red[ix["own_count_scout"], 0, 0] == 0 and blue[ix["opp_count_scout"], 0, 0] == 0


# -- 3. belief planes ------------------------------------------------------------------
def test_closed_form_agrees_with_brute_force() -> None:
    # The reference's closed form (used for full games) against the enumeration.
    rng = random.Random(5)
    for _ in range(200):
        n = rng.randint(1, 7)
        types = [rng.choice(range(12)) for _ in range(n)]
        moved = {i: (types[i] not in IMMOBILE and rng.random() < 0.5) for i in range(n)}
        counts = [types.count(t) for t in range(12)]
        assert closed_form_beliefs(moved, counts) == brute_force_beliefs(moved, counts)


@pytest.mark.parametrize("seed", range(40))
def test_beliefs_match_brute_force_on_small_positions(seed: int) -> None:
    rng = random.Random(500 + seed)
    g = stratego.Game.from_field(random_small_field(rng), rng.randint(0, 1))
    tr = Tracker(g)
    ix = idx(4, True)
    b0 = ix["belief_bomb"]
    for ply in range(40):
        for p in (RED, BLUE):
            obs = g.observation(p, dtype="float32", belief=True)
            beliefs = obs[b0:b0 + 12].reshape(12, 100)
            unknown, counts = hidden_pieces(tr, p)
            probs = brute_force_beliefs(unknown, counts) if unknown else {}
            for sq in range(100):
                f = frame(sq, p)
                piece = tr.at.get(sq)
                if piece is None or tr.side[piece] == p:
                    assert not beliefs[:, f].any(), (g.field, p, sq)
                    continue
                assert abs(float(beliefs[:, f].sum()) - 1.0) < 1e-6, (g.field, p, sq, beliefs[:, f])
                known = tr.identified(piece)
                if known is not None:
                    want = np.zeros(12)
                    want[known] = 1
                else:
                    want = np.array([float(x) for x in probs[piece]])
                assert np.allclose(beliefs[:, f], want, atol=1e-6, rtol=0), (
                    f"field {g.field}, observer {p}, square {sq} (frame {f}), moved={piece in tr.moved}: "
                    f"got {beliefs[:, f].tolist()}, want {want.tolist()}")
        if g.done:
            break
        tr.play(rng.choice(g.legal_actions()))


def test_beliefs_on_a_drawn_position() -> None:
    # Blue: Flag, Bomb, Miner, Spy; red has seen nothing but one blue piece move.
    g = stratego.Game.from_field(board("""
        bF bB .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  b3 .  bS
        .  .  .  .  .  .  .  .  .  .
        .  .  ~  ~  .  .  ~  ~  .  .
        .  .  ~  ~  .  .  ~  ~  .  .
        .  .  .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .  .  .
        .  .  .  .  .  .  .  .  .  .
        rF r4 .  .  .  .  .  .  .  .
    """), BLUE)
    g.play("H8-H7")  # the Miner moves
    ix = idx(4, True)
    b = g.observation(RED, dtype="float32", belief=True)[ix["belief_bomb"]:ix["belief_bomb"] + 12].reshape(12, 100)
    h7 = parse_square("H7")
    # The moved piece is the Miner or the Spy, half each.
    assert np.allclose(b[:, h7], [0, .5, 0, .5, 0, 0, 0, 0, 0, 0, 0, 0], atol=1e-7)
    # Each of the three unmoved: Bomb 1/3, Flag 1/3, Miner and Spy 1/6 each.
    for name in ("A10", "B10", "K8"):
        sq = parse_square(name)
        assert np.allclose(b[:, sq], [1 / 3, 1 / 6, 0, 1 / 6, 0, 0, 0, 0, 0, 0, 0, 1 / 3], atol=1e-7), name
    assert not np.delete(b, [h7] + [parse_square(n) for n in ("A10", "B10", "K8")], axis=1).any()


@pytest.mark.parametrize("seed", range(4))
def test_beliefs_sum_to_one_in_full_games(seed: int) -> None:
    rng = random.Random(seed)
    g = stratego.Game(seed=seed)
    ix = idx(2, True)
    b0 = ix["belief_bomb"]
    while not g.done and g.ply < 400:
        for p in (RED, BLUE):
            obs = g.observation(p, dtype="float32", history_k=2, belief=True)
            beliefs = obs[b0:b0 + 12]
            opp = obs[12:26].sum(axis=0) > 0
            total = beliefs.sum(axis=0)
            assert np.allclose(total[opp], 1.0, atol=1e-6)
            assert not total[~opp].any()
            assert (beliefs >= 0).all() and (beliefs <= 1).all()
            # One-hot on identified pieces, equal to the opp_<type> planes.
            known = obs[12:24].sum(axis=0) > 0
            assert np.array_equal(beliefs[:, known], obs[12:24][:, known])
            # Moved unknown pieces are never Bombs or Flags.
            moved = obs[ix["opp_unknown_moved"]] > 0
            assert not beliefs[BOMB][moved].any() and not beliefs[FLAG][moved].any()
        g.play(rng.choice(g.legal_actions()))


# -- 4. VecEnv -------------------------------------------------------------------------
VEC_SPECS = [
    dict(obs_dtype="uint8", history_k=4, belief=False),
    dict(obs_dtype="float32", history_k=8, belief=True),
    dict(obs_dtype="float32", history_k=0, belief=False),
]


def game_obs_kwargs(spec: dict) -> dict:
    return dict(dtype=spec["obs_dtype"], history_k=spec["history_k"], belief=spec["belief"])


@pytest.mark.parametrize("spec", VEC_SPECS)
def test_vec_env_reset_obs_equal_game_obs(spec: dict) -> None:
    env = stratego.VecEnv(12, seed=7, **spec)
    obs, info = env.reset(seed=7)
    assert env.observation_channels == stratego.channel_names(spec["history_k"], spec["belief"])
    assert obs.shape == (12, len(env.observation_channels), 10, 10)
    for i in range(12):
        g = stratego.Game.from_field(env.game_field(i), to_move=int(env.to_play[i]))
        assert g.ply == 0
        assert np.array_equal(obs[i], g.observation(**game_obs_kwargs(spec))), i
        legal = np.zeros(stratego.ACTION_NB, bool)
        legal[g.legal_actions()] = True
        assert np.array_equal(info["action_mask"][i], legal)
    env.close()


@pytest.mark.parametrize("views", ["to_play", "both"])
@pytest.mark.parametrize("spec", VEC_SPECS[:2])
def test_vec_env_steps_match_mirrored_games(views: str, spec: dict) -> None:
    """Observations at every step, and final_obs / final_info of finished games, equal
    those of Games that replay the same actions."""
    n, cap = 8, 50
    env = stratego.VecEnv(n, seed=1, views=views, full_obs=True, max_plies=cap, **spec)
    obs, info = env.reset(seed=1)
    kw = game_obs_kwargs(spec)

    def mirror(i: int) -> stratego.Game:
        return stratego.Game.from_field(env.game_field(i), to_move=int(env.to_play[i]), max_plies=cap)

    def check(i: int, g: stratego.Game, got: np.ndarray, where: str) -> None:
        if views == "both":
            assert got.shape[0] == 2
            for p in (RED, BLUE):
                assert np.array_equal(got[p], g.observation(p, **kw)), (where, i, p)
        else:
            assert np.array_equal(got, g.observation(g.to_move, **kw)), (where, i)

    games = [mirror(i) for i in range(n)]
    finished = 0
    for step in range(300):
        for i, g in enumerate(games):
            check(i, g, obs[i], f"step {step}")
            assert env.to_play[i] == g.to_move
            assert np.array_equal(info["full_obs"][i], g.full_observation(g.to_move))
        actions = env.sample_actions().copy()
        for i, g in enumerate(games):
            g.play(int(actions[i]))
        obs, reward, terminated, truncated, info = env.step(actions)
        done = terminated | truncated
        if done.any():
            assert "final_obs" in info and "_final_obs" in info and "final_info" in info
            assert np.array_equal(info["_final_obs"], done)
            for i in np.nonzero(done)[0]:
                g = games[i]
                assert g.done
                check(i, g, info["final_obs"][i], f"final, step {step}")
                fi = info["final_info"]
                assert fi["winner"][i] == (-1 if g.winner is None else g.winner)
                assert stratego.END_REASONS[fi["reason"][i]] == g.end_reason
                assert fi["plies"][i] == g.ply
                # Every end, the caps included, is a termination.
                assert terminated[i] and not truncated[i]
                games[i] = mirror(i)
                finished += 1
        else:
            assert "final_obs" not in info and "_final_obs" not in info
        for i, g in enumerate(games):
            assert not g.done
    assert finished >= n
    env.close()


def test_large_vec_env_obs_match_mirrored_games() -> None:
    """A batch whose observation rows outgrow the caches (1,000 x 6,800 bytes: over the
    6 MiB from which batch_write_obs prefetches each row) writes the same observations,
    final ones included, as Games that replay the same actions."""
    n, cap = 1000, 30
    env = stratego.VecEnv(n, seed=5, max_plies=cap)
    obs, info = env.reset(seed=5)
    assert obs[0].nbytes == 6800 and n * obs[0].nbytes > 6 << 20

    def mirror(i: int) -> stratego.Game:
        return stratego.Game.from_field(env.game_field(i), to_move=int(env.to_play[i]), max_plies=cap)

    games = [mirror(i) for i in range(n)]
    finished = 0
    for step in range(cap + 5):
        for i, g in enumerate(games):
            assert np.array_equal(obs[i], g.observation(g.to_move)), (step, i)
        actions = env.sample_actions().copy()
        for i, g in enumerate(games):
            g.play(int(actions[i]))
        obs, reward, terminated, truncated, info = env.step(actions)
        for i in np.nonzero(terminated | truncated)[0]:
            assert np.array_equal(info["final_obs"][i], games[i].observation(games[i].to_move)), (step, i)
            games[i] = mirror(i)
            finished += 1
    assert finished >= n
    env.close()


def test_vec_env_final_info_with_max_plies() -> None:
    env = stratego.VecEnv(16, seed=2, max_plies=50)
    env.reset(seed=2)
    for step in range(50):
        obs, reward, terminated, truncated, info = env.step(env.sample_actions())
        if step < 49:
            continue
        assert "final_obs" in info and info["_final_obs"].any()
    done = info["_final_obs"]
    reasons = [stratego.END_REASONS[r] for r in info["final_info"]["reason"][done]]
    assert "max_plies" in reasons
    assert (info["final_info"]["plies"][done] <= 50).all()
    # The cap is a draw and a termination, never a truncation.
    capped = np.array([r == "max_plies" for r in (stratego.END_REASONS[x] for x in info["final_info"]["reason"])])
    assert not truncated.any() and terminated[capped].all()
    assert (info["final_info"]["plies"][capped] == 50).all()
    assert (info["final_info"]["winner"][capped] == -1).all()
    assert (reward[capped] == 0).all()
    env.close()


def test_vec_env_full_obs_shows_true_types() -> None:
    env = stratego.VecEnv(4, seed=9, full_obs=True)
    _, info = env.reset(seed=9)
    for i in range(4):
        p = int(env.to_play[i])
        field = env.game_field(i)
        full = info["full_obs"][i].reshape(30, 100)
        assert full.dtype == np.uint8
        for sq, c in enumerate(field):
            f = frame(sq, p)
            if owner(c) == p:
                assert full[ptype(c), f] == 1
            elif owner(c) == 1 - p:
                assert full[12 + ptype(c), f] == 1
            elif sq in LAKES:
                assert full[28, f] == 1
            else:
                assert full[29, f] == 1
        assert full[:24].sum() == sum(1 for c in field if owner(c) is not None)
    env.close()


def test_vec_env_without_observations() -> None:
    env = stratego.VecEnv(4, seed=3, observations=False)
    obs, info = env.reset(seed=3)
    assert obs is None and "action_mask" in info
    obs, reward, terminated, truncated, info = env.step(env.sample_actions())
    assert obs is None and "final_obs" not in info
    assert env.observation_channels == ()
    env.close()


def test_vec_env_uint8_and_float32_agree() -> None:
    k = 6
    e8 = stratego.VecEnv(6, seed=4, obs_dtype="uint8", history_k=k, max_plies=300, max_plies_without_attack=40)
    ef = stratego.VecEnv(6, seed=4, obs_dtype="float32", history_k=k, belief=True, max_plies=300,
                         max_plies_without_attack=40)
    o8, _ = e8.reset(seed=4)
    of, _ = ef.reset(seed=4)
    ix = idx(k, True)
    prog = [ix["ply_progress"], ix["no_attack_progress"]]
    nb = ix["belief_bomb"]
    for step in range(200):
        same = [c for c in range(nb) if c not in prog]
        assert np.array_equal(o8[:, same].astype(np.float32), of[:, same]), step
        # The uint8 progress planes are the float ones scaled to 0..255 and floored.
        assert np.array_equal(o8[:, prog], np.floor(of[:, prog] * np.float32(255)).astype(np.uint8)), step
        a = e8.sample_actions().copy()
        assert np.array_equal(a, ef.sample_actions())
        o8, *_ = e8.step(a)
        of, *_ = ef.step(a)
    e8.close()
    ef.close()


def test_vec_env_rejects_belief_in_uint8() -> None:
    with pytest.raises(ValueError):
        stratego.VecEnv(2, obs_dtype="uint8", belief=True)


# -- 5. Gymnasium conformance ----------------------------------------------------------
@pytest.mark.parametrize("kw", [
    dict(), dict(obs_dtype="float32", belief=True, history_k=2), dict(views="both"),
    dict(variant="ultimate-lightning"), dict(variant="barrage"),
])
def test_gymnasium_conformance(kw: dict) -> None:
    from gymnasium.vector import AutoresetMode

    n = 5
    env = stratego.VecEnv(n, **kw)
    num_actions = stratego.load_variant(kw.get("variant", "classic")).num_actions
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert env.num_envs == n
    assert env.single_action_space == gymnasium.spaces.Discrete(num_actions)
    assert isinstance(env.action_space, gymnasium.spaces.MultiDiscrete)
    out = env.reset(seed=0)
    assert isinstance(out, tuple) and len(out) == 2
    obs, info = out
    assert isinstance(info, dict) and info["action_mask"].shape == (n, num_actions)
    assert info["action_mask"].dtype == np.bool_ and info["action_mask"].any(axis=1).all()
    assert env.single_observation_space.contains(obs[0])
    assert env.observation_space.contains(obs)
    assert obs.dtype == env.single_observation_space.dtype
    assert obs.shape == (n, *env.single_observation_space.shape)
    for _ in range(30):
        actions = env.sample_actions()
        assert env.action_space.contains(actions.astype(env.action_space.dtype))
        for a, mask in zip(actions, info["action_mask"]):
            assert env.single_action_space.contains(int(a)) and mask[a]
        result = env.step(actions)
        assert isinstance(result, tuple) and len(result) == 5
        obs, reward, terminated, truncated, info = result
        assert env.observation_space.contains(obs)
        assert reward.shape == (n,) and reward.dtype == np.float32
        assert terminated.shape == (n,) and terminated.dtype == np.bool_
        assert truncated.shape == (n,) and truncated.dtype == np.bool_
        assert isinstance(info, dict) and info["action_mask"].shape == (n, num_actions)
    env.close()
    assert env.closed is True
    env.close()
    assert env.closed is True


def test_action_space_contains_sampled_actions() -> None:
    env = stratego.VecEnv(7, seed=5)
    for _ in range(5):
        assert env.action_space.contains(env.sample_actions())
        env.step(env.sample_actions())
    assert env.action_space.contains(env.action_space.sample())
    env.close()


def test_context_manager_closes() -> None:
    with stratego.VecEnv(2, seed=0) as env:
        env.step(env.sample_actions())
    assert env.closed


# -- 6. format_observation -------------------------------------------------------------
def test_format_observation() -> None:
    g = stratego.Game(seed=2)
    rng = random.Random(2)
    for _ in range(10):
        g.play(rng.choice(g.legal_actions()))
    for kw in (dict(), dict(history_k=7), dict(history_k=2, belief=True)):
        dtype = "float32" if kw.get("belief") else "uint8"
        text = stratego.format_observation(g.observation(dtype=dtype, **kw), **kw)
        assert isinstance(text, str)
        lines = text.splitlines()
        assert len(lines) >= 11
        assert "own on board" in text and "opp on board" in text
    # Red's view at the start: own pieces in the bottom four rows, unknown ones on top.
    text = stratego.format_observation(stratego.Game(seed=0).observation(RED))
    lines = text.splitlines()
    assert lines[1].split()[0] == "10" and lines[1].count("?") == 10
    assert "~~" in lines[5] and "?" not in lines[7]


@pytest.mark.parametrize("shape", [(86, 10, 10), (67, 10, 10), (68, 100), (1, 68, 10, 10), (68, 10, 9), (10, 10), ()])
def test_format_observation_rejects_wrong_shapes(shape) -> None:
    with pytest.raises(ValueError):
        stratego.format_observation(np.zeros(shape, np.uint8))


def test_format_observation_rejects_mismatched_settings() -> None:
    obs = stratego.Game(seed=0).observation(history_k=4)
    with pytest.raises(ValueError):
        stratego.format_observation(obs, history_k=5)
    with pytest.raises(ValueError):
        stratego.format_observation(obs, belief=True)


# -- the encoder's two instruction sets ---------------------------------------------------
_ENCODER_HASH = r"""
import hashlib, stratego
h = hashlib.sha256()
for spec in (dict(), dict(history_k=0), dict(history_k=32, views="both"),
             dict(obs_dtype="float32", belief=True, history_k=7), dict(variant="seed-tournament"),
             # the codes straight from the game (csrc/stratego/view_codes.c): AVX2, or through the view
             dict(obs_format="codes"), dict(obs_format="codes", history_k=7, views="both"),
             dict(obs_format="codes", history_k=2, silent_defense=1),
             dict(obs_format="codes", variant="ultimate-lightning", history_k=32),
             dict(obs_format="codes", setup="agent", history_k=5)):
    env = stratego.VecEnv(48, seed=11, **spec)
    for _ in range(STEPS):
        env.step(env.sample_actions())
        h.update(env.obs.tobytes())
        h.update(env.final_obs[env.terminated | env.truncated].tobytes())
    env.close()
print(h.hexdigest())
"""


def test_avx2_and_sse2_encoders_write_the_same_bytes() -> None:
    # On x86-64 CPUs with AVX2 the encoder writes 32 bytes at a time; STRATEGO_NO_AVX2=1
    # selects the 16-byte path. Both must give the same observations (elsewhere both runs
    # take the same path and the test holds trivially).
    import os
    import subprocess

    def digest(no_avx2: str | None) -> str:
        env = {k: v for k, v in os.environ.items() if k != "STRATEGO_NO_AVX2"}
        if no_avx2 is not None:
            env["STRATEGO_NO_AVX2"] = no_avx2
        script = _ENCODER_HASH.replace("STEPS", str(depth(120, 300)))
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert digest(None) == digest("1")
