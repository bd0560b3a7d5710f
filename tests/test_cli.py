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
