"""The C folders are layers (docs/architecture.md): csrc/engine/ knows no game.

Each engine file is compiled alone with only its own folder on the include path, so an
include of a game's header ("stratego/game.h", "castle/castle.h") fails to compile; and
every include names a file that exists, by its bare name within a folder or by its path
from csrc/ across folders.
"""
from __future__ import annotations

import re
import subprocess

import pytest

from cbuild import CSRC, TEST_FLAGS, clean_env, compiler

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
