"""The arena (stratego.agents.arena, `stratego arena`) with bots and NumPy policies: the first
game of each slot counted, both colours, lockstep envs for other observations,
determinism, clear errors. Policy files are in test_policy_file.py (they need torch)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import stratego
from stratego.agents.arena import _derive_seed, run_arena
from stratego.cli import main
from stratego.agents.policy import ObservationSettings, checked_actions, observes

PLAYERS = str(Path(__file__).with_name("arena_players.py"))


def player(name: str) -> str:
    return f"{PLAYERS}:{name}"


def first_games(num_envs: int, seed: int, max_plies: int):
    """The first game of every slot of a random-vs-random VecEnv, stepped by hand."""
    env = stratego.VecEnv(num_envs, "classic", observations=False, max_plies=max_plies)
    env.reset(seed=seed)
    winner = np.full(num_envs, -2)
    plies = np.zeros(num_envs, dtype=np.int64)
    while (winner == -2).any():
        env.step(env.sample_actions())
        new = (env.terminated | env.truncated) & (winner == -2)
        winner[new] = env.final_winner[new]
        plies[new] = env.final_plies[new]
    return winner, plies


def test_counts_exactly_the_first_game_of_each_slot():
    # Two random bots play the same games as a plain env stepped with sample_actions.
    result = run_arena(["random", ("random-2", "random")], games=40, seed=5, max_plies=300)
    assert result.names == ("random", "random-2")
    assert len(result.winner) == 80
    winner, plies = first_games(80, _derive_seed(5, 0, 0), 300)
    np.testing.assert_array_equal(result.winner, winner)
    np.testing.assert_array_equal(result.plies, plies)
    # Both colours, `games` each.
    assert ((result.red == 0) & (result.blue == 1)).sum() == 40
    assert ((result.red == 1) & (result.blue == 0)).sum() == 40
    w, d, l = result.record("random")
    assert w + d + l == 80 and (w, l) == result.record("random-2")[::2][::-1]


def test_round_robin_records_and_scores_add_up():
    players = ["random", player("first_legal"), player("last_legal")]
    result = run_arena(players, games=10, seed=1, max_plies=200)
    wins, draws = result.results()
    assert wins.trace() == 0 and (draws == draws.T).all()
    for i, name in enumerate(result.names):
        w, d, l = result.record(name)
        assert w + d + l == 2 * 10 * 2
        assert result.score(name) == pytest.approx((w + d / 2) / 40)
        for j, other in enumerate(result.names):
            if i != j:
                assert wins[i, j] + wins[j, i] + draws[i, j] == 20
                assert result.score(name, other) + result.score(other, name) == pytest.approx(1.0)
    assert result.elo.anchor == "random" and result.elo.ratings[0] == 0.0
    table = result.table()
    assert "random" in table and "anchor" in table and "score of the row against the column" in table


def test_policies_with_other_observations_play_the_same_games():
    # first_legal_float takes float32 observations without history, from a second env in
    # lockstep; it moves exactly like first_legal, so the games must be the same.
    a = run_arena(["random", player("first_legal")], games=12, seed=3, max_plies=200)
    b = run_arena(["random", player("first_legal_float")], games=12, seed=3, max_plies=200)
    np.testing.assert_array_equal(a.winner, b.winner)
    np.testing.assert_array_equal(a.plies, b.plies)
    c = run_arena([player("first_legal"), player("first_legal_float")], games=6, seed=3, max_plies=200)
    assert len(c.winner) == 12


def test_a_policy_sees_only_its_own_games_in_its_own_view():
    seen = []

    @observes(history_k=2)
    def checking(obs, mask):
        assert obs.shape[1:] == (len(stratego.channel_names(2)), 10, 10) and obs.dtype == np.uint8
        assert mask.dtype == np.bool_ and mask.shape == (len(obs), 1800) and mask.any(axis=1).all()
        # Every legal move starts on one of the observer's own pieces (planes 0-11), in
        # the observer's frame: the view is the mover's.
        rows, actions = np.nonzero(mask)
        frm = actions // 18
        assert obs[rows, :12, frm // 10, frm % 10].any(axis=1).all()
        seen.append(len(obs))
        return mask.argmax(axis=1)

    result = run_arena(["random", ("checking", checking)], games=8, seed=2, max_plies=100)
    # One call per step at most, never with more rows than games where it plays.
    assert seen and max(seen) <= 16 and sum(seen) <= result.plies.sum()


def test_same_seed_same_results_on_any_thread_count():
    kwargs = dict(games=300, seed=9, max_plies=120)
    one = run_arena(["random", player("first_legal")], num_threads=1, **kwargs)
    two = run_arena(["random", player("first_legal")], num_threads=2, **kwargs)
    np.testing.assert_array_equal(one.winner, two.winner)
    np.testing.assert_array_equal(one.plies, two.plies)
    other = run_arena(["random", player("first_legal")], num_threads=1, games=300, seed=10, max_plies=120)
    assert not np.array_equal(one.plies, other.plies)


def test_batches_split_the_games():
    result = run_arena(["random", ("r2", "random"), player("first_legal")], games=5, seed=4, batch_size=7,
                       max_plies=80)
    assert len(result.winner) == 30 and (result.plies > 0).all()


def test_a_variant_without_a_ply_cap_gets_one():
    result = run_arena(["random", ("r2", "random")], games=2, variant="gravon", seed=0)
    assert result.max_plies == 2000 and result.notes and "capped at 2000" in result.notes[0]
    assert (result.plies <= 2000).all()


def test_json_and_cli(tmp_path, capsys):
    out = tmp_path / "arena.json"
    rc = main(["arena", "random", player("first_legal"), "--games", "6", "--seed", "2", "--max-plies", "150",
               "--json", str(out), "--no-progress"])
    assert rc == 0
    printed = capsys.readouterr().out
    assert "Elo" in printed and "95% interval" in printed
    data = json.loads(out.read_text())
    assert data["format"] == "stratego-arena" and data["games_per_pairing_and_colour"] == 6
    by_name = {p["name"]: p for p in data["players"]}
    assert by_name["random"]["elo"] == 0.0 and by_name["random"]["games"] == 12
    assert sum(p["games"] for p in data["pairings"]) == 12
    for pairing in data["pairings"]:
        assert pairing["red_wins"] + pairing["blue_wins"] + pairing["draws"] == 6
        assert sum(pairing["end_reasons"].values()) == 6
    # The same run in Python gives the same table.
    again = run_arena(["random", player("first_legal")], games=6, seed=2, max_plies=150)
    assert again.to_dict()["players"] == data["players"]


def test_cli_plays_with_agent_deployment(tmp_path, capsys):
    # --setup agent: the bots deploy their own pieces (at random) before the first move.
    out = tmp_path / "arena.json"
    rc = main(["arena", "random", "heuristic", "--games", "4", "--seed", "3", "--max-plies", "200",
               "--setup", "agent", "--json", str(out), "--no-progress"])
    assert rc == 0
    data = json.loads(out.read_text())
    assert data["setup"] == "agent" and sum(p["games"] for p in data["pairings"]) == 8
    again = run_arena(["random", "heuristic"], games=4, seed=3, max_plies=200, setup="agent")
    assert again.to_dict()["players"] == data["players"]


@pytest.mark.parametrize("players, kwargs, message", [
    (["random"], {}, "at least 2 players"),
    (["random", "random"], {}, "once"),
    (["random", "nobody"], {}, "unknown player 'nobody'"),
    (["random", "no_such_module_xyz:f"], {}, "cannot import module"),
    (["random", f"{PLAYERS}:missing"], {}, "has no attribute"),
    (["random", "stratego.agents.policy:ObservationSettings"], {}, "names a class; it must name a policy"),
    (["random", f"{PLAYERS}:np"], {}, "names a module; it must name a policy"),
    (["random", "missing_file.py:f"], {}, "does not exist"),
    (["random", ("x", "random")], {"games": 0}, "games must be a positive int"),
    (["random", ("x", "random")], {"setup": "mirror"}, "setup must be"),
    (["random", ("x", "random")], {"num_threads": -1}, "num_threads must be an int >= 0"),
    (["random", ("x", "random")], {"max_plies": 0}, "max_plies must be >= 1"),
])
def test_bad_arguments_are_named(players, kwargs, message):
    with pytest.raises(ValueError, match=message):
        run_arena(players, **{"games": 2, "seed": 0, **kwargs})


@pytest.mark.parametrize("name, message", [
    ("always_zero", r"player '.*always_zero' returned action 0 for game \d+, which is illegal"),
    ("one_short", r"returned actions of shape \(\d+,\) for a batch of \d+"),
    ("floats", "dtype float64; expected integers"),
])
def test_a_policy_that_answers_wrongly_is_named(name, message):
    with pytest.raises(ValueError, match=message):
        run_arena(["random", player(name)], games=3, seed=0, max_plies=50)


def test_cli_reports_bad_players(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["arena", "random", "nobody", "--no-progress"])
    assert exc.value.code == 2
    assert "unknown player 'nobody'" in capsys.readouterr().err


def test_checked_actions_ranges_and_games():
    mask = np.zeros((3, 5), dtype=bool)
    mask[:, 2] = True
    np.testing.assert_array_equal(checked_actions([2, 2, 2], mask), [2, 2, 2])
    with pytest.raises(ValueError, match=r"action 7 for game 12: actions are in \[0, 5\)"):
        checked_actions([2, 7, 2], mask, games=np.array([11, 12, 13]))
    with pytest.raises(ValueError, match="dtype bool"):
        checked_actions(np.ones(3, bool), mask)


def test_observation_settings_are_checked():
    with pytest.raises(ValueError, match="belief planes"):
        ObservationSettings(belief=True)
    with pytest.raises(ValueError, match="history_k"):
        ObservationSettings(history_k=99)
    settings = ObservationSettings(2, True, "float32")
    env = stratego.VecEnv(2, "classic", seed=0, **settings.env_kwargs())
    assert env.observation_channels == settings.channels


def test_actions_and_observations_share_the_square_numbering():
    # The layout a convolutional policy head relies on: the from-square of action
    # from * 18 + k is obs[:, row, col] with from = row * 10 + col, for both players.
    env = stratego.VecEnv(16, "classic", seed=3)
    for _ in range(40):
        rows, actions = np.nonzero(env.action_mask)
        frm = actions // 18
        assert env.obs[rows, :12, frm // 10, frm % 10].any(axis=1).all()
        assert set(env.to_play.tolist()) <= {0, 1}
        env.step(env.sample_actions())


def test_progress_without_tqdm_falls_back_to_plain_lines(monkeypatch, capsys):
    # The arena runs with the core install, where tqdm (the train extra) may be missing:
    # on a terminal it shows plain lines (no carriage-return frames).
    import stratego.bench
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setattr(stratego.bench, "stderr_is_terminal", lambda: True)
    run_arena(["random", ("r2", "random")], games=3, seed=0, max_plies=40, progress=True)
    err = capsys.readouterr().err
    assert "arena" in err and "100.0%" in err and "games/s" in err and "\r" not in err


def test_progress_is_silent_when_stderr_is_no_terminal(capsys):
    run_arena(["random", ("r2", "random")], games=3, seed=0, max_plies=40, progress=True)
    assert capsys.readouterr().err == ""


def test_the_heuristic_bot_plays_and_beats_random():
    result = run_arena(["random", "heuristic", player("first_legal")], games=20, seed=6)
    assert result.record("heuristic")[0] + sum(result.record("heuristic")[1:]) == 80
    assert result.score("heuristic", "random") > 0.8
    assert result.elo.ratings[1] > result.elo.ratings[0] == 0.0
    # The bot's own random choices come from each game's stream: the same seed, the same games.
    again = run_arena(["random", "heuristic", player("first_legal")], games=20, seed=6)
    np.testing.assert_array_equal(result.plies, again.plies)


@pytest.mark.parametrize("option, value", [("--games", "0"), ("--threads", "-1"), ("--max-plies", "0"),
                                           ("--batch-size", "nan")])
def test_cli_refuses_numeric_options_out_of_range(option, value, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["arena", "random", "heuristic", option, value, "--no-progress"])
    assert exc.value.code == 2 and option in capsys.readouterr().err
