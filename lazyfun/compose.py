"""Typed composition: ``compose``, ``compose_left`` and ``pipe``.

toolz's versions are untyped, so a pipeline built with them is ``Any`` to
mypy.  These are toolz's own functions behind overloads (up to eight stages
for ``pipe``, six for ``compose``), so ``mypy --strict`` infers the type of
each stage's output from the previous one, and a mismatch is reported where
the stages meet.  Longer chains still run; their result is typed ``Any``.

A generic class as a stage needs its parameter spelled out for mypy to
follow it: write ``list[int]``, not ``list``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, overload

import toolz

A = TypeVar("A")
B = TypeVar("B")
C = TypeVar("C")
D = TypeVar("D")
E = TypeVar("E")
F = TypeVar("F")
G = TypeVar("G")
H = TypeVar("H")
I = TypeVar("I")  # noqa: E741

__all__ = ["compose", "compose_left", "pipe"]


@overload
def pipe(data: A, /) -> A: ...


@overload
def pipe(data: A, f1: Callable[[A], B], /) -> B: ...


@overload
def pipe(data: A, f1: Callable[[A], B], f2: Callable[[B], C], /) -> C: ...


@overload
def pipe(data: A, f1: Callable[[A], B], f2: Callable[[B], C], f3: Callable[[C], D], /) -> D: ...


@overload
def pipe(
    data: A,
    f1: Callable[[A], B],
    f2: Callable[[B], C],
    f3: Callable[[C], D],
    f4: Callable[[D], E],
    /,
) -> E: ...


@overload
def pipe(
    data: A,
    f1: Callable[[A], B],
    f2: Callable[[B], C],
    f3: Callable[[C], D],
    f4: Callable[[D], E],
    f5: Callable[[E], F],
    /,
) -> F: ...


@overload
def pipe(
    data: A,
    f1: Callable[[A], B],
    f2: Callable[[B], C],
    f3: Callable[[C], D],
    f4: Callable[[D], E],
    f5: Callable[[E], F],
    f6: Callable[[F], G],
    /,
) -> G: ...


@overload
def pipe(
    data: A,
    f1: Callable[[A], B],
    f2: Callable[[B], C],
    f3: Callable[[C], D],
    f4: Callable[[D], E],
    f5: Callable[[E], F],
    f6: Callable[[F], G],
    f7: Callable[[G], H],
    /,
) -> H: ...


@overload
def pipe(
    data: A,
    f1: Callable[[A], B],
    f2: Callable[[B], C],
    f3: Callable[[C], D],
    f4: Callable[[D], E],
    f5: Callable[[E], F],
    f6: Callable[[F], G],
    f7: Callable[[G], H],
    f8: Callable[[H], I],
    /,
) -> I: ...


@overload
def pipe(
    data: Any,
    f1: Callable[[Any], Any],
    f2: Callable[[Any], Any],
    f3: Callable[[Any], Any],
    f4: Callable[[Any], Any],
    f5: Callable[[Any], Any],
    f6: Callable[[Any], Any],
    f7: Callable[[Any], Any],
    f8: Callable[[Any], Any],
    f9: Callable[[Any], Any],
    /,
    *funcs: Callable[[Any], Any],
) -> Any: ...


def pipe(data: Any, /, *funcs: Callable[[Any], Any]) -> Any:
    """Thread ``data`` through ``funcs`` left to right: ``pipe(x, f, g) == g(f(x))``.

    >>> from lazyfun import take
    >>> pipe(range(10), lambda xs: (x * x for x in xs), lambda xs: take(3, xs), list)
    [0, 1, 4]
    """
    return toolz.pipe(data, *funcs)


@overload
def compose(f1: Callable[[A], B], /) -> Callable[[A], B]: ...


@overload
def compose(f2: Callable[[B], C], f1: Callable[[A], B], /) -> Callable[[A], C]: ...


@overload
def compose(
    f3: Callable[[C], D], f2: Callable[[B], C], f1: Callable[[A], B], /
) -> Callable[[A], D]: ...


@overload
def compose(
    f4: Callable[[D], E], f3: Callable[[C], D], f2: Callable[[B], C], f1: Callable[[A], B], /
) -> Callable[[A], E]: ...


@overload
def compose(
    f5: Callable[[E], F],
    f4: Callable[[D], E],
    f3: Callable[[C], D],
    f2: Callable[[B], C],
    f1: Callable[[A], B],
    /,
) -> Callable[[A], F]: ...


@overload
def compose(
    f6: Callable[[F], G],
    f5: Callable[[E], F],
    f4: Callable[[D], E],
    f3: Callable[[C], D],
    f2: Callable[[B], C],
    f1: Callable[[A], B],
    /,
) -> Callable[[A], G]: ...


@overload
def compose(*funcs: Callable[[Any], Any]) -> Callable[[Any], Any]: ...


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
def compose_left(f1: Callable[[A], B], /) -> Callable[[A], B]: ...


@overload
def compose_left(f1: Callable[[A], B], f2: Callable[[B], C], /) -> Callable[[A], C]: ...


@overload
def compose_left(
    f1: Callable[[A], B], f2: Callable[[B], C], f3: Callable[[C], D], /
) -> Callable[[A], D]: ...


@overload
def compose_left(
    f1: Callable[[A], B], f2: Callable[[B], C], f3: Callable[[C], D], f4: Callable[[D], E], /
) -> Callable[[A], E]: ...


@overload
def compose_left(
    f1: Callable[[A], B],
    f2: Callable[[B], C],
    f3: Callable[[C], D],
    f4: Callable[[D], E],
    f5: Callable[[E], F],
    /,
) -> Callable[[A], F]: ...


@overload
def compose_left(
    f1: Callable[[A], B],
    f2: Callable[[B], C],
    f3: Callable[[C], D],
    f4: Callable[[D], E],
    f5: Callable[[E], F],
    f6: Callable[[F], G],
    /,
) -> Callable[[A], G]: ...


@overload
def compose_left(*funcs: Callable[[Any], Any]) -> Callable[[Any], Any]: ...


def compose_left(*funcs: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """Compose left to right, in pipeline order: ``compose_left(f, g)(x) == g(f(x))``.

    >>> compose_left(lambda n: n + 1, str)(41)
    '42'
    """
    composed: Callable[[Any], Any] = toolz.compose_left(*funcs)
    return composed
