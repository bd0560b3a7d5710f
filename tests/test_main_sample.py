"""`stratego_main sample GAMES PLIES WORLDS` refuses what it cannot do instead of
looping: a game is over at the ply cap, so none could be sampled there."""
from __future__ import annotations

import subprocess

import pytest

from cbuild import CSRC, build, clean_env, compiler

# The deep layer (docs/testing.md): C programs built and run, in .ci/run.
pytestmark = pytest.mark.deep


def _main():
    cc = compiler()
    if cc is None:
        pytest.skip("no C compiler found (set CC or put cc/gcc/clang on PATH)")
    # The flags and program of test_simd_fallbacks: the same cached build.
    return build("simd", cc, ["-std=c11", "-O2", "-pthread"], {"stratego_main": [CSRC / "main.c"]})["stratego_main"]


def test_sample_at_the_ply_cap_is_refused() -> None:
    main = _main()
    done = subprocess.run([str(main), "sample", "2", "2000", "5"], capture_output=True, text=True,
                          env=clean_env(), timeout=60)
    assert done.returncode == 2 and "plies must be below the ply cap 2000" in done.stderr
    done = subprocess.run([str(main), "sample", "2", "40", "5"], capture_output=True, text=True,
                          env=clean_env(), timeout=60)
    assert done.returncode == 0 and "2 games at ply 40 x 5 worlds" in done.stdout
