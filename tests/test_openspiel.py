"""stratego.openspiel: the game registered with OpenSpiel (needs the openspiel extra:
heavy). OpenSpiel's own random-simulation checks, the sampler as
resample_from_infostate, and OpenSpiel's Python ISMCTS playing with it."""
from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.heavy

pyspiel = pytest.importorskip("pyspiel")

import stratego.openspiel as sos  # noqa: E402
from open_spiel.python.algorithms import ismcts  # noqa: E402


@pytest.mark.parametrize("variant", ["classic", "barrage", "ultimate-lightning", "isf"])
def test_openspiel_random_simulation_checks(variant: str) -> None:
    game = pyspiel.load_game(sos.SHORT_NAME, {"variant": variant, "max_plies": 150})
    assert game.max_game_length() == 151
    assert game.num_distinct_actions() == sos.load_variant(variant).num_actions
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_a_variant_without_a_cap_needs_max_plies() -> None:
    with pytest.raises(Exception, match="no ply cap"):
        pyspiel.load_game(sos.SHORT_NAME, {"variant": "gravon"})


def play(game, actions: int, seed: int):
    state = game.new_initial_state()
    state.apply_action(seed)
    rng = np.random.RandomState(seed)
    for _ in range(actions):
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


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
        assert world.history() == state.history()
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
    state, sampled = game.new_initial_state(), 0
    state.apply_action(7)  # the setups
    while not state.is_terminal():
        player = state.current_player()
        action = bots[player].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        sampled += 1
    assert sampled <= 60 and state.returns()[0] == -state.returns()[1]
    assert len(calls) >= 20 * sampled  # a world a simulation: ISMCTS searched on the sampler's worlds
