"""The page of `stratego view` in a real browser: Debian's headless Chromium, driven by
Playwright (pointed at /usr/bin/chromium: Playwright's own browser download is not
used). The test clicks through the moves, checks every square of the board in the DOM
against the engine's position at each ply, switches perspective and checks that no
hidden piece of the other side appears, and saves screenshots in its tmp_path.

Heavy: needs the browser extra (playwright) and a Chromium. Outside CI a missing
browser skips with the reason; in CI (CI=true) it fails.
"""
from __future__ import annotations

import os
import shutil

import pytest

import stratego
from stratego.cli import main
from stratego.notation import square_name
from stratego.viewing.viewer import game_frames, load_game, result_text, viewer_html

from conftest import GRAVON_DIR, needs_gravon

pytestmark = pytest.mark.heavy

CHROMIUM = next((p for p in ("/usr/bin/chromium", shutil.which("chromium") or "",
                             shutil.which("chromium-browser") or "") if p and os.path.exists(p)), None)


@pytest.fixture(scope="module")
def browser():
    in_ci = os.environ.get("CI") == "true"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if in_ci:
            pytest.fail("CI: playwright is not installed (pip install -e '.[browser]')")
        pytest.skip("playwright is not installed (pip install -e '.[browser]')")
    if CHROMIUM is None:
        if in_ci:
            pytest.fail("CI: no chromium installed (apt-get install -y chromium)")
        pytest.skip("no chromium installed (apt-get install -y chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def open_page(browser, path):
    page = browser.new_page(viewport={"width": 1000, "height": 720})
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    # Nothing may be fetched: every request but the page itself fails the test.
    page.route("**/*", lambda route: route.continue_() if route.request.url == path.as_uri()
               else (errors.append(f"request {route.request.url}"), route.abort()))
    page.goto(path.as_uri())
    return page, errors


def dom_board(page) -> dict[str, str]:
    pairs = page.eval_on_selector_all("#board .sq", "els => els.map(e => [e.dataset.square, e.dataset.token])")
    return dict(pairs)


def engine_board(game: stratego.Game, perspective) -> dict[str, str]:
    return {square_name(sq): t for sq, t in enumerate(game._tokens(perspective))}


def dom_visible(page) -> dict[str, tuple | None]:
    """What each square shows a person: its piece's text, colour and whether it is drawn
    as moved (None for an empty square or a lake), read from the DOM, not its data."""
    rows = page.eval_on_selector_all("#board .sq", """els => els.map(e => {
        const p = e.querySelector('.piece');
        return [e.dataset.square, p ? [p.textContent, p.classList.contains('r') ? 'r' :
                p.classList.contains('b') ? 'b' : '', p.classList.contains('moved')] : null];
    })""")
    return {square: None if shown is None else tuple(shown) for square, shown in rows}


def visible(token: str) -> tuple | None:
    """What a square of `token` (render.board_tokens) must show: an unidentified piece
    "?" (marked moved for "?m"), any other piece its rank, in its owner's colour."""
    if token in (".", "~~"):
        return None
    rest = token[1:]
    return ("?" if rest == "?m" else rest, token[0], rest == "?m")


def current_ply(page) -> int:
    return int(page.eval_on_selector("body", "b => b.dataset.ply"))


def heuristic_game(seed: int = 12, plies: int = 70) -> stratego.Game:
    """A game of the heuristic bot against itself, which the player to move resigns
    after `plies` plies."""
    game = stratego.Game(seed=seed)
    while not game.done and game.ply < plies:
        game.play(game.bot_move("heuristic"))
    assert not game.done, "the game ended early: choose another seed"
    game.resign()
    return game


def check_every_ply(page, game: stratego.Game, perspective) -> None:
    """Clicks from the start to the end; at each ply the DOM's squares are the engine's."""
    page.click("#first")
    # The board as that player sits: its own back row at the bottom.
    corners = page.eval_on_selector_all("#board .sq", "els => [els[0].dataset.square, els[99].dataset.square]")
    assert corners == (["K1", "A10"] if perspective == 1 else ["A10", "K1"])
    replay = game.replay(0)
    for ply, entry in enumerate([None, *game.history]):
        if entry is not None:
            page.click("#next")
            replay.play(entry.action)
        assert current_ply(page) == ply
        expected = engine_board(replay, perspective)
        assert dom_board(page) == expected, f"ply {ply}"
        assert dom_visible(page) == {sq: visible(t) for sq, t in expected.items()}, f"ply {ply}: what is shown"


@pytest.mark.deep  # 20 s of clicks through every view: the deep layer (.ci/run)
def test_the_full_page_clicked_through_and_switched_to_each_view(browser, tmp_path):
    game = heuristic_game()
    path = tmp_path / "game.html"
    path.write_text(viewer_html(game))
    page, errors = open_page(browser, path)
    assert page.inner_text("#result") == result_text(game) and "resigned" in result_text(game)
    check_every_ply(page, game, None)
    plies = len(game.history)
    assert page.inner_text("#status").endswith(page.inner_text("#result"))
    # Keys, the slider and the move list move through the game too.
    page.keyboard.press("Home")
    assert current_ply(page) == 0
    page.keyboard.press("PageDown")
    page.keyboard.press("ArrowRight")
    assert current_ply(page) == 11
    page.keyboard.press("ArrowLeft")
    assert current_ply(page) == 10
    page.keyboard.press("End")
    assert current_ply(page) == plies
    page.eval_on_selector("#slider", "e => { e.value = 25; e.dispatchEvent(new Event('input')); }")
    assert current_ply(page) == 25
    page.click("#moves li[data-ply='40']")
    assert current_ply(page) == 40
    assert page.inner_text("#moves li.current") == game_frames(game, ["full"])["full"][40]["move"]
    page.screenshot(path=str(tmp_path / "full.png"))
    # Each player's view: the engine's view of that player at every ply; no rank of the
    # other side that the player had not identified.
    for name, perspective, opp in (("red", 0, "b"), ("blue", 1, "r")):
        page.click(f"#view-{name}")
        assert page.eval_on_selector("body", "b => b.dataset.view") == name
        check_every_ply(page, game, perspective)
        unknown = page.eval_on_selector_all(
            f"#board .sq[data-token^='{opp}'] .piece.unknown", "els => els.map(e => e.textContent)")
        assert unknown and set(unknown) == {"?"}
        page.screenshot(path=str(tmp_path / f"{name}.png"))
    page.keyboard.press("f")
    assert page.eval_on_selector("body", "b => b.dataset.view") == "full"
    assert errors == []
    for name in ("full", "red", "blue"):
        assert (tmp_path / f"{name}.png").stat().st_size > 10_000


def test_a_players_page_in_the_browser_shows_only_that_view(browser, tmp_path):
    game = heuristic_game(seed=21, plies=40)
    path = tmp_path / "red.html"
    path.write_text(viewer_html(game, perspective="red"))
    page, errors = open_page(browser, path)
    assert page.query_selector("#view-full") is None and page.query_selector("#view-blue") is None
    page.keyboard.press("b")  # no blue view in this file: the keys change nothing
    assert page.eval_on_selector("body", "b => b.dataset.view") == "red"
    check_every_ply(page, game, 0)
    page.screenshot(path=str(tmp_path / "red-only.png"))
    assert errors == []


@pytest.mark.deep  # Chromium through a 200-move record: .ci/run's layer
@needs_gravon
def test_an_archive_record_with_rescues_through_stratego_view(browser, tmp_path):
    record = GRAVON_DIR / "ultimate-lightning" / "ultimate_lightning-2005.5-2105.xml"
    out = tmp_path / "ul.html"
    assert main(["view", str(record), "-o", str(out)]) == 0
    game = load_game(record)
    page, errors = open_page(browser, out)
    check_every_ply(page, game, None)
    assert page.inner_text("#result") == "Red wins: flag captured"
    rescues = page.eval_on_selector_all("#moves li", "els => els.map(e => e.textContent).filter(t => t.includes('@'))")
    assert len(rescues) == 3
    page.screenshot(path=str(tmp_path / "ul.png"))
    assert errors == []
