"""Minlex in C agrees with the Python search and with the specification: the same form on
random puzzles and full grids, on every arrangement of them, and on the public lists whose
forms are known; a grid too big for its bound comes back to Python."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.sudoku import Grid, PuzzleError, parse
from lazyfun.sudoku.canon import (
    canonical,
    canonical_rows,
    equivalent,
    minlex,
    random_transform,
)
from tests.budget import examples
from tests.datafiles import read_lines, shared_path
from tests.puzzles import PUZZLES, SOLUTIONS
from tests.sudoku.strategies import full_grids

if canonical.AVAILABLE:
    from lazyfun.sudoku.canon import _minlex

pytestmark = pytest.mark.skipif(not canonical.AVAILABLE, reason="the minlex C engine was not built")

WORKED = "207005000000340000150000009005000001040000320000016500000002084700000010010580000"
WORKED_MINLEX = "000000012000034005006007300001300007053080000080000100010005090200100000700400030"


def in_python(grid: Grid) -> tuple[int, ...]:
    """The Python row-by-row search's form (whatever ``minlex`` runs)."""
    return tuple(v for row in canonical_rows(grid) for v in row)


def in_c(grid: Grid) -> tuple[int, ...]:
    """The C engine's form."""
    form = _minlex.minlex(grid.cells)
    assert form is not None
    return form


@st.composite
def puzzles(draw: st.DrawFn) -> Grid:
    """A grid of some clues of a full grid: from none to all of them."""
    full = draw(full_grids(3))
    rng = draw(st.randoms(use_true_random=False))
    kept = set(rng.sample(range(81), draw(st.integers(0, 81))))
    return Grid(tuple(v if i in kept else 0 for i, v in enumerate(full.cells)), 3)


def test_the_worked_example() -> None:
    assert "".join(map(str, in_c(parse(WORKED)))) == WORKED_MINLEX
    assert str(minlex(parse(WORKED))) == WORKED_MINLEX


@pytest.mark.untraced  # traced, the Python search takes 4x as long (test_canon traces it)
@given(puzzles(), st.randoms(use_true_random=False))
@settings(max_examples=examples(100), deadline=None)
def test_c_and_python_agree_on_a_puzzle_and_its_arrangements(
    grid: Grid, rng: random.Random
) -> None:
    form = in_c(grid)
    assert form == in_python(grid)
    assert in_c(random_transform(grid, rng)) == form
    assert in_c(Grid(form, 3)) == form


# the strategy's grids are built by shifting rows (many automorphisms, many states); the
# solutions of tests.puzzles are typical ones
@pytest.mark.untraced  # traced, the Python search takes 4x as long (test_canon traces it)
@given(
    st.one_of(full_grids(3), st.sampled_from(SOLUTIONS).map(parse)),
    st.randoms(use_true_random=False),
)
@settings(max_examples=examples(25), deadline=None)
def test_c_and_python_agree_on_full_grids_and_their_arrangements(
    grid: Grid, rng: random.Random
) -> None:
    form = in_c(grid)
    assert form[:9] == tuple(range(1, 10))
    assert form == in_python(grid)
    assert in_c(random_transform(grid, rng)) == form


@pytest.mark.parametrize("line", [*PUZZLES, *SOLUTIONS[:5]])
def test_c_and_python_agree_on_known_puzzles(line: str) -> None:
    grid = parse(line)
    assert in_c(grid) == in_python(grid)


def test_c_gives_the_specifications_forms() -> None:
    """The forms found by enumerating all 3,359,232 arrangements (tests-data)."""
    for pair in read_lines("minlex_exhaustive.txt"):
        puzzle, form = pair.split()
        assert "".join(map(str, in_c(parse(puzzle)))) == form


def test_the_17_clue_list_is_in_minlex_form() -> None:
    """tdoku's 17-clue list writes each puzzle in this form: each is its own minlex."""
    lines = read_lines("puzzles17_first50.txt")
    assert _minlex.minlex_lines(lines) == [line.replace(".", "0") for line in lines]


def test_the_batch_gives_each_lines_form() -> None:
    lines = [*PUZZLES[:4], *SOLUTIONS[:2]]
    assert _minlex.minlex_lines(lines) == ["".join(map(str, in_c(parse(x)))) for x in lines]


@pytest.mark.untraced  # traced, the Python search takes 4x as long (test_canon traces it)
@given(puzzles(), st.randoms(use_true_random=False))
@settings(max_examples=examples(40), deadline=None)
def test_equivalence_by_whole_forms_agrees_with_the_python_rows(
    grid: Grid, rng: random.Random
) -> None:
    other = random_transform(grid, rng)
    blank = rng.randrange(81)  # one cell of the copy blanked: equivalent only by chance
    changed = Grid(tuple(0 if i == blank else v for i, v in enumerate(other.cells)), 3)
    for b in (other, changed):
        assert equivalent(grid, b) == (in_python(grid) == in_python(b))


def test_a_search_past_its_bound_comes_back_and_python_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert _minlex.minlex(parse(WORKED).cells, 1) is None
    monkeypatch.setattr(canonical, "_minlex", _TooBig())
    monkeypatch.setattr(canonical, "FAST", True)
    assert str(minlex(parse(WORKED))) == WORKED_MINLEX


class _TooBig:
    """The engine as it answers a grid past its bound."""

    Conflict = ValueError

    @staticmethod
    def minlex(cells: object) -> None:
        """None: the search would outgrow its bound."""
        del cells


def test_conflicting_givens_are_refused_and_named() -> None:
    clash = "11" + "0" * 79
    with pytest.raises(_minlex.Conflict):
        _minlex.minlex(parse(clash).cells)
    with pytest.raises(_minlex.Conflict, match="line 2"):
        _minlex.minlex_lines([WORKED, clash])
    with pytest.raises(PuzzleError, match="r1c1 and r1c2"):
        minlex(parse(clash))


@pytest.mark.parametrize(
    ("cells", "message"),
    [([0] * 80, "expected 81 values"), ([0] * 80 + [10], "outside 0..9"), ("x", "81 values")],
)
def test_what_is_not_a_grid_is_refused(cells: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _minlex.minlex(cells)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("line", "message"),
    [("0" * 80, "line 1: expected 81"), ("0" * 80 + "x", "column 81: 'x'"), (7, "a str")],
)
def test_what_is_not_a_line_is_refused(line: object, message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        _minlex.minlex_lines([line])  # type: ignore[list-item]


# line 3,769 of tdoku's 17-clue list, and its form by every arrangement
# (benchmarks.peers.minlex_exhaustive): 1,505 of the list's 49,158 lines are not minlex
NOT_MINLEX = "000000000000000012003004000000000005000040360780010000000005004010003000020000080"
ITS_FORM = "000000000000000012001034000000000005000602007004000000000000040020700080060010300"


def test_a_line_of_the_17_clue_list_is_not_its_minlex() -> None:
    assert _minlex.minlex_lines([NOT_MINLEX]) == [ITS_FORM]
    assert ITS_FORM < NOT_MINLEX


@pytest.mark.slow
def test_royles_17_clue_puzzles_have_the_forms_of_tdokus_list() -> None:
    """Royle's 49,151 puzzles (his own orientation) and tdoku's 49,158 (its own) give
    distinct forms, Royle's among tdoku's; 97% of tdoku's lines are their own form."""
    royle = shared_path("sudoku/royle17_49151.txt")
    tdoku = shared_path("sudoku/tdoku_puzzles2_17_clue.txt")
    forms = set(_minlex.minlex_lines(royle.read_text().split()))
    lines = tdoku.read_text().split()
    listed = _minlex.minlex_lines(lines)
    assert len(forms) == 49_151
    assert len(set(listed)) == 49_158
    assert forms <= set(listed)
    assert (
        sum(form == line.replace(".", "0") for form, line in zip(listed, lines, strict=True))
        == 47_653
    )
