"""The docstrings mypyc leaves out, written into the C it generates (run by ``setup.py``).

mypyc (2.4, the newest at the time of writing; it has no option for it) gives a
compiled function, method or class only its signature as its C docstring, a property
and a module none, and a class it builds as a Python class (a NamedTuple, a
dataclass's first form) the text "mypyc filler docstring".  So ``help()``, an IDE's
hover and Jupyter's ``?`` show nothing for the compiled modules, though their source
has the docstrings, and a builtin function's ``__doc__`` cannot be set at run time.

So after ``mypycify`` has written its C, and before it is compiled,
:func:`write_docstrings` adds to it the docstring the source gives each documented
function, method, property, class and module of the compiled modules (read by
:func:`source_docs` with ``ast``): after the signature of a ``PyMethodDef``, in a
type's ``tp_doc`` and a property's ``PyGetSetDef``, as a module's ``m_doc``, in place
of the filler.  The strings are in the extension, as a hand-written C module's are:
nothing runs at import time.  The C is found by the shapes mypyc writes (its tables,
named for the modules and classes); a shape not found is left as it was, and
``tests/test_docstrings.py`` fails on that build.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Docs", "snapshot", "source_docs", "write_docstrings"]

# A C string literal (what mypyc writes in PyDoc_STR), or NULL.
_LITERAL = r'(?:NULL|"(?:[^"\\\n]|\\.)*")'
_MODULE_DEF = re.compile(
    r'static struct PyModuleDef (\w*)module = \{\s*PyModuleDef_HEAD_INIT,\s*"([\w.]+)",\s*'
    r"(NULL)(, /\* docstring \*/)"
)
_TABLE = r"static {kind} {name}\[\] = \{{(.*?)\n\s*\}};"
_MODULE_FUNCTION = re.compile(
    rf'(\{{"(\w+)", \(PyCFunction\)\w+, [\w |]+, PyDoc_STR\()({_LITERAL})(\) /\* docstring \*/\}},)'
)
_TEMPLATE = re.compile(r"static PyTypeObject CPyType_(\w+)_template_ = \{(.*?)\n\s*\};", re.S)
_METHOD = re.compile(
    rf'(\{{"(\w+)",\s*\(PyCFunction\)\w+,\s*[\w |]+, PyDoc_STR\()({_LITERAL})(\)\}},)'
)
_GETSET = re.compile(
    r'(\{"(\w+)",\s*\(getter\)\w+,(?:\s*\(setter\)\w+,)?\s*(?:NULL, )?)(NULL)(, NULL\},)'
)
_TP_DOC = re.compile(rf"(\.tp_doc = PyDoc_STR\()({_LITERAL})(\),)")
# A class mypyc builds as a Python class gets its __doc__ from a string of the module's
# statics; where the class is made, the traceback names its file and the `class` line.
_FILLER = re.compile(
    r"(cpy_r_\w+) = (CPyStatics\[\d+\]); /\* 'mypyc filler docstring' \*/"
    r'(?=(?:(?!filler docstring).){0,800}?CPy_AddTraceback\("([^"]+)", "<module>", (\d+),)',
    re.S,
)
_CHUNK = 1000  # bytes of a docstring in one C literal (literals side by side are joined)


@dataclass
class Docs:
    """The docstrings of the compiled modules: by qualified name (``lazyfun.search``,
    ``lazyfun.search.search``, ``lazyfun.lazylist.cells.LazyList.map``), and the
    qualified name of each class by its file and the line of its ``class``."""

    by_name: dict[str, str] = field(default_factory=dict)
    classes: dict[tuple[str, int], str] = field(default_factory=dict)


def source_docs(modules: Iterable[str], root: Path) -> Docs:
    """The docstrings of ``modules`` (dotted names of ``.py`` files under ``root``): the
    module's, and those of the functions and classes at its top level and of the
    functions of its classes; of several definitions of a name (overloads, a
    property's setter) the first that has one."""
    docs = Docs()
    for module in modules:
        path = module.replace(".", "/") + ".py"
        tree = ast.parse((root / path).read_text("utf-8"))
        for name, node in _defined(tree, module):
            doc = ast.get_docstring(node, clean=False)
            if doc is not None:
                docs.by_name.setdefault(name, doc)
            if isinstance(node, ast.ClassDef):
                docs.classes[(path, node.lineno)] = name
    return docs


Defined = ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef


def _defined(node: Defined, name: str) -> Iterator[tuple[str, Defined]]:
    yield name, node
    if isinstance(node, (ast.Module, ast.ClassDef)):
        for child in node.body:
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                yield from _defined(child, f"{name}.{child.name}")


def snapshot(folder: Path) -> dict[Path, tuple[bytes, int]]:
    """The C files under ``folder`` (mypyc's build folder) and their times, before a build."""
    return {path: (path.read_bytes(), path.stat().st_mtime_ns) for path in folder.rglob("*.c")}


def write_docstrings(
    sources: Iterable[str | Path], docs: Docs, before: Mapping[Path, tuple[bytes, int]]
) -> int:
    """Write ``docs`` into the C files ``sources`` that mypyc has just written; how many
    docstrings were written.  A file that comes out as it was before this build
    (``before``, from :func:`snapshot`) keeps its old time, so nothing is recompiled."""
    written = 0
    for source in sources:
        path = Path(source)
        if path.suffix != ".c" or not path.is_file():
            continue
        text, count = _documented_c(path.read_text("utf-8"), docs)
        if not count:
            continue
        written += count
        content = text.encode("utf-8")
        if path.read_bytes() != content:
            path.write_bytes(content)
        old = before.get(path) or before.get(path.resolve())
        if old is not None and old[0] == content:
            os.utime(path, ns=(old[1], old[1]))
    return written


def _documented_c(text: str, docs: Docs) -> tuple[str, int]:
    """``text`` (C from mypyc) with ``docs`` written in, and how many were."""
    modules: dict[str, str] = {}  # a module's C prefix -> its name
    tables: list[tuple[str, str, re.Pattern[str], str]] = []  # kind, name, entry, owner
    count = 0

    def module_def(match: re.Match[str]) -> str:
        nonlocal count
        modules[match[1]] = match[2]
        tables.append(("PyMethodDef", f"{match[1]}module_methods", _MODULE_FUNCTION, match[2]))
        doc = docs.by_name.get(match[2])
        if doc is None:
            return match[0]
        count += 1
        return match[0][: match.start(3) - match.start()] + f"PyDoc_STR({_c(doc)})" + match[4]

    def template(match: re.Match[str]) -> str:
        nonlocal count
        owner = _class_of(match[1], modules)
        if owner is None:
            return match[0]
        for kind, slot, entry in (
            ("PyMethodDef", "tp_methods", _METHOD),
            ("PyGetSetDef", "tp_getset", _GETSET),
        ):
            table = re.search(rf"\.{slot} = (\w+),", match[2])
            if table is not None:
                tables.append((kind, table[1], entry, owner))
        doc = docs.by_name.get(owner)
        if doc is None:
            return match[0]
        written, n = _TP_DOC.subn(lambda m: m[1] + _joined(m[2], doc) + m[3], match[0])
        count += n
        return written

    def filler(match: re.Match[str]) -> str:
        nonlocal count
        name = docs.classes.get((match[3], int(match[4])))
        doc = None if name is None else docs.by_name.get(name)
        if doc is None:
            return match[0]
        count += 1
        var, static = match[1], match[2]
        # a new string, kept for good as the statics are (it is the class's __doc__)
        made = f"{var} = PyUnicode_FromString({_c(doc)});"
        return f"{made} if ({var} == NULL) {{ PyErr_Clear(); {var} = {static}; }}"

    text = _MODULE_DEF.sub(module_def, text)
    text = _TEMPLATE.sub(template, text)
    for kind, name, entry, owner in tables:
        text, n = _in_table(text, kind, name, entry, docs, owner)
        count += n
    text = _FILLER.sub(filler, text)
    return text, count


def _class_of(template: str, modules: Mapping[str, str]) -> str | None:
    """The qualified name of the class of the type template ``CPyType_<template>_template_``:
    mypyc names it for the module's C prefix and the class, joined by ``___``."""
    prefixes = [p for p in modules if not p or template.startswith(p + "___")]
    if not prefixes:
        return None
    prefix = max(prefixes, key=len)  # empty when the build has one module
    name = template[len(prefix) + 3 :] if prefix else template
    return None if "___" in name else f"{modules[prefix]}.{name}"


def _in_table(
    text: str, kind: str, name: str, entry: re.Pattern[str], docs: Docs, owner: str
) -> tuple[str, int]:
    """``text`` with the docstrings of ``owner``'s members written into the entries of
    its table ``name`` (a ``PyMethodDef`` or ``PyGetSetDef`` array)."""
    table = re.search(_TABLE.format(kind=kind, name=re.escape(name)), text, re.S)
    if table is None:
        return text, 0
    count = 0

    def one(match: re.Match[str]) -> str:
        nonlocal count
        doc = docs.by_name.get(f"{owner}.{match[2]}")
        if doc is None:
            return match[0]
        count += 1
        written = f"PyDoc_STR({_c(doc)})" if entry is _GETSET else _joined(match[3], doc)
        return match[1] + written + match[4]

    body = entry.sub(one, table[1])
    return text[: table.start(1)] + body + text[table.end(1) :], count


def _joined(literal: str, doc: str) -> str:
    """The docstring after what mypyc wrote (NULL, or a signature ending ``\\n--\\n\\n``)."""
    return _c(doc) if literal == "NULL" else f"{literal} {_c(doc)}"


def _c(text: str) -> str:
    """``text`` as C string literals (UTF-8; each byte that is not plain ASCII as three
    octal digits), side by side, ``_CHUNK`` bytes each."""
    data = text.encode("utf-8")
    literals = []
    for start in range(0, len(data), _CHUNK) or [0]:
        chars = []
        for byte in data[start : start + _CHUNK]:
            char = chr(byte)
            plain = 32 <= byte < 127 and char not in '"\\?'
            chars.append(char if plain else f"\\{byte:03o}")
        literals.append('"' + "".join(chars) + '"')
    return " ".join(literals)
