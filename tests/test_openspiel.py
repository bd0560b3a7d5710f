"""stratego.integrations.openspiel: the game registered with OpenSpiel (needs the openspiel extra:
heavy). OpenSpiel's own random-simulation checks, the sampler as
resample_from_infostate, and OpenSpiel's Python ISMCTS playing with it."""
from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.heavy

pyspiel = pytest.importorskip("pyspiel")

import stratego.integrations.openspiel as sos  # noqa: E402
from open_spiel.python.algorithms import ismcts  # noqa: E402


@pytest.mark.parametrize("variant", ["classic", "barrage", "ultimate-lightning", "isf"])
def test_openspiel_random_simulation_checks(variant: str) -> None:
    game = pyspiel.load_game(sos.SHORT_NAME, {"variant": variant, "max_plies": 150})
    v = sos.load_variant(variant)
    chance_nodes = 2 * 10 * v.settings["setup_rows"]
    assert game.max_game_length() == chance_nodes + 150 * (2 if v.settings["rescue"] else 1)
    assert game.num_distinct_actions() == sos.load_variant(variant).num_actions
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_a_variant_without_a_cap_needs_max_plies() -> None:
    with pytest.raises(Exception, match="no ply cap"):
        pyspiel.load_game(sos.SHORT_NAME, {"variant": "gravon"})


def set_up(state, rng: np.random.RandomState):
    """Plays the setups' chance nodes, each outcome drawn by its probability."""
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    return state


def play(game, actions: int, seed: int):
    rng = np.random.RandomState(seed)
    state = set_up(game.new_initial_state(), rng)
    for _ in range(actions):
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("variant", ["classic", "barrage"])
def test_a_players_information_state_does_not_show_the_opponents_setup(variant: str) -> None:
    # Two chance sequences with red's placements the same and blue's different (two of
    # blue's squares swapped): red cannot tell them apart, blue can, and each side's
    # placements make exactly its setup on the board.
    game = pyspiel.load_game(sos.SHORT_NAME, {"variant": variant, "max_plies": 100})
    a = set_up(game.new_initial_state(), np.random.RandomState(5))
    outcomes = a.history()
    zone = len(sos.setup_zone(game.variant, 0))
    blue = outcomes[zone:]
    i = next(i for i in range(len(blue)) if blue[i] != sos.EMPTY)
    j = next(j for j in range(len(blue)) if blue[j] not in (sos.EMPTY, blue[i]))
    swapped = list(blue)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    b = game.new_initial_state()
    for outcome in outcomes[:zone] + swapped:
        b.apply_action(outcome)
    assert a.engine.field != b.engine.field
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_tensor(0) == b.information_state_tensor(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    # During the setups too: red's information state holds its own placements only.
    c, d = game.new_initial_state(), game.new_initial_state()
    for outcome in outcomes[:zone + i + 1]:
        c.apply_action(outcome)
    for outcome in outcomes[:zone] + swapped[:i + 1]:
        d.apply_action(outcome)
    assert c.information_state_string(0) == d.information_state_string(0)
    assert c.information_state_string(1) != d.information_state_string(1)


def test_the_setups_are_drawn_uniformly_square_by_square() -> None:
    # Each square's outcome has the chance (pieces of it left) / (squares left): after
    # red's first 39 squares the last one must hold what is left, with chance 1.
    game = pyspiel.load_game(sos.SHORT_NAME, {"max_plies": 100})
    state = game.new_initial_state()
    first = state.chance_outcomes()
    counts = (0,) + tuple(game.variant.piece_counts)  # no empty square in classic's 40
    assert first == [(o, c / 40) for o, c in enumerate(counts) if c]
    rng = np.random.RandomState(1)
    for _ in range(39):
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    [(last, prob)] = state.chance_outcomes()
    assert prob == 1.0
    with pytest.raises(Exception, match="not possible"):
        state.apply_action((last % 12) + 1)
    state.apply_action(last)
    assert sorted(state.history()) == sorted(o for o, c in enumerate(counts) for _ in range(c))


def test_max_game_length_counts_rescues() -> None:
    # A rescue or its decline is an action but not a ply: a game under the rescue rule
    # has up to twice its ply cap of actions. Random ultimate-lightning games to the cap
    # of 150 plies rescue; the longest must still fit max_game_length.
    game = pyspiel.load_game(sos.SHORT_NAME, {"variant": "ultimate-lightning", "max_plies": 150})
    chance_nodes = 80
    longest = 0
    for seed in range(60):
        rng = np.random.RandomState(seed)
        state = set_up(game.new_initial_state(), rng)
        while not state.is_terminal():
            state.apply_action(int(rng.choice(state.legal_actions())))
        longest = max(longest, len(state.history()) - chance_nodes)
        assert len(state.history()) <= game.max_game_length()
    assert longest > 150  # some game had more actions than plies


def test_resampled_states_look_the_same_to_the_player() -> None:
    game = pyspiel.load_game(sos.SHORT_NAME, {"max_plies": 400})
    state = play(game, 80, seed=3)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differ = 0
    for _ in range(10):
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.observation_tensor(player) == state.observation_tensor(player)
        assert world.legal_actions() == state.legal_actions()
        # The player's own placements and the actions as they were; the opponent's
        # placements are the world's (its setup on the board), not the true ones.
        own = slice(0, 40) if player == 0 else slice(40, 80)
        assert world.history()[own] == state.history()[own] and world.history()[80:] == state.history()[80:]
        assert world.engine.start_field == world._field()
        differ += str(world) != str(state)  # the full boards: hidden types resampled
        world.apply_action(world.legal_actions()[0])  # the world plays on
    assert differ > 0


def test_ismcts_plays_with_the_sampler(monkeypatch) -> None:
    calls = []
    resample = sos.StrategoState.resample_from_infostate

    def counted(self, player, sampler):
        calls.append(player)
        return resample(self, player, sampler)

    monkeypatch.setattr(sos.StrategoState, "resample_from_infostate", counted)
    game = pyspiel.load_game(sos.SHORT_NAME, {"variant": "barrage", "max_plies": 60})
    bots = [ismcts.ISMCTSBot(game, sos.StrategoEvaluator(plies=8), uct_c=2.0, max_simulations=20,
                             random_state=np.random.RandomState(seed)) for seed in (0, 1)]
    # OpenSpiel's evaluate_bots needs restart_at, which its ISMCTSBot lacks: the loop here.
    state, sampled = set_up(game.new_initial_state(), np.random.RandomState(7)), 0
    while not state.is_terminal():
        player = state.current_player()
        action = bots[player].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        sampled += 1
    assert sampled <= 60 and state.returns()[0] == -state.returns()[1]
    assert len(calls) >= 20 * sampled  # a world a simulation: ISMCTS searched on the sampler's worlds


def test_resampling_under_silent_defense_agrees_with_the_fights() -> None:
    # The sampler ignores silent defense's fight outcomes; resample_from_infostate draws
    # again until the replayed world looks the same to the player.
    game = pyspiel.load_game(sos.SHORT_NAME, {"variant": "seed-tournament", "max_plies": 400})
    state = play(game, 200, seed=1)
    assert not state.is_terminal() and state.engine.captured(0)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(3):
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.history()[80:] == state.history()[80:]
