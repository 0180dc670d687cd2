"""The core vocabulary: cp, flatmap, many, iterate, and the laws the derivations use."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lazyfun import cp, fair_cp, first, flatmap, ilen, iterate, many, reiterable, take
from lazyfun.trace import Probe
from tests.budget import size

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

small_lists = st.lists(st.lists(st.integers(-5, 5), max_size=4), max_size=5)
predicates = st.sampled_from([lambda n: n > 0, lambda n: n % 2 == 0, lambda n: n != 3])
functions = st.sampled_from([lambda n: n * n, lambda n: n + 1, lambda n: -n, abs])


@given(small_lists)
def test_cp_agrees_with_itertools_product(xss: list[list[int]]) -> None:
    assert list(cp(xss)) == list(itertools.product(*xss))


@given(small_lists, functions)
def test_map_map_f_after_cp_is_cp_after_map_map_f(
    xss: list[list[int]], f: Callable[[int], int]
) -> None:
    """``map (map f) . cp = cp . map (map f)``."""
    left = [tuple(map(f, ys)) for ys in cp(xss)]
    right = list(cp([list(map(f, xs)) for xs in xss]))
    assert left == right


@given(small_lists, predicates)
def test_filter_all_p_after_cp_is_cp_after_map_filter_p(
    xss: list[list[int]], p: Callable[[int], bool]
) -> None:
    """``filter (all p) . cp = cp . map (filter p)``."""
    left = [ys for ys in cp(xss) if all(map(p, ys))]
    right = list(cp([[x for x in xs if p(x)] for xs in xss]))
    assert left == right


def test_cp_of_nothing_is_one_empty_tuple() -> None:
    assert list(cp([])) == [()]
    assert list(cp([[], [1]])) == []


def test_cp_reads_nothing_until_asked_and_stops_at_an_empty_position() -> None:
    read: list[int] = []

    def positions() -> Iterator[list[int]]:
        for i in itertools.count():
            read.append(i)
            yield [] if i == 2 else [i]

    product = cp(positions())
    assert read == []
    assert list(product) == []
    assert read == [0, 1, 2]


def test_cp_reads_one_shot_positions_only_as_far_as_needed() -> None:
    pulled: list[int] = []

    def digits() -> Iterator[int]:
        for d in range(9):
            pulled.append(d)
            yield d

    stream = cp([range(3), digits(), digits()])
    assert next(stream) == (0, 0, 0)
    assert pulled == [0, 0]
    assert list(take(3, stream)) == [(0, 0, 1), (0, 0, 2), (0, 0, 3)]
    assert list(stream)[-1] == (2, 8, 8)


def test_cp_walks_reiterable_streams_without_storing_them() -> None:
    rows = [reiterable(lambda: cp([range(3)] * 2)) for _ in range(2)]
    assert ilen(cp(rows)) == 81
    assert first(cp(rows)) == ((0, 0), (0, 0))


def test_cp_of_81_positions_yields_at_once_and_streams_in_flat_memory() -> None:
    probe = Probe(memory=True)
    with probe:
        stream = probe.stage("tuples", cp([range(1, 10)] * 81))
        assert next(stream) == (1,) * 81
        last = None
        n = size(1_000_000)
        for item in take(n, stream):
            last = item
    assert probe.counts["tuples"] == n + 1
    assert last == _nth_tuple_of_nines(n)
    # flat: a million such tuples kept would take 0.7 GB; the bound leaves room for what the
    # test runner's own threads allocate meanwhile (tracemalloc counts every thread's)
    assert probe.peak_bytes is not None and probe.peak_bytes < 1_000_000


def _nth_tuple_of_nines(index: int) -> tuple[int, ...]:
    """The tuple at ``index`` of ``cp([range(1, 10)] * 81)``: ``index`` in base 9, plus one."""
    digits = []
    for _ in range(81):
        index, d = divmod(index, 9)
        digits.append(d + 1)
    return tuple(reversed(digits))


@given(st.lists(st.integers(0, 5), max_size=5))
def test_flatmap_is_concat_of_map(xs: list[int]) -> None:
    assert list(flatmap(range, xs)) == [y for x in xs for y in range(x)]


def test_flatmap_is_lazy_on_infinite_input() -> None:
    assert list(take(5, flatmap(lambda n: [n, n], itertools.count()))) == [0, 0, 1, 1, 2]


@given(st.integers(0, 10**9), st.integers(2, 10))
def test_many_returns_a_fixpoint(x: int, k: int) -> None:
    y = many(lambda n: n // k, x)
    assert y // k == y


@given(st.frozensets(st.integers(0, 30), max_size=5), st.integers(1, 30))
def test_many_reaches_the_closure(start: frozenset[int], m: int) -> None:
    def step(s: frozenset[int]) -> frozenset[int]:
        return s | {(2 * x + 1) % m for x in s}

    closure = many(step, start)
    assert step(closure) == closure
    assert start <= closure


def test_many_has_no_recursion_limit() -> None:
    assert many(lambda n: max(n - 1, 0), 100_000) == 0


@given(st.integers(-100, 100), st.integers(0, 20))
def test_iterate_applies_f_n_times_at_position_n(x: int, n: int) -> None:
    expected = x
    for _ in range(n):
        expected = 3 * expected + 1
    assert list(take(n + 1, iterate(lambda v: 3 * v + 1, x)))[-1] == expected


# --- fair_cp: the product in diagonal order -------------------------------------------


@given(small_lists)
def test_fair_cp_is_a_reordering_of_cp(xss: list[list[int]]) -> None:
    assert sorted(fair_cp(xss)) == sorted(cp(xss))


@given(st.lists(st.lists(st.integers(0, 9), min_size=1, max_size=4, unique=True), max_size=4))
def test_fair_cp_goes_diagonal_by_diagonal(xss: list[list[int]]) -> None:
    levels = [sum(xs.index(x) for xs, x in zip(xss, t, strict=True)) for t in fair_cp(xss)]
    assert levels == sorted(levels)
    assert len(levels) == len(set(fair_cp(xss))) == len(list(cp(xss)))


@given(st.integers(0, 12), st.integers(0, 12))
def test_fair_cp_reaches_every_pair_of_two_infinite_positions_in_time(i: int, j: int) -> None:
    d = i + j
    bound = (d + 1) * (d + 2) // 2
    assert (i, j) in list(take(bound, fair_cp([itertools.count(), itertools.count()])))


def test_fair_cp_of_three_infinite_positions_yields_each_tuple_once() -> None:
    first_level = list(take(1 + 3 + 6 + 10, fair_cp([itertools.count() for _ in range(3)])))
    assert len(set(first_level)) == len(first_level) == 20
    assert max(map(sum, first_level)) == 3


def test_fair_cp_reads_only_what_the_diagonals_need() -> None:
    reads: list[int] = []

    def counting() -> Iterator[int]:
        for n in itertools.count():
            reads.append(n)
            yield n

    assert list(take(3, fair_cp([counting(), "ab"]))) == [(0, "a"), (0, "b"), (1, "a")]
    assert reads == [0, 1]
    assert list(fair_cp([itertools.count(), []])) == []
    assert list(fair_cp([])) == [()]


def test_cp_never_leaves_its_first_position_when_a_later_one_is_infinite() -> None:
    """What fair_cp is for: cp is depth-first."""
    head = list(take(100, cp([range(2), itertools.count()])))
    assert {t[0] for t in head} == {0}


@given(st.lists(st.integers(1, 6), min_size=2, max_size=5))
def test_cp_takes_every_path_in_order(lengths: list[int]) -> None:
    """The sequence path (itertools.product), the fold path and the table path agree."""
    shapes = [range(n) for n in lengths]
    expected = list(itertools.product(*shapes))
    assert list(cp(shapes)) == expected

    def again(r: range) -> reiterable[int]:
        return reiterable(lambda: iter(r))

    assert list(cp([again(r) for r in shapes])) == expected
    mixed: list[Iterable[int]] = [again(shapes[0]), *shapes[1:]]
    assert list(cp(mixed)) == expected
