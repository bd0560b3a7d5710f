"""The deployment phase (issue 19, docs/deployment.md): setup="agent" lets the players
place their own pieces, one action each, before the first move."""
import pickle

import numpy as np
import pytest

import stratego
from stratego import _core
from stratego.setups import human_setups
from stratego.variants import load_variant

BASE = _core.RESCUE_ACTION_BASE
HALF = 50  # squares of the own half (frame rows 0-4), docs/actions.md


def placement(piece_type: int, h: int) -> int:
    """The action placing `piece_type` on frame square h (docs/deployment.md)."""
    return BASE + piece_type * HALF + h


def decode(action: int) -> tuple[int, int]:
    """(type, frame square) of a placement action."""
    return divmod(action - BASE, HALF)


def deploy_randomly(game: stratego.Game, rng: np.random.Generator) -> list[int]:
    """Plays uniformly random legal placements until the play starts; the actions."""
    played = []
    while game.deploying:
        action = int(rng.choice(game.legal_actions()))
        game.play(action)
        played.append(action)
    return played


def side_letters(field: str, player: int) -> list[int]:
    """Counts of `player`'s pieces by type on a Gravon field."""
    first = ord("B") if player == 0 else ord("N")
    return [field.count(chr(first + t)) for t in range(12)]


def test_default_observation_and_action_space_do_not_change():
    assert len(_core.channel_names(4, False)) == 68
    assert stratego.Game().variant.num_actions == 1800
    assert "deploying" not in stratego.VecEnv(2, seed=0).observation_channels


@pytest.mark.parametrize("variant", stratego.variants())
def test_every_variant_deploys_its_piece_set_in_its_zone(variant):
    game = stratego.Game(variant, seed=5, setup="agent")
    v = game.variant
    rows = v.settings["setup_rows"]
    # The action space is the prefix through the rescue block (ACTION_MAX with rescues).
    assert v.num_actions == (_core.ACTION_MAX if v.settings["rescue"] else _core.RESCUE_DECLINE)
    assert game.deploying and game.to_move == 0 and game.ply == 0
    first = game.legal_actions()
    types = {decode(a)[0] for a in first}
    assert types == {t for t, n in enumerate(v.piece_counts) if n}
    assert {decode(a)[1] for a in first} == set(range(rows * 10))  # the whole zone, empty
    assert len(first) == len(types) * rows * 10
    rng = np.random.default_rng(0)
    order = []
    while game.deploying:
        order.append(game.to_move)
        assert all(decode(a)[1] < rows * 10 for a in game.legal_actions())
        game.play(int(rng.choice(game.legal_actions())))
    # Alternately, red first, one placement each (both sides have the same set).
    assert order == [0, 1] * v.num_pieces
    assert game.ply == 0 and game.plies_since_attack == 0 and game.history == ()
    for player in (0, 1):
        assert side_letters(game.field, player) == list(v.piece_counts)
        for sq, letter in enumerate(game.field):
            mine = "B" <= letter <= "M" if player == 0 else "N" <= letter <= "Y"
            frame = sq if player == 0 else 99 - sq
            if mine:
                assert frame // 10 < rows
    if not game.done:
        assert game.to_move == 0 and not game.deploying


def test_seed_variant_leaves_one_square_of_the_zone_empty():
    game = stratego.Game("seed-rulebook", seed=1, setup="agent")
    deploy_randomly(game, np.random.default_rng(1))
    red_zone = game.field[:40]
    assert sum(c != "A" for c in red_zone) == 39


def test_barrage_places_anywhere_in_the_forty_squares():
    squares = set()
    for seed in range(30):
        game = stratego.Game("barrage", seed=seed, setup="agent")
        deploy_randomly(game, np.random.default_rng(seed))
        squares |= {sq for sq in range(40) if game.field[sq] != "A"}
    assert max(squares) >= 30 and min(squares) < 10


def test_deployment_placements_in_notation_and_the_hand():
    game = stratego.Game(seed=0, setup="agent")
    assert game.hand()["bomb"] == 6 and sum(game.hand(1).values()) == 40
    game.play("F@A1")  # red's flag on its back row
    assert game.field[0] == "M" and "flag" not in game.hand(0)
    assert game.to_move == 1
    game.play("F@K10")  # blue's flag on its back-row corner
    assert game.field[99] == "Y"
    obs = game.observation(0)
    names = _core.channel_names(4, False, False, False, True)
    plane = {name: obs[i] for i, name in enumerate(names)}
    assert plane["hand_flag"].max() == 0 and (plane["hand_bomb"] == 6).all()
    assert (plane["deploying"] == 1).all()
    assert plane["own_flag"][0, 0] == 1


@pytest.mark.parametrize("move, reason", [
    ("A1-A2", "the players are deploying"),
    ("B@A5", "own setup zone"),
    ("B@K10", "own setup zone"),  # blue's back row
    ("B@B1", "the square already holds a piece"),
])
def test_bad_placements_raise_as_illegal_moves(move, reason):
    game = stratego.Game(seed=0, setup="agent")
    game.play("F@B1")
    game.play("F@B10")  # blue's, so red is to move again
    before = game.field
    with pytest.raises(ValueError, match="illegal move .*" + reason):
        game.play(move)
    with pytest.raises(ValueError, match="no piece of that type is left in hand"):
        game.play("F@C1")
    with pytest.raises(ValueError, match="no piece of that type is left in hand"):
        game.play(placement(11, 2))
    with pytest.raises(ValueError, match="the players are deploying"):
        game.play(31 * 18 + 9 + 3)  # a line move's action
    assert game.field == before and game.deploying


def test_placement_actions_after_the_deployment_are_refused():
    game = stratego.Game(seed=0, setup="agent")
    deploy_randomly(game, np.random.default_rng(0))
    with pytest.raises(ValueError, match="placements are made only while deploying"):
        game.play(placement(2, 45))
    # deploy=1 with random setups: the same action space, no deployment.
    random_setup = stratego.Game(seed=0, deploy=1)
    assert not random_setup.deploying and random_setup.variant.num_actions == 2800


def test_a_deployment_without_a_legal_move_loses():
    """Bombs on the six front squares that do not face a lake, every square filled: red's
    pieces cannot move, so red loses at once (END_NO_LEGAL_MOVE), by the rules."""
    game = stratego.Game(seed=0, setup=("agent", "random"))
    fronts = [30, 31, 34, 35, 38, 39]
    for h in fronts:
        game.play(placement(0, h))
    rest = [t for t, n in enumerate(game.variant.piece_counts) for _ in range(n)][6:]
    for h, t in zip([h for h in range(40) if h not in fronts], rest):
        game.play(placement(t, h))
    assert game.done and game.winner == 1 and game.end_reason == "no_legal_move"
    record = game.record()
    assert record.field == game.field and record.actions == ()
    assert stratego.Game.from_record(record).end_reason == "no_legal_move"


def test_mixed_modes_one_side_deploys():
    table = human_setups(load_variant("classic"))
    rows = {bytes(row) for row in table}
    game = stratego.Game(seed=3, setup=("agent", "human"))
    assert game.to_move == 0 and game.field[:40] == "A" * 40
    # Blue's human setup, as the table writes it: letter i stands (3 - i // 10) rows above
    # blue's back row, in blue's frame (csrc/stratego/setup.h), with red's letters.
    def letter(i):
        c = game.field[99 - ((3 - i // 10) * 10 + i % 10)]
        return ord(c) - 12 if c != "A" else ord("A")
    letters = bytes(letter(i) for i in range(40))
    assert letters in rows
    players = []
    while game.deploying:
        players.append(game.to_move)
        game.play(game.bot_move("heuristic"))  # bots deploy by random placement
    assert players == [0] * 40
    other = stratego.Game(seed=3, setup=("random", "agent"))
    assert other.to_move == 1 and other.field[60:] == "A" * 40
    with pytest.raises(ValueError, match="pair 'agent' with"):
        stratego.Game(setup=("random", "human"))
    with pytest.raises(ValueError, match="setup must be one of"):
        stratego.Game(setup="agents")


def test_record_history_and_pickle_start_at_the_resulting_setup():
    game = stratego.Game(seed=4, setup="agent")
    rng = np.random.default_rng(4)
    for _ in range(30):
        game.play(int(rng.choice(game.legal_actions())))
    clone = pickle.loads(pickle.dumps(game))  # mid-deployment
    assert clone.deploying and clone.field == game.field and clone.to_move == game.to_move
    deploy_randomly(game, rng)
    setup_field = game.field
    for _ in range(20):
        if not game.done:
            game.play(game.bot_move("random"))
    assert game.start_field == setup_field and all(m.action < 2200 for m in game.history)
    record = game.record()
    assert record.field == setup_field
    again = stratego.Game.from_record(record)
    assert again.field == game.field and again.history == game.history


def test_history_planes_and_caps_start_at_the_first_move():
    game = stratego.Game(seed=2, setup="agent", max_plies=3)
    deploy_randomly(game, np.random.default_rng(2))
    names = _core.channel_names(4, False, False, False, True)
    obs = game.observation()
    for i, name in enumerate(names):
        if name.startswith("move_") or name.endswith("progress") or name.startswith("hand_") or name == "deploying":
            assert obs[i].max() == 0, name
    for _ in range(3):
        if not game.done:
            game.play(game.bot_move("random"))
    assert game.ply <= 3 and (game.done or game.ply < 3)


@pytest.mark.parametrize("variant", ["classic", "barrage", "ultimate-lightning"])
def test_the_opponents_placements_never_reach_an_observation(variant):
    """Two games differ only in blue's placements (the types on the same squares):
    red's observations (planes, float with beliefs) and masks are bit-identical through
    the deployment and at the start of play; blue's own views differ (the test can fail)."""
    games = [stratego.Game(variant, seed=7, setup="agent") for _ in range(2)]
    counts = games[0].variant.piece_counts
    pieces = [t for t, n in enumerate(counts) for _ in range(n)]
    red_types = list(pieces)
    np.random.default_rng(1).shuffle(red_types)
    blue_types = [list(pieces), list(pieces)]
    np.random.default_rng(2).shuffle(blue_types[0])
    np.random.default_rng(3).shuffle(blue_types[1])
    squares = np.random.default_rng(4).permutation(len(pieces) * 2)
    blue_differs = False
    step = 0
    while games[0].deploying:
        player = games[0].to_move
        for k, game in enumerate(games):
            views = [game.observation(0), game.observation(0, dtype="float32", belief=True)]
            if k == 0:
                first = views
            else:
                for a, b in zip(first, views):
                    assert a.tobytes() == b.tobytes()
        if player == 0:
            t = red_types.pop()
            h = int(squares[step % len(squares)]) % 40
            while games[0].field[h] != "A":
                h = (h + 1) % 40
            for game in games:
                game.play(placement(t, h))
        else:
            h = next(h for h in range(40) if games[0].field[99 - h] == "A")
            for k, game in enumerate(games):
                game.play(placement(blue_types[k].pop(), h))
            blue_differs |= games[0].field != games[1].field
        step += 1
    assert blue_differs
    assert games[0].observation(0).tobytes() == games[1].observation(0).tobytes()
    assert np.array_equal(games[0].action_mask(), games[1].action_mask())
    assert games[0].observation(1).tobytes() != games[1].observation(1).tobytes()


def test_vec_env_deploys_with_info_and_masks():
    env = stratego.VecEnv(6, setup="agent", seed=0)
    obs, info = env.reset(seed=0)
    assert env.num_actions == 2800 and obs.shape == (6, 81, 10, 10)
    assert info["deploying"].all() and (info["action_mask"].sum(1) == 480).all()
    assert env.observation_channels[-1] == "deploying"
    steps = 0
    while info["deploying"].any():
        assert (info["to_play"] == steps % 2).all()
        obs, reward, term, trunc, info = env.step(env.sample_actions())
        steps += 1
        assert not term.any()
    assert steps == 80 and (obs[:, -1] == 0).all()
    with pytest.raises(ValueError, match="the players are deploying"):
        env2 = stratego.VecEnv(2, setup="agent", seed=0)
        env2.step(np.array([0, 0]))


def test_vec_env_same_games_for_one_and_many_threads_and_save_mid_deployment():
    runs = []
    for threads in (1, 2):
        env = stratego.VecEnv(8, setup=("agent", "human"), seed=3, num_threads=threads)
        for _ in range(30):
            env.step(env.sample_actions())
        runs.append((env.obs.copy(), env.game_field(5)))
    assert np.array_equal(runs[0][0], runs[1][0]) and runs[0][1] == runs[1][1]
    saved = env.save_state()
    actions = env.sample_actions().copy()
    env.step(actions)
    other = stratego.VecEnv(8, setup=("agent", "human"), seed=9)
    other.load_state(saved)
    assert other.game_field(5) == runs[1][1]
    other.step(actions)
    assert np.array_equal(other.obs, env.obs) and other.game_field(5) == env.game_field(5)


def test_vec_env_illegal_placement_loses_under_lose():
    env = stratego.VecEnv(2, setup="agent", seed=0, illegal_action="lose")
    env.step(np.array([0, placement(0, 0)]))  # a move action in game 0
    assert env.final_winner[0] == 1 and env.final_reason[0] == _core.END_REASONS.index("illegal_action")


def test_learner_deploys_against_a_bot_that_takes_human_setups():
    env = stratego.VecEnv(4, setup=("agent", "human"), opponent="heuristic", learner_color="alternate", seed=1)
    obs, info = env.reset(seed=1)
    assert info["deploying"].all()  # the learner, whatever its colour, deploys
    steps = 0
    while info["deploying"].any():
        obs, reward, term, trunc, info = env.step(env.sample_actions())
        steps += 1
    assert steps == 40
    both = stratego.VecEnv(2, setup="agent", opponent="random", learner_color="blue", seed=1)
    _, info = both.reset(seed=1)
    # The bot (red) placed its first piece in the reset; the learner (blue) places next.
    assert (info["to_play"] == 1).all() and info["deploying"].all()


def test_bench_suite_measures_deployment():
    from benchmarks.suite import deployment_steps_per_second
    deploy, move = deployment_steps_per_second(num_envs=64, steps=80)
    assert deploy > 0 and move > 0


def test_gymnasium_env_learner_deploys_against_human_setups():
    import gymnasium as gym
    env = gym.make("stratego/Stratego-v0", opponent="heuristic", setup=("agent", "human"),
                   learner_color="alternate")
    for episode in range(2):
        obs, info = env.reset(seed=episode)
        assert info["deploying"] and obs.shape == (81, 10, 10)
        assert env.action_space.n == 2800
        placements = 0
        while info["deploying"]:
            obs, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            placements += 1
        assert placements == 40 and not done
        # The opponent's human setup: 40 unknown unmoved pieces, nothing in hand.
        names = _core.channel_names(4, False, False, False, True)
        assert obs[names.index("opp_unknown_unmoved")].sum() == 40 - (env.unwrapped.learner == 1)
    with pytest.raises(ValueError, match="setup must be one of"):
        gym.make("stratego/Stratego-v0", setup="mine")


@pytest.mark.heavy
def test_pettingzoo_env_deploys_both_sides():
    from stratego.integrations.pettingzoo import env as make_env
    env = make_env(setup="agent")
    env.reset(seed=0)
    placements = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        if not info["deploying"]:
            break
        assert obs["observation"].shape == (81, 10, 10)
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        placements += 1
    assert placements == 80


@pytest.mark.parametrize("variant", ["classic", "duel-spinmaster"])
def test_codes_expand_to_the_deployment_planes(variant):
    """obs_format="codes" with setup="agent": 13 more bytes (the hand and the phase) that
    expand_observation turns into exactly the planes, through deployment and play."""
    game = stratego.Game(variant, seed=1, setup="agent")
    rng = np.random.default_rng(0)
    assert stratego.codes_bytes(4, True) == stratego.codes_bytes(4) + 13
    for _ in range(2 * game.variant.num_pieces + 20):
        for player in (0, 1):
            codes = game.observation(player, obs_format="codes")
            assert codes.shape == (stratego.codes_bytes(4, True),)
            assert np.array_equal(stratego.expand_observation(codes), game.observation(player))
            both = game.observation(player, obs_format="codes", belief=True)
            assert np.array_equal(stratego.expand_observation(both["codes"], both["belief"]),
                                  game.observation(player, dtype="float32", belief=True))
        if game.done:
            break
        game.play(int(rng.choice(game.legal_actions())))
    env = stratego.VecEnv(3, variant, setup="agent", obs_format="codes", mask_format="bits", seed=0)
    codes, info = env.reset(seed=0)
    planes = stratego.VecEnv(3, variant, setup="agent", seed=0).reset(seed=0)[0]
    assert np.array_equal(stratego.expand_observation(codes), planes)


def test_a_save_names_its_deploying_sides():
    saved = stratego.VecEnv(2, setup=("agent", "random"), seed=0).save_state()
    with pytest.raises(ValueError, match="deploy sides 1 .* this one's 3"):
        stratego.VecEnv(2, setup="agent", seed=0).load_state(saved)
    stratego.VecEnv(2, setup=("agent", "random"), seed=5).load_state(saved)


def test_channel_names_and_format_observation_know_the_deployment_planes():
    names = stratego.channel_names(4, deploy=True)
    assert names[68:] == tuple(f"hand_{n}" for n in _core.PIECE_NAMES) + ("deploying",)
    game = stratego.Game(setup="agent", seed=0)
    game.play("F@A1")
    text = stratego.format_observation(game.observation(0), deploy=True)
    assert "deploying; in hand: B:6" in text and "F:0" in text
    assert game.to_move == 1 and all(m.startswith(("B@", "S@", "F@")) or "@" in m for m in game.legal_moves())


@pytest.mark.parametrize("variant", stratego.variants())
def test_mask_list_and_check_agree_on_every_action_while_deploying(variant):
    game = stratego.Game(variant, seed=11, setup="agent")
    rng = np.random.default_rng(11)
    n = game.variant.num_actions
    for k in range(2 * game.variant.num_pieces):
        if k % 7 == 0 or not game.deploying:
            mask = game.action_mask()
            legal = {a for a in range(n) if game._state.check_action(a) is None}
            assert legal == set(np.flatnonzero(mask)) == set(game.legal_actions())
            bits = game.action_mask("bits")
            assert np.array_equal(stratego.unpack_mask(bits, n), mask)
        if not game.deploying:
            break
        game.play(int(rng.choice(game.legal_actions())))


def test_arena_plays_deploying_games_and_refuses_blind_policies():
    from stratego.agents.arena import run_arena
    from stratego.agents.policy import ObservationSettings, observes
    result = run_arena(["random", "heuristic"], games=4, seed=1, setup="agent", num_threads=1, max_plies=300)
    assert result.setup == "agent" and sum(result.record("random", "heuristic")) == 8

    @observes(history_k=1)
    def blind(obs, mask):
        return mask.argmax(1)
    with pytest.raises(ValueError, match="observe the deployment planes"):
        run_arena([("blind", blind), "random"], games=1, setup="agent")

    def first_legal(obs, mask):
        return mask.argmax(1)
    first_legal.observation_settings = ObservationSettings(history_k=1, deploy=True)
    assert len(first_legal.observation_settings.channels) == 30 + 3 + 26 + 13
    assert first_legal.observation_settings.env_kwargs()["deploy"] == 1
    played = run_arena([("first", first_legal), "random"], games=2, seed=2, setup="agent", num_threads=1,
                       max_plies=200)
    assert sum(played.record("first", "random")) == 4


def test_an_opponent_policy_with_the_deployment_planes_plays_a_single_game():
    """Opponent (StrategoEnv's, the arena's for one game) asks Game.observation for the
    policy's planes; the deployment planes come with the game's own rules, so a deploying
    policy plays a deploying game, and either mismatch is refused before the policy runs."""
    from stratego.agents.opponent import Opponent
    from stratego.agents.policy import ObservationSettings
    seen = []

    def first_legal(obs, mask):
        seen.append(obs.shape)
        return mask.argmax(1)
    first_legal.observation_settings = ObservationSettings(history_k=1, deploy=True)
    game = stratego.Game(setup="agent", seed=3)
    opponent = Opponent(first_legal, game.variant)
    while game.deploying:
        game.play(opponent.action(game, check_legal=True))
    assert seen and seen[0] == (1, len(first_legal.observation_settings.channels), 10, 10)
    assert game.to_move == 0 and not game.done
    game.play(opponent.action(game, check_legal=True))  # and the moves after it
    assert game.ply == 1

    calls = len(seen)
    plain = stratego.Game(seed=3)
    before = plain.history
    with pytest.raises(ValueError, match=r"observes the deployment planes .* deploy=0"):
        opponent.action(plain, check_legal=True)

    def blind(obs, mask):
        seen.append(obs.shape)
        return mask.argmax(1)
    blind.observation_settings = ObservationSettings(history_k=1)
    with pytest.raises(ValueError, match=r"observes no deployment planes .* deploy=1"):
        Opponent(blind).action(stratego.Game(setup="agent", seed=3), check_legal=True)
    assert len(seen) == calls and plain.history == before

    # A policy that declares no settings takes the game's planes as they come.
    def undeclared(obs, mask):
        seen.append(obs.shape)
        return mask.argmax(1)
    Opponent(undeclared).action(stratego.Game(setup="agent", seed=3), check_legal=True)
    assert seen[-1] == (1, len(stratego.channel_names(4, deploy=True)), 10, 10)


@pytest.mark.heavy
def test_reference_network_takes_the_deployment_planes_and_places():
    torch = pytest.importorskip("torch")
    from stratego.agents.nets import ConvPolicyNet
    from stratego.agents.torch_policy import TorchPolicy
    env = stratego.VecEnv(3, setup="agent", seed=0)
    obs, info = env.reset(seed=0)
    net = ConvPolicyNet(num_actions=env.num_actions, channels=8, blocks=1, deploy=True)
    logits, value = net(torch.from_numpy(obs))
    assert logits.shape == (3, 2800) and value.shape == (3,)
    actions = TorchPolicy(net)(obs, info["action_mask"])
    assert all(info["action_mask"][i, a] for i, a in enumerate(actions))


def test_batch_records_store_the_setup_the_deployment_reached():
    """VecEnv(record=True) with setup="agent": a record starts at the deployed setup, its
    actions are the moves, and it replays through Game (docs/recording.md)."""
    env = stratego.VecEnv(4, setup="agent", seed=2, record=True, max_plies=120)
    records = []
    while len(records) < 4:
        env.step(env.sample_actions())
        records.extend(env.pop_records())
    for record in records:
        assert "A" * 40 not in record.field[:40] and all(a < BASE for a in record.actions)
        assert side_letters(record.field, 0) == list(env.variant.piece_counts)
        game = stratego.Game.from_record(record)
        assert game.done and game.end_reason == record.reason


def _step_outputs(env, result) -> tuple:
    """Copies of what a reset or step handed out (obs, rewards, flags, info's arrays)."""
    obs, *rest = result
    info = rest[-1]
    kept = [np.array(obs)] + [np.array(x) for x in rest[:-1]]
    kept += [np.array(info[k]) for k in ("action_mask", "to_play", "rewards", "acted", "deploying")]
    return tuple(kept)


def _same_records(a, b) -> None:
    assert len(a) == len(b)
    for name in ("game", "fields", "to_move", "winner", "reason", "plies", "count", "offsets", "actions"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)


@pytest.mark.parametrize("setup, opponent", [
    ("agent", None), (("agent", "human"), None), (("random", "agent"), None), ("agent", "random"),
])
def test_saves_at_every_deployment_step_load_and_continue_identically(setup, opponent):
    """A recording env saved at any step of the deployment (issue 26: "game 0 is
    corrupt") loads into an identical env, which then plays, hands out and records
    exactly what the saved one does."""
    kwargs = dict(variant="barrage", setup=setup, record=True, opponent=opponent, illegal_action="lose",
                  max_plies=60)
    env = stratego.VecEnv(6, **kwargs)
    other = stratego.VecEnv(6, **kwargs)
    info = env.reset(seed=11)[1]
    rng = np.random.default_rng(3)
    saves = 0
    for _ in range(30):  # barrage: 8 placements a side, then moves
        env.pop_records()
        saves += bool(info["deploying"].any())
        blob = env.save_state()
        other.load_state(blob)
        for _ in range(3):
            actions = env.sample_actions().copy()
            np.testing.assert_array_equal(other.sample_actions(), actions)
            # Now and then an illegal action: a forfeit, during the deployment too.
            actions[rng.random(6) < 0.1] = 0
            np.testing.assert_equal(_step_outputs(env, env.step(actions)), _step_outputs(other, other.step(actions)))
            _same_records(env.pop_records(), other.pop_records())
        assert other.save_state() == env.save_state()
        env.load_state(blob)  # on from the save: the next save is one step later
        info = env.step(env.sample_actions())[4]
    assert saves >= 8


@pytest.mark.parametrize("setup, opponent", [("agent", None), (("random", "agent"), None), ("agent", "heuristic")])
def test_every_record_of_games_forfeited_while_deploying_replays_to_its_result(setup, opponent):
    """A game lost by an illegal action during its deployment is recorded from the position
    the deployment reached (not from the empty board, issue 26), so that every record of
    the batch replays through Game to its recorded result."""
    env = stratego.VecEnv(32, "barrage", setup=setup, opponent=opponent, record=True, illegal_action="lose",
                          seed=4, max_plies=40)
    rng = np.random.default_rng(0)
    in_deployment = 0
    for _ in range(60):
        actions = env.sample_actions().copy()
        actions[rng.random(32) < 0.05] = 0  # a move: illegal while deploying
        env.step(actions)
        records = env.pop_records()
        for j, record in enumerate(records):
            game = records.replay(j)  # checks every action and the result
            assert game.done and (game.winner, game.end_reason) == records.result(j)
            if sum(side_letters(record.field, 0)) + sum(side_letters(record.field, 1)) < 16:
                in_deployment += 1
                assert record.reason == "illegal_action" and record.actions == ()
    assert in_deployment >= 5


@pytest.mark.parametrize("ending", ["forfeit", "resign", "agree_draw", "lose_on_time"])
def test_a_game_ended_while_deploying_records_the_position_it_reached(ending):
    game = stratego.Game("barrage", seed=1, setup="agent")
    rng = np.random.default_rng(1)
    for _ in range(5):
        game.play(int(rng.choice(game.legal_actions())))
    reached, to_move, hands = game.field, game.to_move, (game.hand(0), game.hand(1))
    if ending == "forfeit":
        assert not game._play_or_forfeit(0)
    else:
        getattr(game, ending)()
    record = game.record()
    assert (record.field, record.to_move, record.actions) == (reached, to_move, ())
    again = stratego.Game.from_record(record)
    assert (again.winner, again.end_reason) == (game.winner, game.end_reason)
    # The start of the record is that deployment position, pieces in hand.
    start = stratego.Game.from_field(reached, to_move, game.variant)
    assert start.deploying and (start.to_move, start.hand(0), start.hand(1)) == (to_move, *hands)


@pytest.mark.parametrize("variant", ["classic", "barrage"])
def test_from_field_refuses_a_deployment_no_alternation_reaches(variant):
    """Placements alternate, red first: a field read as a deployment position (a side
    short of pieces under the deploy rule) is one only if its counts and side to move
    are a deployment's; with the other side to move, or a side ahead by more, no game
    reaches it."""
    game = stratego.Game(variant, seed=2, setup="agent")
    rng = np.random.default_rng(2)
    for placed in range(7):
        field, to_move = game.field, game.to_move
        start = stratego.Game.from_field(field, to_move, game.variant)
        assert start.deploying and start.to_move == to_move
        with pytest.raises(ValueError, match="placements alternate, red first"):
            stratego.Game.from_field(field, 1 - to_move, game.variant)
        game.play(int(rng.choice(game.legal_actions())))
    # Red two pieces ahead: neither side's turn in any deployment.
    red_only = "".join(c if "B" <= c <= "M" else ("_" if c == "_" else "A") for c in game.field)
    assert 2 <= sum("B" <= c <= "M" for c in red_only)
    for to_move in (0, 1):
        with pytest.raises(ValueError, match=r"got \d+ red and 0 blue pieces placed"):
            stratego.Game.from_field(red_only, to_move, game.variant)


def test_a_recording_save_from_before_the_fix_loads_during_the_deployment():
    """Saves written before a placement began the record again held the deploying games'
    records at their start (the empty half): the game's record is rebuilt from the game
    on load, so those saves load and continue as a fresh save does."""
    kwargs = dict(variant="barrage", setup="agent", record=True, max_plies=60)
    env = stratego.VecEnv(1, seed=5, **kwargs)
    start = env.game_field(0)
    for _ in range(5):
        env.step(env.sample_actions())
    blob = env.save_state()
    reached = env.game_field(0).encode()
    assert blob.count(reached) == 1  # the record's start field
    old = blob.replace(reached, start.encode())
    other = stratego.VecEnv(1, **kwargs)
    other.load_state(old)
    assert other.save_state() == blob
