"""tests/data/gravon-sample: a fresh clone's real games are the archive's own files, each
with its provenance (SOURCES.tsv), so a replay of the sample checks what a replay of the
archive would."""
from __future__ import annotations

import pytest

from conftest import FULL_GRAVON_DIR, GRAVON_FACTS, SAMPLE_GRAVON_DIR, needs_full_gravon

from stratego.records import iter_records


def _sources(folder) -> dict[str, str]:
    lines = []
    for name in ("SOURCES.tsv", "SOURCES_barrage.tsv"):
        if (folder / name).is_file():
            lines += (folder / name).read_text(encoding="utf-8").splitlines()[1:]
    return {line.split("\t")[0]: line for line in lines}


SAMPLE_FILES = sorted(str(p.relative_to(SAMPLE_GRAVON_DIR)) for p in SAMPLE_GRAVON_DIR.rglob("*.xml"))


def test_every_sample_game_has_its_source_and_no_other():
    assert SAMPLE_FILES and sorted(_sources(SAMPLE_GRAVON_DIR)) == SAMPLE_FILES


def test_the_sample_holds_every_kind_of_game():
    by_type: dict[str, int] = {}
    for record in iter_records(SAMPLE_GRAVON_DIR):
        by_type[record.game_type] = by_type.get(record.game_type, 0) + 1
    assert by_type == GRAVON_FACTS["sample"]["by_type"]


@needs_full_gravon
@pytest.mark.parametrize("name", SAMPLE_FILES)
def test_a_sample_game_is_the_archives_file(name):
    assert (SAMPLE_GRAVON_DIR / name).read_bytes() == (FULL_GRAVON_DIR / name).read_bytes()
    assert _sources(SAMPLE_GRAVON_DIR)[name] == _sources(FULL_GRAVON_DIR)[name]


@needs_full_gravon
def test_the_sample_carries_the_archives_notice():
    notice = (FULL_GRAVON_DIR / "README.md").read_text(encoding="utf-8")
    assert (SAMPLE_GRAVON_DIR / "README.md").read_text(encoding="utf-8").endswith(notice)
