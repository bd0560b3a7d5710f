"""The Python package's layers (docs/architecture.md#the-layers): its imports form no
circle, counting every import (a function's lazy `import` as much as the module's own),
and the castle game reaches the classic modules only through public names.

The graph is read from the source by `ast`, not by importing: a lazy import is an edge
whether or not a test happens to call the function that holds it.
"""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from graph_circles import circles

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "stratego"


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imported(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute name `from ... import` reads, for a module named `module`."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[:len(base) - node.level + (1 if is_package else 0)]
    return ".".join(base + ([node.module] if node.module else []))


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the package's modules it imports, anywhere in its body. `from a import b`
    counts as an import of a.b when a.b is a module, else of a; importing a.b.c also runs
    a and a.b (their __init__), so those are edges too."""
    files = {_module_name(p, root): p for p in root.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        is_package = path.name == "__init__.py"
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                source = _imported(node, module, is_package)
                for alias in node.names:
                    sub = f"{source}.{alias.name}"
                    targets.add(sub if sub in files else source)
        edges = set()
        for target in targets:
            parts = target.split(".")
            for i in range(1, len(parts) + 1):
                name = ".".join(parts[:i])
                # A module's own package runs before it: not an edge back to it.
                if name in files and name != module and not module.startswith(name + "."):
                    edges.add(name)
        graph[module] = edges
    return graph


def test_the_package_imports_form_no_circle():
    cycles = circles(import_graph(PACKAGE))
    assert not cycles, "modules that import each other (directly or through others):\n" + "\n".join(
        " <-> ".join(group) for group in cycles)


def test_a_planted_circle_is_found(tmp_path):
    root = tmp_path / "pkg"
    (root / "sub").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "sub" / "__init__.py").write_text("")
    (root / "a.py").write_text("from .sub import b\n")
    # The way back is a function's lazy import, relative to a subpackage.
    (root / "sub" / "b.py").write_text("def f():\n    from ..c import g\n")
    (root / "c.py").write_text("import pkg.a\n")
    (root / "d.py").write_text("from pkg import a\n")
    assert circles(import_graph(root)) == [["pkg.a", "pkg.c", "pkg.sub.b"]]
    (root / "c.py").write_text("")
    assert circles(import_graph(root)) == []


def test_the_castle_uses_no_private_name_of_the_classic_modules():
    private = []
    for path in sorted((PACKAGE / "castle").rglob("*.py")):
        module = _module_name(path, PACKAGE)
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom):
                source = _imported(node, module, path.name == "__init__.py")
                if source.startswith("stratego.castle"):
                    continue
                private += [f"{path.name}: {source}.{a.name}" for a in node.names if a.name.startswith("_")
                            and a.name != "_core"]
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.attr.startswith("_") \
                    and not node.attr.startswith("__") and node.value.id in _classic_aliases(path):
                private.append(f"{path.name}: {node.value.id}.{node.attr}")
    assert not private, "the castle game reaches into the classic modules' private names:\n" + "\n".join(private)


def _classic_aliases(path: Path) -> set[str]:
    """Names a castle module binds to a classic module (`from stratego import variants`)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("stratego") \
                and not (node.module or "").startswith("stratego.castle"):
            names.update((a.asname or a.name) for a in node.names if a.name != "_core")
        elif isinstance(node, ast.Import):
            names.update((a.asname or a.name).split(".")[0] for a in node.names if a.name.startswith("stratego."))
    return names


def test_setup_ships_every_subpackage():
    """setup.py lists its packages by name: a folder of the package left out would be
    missing from a wheel while every test of the checkout passed."""
    tree = ast.parse((PACKAGE.parents[1] / "setup.py").read_text())
    listed = next(ast.literal_eval(k.value) for node in ast.walk(tree) if isinstance(node, ast.Call)
                  for k in node.keywords if k.arg == "packages")
    found = {_module_name(p, PACKAGE) for p in PACKAGE.rglob("__init__.py")}
    assert found - set(listed) == set(), f"packages setup.py does not ship: {sorted(found - set(listed))}"


def test_the_common_layer_knows_no_game():
    graph = import_graph(PACKAGE)
    common = [m for m in graph if m == "stratego.common" or m.startswith("stratego.common.")]
    assert len(common) > 1, "stratego.common holds the layer both games use"
    outside = [f"{m} -> {t}" for m in common for t in sorted(graph[m]) if not t.startswith("stratego.common")]
    assert not outside, "stratego.common imports a game's module:\n" + "\n".join(outside)


def test_the_top_level_names_stay():
    # Modules moved into groups; what `from stratego import ...` gave is still there.
    import stratego
    from stratego import policy, records
    from stratego.agents import policy as agents_policy
    assert policy is agents_policy and records.read_record and stratego.StrategoEnv
    assert {"Game", "VecEnv", "records", "unpack_mask", "mask_bytes", "default_num_threads"} <= set(stratego.__all__)


def test_the_top_level_pettingzoo_is_the_integrations():
    # stratego.pettingzoo, imported on first use, needs pettingzoo (the train extra).
    pytest.importorskip("pettingzoo", reason="pettingzoo is the train extra's")
    import stratego
    assert stratego.pettingzoo is importlib.import_module("stratego.integrations.pettingzoo")
