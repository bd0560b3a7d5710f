"""The documentation: every relative link in README.md and docs/ names a file that
exists, and every code block runs or is checked (the conventions are below and in
docs/testing.md), so a page moved or renamed, or a snippet that no longer works, shows
here, not to a reader."""
from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
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


# ------------------------------------------------------------------ the code blocks
#
# Every fenced block of README.md and docs/ is either run or checked (docs/testing.md,
# "Code in the docs"):
#   ```python           runs; the python and bash blocks of one "## " section run in order
#                       in a temporary folder of their own (a later block may read a
#                       file an earlier one wrote), each python block in a fresh
#                       namespace (a reader copies one block, not the page);
#   ```bash             each command runs: `stratego ...` through the CLI, `pip ...` is
#                       skipped (installing is not a test's job), anything else fails;
#   ```python fragment  shown, not run (a piece of a whole, a run of minutes, a cluster):
#                       it must compile;
#   ```bash fragment    shown, not run: each `stratego ...` command must parse with the
#                       CLI's own options, each `python FILE` must name a file here;
#   ```json             must parse;
#   ``` (no language)   not code: a board, a layout, a synopsis, a signature.
# A section whose code needs an extra (torch, SB3, PettingZoo, OpenSpiel) is marked heavy;
# one that runs for long (DEEP below) is marked deep.

FENCE = re.compile(r"^```(\w*)(?:[ \t]+(\w+))?[ \t]*$")
RUNS = {"python", "bash"}
HEAVY = ("sb3_contrib", "stable_baselines3", "torch", "pettingzoo", "pyspiel", "open_spiel", ".pt")
# Sections that run for many CPU-seconds (an arena of policies, ISMCTS): the deep layer.
DEEP = {("agents.md", "Arena"), ("sampling.md", "OpenSpiel")}


@dataclass(frozen=True)
class Block:
    page: Path
    section: str
    lang: str
    fragment: bool
    line: int  # the first line of the code
    code: str

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)} line {self.line}"


def code_blocks(page: Path) -> list[Block]:
    blocks, section, opened, lines = [], "", None, []
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if opened is None:
            if line.startswith("```"):
                match = FENCE.match(line)
                assert match and match.group(2) in (None, "fragment"), (
                    f"{page.relative_to(ROOT)} line {number}: a fence is ```LANGUAGE or ```LANGUAGE fragment, "
                    f"got {line!r}")
                opened, lines = (match.group(1), match.group(2) == "fragment", number + 1), []
            elif line.startswith("## "):
                section = line[3:].strip()
        elif line.strip() == "```":
            blocks.append(Block(page, section, opened[0], opened[1], opened[2], "\n".join(lines) + "\n"))
            opened = None
        else:
            lines.append(line)
    assert opened is None, f"{page.relative_to(ROOT)}: the code block opened on line {opened[2] - 1} is never closed"
    return blocks


BLOCKS = [block for page in PAGES for block in code_blocks(page)]


def commands(code: str) -> list[str]:
    """A bash block's commands: continuation lines joined, comments dropped, `&&` split."""
    joined = re.sub(r"\\\n\s*", " ", code)
    out = []
    for line in joined.splitlines():
        line = re.sub(r"(^|\s)#.*$", "", line).strip()
        out += [part.strip() for part in line.split("&&") if part.strip()]
    return out


def parse_stratego_command(words: list[str], where: str, monkeypatch) -> None:
    """The command's words through `stratego`'s own parser (options, choices, types), with
    nothing run: every subcommand's function is replaced by one that returns 0."""
    from stratego import cli

    monkeypatch.setattr(cli, "COMMANDS", {name: (lambda args: 0) for name in cli.COMMANDS})
    try:
        assert cli.main(words) == 0
    except SystemExit as exc:
        pytest.fail(f"{where}: `stratego {' '.join(words)}` does not parse (exit {exc.code})")


def run_bash(block: Block, cwd: Path, monkeypatch) -> None:
    for command in commands(block.code):
        words = shlex.split(command)
        if block.fragment:
            if words[0] == "stratego":
                parse_stratego_command(words[1:], block.where, monkeypatch)
            elif words[0] in ("python", "python3") and words[1].endswith(".py"):
                assert (ROOT / words[1]).is_file(), f"{block.where}: {words[1]} is not a file of the repository"
            continue
        if words[0] == "pip":
            continue
        if words[0] != "stratego":
            pytest.fail(f"{block.where}: a bash block runs only `stratego` commands (and skips pip); mark it "
                        f"```bash fragment to show {command!r} without running it")
        done = subprocess.run([sys.executable, "-m", "stratego.cli", *words[1:]], cwd=cwd, capture_output=True,
                              text=True, timeout=600)
        assert done.returncode == 0, f"{block.where}: {command!r} failed:\n{done.stdout}\n{done.stderr}"


def runnable_sections() -> list:
    by_section: dict[tuple[Path, str], list[Block]] = {}
    for block in BLOCKS:
        if block.lang in RUNS and not block.fragment:
            by_section.setdefault((block.page, block.section), []).append(block)
    return [
        pytest.param(blocks, id=f"{page.name}:{section or 'top'}",
                     marks=([pytest.mark.heavy] if any(h in b.code for b in blocks for h in HEAVY) else [])
                     + ([pytest.mark.deep] if (page.name, section) in DEEP else []))
        for (page, section), blocks in by_section.items()
    ]


@pytest.mark.parametrize("blocks", runnable_sections())
def test_section_runs(blocks, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        if block.lang == "python":
            exec(compile(block.code, block.where, "exec"), {"__name__": "__docs__"})
        else:
            run_bash(block, tmp_path, monkeypatch)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_block_is_code_that_runs_or_is_checked(page, monkeypatch):
    for block in code_blocks(page):
        if block.lang == "":
            continue  # not code
        if block.lang == "json":
            try:
                json.loads(block.code)
            except ValueError as exc:
                pytest.fail(f"{block.where}: the JSON does not parse: {exc}")
        elif block.lang == "python" and block.fragment:
            compile(block.code, block.where, "exec")
        elif block.lang == "bash" and block.fragment:
            run_bash(block, page.parent, monkeypatch)
        elif block.lang not in RUNS:
            pytest.fail(f"{block.where}: unknown block language {block.lang!r}: use python, bash or json "
                        "(or none for a block that is not code)")


def test_the_pages_have_runnable_blocks():
    sections = {(b.page.name, b.section) for b in BLOCKS if b.lang in RUNS and not b.fragment}
    assert {("README.md", "A short example"), ("agents.md", "Gymnasium env against an opponent"),
            ("agents.md", "Self-play bookkeeping and autoreset modes"), ("agents.md", "PettingZoo"),
            ("agents.md", "Saved policies"), ("agents.md", "Arena"), ("sampling.md", "API")} <= sections


PIP_INSTALL = re.compile(r"pip install (?:-e )?'?([\w.-]+)\[([\w,]+)\]")


def test_pip_installs_name_the_distribution_and_its_extras():
    """`pip install X[extras]` anywhere in the docs names this distribution (or `.`) and
    extras it has."""
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = set(project["optional-dependencies"])
    bad = []
    for page in PAGES:
        for name, wanted in PIP_INSTALL.findall(page.read_text(encoding="utf-8")):
            if name not in (".", project["name"]) or not set(wanted.split(",")) <= extras:
                bad.append(f"{page.name}: {name}[{wanted}]")
    assert not bad, f"pip installs of another name or an extra pyproject.toml lacks ({project['name']}, {extras}): {bad}"


def test_the_vec_env_signature_in_api_md_is_the_real_one():
    """docs/api.md shows VecEnv's signature as a block without a language: its parameters,
    in order, with their defaults, are those of stratego.VecEnv."""
    import ast
    import inspect

    import stratego

    shown = next(b.code for b in code_blocks(ROOT / "docs" / "api.md") if b.code.startswith("stratego.VecEnv("))
    tree = ast.parse("def VecEnv" + shown.strip()[len("stratego.VecEnv"):] + ": pass")
    args = tree.body[0].args
    documented = [(a.arg, None) for a in args.args[:len(args.args) - len(args.defaults)]]
    documented += [(a.arg, ast.unparse(d)) for a, d in zip(args.args[len(args.args) - len(args.defaults):],
                                                           args.defaults)]
    documented += [(a.arg, ast.unparse(d) if d is not None else None) for a, d in zip(args.kwonlyargs,
                                                                                      args.kw_defaults)]
    documented += [("**" + args.kwarg.arg, None)] if args.kwarg else []
    real = []
    for p in inspect.signature(stratego.VecEnv).parameters.values():
        if p.kind is p.VAR_KEYWORD:
            real.append(("**" + p.name, None))
        else:
            default = None if p.default is p.empty else (
                f"{type(p.default).__name__}.{p.default.name}" if hasattr(p.default, "name") else repr(p.default))
            real.append((p.name, default))
    assert documented == real
