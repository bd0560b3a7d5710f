"""The plain C paths behind every SIMD block (`#else` of `__SSE2__`, no AVX2) write the
same bytes as the SIMD paths: the C program plays random batched games with the legal
mask and observations, built both ways, and hashes everything written at every step."""
from __future__ import annotations

import subprocess

import pytest

from cbuild import CSRC, ROOT, build, clean_env, compiler

# The deep layer (docs/testing.md): C programs built and run, in .ci/run.
pytestmark = pytest.mark.deep

RUN = ["bench", "96", "400", "1", "1", "1"]  # games, steps, threads, observations, digest
COMPACT = ["bench", "96", "400", "1", "2", "1"]  # observations 2: codes and the packed mask


def _digest(program, run=RUN, **env) -> tuple[str, str]:
    done = subprocess.run([str(program), *run], capture_output=True, text=True,
                          env={**clean_env(), **env}, timeout=600)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    digest = next(line.split()[1] for line in lines if line.startswith("digest "))
    checksum = lines[-1].rsplit(" ", 1)[1]
    return digest, checksum


def test_portable_paths_write_the_same_bytes_as_simd():
    cc = compiler()
    if cc is None:
        pytest.skip("no C compiler found (set CC or put cc/gcc/clang on PATH)")
    flags = ["-std=c11", "-O2", "-pthread"]
    main = {"stratego_main": [CSRC / "main.c"]}
    simd = build("simd", cc, flags, main)["stratego_main"]
    portable = build("portable", cc, [*flags, "-U__SSE2__", "-DSTRATEGO_NO_SIMD"], main)["stratego_main"]
    reference = _digest(simd)
    assert _digest(simd, STRATEGO_NO_AVX2="1") == reference
    assert _digest(portable) == reference
    compact = _digest(simd, COMPACT)
    assert compact[1] == reference[1]  # the same games
    assert _digest(simd, COMPACT, STRATEGO_NO_AVX2="1") == compact  # the codes' AVX2 squares
    assert _digest(portable, COMPACT) == compact


def _bot_checksums(program) -> list[str]:
    """The checksum of each bot's actions that bot_decisions prints (its timings vary)."""
    done = subprocess.run([str(program), "256", "2"], capture_output=True, text=True, env=clean_env(), timeout=600)
    assert done.returncode == 0, done.stderr
    return [line.rsplit(" ", 1)[1] for line in done.stdout.splitlines() if "checksum" in line]


def test_portable_paths_choose_the_same_bot_moves():
    """The heuristic bot's plain C paths (view_sets' loop over the bytes, dot12's four
    lanes added in SSE2's order) choose the same actions as the SSE2 paths."""
    cc = compiler()
    if cc is None:
        pytest.skip("no C compiler found (set CC or put cc/gcc/clang on PATH)")
    flags = ["-std=c11", "-O2", "-pthread"]
    program = {"bot_decisions": [ROOT / "benchmarks" / "bot_decisions.c"]}
    simd = build("bots-simd", cc, flags, program)["bot_decisions"]
    portable = build("bots-portable", cc, [*flags, "-U__SSE2__", "-DSTRATEGO_NO_SIMD"], program)["bot_decisions"]
    reference = _bot_checksums(simd)
    assert len(reference) == 2  # random, heuristic
    assert _bot_checksums(portable) == reference
