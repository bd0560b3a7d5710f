"""Every code block of docs/agents.md runs as it stands: a snippet that is shown works.

One test per "## " section, run in a temporary directory of its own: its python blocks
in order, each in a fresh namespace (a reader copies one block, not the page), and in
bash blocks the `stratego ...` lines as commands (after the python blocks before them,
whose files they may use); `pip ...` lines are skipped (installing is not a test's job)
and any other shell line fails, so nothing shown goes unchecked. A section that needs
the train extra (torch, SB3, PettingZoo, or a policy file) is marked heavy.
"""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[1] / "docs" / "agents.md"
FENCE = re.compile(r"^```(\w*)\s*$")
HEAVY = ("sb3_contrib", "stable_baselines3", "torch", "pettingzoo", ".pt")


def code_blocks(text: str) -> list[tuple[str, str, int, str]]:
    """(section, language, first line number, code) for each fenced block."""
    blocks, section, lang, start, lines = [], "", None, 0, []
    for number, line in enumerate(text.splitlines(), 1):
        if lang is None:
            match = FENCE.match(line)
            if match:
                lang, start, lines = match.group(1), number + 1, []
            elif line.startswith("## "):
                section = line[3:].strip()
        elif line.strip() == "```":
            blocks.append((section, lang, start, "\n".join(lines) + "\n"))
            lang = None
        else:
            lines.append(line)
    assert lang is None, f"docs/agents.md: the code block opened on line {start - 1} is never closed"
    return blocks


def sections() -> list:
    by_section: dict[str, list] = {}
    for section, lang, start, code in code_blocks(PAGE.read_text(encoding="utf-8")):
        if lang:  # a block without a language is not code (a signature, a layout)
            by_section.setdefault(section, []).append((lang, start, code))
    return [
        pytest.param(blocks, id=section or "top",
                     marks=[pytest.mark.heavy] if any(h in code for _, _, code in blocks for h in HEAVY) else [])
        for section, blocks in by_section.items()
    ]


def test_the_page_has_runnable_blocks():
    found = {section for section, lang, _, _ in code_blocks(PAGE.read_text(encoding="utf-8")) if lang}
    assert {"Gymnasium env against an opponent", "Self-play bookkeeping and autoreset modes", "PettingZoo",
            "Saved policies", "Arena"} <= found


def run_shell_line(line: str, where: str, cwd: Path) -> None:
    words = shlex.split(line)
    if words[0] == "pip":
        return
    if words[0] != "stratego":
        pytest.fail(f"{where}: the docs test runs only `stratego` commands (and skips pip); got {line!r}")
    done = subprocess.run([sys.executable, "-m", "stratego.cli", *words[1:]], cwd=cwd, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, f"{where}: {line!r} failed:\n{done.stdout}\n{done.stderr}"


@pytest.mark.parametrize("blocks", sections())
def test_section_runs(blocks, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for lang, start, code in blocks:
        where = f"docs/agents.md line {start}"
        if lang == "python":
            exec(compile(code, where, "exec"), {"__name__": "__docs__"})
        elif lang in ("bash", "sh", "console"):
            for line in code.splitlines():
                if line.strip() and not line.lstrip().startswith("#"):
                    run_shell_line(line.strip(), where, tmp_path)
        else:
            pytest.fail(f"{where}: unknown block language {lang!r}; use python or bash (or none for a block "
                        "that is not code)")
