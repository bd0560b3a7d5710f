"""`stratego serve`'s page in a real browser: Debian's headless Chromium driven by
Playwright (tests/test_viewer_browser.py's set-up), against a server on a free port of
127.0.0.1. A whole classic game played by clicks until it ends (every move chosen among
the highlighted targets, which are checked against the engine's mask), hand placement
by clicks and by drag and drop, resigning and a new game, a castle game against three
bots by clicks; no console error and no request to anywhere but the server.

Heavy: needs the web and browser extras and a Chromium. Outside CI a missing one skips
with the reason; in CI (CI=true) it fails.
"""
from __future__ import annotations

import json
import os
import random
import socket
import threading
import time
import urllib.request

import pytest
from patience import patience

from stratego.records import record_from_json

from test_viewer_browser import browser  # noqa: F401 (the fixture: Playwright on Debian's Chromium)

pytestmark = pytest.mark.heavy

try:
    import uvicorn

    from stratego.web.app import create_app
except ImportError as exc:
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"CI: the web extra is not installed (pip install -e '.[web]'): {exc}") from None
    pytest.skip(f"the web extra is not installed (pip install -e '.[web]'): {exc}", allow_module_level=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A `stratego serve` app under uvicorn in a thread; yields its base URL."""
    app = create_app(save=tmp_path_factory.mktemp("serve") / "games.jsonl", move_seconds=30)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(app, log_level="warning", lifespan="off")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    srv.should_exit = True
    thread.join(10)


def open_page(browser, base, path="/", seed=0):  # noqa: F811
    """A page of the server at `base`; every game it starts takes `seed` (the page's form
    has no seed: the test adds it to the request), so a test plays the same game each run.
    Unseeded, one barrage game in thirty ends on the first moves (a Scout takes a Flag).
    None: the server draws it (a game with other people refuses a chosen seed)."""
    page = browser.new_page(viewport={"width": 1100, "height": 760})
    # Playwright's 30 s default: a click or a wait on a page whose server plays a bot's
    # reply can pass it when the whole suite loads the two cores (it did, about one full
    # run in three); the project's generous limit, scaled as every test's (patience.py).
    page.set_default_timeout(patience(120) * 1000)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    # Nothing but the server: every other request fails the test.
    def route(route):
        request = route.request
        if not request.url.startswith(base + "/"):
            errors.append(f"request {request.url}")
            route.abort()
        elif seed is not None and request.method == "POST" and request.url.split("?")[0] == base + "/api/games":
            route.continue_(post_data=json.dumps({**json.loads(request.post_data), "seed": seed}))
        else:
            route.continue_()
    page.route("**/*", route)
    page.goto(base + path)
    page.wait_for_selector("body[data-ready='1']")
    return page, errors


def api(base, path):
    with urllib.request.urlopen(base + path) as r:
        return r.read().decode()


def start(page, **options):
    for name, value in options.items():
        page.select_option(f"#{name}", value)
    page.click("#start")
    settle(page)


def settle(page):
    """Waits for the answer to the latest request."""
    # A selector, not a script: the page's Content-Security-Policy forbids evaluating strings.
    page.wait_for_selector("body:not([data-busy='1']):not([data-phase='none'])", state="attached")


def board(page) -> dict[int, str]:
    return dict(page.eval_on_selector_all("#board .sq", "els => els.map(e => [+e.dataset.sq, e.dataset.token])"))


def squares(page, selector) -> list[int]:
    return page.eval_on_selector_all(selector, "els => els.map(e => +e.dataset.sq)")


def near(sq: int, targets: list[int]) -> int:
    return min(abs(sq // 10 - t // 10) + abs(sq % 10 - t % 10) for t in targets)


def click_a_move(page, base, rng: random.Random, check: bool) -> None:
    """Clicks one of the person's pieces (mostly one near the other side), then one of
    the highlighted targets (an attack, or a step nearer the other side)."""
    tokens = board(page)
    you = page.eval_on_selector("body", "b => b.dataset.you")
    theirs = [sq for sq, t in tokens.items() if t[0] not in ".~" + you]
    mine = squares(page, "#board .sq.mine")
    assert mine, "no piece to move on the person's turn"
    mine.sort(key=lambda sq: near(sq, theirs) + rng.random() * 4)
    src = mine[0] if rng.random() < 0.8 else rng.choice(mine)
    page.click(f"#board .sq[data-sq='{src}']")
    targets = squares(page, "#board .sq.target")
    assert targets, "a movable piece shows its targets"
    if check:  # the highlighted targets are the engine's legal moves of that piece
        game_id = page.eval_on_selector("body", "b => b.dataset.game")
        state = json.loads(api(base, f"/api/games/{game_id}?since=100000"))
        assert sorted(targets) == sorted(m[1] for m in state["legal"] if m[0] == src)
    dst = min(targets, key=lambda sq: near(sq, theirs) + rng.random())
    page.click(f"#board .sq[data-sq='{dst}']")
    settle(page)


def test_a_whole_classic_game_by_clicks_against_the_random_bot(browser, server, tmp_path):  # noqa: F811
    page, errors = open_page(browser, server)
    start(page, variant="classic", opponent="random", color="red", setup="random")
    assert page.eval_on_selector("body", "b => b.dataset.phase") == "play"
    rng = random.Random(7)
    # The screenshot and the flip at the start: a game against the random bot can end
    # within a dozen moves, so a later point is not always reached.
    page.screenshot(path=str(tmp_path / "playing.png"))
    # The board as red sits, then flipped.
    corners = page.eval_on_selector_all("#board .sq", "els => [els[0].dataset.square, els[99].dataset.square]")
    assert corners == ["A10", "K1"]
    page.click("#flip")
    corners = page.eval_on_selector_all("#board .sq", "els => [els[0].dataset.square, els[99].dataset.square]")
    assert corners == ["K1", "A10"]
    page.click("#flip")
    moves = 0
    while page.eval_on_selector("body", "b => b.dataset.phase") != "over":
        assert moves < 1500, "the game did not end"
        click_a_move(page, server, rng, check=moves < 15)
        moves += 1
    result = page.inner_text("#result")
    assert result and page.inner_text("#status").startswith("Game over")
    assert len(page.query_selector_all("#moves li")) >= moves
    # The record, downloaded as the link gives it, is a game of the project's format.
    href = page.get_attribute("#download", "href")
    record = record_from_json(api(server, href).strip())
    assert len(record.actions) == len(page.query_selector_all("#moves li"))
    assert page.is_visible("#open-viewer")
    assert errors == []
    assert (tmp_path / "playing.png").stat().st_size > 10_000


def test_hand_placement_by_clicks_and_drag_then_fill_the_rest(browser, server):  # noqa: F811
    page, errors = open_page(browser, server)
    start(page, variant="classic", opponent="heuristic", color="red", setup="hand")
    assert page.eval_on_selector("body", "b => b.dataset.phase") == "deploy"
    assert page.is_visible("#fill") and page.is_visible("#hand")
    page.click(".hand-piece[data-rank='F']")
    zone = squares(page, "#board .sq.zone")
    assert sorted(zone) == list(range(40))  # red's four rows
    page.click("#board .sq[data-square='A1']")
    settle(page)
    assert board(page)[0] == "rF" and page.query_selector(".hand-piece[data-rank='F']") is None
    page.drag_and_drop(".hand-piece[data-rank='B']", "#board .sq[data-square='B1']")
    settle(page)
    assert board(page)[1] == "rB"
    page.click("#fill")
    settle(page)
    assert page.eval_on_selector("body", "b => b.dataset.phase") == "play"
    tokens = board(page)
    assert tokens[0] == "rF" and tokens[1] == "rB"
    assert sum(t.startswith("r") for t in tokens.values()) == 40
    assert not page.is_visible("#hand")
    click_a_move(page, server, random.Random(1), check=True)
    assert errors == []


def test_resign_then_a_new_game(browser, server):  # noqa: F811
    page, errors = open_page(browser, server)
    start(page, variant="barrage", opponent="heuristic", color="blue", setup="human")
    first = page.eval_on_selector("body", "b => b.dataset.game")
    assert len(page.query_selector_all("#moves li")) == 1  # red (the bot) moved first
    click_a_move(page, server, random.Random(2), check=True)
    page.click("#resign")
    settle(page)
    assert page.eval_on_selector("body", "b => b.dataset.phase") == "over"
    assert page.inner_text("#result") == "Blue resigned: Red wins"
    assert page.is_disabled("#resign") and page.is_visible("#download")
    page.click("#start")
    settle(page)
    assert page.eval_on_selector("body", "b => b.dataset.game") != first
    assert page.eval_on_selector("body", "b => b.dataset.phase") == "play"
    assert page.inner_text("#result") == "" and not page.is_disabled("#resign")
    assert len(page.query_selector_all("#moves li")) == 1
    assert errors == []


def test_a_castle_game_against_three_bots_by_clicks(browser, server):  # noqa: F811
    from stratego.castle.records import record_from_json as castle_record

    page, errors = open_page(browser, server, "/castle")
    start(page, variant="ffa4", opponent="heuristic", color="s")
    assert page.eval_on_selector("body", "b => b.dataset.you") == "s"
    rng = random.Random(5)
    game_id = page.eval_on_selector("body", "b => b.dataset.game")
    decisions = 0
    while page.eval_on_selector("body", "b => b.dataset.phase") != "over":
        assert decisions < 1000, "the game did not end"
        state = json.loads(api(server, f"/api/games/{game_id}?since=100000"))
        buttons = page.query_selector_all("#decisions button")
        if buttons:  # take, leave, recruit: the decisions that are not a node's
            assert sorted(b.inner_text() for b in buttons) == sorted(m[2] for m in state["legal"] if m[0] is None)
            rng.choice(buttons).click()
        else:
            nodes = sorted(set(page.eval_on_selector_all("#board .cell.mine", "els => els.map(e => e.dataset.node)")))
            assert nodes == sorted({m[0] for m in state["legal"] if m[0] is not None})
            src = rng.choice(nodes)
            page.click(f"#board .cell[data-node='{src}']")
            # The ring is one node over eight cells: a set.
            targets = sorted(set(page.eval_on_selector_all("#board .cell.target", "els => els.map(e => e.dataset.node)")))
            assert targets == sorted({m[1] for m in state["legal"] if m[0] == src}), errors
            dst = rng.choice(targets)
            page.click(f"#board .cell[data-node='{dst}']")
            same = sorted(m[2] for m in state["legal"] if (m[0], m[1]) == (src, dst))
            if len(same) > 1:  # more than one decision moves src to dst ("H1-H2", "H1-H2 drop"): buttons
                choices = page.query_selector_all("#decisions button")
                assert sorted(b.inner_text() for b in choices) == same
                rng.choice(choices).click()
        settle(page)
        decisions += 1
    assert page.inner_text("#result") and page.inner_text("#status").startswith("Game over")
    record = castle_record(api(server, page.get_attribute("#download", "href")).strip())
    assert record.mode == "ffa4" and record.players["s"] == "person"
    assert len(page.query_selector_all("#moves li")) == len(record.moves)
    assert errors == []


@pytest.mark.deep  # 15 s of two browser tabs: the deep layer (.ci/run); the HTTP test of two people stays quick
def test_a_castle_game_of_two_people_in_two_tabs(browser, server):  # noqa: F811
    """North makes a game with West played by another person: West's link opens the game
    on West's seat in a second tab; each tab moves on its own seat's turn only and sees
    the other's moves arrive (the page asks again while another person is to move)."""
    north, errors_n = open_page(browser, server, "/castle", seed=None)
    north.select_option("#variant", "ffa3")
    north.select_option("#color", "n")
    north.check("#people input[value='w']")
    north.click("#start")
    settle(north)
    link = north.get_attribute("#invites a[data-seat='w']", "href")
    assert link.startswith("/castle#")
    west, errors_w = open_page(browser, server, link, seed=None)
    west.wait_for_selector("body[data-you='w']")
    rng = random.Random(4)
    turns = {"n": 0, "w": 0}
    for _ in range(12):  # a dozen decisions of the two people, whoever is to decide
        deadline = time.monotonic() + 20
        while True:
            ready = [p for p in (north, west) if p.eval_on_selector("body", "b => b.dataset.turn") == "you"]
            over = north.eval_on_selector("body", "b => b.dataset.phase") == "over"
            if ready or over:
                break
            assert time.monotonic() < deadline, "neither tab's turn came"
            time.sleep(0.1)
        if over:
            break
        (page,) = ready  # one seat decides at a time
        other = west if page is north else north
        turns[page.eval_on_selector("body", "b => b.dataset.you")] += 1
        count = len(page.query_selector_all("#moves li"))
        buttons = page.query_selector_all("#decisions button")
        if buttons:
            rng.choice(buttons).click()
        else:
            nodes = page.eval_on_selector_all("#board .cell.mine", "els => els.map(e => e.dataset.node)")
            page.click(f"#board .cell[data-node='{rng.choice(nodes)}']")
            targets = page.eval_on_selector_all("#board .cell.target", "els => els.map(e => e.dataset.node)")
            page.click(f"#board .cell[data-node='{rng.choice(targets)}']")
            if page.query_selector("#decisions:not([hidden]) button"):  # "H1-H2" or "H1-H2 drop"
                page.click("#decisions button")
        settle(page)
        # The other tab sees the decision arrive without a click (it asks again while it waits).
        other.wait_for_selector(f"#moves li:nth-child({count + 1})", state="attached", timeout=20_000)
    assert turns["n"] >= 3 and turns["w"] >= 3
    assert errors_n == [] and errors_w == []
