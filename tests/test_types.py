"""Type tests: mypy checks that pipelines keep precise types (``assert_type``).

The assertions also run, so a change in behaviour fails here as well.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import assert_type

from lazyfun import (
    compose,
    compose_left,
    cp,
    first,
    flatmap,
    ilen,
    iterate,
    many,
    pipe,
    search,
    take,
    unique_everseen,
)


def squares(xs: Iterator[int]) -> Iterator[int]:
    return (x * x for x in xs)


def first_three(xs: Iterator[int]) -> Iterator[int]:
    return take(3, xs)


def test_pipe_infers_each_stage() -> None:
    result = pipe(iter(range(10)), squares, first_three, list[int])
    assert_type(result, list[int])
    assert result == [0, 1, 4]


def test_pipe_with_partial_application() -> None:
    result = pipe(range(100), partial(take, 2), sum)
    assert_type(result, int)
    assert result == 1


def test_compose_infers_input_and_output() -> None:
    def length(s: str) -> int:
        return len(s)

    def show(n: int) -> str:
        return f"<{n}>"

    right = compose(show, length)
    assert_type(right, Callable[[str], str])
    assert right("abc") == "<3>"
    left = compose_left(length, show)
    assert left("ab") == "<2>"


def test_core_producers_are_typed_iterators() -> None:
    assert_type(cp([[1, 2], [3]]), Iterator[tuple[int, ...]])
    assert_type(flatmap(lambda n: [str(n)], [1, 2]), Iterator[str])
    assert_type(iterate(lambda n: n + 1, 0), Iterator[int])
    assert_type(many(lambda n: n // 2, 10), int)
    assert_type(first(cp(["ab"])), tuple[str, ...])
    assert_type(first(iter([]), None), None)
    assert_type(unique_everseen("aab"), Iterator[str])
    assert_type(ilen(cp([[1]])), int)
    sols = search(0, expand1=lambda n: [n + 1], complete=lambda n: n == 3)
    assert_type(sols, Iterator[int])
    assert list(sols) == [3]
