"""The files of the binding (csrc/python/) call each other in one direction: module.c at
the top, the games' bindings under it, the glue every game shares (batch_glue.c,
vec_binding.c) at the bottom. A circle (the castle bindings and module.c calling each
other, as they did) would tie every file of the circle to every other."""
from __future__ import annotations

import re
from pathlib import Path

PYTHON_C = Path(__file__).resolve().parents[1] / "csrc" / "python"
# A function defined at file level (not static): its name before the parameter list.
DEFINITION = re.compile(r"^(?!static\b)[A-Za-z_][\w \t\*]*?\b(\w+)\([^;{]*\)\s*\{", re.M)
CALL = re.compile(r"\b(\w+)\s*\(")


def _call_graph() -> dict[str, set[str]]:
    texts = {path.name: path.read_text(encoding="utf-8") for path in sorted(PYTHON_C.glob("*.c"))}
    owner = {name: file for file, text in texts.items() for name in DEFINITION.findall(text)}
    return {file: {owner[name] for name in CALL.findall(text) if owner.get(name, file) != file}
            for file, text in texts.items()}


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    """A circle of calls between files, or None."""
    state: dict[str, int] = {}

    def visit(file: str, path: list[str]) -> list[str] | None:
        state[file] = 1
        for callee in sorted(graph[file]):
            if state.get(callee) == 1:
                return path[path.index(callee):] + [callee]
            if callee not in state and (found := visit(callee, path + [callee])):
                return found
        state[file] = 2
        return None

    for file in sorted(graph):
        if file not in state and (found := visit(file, [file])):
            return found
    return None


def test_the_binding_files_call_each_other_without_a_circle():
    graph = _call_graph()
    assert "add_names" in PYTHON_C.joinpath("vec_binding.c").read_text(encoding="utf-8")
    assert graph["module.c"] >= {"castle_game.c", "castle_batch.c", "batch_type.c"}
    assert _circle(graph) is None, " -> ".join(_circle(graph))


def test_the_circle_check_finds_a_circle():
    assert _circle({"a.c": {"b.c"}, "b.c": {"c.c"}, "c.c": {"a.c"}}) == ["a.c", "b.c", "c.c", "a.c"]
    assert _circle({"a.c": {"b.c"}, "b.c": set()}) is None
