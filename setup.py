"""Build of the C extension stratego._core.

Threads are POSIX threads (csrc/pool.c). STRATEGO_SANITIZE=1 builds with AddressSanitizer and
UndefinedBehaviorSanitizer (run Python with the ASan runtime preloaded, see README).
STRATEGO_DEBUG=1 builds with -O0 -g.
"""
import os
from pathlib import Path

import numpy
from setuptools import Extension, setup

# The binding (csrc/python/, the only files that include Python.h) and the C core: every
# C file there but main.c (the engine without Python), so a new file needs no list here
# (csrc/Makefile and tests/cbuild.py find them the same way).
HERE = Path(__file__).resolve().parent
BINDING_SOURCES = sorted(p.name for p in (HERE / "csrc" / "python").glob("*.c"))
CORE_SOURCES = sorted(p.name for p in (HERE / "csrc").glob("*.c") if p.name != "main.c")
# The castle game's core (docs/castle.md), a second game beside Stratego's.
CASTLE_SOURCES = sorted(p.name for p in (HERE / "csrc" / "castle").glob("*.c"))


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
    # Only PyInit__core leaves the extension (PyMODINIT_FUNC exports it): the core's
    # functions are then called directly and inlined within a file, not through the PLT
    # as symbols another library could replace.
    compile_args.append("-fvisibility=hidden")
    # The batch's own thread pool (csrc/pool.c), not OpenMP: see pool.h for why.
    compile_args.append("-pthread")
    link_args.append("-pthread")
    return compile_args, link_args


compile_args, link_args = build_flags()
# Separate build folders per flavour, so a sanitizer build never links objects
# compiled without it (or the other way round).
FLAVOUR = "asan" if os.environ.get("STRATEGO_SANITIZE") == "1" else "release"

setup(
    options={"build": {"build_base": f"build/{FLAVOUR}"}},
    package_dir={"": "python", "stratego.configs": "configs", "stratego.configs.castle": "configs/castle"},
    packages=["stratego", "stratego.configs", "stratego.configs.castle", "stratego.data", "stratego.castle",
              "stratego.web"],
    package_data={
        # Type information: the package's annotations (PEP 561) and the extension's stub.
        "stratego": ["py.typed", "_core.pyi"],
        "stratego.data": ["*.txt", "*.md", "*.html", "*.js", "*.css"],
        # `stratego serve`'s page: plain files, no build step (stratego/web).
        "stratego.web": ["static/*.html", "static/*.js", "static/*.css"],
        "stratego.configs": ["*.toml"],
        "stratego.configs.castle": ["*.toml"],
    },
    ext_modules=[
        Extension(
            "stratego._core",
            sources=[f"csrc/python/{name}" for name in BINDING_SOURCES]
            + [f"csrc/{name}" for name in CORE_SOURCES]
            + [f"csrc/castle/{name}" for name in CASTLE_SOURCES],
            include_dirs=["csrc", "csrc/python", "csrc/castle", numpy.get_include()],
            depends=[str(p) for p in Path("csrc").rglob("*.h")],
            extra_compile_args=compile_args,
            extra_link_args=link_args,
        )
    ],
)
