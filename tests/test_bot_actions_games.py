"""VecEnv.bot_actions(name, games=mask), both games: a bot asked for some games of a batch
plays exactly what it plays when asked for all, in those games; the others get -1 and
their sampler streams are not drawn on (so a game's moves depend on the bots asked for
it, which the arena relies on). A bad mask is refused before anything is drawn."""
from __future__ import annotations

import numpy as np
import pytest

import stratego
import stratego.castle

N = 12
GAMES = {
    "classic": (lambda **kw: stratego.VecEnv(N, "classic", seed=5, observations=False, **kw), ("random", "heuristic", "pimc")),
    "castle": (lambda **kw: stratego.castle.VecEnv(N, "ffa4", seed=5, obs_format=None, **kw), ("random", "heuristic")),
}
CASES = [(game, bot) for game, (_, bots) in GAMES.items() for bot in bots]


def _mask(seed: int) -> np.ndarray:
    mask = np.random.default_rng(seed).random(N) < 0.5
    mask[:2] = (True, False)  # both kinds, whatever the draw
    return mask


@pytest.mark.parametrize("game,bot", CASES)
def test_asked_games_get_the_bots_move_and_the_others_keep_their_streams(game, bot):
    make, _ = GAMES[game]
    full, part = make(), make()
    for step in range(6):
        mask = _mask(step)
        everywhere = full.bot_actions(bot).copy()
        asked = part.bot_actions(bot, games=mask).copy()
        assert np.array_equal(asked[mask], everywhere[mask])
        assert (asked[~mask] == -1).all()
        # The unasked games' streams did not move: asked now, they play what the env
        # asked everywhere played a call ago.
        again = part.bot_actions(bot, games=~mask).copy()
        assert np.array_equal(again[~mask], everywhere[~mask])
        # Both envs' streams stand level again; the same step for both.
        moves = full.sample_actions().copy()
        assert np.array_equal(part.sample_actions(), moves)
        full.step(moves)
        part.step(moves)
    full.close()
    part.close()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("bad,kind,message", [
    ([True] * N, TypeError, "games must be a numpy bool array of shape"),
    (np.ones(N, dtype=np.int8), TypeError, "games must be a numpy bool array of shape"),
    (np.ones(N + 1, dtype=bool), ValueError, rf"games must have shape \({N},\), got \({N + 1},\)"),
    (np.ones((N, 1), dtype=bool), ValueError, rf"games must have shape \({N},\)"),
])
def test_a_bad_games_mask_is_refused_and_draws_nothing(game, bad, kind, message):
    make, _ = GAMES[game]
    env, fresh = make(), make()
    with pytest.raises(kind, match=message):
        env.bot_actions("random", games=bad)
    # Refused: no stream moved.
    assert np.array_equal(env.bot_actions("random"), fresh.bot_actions("random"))
    env.close()
    fresh.close()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("bad,kind,message", [
    (np.ones(N, dtype=np.int8), TypeError, "games"),
    (np.ones(2 * N, dtype=bool)[::2], ValueError, "games"),  # strided
    (np.ones(N - 1, dtype=bool), ValueError, "games"),
    ([True] * N, TypeError, "games"),
])
def test_the_core_refuses_a_bad_mask_itself_and_draws_nothing(game, bad, kind, message):
    """The binding's own check, under the env's: C reads the mask with the GIL released,
    so it takes only a contiguous bool array of one entry a game."""
    make, _ = GAMES[game]
    env, fresh = make(), make()
    out = np.zeros(N, dtype=np.int64)
    with pytest.raises(kind, match=message):
        env._batch.bot_actions("random", out, bad)
    assert (out == 0).all()
    assert np.array_equal(env.bot_actions("random"), fresh.bot_actions("random"))
    env.close()
    fresh.close()


def test_a_read_only_or_strided_mask_is_copied():
    env, fresh = GAMES["classic"][0](), GAMES["classic"][0]()
    wide = np.zeros(2 * N, dtype=bool)
    wide[::4] = True
    mask = wide[::2]  # not contiguous; every other game
    mask.flags.writeable = False
    expected = fresh.bot_actions("heuristic").copy()
    asked = env.bot_actions("heuristic", games=mask)
    assert mask.any() and not mask.all()
    assert np.array_equal(asked[mask], expected[mask]) and (asked[~mask] == -1).all()
    env.close()
    fresh.close()
