"""Compile the hot modules with mypyc, and build the C learning engine and the C flow
engine; everything else is plain Python.

The metadata lives in pyproject.toml.  The modules to compile are named once, in
``lazyfun.compiled`` (``COMPILED``, ``C_EXTENSION`` for the C engine, whose
sources are ``lazyfun/sudoku/solving/learning_c``, ``C_FLOW`` for the Stream's
hot steps, ``lazyfun/streams/sync/flow_c``, and ``C_FORCING`` for Sudoku Explainer's
chains and wings, whose sources are ``lazyfun/sudoku/steps/forcing_c``, and ``C_NINE``
for the 9x9 engine, ``lazyfun/sudoku/solving/nine_c``, and ``C_MINLEX`` for minlex's
search, ``lazyfun/sudoku/canon/minlex_c``, and ``C_KERNELS`` for the constraint solver's
kernels, ``lazyfun/csp/propagation/kernels_c``); that file
imports only the standard library, so it is read here as a file, before lazyfun or its
dependencies are installed.  ``LAZYFUN_PURE_BUILD=1`` skips compiling; if mypyc or the C compiler
fails, the install goes on with the source (and without the learning engine: the
Sudoku engine then searches depth-first at every size; without the flow engine the
Stream's take, catch and throttle run their Python forms), and says so in one line at the
end of the build, on stderr (``BuildExt``: pip shows it with ``-v`` only; ``lazyfun
--version`` says it too, from what was installed).
mypyc leaves the compiled modules' docstrings out of its C; ``mypyc_docs.py`` writes the
source's in before the C is compiled (so ``help()`` shows them), and where it cannot the
build goes on without them, saying so.
"""

import importlib.util
import os
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
LEARNING_C = Path("lazyfun", "sudoku", "solving", "learning_c")
FLOW_C = Path("lazyfun", "streams", "sync", "flow_c")
FORCING_C = Path("lazyfun", "sudoku", "steps", "forcing_c")
NINE_C = Path("lazyfun", "sudoku", "solving", "nine_c")
MINLEX_C = Path("lazyfun", "sudoku", "canon", "minlex_c")
KERNELS_C = Path("lazyfun", "csp", "propagation", "kernels_c")
ARROW_C = Path("lazyfun", "sinks", "arrow_c")
# What the build left out before building (mypyc's modules, when mypyc could not run).
NOT_COMPILED: list[str] = []
# The C engines are held to these: a warning is an error (make sanitize adds the sanitizers).
# Link-time optimisation inlines across an engine's files (the heap and propagation calls of
# the learning search): without it the split engine ran about 2% slower than the single file did.
C_FLAGS = ["-O3", "-flto", "-Wall", "-Wextra", "-Werror"]


def _from_file(name: str, path: Path) -> ModuleType:
    """The module of the file ``path``, loaded as ``name`` (not from an installed lazyfun)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # for what looks its module up (dataclasses)
    spec.loader.exec_module(module)
    return module


def _compiled() -> ModuleType:
    """``lazyfun/compiled.py``, loaded from its file."""
    return _from_file("_compiled", HERE / "lazyfun" / "compiled.py")


def folder_extension(name: str, folder: Path) -> Extension:
    """A C engine of several files: every ``.c`` of ``folder``, one extension (the learning
    engine, the Stream's flow, the chains and wings, the 9x9 engine, minlex's search, or
    the solver's kernels)."""
    return Extension(
        name,
        sources=sorted(str(path) for path in folder.glob("*.c")),
        depends=sorted(str(path) for path in folder.glob("*.h")),
        extra_compile_args=C_FLAGS,
        extra_link_args=["-flto"],
        optional=True,
    )


# The compiled modules' shared libraries: the solver's propagation and its search are each
# about as large as all the rest, and gcc takes one file of mypyc's C at a time, so three
# libraries compile on two cores in less than half the time of one (81 s against 178 s on
# this machine) and run as fast (the calls between them are C calls through a table).
GROUPS = {
    "lazyfun/csp/propagation/": "lazyfun._native_propagation",
    "lazyfun/csp/search/": "lazyfun._native_search",
}


def groups(sources: list[str]) -> list[tuple[list[str], str | None]]:
    """The compiled modules' sources by the shared library that holds them: those under a
    folder of ``GROUPS`` in its library, the others in ``lazyfun._native``."""
    by_name: dict[str, list[str]] = {}
    for source in sources:
        folders = (name for folder, name in GROUPS.items() if source.startswith(folder))
        by_name.setdefault(next(folders, "lazyfun._native"), []).append(source)
    return [(files, name) for name, files in by_name.items()]


def extensions() -> list[Any]:
    """The C engines and mypyc's extensions, each optional; none when asked."""
    if os.environ.get("LAZYFUN_PURE_BUILD"):
        return []
    compiled = _compiled()
    engines = [
        folder_extension(compiled.C_EXTENSION, LEARNING_C),
        folder_extension(compiled.C_FLOW, FLOW_C),
        folder_extension(compiled.C_FORCING, FORCING_C),
        folder_extension(compiled.C_NINE, NINE_C),
        folder_extension(compiled.C_MINLEX, MINLEX_C),
        folder_extension(compiled.C_KERNELS, KERNELS_C),
        folder_extension(compiled.C_ARROW, ARROW_C),
    ]
    sources = [name.replace(".", "/") + ".py" for name in compiled.COMPILED]
    try:
        from mypyc.build import mypycify

        docs = _from_file("_mypyc_docs", HERE / "mypyc_docs.py")
        before = docs.snapshot(HERE / "build")
        # What the compiled modules import from other packages is typed Any (what pip's
        # isolated build has anyway, which lacks the optional extras such as dask): with
        # site-packages left out, mypyc reads lazyfun and the standard library's stubs only,
        # and writes the same C in 9 s instead of 60 (reading numpy, dask, IPython, ...).
        # Shared libraries inside the package (not hashed top-level modules), so an install
        # in place finds them wherever it runs from; several, compiled side by side.
        # Its own cache: `make test` type-checks with mypy beside the build, and two mypy
        # runs writing one .mypy_cache at once crashed one of them (an internal error).
        cache = f"--cache-dir={Path('build', 'mypyc-cache')}"
        mypyc = mypycify(
            ["--ignore-missing-imports", "--no-site-packages", cache, *sources],
            opt_level="3",
            separate=groups(sources),
        )
    except (Exception, SystemExit) as failure:  # mypyc exits on a type error
        print(f"lazyfun: not compiling ({failure!r}); the source will run", file=sys.stderr)
        NOT_COMPILED.append("the mypyc modules (mypyc could not run)")
        return engines
    # mypyc leaves the docstrings out: mypyc_docs writes the source's into its C
    try:
        written = docs.write_docstrings(
            [source for extension in mypyc for source in extension.sources],
            docs.source_docs(compiled.COMPILED, HERE),
            before,
        )
    except Exception as failure:
        written, reason = 0, f" ({failure!r})"
    else:
        reason = ""
    if not written:
        print(f"lazyfun: compiling without the docstrings{reason}", file=sys.stderr)
    for extension in mypyc:
        extension.optional = True
    return [*engines, *mypyc]


class BuildExt(build_ext):
    """setuptools' ``build_ext``, whose last line says what was built without: the
    extensions whose build failed (each optional: setuptools goes on with a warning that
    pip shows only with ``-v``), and mypyc's modules when mypyc could not run."""

    def initialize_options(self) -> None:
        super().initialize_options()
        self.failed: list[str] = []

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception:
            self.failed.append(ext.name)  # list.append: safe from --parallel's threads
            raise

    def run(self) -> None:
        super().run()
        line = without(NOT_COMPILED, self.failed, len(self.extensions), self._compiler())
        if line:
            print(line, file=sys.stderr)

    def _compiler(self) -> str | None:
        """The C compiler's command when it is not found (None when it is, or unknown)."""
        command: list[str] = getattr(self.compiler, "compiler_so", None) or []
        return command[0] if command and shutil.which(command[0]) is None else None


def without(skipped: list[str], failed: list[str], tried: int, missing: str | None) -> str:
    """The build's last line when it left something out (``""`` when not): what runs from
    source, and why.  ``skipped``: what was not tried, and why; ``failed``: the names of
    the extensions that failed of the ``tried``; ``missing``: the C compiler not found."""
    if not skipped and not failed:
        return ""
    everything = len(failed) == tried
    what = (
        "the compiled modules and the C engines" if everything else ", ".join([*skipped, *failed])
    )
    why = [f"no C compiler found: {missing}"] if missing else []
    why += [f"{len(failed)} of {tried} extensions failed"] if failed else []
    because = f" ({'; '.join(why)})" if why else ""
    return (
        f"lazyfun: built WITHOUT {what}{because}:"
        f" {'everything' if everything else 'that'} runs from source, slower"
        " (`lazyfun --version` says which engines run)"
    )


if __name__ == "__main__":
    os.chdir(HERE)
    setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExt})
