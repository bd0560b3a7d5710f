"""Numeric command-line options refuse NaN, infinities and out-of-range values with a
usage error (issue 13, item 11: `stratego bench --seconds nan` looped forever)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from stratego import cli

ROOT = Path(__file__).resolve().parent.parent
NOT_FINITE = ["nan", "NaN", "inf", "-inf", "1e999"]


def load_script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def usage_error(main, argv, capsys) -> str:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize("value", NOT_FINITE + ["0", "-1", "abc", "2e6"])
def test_bench_seconds(value, capsys):
    err = usage_error(cli.main, ["bench", f"--seconds={value}"], capsys)
    assert "argument --seconds: " in err and value in err


@pytest.mark.parametrize("option,value", [
    ("--num-envs", "0"), ("--num-envs", str(2**26 + 1)), ("--num-envs", "nan"), ("--num-envs", "1.5"),
    ("--steps", "0"), ("--steps", str(2**31)), ("--steps", "inf"),
    ("--threads", "-1"), ("--threads", "4097"), ("--threads", "nan"),
])
def test_bench_integer_options(option, value, capsys):
    err = usage_error(cli.main, ["bench", f"{option}={value}"], capsys)
    assert f"argument {option}" in err


def test_bench_accepts_the_ranges_ends(capsys):
    assert cli.main(["bench", "--num-envs", "1", "--steps", "1", "--threads", "1", "--no-progress"]) == 0
    assert "checksum" in capsys.readouterr().out


@pytest.mark.parametrize("option,value", [
    ("--plies", "nan"), ("--plies", "inf"), ("--plies", "0"),
    ("--num-envs", "0"), ("--threads", "-2"),
    ("--warmup", "nan"), ("--warmup", "1.5"), ("--warmup", "-0.1"),
    ("--tolerance-mb", "inf"), ("--tolerance-mb", "-1"), ("--tolerance-mb", "nan"),
])
def test_soak_options(option, value, capsys):
    err = usage_error(load_script("soak").main, [f"{option}={value}"], capsys)
    assert f"argument {option}" in err


@pytest.mark.parametrize("option,value", [
    ("--min-time", "nan"), ("--min-time", "inf"), ("--min-time", "0"), ("--min-time", "-1"),
    ("--envs", "0"), ("--envs", "256,nan"), ("--envs", "256,,4096"), ("--envs", str(2**27)),
    ("--headline-envs", "0"), ("--threads", "0"), ("--threads", "1,nan"), ("--threads", "9999"),
])
def test_suite_options(option, value, capsys):
    err = usage_error(load_script("suite").main, [f"{option}={value}"], capsys)
    assert f"argument {option}" in err


@pytest.mark.parametrize("kwargs", [{"seconds": float("nan")}, {"seconds": float("inf")}, {"seconds": 0},
                                    {"batch_steps": 0}, {"batch_steps": 1.5}])
def test_run_bench_refuses_limits_it_never_reaches(kwargs):
    from stratego.bench import run_bench
    with pytest.raises(ValueError, match="seconds|batch_steps"):
        run_bench(num_envs=1, progress=False, **({"batch_steps": None} | kwargs))


# ---------------------------------------------------------------- issue 29, item 6: the CLI as people expect it

def _subcommands() -> dict:
    """The subcommands' parsers by name, as main builds them."""
    import argparse
    built = {}
    original = argparse.ArgumentParser.parse_args

    def capture(self, args=None, namespace=None):
        subparsers = next(a for a in self._actions if isinstance(a, argparse._SubParsersAction))
        built.update(subparsers.choices)
        raise SystemExit(0)

    argparse.ArgumentParser.parse_args = capture
    try:
        with pytest.raises(SystemExit):
            cli.main(["bench"])
    finally:
        argparse.ArgumentParser.parse_args = original
    return built


def test_version(capsys):
    from importlib.metadata import version

    import stratego
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"stratego {version('stratego-sim')}"
    assert version("stratego-sim") == stratego.__version__  # pyproject.toml's and the package's agree


def test_every_subcommand_has_a_description(capsys):
    parsers = _subcommands()
    assert {"bench", "arena", "pairs", "record", "view", "replay", "play"} <= set(parsers)
    for name, parser in parsers.items():
        assert parser.description, f"stratego {name} -h has no description"
        with pytest.raises(SystemExit):
            cli.main([name, "-h"])
        assert parser.description.split()[0] in capsys.readouterr().out


def test_every_subcommand_runs_through_the_one_table():
    # main() dispatches through cli.COMMANDS, which the docs test replaces to parse commands
    # without running them: a subcommand missing there would run (stratego serve did).
    assert set(_subcommands()) == set(cli.COMMANDS)


def test_an_error_in_a_subcommand_prints_its_usage(capsys):
    err = usage_error(cli.main, ["bench", "--variant", "clasic", "--no-progress"], capsys)
    assert err.startswith("usage: stratego bench ") and "stratego bench: error: unknown variant 'clasic'" in err
    err = usage_error(cli.main, ["pairs", "/nonexistent/records.jsonl", "-o", "/nonexistent/x.npz"], capsys)
    assert err.startswith("usage: stratego pairs ") and "stratego pairs: error:" in err


def test_a_bad_variant_fails_before_the_banner(capsys):
    with pytest.raises(SystemExit):
        cli.main(["bench", "--variant", "clasic"])
    captured = capsys.readouterr()
    assert captured.out == "" and "unknown variant 'clasic'" in captured.err


def test_a_redirected_bench_writes_no_frames(tmp_path):
    # Output to files (not a terminal): no progress bar frames, only the results.
    import subprocess
    import sys
    out, err = tmp_path / "out.log", tmp_path / "err.log"
    with open(out, "wb") as stdout, open(err, "wb") as stderr:
        done = subprocess.run([sys.executable, "-m", "stratego.cli", "bench", "--num-envs", "16", "--steps", "200",
                               "--threads", "1"], stdout=stdout, stderr=stderr, timeout=120)
    assert done.returncode == 0
    text = out.read_bytes() + err.read_bytes()
    assert b"\r" not in text and text.count(b"checksum") == 2


def test_a_terminal_gets_the_progress_bar():
    pexpect = pytest.importorskip("pexpect")
    import sys
    child = pexpect.spawn(sys.executable, ["-m", "stratego.cli", "bench", "--num-envs", "16", "--steps", "200",
                                           "--threads", "1", "--no-obs"], timeout=60, dimensions=(40, 120))
    child.expect(pexpect.EOF)
    text = child.before.decode()
    assert "100.0%" in text and "M steps/s" in text and "checksum" in text


def test_arena_help_lists_every_bot(capsys):
    import stratego
    with pytest.raises(SystemExit):
        cli.main(["arena", "-h"])
    out = " ".join(capsys.readouterr().out.split())
    assert all(f"'{bot}'" in out for bot in stratego.BOTS)
    docs = " ".join((ROOT / "docs" / "agents.md").read_text(encoding="utf-8").split())
    assert all(f"`{bot}`" in docs.split("## Arena", 1)[1][:400] for bot in stratego.BOTS)


def test_an_arena_read_through_a_closed_pipe_keeps_its_results(tmp_path):
    """`stratego arena ... | head` once printed the usage and "[Errno 32] Broken pipe" and
    lost the JSON, which it wrote after the table. Now the results are written first and
    a reader that goes away is no bad setting: no usage, no traceback."""
    import json
    import subprocess
    import sys
    out = tmp_path / "arena.json"
    proc = subprocess.Popen([sys.executable, "-m", "stratego.cli", "arena", "random", "heuristic", "--games", "2",
                             "--max-plies", "40", "--threads", "1", "--seed", "1", "--no-progress", "--json", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader goes away before the first line
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=120) == 1, err
    assert "usage:" not in err and "Traceback" not in err and "Broken pipe" not in err, err
    assert json.loads(out.read_text())["games_per_pairing_and_colour"] == 2
