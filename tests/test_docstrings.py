"""The compiled modules keep their docstrings: each public function, class, method and
property of a module that mypyc compiles, and the module itself, has at run time the
docstring its source gives it (``help()``, ``inspect.getdoc``, an IDE's hover).

mypyc leaves them out; ``mypyc_docs.py`` has the build write them into the C
(``setup.py``).  From source (``LAZYFUN_PURE=1``, ``make unit``) the same test holds.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import os
import pydoc
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from lazyfun.compiled import COMPILED, PURE_ENV, is_compiled

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

ROOT = Path(__file__).resolve().parent.parent

Defined = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _public(body: list[ast.stmt]) -> Iterator[Defined]:
    for node in body:
        if isinstance(node, Defined) and not node.name.startswith("_"):
            yield node


def _documented(module: ModuleType) -> Iterator[tuple[str, object, str]]:
    """(qualified name, the object, its source's docstring) of the module and of each
    public function, class, method and property its source documents."""
    tree = ast.parse((ROOT / (module.__name__.replace(".", "/") + ".py")).read_text("utf-8"))
    if (doc := ast.get_docstring(tree)) is not None:
        yield module.__name__, module, doc
    seen: set[str] = set()
    for node in _public(tree.body):
        found = getattr(module, node.name)
        if (doc := ast.get_docstring(node)) is not None and node.name not in seen:
            seen.add(node.name)
            yield f"{module.__name__}.{node.name}", found, doc
        if isinstance(node, ast.ClassDef):
            members: set[str] = set()
            for member in _public(node.body):
                if (doc := ast.get_docstring(member)) is not None and member.name not in members:
                    members.add(member.name)  # an overload's or a setter's: the first documented
                    where = f"{module.__name__}.{node.name}.{member.name}"
                    yield where, inspect.getattr_static(found, member.name), doc


def _doc(thing: object) -> str | None:
    """The docstring as help() finds it (a static or class method's of its function)."""
    if isinstance(thing, (staticmethod, classmethod)):
        thing = thing.__func__
    return inspect.getdoc(thing)


@pytest.mark.parametrize("name", COMPILED)
def test_each_compiled_object_has_its_sources_docstring(name: str) -> None:
    module = importlib.import_module(name)
    found = list(_documented(module))
    assert found, f"{name} documents nothing"
    wrong = [where for where, thing, doc in found if _doc(thing) != doc]
    assert wrong == [], f"{len(wrong)} of {len(found)} lack their docstring"


def test_the_docstrings_reach_help_and_keep_the_signatures() -> None:
    from lazyfun import LazyList, search
    from lazyfun.sudoku import solve

    assert "A call-by-need list: cells computed at most once" in pydoc.render_doc(LazyList)
    assert "Every solution of a puzzle, lazily" in pydoc.render_doc(solve)
    assert "Yield the complete states below ``start``" in pydoc.render_doc(search)
    assert "f" in inspect.signature(LazyList.map).parameters  # the signatures are kept
    assert list(inspect.signature(solve).parameters) == ["puzzle", "tables"]


def test_the_compiled_build_is_the_one_checked() -> None:
    """Unless asked to run from source, the docstrings checked are the extensions' (read
    from C), not the source's: a build without them fails the test above."""
    if os.environ.get(PURE_ENV):
        pytest.skip(f"{PURE_ENV} is set: the source runs")
    if not all(is_compiled(name) for name in COMPILED):
        pytest.skip("lazyfun is not compiled here")
    for name in COMPILED:
        assert not (importlib.import_module(name).__file__ or "").endswith(".py")
    total = sum(len(list(_documented(importlib.import_module(n)))) for n in COMPILED)
    assert total > 100


def _mypyc_docs() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mypyc_docs", ROOT / "mypyc_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    "text", ["plain", 'quotes " and \\ and ??= trigraphs', "ünïcode — \t\n tab", "x" * 2500, ""]
)
def test_a_docstring_is_written_as_c_literals_that_read_back_the_same(text: str) -> None:
    literals: str = _mypyc_docs()._c(text)
    chunks = literals.split('" "')  # side by side, as C joins them
    assert len(chunks) == max(1, -(-len(text.encode()) // 1000))
    # C's three-digit octal escapes read the same in a Python bytes literal
    assert ast.literal_eval("b" + literals.replace('" "', '" b"')) == text.encode("utf-8")
