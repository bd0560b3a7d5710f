"""The documentation's links: every relative link in README.md and docs/ names a file
that exists, so a page moved or renamed shows here, not to a reader."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_relative_links_resolve(page):
    missing = [
        target for target in LINK.findall(page.read_text(encoding="utf-8"))
        if "://" not in target and not (page.parent / target).exists()
    ]
    assert not missing, f"{page.relative_to(ROOT)} links to missing files: {missing}"


def test_readme_is_short_and_links_every_docs_page():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 140, "the README is the first screen; detail goes in docs/"
    unlinked = [p.name for p in PAGES[1:] if f"docs/{p.name}" not in readme]
    assert not unlinked, f"docs pages the README does not link: {unlinked}"


CITATION = re.compile(r'rules\.md,? "([^"]+)"')


def test_rule_citations_name_sections_of_docs_rules():
    """Comments cite the rules as docs/rules.md "Section" (the page a clone has): every
    cited section is the start of a heading there."""
    page = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    headings = [line.lstrip("#").strip() for line in page.splitlines() if line.startswith("#")]
    sources = [p for folder in ("csrc", "python", "tests", "configs") for p in (ROOT / folder).rglob("*")
               if p.suffix in {".c", ".h", ".py", ".toml"}]
    bad, stale = [], []
    for path in sources:
        if path.name == "test_docs.py":
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        # A citation may wrap across comment lines: join them ("\n * ", "\n# ").
        names = [re.sub(r"\s*\n\s*[*#]?\s*", " ", name) for name in CITATION.findall(text)]
        bad += [f"{path.relative_to(ROOT)}: {name}" for name in names
                if not any(h.startswith(name) for h in headings)]
        if "RULES.md" in text:
            stale.append(str(path.relative_to(ROOT)))
    assert not bad, f"citations of sections docs/rules.md does not have: {bad}"
    assert not stale, f"files citing RULES.md, which a clone lacks (cite docs/rules.md): {stale}"
