"""Names a package loads when they are first used (PEP 562), so ``import lazyfun``
costs only what it is asked for.

A package lists where each of its names lives; :func:`lazily` gives it the module
``__getattr__`` and ``__dir__`` that import that module the first time the name is
read (``from lazyfun import stream`` loads the Stream, ``lazyfun.astream`` the async
Stream) and keep the value, so a second read costs what any attribute does.  A
submodule that is not a listed name loads when it is reached as an attribute
(``lazyfun.io`` or ``lazyfun.sudoku`` after ``import lazyfun``).  The package
imports the same names under ``if TYPE_CHECKING:``, so mypy and pyright see what
an eager import would show; the tests compare the two lists.

Some names are also a submodule's: ``lazyfun.search`` is a function and the module
that defines it, ``lazyfun.sudoku.steps`` a function and a subpackage.  Importing
such a submodule (from anywhere) would bind the package's name to the module; here
the name is left to the function, as the eager ``from lazyfun.search import search``
of the package left it.

>>> import lazyfun
>>> "stream" in dir(lazyfun)
True
>>> import lazyfun.search  # the module: the package's name stays the function
>>> type(lazyfun.search).__name__ != "module"
True
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import ModuleType

__all__ = ["lazily", "load"]


class _Package(ModuleType):
    """A package whose names load when first read; a submodule that shares its name
    with one of them does not take the name (the subclass of each package lists them)."""

    lazy: frozenset[str] = frozenset()

    def __setattr__(self, name: str, value: object) -> None:
        if (
            name in type(self).lazy
            and isinstance(value, ModuleType)
            and value.__name__ == f"{self.__name__}.{name}"
        ):
            return  # the import machinery binding a submodule: the name is the package's
        super().__setattr__(name, value)


def lazily(
    package: str, names: Mapping[str, Sequence[str]], *, first: Iterable[str] = ()
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, whose public names are
    ``names`` (a module -> the names read from it, ``"name as alias"`` to rename),
    each imported when first read; the modules ``first`` are imported with the first
    name read (for what they register)."""
    where: dict[str, tuple[str, str]] = {}
    for module, listed in names.items():
        for entry in listed:
            name, _, alias = entry.partition(" as ")
            where[alias or name] = (module, name)
    this = sys.modules[package]
    namespace = vars(this)
    this.__class__ = type(
        "Package", (_Package,), {"lazy": frozenset(where), "__module__": __name__}
    )
    pending = list(first)

    def __getattr__(name: str) -> object:
        if name not in where:
            if name.startswith("_"):
                raise AttributeError(f"module {package!r} has no attribute {name!r}")
            return _submodule(package, name)
        while pending:
            load(pending.pop())
        module, original = where[name]
        value = getattr(load(module), original)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *where})

    return __getattr__, __dir__


def load(module: str) -> ModuleType:
    """The module named ``module``, imported as an ``import`` statement imports it (so
    ``python -X importtime`` lists it, which ``importlib.import_module`` escapes)."""
    __import__(module)
    return sys.modules[module]


def _submodule(package: str, name: str) -> ModuleType:
    """``package.name``, imported (and so bound on the package), or an AttributeError."""
    try:
        return load(f"{package}.{name}")
    except ModuleNotFoundError as missing:
        if missing.name != f"{package}.{name}":
            raise
        raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
