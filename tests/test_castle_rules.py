"""The 14 questions of CASTLE.md section 4, each as rule tests on boards drawn in ASCII
(the text board of docs/castle.md), run against both implementations: the plain-Python
reference (castle_reference.py) and the engine (stratego.castle.Game; skipped, with the
reason, while the module is missing). Each test names the question and cites the rule.

Column letters, for reading the drawings:  A B C D E F G H I J K L M N O.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from castle_boards import IMPLEMENTATIONS, board, implementation, parse  # noqa: E402
import castle_reference as ref  # noqa: E402

N, E, S, W = 0, 1, 2, 3
FLAG_SPACES = {"n": "H1", "e": "O8", "s": "H15", "w": "A8"}


@pytest.fixture(params=IMPLEMENTATIONS)
def impl(request):
    return implementation(request.param)


def lone(*seats: str) -> str:
    """Each named seat's flag lying alone on its flag start space."""
    return " ".join(f"{x}@{FLAG_SPACES[x]}" for x in seats)


def game(impl, mode: str, drawing: str = "", settings: dict | None = None, **header):
    return impl.from_text(board(mode, drawing, **header), variant=mode, **(settings or {}))


def moves_from(g, node: str) -> set[str]:
    """The legal moves of the piece on `node` (steps, lines, attacks, drops, shots)."""
    return {m for m in g.legal_moves() if m.split()[0].replace("x", "-").replace("*", "-").split("-")[0] == node}


def cells(g, seat: int | None = None) -> dict:
    return parse(g.to_text(seat))["cells"]


def at(g, node: str) -> str:
    """The full board's token on a node, seat letters in lower case ('.' empty)."""
    return cells(g)[node].lower()


def lone_flags(g) -> set[str]:
    return set(parse(g.to_text())["lone"].split())


def removed(g) -> dict:
    return {x: sorted(ranks) for x, ranks in g.removed.items()}


# -- 1. 144 spaces + ring + turret; ring neighbours 12 (4p), 9 (3p) --------------------

RING_4P = ["G6", "H6", "I6", "F7", "F8", "F9", "J7", "J8", "J9", "G10", "H10", "I10"]
RING_3P = ["G6", "H6", "I6", "F7", "F8", "F9", "J7", "J8", "J9"]


@pytest.mark.parametrize("mode,spaces,ring", [("ffa4", 144, RING_4P), ("teams4", 144, RING_4P),
                                              ("ffa3", 120, RING_3P)])
def test_q1_nodes_and_ring_neighbours(impl, mode, spaces, ring):
    # [A1], [A2], [A4]: a piece alone on the ring steps to each space touching it and to
    # the turret; the board has `spaces` ordinary spaces besides ring and turret.
    g = game(impl, mode, ring="n5", lone=lone(*ref.GEOMETRY[3 if mode == "ffa3" else 4].seats))
    assert sorted(g.legal_moves()) == sorted([f"ring-{x}" for x in ring] + ["ring-turret"])
    assert len(cells(g)) == spaces + 2
    # The 3-player board has no rows 13-15 and lakes on G10-I10 ([A2]).
    assert ("H13" in cells(g)) == (mode != "ffa3") and ("G10" in cells(g)) == (mode != "ffa3")


def test_q1_neighbours_of_spaces_beside_lakes_and_castle(impl):
    # [SEED] 5: one space orthogonally, never into a lake; F8 touches the ring, not G8.
    g = game(impl, "ffa4", """
 1  -   -   -   -   n4  .   .   .   .   .   .   -   -   -   -
 8  .   .   .   .   ~   n4  O   T   O   .   ~   .   .   .   .
""", lone=lone("n", "e", "s", "w"))
    assert moves_from(g, "F8") == {"F8-F7", "F8-F9", "F8-ring"}
    assert moves_from(g, "E1") == {"E1-F1", "E1-E2"}


def drawing_in(path: Path) -> str:
    """The first drawing of the A1 board (the block under the column letters) in a file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.split() == list(ref.COLUMNS))
    return "\n".join(lines[start:start + 16]) + "\n"


# The rules' file lives in the project's shared notes, beside the data folder of
# conftest.py (STRATEGO_DATA_DIR's parent), outside the repository.
SHARED = Path(os.environ["STRATEGO_DATA_DIR"]).parent if "STRATEGO_DATA_DIR" in os.environ else None
RULES_FILES = [SHARED / "CASTLE.md"] if SHARED else []
RULES_FILES += [Path(__file__).resolve().parents[k] / "shared" / "CASTLE.md" for k in (2, 3)]


DOCS = Path(__file__).resolve().parents[1] / "docs"


@pytest.mark.parametrize("path", ["CASTLE.md", DOCS / "castle-rules.md", DOCS / "castle.md"],
                         ids=["CASTLE.md", "docs-castle-rules.md", "docs-castle.md"])
def test_q1_reference_board_is_the_drawing_of_a1(path):
    # The reference's board is A1's drawing, copied.
    if path == "CASTLE.md":
        path = next((p for p in RULES_FILES if p.exists()), None)
        if path is None:
            pytest.skip(f"CASTLE.md (the project's shared notes) is not in any of {RULES_FILES}: put shared/ beside "
                        "the checkout, or set STRATEGO_DATA_DIR to shared/data")
    elif not path.exists():
        pytest.skip(f"{path} is not here")
    assert drawing_in(path) == ref.DRAWING_4P


# -- 2. Setup: 20 pieces, recruitment space empty, flag on the flag start space ----------


@pytest.mark.parametrize("mode", ["ffa4", "teams4", "ffa3"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_q2_setup(impl, mode, seed):
    # [SEED] 3, [A1], [A3]: each seat fills its zone but the recruitment space; the piece
    # on the flag start space carries the seat's flag; nothing else is on the board.
    g = impl(mode, seed=seed)
    geo = ref.GEOMETRY[3 if mode == "ffa3" else 4]
    board_cells = cells(g)
    for x in geo.seats:
        zone = geo.zones[x]
        mine = {node: tok for node, tok in board_cells.items() if tok[0].lower() == x}
        assert set(mine) == zone - {geo.recruit_space[x]}
        ranks = sorted(int(tok[1:].rstrip("nesw")) for tok in mine.values())
        assert ranks == sorted(r for r, c in ref.PIECE_COUNTS.items() for _ in range(c))
        carriers = {node for node, tok in mine.items() if tok[-1] in "nesw"}
        assert carriers == {geo.flag_space[x]} and mine[geo.flag_space[x]].endswith(x)
    assert sum(tok != "." for tok in board_cells.values()) == 20 * len(geo.seats)
    assert board_cells["ring"] == board_cells["turret"] == "."
    assert set(g.sliders.values()) == {0} and all(r == [] for r in g.removed.values())
    assert lone_flags(g) == set() and g.to_play == 0 and g.phase == "move"


@pytest.mark.parametrize("mode,first", [("ffa4", 3), ("ffa3", 2), ("teams4", 1)])
def test_q2_first_seat_then_clockwise(impl, mode, first):
    # [SEED] 2 (section 2 "The youngest player starts; play goes clockwise"): the first
    # seat is a setting; then each seat in clockwise order.
    g = impl(mode, seed=5, first_seat=first)
    seats = 3 if mode == "ffa3" else 4
    order = []
    for _ in range(seats + 1):
        order.append(g.to_play)
        g.play(sorted(g.legal_moves())[0])
    assert order == [(first + k) % seats for k in range(seats + 1)]


# -- 3. The ring holds one piece; turret only via the ring; leaving it needs an empty ring


def test_q3_ring_and_turret(impl):
    # [SEED] 5, [A4]: the ring is one space holding one piece; the turret touches only
    # the ring; a piece on the turret leaves only onto an empty ring.
    g = game(impl, "ffa4", """
 8  .   .   .   .   ~   n4  O   T   O   e5  ~   .   .   .   .
""", to_move="e", ring="n5", turret="n7", lone=lone("n", "e", "s", "w"))
    assert sorted(g.legal_moves()) == ["J8-J7", "J8-J9", "J8xring"]
    g.play("J8-J9")
    assert g.to_play == N  # s and w have no pieces: skipped
    assert sorted(g.legal_moves()) == sorted(
        ["F8-F7", "F8-F9"] + [f"ring-{x}" for x in ("G6", "H6", "I6", "F7", "J7", "J8", "F9", "G10", "H10", "I10")]
        + ["ringxJ9"])
    g.play("ring-G6")
    assert sorted(g.legal_moves()) == ["J9-J10", "J9-J8", "J9-ring"]
    g.play("J9-J10")
    assert "turret-ring" in g.legal_moves() and "F8-ring" in g.legal_moves()
    assert not any("turret" in m for m in g.legal_moves() if not m.startswith("turret"))


# -- 4. Captain: turn, ring pass-through, stop after winning on step one, attack on step two

CAPTAIN = """
 6  .   .   .   .   .   e7  .   .   .   .   .   .   .   .   .
 8  .   .   .   .   ~   n6  O   T   O   .   ~   .   .   .   .
 9  .   .   .   .   ~   e4  O   O   O   .   ~   .   .   .   .
"""


def test_q4_captain_moves(impl):
    # [SEED] 7, [A5]: up to two spaces, turning after the first, through the empty ring
    # (to the turret too); an attack on step two; a move is named by its end nodes.
    g = game(impl, "ffa4", CAPTAIN, lone=lone("n", "e", "s", "w"))
    assert sorted(g.legal_moves()) == sorted(
        ["F8-F7", "F8-ring", "F8xF9", "F8xF6", "F8-turret"]
        + [f"F8-{x}" for x in ("G6", "H6", "I6", "J7", "J8", "J9", "G10", "H10", "I10")])


def test_q4_captain_stops_after_winning_on_step_one(impl):
    g = game(impl, "ffa4", CAPTAIN, lone=lone("n", "e", "s", "w"))
    g.play("F8xF9")
    assert at(g, "F9") == "n6" and at(g, "F8") == "." and g.to_play == E
    assert g.sliders["n"] == 1 and removed(g)["e"].count(4) == 3


def test_q4_captain_attacks_on_step_two(impl):
    g = game(impl, "ffa4", CAPTAIN, lone=lone("n", "e", "s", "w"))
    g.play("F8xF6")  # through F7; the Major wins the defence
    assert at(g, "F6") == "e7" and at(g, "F8") == "." and at(g, "F7") == "."
    assert g.sliders == {"n": 0, "e": 1, "s": 0, "w": 0} and g.to_play == E


# -- 5. Scout: no crossing lakes or castle; attack at the end of its move or not ---------

SCOUTS = """
 4  -   -   -   e5  .   .   .   .   .   .   .   .   -   -   -
 8  .   n4  .   n3  ~   .   O   T   O   .   ~   .   .   .   .
10  .   .   .   .   .   .   n3  .   .   .   .   .   .   .   .
"""


@pytest.mark.parametrize("line_attack", [1, 0])
def test_q5_scout_lines(impl, line_attack):
    # [SEED] 8, [A5]: empty spaces in a straight line, stopped by lakes, pieces and castle
    # cells; the ring only by a single step; an attack at the end of a line if the
    # setting `scout_line_attack` allows it.
    g = game(impl, "ffa4", SCOUTS, settings={"scout_line_attack": line_attack}, lone=lone("n", "e", "s", "w"))
    expected = {"D8-D7", "D8-D6", "D8-D5", "D8-D9", "D8-D10", "D8-D11", "D8-D12", "D8-C8"}
    if line_attack:
        expected.add("D8xD4")
    assert moves_from(g, "D8") == expected
    assert moves_from(g, "G10") == {"G10-ring"} | {f"G10-{c}10" for c in "ABCDEFHIJKLMNO"}


def test_q5_scout_line_attack_is_a_fight(impl):
    g = game(impl, "ffa4", SCOUTS, lone=lone("n", "e", "s", "w"))
    g.play("D8xD4")
    assert at(g, "D8") == "." and at(g, "D4") == "e5" and g.sliders["e"] == 1


@pytest.mark.parametrize("move,takes", [("D8-D5", False), ("D8-D6", True), ("F8-F6", False), ("F8-F7", True)])
def test_q5_lines_and_two_steps_pass_over_lone_flags(impl, move, takes):
    # A lone flag is a marker, no piece ([A3], [A8]): a Scout's line and a Captain's first
    # step pass over it (its space is empty), and only a piece ending there may take it.
    g = game(impl, "ffa4", """
 5  .   .   .   .   .   .   ~   ~   ~   .   .   .   .   .   e3
 8  .   .   .   n3  ~   n6  O   T   O   .   ~   .   .   .   .
""", lone="n@F7 e@D6 s@H15 w@A8")
    assert move in g.legal_moves()
    g.play(move)
    assert (g.phase == "take") == takes and g.to_play == (N if takes else E)


# -- 6. Cannon ---------------------------------------------------------------------------

CANNONS = """
 5  .   .   .   e4  .   .   ~   ~   ~   .   .   .   .   .   .
 8  w7w n5  .   n1  ~   .   O   T   O   .   ~   .   .   .   .
10  .   .   .   e6  .   .   n1  .   .   .   .   .   .   .   .
"""


@pytest.mark.parametrize("over_lakes", [1, 0])
def test_q6_cannon_targets(impl, over_lakes):
    # [SEED] 10, [A7]: a rival exactly 3 away in a line; a piece or a castle cell between
    # blocks (G10 cannot fire over G9-G8), a lake does not (D8 over E8 to the ring) unless
    # the setting says so; e6 on D10 is 2 away; B8 (own) blocks the shot at A8.
    g = game(impl, "ffa4", CANNONS, settings={"cannon_over_lakes": over_lakes},
             ring="e5s", lone=lone("n", "e"))
    shots = {m for m in g.legal_moves() if "*" in m}
    assert shots == ({"D8*D5", "G10*D10", "D8*ring"} if over_lakes else {"D8*D5", "G10*D10"})


def test_q6_shot_removes_both_and_leaves_the_flag(impl):
    g = game(impl, "ffa4", CANNONS, ring="e5s", lone=lone("n", "e"))
    before = removed(g)
    g.play("D8*ring")
    assert at(g, "D8") == "." and at(g, "ring") == "."
    assert "s@ring" in lone_flags(g)  # lost to a shot: lone, not abandoned ([A7], [A8])
    after = removed(g)
    assert after["n"] == sorted(before["n"] + [1]) and after["e"] == sorted(before["e"] + [5])
    assert g.sliders["n"] == 1 and g.to_play == E


def test_q6_no_melee_no_shot_from_the_castle_turret_never_a_target(impl):
    # [A6] a cannon never attacks an adjacent piece; [A7] no shot from the castle (I7 ->
    # L7 would be 3 cells over J7 and a lake), the turret is never a target (H4 over H5,
    # H6 reaches only the empty ring's cell H7).
    g = game(impl, "ffa4", """
 4  -   -   -   .   .   .   .   n1  .   .   .   .   -   -   -
 5  .   .   .   .   .   e5  ~   ~   ~   .   .   .   .   .   .
 6  .   .   .   .   .   n1  .   .   .   .   .   .   .   .   .
 7  .   .   .   .   ~   .   O   O   O   .   ~   e6  .   .   .
""", turret="e4", lone=lone("n", "e", "s", "w"))
    assert not any("*" in m or "x" in m for m in g.legal_moves())
    g = game(impl, "ffa4", """
 5  .   .   .   .   .   e5  ~   ~   ~   .   .   .   .   .   .
 6  .   .   .   .   .   n1  .   .   .   .   .   .   .   .   .
 7  .   .   .   .   ~   .   O   O   O   .   ~   e6  .   .   .
""", ring="n1", turret="e4", lone=lone("n", "e", "s", "w"))
    assert not any("*" in m or "x" in m for m in g.legal_moves())
    assert moves_from(g, "ring") == {f"ring-{x}" for x in RING_4P}


# -- 7. Tie: both removed, no slider step, flag left alone, picking it up recruits nobody


def test_q7_tie(impl):
    # [SEED] 6: equal ranks remove both; [A9] a tie moves no slider; [A8] the carrier's
    # flag stays alone where it stood, not abandoned, so taking it gives no recruitment
    # although s's recruitment space is free and its pile is not empty.
    g = game(impl, "ffa4", """
 5  .   .   .   .   s4  e5e ~   ~   ~   .   .   .   .   .   .
 6  .   .   .   .   .   n5  .   .   .   .   .   .   .   .   .
11  w3  .   .   .   .   .   ~   ~   ~   .   .   .   .   .   .
""", sliders="n=2 e=3", lone=lone("n", "s", "w"))
    before = removed(g)
    g.play("F6xF5")
    assert at(g, "F5") == "." and at(g, "F6") == "."
    assert g.sliders == {"n": 2, "e": 3, "s": 0, "w": 0}
    assert "e@F5" in lone_flags(g)
    assert removed(g)["n"] == sorted(before["n"] + [5]) and removed(g)["e"] == sorted(before["e"] + [5])
    assert g.to_play == S  # e has no piece left
    g.play("E5-F5")
    assert g.phase == "take" and g.to_play == S and sorted(g.legal_moves()) == ["leave", "take e"]
    g.play("take e")
    assert at(g, "F5") == "s4e" and g.phase == "move" and g.to_play == W


# -- 8. Slider: +1 for a winning defender; at 6 recruit and reset; occupied -> lost ----

SLIDER = """
 5  .   .   w8  n7  .   .   ~   ~   ~   .   .   .   .   .   e4
 8  w2w .   .   .   ~   .   O   T   O   .   ~   .   .   .   .
"""


def test_q8_winning_defender_recruits_at_six(impl):
    # [SEED] 6, 12 (1), [A9]: the winner of a fight, defender included, moves its slider
    # up; at 6 it recruits at once (one of its removed ranks, or none) on its recruitment
    # space, the slider back to 0; then play goes on clockwise from the mover.
    g = game(impl, "ffa4", SLIDER, sliders="w=5", lone=lone("n", "e", "s"))
    g.play("D5xC5")
    assert g.phase == "recruit" and g.to_play == W and g.sliders["w"] == 0
    assert sorted(g.legal_moves()) == sorted([f"recruit {r}" for r in (9, 7, 6, 5, 4, 3, 1)] + ["recruit none"])
    g.play("recruit 6")
    assert at(g, "B8") == "w6" and cells(g)["B8"] == "W6"  # recruited in public ([A9])
    assert g.phase == "move" and g.to_play == E and removed(g)["w"].count(6) == 2


def test_q8_occupied_recruitment_space_loses_the_chance(impl):
    g = game(impl, "ffa4", SLIDER.replace("w2w .", "w2w w3"), sliders="w=5", lone=lone("n", "e", "s"))
    g.play("D5xC5")
    assert g.phase == "move" and g.to_play == E and g.sliders["w"] == 0


def test_q8_winning_attacker_recruits_at_six(impl):
    g = game(impl, "ffa4", SLIDER.replace("w8  n7", "w4  n7"), sliders="n=5", lone=lone("n", "e", "s"))
    g.play("D5xC5")
    assert g.phase == "recruit" and g.to_play == N and g.sliders["n"] == 0
    assert sorted(g.legal_moves()) == sorted([f"recruit {r}" for r in range(1, 10)] + ["recruit none"])


# -- 9. Beating a carrier / picking up an abandoned rival flag recruits for the capturer -

CARRIER = """
 5  .   .   .   .   .   e4{flag} ~  ~   ~   .   .   .   .   .   .
 6  .   .   .   .   .   n7  .   .   .   .   .   .   .   .   .
13  -   -   -   -   .   .   .   s3  .   .   .   -   -   -   -
"""


def carrier_game(impl, mode, flag, **kw):
    others = [x for x in "nesw" if x != flag]
    return game(impl, mode, CARRIER.replace("{flag}", flag), lone=lone(*others), **kw)


def test_q9_beating_a_rival_carrier_recruits(impl):
    # [SEED] 12 (2), [A8], [A9]: the attacker takes the flag at once and its seat recruits.
    g = carrier_game(impl, "ffa4", "e")
    g.play("F6xF5")
    assert at(g, "F5") == "n7e" and g.sliders["n"] == 1
    assert g.phase == "recruit" and g.to_play == N
    assert sorted(g.legal_moves()) == sorted([f"recruit {r}" for r in range(1, 10)] + ["recruit none"])
    g.play("recruit 9")
    assert at(g, "H2") == "n9" and g.to_play == S  # e has no piece left


@pytest.mark.parametrize("mode,flag", [("ffa4", "n"), ("teams4", "s")])
def test_q9_own_or_partner_flag_recruits_nobody(impl, mode, flag):
    g = carrier_game(impl, mode, flag)
    g.play("F6xF5")
    assert at(g, "F5") == f"n7{flag}" and g.phase == "move" and g.to_play == S


def test_q9_flag_owner_recruits_with_the_setting(impl):
    g = carrier_game(impl, "ffa4", "e", settings={"flag_recruit_owner": 1})
    g.play("F6xF5")
    assert g.phase == "recruit" and g.to_play == E
    g.play("recruit 4")
    assert at(g, "N8") == "e4" and g.to_play == E  # clockwise from the mover n: e moves


def test_q9_one_chance_a_turn_flag_case_first(impl):
    # [A9]: with the flag's owner recruiting, n's winning attack on e's carrier earns e a
    # chance (flag case) and n one (slider at 6): only the flag case is used; n's
    # slider still returns to 0.
    g = carrier_game(impl, "ffa4", "e", settings={"flag_recruit_owner": 1}, sliders="n=5")
    g.play("F6xF5")
    assert g.phase == "recruit" and g.to_play == E and g.sliders["n"] == 0
    g.play("recruit none")
    assert g.phase == "move" and g.to_play == S


def test_q9_a_lost_flag_chance_still_loses_the_slider_chance(impl):
    # [A9] and docs/castle.md: the flag case comes first; when it cannot be used (e's
    # recruitment space N8 is held) the turn's slider chance is lost all the same.
    drawing = CARRIER.replace("{flag}", "e") + """
 8  .   .   .   .   ~   .   O   T   O   .   ~   .   .   e3  .
"""
    g = game(impl, "ffa4", drawing, settings={"flag_recruit_owner": 1}, sliders="n=5",
             lone=lone("n", "s", "w"))
    g.play("F6xF5")
    assert g.phase == "move" and g.to_play == E and g.sliders["n"] == 0


@pytest.mark.parametrize("choice,recruits", [("take e", True), ("leave", False)])
def test_q9_picking_up_an_abandoned_rival_flag_recruits(impl, choice, recruits):
    # [A8] a carrier may leave its flag behind, marked abandoned; [A9] whoever picks up
    # a rival's abandoned flag recruits.
    g = carrier_game(impl, "ffa4", "e", to_move="e")
    g.play("F5-E5 drop")
    assert "e@F5!" in lone_flags(g) and at(g, "E5") == "e4" and g.to_play == S
    g.play("H13-H12")
    assert g.to_play == N
    g.play("F6-F5")
    assert g.phase == "take" and sorted(g.legal_moves()) == ["leave", "take e"]
    g.play(choice)
    assert (g.phase == "recruit" and g.to_play == N) == recruits
    if not recruits:
        assert g.to_play == E and "e@F5!" in lone_flags(g)


def test_q9_own_abandoned_flag_recruits_nobody(impl):
    g = game(impl, "ffa4", """
 5  .   .   .   .   n4n .   ~   ~   ~   .   .   .   .   .   e3
""", lone=lone("e", "s", "w"))
    g.play("E5-F5 drop")
    g.play("O5-O6")
    g.play("F5-E5")
    assert sorted(g.legal_moves()) == ["leave", "take n"]
    g.play("take n")
    assert g.phase == "move" and g.to_play == E and at(g, "E5") == "n4n"


# -- 10. Carriers move one space even as Scout or Captain; one flag per piece ------------


def test_q10_carriers_move_one_space(impl):
    # [SEED] 11, [A5]: a carrier moves one space, whatever its rank; [A8] drops go only
    # onto an empty node (docs/castle.md).
    g = game(impl, "ffa4", """
 5  .   .   .   .   .   e4  ~   ~   ~   .   .   .   .   .   .
 6  .   .   .   .   .   n6e .   .   .   .   .   .   .   .   .
 8  .   .   .   n3n ~   .   O   T   O   .   ~   .   .   .   .
""", lone=lone("s", "w"))
    steps = {"D8-D7", "D8-D9", "D8-C8"}
    assert moves_from(g, "D8") == steps | {f"{m} drop" for m in steps}
    steps = {"F6-E6", "F6-G6", "F6-F7"}
    assert moves_from(g, "F6") == steps | {f"{m} drop" for m in steps} | {"F6xF5"}


def test_q10_no_drops_without_the_setting(impl):
    g = game(impl, "ffa4", """
 8  .   .   .   n3n ~   .   O   T   O   .   ~   .   .   .   .
""", settings={"abandon": 0}, lone=lone("e", "s", "w"))
    assert moves_from(g, "D8") == {"D8-D7", "D8-D9", "D8-C8"}


def test_q10_one_flag_per_piece(impl):
    # [A8] a winner already carrying a flag leaves the beaten carrier's flag alone there;
    # no take decision for a carrier, no recruitment (the flag was not taken).
    text = board("ffa4", CARRIER.replace("{flag}", "e").replace("n7 ", "n7n"), lone=lone("s", "w"))
    g = impl.from_text(text, variant="ffa4")
    g.play("F6xF5")
    assert at(g, "F5") == "n7n" and "e@F5" in lone_flags(g)
    assert g.phase == "move" and g.to_play == S


def test_q10_carrier_losing_an_attack_leaves_its_flag_where_it_stood(impl):
    # [A8]: a carrier removed as attacker leaves its flag alone on the space it attacked
    # from; in a tie of two carriers each flag stays where its carrier stood.
    g = game(impl, "ffa4", """
 5  .   .   .   .   .   e7  ~   ~   ~   .   .   .   .   .   .
 6  .   .   .   .   .   n4n .   .   .   .   .   .   .   .   .
 8  .   .   .   .   ~   .   O   T   O   .   ~   .   e5e n5s .
""", lone=lone("w"))
    g.play("F6xF5")
    assert at(g, "F6") == "." and at(g, "F5") == "e7" and "n@F6" in lone_flags(g)
    g.play("M8xN8")
    assert at(g, "M8") == "." and at(g, "N8") == "." and {"e@M8", "s@N8"} <= lone_flags(g)


def test_q10_shooting_carrier_and_pick_up_under_a_beaten_piece(impl):
    # [A7], [A8] and docs/castle.md: a cannon carrying a flag may fire; both flags lie
    # alone where their carriers stood. A piece that beats a non-carrier standing on a
    # lone flag may then take that flag (it entered a space with a lone flag).
    g = game(impl, "ffa4", """
 4  -   -   -   n1n .   .   e4e .   .   .   .   .   -   -   -
 5  .   .   .   .   .   .   ~   ~   ~   .   .   .   .   .   e4
10  .   .   .   .   .   n7  e3  .   .   .   .   .   .   .   .
""", lone="s@G10 w@A8")
    g.play("D4*G4")
    assert at(g, "D4") == "." and at(g, "G4") == "." and {"n@D4", "e@G4"} <= lone_flags(g)
    g.play("O5-O6")
    g.play("F10xG10")
    assert at(g, "G10") == "n7" and g.phase == "take" and sorted(g.legal_moves()) == ["leave", "take s"]


# -- 11. Win: own flag moved onto the turret; a partner's crowning wins for you too -----


@pytest.mark.parametrize("mode,to_move,carrier,turret,move,winners", [
    ("ffa4", "n", "n5n", ".", "ring-turret", (N,)),
    ("ffa4", "n", "n5n", "e4", "ringxturret", (N,)),
    ("ffa4", "n", "n5e", ".", "ring-turret", None),
    ("teams4", "s", "s5s", ".", "ring-turret", (N, S)),
    ("teams4", "n", "n5s", ".", "ring-turret", None),
])
def test_q11_crowning(impl, mode, to_move, carrier, turret, move, winners):
    # [SEED] 13, 15, [A4], [A11]: only a piece carrying its own seat's flag wins by moving
    # onto the turret; in teams both partners win.
    flag = carrier[-1]
    g = game(impl, mode, """
13  -   -   -   -   .   .   .   s3  .   .   .   -   -   -   -
 5  .   .   .   .   .   .   ~   ~   ~   .   .   .   .   .   e3
""", to_move=to_move, ring=carrier, turret=turret, lone=lone(*[x for x in "nesw" if x != flag]))
    g.play(move)
    if winners is None:
        assert not g.done and at(g, "turret") == carrier
    else:
        assert g.done and tuple(g.winners) == winners and g.end_reason == "turret"
        assert g.legal_moves() == []


def test_q11_taking_own_flag_on_the_turret_does_not_win(impl):
    # docs/castle.md: the win needs a move onto the turret with the flag (1.13).
    g = game(impl, "ffa4", """
 5  .   .   .   .   .   .   ~   ~   ~   .   .   .   .   .   e3
""", ring="n5", lone="n@turret " + lone("e", "s", "w"))
    g.play("ring-turret")
    assert g.phase == "take"
    g.play("take n")
    assert not g.done and at(g, "turret") == "n5n" and g.to_play == E


def test_q11_winning_own_flag_in_a_fight_on_the_turret_does_not_win(impl):
    # [SEED] 13: the piece must carry its own flag onto the turret; one that beats the
    # turret's carrier of its flag takes the flag there ([A8]) but carried none coming in,
    # as with a take decision on the turret (docs/castle.md "Where CASTLE.md is silent").
    g = game(impl, "ffa4", """
 5  .   .   .   .   .   .   ~   ~   ~   .   .   .   .   .   e3
""", ring="n5", turret="e4n", lone=lone("e", "s", "w"))
    g.play("ringxturret")
    assert not g.done and at(g, "turret") == "n5n" and g.phase == "move" and g.to_play == E


# -- 12. The 6th back-and-forth move is illegal; another piece's move resets the count ---

LOOPS = {E: ("O5", "O6", "N6", "N5"), S: ("E13", "F13", "F14", "E14"), W: ("A5", "A6", "B6", "B5")}


def idle(g) -> None:
    """The seat to move (not n) walks its one piece round a square: never back and forth."""
    loop = LOOPS[g.to_play]
    for i, node in enumerate(loop):
        if at(g, node) != ".":
            g.play(f"{node}-{loop[(i + 1) % 4]}")
            return
    raise AssertionError(f"no piece on {loop}")


def test_q12_back_and_forth_limit(impl):
    # [SEED] 5, [A10]: at most 5 moves in a row between the same two spaces, counting
    # only the player's own moves; a move of another of its pieces starts again.
    g = game(impl, "ffa4", """
 4  -   -   -   .   .   n4  .   .   .   n5  .   .   -   -   -
 5  w4  .   .   .   .   .   ~   ~   ~   .   .   .   .   .   e4
13  -   -   -   -   s4  .   .   .   .   .   .   -   -   -   -
""", lone=lone("n", "e", "s", "w"))
    path = ["F4-F5", "F5-F4", "F4-F5", "F5-F4", "F4-F5"]
    for move in path:
        assert move in g.legal_moves()
        g.play(move)
        for _ in range(3):
            idle(g)
    assert "F5-F4" not in g.legal_moves() and "F5-F6" in g.legal_moves()
    g.play("J4-J5")
    for _ in range(3):
        idle(g)
    assert "F5-F4" in g.legal_moves()


# -- 13. Seats without a legal move are skipped; all stuck -> draw -----------------------


def test_q13_stuck_seat_is_skipped(impl):
    # [A11]: e's cannon on O5 can neither step (N5, O6 held) nor fire (blocked).
    g = game(impl, "ffa4", """
 4  -   -   -   .   .   .   .   n5  .   .   .   .   -   -   -
 5  .   .   .   .   .   .   ~   ~   ~   .   .   .   .   n4  e1
 6  .   .   .   .   .   .   .   .   .   .   .   .   .   .   n4
13  -   -   -   -   .   .   .   s3  .   .   .   -   -   -   -
""", lone=lone("n", "e", "s", "w"))
    g.play("H4-H3")
    assert g.to_play == S
    g.play("H13-H12")
    assert g.to_play == N  # w has no piece


def test_q13_only_the_mover_can_move(impl):
    g = game(impl, "ffa3", """
 6  .   .   .   .   .   n5  .   .   .   .   .   .   .   .   .
""", lone=lone("n", "e", "w"))
    g.play("F6-F5")
    assert g.to_play == N and not g.done


def test_q13_nobody_can_move_is_a_draw(impl):
    g = game(impl, "ffa4", """
 5  .   .   .   .   .   e5  ~   ~   ~   .   .   .   .   .   .
 6  .   .   .   .   .   n5  .   .   .   .   .   .   .   .   .
""", lone=lone("n", "e", "s", "w"))
    g.play("F6xF5")
    assert g.done and tuple(g.winners) == () and g.end_reason == "stuck" and g.legal_moves() == []


def test_q13_ply_cap_is_a_draw(impl):
    # [A11] and docs/castle.md: after `max_plies` decisions the game is a draw.
    g = game(impl, "ffa3", """
 6  .   .   .   .   .   n5  .   .   .   .   .   .   .   .   .
""", settings={"max_plies": 12}, ply=10, lone=lone("n", "e", "w"))
    g.play("F6-F5")
    assert not g.done
    g.play("F5-F6")
    assert g.done and tuple(g.winners) == () and g.end_reason == "cap"


# -- 14. Views: partner ranks hidden; flags, sliders, removed piles visible -------------


def test_q14_views(impl):
    # [A12], [A6]: a seat sees its own ranks and those a fight showed; a partner's are
    # hidden; positions, flags, carriers, sliders and removed piles are public.
    g = game(impl, "teams4", """
 4  -   -   -   n3  .   .   .   .   .   .   .   .   -   -   -
 5  .   .   .   .   .   e4  ~   ~   ~   .   .   .   .   .   .
 6  .   .   .   .   .   n5  .   .   .   .   .   .   .   .   .
 7  .   .   .   .   ~   .   O   O   O   .   ~   e6e .   .   .
11  w3  .   .   .   .   .   ~   ~   ~   .   .   .   .   .   .
13  -   -   -   -   .   .   .   s4s .   .   .   -   -   -   -
""", sliders="e=2 w=4", lone="n@F4! w@A8")
    full = parse(g.to_text())
    view = parse(g.to_text(N))
    assert view["cells"]["H13"] == "s?s" and view["cells"]["L7"] == "e?e" and view["cells"]["A11"] == "w?"
    assert view["cells"]["F6"] == "n5" and view["cells"]["D4"] == "n3"
    assert parse(g.to_text(S))["cells"]["F6"] == "n?"
    for key in ("sliders", "removed", "lone"):
        assert view[key] == full[key]
    g.play("F6xF5")
    for seat in (N, E, S, W):
        seen = parse(g.to_text(seat))["cells"]
        assert seen["F5"] == "N5" and seen["D4"] == ("n3" if seat == N else "n?")


def test_q14_recruit_hidden_with_the_setting(impl):
    g = game(impl, "ffa4", SLIDER, settings={"recruit_public": 0}, sliders="w=5", lone=lone("n", "e", "s"))
    g.play("D5xC5")
    g.play("recruit 6")
    assert cells(g, W)["B8"] == "w6" and cells(g, N)["B8"] == "w?" and cells(g)["B8"] == "w6"
