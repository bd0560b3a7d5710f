"""The castle game's HTML page (stratego.castle.viewer): every frame is the engine's text
board of its perspective at that ply, a seat's page holds that seat's frames only (no
rank it did not know, a hidden recruitment's rank included), the page is one file, and
bad arguments are refused. The page in a real browser: test_castle_viewer_browser.py."""
from __future__ import annotations

import json
import random
import re

import pytest

from stratego.castle import Game, records
from stratego.castle import notation as castle_notation
from stratego.castle import viewer as V
from test_castle_core import board

MODES = ["ffa4", "teams4", "ffa3"]


def _game(mode: str, seed: int, plies: int = 120) -> Game:
    game = Game(mode, seed=seed)
    rng = random.Random(seed)
    while not game.done and game.ply < plies:
        game.play(game.bot_move() if game.to_play == 0 else rng.choice(game.legal_actions()))
    return game


def _payload(html: str) -> dict:
    found = re.search(r'<script id="game-data" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(found.group(1))


@pytest.mark.parametrize("mode", MODES)
def test_frames_are_the_engines_views(mode):
    game = _game(mode, 3)
    frames = V.game_frames(game)
    assert list(frames) == ["full", *game.seat_letters]
    replay = V.start_of(game)
    for ply in range(len(game.history) + 1):
        for view, seat in [("full", None)] + [(k, s) for s, k in enumerate(game.seat_letters)]:
            frame, parts = frames[view][ply], castle_notation.parse_text(replay.to_text(seat))
            assert frame["grid"] == [" ".join(row) for row in parts["grid"]]
            assert (frame["ring"], frame["turret"], frame["to_move"], frame["ply"]) == (
                parts["ring"], parts["turret"], parts["to_move"], ply)
            assert frame["sliders"] == replay.sliders and frame["removed"] == replay.removed
            assert {f[0]: (f[1], f[2]) for f in frame["lone"]} == replay.lone_flags()
            if ply:
                assert frame["move"] == game.history[ply - 1]
        if ply < len(game.history):
            replay.play(game.history[ply])
    last = frames["full"][-1]
    assert last["mover"] in game.seat_letters and (last["last"] is None or last["last"][2] in "-x*")


def test_a_seats_page_holds_its_view_only():
    game = _game("ffa4", 5)
    html = V.viewer_html(game, perspective="e")
    data = _payload(html)
    assert list(data["frames"]) == ["e"] and data["seats"] == "nesw" and data["rows"] == 15
    assert data["frames"]["e"] == V.game_frames(game, ["e"])["e"]
    start = data["frames"]["e"][0]
    # At the start east knows its own ranks only: every other piece is "?".
    tokens = [t for row in start["grid"] for t in row.split()]
    assert all(t[1] == "?" for t in tokens if t[0] in "nsw") and any(t[0] == "e" and t[1].isdigit() for t in tokens)
    assert list(_payload(V.viewer_html(game))["frames"]) == ["full", "n", "e", "s", "w"]


def test_hidden_recruitment_is_shown_to_the_recruiter_only():
    text = board({"D4": "n9", "D5": "e5", "H1": "n7n", "O8": "e4e"}, extra="sliders: n=5 e=0 s=0 w=0")
    game = Game.from_text(text, recruit_public=0)
    game.play("D4xD5")
    assert game.phase == "recruit" and "recruit 8" in game.legal_moves()
    game.play("recruit 8")
    frames = V.game_frames(game)
    assert [f["move"] for f in frames["full"][1:]] == ["D4xD5", "recruit 8"]
    assert frames["n"][-1]["move"] == "recruit 8"
    for seat in "esw":
        assert frames[seat][-1]["move"] == "recruit ?"
        assert "n?" in frames[seat][-1]["grid"][1].split()  # H2: a piece of unknown rank
    assert "recruit 8" not in V.viewer_html(game, perspective="e")


def test_page_is_one_file_and_escapes_its_text():
    game = _game("ffa3", 2, plies=30)
    html = V.viewer_html(game, title="</script><b>x</b>")
    assert "&lt;/script&gt;&lt;b&gt;" in html and "</script><b>" not in html
    assert not re.search(r"(src|href)=|https?:|@import|url\(", html)
    assert not re.search(r"__[A-Z_]+__", html.split("game-data")[0])
    assert "#moves li.current { background: #" in html and "#controls button" in html  # viewer_common.css
    data = _payload(html)
    assert data["rows"] == 12 and data["result"].startswith("Not finished after 30 plies")
    assert len(data["frames"]["full"]) == 31


def test_result_text():
    game = Game.from_text(board({"ring": "n4n", "H1": "n3", "O8": "e4e"}))
    game.play("ring-turret")
    assert V.result_text(game) == "North wins: the flag carried onto the turret"
    teams = Game.from_text(board({"ring": "s4s", "H15": "s3", "H1": "n5n", "O8": "e4e"}, mode="teams4", to_move="s"))
    teams.play("ring-turret")
    assert V.result_text(teams) == "North and South win: the flag carried onto the turret"
    capped = Game("ffa3", seed=1, max_plies=5)
    while not capped.done:
        capped.play(capped.legal_actions()[0])
    assert V.result_text(capped) == "Draw: ply cap"


def test_stratego_view_command(tmp_path, capsys):
    from stratego.cli import main

    game = _game("ffa4", 7, plies=40)
    path = tmp_path / "castle.jsonl"
    records.write_records([game], path)
    assert V.is_castle_file(path) and not V.is_castle_file(tmp_path) and not V.is_castle_file(tmp_path / "none")
    out = tmp_path / "page.html"
    assert main(["view", str(path), "-o", str(out), "--perspective", "s"]) == 0
    assert list(_payload(out.read_text())["frames"]) == ["s"]
    with pytest.raises(SystemExit):
        main(["view", str(path), "-o", str(tmp_path / "red.html"), "--perspective", "red"])
    assert "perspective must be one of ['full', 'n', 'e', 's', 'w'] for this ffa4 game" in capsys.readouterr().err
    assert not (tmp_path / "red.html").exists()


def test_bad_arguments_and_load_game(tmp_path):
    game = _game("ffa3", 1, plies=20)
    with pytest.raises(ValueError, match=r"perspective must be one of \['full', 'n', 'e', 'w'\] for this ffa3 game, got 's'"):
        V.viewer_html(game, perspective="s")
    path = tmp_path / "games.jsonl"
    records.write_records([game, _game("ffa4", 2, plies=10)], path)
    assert V.load_game(path, 1).history == _game("ffa4", 2, plies=10).history
    with pytest.raises(records.RecordError, match="has 2 game"):
        V.load_game(path, 2)
    with pytest.raises(ValueError, match="index must be a game number"):
        V.load_game(path, -1)
    path.write_text('{"format": "stratego-castle"}\n')
    with pytest.raises(records.RecordError, match="line 1: missing version"):
        V.load_game(path)
