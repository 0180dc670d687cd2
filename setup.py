"""Compile the hot modules with mypyc, and build the C learning engine; everything else
is plain Python.

The metadata lives in pyproject.toml; the modules to compile are named once,
in ``lazyfun.compiled.COMPILED``, and read from there (the Makefile asks
``python setup.py --compiled-sources``); the C extension is
``lazyfun.compiled.C_EXTENSION`` (``python setup.py --c-sources``).
``LAZYFUN_PURE_BUILD=1`` skips compiling; if mypyc or the C compiler fails,
the install goes on with the source (and without the learning engine: the
Sudoku engine then searches depth-first at every size).
"""

import ast
import os
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def compiled_sources() -> list[str]:
    """The source files of ``lazyfun.compiled.COMPILED``, read without importing lazyfun."""
    tree = ast.parse((HERE / "lazyfun" / "compiled.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in targets):
                assert node.value is not None
                names: tuple[str, ...] = ast.literal_eval(node.value)
                return [name.replace(".", "/") + ".py" for name in names]
    raise SystemExit("setup.py: lazyfun/compiled.py names no COMPILED modules")


def c_extension_source() -> str:
    """The C source of ``lazyfun.compiled.C_EXTENSION``, read without importing lazyfun."""
    tree = ast.parse((HERE / "lazyfun" / "compiled.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "C_EXTENSION" for t in targets):
                assert node.value is not None
                name: str = ast.literal_eval(node.value)
                return name.replace(".", "/") + ".c"
    raise SystemExit("setup.py: lazyfun/compiled.py names no C_EXTENSION")


def compiled_extensions() -> list[Any]:
    """The C learning engine and mypyc's extensions for ``COMPILED``, each optional; none
    when asked, and no mypyc ones without mypyc."""
    if os.environ.get("LAZYFUN_PURE_BUILD"):
        return []
    from setuptools import Extension

    source = c_extension_source()
    learning = Extension(
        source.removesuffix(".c").replace("/", "."),
        [source],
        extra_compile_args=["-O3"],
        optional=True,
    )
    try:
        from mypyc.build import mypycify

        # pip builds in an isolated environment without the optional extras (dask): what
        # the compiled modules import from them is typed Any there, not an error
        extensions = mypycify(["--ignore-missing-imports", *compiled_sources()], opt_level="3")
    except (Exception, SystemExit) as failure:  # mypyc exits on a type error
        print(f"lazyfun: not compiling ({failure!r}); the source will run", file=sys.stderr)
        return [learning]
    for extension in extensions:
        extension.optional = True
    return [learning, *extensions]


if __name__ == "__main__":
    if sys.argv[1:] == ["--compiled-sources"]:
        print(" ".join(compiled_sources()))
    elif sys.argv[1:] == ["--c-sources"]:
        print(c_extension_source())
    else:
        from setuptools import setup

        setup(ext_modules=compiled_extensions())
