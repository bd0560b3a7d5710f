"""python/stratego/_core.pyi describes the extension stratego._core: every public name of
the module (functions, constants, types) and every method and attribute of its types
is in the stub, and the stub names nothing the module lacks; the stub and py.typed ship
with the package, so users' type checkers see the API."""
from __future__ import annotations

import ast
from pathlib import Path

import stratego
from stratego import _core

STUB = Path(stratego.__file__).with_name("_core.pyi")
ALIASES = {"Rules", "CastleSettings"}  # the stub's own type aliases


def _stub_names() -> tuple[set[str], dict[str, set[str]]]:
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    names, classes = set(), {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
            classes[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} - {"__init__"}
        elif isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets)
    return names - ALIASES, classes


def test_the_stub_names_every_public_name_of_the_module_and_no_other():
    names, _ = _stub_names()
    public = {n for n in dir(_core) if not n.startswith("_")}
    assert public - names == set(), f"in stratego._core, not in _core.pyi: {sorted(public - names)}"
    assert names - public == set(), f"in _core.pyi, not in stratego._core: {sorted(names - public)}"


def test_the_stub_names_every_method_of_each_type():
    _, classes = _stub_names()
    for name, methods in classes.items():
        real = {m for m in vars(getattr(_core, name)) if not m.startswith("_")}
        assert real == methods, f"_core.{name}: missing from the stub {sorted(real - methods)}, " \
                                f"not in the type {sorted(methods - real)}"


def test_the_constants_have_the_stubs_types():
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign):
            shown = ast.unparse(node.annotation)
            value = getattr(_core, node.target.id)
            expected = "Final[int]" if type(value) is int else "Final[tuple["
            assert shown.startswith(expected), f"{node.target.id} = {value!r:.40} is annotated {shown}"


def test_py_typed_and_the_stub_ship_with_the_package():
    setup = (Path(__file__).resolve().parents[1] / "setup.py").read_text(encoding="utf-8")
    assert '"stratego": ["py.typed", "_core.pyi"]' in setup
    assert STUB.is_file() and STUB.with_name("py.typed").is_file()
