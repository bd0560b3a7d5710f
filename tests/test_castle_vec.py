"""The castle game's observation and batch (docs/castle.md "Observation", "The batch"):
each seat's view in its own frame, leak-free (swapping pieces a seat has not seen leaves
its view bit-identical), the codes expanding to exactly the planes, and
stratego.castle.VecEnv against the rules replayed on Game copies at every step, in every
autoreset mode, for 1 and 2 threads, with saves that restore exactly and bad input
refused with clear exceptions."""
from __future__ import annotations

import numpy as np
import pytest

import stratego
from stratego.castle import CHANNELS, CODES_BYTES, Game, VecEnv, expand_observation
from stratego.common.arrays import unpack_mask
from test_castle_core import board

MODES = ["ffa4", "teams4", "ffa3"]
AUTORESETS = ["same_step", "next_step", "disabled"]


def random_games(mode, games=2, plies=160, seed=0, **settings):
    """Yields every position of a few random games (the same for every run)."""
    rng = np.random.default_rng(seed)
    for k in range(games):
        game = Game(mode, seed=seed * 100 + k, **settings)
        for _ in range(plies):
            yield game
            if game.done:
                break
            game.play(int(rng.choice(game.legal_actions())))


# ------------------------------------------------------------------ the observation

def test_channels_and_sizes():
    """115 named channels, 280 code bytes; the names are the module's (C's) list."""
    assert len(CHANNELS) == len(set(CHANNELS)) == stratego._core.CASTLE_OBS_CHANNELS == 115
    assert CODES_BYTES == stratego._core.CASTLE_CODES_BYTES == 280
    assert CHANNELS[:3] == ("own_cannon", "own_spy", "own_scout") and CHANNELS[-1] == "ply_progress"
    assert Game("ffa4").observation().shape == (115, 15, 15)
    assert Game("ffa3").observation(obs_format="codes").shape == (280,)


@pytest.mark.parametrize("mode", MODES)
def test_each_seat_sees_its_zone_at_the_bottom(mode):
    """The frame: a seat's own pieces start in the bottom three rows, its zone plane is
    there, and the other places' zones are left, across and right; 3p misses one place."""
    game = Game(mode, seed=5)
    ch = {name: k for k, name in enumerate(CHANNELS)}
    for seat in range(game.seats):
        planes = game.observation(seat)
        own = planes[ch["own_cannon"]:ch["own_marshal"] + 1].sum(0)
        assert own.sum() == 20 and own[12:].sum() == 20
        assert planes[ch["zone_self"], 12:, 4:11].all() and planes[ch["zone_self"]].sum() == 21
        regions = {"left": (slice(4, 11), slice(0, 3)), "across": (slice(0, 3), slice(4, 11)),
                   "right": (slice(4, 11), slice(12, 15))}
        sums = []
        for place, (rows, cols) in regions.items():
            zone = planes[ch[f"zone_{place}"]]
            sums.append(zone.sum())
            assert zone.sum() == 0 or zone[rows, cols].all()
        assert sorted(sums) == ([0, 21, 21] if mode == "ffa3" else [21, 21, 21])
        # Only the own ranks are known at the start: the others' pieces are unknown.
        unknown = sum(planes[ch[f"{p}_unknown"]].sum() for p in ("left", "across", "right"))
        assert unknown == 20 * (game.seats - 1)
        assert planes[ch["to_move_self"]].all() == (seat == game.to_play)
        assert planes[ch["teams"]].all() == (mode == "teams4")
        assert planes[ch["ring"]].sum() == 8 and planes[ch["turret"], 7, 7] == 1


@pytest.mark.parametrize("mode", MODES)
def test_codes_expand_to_the_planes_at_every_ply(mode):
    """expand_observation(codes) is bit-identical to the planes for every seat at every ply
    of random games, in one call for a stack of codes too."""
    codes, planes = [], []
    for game in random_games(mode, games=2, plies=400, seed=1, max_plies=350):
        for seat in range(game.seats):
            codes.append(game.observation(seat, obs_format="codes"))
            planes.append(game.observation(seat))
            assert (expand_observation(codes[-1]) == planes[-1]).all()
    assert (expand_observation(np.stack(codes)) == np.stack(planes)).all()


@pytest.mark.heavy
def test_torch_expander_matches_numpy():
    """The expander on PyTorch tensors (the learner's device) gives the same planes."""
    torch = pytest.importorskip("torch")
    env = VecEnv(16, "ffa3", seed=2, obs_format="codes", mask_format="bits", max_plies=80)
    for _ in range(100):
        out = expand_observation(torch.from_numpy(env.obs))
        assert out.dtype == torch.uint8 and np.array_equal(out.numpy(), expand_observation(env.obs))
        env.step(env.sample_actions())


def test_expander_refuses_wrong_input():
    with pytest.raises(ValueError, match="280 bytes"):
        expand_observation(np.zeros(100, np.uint8))
    with pytest.raises(TypeError, match="uint8"):
        expand_observation(np.zeros(280, np.int64))


# CastleState's layout (csrc/castle/castle.h), checked against the core below: the leak
# test swaps pieces in a state's bytes and has the core check the result.
RNG, BOARD, NODE, CARRY, KNOWN = 0, 8, 8 + 146, 8 + 146 + 80, 8 + 146 + 160
FLAG_CARRIER = KNOWN + 80 + 4
REP_SLOT = FLAG_CARRIER + 4 + 4 + 4 + 40


def swap_unseen(game, seat, rng):
    """A copy of game in which every other seat's pieces that `seat` does not know trade
    places among themselves at random (ranks move, positions and flags stay), or None
    when no such pair exists; the core checks the state it builds. Each seat's last moved
    piece stays where it is (its move may have shown what it can be)."""
    core = game._core
    settings, state = core.settings(), bytearray(core.state())
    pieces = {}
    for node in range(game._geometry["nodes"]):
        found = core.piece(node)
        if found is None:
            assert state[BOARD + node] == 0xFF
            continue
        owner, rank, _flag, slot = found
        assert state[BOARD + node] == slot and state[NODE + slot] == node  # the layout above holds
        # The piece a seat moved last stays: its move (a line, two steps) is public and
        # can say what it is (A10's count keeps it; castle_state_check holds them together).
        if owner != seat and not core.known(seat, node) and slot != state[REP_SLOT + owner]:
            pieces.setdefault(owner, []).append((node, slot, rank))
    changed = False
    for owner, found in pieces.items():
        order = rng.permutation(len(found))
        old = bytes(state)
        for k, (node, slot, rank) in enumerate(found):
            moved = found[order[k]][1]
            changed |= found[order[k]][2] != rank
            state[BOARD + node] = moved
            state[NODE + moved] = node
            state[CARRY + moved] = old[CARRY + slot]
            state[KNOWN + moved] = old[KNOWN + slot]
            if old[CARRY + slot] != 0xFF:
                state[FLAG_CARRIER + old[CARRY + slot]] = moved
    if not changed:
        return None
    return type(game)._wrap(stratego._core.CastleGame.from_state(settings, bytes(state)))


@pytest.mark.parametrize("mode", MODES)
def test_views_do_not_leak_unseen_ranks(mode):
    """Swapping the identities of pieces a seat has not seen (fights, shots and public
    recruitment show them) leaves that seat's observation bit-identical at every ply of
    random games, for every seat; the same swap changes the owner's view (the test can
    fail)."""
    rng = np.random.default_rng(7)
    checked = owner_saw = 0
    for game in random_games(mode, games=2, plies=300, seed=2, recruit_public=int(mode != "ffa3")):
        for seat in range(game.seats):
            swapped = swap_unseen(game, seat, rng)
            if swapped is None:
                continue
            assert swapped.to_text() != game.to_text()
            assert (swapped.observation(seat, obs_format="codes") == game.observation(seat, obs_format="codes")).all()
            assert (swapped.observation(seat) == game.observation(seat)).all()
            checked += 1
            owner_saw += any((swapped.observation(p, obs_format="codes") != game.observation(p, obs_format="codes")).any()
                             for p in range(game.seats) if p != seat)
    assert checked > 100 and owner_saw == checked


def test_a_fight_shows_both_ranks_to_every_seat_and_partners_see_no_more():
    """A12: before the fight nobody else knows the ranks, the partner included; after it
    every seat's view shows both."""
    text = board({"F4": "n5", "F5": "e3", "O8": "e4e", "H15": "s4s", "A8": "w4w", "H1": "n4n"},
                 mode="teams4", lone={})
    game = Game.from_text(text)
    ch = {name: k for k, name in enumerate(CHANNELS)}
    partner = game.observation(2)  # s, n's partner: n sits across
    assert partner[ch["across_unknown"]].sum() == 2 and partner[ch["across_lieutenant"]].sum() == 0
    game.play("F4xF5")
    places = ("self", "left", "across", "right")
    for seat in range(4):
        planes = game.observation(seat)
        n_place, e_place = places[(0 - seat) % 4], places[(1 - seat) % 4]
        winner = "own_lieutenant" if seat == 0 else f"{n_place}_lieutenant"
        assert planes[ch[winner], :, :].sum() == 1
        assert planes[ch[f"removed_{e_place}_scout"]].all()
    assert game.observation(0)[ch["own_revealed"]].sum() == 1


# ------------------------------------------------------------------ the batch

def game_rewards(game):
    if not game.done or game.winner == -1:
        return [0.0] * game.seats
    return [1.0 if p in game.winners else -1.0 for p in range(game.seats)]


@pytest.mark.parametrize("autoreset", AUTORESETS)
@pytest.mark.parametrize("mode", MODES)
def test_batch_follows_the_rules_at_every_step(mode, autoreset):
    """Every step's mask, to_play, observation, rewards and terminations agree with the
    rules replayed on Game copies; over games ignore their actions (next_step restarts
    them, disabled waits for a reset)."""
    n = 4
    env = VecEnv(n, mode, seed=3, obs_format="codes", mask_format="bits", autoreset_mode=autoreset, max_plies=90)
    obs, info = env.reset(seed=3)
    games = [env.game(i) for i in range(n)]
    over = np.zeros(n, bool)
    ends = 0
    for step in range(400):
        mask = unpack_mask(info["action_mask"], env.num_actions)
        for i, g in enumerate(games):
            if over[i]:
                assert not mask[i].any()
                continue
            assert np.array_equal(np.nonzero(mask[i])[0], g.legal_actions())
            assert info["to_play"][i] == g.to_play
            assert (obs[i] == g.observation(g.to_play, obs_format="codes")).all()
        actions = env.sample_actions().copy()
        obs, reward, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        for i in range(n):
            if over[i]:
                assert not terminated[i] and not info["rewards"][i].any()
                if autoreset == "next_step":
                    over[i] = False
                    games[i] = env.game(i)
                continue
            actor = games[i].to_play
            games[i].play(int(actions[i]))
            assert info["acted"][i] == actor
            assert terminated[i] == games[i].done
            assert list(info["rewards"][i]) == game_rewards(games[i])
            assert reward[i] == info["rewards"][i][actor]
            if terminated[i]:
                ends += 1
                assert info["final_info"]["plies"][i] == games[i].ply
                assert info["final_info"]["reason"][i] == 1 + ["turret", "stuck", "cap"].index(games[i].end_reason)
                if autoreset == "same_step":
                    final = info["final_obs"][i]
                    assert (final == games[i].observation(actor, obs_format="codes")).all()
                    games[i] = env.game(i)
                else:
                    over[i] = True
            else:
                assert env.game(i)._core.state() == games[i]._core.state()
        if autoreset == "disabled" and over.all():
            obs, info = env.reset(options={"reset_mask": over.copy()})
            games = [env.game(i) if over[i] else g for i, g in enumerate(games)]
            over[:] = False
    assert ends >= n
    assert env.stats()["games_finished"] == ends


@pytest.mark.parametrize("mode", ["ffa4", "teams4"])
def test_a_crowning_pays_the_winner_or_its_team(mode):
    """Rewards: +1 the crowning seat (teams4: both partners), -1 the others; the tally
    counts the crowning seat's win. The position is put into the batch through a save."""
    text = board({"ring": "n5n", "O8": "e4e", "H15": "s4s", "A8": "w4w"}, mode=mode)
    crown = Game.from_text(text)
    env = VecEnv(2, mode, seed=1, obs_format="planes")
    data = bytearray(env.save_state())
    state = crown._core.state()
    at = len(data) - 2 * 8 - 2 * len(state)
    data[at:at + len(state)] = state
    env.load_state(bytes(data))
    assert env.game(0).to_text() == crown.to_text()
    actions = env.sample_actions().copy()
    actions[0] = crown.move_to_action("ring-turret")
    _, reward, terminated, _, info = env.step(actions)
    assert terminated[0] and reward[0] == 1.0
    expected = [1, -1, 1, -1] if mode == "teams4" else [1, -1, -1, -1]
    assert list(info["rewards"][0]) == expected
    assert info["final_info"]["winner"][0] == 0 and env.stats()["wins"][0] == 1
    ch = CHANNELS.index("own_lieutenant")
    assert info["final_obs"][0][ch, 7, 7] == 1  # the crowning piece on the turret, from n's view


@pytest.mark.parametrize("mode", MODES)
def test_planes_and_codes_batches_agree(mode):
    """The planes a batch writes are the expansion of the codes a twin batch writes, and
    bool and bit masks agree, at every step."""
    a = VecEnv(5, mode, seed=9, obs_format="planes", mask_format="bool", max_plies=120)
    b = VecEnv(5, mode, seed=9, obs_format="codes", mask_format="bits", max_plies=120)
    oa, ia = a.reset(seed=9)
    ob, ib = b.reset(seed=9)
    for _ in range(300):
        assert (expand_observation(ob) == oa).all()
        assert (unpack_mask(ib["action_mask"], a.num_actions) == ia["action_mask"]).all()
        actions = a.sample_actions()
        assert (b.sample_actions() == actions).all()
        oa, ra, ta, _, ia = a.step(actions)
        ob, rb, tb, _, ib = b.step(actions)
        assert (ra == rb).all() and (ta == tb).all()
        if ta.any():
            assert (expand_observation(ib["final_obs"]) == ia["final_obs"]).all()


@pytest.mark.parametrize("mode", MODES)
def test_one_and_two_threads_give_the_same_games(mode):
    envs = [VecEnv(7, mode, seed=11, num_threads=t, obs_format="codes", max_plies=150) for t in (1, 2)]
    outs = [e.reset(seed=11) for e in envs]
    for _ in range(400):
        acts = [e.sample_actions().copy() for e in envs]
        assert (acts[0] == acts[1]).all()
        outs = [e.step(a) for e, a in zip(envs, acts)]
        assert (outs[0][0] == outs[1][0]).all() and (outs[0][1] == outs[1][1]).all()
        assert (envs[0].action_mask == envs[1].action_mask).all()
    assert envs[0].stats() == envs[1].stats() and envs[0].stats()["games_finished"] > 0


def test_the_random_agent_is_legal_and_follows_the_seed():
    env = VecEnv(6, "ffa4", seed=4, obs_format=None)
    twin = VecEnv(6, "ffa4", seed=4, obs_format=None)
    for _ in range(50):
        a = env.sample_actions().copy()
        assert (twin.sample_actions() == a).all()
        assert env.action_mask[np.arange(6), a].all()
        env.step(a)
        twin.step(a)


# ------------------------------------------------------------------ saves

def test_a_save_restores_exactly():
    env = VecEnv(5, "ffa3", seed=2, obs_format="codes", mask_format="bits", max_plies=100)
    for _ in range(120):
        env.step(env.sample_actions())
    saved = env.save_state()
    after = []
    for _ in range(100):
        obs, r, t, _, info = env.step(env.sample_actions())
        after.append((obs.copy(), r.copy(), t.copy(), info["action_mask"].copy()))
    stats = env.stats()
    obs, info = env.load_state(saved)
    assert env.save_state() == saved
    for want in after:
        obs, r, t, _, info = env.step(env.sample_actions())
        for x, y in zip((obs, r, t, info["action_mask"]), want):
            assert (x == y).all()
    assert env.stats() == stats
    # Another batch of the same settings loads it too.
    other = VecEnv(5, "ffa3", seed=8, obs_format="planes", max_plies=100)
    other.load_state(saved)
    assert (other.obs == expand_observation(VecEnv(5, "ffa3", obs_format="codes", max_plies=100)
                                            .load_state(saved)[0])).all()


def test_saves_of_other_games_versions_or_settings_are_refused():
    env = VecEnv(3, "ffa4", seed=1, obs_format=None)
    saved = env.save_state()
    classic = stratego.VecEnv(3, seed=1).save_state()
    with pytest.raises(ValueError, match="not a castle save"):
        env.load_state(classic)
    newer = bytearray(saved)
    newer[8:12] = (99).to_bytes(4, "little")
    with pytest.raises(ValueError, match="version 99"):
        env.load_state(bytes(newer))
    with pytest.raises(ValueError, match="mode = 0, this batch has 2"):
        VecEnv(3, "ffa3", obs_format=None).load_state(saved)
    with pytest.raises(ValueError, match="back_and_forth = 7"):
        env.load_state(VecEnv(3, "ffa4", obs_format=None, back_and_forth=7).save_state())
    with pytest.raises(ValueError, match="holds 3 games"):
        VecEnv(4, "ffa4", obs_format=None).load_state(saved)
    with pytest.raises(ValueError, match="too short|bytes"):
        env.load_state(saved[:-5])
    broken = bytearray(saved)
    broken[len(saved) - 3 * 8 - 488 + BOARD] = 200  # game 2's board holds a slot that does not exist
    with pytest.raises(ValueError, match="game 2"):
        env.load_state(bytes(broken))
    with pytest.raises(TypeError, match="bytes"):
        env.load_state("not bytes")
    env.load_state(saved)  # still usable after the refusals


def test_damaged_saves_are_refused_or_play_on():
    """Random bytes changed in a save's states: refused with ValueError, or (a state the
    rules accept) played on without harm."""
    env = VecEnv(2, "teams4", seed=6, obs_format="planes", max_plies=300)
    for _ in range(150):
        env.step(env.sample_actions())
    saved = env.save_state()
    header = len(saved) - 2 * 8 - 2 * 488
    rng = np.random.default_rng(0)
    accepted = 0
    for _ in range(300):
        data = bytearray(saved)
        for at in rng.integers(header, len(saved) - 16, size=int(rng.integers(1, 4))):
            data[at] = int(rng.integers(0, 256))
        try:
            env.load_state(bytes(data))
        except ValueError as exc:
            assert "cannot load this saved state" in str(exc)
            continue
        accepted += 1
        for _ in range(3):
            env.step(env.sample_actions())
    assert accepted > 0


# ------------------------------------------------------------------ bad input

def test_bad_arguments_raise_clear_exceptions():
    for n in (0, -1):
        with pytest.raises(ValueError, match="num_envs"):
            VecEnv(n)
    with pytest.raises(ValueError, match="num_envs"):
        VecEnv("4")
    with pytest.raises(ValueError, match="mode"):
        VecEnv(2, "ffa5")
    with pytest.raises((ValueError, FileNotFoundError), match="nope"):
        VecEnv(2, variant="nope")
    with pytest.raises(ValueError, match="obs_format"):
        VecEnv(2, obs_format="pixels")
    with pytest.raises(ValueError, match="mask_format"):
        VecEnv(2, mask_format="bytes")
    with pytest.raises(ValueError, match="back_and_forth"):
        VecEnv(2, back_and_forth=0)
    with pytest.raises(ValueError, match="num_threads"):
        VecEnv(2, num_threads=-1)
    with pytest.raises(ValueError, match="autoreset_mode"):
        VecEnv(2, autoreset_mode="sometimes")


def test_bad_actions_raise_and_play_nothing():
    env = VecEnv(3, "ffa4", seed=1, obs_format="codes")
    legal = env.sample_actions().copy()
    before = env.save_state()
    with pytest.raises(ValueError, match=r"shape \(3,\)"):
        env.step(legal[:2])
    with pytest.raises(TypeError, match="integers"):
        env.step(legal.astype(np.float64))
    bad = legal.copy()
    bad[1] = env.num_actions
    with pytest.raises(ValueError, match="out of range"):
        env.step(bad)
    bad[1] = -1
    with pytest.raises(ValueError, match="out of range"):
        env.step(bad)
    bad[1] = int(np.nonzero(~env.action_mask[1])[0][0])
    with pytest.raises(ValueError, match="illegal action .* in game 1"):
        env.step(bad)
    with pytest.raises(IndexError, match="game index"):
        env.game(3)
    assert env.save_state() == before
    env.step(legal)
    env.close()
    with pytest.raises(RuntimeError, match="closed"):
        env.step(legal)


# ------------------------------------------------------------------ the bench

def test_bench_checksum_is_the_same_for_every_configuration_and_thread_count():
    """`stratego bench --game castle`: observations and threads change no game."""
    from stratego.castle.bench import CONFIGS, run_castle_bench
    runs = [run_castle_bench(label, num_envs=24, batch_steps=260, num_threads=threads, seed=5, mode=mode,
                             max_plies=200, **CONFIGS[label])
            for label in CONFIGS for threads in (1, 2) for mode in ("ffa3",)]
    assert len({r.checksum for r in runs}) == 1 and runs[0].games_finished >= 24
    assert runs[0].plies == sum(r.plies for r in runs) / len(runs)


def test_bench_command_line(capsys):
    from stratego import cli
    assert cli.main(["bench", "--game", "castle", "--mode", "teams4", "--num-envs", "8", "--steps", "20",
                     "--threads", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "codes+bits: teams4, 8 games x 20 steps" in out and "planes+bool" in out and "checksum" in out


def test_the_portable_count_draws_the_same_actions(tmp_path):
    """STRATEGO_NO_AVX2 selects the portable mask count: the random agent's draws (which
    use the count) are the same."""
    import os
    import subprocess
    import sys
    script = ("import numpy as np, hashlib\nfrom stratego.castle import VecEnv\n"
              "e = VecEnv(16, 'ffa4', seed=3, obs_format=None, max_plies=100)\nh = hashlib.sha256()\n"
              "for _ in range(150):\n    a = e.sample_actions(); h.update(a.tobytes()); e.step(a)\n"
              "print(h.hexdigest())\n")
    digests = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                              env={**os.environ, "STRATEGO_NO_AVX2": flag}).stdout for flag in ("1", "0")}
    assert len(digests) == 1


def test_reset_takes_the_seeds_the_classic_env_takes():
    # One seed rule (stratego.common.seeding, parse_seed shared with the classic batch):
    # [0, 2**64), nothing wraps.
    a = VecEnv(2)
    a.reset(seed=2**64 - 1)
    a.reset(seed=np.uint64(7))
    a.step(a.sample_actions())
    for seed in (-1, 2**64, 2**100):
        with pytest.raises(ValueError, match=r"seed must be an int in \[0, 2\*\*64\)"):
            a.reset(seed=seed)
    with pytest.raises(TypeError, match="seed"):
        a.reset(seed=1.5)
