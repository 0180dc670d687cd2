"""lazyfun.runs.batch: one way to answer a puzzle line, shared by every front end."""

from __future__ import annotations

import pickle
from dataclasses import replace
from itertools import islice

import pytest

from lazyfun.runs.batch import (
    METHODS,
    MORE_THAN_ONE,
    Answer,
    Request,
    answer_line,
    answer_lines,
    answers,
)
from lazyfun.runs.jobs import canon_file, solve_file
from lazyfun.sudoku.canon import canonical
from lazyfun.sudoku.solving import nine
from tests.puzzles import NO_SOLUTION, PUZZLES, SOLUTIONS

EMPTY_4X4 = "0" * 16


def test_answers_keep_input_order_and_line_numbers_past_bad_lines() -> None:
    lines = ["# header", PUZZLES[0], "", "12x", NO_SOLUTION, PUZZLES[1]]
    got = [(a.line, a.kind, a.solved) for a in answer_lines(lines, Request())]
    assert got == [
        (2, "solution", True),
        (4, "invalid", False),
        (5, "solution", False),
        (6, "solution", True),
    ]


def test_an_invalid_answer_says_where() -> None:
    bad = PUZZLES[0][:10] + "x" + PUZZLES[0][11:]
    (a,) = answers(3, bad, Request())
    assert (a.kind, a.column) == ("invalid", 11)
    assert a.problem is not None and "'x'" in a.problem


def test_conflicting_givens_are_invalid_not_unsolved() -> None:
    (a,) = answers(1, "11" + "0" * 14, Request())
    assert a.kind == "invalid" and not a.solved


@pytest.mark.parametrize(
    ("mode", "limit", "expected"),
    [("count", None, 288), ("count", 10, 10), ("unique", None, 2)],
)
def test_counting_modes(mode: str, limit: int | None, expected: int) -> None:
    (a,) = answers(1, EMPTY_4X4, Request(mode=mode, limit=limit))  # type: ignore[arg-type]
    assert (a.kind, a.count) == (mode, expected)
    assert a.solved == (mode == "count")


def test_unique_puzzle_is_solved_in_unique_mode() -> None:
    (a,) = answers(1, PUZZLES[0], Request(mode="unique"))
    assert a.count == 1 and a.solved


def test_the_solution_is_checked_to_be_the_only_one() -> None:
    (several,) = answers(4, EMPTY_4X4, Request())
    assert (several.kind, several.grid, several.count) == ("solution", None, 2)
    assert several.problem == MORE_THAN_ONE and not several.solved
    (one,) = answers(1, PUZZLES[0], Request())
    assert (str(one.grid), one.count, one.problem) == (SOLUTIONS[0], 1, None)
    (none,) = answers(1, NO_SOLUTION, Request())
    assert (none.grid, none.count, none.problem) == (None, 0, None)


def test_first_mode_takes_the_first_solution_found() -> None:
    (a,) = answers(1, EMPTY_4X4, Request(mode="first"))
    assert a.solved and a.problem is None and a.count is None
    assert str(a.grid) == "1234341221434321"


@pytest.mark.parametrize("method", METHODS)
def test_every_method_checks_for_a_second_solution(method: str) -> None:
    puzzle = "12343412" + "." * 8  # the bottom band blank: several solutions
    (a,) = answers(1, puzzle, Request(method=method))  # type: ignore[arg-type]
    assert (a.grid, a.problem) == (None, MORE_THAN_ONE)


def test_all_mode_numbers_solutions_lazily() -> None:
    stream = answers(1, EMPTY_4X4, Request(mode="all"))
    first_three = list(islice(stream, 3))
    assert [a.index for a in first_three] == [1, 2, 3]
    assert len({str(a.grid) for a in first_three}) == 3
    (none,) = answers(1, NO_SOLUTION, Request(mode="all"))
    assert none.grid is None and none.index is None and not none.solved


def test_naive_method_is_refused_with_the_reason_unless_forced() -> None:
    (a,) = answers(1, PUZZLES[0], Request(method="naive"))
    assert a.kind == "refused" and a.problem is not None
    assert a.problem.startswith("naive would stream 9^")
    almost = SOLUTIONS[0][:-2] + "00"
    (forced,) = answers(1, almost, Request(method="naive", force=True))
    assert str(forced.grid) == SOLUTIONS[0]


@pytest.mark.parametrize("method", METHODS)
def test_every_method_answers_alike(method: str) -> None:
    puzzle = SOLUTIONS[0][:-3] + "000"
    (a,) = answers(1, puzzle, Request(method=method))  # type: ignore[arg-type]
    assert str(a.grid) == SOLUTIONS[0]


def test_minlex_mode_gives_the_same_form_for_a_relabelled_puzzle() -> None:
    relabel = str.maketrans("123456789", "234567891")
    (a,) = answers(1, PUZZLES[0], Request(mode="minlex"))
    (b,) = answers(1, PUZZLES[0].translate(relabel), Request(mode="minlex"))
    assert a.kind == "minlex" and str(a.grid) == str(b.grid)


def test_answers_travel_to_workers_and_back() -> None:
    (a,) = answers(1, PUZZLES[0], Request())
    assert pickle.loads(pickle.dumps(a)) == a


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"mode": "fastest"}, "unknown mode 'fastest'"),
        ({"method": "magic"}, "unknown method 'magic'"),
        ({"limit": 0}, "limit must be at least 1, got 0"),
    ],
)
def test_a_bad_request_is_refused_when_made(fields: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Request(**fields)  # type: ignore[arg-type]


def test_solved_reads_the_kind() -> None:
    assert not Answer(1, "", "refused", problem="x").solved
    assert Answer(1, "", "minlex").solved


@pytest.mark.parametrize(
    ("mode", "limit"), [("solution", None), ("first", None), ("unique", None), ("count", 5)]
)
def test_plain_lines_answered_in_one_call_into_c_answer_as_the_long_way(
    mode: str, limit: int | None
) -> None:
    clash = "11" + "." * 79
    several = SOLUTIONS[0][:27] + "." * 54
    bad = PUZZLES[0][:10] + "x" + PUZZLES[0][11:]
    lines = [PUZZLES[0], NO_SOLUTION, clash, several, bad, PUZZLES[1].replace(".", "0")]
    request = Request(mode, limit=limit)  # type: ignore[arg-type]
    quick = [replace(a, ms=0.0) for a in answer_lines(lines, request)]
    long_way = [replace(a, ms=0.0) for n, t in enumerate(lines, 1) for a in answers(n, t, request)]
    assert quick == long_way
    assert [str(a.grid) for a in quick] == [str(a.grid) for a in long_way]
    assert str(quick[0].grid) == (SOLUTIONS[0] if mode in ("solution", "first") else "None")
    one_by_one = [a for n, t in enumerate(lines, 1) for a in answer_line(n, t, request)]
    assert [replace(a, ms=0.0) for a in one_by_one] == quick
    in_workers = solve_file(lines, mode=mode, limit=limit, scheduler="sync")  # type: ignore[arg-type]
    assert [replace(a, ms=0.0) for a in in_workers] == quick


def test_a_worker_answers_a_plain_line_in_one_call_into_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """solve_file's workers take the C path too: the plain 9x9 lines in one call each,
    the 4x4 line the long way."""
    if not nine.FAST:
        pytest.skip("the 9x9 engine in C is not built here")
    calls: list[list[str]] = []
    solve_lines = nine.solve_lines

    def spy(lines: list[str], limit: int = 1) -> list[tuple[int, str | None]]:
        calls.append(list(lines))
        return solve_lines(lines, limit)

    monkeypatch.setattr(nine, "solve_lines", spy)
    four = "1.....1..1.....1"
    found = list(solve_file([PUZZLES[0], four, PUZZLES[1]], scheduler="sync"))
    assert [a.solved for a in found] == [True, False, True]
    assert calls == [[PUZZLES[0]], [PUZZLES[1]]]


def test_minlex_of_plain_lines_in_one_call_into_c_is_the_long_ways(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """canon's plain 9x9 lines go to the minlex engine in C, one call each, with the
    answers the long way gives; a line the C refuses (clashing givens, a stray character)
    and a 4x4 go the long way, which names the fault."""
    clash = "11" + "." * 79
    other = PUZZLES[0].replace(".", "_")
    four = "1.....1..1.....1"
    lines = [PUZZLES[0], clash, PUZZLES[1].replace(".", "0"), other, four, SOLUTIONS[0]]
    request = Request("minlex")
    long_way = [replace(a, ms=0.0) for n, t in enumerate(lines, 1) for a in answers(n, t, request)]
    kinds = ["minlex", "invalid", "minlex", "invalid", "minlex", "minlex"]
    assert [a.kind for a in long_way] == kinds
    calls: list[str] = []
    if canonical.FAST:
        from lazyfun.sudoku.canon import _minlex

        minlex_lines = _minlex.minlex_lines

        def spy(texts: list[str]) -> list[str | None]:
            calls.extend(texts)
            return minlex_lines(texts)

        monkeypatch.setattr(_minlex, "minlex_lines", spy)
    quick = [replace(a, ms=0.0) for a in answer_lines(lines, request)]
    assert quick == long_way
    assert [replace(a, ms=0.0) for a in canon_file(lines, scheduler="sync")] == long_way
    if canonical.FAST:  # twice each (answer_lines, canon_file): the 81-character lines
        assert calls == [lines[i] for i in (0, 1, 2, 3, 5)] * 2
