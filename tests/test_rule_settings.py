"""The rule settings are one list in C (csrc/stratego/rules.h, RULE_SETTINGS): the parser, the
metadata `_core` exports, stratego.variants and docs/rules.md all agree with it, and no
Python file keeps a copy of its own."""
from __future__ import annotations

import ast
import json
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
    rules.update({n: default for n, _t, _lo, _hi, default, _m, _d in _core.RULE_SETTINGS})
    rules[name] = value
    return rules


def test_metadata_rows_are_well_formed():
    assert len(SETTINGS) == len(_core.RULE_SETTINGS) >= 10
    for name, ctype, lo, hi, default, moves, doc in _core.RULE_SETTINGS:
        assert re.fullmatch(r"[a-z_]+", name)
        assert ctype in ("uint8_t", "uint16_t")
        assert 0 <= lo <= default <= hi <= (255 if ctype == "uint8_t" else 65535)
        assert moves in ("board", "forbid", "add")
        assert doc and doc == doc.strip()


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_parser_accepts_exactly_the_exported_range(name):
    _name, _type, lo, hi, _default, _moves, _doc = SETTINGS[name]
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
    _name, _type, lo, hi, _default, _moves, _doc = SETTINGS[name]
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
    rows = {name: (span, moves) for name, span, moves in
            re.findall(r"^\| `([a-z_]+)` \| ([0-9/-]+) \| ([a-z]+) \|", text, re.M)}
    for name, _type, lo, hi, _default, moves, _doc in _core.RULE_SETTINGS:
        assert rows.get(name) == ("0/1" if (lo, hi) == (0, 1) else f"{lo}-{hi}", moves), name


# -- unknown settings are refused wherever rules are built (issue 26, item 4) ----------
CLASSIC = stratego.load_variant("classic")
NEAR = r"unknown rule setting 'two_square_limt' \(did you mean 'two_square_limit'\?\)"


def _misspelt() -> dict:
    return {**CLASSIC.settings, "two_square_limt": 5}


def test_a_variant_with_a_misspelt_setting_is_refused_naming_the_nearest():
    import dataclasses

    with pytest.raises(ValueError, match=NEAR):
        stratego.Variant("mine", "", CLASSIC.piece_counts, _misspelt())
    with pytest.raises(ValueError, match=NEAR):
        dataclasses.replace(CLASSIC, settings=_misspelt())
    with pytest.raises(ValueError, match=NEAR):
        stratego.load_variant("classic", two_square_limt=5)
    with pytest.raises(ValueError, match=NEAR):
        stratego.Game(two_square_limt=5)
    with pytest.raises(ValueError, match=NEAR):
        stratego.VecEnv(2, two_square_limt=5)


def test_a_variant_file_with_a_misspelt_setting_is_refused(tmp_path):
    text = (ROOT / "configs" / "classic.toml").read_text(encoding="utf-8")
    path = tmp_path / "mine.toml"
    path.write_text(text.replace("two_square_limit", "two_square_limt"), encoding="utf-8")
    with pytest.raises(ValueError, match=NEAR):
        stratego.load_variant(path)


@pytest.mark.parametrize("make", [_core.GameState, _core.num_actions])
def test_a_rules_dict_with_an_unknown_key_is_refused_in_c(make):
    with pytest.raises(ValueError, match=NEAR + "; expected one of piece_counts, setup_rows"):
        make({**CLASSIC.rules, "two_square_limt": 5})
    with pytest.raises(ValueError, match=r"^unknown rule setting 7; expected one of piece_counts"):
        make({**CLASSIC.rules, 7: 5})


def test_a_batch_refuses_an_unknown_rule_setting():
    env = stratego.VecEnv(2)
    rules = {**env.variant.rules, "two_square_limt": 5}
    with pytest.raises(ValueError, match=NEAR):
        _core.Batch(2, 1, rules, *env._outputs())
    env.close()


def test_a_record_header_with_a_misspelt_setting_is_refused():
    from stratego.history import RecordError
    from stratego.records.jsonl import record_from_json, record_to_json

    line = json.loads(record_to_json(stratego.Game(seed=3).record()))
    line["rules"] = {"two_square_limt": 5}
    with pytest.raises(RecordError, match=r"rules has unknown name 'two_square_limt' "
                                                   r"\(did you mean 'two_square_limit'\?\)"):
        record_from_json(json.dumps(line))


def test_the_castle_game_refuses_a_misspelt_setting_everywhere(tmp_path):
    from stratego import castle
    from stratego.castle import records

    near = r"unknown castle setting 'back_and_forht' \(did you mean 'back_and_forth'\?\)"
    with pytest.raises(ValueError, match=near):
        castle.Game(back_and_forht=5)
    with pytest.raises(ValueError, match=near):
        castle.VecEnv(2, back_and_forht=5)
    path = tmp_path / "mine.toml"
    path.write_text("[castle]\nback_and_forht = 5\n", encoding="utf-8")
    with pytest.raises(ValueError, match=near):
        castle.load_settings(path)
    line = json.loads(records.record_to_json(castle.Game(seed=1)))
    line["settings"]["back_and_forht"] = 5
    with pytest.raises(records.RecordError, match=near):
        records.record_from_json(json.dumps(line))


# -- messages: integers of any kind, and what a Variant lacks (issue 26, "Messages") ----
def test_settings_take_any_integer():
    np = pytest.importorskip("numpy")
    from stratego import castle

    assert stratego.load_variant("classic", two_square_limit=np.int64(5)).settings["two_square_limit"] == 5
    settings = {**CLASSIC.settings, "max_plies": np.uint16(300)}
    variant = stratego.Variant("mine", "", tuple(np.int8(c) for c in CLASSIC.piece_counts), settings)
    assert type(variant.settings["max_plies"]) is int and variant.settings["max_plies"] == 300
    assert all(type(c) is int for c in variant.piece_counts)
    assert stratego.Game(variant, seed=1).variant.settings["max_plies"] == 300
    assert castle.Game(back_and_forth=np.int64(7)).settings["back_and_forth"] == 7


@pytest.mark.parametrize("value, got", [(5.0, "float"), ("5", "str"), (True, "a bool"), (None, "NoneType")])
def test_settings_refuse_what_is_no_integer(value, got):
    from stratego import castle

    message = rf"two_square_limit must be an int in \[0, 255\], got {got}"
    with pytest.raises(TypeError, match=message):
        stratego.load_variant("classic", two_square_limit=value)
    with pytest.raises(TypeError, match=message):
        stratego.Variant("mine", "", CLASSIC.piece_counts, {**CLASSIC.settings, "two_square_limit": value})
    with pytest.raises(TypeError, match=rf"back_and_forth must be an int in \[1, 50\] \(.*\), got {got}"):
        castle.Game(back_and_forth=value)


def test_a_variant_without_a_setting_or_with_a_bad_name_says_what_is_wrong():
    settings = dict(CLASSIC.settings)
    del settings["max_plies"], settings["rescue"]
    with pytest.raises(ValueError, match=r"^Variant 'mine': settings lack max_plies, rescue; a Variant names "
                                         r"every rule setting"):
        stratego.Variant("mine", "", CLASSIC.piece_counts, settings)
    with pytest.raises(ValueError, match=r"^Variant 'mine': unknown rule setting 5; expected one of setup_rows"):
        stratego.Variant("mine", "", CLASSIC.piece_counts, {**CLASSIC.settings, 5: 1})
    with pytest.raises(TypeError, match=r"^a Variant's name must be a str, got int$"):
        stratego.Variant(5, "", CLASSIC.piece_counts, CLASSIC.settings)
    with pytest.raises(ValueError, match=r"piece_counts must be 12 ints"):
        stratego.Variant("mine", "", CLASSIC.piece_counts[:11], CLASSIC.settings)
