"""Hidden-state sampling (csrc/stratego/sample.c, csrc/stratego/sample_game.c, docs/sampling.md).

Layers: exactness by enumeration on small positions (every consistent assignment
appears, no other does, the frequencies pass a chi-squared test against uniform); on
full games of every variant, each world is indistinguishable from the true game for the
player (its observation, belief planes included, and its legal mask are the same) and
plays on, and the sampled marginals agree with the belief planes; leak-free (games that
differ only in types the player never saw give bit-identical worlds); the chasing
rule's positions rebuilt for the world's types; determinism; bad input.
"""
from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import numpy as np
import pytest

import stratego
from boards import board, game as drawn
from depth import depth
from test_observations import play_random, twin_field

RED, BLUE = 0, 1
BOMB, SPY, SCOUT, MINER, CAPTAIN, MARSHAL, FLAG = 0, 1, 2, 3, 6, 10, 11
MOVABLE = frozenset(range(1, 11))
VARIANTS = ["classic", "isf", "seed-tournament", "ultimate-lightning", "barrage"]


def chi2_critical(df: int, z: float = 3.719) -> float:
    """The chi-squared quantile for df degrees of freedom at the normal quantile z (3.719:
    p = 1e-4), by Wilson and Hilferty's cube-root approximation (no SciPy needed)."""
    a = 2.0 / (9.0 * df)
    return df * (1.0 - a + z * math.sqrt(a)) ** 3


def opp_squares(g: stratego.Game, player: int) -> list[int]:
    """Absolute squares of the opponent's pieces, increasing."""
    cells = np.frombuffer(g._state.cells(), np.uint8).reshape(100, 3)
    return [sq for sq in range(100) if cells[sq, 0] == 1 - player]


def cells(g: stratego.Game) -> np.ndarray:
    return np.frombuffer(g._state.cells(), np.uint8).reshape(100, 3)


def assignment(world: stratego.Game, squares: list[int]) -> tuple:
    """What a world gives the pieces on `squares` and the captured pieces of the
    opponent (sorted types: the captured in these tests differ only in type)."""
    c = cells(world)
    return tuple(int(c[sq, 1]) for sq in squares), tuple(sorted(world._state.captured(BLUE)))


def enumerate_consistent(pieces: list[tuple[int, set[int]]], captured: list[tuple[int, set[int]]],
                         known_captured: list[int]) -> Counter:
    """Every placement of the pieces' true types (a multiset) onto the pieces that gives
    each piece one of its allowed types, as assignment() writes it, counted once each
    (distinct type sequences; the captured reported as a sorted multiset)."""
    types = [t for t, _ in pieces] + [t for t, _ in captured]
    allowed = [a for _, a in pieces] + [a for _, a in captured]
    n_board = len(pieces)
    ways: Counter = Counter()
    for perm in set(itertools.permutations(types)):
        if all(t in a for t, a in zip(perm, allowed)):
            ways[(perm[:n_board], tuple(sorted(list(perm[n_board:]) + known_captured)))] += 1
    return ways


def check_uniform(worlds: list[stratego.Game], squares: list[int], ways: Counter) -> None:
    """Every world is one of the consistent placements, every one appears, and the counts
    pass a chi-squared test against the expected shares (`ways`, proportional to each
    placement's chance: 1 each under the uniform law over assignments of pieces, since
    every distinct placement of a multiset stands for the same number of them)."""
    seen = Counter(assignment(w, squares) for w in worlds)
    assert set(seen) <= set(ways), f"inconsistent worlds: {set(seen) - set(ways)}"
    assert set(seen) == set(ways), f"never drawn: {set(ways) - set(seen)}"
    total = sum(ways.values())
    n = len(worlds)
    chi2 = sum((seen[key] - n * w / total) ** 2 / (n * w / total) for key, w in ways.items())
    assert chi2 < chi2_critical(len(ways) - 1), (chi2, len(ways))


# -- 1. exactness by enumeration ---------------------------------------------------------
SMALL = """
    bF b3 bB b2 b10 .  .  .  .  .
    .  .  .  .  .   .  .  .  .  .
    .  .  .  .  .   .  .  .  .  .
    .  .  .  .  .   .  .  .  .  .
    .  .  ~  ~  .   .  ~  ~  .  .
    .  .  ~  ~  .   .  ~  ~  .  .
    .  .  .  .  .   .  .  .  .  .
    .  .  .  .  .   .  .  .  .  .
    .  .  .  .  .   .  .  .  .  .
    r9 rF .  .  .   .  .  .  .  .
"""


def test_every_consistent_assignment_and_only_those_uniformly() -> None:
    g = drawn(SMALL)
    # Blue moves two pieces one square (no Bomb or Flag among them any more).
    for move in ["A1-A2", "B10-B9", "A2-A3", "E10-E9"]:
        g.play(move)
    assert g.to_move == RED
    squares = opp_squares(g, RED)
    c = cells(g)
    truth = {sq: int(c[sq, 1]) for sq in squares}
    moved = {sq for sq in squares if c[sq, 2] & stratego._core.PIECE_MOVED}
    assert len(moved) == 2
    pieces = [(truth[sq], MOVABLE if sq in moved else set(range(12))) for sq in squares]
    ways = enumerate_consistent(pieces, [], [])
    assert len(ways) == 3 * 2 * 6  # the two moved pieces take 2 of the 3 movable types
    worlds = g.sample_worlds(len(ways) * 200, seed=7)
    check_uniform(worlds, squares, ways)


SILENT = """
    bF b3 bB bB b3  b2 .  .  .  .
    .  .  .  .  r10 .  .  .  .  .
    .  .  .  .  .   .  .  .  .  .
    .  .  .  .  .   .  .  .  .  .
    .  .  ~  ~  .   .  ~  ~  .  .
    .  .  ~  ~  .   .  ~  ~  .  .
    .  .  .  .  .   .  .  .  .  .
    .  .  .  .  .   .  .  .  .  .
    .  .  .  .  .   .  .  .  .  .
    r9 rF .  .  .   .  .  .  .  .
"""


def test_silent_defense_captured_pieces_are_sampled_too() -> None:
    # Red's Marshal takes the unmoved Miner on E10 (silent defense: red never sees it),
    # then blue moves a piece: the captured piece is any type but the Flag, and the
    # moved one any movable type left.
    g = drawn(SILENT, silent_defense=1)
    g.play("E9-E10")
    assert g.captured(BLUE) and cells(g)[94, 0] == RED
    g.play("F10-F9")
    g.play("A1-A2")
    squares = opp_squares(g, RED)
    c = cells(g)
    moved = {sq for sq in squares if c[sq, 2] & stratego._core.PIECE_MOVED}
    pieces = [(int(c[sq, 1]), MOVABLE if sq in moved else set(range(12))) for sq in squares]
    captured = [(MINER, set(range(11)))]
    ways = enumerate_consistent(pieces, captured, [])
    # Types F 3 B B 3 2 (a multiset): interchangeable Bombs and Miners make fewer distinct
    # placements than permutations, each one once (enumerate_consistent counts each once).
    assert set(ways.values()) == {1}
    worlds = g.sample_worlds(len(ways) * 100, seed=11, player=RED)
    check_uniform(worlds, squares, ways)
    # A captured Flag would have ended the game; the world is never over.
    assert not any(w.done for w in worlds)


def test_narrowed_pieces_take_a_scout_or_a_captain() -> None:
    # Two-square Captains: a straight two-square move shows a Scout or a Captain.
    g = drawn(SMALL.replace("b3 bB", "b6 bB"), captain_two_squares=1)
    g.play("A1-A2")
    g.play("D10-D8")  # the Scout (or a Captain, for all red knows)
    g.play("A2-A3")
    squares = opp_squares(g, RED)
    c = cells(g)
    narrowed = {sq for sq in squares if c[sq, 2] & 16}
    assert narrowed == {73}  # D8
    pieces = [(int(c[sq, 1]), {SCOUT, CAPTAIN} if sq in narrowed else set(range(12))) for sq in squares]
    ways = enumerate_consistent(pieces, [], [])
    worlds = g.sample_worlds(len(ways) * 100, seed=3, player=RED)
    check_uniform(worlds, squares, ways)


# -- 2. full games: indistinguishable worlds, marginals = belief planes -----------------
def random_game(variant: str, seed: int, plies: int) -> stratego.Game:
    """A game of `variant` after up to `plies` random plies (fewer if it ends: then the
    position before the last ply, which is unfinished)."""
    for attempt in range(20):
        g = stratego.Game(variant, seed=seed * 100 + attempt)
        rng = random.Random(seed * 100 + attempt)
        for _ in range(plies):
            if g.done:
                break
            before = g.clone()
            g.play(rng.choice(g.legal_actions()))
            if g.done:
                g = before
                break
        if not g.done and g.ply >= min(plies, 20):
            return g
    raise AssertionError("no unfinished game")


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("plies", [0, 100, 400])
def test_worlds_look_the_same_to_the_player_and_play_on(variant: str, plies: int) -> None:
    g = random_game(variant, seed=plies + 1, plies=plies)
    for player in (RED, BLUE):
        if g.rescue_pending and player != g.to_move:
            continue
        spec = dict(dtype="float32", history_k=8, belief=True)
        obs = g.observation(player, **spec)
        worlds = g.sample_worlds(30, seed=player, player=player)
        for w in worlds:
            assert np.array_equal(w.observation(player, **spec), obs)
            # Its Game history starts at the world (the true start holds hidden types).
            assert w.history == () and w.start_field == w.field
            if player == g.to_move:
                assert np.array_equal(w.action_mask(), g.action_mask())
            # A world is a valid state (its save passes every check) and plays on.
            copy = stratego.Game.from_save(w._state.to_bytes(), variant)
            rng = random.Random(0)
            for _ in range(20):
                if copy.done:
                    break
                copy.play(rng.choice(copy.legal_actions()))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("plies", [0, 100, 400])
def test_sampled_marginals_agree_with_the_belief_planes(variant: str, plies: int) -> None:
    g = random_game(variant, seed=plies + 7, plies=plies)
    player = g.to_move
    belief = g.observation(player, dtype="float32", belief=True)[-12:]
    n = depth(2000, 8000)
    freq = np.zeros((12, 10, 10))
    for w in g.sample_worlds(n, seed=5, player=player):
        freq += w.full_observation(player)[12:24]  # opp_<type> planes, the player's frame
    freq /= n
    # Within 5 standard errors of each cell's belief (and a float32 rounding slack).
    sd = np.sqrt(belief * (1 - belief) / n)
    assert np.all(np.abs(freq - belief) <= 5 * sd + 1e-5), np.max(np.abs(freq - belief) - 5 * sd)


SILENT_LOSS = """
    bF bS bB bB b5  b2 .  .  .  .
    .  .  .  .  r4  .  .  .  .  .
    .  .  .  .  .   .  .  .  .  .
    .  .  .  .  .   .  .  .  .  .
    .  .  ~  ~  .   .  ~  ~  .  .
    .  .  ~  ~  .   .  ~  ~  .  .
    .  .  .  .  .   .  .  .  .  .
    .  .  .  .  .   .  .  .  .  .
    .  .  .  .  .   .  .  .  .  .
    r9 rF .  .  .   .  .  .  .  .
"""


def test_sampler_ignores_silent_fight_outcomes_as_the_beliefs_do() -> None:
    # Red's Sergeant attacks the unmoved piece on E10 and loses under silent defense:
    # that piece beat a Sergeant (a Lieutenant and above, or a Bomb), but neither the
    # belief planes nor the sampler use fight outcomes (docs/sampling.md): for both it
    # may still be the Spy, or the Flag.
    g = drawn(SILENT_LOSS, silent_defense=1)
    g.play("E9-E10")
    c = cells(g)
    assert c[94, 0] == BLUE and not c[94, 2] & 2  # the defender stays unidentified
    g.play("F10-F9")
    e10 = 94  # red's frame is the absolute one
    belief = g.observation(RED, dtype="float32", belief=True)[-12:]
    assert belief[SPY].flat[e10] > 0 and belief[FLAG].flat[e10] > 0
    drawn_types = Counter(int(cells(w)[e10, 1]) for w in g.sample_worlds(600, seed=1, player=RED))
    assert drawn_types[SPY] > 0 and drawn_types[FLAG] > 0


# -- 3. the chasing rule's positions, rebuilt for the world's types ----------------------
CHASE = """
    bF bB b3 b7 .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  .  .
    .  .  ~  ~  .  .  ~  ~  .  .
    .  .  ~  ~  .  .  ~  ~  .  .
    .  .  .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .  b5 .
    .  .  .  .  .  .  .  .  .  .
    rF rB r3 r8 .  .  .  .  . r10
"""
# Found by a random search: blue's piece chases red's Marshal around H1-H2-I1-I2, and its
# move I1-I2 would recreate a position of the chase (ISF art. 11).
CHASE_MOVES = ["K1-K2", "I3-K3", "K2-K1", "K3-K2", "K1-I1", "K2-I2", "I1-H1", "I2-I3", "H1-H2", "I3-I2",
               "H2-H1", "I2-I1", "H1-H2", "I1-H1", "H2-I2", "H1-I1", "I2-H2"]


def test_chase_positions_are_rebuilt_for_the_world_types() -> None:
    g = drawn(CHASE, variant="isf")
    for ply, move in enumerate(CHASE_MOVES):
        g.play(move)
        player = g.to_move
        worlds = g.sample_worlds(40, seed=ply, player=player)
        # The two moving pieces are unidentified: each world gives them its own types, so
        # the chase's positions hash differently in each, yet forbid the same moves.
        for w in worlds:
            assert np.array_equal(w.action_mask(), g.action_mask()), (ply, move)
    reason = g._state.check_move(8, 18)
    assert g.to_move == BLUE and reason is not None and "chasing" in reason  # blue's I1-I2
    # Both moved pieces take every movable type their side has unseen in the worlds.
    assert {int(cells(w)[17, 1]) for w in g.sample_worlds(60, seed=1, player=BLUE)} == {MINER, 8, MARSHAL}
    assert {int(cells(w)[8, 1]) for w in g.sample_worlds(60, seed=1, player=RED)} == {MINER, 5, 7}
    for w in g.sample_worlds(60, seed=2, player=BLUE):
        assert "chasing" in (w._state.check_move(8, 18) or "")


# -- 4. leak-free -----------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(depth(6, 30)))
@pytest.mark.parametrize("observer", [RED, BLUE])
@pytest.mark.parametrize("variant", ["classic", "isf"])
def test_unseen_types_do_not_reach_the_worlds(seed: int, observer: int, variant: str) -> None:
    rng = random.Random(seed * 2 + observer)
    start = stratego.Game(variant, seed=seed).field
    for _ in range(10):
        a = stratego.Game.from_field(start, 0, variant)
        actions, tr = play_random(a, rng, max_plies=300)
        if len(actions) >= 50:
            break
    twin = twin_field(start, tr, 1 - observer, rng)
    assert twin != start
    a = stratego.Game.from_field(start, 0, variant)
    b = stratego.Game.from_field(twin, 0, variant)
    for ply in range(len(actions)):
        if ply % 10 == 0:
            wa = [w._state.to_bytes() for w in a.sample_worlds(8, seed=ply, player=observer)]
            wb = [w._state.to_bytes() for w in b.sample_worlds(8, seed=ply, player=observer)]
            assert wa == wb, f"seed {seed}, observer {observer}, ply {ply}"
        a.play(actions[ply])
        b.play(actions[ply])


# -- 5. determinism, the batch, bad input -----------------------------------------------
def test_same_seed_same_worlds_and_the_batch_agrees_with_game() -> None:
    # 64 games: the pool splits a batch over threads only above 16 (pool_run), so the
    # 2-thread comparison below runs on two threads.
    env = stratego.VecEnv(64, seed=3, num_threads=1)
    env.reset(seed=3)
    for _ in range(60):
        env.step(env.sample_actions())
    worlds = env.sample_worlds(5, seed=9)
    assert worlds.shape == (64, 5, stratego.GAME_SAVE_BYTES) and worlds.dtype == np.uint8
    assert np.array_equal(env.sample_worlds(5, seed=9), worlds)
    reused = np.zeros_like(worlds)
    assert env.sample_worlds(5, seed=9, out=reused) is reused and np.array_equal(reused, worlds)
    assert not np.array_equal(env.sample_worlds(5, seed=10), worlds)
    env.num_threads = 2
    assert np.array_equal(env.sample_worlds(5, seed=9), worlds)
    # Game i of the batch draws on stream i; game 0's stream is the one Game uses.
    g0 = stratego.Game.from_save(env._batch.game(0).to_bytes())
    mine = [w._state.to_bytes() for w in g0.sample_worlds(5, seed=9)]
    assert mine == [bytes(worlds[0, j]) for j in range(5)]  # whole saves, the streams included
    for i in range(64):
        g = stratego.Game.from_save(env._batch.game(i).to_bytes())
        for j in range(5):
            w = stratego.Game.from_save(worlds[i, j])
            assert np.array_equal(w.observation(), g.observation())
    players = np.arange(64) % 2
    mixed = env.sample_worlds(2, seed=1, players=players)
    for i in range(64):
        g = stratego.Game.from_save(env._batch.game(i).to_bytes())
        w = stratego.Game.from_save(mixed[i, 1])
        assert np.array_equal(w.observation(int(players[i])), g.observation(int(players[i])))


@pytest.mark.parametrize("mode", ["next_step", "disabled"])
def test_the_batch_samples_the_games_it_can_with_skip(mode: str) -> None:
    # Under these autoreset modes finished games stay in the batch: by default the call
    # names the first one; skip=True samples the others and reports which were.
    env = stratego.VecEnv(16, "barrage", seed=1, observations=False, autoreset_mode=mode)
    env.reset(seed=1)
    while not env.over.any():
        env.step(env.sample_actions())
    over = env.over.copy()
    assert not over.all()
    first = int(np.flatnonzero(over)[0])
    with pytest.raises(ValueError, match=rf"cannot sample worlds of game {first}: .*skip=True"):
        env.sample_worlds(2, seed=4)
    worlds, ok = env.sample_worlds(2, seed=4, skip=True)
    assert ok.dtype == bool and np.array_equal(ok, ~over)
    assert not worlds[over].any()
    full = env.sample_worlds(2, seed=4, players=np.zeros(16, np.int64), skip=True)[0]
    for i in np.flatnonzero(ok):
        g = stratego.Game.from_save(env._batch.game(int(i)).to_bytes(), env.variant)
        for j in range(2):
            w = stratego.Game.from_save(worlds[i, j], env.variant)
            assert np.array_equal(w.observation(), g.observation())
        assert stratego.Game.from_save(full[i, 0], env.variant).observation(0).tobytes() == g.observation(0).tobytes()


def test_piece_types_follow_the_start_fields_squares_in_worlds_too() -> None:
    # GameState.piece_types(player): types by piece id, ids handed out in increasing
    # squares of a field; a world keeps the ids and gives them its own types (what
    # stratego.integrations.openspiel rebuilds a world's setup from).
    g = stratego.Game.from_field(stratego.Game("barrage", seed=4).field, 0, "barrage")
    for player, first in ((0, "B"), (1, "N")):
        letters = [c for c in g.field if first <= c <= chr(ord(first) + 11)]
        assert list(g._state.piece_types(player)) == [ord(c) - ord(first) for c in letters]
    with pytest.raises(ValueError, match="player must be 0 \\(red\\) or 1 \\(blue\\)"):
        g._state.piece_types(2)
    g.play(g.legal_actions()[0])
    for w in g.sample_worlds(20, seed=1):
        types = list(w._state.piece_types(1))
        on_board = {sq: int(t) for sq, (owner, t, _) in enumerate(cells(w)) if owner == 1}
        start = [sq for sq, c in enumerate(g.start_field) if "N" <= c <= "Y"]
        assert [on_board[sq] for sq in start] == types  # blue has not moved: ids on their start squares


def test_too_many_worlds_for_memory_name_worlds_and_k() -> None:
    # 4096 games x 65536 worlds of GAME_SAVE_BYTES: far beyond any machine's memory,
    # refused before anything is allocated, naming the worlds and what to change.
    env = stratego.VecEnv(4096, seed=0, observations=False)
    env.reset(seed=0)
    with pytest.raises(MemoryError, match=r"268435456 worlds need .* GiB .*use a smaller k \(here 65536 for each "
                                          r"of 4096 games\)"):
        env.sample_worlds(65536, seed=0)


def test_bad_input_is_refused_clearly() -> None:
    g = stratego.Game(seed=1)
    with pytest.raises(ValueError, match="player must be 0 \\(red\\) or 1 \\(blue\\), got 2"):
        g.sample_worlds(3, seed=0, player=2)
    with pytest.raises(ValueError, match=r"k must be an int in \[1, 65536\], got 0"):
        g.sample_worlds(0, seed=0)
    with pytest.raises(ValueError, match=r"k must be an int in \[1, 65536\], got 65537"):
        g.sample_worlds(65537, seed=0)
    with pytest.raises(TypeError, match="k must be an int"):
        g.sample_worlds(2.5, seed=0)
    g2 = stratego.Game.from_field(board(SMALL), 0)
    g2.play("A1-A2")
    while not g2.done:
        g2.play(g2.legal_actions()[0])
    with pytest.raises(ValueError, match="the game is over"):
        g2.sample_worlds(1, seed=0)
    env = stratego.VecEnv(2, seed=0)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"k must be an int in \[1, 65536\], got -1"):
        env.sample_worlds(-1, seed=0)
    with pytest.raises(ValueError, match="players must be 2 ints"):
        env.sample_worlds(1, seed=0, players=[0])
    with pytest.raises(ValueError, match=r"players\[1\] must be 0 \(red\) or 1 \(blue\), got 5"):
        env.sample_worlds(1, seed=0, players=np.array([0, 5]))
    with pytest.raises(ValueError, match="out"):
        env.sample_worlds(3, seed=0, out=np.zeros((2, 2, stratego.GAME_SAVE_BYTES), np.uint8))
    with pytest.raises((TypeError, ValueError), match="out"):
        env.sample_worlds(2, seed=0, out=np.zeros((2, 2, stratego.GAME_SAVE_BYTES), np.int32))
    with pytest.raises(ValueError, match="a game save array must be 1-D uint8"):
        stratego.Game.from_save(np.zeros((2, 3), np.uint8))


# -- 6. the PIMC bot ---------------------------------------------------------------------
def test_pimc_plays_legal_moves_deterministically_from_its_stream() -> None:
    g = stratego.Game(seed=21)
    for ply in range(60):
        if g.done:
            break
        c = g.clone()
        a = g.bot_move("pimc")
        assert a in g.legal_actions()
        assert c.bot_move("pimc") == a  # the clone's stream is the same
        g.play(a if ply % 2 == 0 else g.bot_move("heuristic"))


def test_pimc_as_an_opponent_in_vec_env() -> None:
    # The batch's PIMC replies are Game.bot_move("pimc") of each game with its stream
    # (env._batch.game(i) carries game i's stream, as bot_actions draws on it): legal.
    env = stratego.VecEnv(3, seed=2, opponent="pimc", learner_color="alternate", observations=False)
    env.reset(seed=2)
    for _ in range(20):
        env.step(env.bot_actions("heuristic"))
    games = [stratego.Game.from_save(env._batch.game(i).to_bytes(), env.variant) for i in range(3)]
    replies = env.bot_actions("pimc")
    assert replies.shape == (3,)
    for reply, g in zip(replies, games):
        assert reply in g.legal_actions()
        assert g.bot_move("pimc") == reply


@pytest.mark.parametrize("seed", range(depth(2, 8)))
def test_pimc_decisions_do_not_depend_on_unseen_types(seed: int) -> None:
    rng = random.Random(seed)
    start = stratego.Game(seed=seed).field
    a = stratego.Game.from_field(start, 0)
    actions, tr = play_random(a, rng, max_plies=120)
    twin = twin_field(start, tr, BLUE, rng)
    a, b = stratego.Game.from_field(start, 0), stratego.Game.from_field(twin, 0)
    for ply, action in enumerate(actions):
        if ply % 20 == 0 and a.to_move == RED:
            assert a.bot_move("pimc") == b.bot_move("pimc"), (seed, ply)
        a.play(action)
        b.play(action)
