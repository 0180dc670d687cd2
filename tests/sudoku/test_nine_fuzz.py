"""The 9x9 C engine's entry points under random input: random givens (often clashing),
random values ruled out, limits, and lines of random characters.  Every answer is checked
against the depth-first engine, and every line the C reader reads against the Python
reader; `make sanitize` runs these under AddressSanitizer and UndefinedBehaviorSanitizer."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.sudoku import Grid, MarkedGrid, PuzzleError, parse
from lazyfun.sudoku.board import formats
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


PLAIN = ".0123456789"  # what a plain line is written with


def python_read(text: str) -> Grid | PuzzleError:
    """What the Python reader makes of ``text``: its grid, or the error it raises."""
    try:
        return formats._read_text(text)
    except PuzzleError as error:
        return error


def assert_read_alike(got: Grid | PuzzleError, expected: Grid | PuzzleError) -> None:
    """The same grid (of the same type and alphabet), or the same error at the same place."""
    if isinstance(expected, PuzzleError):
        assert isinstance(got, PuzzleError)
        assert (type(got), str(got), got.line, got.column) == (
            type(expected),
            str(expected),
            expected.line,
            expected.column,
        )
    else:
        assert (type(got), got, getattr(got, "symbols", None)) == (
            type(expected),
            expected,
            expected.symbols,
        )


def read_by_parse(text: str) -> Grid | PuzzleError:
    try:
        return parse(text)
    except PuzzleError as error:
        return error


@settings(max_examples=examples(300), deadline=None)
@given(
    st.one_of(
        givens().map(line_of),
        givens().map(lambda cells: "".join(map(str, cells))),  # blanks as 0
        st.text(PLAIN + "x# \n\t|-\ufeff\u00e9\x00", min_size=78, max_size=84),
        st.text(min_size=81, max_size=81),
    )
)
def test_the_c_reader_reads_a_line_as_the_python_reader_does(text: str) -> None:
    """C reads a plain line (81 characters of 1-9, . and 0) to the Python reader's grid and
    leaves every other text to it (None); parse answers as the Python reader does, the
    same error at the same place for a bad line."""
    from lazyfun.sudoku.solving import _nine  # built: the mark skips this file otherwise

    expected = python_read(text)
    fast = _nine.parse_line(text, formats._NINE)
    assert (fast is not None) == (len(text) == 81 and set(text) <= set(PLAIN))
    if fast is not None:
        assert_read_alike(fast, expected)
    assert_read_alike(read_by_parse(text), expected)


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("x" + "." * 80, 1),
        ("." * 11 + "x" + "." * 69, 12),
        ("." * 40 + "\x00" + "." * 40, 41),
        ("." * 80 + "\u00e9", 81),
        ("." * 79 + "A.", 80),
    ],
)
def test_a_bad_plain_line_is_left_to_the_python_reader_which_names_its_column(
    text: str, column: int
) -> None:
    from lazyfun.sudoku.solving import _nine

    assert _nine.parse_line(text, formats._NINE) is None
    with pytest.raises(PuzzleError, match="unexpected character") as bad:
        parse(text)
    assert (bad.value.line, bad.value.column) == (None, column)


def test_the_c_reader_is_given_a_str_and_a_grid_to_copy() -> None:
    from lazyfun.sudoku.solving import _nine

    with pytest.raises(TypeError, match="expected str"):
        _nine.parse_line(b"." * 81, formats._NINE)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="expected 2 arguments"):
        _nine.parse_line("." * 81)  # type: ignore[call-arg]
    with pytest.raises(AttributeError):
        _nine.parse_line("." * 81, None)  # type: ignore[arg-type]
