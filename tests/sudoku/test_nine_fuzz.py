"""The 9x9 C engine's entry points under random input: random givens (often clashing),
random values ruled out, limits, and lines of random characters.  Every answer is checked
against the depth-first engine; `make sanitize` runs these under AddressSanitizer and
UndefinedBehaviorSanitizer."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.sudoku import Grid, MarkedGrid, PuzzleError
from lazyfun.sudoku.solving import engine, nine
from tests.budget import examples

pytestmark = [
    pytest.mark.compiled,
    pytest.mark.skipif(not nine.AVAILABLE, reason="the 9x9 C engine was not built"),
]


@st.composite
def givens(draw: st.DrawFn) -> tuple[int, ...]:
    """81 cells with up to 30 random givens: often clashing, sometimes sparse."""
    cells = [0] * 81
    for cell in draw(st.lists(st.integers(0, 80), max_size=draw(st.integers(0, 30)), unique=True)):
        cells[cell] = draw(st.integers(1, 9))
    return tuple(cells)


def line_of(cells: tuple[int, ...]) -> str:
    """The 81-character line of ``cells``, blanks as ``.``."""
    return "".join(str(v) if v else "." for v in cells)


def depth_first_count(puzzle: Grid | MarkedGrid, limit: int) -> int | None:
    """The depth-first engine's count up to ``limit``; None when the givens clash."""
    try:
        root = engine.start(puzzle)
    except PuzzleError:
        return None
    return sum(1 for _ in itertools.islice(engine.solutions(root), limit))


def c_count(grid: Grid, limit: int, ruled_out: list[tuple[int, int]]) -> int | None:
    """The C engine's count up to ``limit``; None when the givens clash."""
    try:
        found = nine.count_solutions(grid, limit, ruled_out)
    except PuzzleError:
        return None
    assert 0 <= found <= limit
    return found


@settings(max_examples=examples(300), deadline=None)
@given(givens(), st.integers(0, 4))
def test_random_givens_count_as_the_depth_first_engine_counts(
    cells: tuple[int, ...], limit: int
) -> None:
    grid = Grid(cells, 3)
    assert c_count(grid, limit, []) == depth_first_count(grid, limit)


@settings(max_examples=examples(200), deadline=None)
@given(givens(), st.integers(0, 4), st.lists(st.tuples(st.integers(0, 80), st.integers(1, 9))))
def test_random_marks_narrow_the_count_as_in_the_depth_first_engine(
    cells: tuple[int, ...], limit: int, ruled_out: list[tuple[int, int]]
) -> None:
    grid = Grid(cells, 3)
    blank = [(c, v) for c, v in ruled_out if not cells[c]]
    found = c_count(grid, limit, blank)  # any pairs: never a crash
    marks: dict[int, set[int]] = {}
    for cell, value in blank:
        marks.setdefault(cell, set(range(1, 10))).discard(value)
    try:
        marked = MarkedGrid.of(grid, marks)
    except PuzzleError:  # clashing givens, or a cell left without a candidate
        return
    assert found == depth_first_count(marked, limit)


@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(st.one_of(givens().map(line_of), st.text(".0123456789x \n", min_size=79)), max_size=4)
)
def test_random_lines_are_answered_or_refused_with_their_line(lines: list[str]) -> None:
    try:
        answers = nine.solve_lines(lines, limit=2)
    except ValueError as refused:
        assert str(refused).startswith("line ")
        return
    assert len(answers) == len(lines)
    for line, (count, solution) in zip(lines, answers, strict=True):
        expected = depth_first_count(Grid(tuple(0 if ch in ".0" else int(ch) for ch in line), 3), 2)
        assert count == (-1 if expected is None else expected)
        assert (solution is None) == (count <= 0)
