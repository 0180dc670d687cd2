"""Compile the two hot modules with mypyc; everything else is plain Python.

The metadata lives in pyproject.toml.  ``LAZYFUN_PURE_BUILD=1`` skips
compiling; if mypyc or the C compiler fails, the install goes on with the
source.
"""

import os
import sys
from typing import Any

from setuptools import setup

# Kept in step with lazyfun.compiled.COMPILED (a test checks it).
COMPILED = ["lazyfun/sudoku/engine.py", "lazyfun/csp/solver.py"]


def compiled_extensions() -> list[Any]:
    """mypyc's extensions for ``COMPILED``, each optional; none when asked or without mypyc."""
    if os.environ.get("LAZYFUN_PURE_BUILD"):
        return []
    try:
        from mypyc.build import mypycify

        extensions = mypycify(COMPILED, opt_level="3")
    except (Exception, SystemExit) as failure:  # mypyc exits on a type error
        print(f"lazyfun: not compiling ({failure!r}); the source will run", file=sys.stderr)
        return []
    for extension in extensions:
        extension.optional = True
    return extensions


setup(ext_modules=compiled_extensions())
