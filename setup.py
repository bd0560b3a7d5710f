"""Build of the C extension stratego._core.

OpenMP is used when the compiler has it (probed once); without it the extension builds
and runs single-threaded. STRATEGO_SANITIZE=1 builds with AddressSanitizer and
UndefinedBehaviorSanitizer (run Python with the ASan runtime preloaded, see README).
STRATEGO_DEBUG=1 builds with -O0 -g.
"""
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy
from setuptools import Extension, setup

CORE_SOURCES = [
    "init.c", "board.c", "rules.c", "moves.c", "repetition.c", "chase.c", "setup.c", "game.c",
    "view.c", "observe.c", "observe_full.c", "bot.c", "bot_game.c", "batch.c", "save.c",
]


def compiler_has_openmp() -> bool:
    """Whether `cc -fopenmp` compiles and links a program that uses omp.h."""
    cc = os.environ.get("CC", "cc")
    if shutil.which(cc) is None:
        return False
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp, "probe.c")
        src.write_text("#include <omp.h>\nint main(void){return omp_get_max_threads() < 1;}\n")
        result = subprocess.run(
            [cc, "-fopenmp", str(src), "-o", str(Path(tmp, "probe"))],
            capture_output=True,
        )
        return result.returncode == 0


def build_flags():
    compile_args = ["-std=c11", "-Wall", "-Wextra", "-Wno-missing-field-initializers"]
    link_args = []
    if os.environ.get("STRATEGO_SANITIZE") == "1":
        san = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=undefined"]
        compile_args += ["-O1", "-g"] + san
        link_args += san
    elif os.environ.get("STRATEGO_DEBUG") == "1":
        compile_args += ["-O0", "-g"]
    else:
        compile_args += ["-O3"]
    if os.environ.get("STRATEGO_NO_OPENMP") != "1" and compiler_has_openmp():
        compile_args.append("-fopenmp")
        link_args.append("-fopenmp")
    else:
        print("stratego: building without OpenMP (single-threaded)", file=sys.stderr)
    return compile_args, link_args


compile_args, link_args = build_flags()
# Separate build folders per flavour, so a sanitizer build never links objects
# compiled without it (or the other way round).
FLAVOUR = "asan" if os.environ.get("STRATEGO_SANITIZE") == "1" else "release"

setup(
    options={"build": {"build_base": f"build/{FLAVOUR}"}},
    package_dir={"": "python", "stratego.configs": "configs"},
    packages=["stratego", "stratego.configs", "stratego.data"],
    package_data={"stratego.data": ["*.txt", "*.md"], "stratego.configs": ["*.toml"]},
    ext_modules=[
        Extension(
            "stratego._core",
            sources=["csrc/binding.c"] + [f"csrc/{name}" for name in CORE_SOURCES],
            include_dirs=["csrc", numpy.get_include()],
            depends=[str(p) for p in Path("csrc").glob("*.h")],
            extra_compile_args=compile_args,
            extra_link_args=link_args,
        )
    ],
)
