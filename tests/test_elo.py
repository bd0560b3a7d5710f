"""The Elo fit (stratego.agents.elo): closed forms for two players, known ratings recovered from
synthetic results, interval coverage, and clear errors."""
from __future__ import annotations

import math

import numpy as np
import pytest

from stratego.agents.elo import ELO_PER_LOGIT, Z95, fit_elo


def synthetic_results(ratings: dict[str, float], games: int, rng: np.random.Generator):
    """Results of `games` games per pair under the Bradley-Terry model with draws as half
    a win: a draw takes half of each side's share, so the expected score stays P(win)."""
    names = list(ratings)
    p = len(names)
    wins = np.zeros((p, p))
    draws = np.zeros((p, p))
    for i in range(p):
        for j in range(i + 1, p):
            expected = 1.0 / (1.0 + 10 ** ((ratings[names[j]] - ratings[names[i]]) / 400))
            draw = 0.5 * min(expected, 1 - expected)
            w, d, l = rng.multinomial(games, [expected - draw / 2, draw, 1 - expected - draw / 2])
            wins[i, j], wins[j, i], draws[i, j], draws[j, i] = w, l, d, d
    return names, wins, draws


def test_two_players_match_the_closed_form():
    # Without the prior, the maximum likelihood difference is 400 log10(s / (n - s)), and
    # the interval 1.96 / sqrt(n p (1 - p)) in logits.
    wins = np.array([[0, 30], [10, 0]])
    draws = np.array([[0, 20], [20, 0]])
    fit = fit_elo(["a", "b"], wins, draws, anchor="b", prior_draws=0.0)
    s, n = 30 + 10, 60
    assert fit.ratings[1] == 0.0 and fit.half_widths[1] == 0.0
    assert fit.ratings[0] == pytest.approx(400 * math.log10(s / (n - s)), abs=1e-6)
    p = s / n
    assert fit.half_widths[0] == pytest.approx(Z95 * ELO_PER_LOGIT / math.sqrt(n * p * (1 - p)), rel=1e-6)
    lo, hi = fit.interval("a")
    assert lo < fit.ratings[0] < hi


def test_even_results_give_equal_ratings():
    wins = np.full((3, 3), 7.0)
    np.fill_diagonal(wins, 0)
    draws = np.full((3, 3), 4.0)
    np.fill_diagonal(draws, 0)
    fit = fit_elo(["x", "y", "z"], wins, draws)
    np.testing.assert_allclose(fit.ratings, 0.0, atol=1e-9)
    assert fit.half_widths[1] == pytest.approx(fit.half_widths[2])


def test_recovers_known_ratings():
    truth = {"random": 0.0, "weak": 150.0, "mid": -200.0, "strong": 400.0, "best": 650.0}
    names, wins, draws = synthetic_results(truth, 4000, np.random.default_rng(7))
    fit = fit_elo(names, wins, draws, anchor="random")
    for name, rating in zip(fit.names, fit.ratings):
        assert abs(rating - truth[name]) < 30, (name, rating, truth[name])
    # Order kept, and the intervals are a few tens of points with 4,000 games a pair.
    assert list(np.argsort(fit.ratings)) == [2, 0, 1, 3, 4]
    assert (fit.half_widths[1:] > 5).all() and (fit.half_widths[1:] < 60).all()


def test_intervals_cover_the_truth_about_95_percent():
    truth = {"a": 0.0, "b": 100.0, "c": -150.0, "d": 300.0}
    rng = np.random.default_rng(11)
    covered = trials = 0
    for _ in range(60):
        names, wins, draws = synthetic_results(truth, 300, rng)
        fit = fit_elo(names, wins, draws, anchor="a")
        for name in names[1:]:
            lo, hi = fit.interval(name)
            covered += lo <= truth[name] <= hi
            trials += 1
    assert 0.88 <= covered / trials <= 0.995, covered / trials


def test_a_clean_sweep_gets_a_finite_rating_thanks_to_the_prior():
    wins = np.array([[0, 0], [500, 0]])
    draws = np.zeros((2, 2))
    fit = fit_elo(["random", "bot"], wins, draws, anchor="random")
    # One virtual draw: a score of 500.5 / 501.
    assert fit.ratings[1] == pytest.approx(400 * math.log10(500.5 / 0.5), rel=1e-6)
    with pytest.raises(RuntimeError, match="prior_draws=0"):
        fit_elo(["random", "bot"], wins, draws, anchor="random", prior_draws=0.0)


@pytest.mark.parametrize("names, wins, draws, anchor, message", [
    (["a"], [[0]], [[0]], None, "at least 2 players"),
    (["a", "a"], np.zeros((2, 2)), np.zeros((2, 2)), None, "distinct"),
    (["a", "b"], np.zeros((3, 3)), np.zeros((2, 2)), None, r"wins must have shape \(2, 2\)"),
    (["a", "b"], [[0, -1], [1, 0]], np.zeros((2, 2)), None, "wins must be finite and >= 0"),
    (["a", "b"], [[0, 1], [1, 0]], [[0, 1], [2, 0]], None, "symmetric"),
    (["a", "b"], [[0, 1], [1, 0]], np.zeros((2, 2)), "c", "anchor 'c'"),
    (["a", "b", "c"], [[0, 1, 0], [1, 0, 0], [0, 0, 0]], np.zeros((3, 3)), "a", r"no games connect \['c'\]"),
])
def test_bad_input_is_named(names, wins, draws, anchor, message):
    with pytest.raises(ValueError, match=message):
        fit_elo(names, np.asarray(wins), np.asarray(draws), anchor=anchor)
