"""queens(rows, cols): the known counts, the documented order, laziness, and the search twin."""

from __future__ import annotations

from itertools import permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lazyfun import first, ilen, take
from lazyfun.queens import QueensError, is_placement, queens, solutions
from lazyfun.queens.lex import TICK, WORD, Partial, _by_columns, _undoing, expand1
from lazyfun.search import search
from lazyfun.trace import Meter, Probe

A000170 = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200]
"""OEIS A000170: placements of n queens on an n x n board, n = 0, 1, 2, ..."""


# untraced (a second more on the largest boards under the tracer; the other tests reach the
# same lines)
@pytest.mark.untraced
@pytest.mark.parametrize("n", range(len(A000170)))
def test_square_counts_match_oeis_a000170(n: int) -> None:
    assert ilen(queens(n)) == A000170[n]


@pytest.mark.parametrize(
    ("rows", "cols", "count"),
    [(6, 4, 46), (8, 6, 550), pytest.param(12, 11, 68264, marks=pytest.mark.untraced)],
)
def test_rectangular_counts_match_oeis_a269133(rows: int, cols: int, count: int) -> None:
    assert ilen(queens(rows, cols)) == count


def test_the_articles_four_by_four_in_its_order() -> None:
    assert list(queens(4, 4)) == [(1, 3, 0, 2), (2, 0, 3, 1)]


@pytest.mark.parametrize(("rows", "cols"), [(5, 5), (6, 6), (7, 7), (7, 4), (6, 2), (4, 5)])
def test_the_stream_is_brute_force_in_lexicographic_order(rows: int, cols: int) -> None:
    brute = [p for p in permutations(range(rows), cols) if is_placement(p, rows)]
    assert list(queens(rows, cols)) == brute


@given(st.integers(0, 7), st.integers(0, 7))
def test_the_search_instance_and_the_engine_yield_the_same_stream(rows: int, cols: int) -> None:
    assert list(solutions(rows, cols)) == list(queens(rows, cols))


@given(st.integers(1, 8), st.integers(1, 8))
def test_placements_are_closed_under_the_board_symmetries(rows: int, cols: int) -> None:
    found = set(queens(rows, cols))
    assert {p[::-1] for p in found} == found
    assert {tuple(rows - 1 - r for r in p) for p in found} == found


def test_more_columns_than_rows_gives_an_empty_stream_and_no_columns_one_placement() -> None:
    assert list(queens(3, 4)) == []
    assert list(queens(5, 0)) == [()]
    assert list(queens(0)) == [()]


def test_the_first_placement_of_a_board_too_big_to_finish_comes_at_once() -> None:
    head = first(queens(25))
    assert is_placement(head, 25)
    assert head == first(solutions(25))
    assert head[:6] == (0, 2, 4, 1, 3, 8)


def test_memory_stays_flat_however_many_placements_stream_past() -> None:
    peaks = []
    for n in (8, 10):
        with Probe(memory=True) as probe:
            ilen(queens(n))
        peaks.append(probe.peak_bytes or 0)
    assert max(peaks) < 8_000


def test_the_stream_is_lazy_and_can_be_resumed() -> None:
    stream = queens(8)
    head = list(take(3, stream))
    rest = list(stream)
    assert len(head) + len(rest) == 92
    assert head + rest == sorted(head + rest)


@pytest.mark.parametrize(("rows", "cols"), [(-1, None), (4, -2), (2.5, None), (True, 3)])
def test_a_board_that_is_not_a_board_is_a_queens_error(rows: object, cols: object) -> None:
    with pytest.raises(QueensError, match="whole number"):
        queens(rows, cols)  # type: ignore[arg-type]


def test_an_unknown_strategy_is_named_in_the_error() -> None:
    with pytest.raises(QueensError, match="unknown strategy 'random'"):
        queens(8, strategy="random")  # type: ignore[arg-type]


@pytest.mark.parametrize(("rows", "cols"), [(8, 8), (9, 7), (10, 5), (7, 7), (6, 1)])
def test_the_tall_board_walk_yields_the_word_sized_walks_stream(rows: int, cols: int) -> None:
    """``_undoing`` (boards above 64 rows) and ``_by_columns`` are one search, two layouts."""
    assert list(_undoing(rows, cols, None)) == list(_by_columns(rows, cols, None))


def test_a_board_taller_than_a_word_streams_true_placements() -> None:
    placements = list(take(50, queens(70, 6)))
    assert placements == sorted(placements)
    assert all(is_placement(p, 70) for p in placements)
    assert placements == list(take(50, solutions(70, 6)))


def _built(rows: int, cols: int, k: int) -> int:
    """The partial placements the readable search builds to its first ``k`` placements."""
    probe = Probe()
    children = probe.counted("built")(expand1(rows))
    ilen(take(k, search(Partial(()), expand1=children, complete=lambda p: len(p.rows) == cols)))
    return probe.counts.get("built", 0)


@pytest.mark.parametrize(
    ("rows", "cols", "k"),
    [(8, 8, 1), (8, 8, 3), (10, 10, 10**6), (6, 4, 5), (WORD + 1, 8, 1), (WORD + 2, 5, 7)],
)
def test_the_meter_counts_every_node_built_by_the_placements_read(
    rows: int, cols: int, k: int
) -> None:
    """However many placements are read, and across its ticks, the fast walk's meter holds
    the nodes the readable search builds to reach them: 113 for the first of 8 queens."""
    meter = Meter()
    ilen(take(k, queens(rows, cols, meter=meter)))
    assert meter.done == _built(rows, cols, k)
    if (rows, cols, k) == (8, 8, 1):
        assert meter.done == 113
    if k > TICK:
        assert meter.done > TICK


def test_both_layouts_count_the_same_nodes() -> None:
    for walk in (_by_columns, _undoing):
        meter = Meter()
        assert first(walk(8, 8, meter)) == (0, 4, 7, 5, 2, 6, 1, 3)
        assert meter.done == 113
