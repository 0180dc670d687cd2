"""Typed composition: ``compose``, ``compose_left`` and ``pipe``.

toolz's versions are untyped, so a pipeline built with them is ``Any`` to a type
checker.  These are toolz's own functions behind overloads, one per length up to
12 functions, each stage's input the previous stage's output: mypy and pyright
infer the type of each stage from the one before it and report a mismatch where the
stages meet.  There is no untyped fallback: a chain of more than 12 functions is
refused by the checkers (it still runs); nest it, ``pipe(pipe(x, f1, ..., f12), g, ...)``.
Functions handed over as ``*funcs`` are checked as a chain of that one type.

A generic class as a stage needs its parameter spelled out for mypy to
follow it: write ``list[int]``, not ``list``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, overload

import toolz

T0 = TypeVar("T0")
T1 = TypeVar("T1")
T2 = TypeVar("T2")
T3 = TypeVar("T3")
T4 = TypeVar("T4")
T5 = TypeVar("T5")
T6 = TypeVar("T6")
T7 = TypeVar("T7")
T8 = TypeVar("T8")
T9 = TypeVar("T9")
T10 = TypeVar("T10")
T11 = TypeVar("T11")
T12 = TypeVar("T12")

__all__ = ["compose", "compose_left", "pipe"]


@overload
def pipe(data: T0, /) -> T0: ...


@overload
def pipe(data: T0, f1: Callable[[T0], T1], /) -> T1: ...


@overload
def pipe(data: T0, f1: Callable[[T0], T1], f2: Callable[[T1], T2], /) -> T2: ...


@overload
def pipe(
    data: T0, f1: Callable[[T0], T1], f2: Callable[[T1], T2], f3: Callable[[T2], T3], /
) -> T3: ...


@overload
def pipe(
    data: T0,
    f1: Callable[[T0], T1],
    f2: Callable[[T1], T2],
    f3: Callable[[T2], T3],
    f4: Callable[[T3], T4],
    /,
) -> T4: ...


@overload
def pipe(
    data: T0,
    f1: Callable[[T0], T1],
    f2: Callable[[T1], T2],
    f3: Callable[[T2], T3],
    f4: Callable[[T3], T4],
    f5: Callable[[T4], T5],
    /,
) -> T5: ...


@overload
def pipe(
    data: T0,
    f1: Callable[[T0], T1],
    f2: Callable[[T1], T2],
    f3: Callable[[T2], T3],
    f4: Callable[[T3], T4],
    f5: Callable[[T4], T5],
    f6: Callable[[T5], T6],
    /,
) -> T6: ...


@overload
def pipe(
    data: T0,
    f1: Callable[[T0], T1],
    f2: Callable[[T1], T2],
    f3: Callable[[T2], T3],
    f4: Callable[[T3], T4],
    f5: Callable[[T4], T5],
    f6: Callable[[T5], T6],
    f7: Callable[[T6], T7],
    /,
) -> T7: ...


@overload
def pipe(
    data: T0,
    f1: Callable[[T0], T1],
    f2: Callable[[T1], T2],
    f3: Callable[[T2], T3],
    f4: Callable[[T3], T4],
    f5: Callable[[T4], T5],
    f6: Callable[[T5], T6],
    f7: Callable[[T6], T7],
    f8: Callable[[T7], T8],
    /,
) -> T8: ...


@overload
def pipe(
    data: T0,
    f1: Callable[[T0], T1],
    f2: Callable[[T1], T2],
    f3: Callable[[T2], T3],
    f4: Callable[[T3], T4],
    f5: Callable[[T4], T5],
    f6: Callable[[T5], T6],
    f7: Callable[[T6], T7],
    f8: Callable[[T7], T8],
    f9: Callable[[T8], T9],
    /,
) -> T9: ...


@overload
def pipe(
    data: T0,
    f1: Callable[[T0], T1],
    f2: Callable[[T1], T2],
    f3: Callable[[T2], T3],
    f4: Callable[[T3], T4],
    f5: Callable[[T4], T5],
    f6: Callable[[T5], T6],
    f7: Callable[[T6], T7],
    f8: Callable[[T7], T8],
    f9: Callable[[T8], T9],
    f10: Callable[[T9], T10],
    /,
) -> T10: ...


@overload
def pipe(
    data: T0,
    f1: Callable[[T0], T1],
    f2: Callable[[T1], T2],
    f3: Callable[[T2], T3],
    f4: Callable[[T3], T4],
    f5: Callable[[T4], T5],
    f6: Callable[[T5], T6],
    f7: Callable[[T6], T7],
    f8: Callable[[T7], T8],
    f9: Callable[[T8], T9],
    f10: Callable[[T9], T10],
    f11: Callable[[T10], T11],
    /,
) -> T11: ...


@overload
def pipe(
    data: T0,
    f1: Callable[[T0], T1],
    f2: Callable[[T1], T2],
    f3: Callable[[T2], T3],
    f4: Callable[[T3], T4],
    f5: Callable[[T4], T5],
    f6: Callable[[T5], T6],
    f7: Callable[[T6], T7],
    f8: Callable[[T7], T8],
    f9: Callable[[T8], T9],
    f10: Callable[[T9], T10],
    f11: Callable[[T10], T11],
    f12: Callable[[T11], T12],
    /,
) -> T12: ...


def pipe(data: Any, /, *funcs: Callable[[Any], Any]) -> Any:
    """Thread ``data`` through ``funcs`` left to right: ``pipe(x, f, g) == g(f(x))``.

    >>> from lazyfun import take
    >>> pipe(range(10), lambda xs: (x * x for x in xs), lambda xs: take(3, xs), list)
    [0, 1, 4]
    """
    return toolz.pipe(data, *funcs)


@overload
def compose(f1: Callable[[T0], T1], /) -> Callable[[T0], T1]: ...


@overload
def compose(f2: Callable[[T1], T2], f1: Callable[[T0], T1], /) -> Callable[[T0], T2]: ...


@overload
def compose(
    f3: Callable[[T2], T3], f2: Callable[[T1], T2], f1: Callable[[T0], T1], /
) -> Callable[[T0], T3]: ...


@overload
def compose(
    f4: Callable[[T3], T4],
    f3: Callable[[T2], T3],
    f2: Callable[[T1], T2],
    f1: Callable[[T0], T1],
    /,
) -> Callable[[T0], T4]: ...


@overload
def compose(
    f5: Callable[[T4], T5],
    f4: Callable[[T3], T4],
    f3: Callable[[T2], T3],
    f2: Callable[[T1], T2],
    f1: Callable[[T0], T1],
    /,
) -> Callable[[T0], T5]: ...


@overload
def compose(
    f6: Callable[[T5], T6],
    f5: Callable[[T4], T5],
    f4: Callable[[T3], T4],
    f3: Callable[[T2], T3],
    f2: Callable[[T1], T2],
    f1: Callable[[T0], T1],
    /,
) -> Callable[[T0], T6]: ...


@overload
def compose(
    f7: Callable[[T6], T7],
    f6: Callable[[T5], T6],
    f5: Callable[[T4], T5],
    f4: Callable[[T3], T4],
    f3: Callable[[T2], T3],
    f2: Callable[[T1], T2],
    f1: Callable[[T0], T1],
    /,
) -> Callable[[T0], T7]: ...


@overload
def compose(
    f8: Callable[[T7], T8],
    f7: Callable[[T6], T7],
    f6: Callable[[T5], T6],
    f5: Callable[[T4], T5],
    f4: Callable[[T3], T4],
    f3: Callable[[T2], T3],
    f2: Callable[[T1], T2],
    f1: Callable[[T0], T1],
    /,
) -> Callable[[T0], T8]: ...


@overload
def compose(
    f9: Callable[[T8], T9],
    f8: Callable[[T7], T8],
    f7: Callable[[T6], T7],
    f6: Callable[[T5], T6],
    f5: Callable[[T4], T5],
    f4: Callable[[T3], T4],
    f3: Callable[[T2], T3],
    f2: Callable[[T1], T2],
    f1: Callable[[T0], T1],
    /,
) -> Callable[[T0], T9]: ...


@overload
def compose(
    f10: Callable[[T9], T10],
    f9: Callable[[T8], T9],
    f8: Callable[[T7], T8],
    f7: Callable[[T6], T7],
    f6: Callable[[T5], T6],
    f5: Callable[[T4], T5],
    f4: Callable[[T3], T4],
    f3: Callable[[T2], T3],
    f2: Callable[[T1], T2],
    f1: Callable[[T0], T1],
    /,
) -> Callable[[T0], T10]: ...


@overload
def compose(
    f11: Callable[[T10], T11],
    f10: Callable[[T9], T10],
    f9: Callable[[T8], T9],
    f8: Callable[[T7], T8],
    f7: Callable[[T6], T7],
    f6: Callable[[T5], T6],
    f5: Callable[[T4], T5],
    f4: Callable[[T3], T4],
    f3: Callable[[T2], T3],
    f2: Callable[[T1], T2],
    f1: Callable[[T0], T1],
    /,
) -> Callable[[T0], T11]: ...


@overload
def compose(
    f12: Callable[[T11], T12],
    f11: Callable[[T10], T11],
    f10: Callable[[T9], T10],
    f9: Callable[[T8], T9],
    f8: Callable[[T7], T8],
    f7: Callable[[T6], T7],
    f6: Callable[[T5], T6],
    f5: Callable[[T4], T5],
    f4: Callable[[T3], T4],
    f3: Callable[[T2], T3],
    f2: Callable[[T1], T2],
    f1: Callable[[T0], T1],
    /,
) -> Callable[[T0], T12]: ...


def compose(*funcs: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """Compose right to left, as in mathematics: ``compose(g, f)(x) == g(f(x))``.

    Bird's ``filter valid . expand . choices`` reads
    ``compose(keep_valid, expand, choices)``.

    >>> compose(str, lambda n: n + 1)(41)
    '42'
    """
    composed: Callable[[Any], Any] = toolz.compose(*funcs)
    return composed


@overload
def compose_left(f1: Callable[[T0], T1], /) -> Callable[[T0], T1]: ...


@overload
def compose_left(f1: Callable[[T0], T1], f2: Callable[[T1], T2], /) -> Callable[[T0], T2]: ...


@overload
def compose_left(
    f1: Callable[[T0], T1], f2: Callable[[T1], T2], f3: Callable[[T2], T3], /
) -> Callable[[T0], T3]: ...


@overload
def compose_left(
    f1: Callable[[T0], T1],
    f2: Callable[[T1], T2],
    f3: Callable[[T2], T3],
    f4: Callable[[T3], T4],
    /,
) -> Callable[[T0], T4]: ...


@overload
def compose_left(
    f1: Callable[[T0], T1],
    f2: Callable[[T1], T2],
    f3: Callable[[T2], T3],
    f4: Callable[[T3], T4],
    f5: Callable[[T4], T5],
    /,
) -> Callable[[T0], T5]: ...


@overload
def compose_left(
    f1: Callable[[T0], T1],
    f2: Callable[[T1], T2],
    f3: Callable[[T2], T3],
    f4: Callable[[T3], T4],
    f5: Callable[[T4], T5],
    f6: Callable[[T5], T6],
    /,
) -> Callable[[T0], T6]: ...


@overload
def compose_left(
    f1: Callable[[T0], T1],
    f2: Callable[[T1], T2],
    f3: Callable[[T2], T3],
    f4: Callable[[T3], T4],
    f5: Callable[[T4], T5],
    f6: Callable[[T5], T6],
    f7: Callable[[T6], T7],
    /,
) -> Callable[[T0], T7]: ...


@overload
def compose_left(
    f1: Callable[[T0], T1],
    f2: Callable[[T1], T2],
    f3: Callable[[T2], T3],
    f4: Callable[[T3], T4],
    f5: Callable[[T4], T5],
    f6: Callable[[T5], T6],
    f7: Callable[[T6], T7],
    f8: Callable[[T7], T8],
    /,
) -> Callable[[T0], T8]: ...


@overload
def compose_left(
    f1: Callable[[T0], T1],
    f2: Callable[[T1], T2],
    f3: Callable[[T2], T3],
    f4: Callable[[T3], T4],
    f5: Callable[[T4], T5],
    f6: Callable[[T5], T6],
    f7: Callable[[T6], T7],
    f8: Callable[[T7], T8],
    f9: Callable[[T8], T9],
    /,
) -> Callable[[T0], T9]: ...


@overload
def compose_left(
    f1: Callable[[T0], T1],
    f2: Callable[[T1], T2],
    f3: Callable[[T2], T3],
    f4: Callable[[T3], T4],
    f5: Callable[[T4], T5],
    f6: Callable[[T5], T6],
    f7: Callable[[T6], T7],
    f8: Callable[[T7], T8],
    f9: Callable[[T8], T9],
    f10: Callable[[T9], T10],
    /,
) -> Callable[[T0], T10]: ...


@overload
def compose_left(
    f1: Callable[[T0], T1],
    f2: Callable[[T1], T2],
    f3: Callable[[T2], T3],
    f4: Callable[[T3], T4],
    f5: Callable[[T4], T5],
    f6: Callable[[T5], T6],
    f7: Callable[[T6], T7],
    f8: Callable[[T7], T8],
    f9: Callable[[T8], T9],
    f10: Callable[[T9], T10],
    f11: Callable[[T10], T11],
    /,
) -> Callable[[T0], T11]: ...


@overload
def compose_left(
    f1: Callable[[T0], T1],
    f2: Callable[[T1], T2],
    f3: Callable[[T2], T3],
    f4: Callable[[T3], T4],
    f5: Callable[[T4], T5],
    f6: Callable[[T5], T6],
    f7: Callable[[T6], T7],
    f8: Callable[[T7], T8],
    f9: Callable[[T8], T9],
    f10: Callable[[T9], T10],
    f11: Callable[[T10], T11],
    f12: Callable[[T11], T12],
    /,
) -> Callable[[T0], T12]: ...


def compose_left(*funcs: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """Compose left to right, in pipeline order: ``compose_left(f, g)(x) == g(f(x))``.

    >>> compose_left(lambda n: n + 1, str)(41)
    '42'
    """
    composed: Callable[[Any], Any] = toolz.compose_left(*funcs)
    return composed
