"""The C learning engine's entry points under random input: random boards (consistent or
not), random values ruled out, limits and budgets.  Every answer is checked against the
depth-first engine; `make sanitize` runs these under AddressSanitizer and
UndefinedBehaviorSanitizer."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.sudoku import Grid, is_solution
from lazyfun.sudoku.solving import engine, learning
from tests.budget import examples

if not learning.AVAILABLE:
    pytest.skip("the C learning engine is not built", allow_module_level=True)

pytestmark = pytest.mark.compiled


@st.composite
def boards(draw: st.DrawFn, boxes: tuple[int, ...] = (2, 3)) -> tuple[int, tuple[int, ...]]:
    """A box size and cells with random givens: often conflicting, sometimes sparse."""
    box = draw(st.sampled_from(boxes))
    n = box * box
    givens = draw(st.integers(0, n * n // 3))
    cells = [0] * (n * n)
    for cell in draw(st.lists(st.integers(0, n * n - 1), max_size=givens, unique=True)):
        cells[cell] = draw(st.integers(1, n))
    return box, tuple(cells)


def _engine_solutions(box: int, cells: tuple[int, ...], limit: int) -> list[tuple[int, ...]]:
    try:
        root = engine.start(Grid(cells, box))
    except ValueError:  # conflicting givens: no solution
        return []
    found = []
    for node in engine.solutions(root):
        found.append(tuple(x.bit_length() - box * box for x in node.cands))
        if len(found) == limit:
            break
    return found


@pytest.mark.long_from_source  # from source it reaches no line the pure pass's other tests miss
@settings(max_examples=examples(150), deadline=None)
@given(boards(), st.integers(1, 6), st.integers(1, 50))
def test_random_boards_and_budgets_give_the_engines_solutions(
    board: tuple[int, tuple[int, ...]], limit: int, budget: int
) -> None:
    box, cells = board
    learner = learning.learner(box, cells)
    found: list[tuple[int, ...]] = []
    while len(found) < limit:
        outcome = learner.run(budget)
        if outcome == -1:
            continue
        if outcome == 0:
            break
        found.append(learner.solution())
    assert len(found) == len(_engine_solutions(box, cells, limit))
    assert len(set(found)) == len(found)
    for solution in found:
        assert is_solution(Grid(cells, box), Grid(solution, box))


@settings(max_examples=examples(100), deadline=None)
@given(
    boards(boxes=(2,)),
    st.lists(st.tuples(st.integers(0, 15), st.integers(1, 4)), max_size=12),
)
def test_values_ruled_out_leave_exactly_the_solutions_without_them(
    board: tuple[int, tuple[int, ...]], ruled: list[tuple[int, int]]
) -> None:
    box, cells = board
    learner = learning.learner(box, cells, ruled_out=ruled)
    found = set()
    while (outcome := learner.run(7)) != 0:
        if outcome == 1:
            found.add(learner.solution())
    expected = {s for s in _engine_solutions(box, cells, 10**6) if all(s[c] != v for c, v in ruled)}
    assert found == expected
