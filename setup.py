"""Build of the C extension stratego._core.

Threads are POSIX threads (csrc/engine/pool.c). STRATEGO_SANITIZE=1 builds with AddressSanitizer and
UndefinedBehaviorSanitizer (run Python with the ASan runtime preloaded, see README).
STRATEGO_DEBUG=1 builds with -O0 -g.
"""
import os
from pathlib import Path

import numpy
from setuptools import Extension, setup

# The C sources, one folder a layer (docs/architecture.md): engine/ (no game), stratego/
# with its bots/, castle/, and python/ (the binding, the only files that include Python.h).
# Every C file under csrc/ is built but the engine-only program (csrc/main.c) and the
# fuzzers (csrc/fuzz/), so a new file or folder needs no list here. Includes name a file
# of another folder by its path from csrc/ ("engine/pool.h").
HERE = Path(__file__).resolve().parent
SOURCES = sorted(str(p.relative_to(HERE)) for p in (HERE / "csrc").rglob("*.c")
                 if p.parent.name != "fuzz" and p.relative_to(HERE).as_posix() != "csrc/main.c")


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
    # The batch's own thread pool (csrc/engine/pool.c), not OpenMP: see pool.h for why.
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
              "stratego.common", "stratego.records", "stratego.integrations", "stratego.agents",
              "stratego.agents.zoo", "stratego.viewing", "stratego.web"],
    package_data={
        # Type information: the package's annotations (PEP 561) and the extension's stub.
        "stratego": ["py.typed", "_core.pyi"],
        "stratego.data": ["*.txt", "*.md", "*.html", "*.js", "*.css"],
        # `stratego serve`'s page: plain files, no build step (stratego/web).
        "stratego.web": ["static/*.html", "static/*.js", "static/*.css"],
        "stratego.configs": ["*.toml"],
        # The zoo's trained policies and their index (docs/zoo.md).
        "stratego.agents.zoo": ["*.pt", "zoo.json"],
        "stratego.configs.castle": ["*.toml"],
    },
    ext_modules=[
        Extension(
            "stratego._core",
            sources=SOURCES,
            include_dirs=["csrc", numpy.get_include()],
            depends=[str(p) for p in Path("csrc").rglob("*.h")],
            extra_compile_args=compile_args,
            extra_link_args=link_args,
        )
    ],
)
