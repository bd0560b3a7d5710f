"""Shared test fixtures: where the Gravon data lives, ASCII boards."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

# One thread unless a test asks for more (stratego.default_num_threads reads it): on a
# busy 2-core machine threads only slow single tests down.
os.environ.setdefault("OMP_NUM_THREADS", "1")

SHARED_DATA = Path(os.environ.get("STRATEGO_DATA_DIR", Path(__file__).resolve().parents[2] / "shared" / "data"))
GRAVON_DIR = Path(os.environ.get("STRATEGO_GRAVON_DIR", SHARED_DATA / "gravon"))

# In CI the recorded games must be there: a replay test that skips proves nothing.
if os.environ.get("CI") == "true" and not GRAVON_DIR.is_dir():
    raise RuntimeError(f"CI: the Gravon records are missing at {GRAVON_DIR}")

needs_gravon = pytest.mark.skipif(
    not GRAVON_DIR.is_dir(), reason=f"Gravon records not found at {GRAVON_DIR} (set STRATEGO_GRAVON_DIR)"
)


def pytest_ignore_collect(collection_path, config):
    """A file marked heavy as a whole (`pytestmark = pytest.mark.heavy`) is not even
    imported when the run deselects heavy tests: importing torch, SB3 and PettingZoo to
    collect tests that will not run cost 3 of the core suite's seconds."""
    if collection_path.suffix != ".py" or "not heavy" not in (config.getoption("markexpr") or ""):
        return None
    try:
        text = collection_path.read_text()
    except OSError:
        return None
    return True if "\npytestmark = pytest.mark.heavy\n" in text else None
