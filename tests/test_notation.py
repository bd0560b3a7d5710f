"""One home for the classic notation (stratego.notation): Gravon's form for records and
play ("K:", "B4-B7", "6@F4"), people's form for boards, pages and `stratego serve`
("K10", "E4xE5", "6@F10"). Every other module formats and parses squares through it."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from stratego import notation
from stratego.notation import move_name, parse_move, parse_rescue, parse_square, rescue_name, square_name

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "stratego"


@pytest.mark.parametrize("sq", range(100))
def test_people_names_read_back(sq):
    assert parse_square(square_name(sq)) == sq == parse_square(notation.format_square(sq))
    assert parse_move(move_name(sq, 99 - sq)) == (sq, 99 - sq)
    assert parse_move(move_name(sq, 99 - sq, attack=True)) == (sq, 99 - sq)


def test_people_names():
    assert square_name(90) == "A10" and notation.format_square(90) == "A:"
    assert move_name(34, 44) == "E4-E5" and move_name(34, 44, attack=True) == "E4xE5"
    assert rescue_name("6", 95) == "6@F10" and parse_rescue(rescue_name("6", 95)) == (6, 95)
    assert rescue_name("?", 0) == "?@A1"


def test_the_notation_is_defined_once():
    """A function of stratego.notation defined again elsewhere (the classic package) is a
    second home unless it only adapts notation's (it calls notation.<name>)."""
    own = {n.name for n in ast.parse((PACKAGE / "notation.py").read_text()).body
           if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")}
    again = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "notation.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name in own:
                adapts = any(isinstance(c, ast.Attribute) and isinstance(c.value, ast.Name) and c.value.id == "notation"
                             for c in ast.walk(node))
                if not adapts:
                    again.append(f"{path.relative_to(PACKAGE)}: {node.name}")
    assert not again, "notation written outside stratego.notation:\n" + "\n".join(again)
