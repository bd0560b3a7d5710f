"""The rule settings are one list in C (csrc/rules.h, RULE_SETTINGS): the parser, the
metadata `_core` exports, stratego.variants and docs/rules.md all agree with it, and no
Python file keeps a copy of its own."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import stratego
from stratego import _core
from stratego.variants import PIECE_NAMES, RULE_SETTINGS, SWITCHES

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "python" / "stratego"
SETTINGS = {row[0]: row for row in _core.RULE_SETTINGS}
# Ten pieces (duel): they fit a setup zone of one row, so every setting's edge can be
# tried alone without another check of the rules refusing it first.
DUEL = stratego.load_variant("duel")


def rules_with(name: str, value) -> dict:
    rules = {"piece_counts": list(DUEL.piece_counts)}
    rules.update({n: default for n, _t, _lo, _hi, default, _d in _core.RULE_SETTINGS})
    rules[name] = value
    return rules


def test_metadata_rows_are_well_formed():
    assert len(SETTINGS) == len(_core.RULE_SETTINGS) >= 10
    for name, ctype, lo, hi, default, doc in _core.RULE_SETTINGS:
        assert re.fullmatch(r"[a-z_]+", name)
        assert ctype in ("uint8_t", "uint16_t")
        assert 0 <= lo <= default <= hi <= (255 if ctype == "uint8_t" else 65535)
        assert doc and doc == doc.strip()


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_parser_accepts_exactly_the_exported_range(name):
    _name, _type, lo, hi, _default, _doc = SETTINGS[name]
    for value in (lo, hi):
        assert _core.num_actions(rules_with(name, value)) in (1800, 2200, 2800, 2801)  # 2800: deploy
        _core.GameState(rules_with(name, value))
    for value in (lo - 1, hi + 1):
        with pytest.raises(ValueError, match=rf"^rule setting '{name}' must be an int in \[{lo}, {hi}\], got {value}$"):
            _core.num_actions(rules_with(name, value))
    with pytest.raises(TypeError, match=rf"^rule setting '{name}' must be an int in \[{lo}, {hi}\], got str$"):
        _core.num_actions(rules_with(name, str(lo)))
    rules = rules_with(name, lo)
    del rules[name]
    with pytest.raises(KeyError, match=f"rules need the setting '{name}'"):
        _core.num_actions(rules)


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_load_variant_takes_the_same_range(name):
    _name, _type, lo, hi, _default, _doc = SETTINGS[name]
    for value in (lo, hi):
        assert stratego.load_variant(DUEL, **{name: value}).settings[name] == value
    for value in (lo - 1, hi + 1):
        with pytest.raises(ValueError, match=rf"{name} must be in \[{lo}, {hi}\], got {value}"):
            stratego.load_variant(DUEL, **{name: value})


def test_defaults_are_the_classic_rules():
    defaults = {name: row[4] for name, row in SETTINGS.items()}
    assert stratego.load_variant("classic").settings == defaults


def test_variants_reads_the_core_list():
    assert RULE_SETTINGS == {name: (row[2], row[3]) for name, row in SETTINGS.items()}
    assert list(RULE_SETTINGS) == [row[0] for row in _core.RULE_SETTINGS]
    assert SWITCHES == tuple(n for n, row in SETTINGS.items() if row[2:4] == (0, 1))
    assert PIECE_NAMES == _core.PIECE_NAMES


def _literal_collections(path: Path):
    """Every tuple, list, set or dict literal of strings in a Python file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            elements = node.elts
        elif isinstance(node, ast.Dict):
            elements = [k for k in node.keys if k is not None]
        else:
            continue
        strings = [e.value for e in elements if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        yield node.lineno, strings


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: p.name)
def test_no_python_file_keeps_a_copy_of_a_c_table(path):
    """A literal naming three or more rule settings or piece names is a second copy of
    a list that C owns (_core.RULE_SETTINGS, _core.PIECE_NAMES)."""
    for table, names in (("RULE_SETTINGS", set(SETTINGS)), ("PIECE_NAMES", set(_core.PIECE_NAMES))):
        for line, strings in _literal_collections(path):
            copied = [s for s in strings if s in names]
            assert len(copied) < 3, f"{path.name}:{line} lists {copied}: read _core.{table} instead"


def test_docs_table_gives_the_exported_ranges():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([a-z_]+)` \| ([0-9/-]+) \|", text, re.M))
    for name, _type, lo, hi, _default, _doc in _core.RULE_SETTINGS:
        assert rows.get(name) == ("0/1" if (lo, hi) == (0, 1) else f"{lo}-{hi}"), name
