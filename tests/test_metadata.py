"""The package's metadata says what it is (issue 29, item 7): `pip show stratego-sim` and
an index page read these fields."""
from __future__ import annotations

from importlib.metadata import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_license_is_the_license_files():
    meta = metadata("stratego-sim")
    assert meta["License-Expression"] == "MIT"
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert "LICENSE" in meta.get_all("License-File")


def test_urls_authors_classifiers_and_keywords_are_filled():
    meta = metadata("stratego-sim")
    urls = dict(entry.split(", ", 1) for entry in meta.get_all("Project-URL"))
    assert {"Homepage", "Documentation", "Issues"} <= set(urls)
    assert all(url.startswith("https://") for url in urls.values())
    assert meta["Author"] or meta["Author-email"]
    classifiers = meta.get_all("Classifier")
    assert "Topic :: Scientific/Engineering :: Artificial Intelligence" in classifiers
    assert "Programming Language :: Python :: 3" in classifiers
    # Every Python the classifiers name is one requires-python allows.
    assert meta["Requires-Python"] == ">=3.10"
    assert not any(c.startswith("License ::") for c in classifiers)  # the expression says it (PEP 639)
    keywords = meta["Keywords"].split(",")
    assert "stratego" in keywords and "reinforcement-learning" in keywords
