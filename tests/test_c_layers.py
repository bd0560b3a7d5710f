"""The C folders are layers (docs/architecture.md): csrc/engine/ knows no game.

Each engine file is compiled alone with only its own folder on the include path, so an
include of a game's header ("stratego/game.h", "castle/castle.h") fails to compile; and
every include names a file that exists, by its bare name within a folder or by its path
from csrc/ across folders.

Neither the includes nor the calls across files go round in a circle (issue 27, item 2):
a file's includes are read from its text; its calls from its object file (`nm`: the
symbols it leaves undefined, found among those another file defines), so a static
inline function of a header is no call, and what the compiler really links is.
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from cbuild import CSRC, TEST_FLAGS, clean_env, compiler
from graph_circles import circles

ENGINE = CSRC / "engine"
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


@pytest.mark.parametrize("source", sorted(p.name for p in ENGINE.glob("*.[ch]")))
def test_engine_compiles_without_any_game(source):
    cc = compiler()
    if cc is None:
        pytest.skip("no C compiler found (set CC or put cc/gcc/clang on PATH)")
    lang = ["-x", "c"]  # a header is checked as a translation unit of its own
    done = subprocess.run([cc, *TEST_FLAGS, "-fsyntax-only", f"-I{ENGINE}", *lang, str(ENGINE / source)],
                          capture_output=True, text=True, env=clean_env(), timeout=120)
    assert done.returncode == 0, f"csrc/engine/{source} needs more than the engine:\n{done.stderr}"


def test_every_include_names_a_file_by_its_folder():
    wrong = []
    for path in sorted(CSRC.rglob("*.[ch]")):
        for name in INCLUDE.findall(path.read_text()):
            if not ((path.parent / name).is_file() if "/" not in name else (CSRC / name).is_file()):
                wrong.append(f"{path.relative_to(CSRC)}: \"{name}\"")
    assert not wrong, "includes that name no file (bare name: same folder; else a path from csrc/):\n" + "\n".join(wrong)


def test_engine_file_of_a_game_is_refused(tmp_path):
    """The check above can fail: an engine file that includes a game header does not compile."""
    cc = compiler()
    if cc is None:
        pytest.skip("no C compiler found")
    bad = tmp_path / "bad.c"
    bad.write_text('#include "vec.h"\n#include "stratego/game.h"\nint f(void) { return 0; }\n')
    done = subprocess.run([cc, *TEST_FLAGS, "-fsyntax-only", f"-I{ENGINE}", str(bad)],
                          capture_output=True, text=True, env=clean_env(), timeout=120)
    assert done.returncode != 0 and "stratego/game.h" in done.stderr


# The folders whose files' calls must form no circle: every C layer, the binding included
# (call_graph compiles its files with Python's and NumPy's headers on the path).
CALL_GRAPH_FOLDERS = ("engine", "stratego", "stratego/bots", "castle", "python")


def _header_flags() -> list[str]:
    """The include paths of Python.h and NumPy's headers, which csrc/python/ needs."""
    import sysconfig

    import numpy

    return [f"-I{sysconfig.get_paths()['include']}", f"-I{numpy.get_include()}"]


def include_graph(root: Path) -> dict[str, set[str]]:
    """{file: the files it includes}, for every .c and .h under root (names as in csrc/:
    a bare name is a file of the same folder, a path one from root)."""
    graph = {}
    for path in sorted(root.rglob("*.[ch]")):
        targets = set()
        for name in INCLUDE.findall(path.read_text()):
            target = path.parent / name if "/" not in name else root / name
            if target.is_file() and target != path:
                targets.add(target.relative_to(root).as_posix())
        graph[path.relative_to(root).as_posix()] = targets
    return graph


def call_graph(root: Path, folders, work: Path) -> dict[str, set[str]]:
    """{file: the files whose functions or data it uses}, for the .c files of `folders`
    under root, from the objects each compiles to alone."""
    cc = compiler()
    defined: dict[str, str] = {}
    used: dict[str, set[str]] = {}
    for folder in folders:
        for source in sorted((root / folder).glob("*.c")):
            name = source.relative_to(root).as_posix()
            obj = work / (name.replace("/", "-") + ".o")
            done = subprocess.run([cc, *TEST_FLAGS, "-O0", f"-I{root}", *_header_flags(), "-c", str(source),
                                   "-o", str(obj)],
                                  capture_output=True, text=True, env=clean_env(), timeout=300)
            assert done.returncode == 0, f"{name} does not compile:\n{done.stderr}"
            symbols = subprocess.run(["nm", str(obj)], capture_output=True, text=True, env=clean_env(), timeout=60)
            assert symbols.returncode == 0, symbols.stderr
            used[name] = set()
            for line in symbols.stdout.splitlines():
                fields = line.split()
                if len(fields) == 2 and fields[0] == "U":
                    used[name].add(fields[1])
                elif len(fields) == 3 and fields[1].isupper() and fields[1] != "U":
                    defined[fields[2]] = name
    return {name: {defined[s] for s in symbols if s in defined and defined[s] != name}
            for name, symbols in used.items()}


def _need_tools():
    import shutil

    if compiler() is None or shutil.which("nm") is None:
        pytest.skip("no C compiler or nm found")


def test_no_include_cycles():
    found = circles(include_graph(CSRC))
    assert not found, "files that include each other in a circle:\n" + "\n".join(" -> ".join(c) for c in found)


def test_no_call_cycles_across_files(tmp_path):
    """A file's calls go to files below it: a circle means two concepts that are one, or a
    function in the wrong file (move it to the file whose concept it is, or split one)."""
    _need_tools()
    graph = call_graph(CSRC, CALL_GRAPH_FOLDERS, tmp_path)
    assert len(graph) > 40
    found = circles(graph)
    detail = [f"{a} -> {b}" for c in found for a in c for b in sorted(graph[a]) if b in c]
    assert not found, "files that call each other in a circle:\n" + "\n".join(detail)


def test_the_cycle_checks_find_a_planted_circle(tmp_path):
    """The checks above can fail: a folder whose two files call each other, and whose two
    headers include each other, is caught by each."""
    _need_tools()
    root = tmp_path / "csrc"
    (root / "game").mkdir(parents=True)
    (root / "game" / "a.h").write_text('#ifndef A_H\n#define A_H\n#include "b.h"\nint a(int n);\n#endif\n')
    (root / "game" / "b.h").write_text('#ifndef B_H\n#define B_H\n#include "game/a.h"\nint b(int n);\n'
                                       'static inline int c(int n) { return n; }\n#endif\n')
    (root / "game" / "a.c").write_text('#include "a.h"\nint a(int n) { return n ? b(n - 1) : c(n); }\n')
    (root / "game" / "b.c").write_text('#include "b.h"\nint b(int n) { return n ? a(n - 1) : 0; }\n')
    (root / "game" / "d.c").write_text('#include "b.h"\nint d(int n) { return c(n) + a(n); }\n')
    assert circles(include_graph(root)) == [["game/a.h", "game/b.h"]]
    graph = call_graph(root, ["game"], tmp_path)
    # d.c uses a() and the header's static inline c(), which is no call across files
    assert graph["game/d.c"] == {"game/a.c"}
    assert circles(graph) == [["game/a.c", "game/b.c"]]
