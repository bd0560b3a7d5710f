"""The test suite's layers (docs/testing.md): the README's command runs the quick layer
and leaves out the tests marked deep, which .ci/run runs with the exhaustive tests at
full depth; `-m deep` asks for them by name."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from patience import patience

ROOT = Path(__file__).resolve().parents[1]
FILES = ["tests/test_castle_core.py", "tests/test_simd_fallbacks.py"]
SANITIZED = "tests/test_castle_core.py::test_c_core_random_games_under_sanitizers"


def _collected(*args: str, **env: str) -> list[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("CI", "STRATEGO_DEEP_TESTS")}
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                           "-p", "no:xdist", *args, *FILES], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=patience(300))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_the_quick_layer_leaves_the_deep_tests_out():
    quick = _collected()
    assert quick and SANITIZED not in quick
    assert not any("test_simd_fallbacks" in t for t in quick)  # a file marked deep as a whole


def test_the_deep_layer_runs_in_ci_and_by_name():
    # CI=true counts as STRATEGO_DEEP_TESTS=1 (tests/depth.py).
    tests = _collected(STRATEGO_DEEP_TESTS="1")
    assert SANITIZED in tests and any("test_simd_fallbacks" in t for t in tests)
    assert SANITIZED in _collected("-m", "deep")


def test_ci_runs_the_deep_layer_and_the_readme_the_quick_one():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "export STRATEGO_DEEP_TESTS=1" in ci
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "python -m pytest -q -n auto" in readme and "python -m pytest -q -n auto" in ci


def test_ci_runs_at_full_depth_unless_told_otherwise():
    def deep(**env: str) -> bool:
        clean = {k: v for k, v in os.environ.items() if k not in ("CI", "STRATEGO_DEEP_TESTS")}
        done = subprocess.run([sys.executable, "-c", "import depth; print(depth.DEEP)"], cwd=ROOT / "tests",
                              env={**clean, **env}, capture_output=True, text=True, timeout=patience(60), check=True)
        return done.stdout.strip() == "True"

    assert not deep() and deep(STRATEGO_DEEP_TESTS="1") and deep(CI="true")
    assert not deep(CI="true", STRATEGO_DEEP_TESTS="0")  # .ci/run's sanitizer pass
