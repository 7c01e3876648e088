"""The compiled parts of the project: each game's native search, ``rules/<game>/_native.c``.

Everything else is in ``pyproject.toml``. Each ``_native.c`` under ``rules/`` is built as the
extension module next to it (``rules.clear._native``), with the C compiler and Python headers
a fresh machine has; ``pip install -e .`` (``make``) builds them in place. The pure Python
solvers stay the reference the native ones are tested against (docs/solver.md).
"""

from pathlib import Path

from setuptools import Extension, setup

NATIVE = sorted(Path("rules").glob("*/_native.c"))

setup(ext_modules=[
    Extension(".".join(source.with_suffix("").parts), [str(source)],
              extra_compile_args=["-O2", "-std=c11"])
    for source in NATIVE
])
