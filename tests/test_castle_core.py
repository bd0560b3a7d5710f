"""The castle game's core (csrc/castle/, docs/castle.md) through stratego.castle.Game: the
geometry of each mode, setups, each setting doing what it says, turret wins, views,
clone and pickle, hostile input, and invariants over random games (in Python here, and
in C under the sanitizers: tests/c/castle_main.c). The 14 rule questions of CASTLE.md
and the perft counts against the independent reference are test_castle_rules.py and
test_castle_perft.py."""
from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest

from stratego.castle import Game, IllegalMove, action_table, geometry, load_settings, variant_names

MODES = ["ffa4", "teams4", "ffa3"]
RANKS = [9, 8, 7, 7, 6, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 3, 2, 1, 1]


def board(pieces: dict[str, str], *, mode="ffa4", to_move="n", lone=None, extra="") -> str:
    """A full text board (docs/castle.md "Text board") with `pieces` ({node: token}); every
    seat's flag not carried by a piece lies alone on its flag start space unless `lone`
    ({seat: node, '!' at the end if abandoned}) says where."""
    g = geometry(mode)
    letters = "new" if g["seats"] == 3 else "nesw"
    carried = {tok[2] for tok in pieces.values() if len(tok) == 3}
    lone = dict(lone or {})
    for seat, letter in enumerate(letters):
        if letter not in carried and letter not in lone:
            lone[letter] = g["node_names"][g["flag_nodes"][seat]]
    lines = [f"mode: {mode}", f"to_move: {to_move}", "lone: " + " ".join(f"{k}@{v}" for k, v in lone.items())]
    lines.append(f"ring: {pieces.get('ring', '.')}")
    lines.append(f"turret: {pieces.get('turret', '.')}")
    if extra:
        lines.append(extra)
    for r, row in enumerate(g["cells"]):
        tokens = []
        for c, kind in enumerate(row):
            name = f"{'ABCDEFGHIJKLMNO'[c]}{r + 1}"
            tokens.append({" ": "-", "~": "~", "O": "O", "T": "T"}.get(kind) or pieces.get(name, "."))
        lines.append(f"{r + 1:2d} " + " ".join(tokens))
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ geometry


@pytest.mark.parametrize("mode, spaces, ring_spaces, lakes, actions", [
    ("ffa4", 144, 12, 12, 3443), ("teams4", 144, 12, 12, 3443), ("ffa3", 120, 9, 15, 2616)])
def test_geometry_counts(mode, spaces, ring_spaces, lakes, actions):
    """CASTLE.md A1/A2 and question 1: spaces, the ring's neighbours (plus the turret),
    lakes, 21-space zones with R and F inside, and the action layout's size."""
    g = geometry(mode)
    assert g["spaces"] == spaces and g["ring"] == spaces and g["turret"] == spaces + 1 and g["nodes"] == spaces + 2
    assert len(g["neighbours"][g["ring"]]) == ring_spaces + 1 and g["turret"] in g["neighbours"][g["ring"]]
    assert g["neighbours"][g["turret"]] == (g["ring"],)
    assert sum(row.count("~") for row in g["cells"]) == lakes
    for seat in range(g["seats"]):
        zone = [n for n, z in enumerate(g["zones"]) if z == seat]
        assert len(zone) == 21
        assert g["recruit_nodes"][seat] in zone and g["flag_nodes"][seat] in zone
    layout = g["layout"]
    assert layout["actions"] == actions == len(g["actions"])
    assert layout["move"] == 0 < layout["drop"] < layout["shot"] < layout["take"] < layout["leave"]
    assert layout["recruit"] == layout["leave"] + 1 and layout["no_recruit"] == layout["recruit"] + 9
    assert layout["take"] + g["seats"] == layout["leave"]
    # Neighbours are symmetric.
    for a, nbs in enumerate(g["neighbours"]):
        for b in nbs:
            assert a in g["neighbours"][b]


def test_node_numbering_and_places():
    """docs/castle.md: spaces row-major from E1, then ring and turret; R and F of each seat."""
    g = geometry("ffa4")
    names = g["node_names"]
    assert (names[0], names[6], names[7], names[21], names[30], names[137], names[143]) == (
        "E1", "K1", "E2", "D4", "A5", "E15", "K15")
    assert names[144:] == ("ring", "turret")
    assert [names[n] for n in g["recruit_nodes"]] == ["H2", "N8", "H14", "B8"]
    assert [names[n] for n in g["flag_nodes"]] == ["H1", "O8", "H15", "A8"]
    ring = {names[n] for n in g["neighbours"][g["ring"]]}
    assert ring == {"G6", "H6", "I6", "F7", "F8", "F9", "J7", "J8", "J9", "G10", "H10", "I10", "turret"}
    three = geometry("ffa3")
    assert [three["node_names"][n] for n in three["recruit_nodes"][:3]] == ["H2", "N8", "B8"]
    assert "G10" not in three["node_names"] and three["node_names"][-2:] == ("ring", "turret")
    # Lines stop at lakes and the castle: D8 east is blocked by the lake E8.
    d8 = names.index("D8")
    assert [names[n] for n in g["lines"][d8][1]] == []
    assert [names[n] for n in g["lines"][names.index("D4")][1]] == ["E4", "F4", "G4", "H4", "I4", "J4", "K4", "L4"]


def test_action_table_names_every_action_once():
    rows = action_table("ffa4")
    assert len(rows) == 3443 and len(set(rows)) == 3443
    assert ("shot", "D8", "ring") in rows and ("move", "F8", "H10") in rows and ("drop", "F8", "ring") in rows
    assert rows[-1] == ("no_recruit", None, None) and ("take", None, "w") in rows


def test_docs_state_the_layout_and_text_board():
    """docs/castle.md's action totals and its text board example are the engine's."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "castle.md").read_text(encoding="utf-8")
    assert "**3443**" in page and "**2616**" in page
    from stratego import _core
    assert f"`CastleState` of {_core.CASTLE_STATE_BYTES} bytes" in page
    start = page.index("```\nmode: ffa4") + 4
    example = page[start:page.index("```", start)]
    assert Game("ffa4", seed=1).to_text().startswith(example)
    for kind in ("move", "drop", "shot", "take"):
        for mode in ("ffa4", "ffa3"):
            g = geometry(mode)["layout"]
            assert f"{g[kind]}.." in page


# ------------------------------------------------------------------ setup


@pytest.mark.parametrize("mode", MODES)
def test_random_setup(mode):
    """CASTLE.md 1.3 and question 2: 20 pieces of A3 in the own zone, the recruitment space
    empty, the flag on the piece on the flag start space; ranks known to the owner only."""
    game = Game(mode, seed=3)
    g = geometry(mode)
    for seat in range(game.seats):
        zone = [n for n, z in enumerate(g["zones"]) if z == seat]
        ranks = sorted((game.piece(n)[1] for n in zone if game.piece(n)), reverse=True)
        assert ranks == RANKS
        assert all(game.piece(n)[0] == game.seat_letters[seat] for n in zone if game.piece(n))
        assert game.piece(g["recruit_nodes"][seat]) is None
        assert game.piece(g["flag_nodes"][seat])[2] == game.seat_letters[seat]
        for n in zone:
            if n != g["recruit_nodes"][seat]:
                assert [game.known(viewer, n) for viewer in range(game.seats)] == [v == seat for v in range(game.seats)]
    assert game.to_play == 0 and game.phase == "move" and not game.done
    assert all(v == 0 for v in game.sliders.values()) and all(v == [] for v in game.removed.values())


def test_explicit_setups():
    """A seat's setup given as 20 ranks on its zone's spaces in node order; the others random."""
    ranks = list(reversed(RANKS))
    game = Game("ffa3", seed=1, setups={"w": ranks})
    nodes = geometry("ffa3")["setup_nodes"][2]
    assert [game.piece(n)[1] for n in nodes] == ranks and game.piece("A8") == ("w", ranks[9], "w")
    assert [game.piece(n) for n in geometry("ffa3")["setup_nodes"][0]] == [
        Game("ffa3", seed=1).piece(n) for n in geometry("ffa3")["setup_nodes"][0]]
    for bad, error in [({"w": ranks[:-1]}, "19 ranks"), ({"w": ranks[1:] + [9]}, "A3 gives"),
                       ({"s": ranks}, "seat letters"), ({"w": ranks[:-1] + [0]}, "rank 1..9")]:
        with pytest.raises(ValueError, match=error):
            Game("ffa3", setups=bad)


def test_random_setups_follow_the_seed():
    assert Game(seed=5).to_text() == Game(seed=5).to_text()
    assert Game(seed=5).to_text() != Game(seed=6).to_text()
    assert Game("teams4", seed=5).to_text().split("\n", 1)[1] == Game("ffa4", seed=5).to_text().split("\n", 1)[1]
    assert Game(first_seat=2).to_play == 2 and Game("ffa3", first_seat=2).to_play == 2


# ------------------------------------------------------------------ settings


def test_settings_defaults_and_variants():
    assert set(variant_names()) >= {"ffa4", "teams4", "ffa3", "r4"}
    default = load_settings()
    assert load_settings("ffa4") == default
    assert default["back_and_forth"] == 5 and default["cannon_over_lakes"] == 1 and default["max_plies"] == 3000
    r4 = load_settings("r4")
    assert (r4["mode"], r4["back_and_forth"], r4["recruit_public"], r4["abandon"]) == (1, 10, 0, 0)
    assert Game(variant="r4").mode == "teams4" and Game(variant="ffa3").seats == 3


def test_cannon_over_lakes_switch():
    """A7: D8 fires over the lake E8 and the empty F8 at the ring; off, lakes block."""
    text = board({"D8": "n1", "ring": "e5", "H1": "n9n", "O8": "e4e"})
    assert "D8*ring" in Game.from_text(text).legal_moves()
    game = Game.from_text(text, cannon_over_lakes=False)
    assert "D8*ring" not in game.legal_moves()
    with pytest.raises(IllegalMove, match="lakes"):
        game.play("D8*ring")
    game = Game.from_text(text)
    before = game.removed
    game.play("D8*ring")
    assert game.piece("ring") is None and game.piece("D8") is None
    assert game.removed["n"] == sorted(before["n"] + [1], reverse=True)
    assert game.removed["e"] == sorted(before["e"] + [5], reverse=True) and game.sliders["n"] == 1


def test_scout_line_attack_switch():
    """A5: a Scout's line may end with an attack (a setting)."""
    text = board({"D4": "n3", "D8": "e5"})
    assert {"D4-D7", "D4xD8"} <= set(Game.from_text(text).legal_moves())
    moves = Game.from_text(text, scout_line_attack=False).legal_moves()
    assert "D4-D7" in moves and "D4xD8" not in moves


def test_abandon_switch():
    """A8: a carrier may step away leaving its flag (drop), marked abandoned."""
    text = board({"D4": "n5n"})
    game = Game.from_text(text)
    assert "D4-D5 drop" in game.legal_moves() and "D4-D5" in game.legal_moves()
    game.play("D4-D5 drop")
    assert game.lone_flags()["n"] == ("D4", True) and game.piece("D5") == ("n", 5, None)
    assert "D4-D5 drop" not in Game.from_text(text, abandon=False).legal_moves()


def test_back_and_forth_switch():
    """A10: with the limit 2 the third move in a row between D4 and D5 is illegal; another
    piece's move resets the count."""
    # Only n has pieces: the other seats cannot move and are skipped (A11), so n moves each turn.
    text = board({"D4": "n5n", "L4": "n4"})
    game = Game.from_text(text, back_and_forth=2)
    game.play("D4-D5")
    game.play("D5-D4")
    assert game.to_play == 0 and "D4-D5" not in game.legal_moves() and "D4-D5 drop" not in game.legal_moves()
    with pytest.raises(IllegalMove, match="6th time|A10"):
        game.play("D4-D5")
    game.play("L4-L5")
    assert "D4-D5" in game.legal_moves()
    default = Game.from_text(text)
    for move in ["D4-D5", "D5-D4"] * 2 + ["D4-D5"]:
        default.play(move)
    assert "D5-D4" not in default.legal_moves() and "D5-D6" in default.legal_moves()


def test_recruit_public_switch_and_slider():
    """A9: a winner at slider 6 recruits at once (slider back to 0) onto its recruitment
    space; the recruited rank is public by default, the owner's alone with the switch."""
    # n's pile: everything missing from the board; n's slider 5, the Marshal attacks.
    text = board({"D4": "n9", "H1": "n7n", "D5": "e5", "O8": "e4e"}, extra="sliders: n=5 e=0 s=0 w=0")
    for public in (True, False):
        game = Game.from_text(text, recruit_public=public)
        game.play("D4xD5")
        assert game.phase == "recruit" and game.to_play == 0 and game.sliders["n"] == 0
        assert "recruit 8" in game.legal_moves() and "recruit none" in game.legal_moves()
        assert "recruit 9" not in game.legal_moves()
        game.play("recruit 8")
        assert game.piece("H2") == ("n", 8, None) and 8 not in game.removed["n"]
        assert game.known(1, "H2") is public and game.known(0, "H2")
        assert game.to_play == 1 and game.phase == "move"


def test_recruitment_lost_on_an_occupied_space():
    """1.12: the recruitment space taken at that moment loses the chance; slider still 0."""
    text = board({"D4": "n9", "H2": "n6", "H1": "n7n", "D5": "e5", "O8": "e4e"}, extra="sliders: n=5 e=0 s=0 w=0")
    game = Game.from_text(text)
    game.play("D4xD5")
    assert game.phase == "move" and game.to_play == 1 and game.sliders["n"] == 0


@pytest.mark.parametrize("owner", [False, True])
def test_flag_recruit_owner_switch(owner):
    """A9 case 2: beating a rival carrier and taking its flag recruits for the capturer, or
    with the switch for the flag's owner."""
    text = board({"D4": "n9", "H1": "n7n", "D5": "e5e", "M5": "e4"})
    game = Game.from_text(text, flag_recruit_owner=owner)
    game.play("D4xD5")
    assert game.piece("D5") == ("n", 9, "e")
    assert game.phase == "recruit" and game.to_play == (1 if owner else 0)


def test_take_decision_and_own_flag_gives_no_recruit():
    """A8: a piece ending on a lone flag may take it or leave it; an own flag recruits nobody."""
    text = board({"D4": "n5", "H1": "n7", "O8": "e4e"}, lone={"n": "D5!"})
    game = Game.from_text(text)
    game.play("D4-D5")
    assert game.phase == "take" and game.to_play == 0 and set(game.legal_moves()) == {"take n", "leave"}
    game.play("take n")
    assert game.piece("D5") == ("n", 5, "n") and game.phase == "move" and game.to_play == 1


def test_max_plies_and_first_seat():
    game = Game(seed=2, max_plies=10, first_seat=3)
    assert game.to_play == 3
    rng = random.Random(0)
    while not game.done:
        game.play(rng.choice(game.legal_actions()))
    assert game.ply == 10 and game.end_reason == "cap" and game.winner == -1 and game.winners == ()


# ------------------------------------------------------------------ the end, views


def test_turret_win_ffa_and_teams():
    """1.13, A4, 1.15: carrying the own flag onto the turret wins at once; in teams4 for both
    partners; a partner's flag does not crown."""
    pieces = {"ring": "n5n", "O8": "e4e", "H15": "s4s", "A8": "w4w"}
    game = Game.from_text(board(pieces))
    game.play("ring-turret")
    assert game.done and game.end_reason == "turret" and game.winner == 0 and game.winners == (0,)
    assert "result: n wins (turret)" in game.to_text()
    with pytest.raises(RuntimeError, match="over"):
        game.play("leave")
    teams = Game.from_text(board(pieces, mode="teams4"))
    teams.play("ring-turret")
    assert teams.winner == 0 and teams.winners == (0, 2)
    partner = Game.from_text(board({"ring": "n5s", "H1": "n4n", "O8": "e4e", "A8": "w4w"}, mode="teams4"))
    partner.play("ring-turret")
    assert not partner.done and partner.piece("turret") == ("n", 5, "s")


def test_nobody_can_move_is_a_draw():
    """A11: no seat with a legal move: a draw at once (stuck)."""
    stuck = Game.from_text(board({}, lone={"n": "H1", "e": "O8", "s": "H15", "w": "A8"}))
    assert stuck.done and stuck.end_reason == "stuck" and stuck.winner == -1


def test_views_hide_ranks_from_everyone_else_partners_included():
    """A12 and question 14: a seat's view shows its own ranks and no other's, a partner's
    neither; a fight shows both ranks to all (upper-case seat letter)."""
    game = Game("teams4", seed=4)
    view = game.to_text(0)
    grid = "\n".join(line for line in view.splitlines() if line[:2].strip().isdigit())
    assert "n?" not in grid and all(f"n{r}" in grid for r in range(1, 10))
    for letter in "esw":
        assert f"{letter}?" in grid and not any(f"{letter}{r}" in grid for r in range(1, 10))
    assert "sliders:" in view and "removed:" in view
    text = board({"D4": "n9", "D5": "e5", "H1": "n7n", "O8": "e4e"})
    fight = Game.from_text(text)
    assert not fight.known(1, "D4") and "n?" in fight.to_text(1)
    fight.play("D4xD5")
    assert fight.known(1, "D5") and fight.known(2, "D5") and "N9" in fight.to_text(2)
    assert fight.removed["e"].count(5) == 3


# ------------------------------------------------------------------ clone, pickle


def _random_game(mode, seed, plies):
    game = Game(mode, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if game.done:
            break
        game.play(rng.choice(game.legal_actions()))
    return game, rng


@pytest.mark.parametrize("mode", MODES)
def test_clone_and_pickle(mode):
    game, rng = _random_game(mode, 7, 300)
    for copy in (game.clone(), pickle.loads(pickle.dumps(game))):
        assert copy.to_text() == game.to_text() and copy.legal_actions() == game.legal_actions()
        assert copy.settings == game.settings and copy.phase == game.phase
    copy = game.clone()
    action = rng.choice(copy.legal_actions())
    before = game.to_text()
    copy.play(action)
    assert game.to_text() == before
    game.play(action)
    assert game.to_text() == copy.to_text()


def test_pickle_mid_turn_and_hostile_state():
    """A take decision pending survives a pickle; a tampered state is refused, not trusted."""
    game = Game.from_text(board({"D4": "n5", "H1": "n7", "O8": "e4e"}, lone={"n": "D5!"}))
    game.play("D4-D5")
    back = pickle.loads(pickle.dumps(game))
    assert back.phase == "take" and back.legal_moves() == game.legal_moves()
    from stratego import _core
    settings, state = game.__reduce__()[1]
    for offset in (8, 8 + 146 + 3, 8 + 146 + 80 + 80 + 80 + 1):
        bad = bytearray(state)
        bad[offset] ^= 0x55
        with pytest.raises(ValueError, match="bad castle state"):
            _core.CastleGame.from_state(settings, bytes(bad))
    with pytest.raises(ValueError, match="bytes"):
        _core.CastleGame.from_state(settings, state[:-1])
    with pytest.raises(ValueError, match="bad castle state"):
        _core.CastleGame.from_state((2,) + settings[1:], state)


# ------------------------------------------------------------------ hostile input


def test_bad_moves():
    game = Game(seed=1)
    with pytest.raises(IllegalMove, match="not a node"):
        game.play("Z9-Z10")
    with pytest.raises(IllegalMove, match="cannot read"):
        game.play("hello")
    with pytest.raises(IllegalMove, match="no piece of n on D4"):
        game.play("D4-D5")
    with pytest.raises(IllegalMove, match="must now decide a move"):
        game.play("leave")
    with pytest.raises(IllegalMove, match="a seat letter"):
        game.play("take x")
    with pytest.raises(IllegalMove, match="a rank 1..9"):
        game.play("recruit 10")
    with pytest.raises(IllegalMove, match="no such move on this board"):
        game.play("A5-O5")
    with pytest.raises(ValueError, match=r"action must be in \[0, 3443\)"):
        game.play(99999)
    with pytest.raises(TypeError, match="int"):
        game.play(True)
    with pytest.raises(TypeError, match="float"):
        game.play(3.0)
    import numpy as np
    first = game.legal_actions()[0]
    assert game.action_to_move(np.int64(first)) == game.action_to_move(first)
    game.clone().play(np.int16(first))
    with pytest.raises(TypeError, match="str"):
        game.move_to_action(3)
    with pytest.raises(ValueError, match="seat"):
        game.to_text(7)
    assert isinstance(IllegalMove("x"), ValueError)


def test_bad_settings(tmp_path):
    with pytest.raises(ValueError, match=r"back_and_forth must be in \[1, 50\]"):
        Game(back_and_forth=0)
    with pytest.raises(ValueError, match="unknown castle setting 'bogus'"):
        Game(bogus=1)
    with pytest.raises(ValueError, match="mode must be one of"):
        Game("ffa5")
    with pytest.raises(TypeError, match="abandon"):
        Game(abandon="yes")
    with pytest.raises(ValueError, match="first_seat must be below the 3 seats"):
        Game("ffa3", first_seat=3)
    with pytest.raises(ValueError, match="unknown variant 'nope'"):
        Game(variant="nope")
    with pytest.raises(ValueError, match="seed"):
        Game(seed=-1)
    for node in (-1, 146, 2**70, "F8", True):
        with pytest.raises(ValueError, match=r"node must be a node number in \[0, 146\)"):
            Game("ffa4").node_name(node)
    assert Game("ffa4").node_name(145) == "turret"
    path = tmp_path / "bad.toml"
    path.write_text('[castle]\nmode = "ffa4"\ncolour = 3\n')
    with pytest.raises(ValueError, match="bad.toml: unknown castle setting 'colour'"):
        Game(variant=path)
    path.write_text("[castle\n")
    with pytest.raises(ValueError, match="not valid TOML"):
        Game(variant=str(path))
    with pytest.raises(ValueError, match="does not exist"):
        Game(variant=tmp_path / "missing.toml")


def test_bad_text():
    good = board({"D4": "n9", "H1": "n7n", "O8": "e4e"})
    assert Game.from_text(good).piece("D4") == ("n", 9, None)
    lines = good.splitlines()
    row4 = next(i for i, l in enumerate(lines) if l.startswith(" 4 "))
    cases = {
        "lacks row 4": "\n".join(l for i, l in enumerate(lines) if i != row4),
        f"line {row4 + 1}: D4: cannot read x9": good.replace(" n9 ", " x9 "),
        f"line {row4 + 1}: row 4 has 14 cells": good.replace(" 4 - - - n9", " 4 - - n9"),
        "unknown header colour": "colour: red\n" + good,
        "flag of s is nowhere": good.replace("s@H15", ""),
        "has only 1 piece": good.replace(" 4 - - - n9 .", " 4 - - - n9 n9"),
        "must read ~": good.replace(" ~ ", " . ", 1),
        "settings' mode is ffa4": good.replace("mode: ffa4", "mode: ffa3"),
        "no ?": good.replace(" n9 ", " n? "),
        "a slider is 0..5": good.replace("ring:", "sliders: n=6\nring:"),
    }
    for message, text in cases.items():
        with pytest.raises(ValueError, match=message):
            Game.from_text(text, mode="ffa4")
    with pytest.raises(TypeError):
        Game.from_text(b"mode: ffa4")


def test_a_text_board_gives_each_header_once_and_no_result():
    """A repeated header line won silently (the later one), and a `result:` line was
    read as nothing: both are refused naming the line (issue 26, item 5)."""
    good = board({"D4": "n9", "H1": "n7n", "O8": "e4e"})
    lines = good.splitlines()
    at = {line.split(":")[0]: i + 1 for i, line in enumerate(lines) if ":" in line}
    for key, value in (("to_move", "e"), ("ring", "."), ("lone", ""), ("mode", "ffa4")):
        twice = good + f"{key}: {value}\n"
        last = len(lines) + 1
        with pytest.raises(ValueError, match=rf"^line {last}: {key}: given twice \(first on line {at[key]}\); "
                                             "expected each header once$"):
            Game.from_text(twice)
    changed = good.replace("to_move: n", "to_move: n\nsliders: n=1\nsliders: n=2")
    with pytest.raises(ValueError, match=r"sliders: given twice"):
        Game.from_text(changed)
    over = Game.from_text(board({"ring": "n5n", "O8": "e4e", "H15": "s4s", "A8": "w4w"}))
    over.play("ring-turret")
    assert over.done and "result:" in over.to_text()
    result_line = over.to_text().splitlines().index(next(l for l in over.to_text().splitlines()
                                                         if l.startswith("result:"))) + 1
    with pytest.raises(ValueError, match=rf"^line {result_line}: result: n wins \(turret\): from_text reads a game "
                                         "in play; expected no result line$"):
        Game.from_text(over.to_text())
    with pytest.raises(ValueError, match="expected no result line"):
        Game.from_text(good + "result: draw (stuck)\n")


def test_back_and_forth_and_ply_fields_are_checked():
    """A state or text whose A10 count or ply no game could reach is refused: a count above
    the limit, ends that are no move of the piece, a ply at the cap."""
    from stratego import _core

    text = board({"D4": "n5n", "L4": "n4"})
    game = Game.from_text(text, back_and_forth=3)
    game.play("D4-D5")
    settings, state = game.__reduce__()[1]
    # rep_count[0] in castle.h's field order: rng, board, node/carry/known, flags, sliders, removed, rep_*.
    count_at = 8 + 146 + 3 * 80 + 3 * 4 + 4 + 4 * 10 + 3 * 4
    assert state[count_at] == 1
    for count, ok in ((3, True), (4, False)):
        bad = bytearray(state)
        bad[count_at] = count
        if ok:
            _core.CastleGame.from_state(settings, bytes(bad))
        else:
            with pytest.raises(ValueError, match=r"back-and-forth count 4 is not in \[1, 3\]"):
                _core.CastleGame.from_state(settings, bytes(bad))
    with pytest.raises(ValueError, match="count 1..3"):
        Game.from_text(text.replace("ring:", "repeat: n=D4:D5:4\nring:"), back_and_forth=3)
    with pytest.raises(ValueError, match="no move of its piece"):
        Game.from_text(text.replace("ring:", "repeat: n=D4:E5:1\nring:"))
    assert Game.from_text(text.replace("ring:", "repeat: n=D4:D5:2\nring:")).to_text().count("n=D4:D5:2") == 1
    with pytest.raises(ValueError, match="max_plies 3000"):
        Game.from_text(text.replace("ring:", "ply: 3000\nring:"))
    far = Game.from_text(text.replace("ring:", "ply: 4000000\nring:"), max_plies=0)
    assert Game.from_text(far.to_text(), max_plies=0).ply == 4000000


def test_mangled_text_and_states_raise_or_load():
    """Hostile input: random edits of a text board and random bytes in a state either load
    as a valid game or raise ValueError, never crash or load something inconsistent."""
    from stratego import _core

    rng = random.Random(5)
    game, _ = _random_game("ffa4", 3, 120)
    while game.phase != "move":
        game.play(game.legal_actions()[0])
    text = game.to_text()
    alphabet = "nesw0123456789?.~-OT:@!,= \nx"
    loaded = 0
    for _ in range(300):
        chars = list(text)
        for _ in range(rng.randint(1, 4)):
            chars[rng.randrange(len(chars))] = rng.choice(alphabet)
        try:
            copy = Game.from_text("".join(chars))
        except ValueError:
            continue
        loaded += 1
        copy.legal_moves()
        pickle.loads(pickle.dumps(copy))
    assert 0 < loaded < 300
    settings, state = game.__reduce__()[1]
    for _ in range(300):
        bad = bytearray(state)
        for _ in range(rng.randint(1, 3)):
            bad[rng.randrange(len(bad))] = rng.randrange(256)
        try:
            core = _core.CastleGame.from_state(settings, bytes(bad))
        except ValueError:
            continue
        for action in core.legal_actions()[:20]:
            core.clone().apply(action)


def test_text_round_trip_and_notation_round_trip():
    game, _ = _random_game("ffa4", 9, 200)
    while game.phase != "move":
        game.play(game.legal_actions()[0])
    again = Game.from_text(game.to_text())
    assert again.to_text() == game.to_text() and again.legal_moves() == game.legal_moves()
    for action in game.legal_actions():
        assert game.move_to_action(game.action_to_move(action)) == action


# ------------------------------------------------------------------ random-game invariants


@pytest.mark.parametrize("mode", MODES)
def test_random_game_invariants(mode):
    """Over random games: 20 pieces a seat on the board or in the removed pile, at most one
    piece on the ring and on the turret, every flag accounted for (carried by the piece
    on its node, or alone), sliders 0..5, a legal move whenever the game runs."""
    for seed in range(2):
        game = Game(mode, seed=seed, max_plies=400)
        rng = random.Random(seed)
        letters = game.seat_letters
        nodes = geometry(mode)["nodes"]
        while not game.done:
            on_board = {k: 0 for k in letters}
            for n in range(nodes):
                p = game.piece(n)
                if p:
                    on_board[p[0]] += 1
            for k in letters:
                assert on_board[k] + len(game.removed[k]) == 20
            text = game.to_text()
            assert text.count("\nring: ") == 1 and text.count("\nturret: ") == 1
            for k, (node, carrier, abandoned) in game.flags().items():
                if carrier is None:
                    assert game.lone_flags()[k][0] == node
                else:
                    assert game.piece(node)[2] == k and not abandoned
            assert all(0 <= v <= 5 for v in game.sliders.values())
            legal = game.legal_actions()
            assert legal
            game.play(rng.choice(legal))
        assert game.end_reason in ("turret", "stuck", "cap")


# ------------------------------------------------------------------ the C core alone


@pytest.mark.deep  # under sanitizers, a minute of CPU: .ci/run's layer
def test_c_core_random_games_under_sanitizers():
    """tests/c/castle_main.c: every mode and every switch flipped, random games checked after
    each decision (state check, list/mask/check agreement, text round trip, determinism)."""
    from cbuild import CSRC, build_checked, run_checked

    sources = [Path(__file__).resolve().parent / "c" / "castle_main.c", *sorted((CSRC / "castle").glob("*.c"))]
    program = build_checked("castle-core", {"castle_main": sources})["castle_main"]
    done = run_checked(program, "3", timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert done.stdout.splitlines()[-1] == "ok"
    assert "shots" in done.stdout and "recruits" in done.stdout
