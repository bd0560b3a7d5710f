"""The HTML page of `stratego view`, read as text (the browser tests are in
test_viewer_browser.py): its frames are the engine's positions, a page written for one
player holds nothing that player did not know, and the file needs no network."""
from __future__ import annotations

import json
import re

import pytest

import stratego
from stratego.viewing.viewer import VIEWS, game_frames, result_text, viewer_html

VIEW_OPP_KNOWN, VIEW_TYPE_MASK = stratego._core.VIEW_OPP_KNOWN, stratego._core.VIEW_TYPE_MASK
RANKS = ("B", "S", "2", "3", "4", "5", "6", "7", "8", "9", "10", "F")


def played(seed: int, plies: int = 10_000, bot: str = "heuristic", **kw) -> stratego.Game:
    """A game the bot plays against itself, to its end or `plies` plies."""
    game = stratego.Game(seed=seed, **kw)
    while not game.done and game.ply < plies:
        game.play(game.bot_move(bot))
    return game


def page_data(page: str) -> dict:
    match = re.search(r'<script id="game-data" type="application/json">(.*?)</script>', page, re.S)
    return json.loads(match.group(1))


def test_frames_are_the_engines_positions_from_every_perspective():
    played_game = played(11, 150)
    moves = [h.action for h in played_game.history]
    frames = game_frames(played_game)
    assert set(frames) == set(VIEWS)
    game = played_game.replay(0)
    for ply in range(len(moves) + 1):
        for name, perspective in (("full", None), ("red", 0), ("blue", 1)):
            frame = frames[name][ply]
            assert frame["board"].split(" ") == game._tokens(perspective)
            assert frame["to_move"] == "rb"[game.to_move]
            if ply:
                assert frame["last"] == list(game.last_move())
        # Captured pieces: the full board lists every one; each player knows its own.
        for player in (0, 1):
            names = sorted(game.captured(player))
            full = frames["full"][ply]["captured"]["rb"[player]]
            own = frames[("red", "blue")[player]][ply]["captured"]["rb"[player]]
            assert len(full["ranks"]) == len(own["ranks"]) == len(names)
            assert sorted(own["ranks"]) == sorted(full["ranks"])
        if ply < len(moves):
            game.play(moves[ply])
    # The players' move lists are the full one less the ranks of each fight.
    for i in range(1, len(moves) + 1):
        full = frames["full"][i]["move"]
        assert frames["red"][i]["move"] == frames["blue"][i]["move"] == full.split(" ")[0]
        assert ("x" in full) == (" (" in full) == frames["full"][i]["last"][2]


def test_a_players_page_holds_no_piece_it_had_not_identified():
    end = played(12, 200)
    start, moves = end.replay(0), [h.action for h in end.history]
    for player, name, opp in ((0, "red", "b"), (1, "blue", "r")):
        page = viewer_html(end, perspective=name)
        data = page_data(page)
        assert list(data["frames"]) == [name]  # only this player's frames
        # Every opponent rank this player ever identified, from the engine's views.
        game, identified = start.clone(), set()
        for move in [None, *moves]:
            if move is not None:
                game.play(move)
            cells = game._state.view_cells(player)  # the engine's view: code, flags a square
            identified |= {RANKS[c & VIEW_TYPE_MASK] for c in cells[::2] if c & VIEW_OPP_KNOWN}
        never = [r for r in RANKS if r not in identified]
        assert never, "every rank was identified: choose a shorter game"
        for rank in never:  # the file's text: no token of a rank never identified
            assert not re.search(rf"(?<![\w?]){opp}{rank}(?![\w?])", page), (name, rank)
        # and not the start position: the opponent's setup is nowhere in the file
        assert start.field not in page and end.field not in page
        assert re.search(rf"(?<!\w){opp}\?", page)
    # The full page holds every piece.
    full = viewer_html(end)
    assert all(re.search(rf"(?<!\w)b{rank}(?!\w)", full) for rank in ("F", "10"))


def test_the_page_needs_no_network_and_escapes_its_text():
    game = played(13, 20)
    page = viewer_html(game)
    for outside in ("http://", "https://", "src=", "href=", "@import", "url(", "<link", "<iframe"):
        assert outside not in page, outside
    # Every placeholder filled, the shared style rules (viewer_common.css) included.
    assert not re.search(r"__[A-Z_]+__", page.split("game-data")[0])
    assert "#moves li.current { background: #" in page and "#controls button" in page
    hostile = viewer_html(game, title='</script><script src="http://x/y.js"></script>')
    assert hostile.count("<script") == 2  # the data and the viewer's own code, nothing else
    data = page_data(hostile)
    assert data["title"].startswith("</script>") and data["result"] == "Not finished after 20 plies"


def test_result_text():
    end = played(14)
    assert end.done
    text = result_text(end)
    assert text.startswith(("Red wins: ", "Blue wins: ", "Draw: ")) and "_" not in text
    game = stratego.Game(seed=0)
    assert result_text(game) == "Not finished after 0 plies"
    game.play(game.legal_moves()[0])
    resigned, agreed = game.clone(), game.clone()
    game.resign()
    assert result_text(game) == "Blue resigned: Red wins"
    agreed.agree_draw()
    assert result_text(agreed) == "Draw: agreed"
    resigned.lose_on_time(0)
    assert result_text(resigned) == "Red lost on time: Blue wins"
    assert page_data(viewer_html(game))["result"] == "Blue resigned: Red wins"


@pytest.mark.parametrize("variant", ["ultimate-lightning", "seed-tournament"])
def test_rescues_are_frames_and_hidden_from_the_opponent_when_unknown(variant):
    """The rescue rule: a rescue is a frame of its own; the opponent's page names the
    returned piece only if its view shows it. In Ultimate Lightning the opponent always
    knows it; under the Seed tournament rules' silent defense it may not, so there some
    label must be "?@" (a label that always names the rank fails)."""
    hidden = 0
    for seed in range(60):
        end = played(seed, 400, bot="random", variant=variant)
        if not sum(end.rescues):
            continue
        frames = game_frames(end)
        rescues = [i for i, f in enumerate(frames["full"]) if "@" in f.get("move", "") or f.get("move") == "pass"]
        assert rescues
        for i in rescues:
            mover = frames["full"][i]["mover"]
            other = "blue" if mover == "r" else "red"
            own = "red" if mover == "r" else "blue"
            assert frames[own][i]["move"] == frames["full"][i]["move"]
            label = frames[other][i]["move"]
            if label != "pass":
                square = label.partition("@")[2]
                token = frames[other][i]["board"].split(" ")[stratego.parse_square(square)]
                assert (label.startswith("?@")) == ("?" in token)
                hidden += label.startswith("?@")
        if variant == "ultimate-lightning" or hidden:
            break
    else:
        pytest.fail(f"no rescue hidden from the opponent in 60 random {variant} games")
    assert (hidden > 0) == (variant == "seed-tournament")


def test_bad_perspective():
    with pytest.raises(ValueError, match="perspective must be one of"):
        viewer_html(stratego.Game(seed=0), perspective="green")


def test_captures_under_silent_defense_count_the_unidentified():
    """seed-tournament (silent defense): a captured defender may stay unknown to the
    attacker; the page lists what the player identified and counts the rest."""
    game = played(3, 300, bot="random", variant="seed-tournament")
    frames = game_frames(game)
    hidden = 0
    for ply, full in enumerate(frames["full"]):
        for name, me, opp in (("red", "r", "b"), ("blue", "b", "r")):
            seen = frames[name][ply]["captured"]
            assert seen[me] == full["captured"][me]  # one's own losses are known
            lost = full["captured"][opp]["ranks"]
            assert len(seen[opp]["ranks"]) + seen[opp]["unknown"] == len(lost)
            remaining = list(lost)  # the identified ones are among the true ones
            for rank in seen[opp]["ranks"]:
                remaining.remove(rank)
            hidden += seen[opp]["unknown"]
    assert hidden > 0, "no capture stayed unidentified: choose another game"
