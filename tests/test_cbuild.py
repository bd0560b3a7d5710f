"""tests/cbuild.py keeps the C programs it builds outside the checkout: a test run writes
nothing into the source tree, and STRATEGO_TEST_BUILD_DIR sends the cache elsewhere."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import cbuild

HERE = Path(__file__).resolve().parent


def _build_dir(**env: str) -> Path:
    """cbuild.BUILD as a fresh interpreter computes it under `env`."""
    clean = {k: v for k, v in os.environ.items() if k not in ("STRATEGO_TEST_BUILD_DIR", "XDG_CACHE_HOME")}
    done = subprocess.run([sys.executable, "-c", "import cbuild; print(cbuild.BUILD)"], cwd=HERE,
                          env={**clean, **env}, capture_output=True, text=True, timeout=120, check=True)
    return Path(done.stdout.strip())


def test_the_cache_is_outside_the_checkout_by_default(tmp_path):
    default = _build_dir(HOME=str(tmp_path))
    assert not default.is_relative_to(cbuild.ROOT), default
    assert default.is_relative_to(tmp_path / ".cache" / "stratego-sim" / "c-tests")
    assert _build_dir(XDG_CACHE_HOME=str(tmp_path / "xdg")).is_relative_to(tmp_path / "xdg")


def test_the_cache_folder_can_be_set(tmp_path):
    assert _build_dir(STRATEGO_TEST_BUILD_DIR=str(tmp_path / "c")) == tmp_path / "c"


def test_a_program_is_built_into_the_cache(tmp_path, monkeypatch):
    cc = cbuild.compiler()
    if cc is None:
        import pytest
        pytest.skip("no C compiler found (set CC or put cc/gcc/clang on PATH)")
    source = tmp_path / "hello.c"
    source.write_text('#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n')
    monkeypatch.setattr(cbuild, "BUILD", tmp_path / "cache")
    monkeypatch.setattr(cbuild, "CORE", [])  # the program alone: the core is not what is tested
    program = cbuild.build("hello", cc, ["-O0"], {"hello": [source]})["hello"]
    assert program.is_relative_to(tmp_path / "cache")
    assert subprocess.run([str(program)], capture_output=True, text=True, timeout=60).stdout == "hello\n"
