"""The plain C paths behind every SIMD block (`#else` of `__SSE2__`, no AVX2) write the
same bytes as the SIMD paths: the C program plays random batched games with the legal
mask and observations, built both ways, and hashes everything written at every step."""
from __future__ import annotations

import subprocess

import pytest

from cbuild import CSRC, build, clean_env, compiler

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
    assert _digest(portable, COMPACT) == compact
