"""Pictures of a game: Game.svg from each perspective, and VecEnv.render of any game.

A player's picture must hold only what that player knows: the tests compare every
square of the SVG with the text board (drawn from the same view) and with the true
board, and search the SVG text for hidden ranks.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

import stratego
from stratego.notation import parse_square
from stratego.notation import square_name
from stratego.viewing.render import RANK_SYMBOLS, board_order

import boards


def view(g, perspective):
    """boards.view keyed by render.square_name, as the SVG's squares are."""
    return {square_name(parse_square(k)): v for k, v in boards.view(g, perspective).items()}


def _svg_tokens(svg: str) -> dict[str, str]:
    root = ET.fromstring(svg)  # also proves the picture is well-formed XML
    return {g.get("data-square"): g.get("data-token") for g in root.iter("{http://www.w3.org/2000/svg}g")}


def _played(seed: int, plies: int) -> stratego.Game:
    g = stratego.Game(seed=seed)
    while g.ply < plies and not g.done:
        g.play(g.bot_move("heuristic"))
    return g


@pytest.mark.parametrize("plies", [0, 1, 30, 120])
def test_svg_squares_match_the_board_of_each_perspective(plies):
    g = _played(5, plies)
    for name, perspective in (("full", None), ("red", 0), ("blue", 1)):
        tokens = _svg_tokens(g.svg(name))
        text = view(g, perspective)
        names = {square_name(sq) for sq in range(100)}
        assert set(tokens) == names
        assert {sq: tokens[sq] for sq in names} == {sq: text[sq] for sq in names}


def test_a_players_svg_names_no_piece_it_has_not_identified():
    g = _played(7, 120)
    for player, opp in ((0, "b"), (1, "r")):
        svg = g.svg(player)
        tokens = _svg_tokens(svg)
        known = view(g, player)
        hidden = 0
        for name, token in tokens.items():
            if token.startswith(opp) and token[1:] not in ("?", "?m"):
                # a shown opponent rank is one the view identified, and the true rank
                assert known[name] == token
            hidden += token in (opp + "?", opp + "?m")
        assert hidden > 0, "the game revealed every piece: choose a shorter one"
        # The picture's text holds no opponent rank beyond the identified ones.
        shown = set(re.findall(rf'data-token="({opp}[^"?]+)"', svg))
        assert shown == {t for t in known.values() if t.startswith(opp) and "?" not in t}
    # At the start nothing of the opponent is known: no rank of blue in red's picture.
    start = stratego.Game(seed=7).svg("red")
    assert not re.search(r'data-token="b[^?"]', start)
    assert 'data-token="b?"' in start


def test_svg_marks_the_last_move_and_notebooks_get_the_full_board():
    g = stratego.Game(seed=1)
    assert g.last_move() is None
    g.play(g.legal_moves()[0])
    src, dst, attack = g.last_move()
    assert not attack and g.legal_moves()  # a first move cannot attack
    svg = g._repr_svg_()
    assert svg == g.svg("full") == g.svg(None)
    assert svg.count('stroke="#f1c40f"') == 2  # the two squares of the move, framed
    assert g.svg("red") == g.svg(0) and g.svg("blue") == g.svg(1)


def test_svg_in_the_old_numbering_and_blue_at_the_bottom():
    g = stratego.Game(seed=2, numbering="old")
    tokens = _svg_tokens(g.svg("full"))
    assert {t[1:] for t in tokens.values() if t[0] in "rb"} <= set(RANK_SYMBOLS["old"])
    blue = g.svg("blue")
    # Blue's view is the board turned: its top left square is K1 (red's is A10).
    first = re.search(r'data-square="(\w+)"', blue).group(1)
    assert first == "K1"
    assert re.search(r'data-square="(\w+)"', g.svg("red")).group(1) == "A10"


@pytest.mark.parametrize("bad", ["green", 2, -1, True, "Red", 0.0])
def test_svg_refuses_a_bad_perspective(bad):
    with pytest.raises(ValueError, match="perspective must be 'red', 'blue', 'full'"):
        stratego.Game(seed=0).svg(bad)


def _hidden_squares_shown(text: str, view_cells: bytes, player: int) -> dict[str, list[int]]:
    """Checks a player's text board square by square against the engine's view
    (GameState.view_cells: a code and public flags a square): an opponent piece the view
    does not identify (no VIEW_OPP_KNOWN) must be "?" or "?m" (moved), one it identifies
    its rank. Returns the squares shown "?" and "?m"."""
    core, opp = stratego._core, "rb"[1 - player]
    rows, cols = board_order(player)
    shown = {}
    for r, line in zip(rows, text.splitlines()[1:11]):
        for c, token in zip(cols, line.split()[1:-1]):
            shown[r * 10 + c] = token
    hidden = {"?": [], "?m": []}
    for sq, token in shown.items():
        code, flags = view_cells[2 * sq], view_cells[2 * sq + 1]
        if code in (core.VIEW_LAKE, core.VIEW_EMPTY) or code & core.VIEW_OWN:
            continue
        if code & core.VIEW_OPP_KNOWN:
            assert token == opp + RANK_SYMBOLS["new"][code & core.VIEW_TYPE_MASK], (sq, token)
        else:
            expected = "?m" if flags & core.PIECE_MOVED else "?"
            assert token == opp + expected, (square_name(sq), token, "hidden rank shown")
            hidden[expected].append(sq)
    return hidden


def test_vec_env_renders_any_game_from_any_perspective():
    env = stratego.VecEnv(3, seed=4)
    for _ in range(25):
        env.step(env.sample_actions())
    moved_hidden = 0
    for i in range(3):
        g = stratego.Game.from_field(env.game_field(i))
        full = env.render(i, "full")
        assert full == env.render(i) == env.render(i, None)
        assert full == g.render(None)  # the full board is the field
        for player, name in ((0, "red"), (1, "blue")):
            text = env.render(i, name)
            assert text == env.render(i, player)
            opp = "b" if player == 0 else "r"
            # moved and unmoved unknown pieces of the opponent, no hidden rank: every
            # opponent token is "?", "?m" or a rank its own view identified
            assert re.search(rf"\b{opp}\?", text)
            moved_hidden += len(_hidden_squares_shown(text, env._batch.game(i).view_cells(player), player)["?m"])
            own = "r" if player == 0 else "b"
            assert sorted(t for t in full.split() if t.startswith(own)) == \
                sorted(t for t in text.split() if t.startswith(own))
    assert moved_hidden, "no moved unidentified piece (the case a leak shows): step longer"
    assert env.render() == env.render(0, "full")  # Gymnasium's render(): game 0, ansi text
    assert env.render_mode == "ansi"


@pytest.mark.parametrize("args, exc, match", [
    ((3,), IndexError, "out of range"), ((-1,), IndexError, "out of range"),
    ((True,), TypeError, "bool"), (("0",), TypeError, "integer"),
    ((0, "green"), ValueError, "perspective"),
])
def test_vec_env_render_refuses_bad_arguments(args, exc, match):
    env = stratego.VecEnv(3, seed=0)
    with pytest.raises(exc, match=match):
        env.render(*args)
