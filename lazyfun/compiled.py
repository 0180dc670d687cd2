"""The hot modules compiled with mypyc, and the switch back to their Python source.

A few modules do the heavy lifting: the core search loop, the Sudoku engine,
the constraint solver and its propagators, the call-by-need list (with its
locks and sharing) and minlex's full-grid loop.
Installing lazyfun from source compiles them with mypyc (``setup.py``): the
same typed source becomes a C extension with the same answers; the engine
runs four to five times as fast, the solver two to three times (the
benchmarks print both).  The source stays the reference: it is what the docs
quote and what a reader steps through, and its docstrings are the compiled
objects' too (mypyc leaves them out; the build writes them into its C,
``mypyc_docs.py``), so ``help()`` reads the same either way.  ``COMPILED``
below is the one list of them: ``setup.py`` reads it from here.

One module has no Python source: ``C_EXTENSION``, the clause-learning search
that the Sudoku engine hands boards of 25x25 and up to (its reader's guide
and API are :mod:`lazyfun.sudoku.solving.learning`; its C sources are
``lazyfun/sudoku/solving/learning_c``).  It is built beside them, and so is
``C_FLOW``, the Stream's take, catch and throttle as C iterators (the readable
forms are in :mod:`lazyfun.streams.sync.steps`; :mod:`lazyfun.streams.sync.flow` chooses;
its C sources are ``lazyfun/streams/sync/flow_c``),
and ``C_FORCING``, the slowest rules of Sudoku Explainer's ladder (its forcing
chains, its chains of one line, its wings) as C searches; the readable forms are in
:mod:`lazyfun.sudoku.steps`, and :mod:`lazyfun.sudoku.steps.engine` says which runs;
and ``C_NINE``, the 9x9 engine in C that the Sudoku engine hands 9x9 boards to (its
reader's guide is :mod:`lazyfun.sudoku.solving.nine`; its C sources are
``lazyfun/sudoku/solving/nine_c``); and ``C_MINLEX``, minlex's row-by-row search in C
(:mod:`lazyfun.sudoku.canon` says when it runs; its C sources are
``lazyfun/sudoku/canon/minlex_c``); and ``C_KERNELS``, the constraint solver's commonest
propagators and its propagation loop in C (:mod:`lazyfun.csp.propagation.kernels` says
when they run; the readable forms are in :mod:`lazyfun.csp.propagation`; its C sources
are ``lazyfun/csp/propagation/kernels_c``); and ``C_ARROW``, a batch of records' columns as
Arrow buffers for the Parquet sink (:mod:`lazyfun.sinks.parquet` says when it runs; its C
sources are ``lazyfun/sinks/arrow_c``).

Where no compiler is at hand the build falls back to plain Python, without
the learning search (set ``LAZYFUN_PURE_BUILD=1`` to skip compiling), and its last
line says so.  Setting ``LAZYFUN_PURE=1`` in
the environment before lazyfun is imported runs the Python source even when
the compiled modules are installed, for a debugger, for coverage, or to
measure what compiling buys; the Stream's steps then run their Python forms too, 9x9
boards go to the depth-first engine, and only the C learning search stays as it is.
Either way the API is the same (what a function returns has the same methods).

:func:`status` says which run, and why the others do not (``lazyfun --version`` prints
its line):

>>> now = status()
>>> sorted(now.modules) == sorted(COMPILED) and sorted(now.engines) == sorted(ENGINES)
True
>>> built = {"lazyfun.search": True, C_FLOW: False}
>>> print(Status({"lazyfun.search": True}, {C_FLOW: False}, built, pure=False).summary())
compiled: 1 of 1 modules, C engines: 0 of 1; from source: not built: lazyfun.streams.sync._flow
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

__all__ = [
    "COMPILED",
    "C_ARROW",
    "C_EXTENSION",
    "C_FLOW",
    "C_FORCING",
    "C_KERNELS",
    "C_MINLEX",
    "C_NINE",
    "ENGINES",
    "PURE_ENV",
    "Status",
    "c_arrow_built",
    "c_extension_built",
    "c_flow_built",
    "c_forcing_built",
    "c_kernels_built",
    "c_minlex_built",
    "c_nine_built",
    "describe",
    "is_compiled",
    "status",
]

COMPILED = (
    "lazyfun.search",
    "lazyfun.sudoku.solving.engine",
    "lazyfun.sudoku.solving.tables",
    "lazyfun.csp.propagation.filters",
    "lazyfun.csp.propagation.circuit",
    "lazyfun.csp.propagation.nonlinear",
    "lazyfun.csp.propagation.disjunctive",
    "lazyfun.csp.propagation.distances",
    "lazyfun.csp.propagation.distinct",
    "lazyfun.csp.propagation.matching",
    "lazyfun.csp.propagation.propagators",
    "lazyfun.csp.propagation.relaxation",
    "lazyfun.csp.clauses.analysis",
    "lazyfun.csp.clauses.engine",
    "lazyfun.csp.clauses.explanations",
    "lazyfun.csp.clauses.store",
    "lazyfun.csp.clauses.trail",
    "lazyfun.csp.flatzinc.text",
    "lazyfun.csp.search.node",
    "lazyfun.csp.search.solver",
    "lazyfun.csp.search.strategy",
    "lazyfun.csp.search.tabu",
    "lazyfun.lazylist.cells",
    "lazyfun.lazylist.blackholes",
    "lazyfun.lazylist.sharing",
    "lazyfun.sudoku.canon.full",
)
C_EXTENSION = "lazyfun.sudoku.solving._learning"
C_FLOW = "lazyfun.streams.sync._flow"
C_FORCING = "lazyfun.sudoku.steps._forcing"
C_NINE = "lazyfun.sudoku.solving._nine"
C_MINLEX = "lazyfun.sudoku.canon._minlex"
C_KERNELS = "lazyfun.csp.propagation._kernels"
C_ARROW = "lazyfun.sinks._arrow"
ENGINES = (C_EXTENSION, C_FLOW, C_FORCING, C_NINE, C_MINLEX, C_KERNELS, C_ARROW)
PURE_ENV = "LAZYFUN_PURE"
# the C engine that runs even with LAZYFUN_PURE set (25x25 and up would stall without it)
_KEPT_WHEN_PURE = (C_EXTENSION,)
_PACKAGE = os.path.dirname(os.path.abspath(__file__))


def is_compiled(name: str) -> bool:
    """Whether module ``name`` (one of ``COMPILED``) runs as a compiled extension."""
    if name not in COMPILED:
        raise ValueError(f"{name} is not one of the compiled modules {COMPILED}")
    origin = importlib.import_module(name).__file__ or ""
    return not origin.endswith(".py")


def _built(name: str) -> bool:
    """Whether the extension of module ``name`` (one of ``COMPILED`` or ``ENGINES``) was
    built: its shared library lies beside its source, in lazyfun's folder (nothing is
    imported to tell)."""
    *folders, stem = name.split(".")[1:]
    folder = os.path.join(_PACKAGE, *folders)
    return any(
        os.path.isfile(os.path.join(folder, stem + suffix))
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
    )


def _runs_compiled(name: str, pure: bool) -> bool:
    """Whether module ``name`` of ``COMPILED`` runs compiled: as it was imported, or,
    before it is, as it will be (its extension when built, unless ``pure``)."""
    module = sys.modules.get(name)
    if module is not None:
        return not (module.__file__ or "").endswith(".py")
    return _built(name) and not pure


@dataclass(frozen=True)
class Status:
    """Which engines run: ``modules`` maps each of ``COMPILED`` to whether it runs
    compiled (mypyc), ``engines`` each of ``ENGINES`` to whether it runs (C), ``built``
    each of both to whether its extension was built, ``pure`` says whether
    ``LAZYFUN_PURE`` is set.  What is built and does not run is left by ``pure``; what
    is not built was not compiled when installed (no C compiler, ``LAZYFUN_PURE_BUILD``).
    """

    modules: Mapping[str, bool]
    engines: Mapping[str, bool]
    built: Mapping[str, bool]
    pure: bool

    def summary(self) -> str:
        """One line: how many of each run, and why the others run from source, e.g.
        ``compiled: 26 of 26 modules, C engines: 6 of 6``, or ``compiled: 0 of 26
        modules, C engines: 1 of 6; from source: LAZYFUN_PURE is set``."""
        line = (
            f"compiled: {sum(self.modules.values())} of {len(self.modules)} modules,"
            f" C engines: {sum(self.engines.values())} of {len(self.engines)}"
        )
        missing = [name for name, built in self.built.items() if not built]
        reasons = []
        if self.pure and any(
            self.built[name] and not runs
            for name, runs in [*self.modules.items(), *self.engines.items()]
        ):
            reasons.append(f"{PURE_ENV} is set")
        if len(missing) == len(self.built):
            reasons.append(
                "nothing was built (no C compiler when installed, or LAZYFUN_PURE_BUILD),"
                " everything is slower"
            )
        elif missing:
            modules = [name for name in missing if name in self.modules]
            some = modules if len(modules) < len(self.modules) else ["the mypyc modules"]
            engines = [name for name in missing if name not in self.modules]
            reasons.append(f"not built: {', '.join([*some, *engines])}")
        return f"{line}; from source: {'; '.join(reasons)}" if reasons else line


def status() -> Status:
    """Which of ``COMPILED`` run compiled and which of ``ENGINES`` run, which were built,
    and whether ``LAZYFUN_PURE`` is set (a module not yet imported is told by its files:
    nothing is imported to tell)."""
    pure = bool(os.environ.get(PURE_ENV))
    built = {name: _built(name) for name in (*COMPILED, *ENGINES)}
    return Status(
        modules=MappingProxyType({name: _runs_compiled(name, pure) for name in COMPILED}),
        engines=MappingProxyType(
            {name: built[name] and (name in _KEPT_WHEN_PURE or not pure) for name in ENGINES}
        ),
        built=MappingProxyType(built),
        pure=pure,
    )


def c_extension_built() -> bool:
    """Whether the C learning search (``C_EXTENSION``) was built."""
    return _built(C_EXTENSION)


def c_flow_built() -> bool:
    """Whether the C flow engine (``C_FLOW``) was built."""
    return _built(C_FLOW)


def c_forcing_built() -> bool:
    """Whether the C chains and wings (``C_FORCING``) were built."""
    return _built(C_FORCING)


def c_nine_built() -> bool:
    """Whether the 9x9 C engine (``C_NINE``) was built."""
    return _built(C_NINE)


def c_minlex_built() -> bool:
    """Whether minlex's C search (``C_MINLEX``) was built."""
    return _built(C_MINLEX)


def c_kernels_built() -> bool:
    """Whether the solver's C kernels (``C_KERNELS``) were built."""
    return _built(C_KERNELS)


def c_arrow_built() -> bool:
    """Whether the Parquet sink's C columns (``C_ARROW``) were built."""
    return _built(C_ARROW)


def describe() -> str:
    """One line: how each module of ``COMPILED`` runs, and whether ``C_EXTENSION``,
    ``C_FLOW``, ``C_FORCING``, ``C_NINE``, ``C_MINLEX``, ``C_KERNELS`` and ``C_ARROW`` were built
    (``make`` prints it after installing)."""
    learning = "built (C)" if c_extension_built() else "not built: 25x25 searches depth-first"
    flow = "built (C)" if c_flow_built() else "not built: the steps run their Python forms"
    forcing = "built (C)" if c_forcing_built() else "not built: chains and wings run in Python"
    nine = "built (C)" if c_nine_built() else "not built: 9x9 searches depth-first"
    minlex = "built (C)" if c_minlex_built() else "not built: minlex searches in Python"
    kernels = "built (C)" if c_kernels_built() else "not built: the solver propagates in Python"
    arrow = "built (C)" if c_arrow_built() else "not built: Parquet columns made by pyarrow"
    return ", ".join(
        [
            *(
                f"{name} {'compiled (mypyc)' if compiled else 'from source'}"
                for name, compiled in status().modules.items()
            ),
            f"{C_EXTENSION} {learning}",
            f"{C_FLOW} {flow}",
            f"{C_FORCING} {forcing}",
            f"{C_NINE} {nine}",
            f"{C_MINLEX} {minlex}",
            f"{C_KERNELS} {kernels}",
            f"{C_ARROW} {arrow}",
        ]
    )


class _SourceFirst:
    """Finds the ``.py`` source of the compiled modules before their extension (a meta
    path finder; not derived from ``importlib.abc``, which costs ``import lazyfun`` a
    few milliseconds)."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: object = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in COMPILED or not path:
            return None
        filename = fullname.rpartition(".")[2] + ".py"
        for entry in path:
            source = os.path.join(entry, filename)
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def use_source_if_asked() -> None:
    """Put the source finder first on ``sys.meta_path`` when ``LAZYFUN_PURE`` is set."""
    if os.environ.get(PURE_ENV) and not any(isinstance(f, _SourceFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFirst())


use_source_if_asked()
