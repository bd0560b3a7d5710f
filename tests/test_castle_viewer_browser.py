"""The castle game's page in a real browser (Debian's headless Chromium through
Playwright, as test_viewer_browser.py): stepping through every decision, the board in the
DOM (each node's token, the piece a person sees) is the engine's text board of the view
shown, in the full view and in seats' views, turned boards included; nothing is fetched
and no script error occurs. Screenshots are saved in tmp_path.

Heavy: needs the browser extra (playwright) and a Chromium (skips without, fails in CI)."""
from __future__ import annotations

import random

import pytest

from stratego.castle import Game
from stratego.castle import notation as castle_notation
from stratego.castle import viewer as V
from test_viewer_browser import browser, open_page  # noqa: F401  (the fixture)

# The deep layer (docs/testing.md): Chromium through every seat's view, run in .ci/run.
pytestmark = [pytest.mark.heavy, pytest.mark.deep]
COLUMNS = "ABCDEFGHIJKLMNO"


def engine_nodes(game: Game, seat: int | None) -> dict[str, str]:
    parts = castle_notation.parse_text(game.to_text(seat))
    nodes = {"ring": parts["ring"], "turret": parts["turret"]}
    for r, row in enumerate(parts["grid"]):
        for c, token in enumerate(row):
            if token not in ("-", "~", "O", "T"):
                nodes[f"{COLUMNS[c]}{r + 1}"] = token
    return nodes


def dom_nodes(page) -> dict[str, str]:
    return dict(page.eval_on_selector_all("#board .cell[data-node]", "els => els.map(e => [e.dataset.node, e.dataset.token])"))


def dom_shown(page) -> dict[str, str]:
    """The rank (or "?") each space's piece shows a person, from the DOM's text."""
    rows = page.eval_on_selector_all("#board .cell[data-node]", """els => els.map(e => {
        const p = e.querySelector('.piece');
        return [e.dataset.node, p ? p.firstChild.textContent : ''];
    })""")
    return {node: shown for node, shown in rows if node not in ("ring", "turret") or shown}


def _game(mode: str, seed: int) -> Game:
    game = Game(mode, seed=seed)
    rng = random.Random(seed)
    while not game.done and game.ply < 150:
        game.play(game.bot_move() if game.to_play == 1 else rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("mode, views", [("ffa4", ("full", "e", "n")), ("ffa3", ("w",))])
def test_page_in_chromium(browser, tmp_path, mode, views):  # noqa: F811
    game = _game(mode, 4)
    path = tmp_path / f"{mode}.html"
    perspective = "full" if len(views) > 1 else views[0]
    path.write_text(V.viewer_html(game, perspective=perspective), encoding="utf-8")
    page, errors = open_page(browser, path)
    for view in views:
        seat = None if view == "full" else game.seat_letters.index(view)
        if len(views) > 1:
            page.keyboard.press(view.upper() if view != "full" else "F")
        assert page.evaluate("document.body.dataset.view") == view
        page.keyboard.press("Home")
        replay = V.start_of(game)
        for ply in range(len(game.history) + 1):
            assert page.evaluate("Number(document.body.dataset.ply)") == ply
            expected = engine_nodes(replay, seat)
            assert dom_nodes(page) == expected, (view, ply)
            shown = dom_shown(page)
            for node, token in expected.items():
                if node not in ("ring", "turret"):
                    assert shown[node] == ("" if token == "." else token[1]), (view, ply, node)
            if ply == 40:
                page.screenshot(path=str(tmp_path / f"{mode}-{view}-{ply}.png"), full_page=True)
            if ply < len(game.history):
                replay.play(game.history[ply])
                page.keyboard.press("ArrowRight")
        status = page.inner_text("#status")
        assert V.result_text(game) in status or "to " in status
    assert errors == []
