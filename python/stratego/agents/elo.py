"""Elo ratings from game results: a Bradley-Terry maximum-likelihood fit.

Model: P(i beats j) = 1 / (1 + 10 ** ((r_j - r_i) / 400)); a draw counts as half a win
and half a loss (the usual Elo convention, the one chess ratings use). The ratings
maximise the likelihood of the results plus a weak prior of `prior_draws` virtual draws
between every pair that played (BayesElo's device): without it a player that won every
game would get an infinite rating. One player, the anchor, is fixed at 0; the 95%
intervals come from the curvature of the log-likelihood at the optimum (the inverse
observed information), so they are relative to the anchor.

Written in NumPy rather than taken from a library: the rating libraries on PyPI either
need SciPy (choix), which would be a large new dependency of the core package for a
few lines of Newton's method, or compute online updates (elo, trueskill, openskill)
rather than a maximum-likelihood fit with intervals.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Elo points per natural-log unit of odds: 400 / ln(10).
ELO_PER_LOGIT = 400.0 / np.log(10.0)
Z95 = 1.959963984540054


@dataclass(frozen=True)
class EloFit:
    """Ratings (Elo points, the anchor at 0) and their 95% half-widths."""

    names: tuple[str, ...]
    ratings: np.ndarray
    half_widths: np.ndarray
    anchor: str
    iterations: int

    def interval(self, name: str) -> tuple[float, float]:
        i = self.names.index(name)
        return float(self.ratings[i] - self.half_widths[i]), float(self.ratings[i] + self.half_widths[i])


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * x))  # no overflow for large |x|


def _information(total: np.ndarray, prob: np.ndarray) -> np.ndarray:
    """The negative Hessian of the log-likelihood in logit units: a weighted graph
    Laplacian, positive definite once the anchor's row and column are removed from a
    connected set of results."""
    weight = total * prob * (1.0 - prob)
    return np.diag(weight.sum(axis=1)) - weight


def fit_elo(names: list[str] | tuple[str, ...], wins: np.ndarray, draws: np.ndarray, *, anchor: str | None = None,
            prior_draws: float = 1.0, tol: float = 1e-9, max_iter: int = 200) -> EloFit:
    """Fits ratings to `wins[i, j]` (games i won against j, any colour) and `draws[i, j]`
    (symmetric). The anchor (default the first name) is fixed at 0."""
    names = tuple(names)
    p = len(names)
    wins = np.asarray(wins, dtype=np.float64)
    draws = np.asarray(draws, dtype=np.float64)
    if p < 2:
        raise ValueError(f"a rating needs at least 2 players, got {p}")
    if len(set(names)) != p:
        raise ValueError(f"player names must be distinct, got {list(names)}")
    for label, m in (("wins", wins), ("draws", draws)):
        if m.shape != (p, p):
            raise ValueError(f"{label} must have shape ({p}, {p}), got {m.shape}")
        if not np.isfinite(m).all() or (m < 0).any():
            raise ValueError(f"{label} must be finite and >= 0")
    if not np.allclose(draws, draws.T):
        raise ValueError("draws must be symmetric (draws[i, j] == draws[j, i])")
    if not prior_draws >= 0:
        raise ValueError(f"prior_draws must be >= 0, got {prior_draws}")
    anchor = names[0] if anchor is None else anchor
    if anchor not in names:
        raise ValueError(f"anchor {anchor!r} is not one of the players {list(names)}")
    a = names.index(anchor)

    games = wins + wins.T + draws
    np.fill_diagonal(games, 0.0)
    played = games > 0
    # Score of i against j with draws as halves, and the prior's virtual draws.
    score = wins + 0.5 * draws + 0.5 * prior_draws * played
    total = games + prior_draws * played
    np.fill_diagonal(score, 0.0)
    free = np.array([i for i in range(p) if i != a])
    reached, frontier = {a}, [a]
    while frontier:
        i = frontier.pop()
        for j in np.flatnonzero(played[i]):
            if int(j) not in reached:
                reached.add(int(j))
                frontier.append(int(j))
    if len(reached) < p:
        cut = [names[i] for i in range(p) if i not in reached]
        raise ValueError(f"no games connect {cut} to {anchor!r}: their ratings are undefined")

    theta = np.zeros(p)
    iterations, largest = 0, np.inf
    for iterations in range(1, max_iter + 1):  # noqa: B007 (the count is reported after the loop)
        prob = _sigmoid(theta[:, None] - theta[None, :])
        grad = (score - total * prob).sum(axis=1)
        h = _information(total, prob)[np.ix_(free, free)]
        try:
            step = np.linalg.solve(h, grad[free])
        except np.linalg.LinAlgError:
            step = np.full(len(free), np.nan)
        if not np.isfinite(step).all():
            break  # the information vanished: ratings running off to infinity
        # Damped: far from the optimum (lopsided results) a full Newton step overshoots.
        largest = np.abs(step).max(initial=0.0)
        if largest > 2.0:
            step *= 2.0 / largest
        theta[free] += step
        if largest < tol:
            break
    if not largest < tol:
        raise RuntimeError(f"the Elo fit did not converge in {max_iter} iterations (with prior_draws=0 a "
                           "player who won or lost every game has no finite rating)")
    prob = _sigmoid(theta[:, None] - theta[None, :])
    cov = np.linalg.inv(_information(total, prob)[np.ix_(free, free)])
    half = np.zeros(p)
    half[free] = Z95 * np.sqrt(np.clip(np.diag(cov), 0.0, None)) * ELO_PER_LOGIT
    return EloFit(names, theta * ELO_PER_LOGIT, half, anchor, iterations)
