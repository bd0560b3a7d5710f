"""Shared test fixtures: where the Gravon data lives, ASCII boards."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

# One thread unless a test asks for more (stratego.default_num_threads reads it): on a
# busy 2-core machine threads only slow single tests down.
os.environ.setdefault("OMP_NUM_THREADS", "1")

SHARED_DATA = Path(os.environ.get("STRATEGO_DATA_DIR", Path(__file__).resolve().parents[2] / "shared" / "data"))
# The recorded human games: the full Gravon archive (180 games) where the project's data
# folder is found, else the sample that ships in tests/data/gravon-sample (19 games of it,
# every kind and ending; its README.md says where they come from).
FULL_GRAVON_DIR = Path(os.environ.get("STRATEGO_GRAVON_DIR", SHARED_DATA / "gravon"))
SAMPLE_GRAVON_DIR = Path(__file__).resolve().parent / "data" / "gravon-sample"
GRAVON_FULL = FULL_GRAVON_DIR.is_dir()
GRAVON_DIR = FULL_GRAVON_DIR if GRAVON_FULL else SAMPLE_GRAVON_DIR
GET_THE_ARCHIVE = ("the full archive is the project's shared data folder: put it beside the checkout as "
                   "../shared/data/gravon, or set STRATEGO_DATA_DIR to the folder holding gravon/ "
                   "(or STRATEGO_GRAVON_DIR to gravon/ itself)")

# What each archive holds, which the tests pin: games by type, moves, games without a move,
# and the endings the players decided (resigned, agreed draw, on time).
GRAVON_FACTS = {
    "full": {"by_type": {"classic": 96, "barrage": 78, "classicfree": 3, "ultimate lightning": 3},
             "moves": 33821, "without_moves": 2, "decided": (85, 4, 1)},
    "sample": {"by_type": {"classic": 10, "barrage": 5, "classicfree": 1, "ultimate lightning": 3},
               "moves": 4759, "without_moves": 1, "decided": (3, 2, 1)},
}
GRAVON = GRAVON_FACTS["full" if GRAVON_FULL else "sample"]

# In CI the whole archive must be there (.ci/run runs beside a copy of shared/): a replay
# of the sample alone would hide a game of the archive that no longer replays.
if os.environ.get("CI") == "true" and not GRAVON_FULL:
    raise RuntimeError(f"CI: the Gravon records are missing at {FULL_GRAVON_DIR}; {GET_THE_ARCHIVE}")

needs_full_gravon = pytest.mark.skipif(
    not GRAVON_FULL, reason=f"needs the full Gravon archive, not found at {FULL_GRAVON_DIR}; {GET_THE_ARCHIVE}")
# Kept for the tests that replay whichever archive is there: the sample always is.
needs_gravon = pytest.mark.skipif(
    not GRAVON_DIR.is_dir(), reason=f"no Gravon records at {GRAVON_DIR}; {GET_THE_ARCHIVE}")


def _deep_layer_left_out(config) -> bool:
    from depth import DEEP

    return not DEEP and "deep" not in (config.getoption("markexpr") or "")


def pytest_collection_modifyitems(config, items):
    """The deep layer (tests marked `deep`) runs where the exhaustive tests run at full
    depth (tests/depth.py: CI=true, STRATEGO_DEEP_TESTS=1); the README's quick command
    leaves it out, and says how many it left ("deselected"). `-m deep` asks for it by name."""
    if not _deep_layer_left_out(config):
        return
    deep = [item for item in items if item.get_closest_marker("deep")]
    if deep:
        config.hook.pytest_deselected(items=deep)
        items[:] = [item for item in items if not item.get_closest_marker("deep")]


FILE_MARKS = re.compile(r"^pytestmark = .*$", re.M)


def pytest_ignore_collect(collection_path, config):
    """A file marked heavy as a whole (`pytestmark = pytest.mark.heavy`, or in a list) is
    not even imported when the run deselects heavy tests, nor one marked deep when the run
    leaves the deep layer out: importing torch, SB3 and PettingZoo to collect tests that
    will not run cost 3 of the core suite's seconds."""
    if collection_path.suffix != ".py" or not collection_path.name.startswith("test_"):
        return None
    leave_heavy = "not heavy" in (config.getoption("markexpr") or "")
    leave_deep = _deep_layer_left_out(config)
    if not (leave_heavy or leave_deep):
        return None
    try:
        marks = " ".join(FILE_MARKS.findall(collection_path.read_text()))
    except OSError:
        return None
    if (leave_heavy and "pytest.mark.heavy" in marks) or (leave_deep and "pytest.mark.deep" in marks):
        return True
    return None
