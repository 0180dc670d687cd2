"""compose, compose_left and pipe: each stage's type follows from the one before, for
every length the overloads cover (1 to 12 functions; pipe also none)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import assert_type

from lazyfun import compose, compose_left, identity, pipe, take


def double(n: int) -> int:
    return 2 * n


def to_text(n: int) -> str:
    return str(n)


def length(text: str) -> int:
    return len(text)


def squares(xs: Iterator[int]) -> Iterator[int]:
    return (x * x for x in xs)


assert_type(pipe(1), int)
assert_type(pipe(1, to_text), str)
assert_type(pipe(1, double, to_text), str)
assert_type(pipe(iter(range(10)), squares, partial(take, 3), list[int]), list[int])
assert_type(pipe(range(100), partial(take, 2), sum), int)
assert_type(pipe(1, double, double, double, double, double, double, double, to_text), str)
# nine and more stages are typed too (they were Any)
assert_type(pipe(1, double, double, double, double, double, double, double, double, to_text), str)
assert_type(
    pipe(1, double, to_text, length, double, to_text, length, double, to_text, length, to_text),
    str,
)
assert_type(
    pipe(
        1, double, double, double, double, double, double, double, double, double, double, to_text
    ),
    str,
)
stages = [double] * 20
assert_type(pipe(1, *stages), int)

assert_type(compose(to_text), Callable[[int], str])
assert_type(compose(to_text, double), Callable[[int], str])
assert_type(compose(length, to_text, double), Callable[[int], int])
assert_type(
    compose(to_text, double, double, double, double, double, double, double, double),
    Callable[[int], str],
)
assert_type(
    compose(
        length, to_text, double, double, double, double, double, double, double, double, double
    ),
    Callable[[int], int],
)
assert_type(compose_left(double), Callable[[int], int])
assert_type(compose_left(double, to_text), Callable[[int], str])
assert_type(compose_left(double, to_text, length), Callable[[int], int])
assert_type(
    compose_left(double, double, double, double, double, double, double, double, to_text, length),
    Callable[[int], int],
)
assert_type(compose_left(identity, to_text)(1), str)
