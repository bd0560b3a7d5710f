"""Every code block of docs/agents.md runs: a snippet that is shown must work.

Python blocks run in order, one namespace per "## " section, all in one temporary
directory (so a later section may use a file an earlier one wrote). In bash blocks the
`stratego ...` lines run as commands and `pip ...` lines are skipped (installing is not
a test's job); any other line fails the test, so that nothing shown goes unchecked.
"""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "agents.md"
FENCE = re.compile(r"^```(\w*)\s*$")


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
    assert lang is None, f"docs/agents.md: a code block opened on line {start - 1} is never closed"
    return blocks


def test_code_blocks_are_found():
    blocks = code_blocks(DOC.read_text(encoding="utf-8"))
    langs = {lang for _, lang, _, _ in blocks}
    assert {"python", "bash"} <= langs
    assert any(section == "Arena" for section, *_ in blocks)


def run_shell_line(line: str, where: str, cwd: Path) -> None:
    words = shlex.split(line)
    if words[0] == "pip":
        return
    if words[0] != "stratego":
        pytest.fail(f"{where}: the docs test runs only `stratego` commands (and skips pip); got {line!r}")
    done = subprocess.run([sys.executable, "-m", "stratego.cli", *words[1:]], cwd=cwd, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, f"{where}: {line!r} failed:\n{done.stdout}\n{done.stderr}"


@pytest.mark.heavy
def test_every_block_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespaces: dict[str, dict] = {}
    for section, lang, start, code in code_blocks(DOC.read_text(encoding="utf-8")):
        where = f"docs/agents.md line {start} ({section})"
        if lang == "python":
            namespace = namespaces.setdefault(section, {"__name__": f"docs_agents_{len(namespaces)}"})
            exec(compile(code, where, "exec"), namespace)
        elif lang in ("bash", "sh", "console"):
            for line in code.splitlines():
                if line.strip() and not line.lstrip().startswith("#"):
                    run_shell_line(line.strip(), where, tmp_path)
        elif lang:
            pytest.fail(f"{where}: unknown block language {lang!r}; use python or bash (or no language "
                        "for a block that is not code)")
