"""Ratings: the hardest step on the Sudoku Explainer scale, the known facts, the command."""

from __future__ import annotations

import json
from collections import Counter
from itertools import takewhile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lazyfun.cli import app
from lazyfun.sudoku import UnsolvedError, parse, solve
from lazyfun.sudoku.steps.deduction import SINGLES, steps
from lazyfun.sudoku.steps.rating import Rating, rate, rating_of
from tests.datafiles import read_lines
from tests.puzzles import EULER_GRID1, NO_SOLUTION, NORVIG_GRID2

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

# serate's ER of each of norvig_easy50 (SukakuExplainer @362854ee, `serate --format=%r`)
EASY50_SERATE = (
    "1.2 1.2 2.0 1.5 1.2 2.6 3.2 1.2 2.0 2.0 1.2 1.2 1.5 1.5 1.5 1.2 1.2 1.2 1.2 1.2 2.0 1.5 1.5 "
    "1.5 2.0 1.5 1.5 1.5 1.5 2.0 1.5 1.5 1.2 1.2 1.2 1.2 1.2 1.2 1.2 1.2 2.0 3.0 2.3 2.3 2.0 2.0 "
    "2.0 2.8 2.8 3.2"
)


def _past_ladder() -> str:
    """serate's 11.8 at SE's level 4 (serate_nested.txt, a public set's sample): past
    the ladder."""
    return read_lines("serate_nested.txt")[34].split()[0]


def test_the_puzzles_singles_finish_rate_easy_and_each_as_serate_does() -> None:
    easy50 = read_lines("norvig_easy50.txt")
    by_singles = [
        all(s.technique in SINGLES for s in steps(parse(p), techniques=SINGLES)) for p in easy50
    ]
    ratings = [rate(parse(p)) for p in easy50]
    assert sum(by_singles) == 40
    assert all(r.level == "easy" for r, easy in zip(ratings, by_singles, strict=True) if easy)
    # four more are easy by SE's direct techniques (a hidden single seen through a pair)
    assert Counter(r.level for r in ratings) == Counter({"easy": 44, "hard": 3, "medium": 3})
    assert [r.score for r in ratings] == [float(x) for x in EASY50_SERATE.split()]


@pytest.mark.untraced
def test_forum_hardest_puzzles_are_not_finished_by_singles_and_rate_extreme() -> None:
    """The forum's hardest need SE's chains nested in dynamic ones (one that needs its
    level 4, past the ladder, rates a floor: see the CLI's test)."""
    for puzzle in read_lines("forum_hardest_first20.txt")[:2]:
        walk = steps(parse(puzzle), techniques=SINGLES)
        assert any(s.technique == "bifurcation" for s in walk)
        rating = rate(parse(puzzle))
        assert rating.level == "extreme" and not rating.floor and rating.score >= 10.9
        assert rating.hardest.endswith("(+ multiple forcing chains)")


def test_a_rating_is_the_hardest_step() -> None:
    puzzle = NORVIG_GRID2
    walk = list(steps(parse(puzzle)))
    rating = rate(parse(puzzle))
    assert rating == Rating(2.6, "pointing", "medium", len(walk), 0, False)
    assert max(s.rating or 0 for s in walk) == rating.score


def test_a_walk_whose_ladder_stops_short_guesses_labelled_and_right() -> None:
    """Limited to the singles and nishio, the walk of the repo's own puzzle that needs a
    nishio forcing chain (generated_chains.txt) takes nishio chains where the singles
    stop, and is stuck at times all the same (it needs the static chains too): every
    step agrees with the solution, each guess is labelled, and the rating is a floor
    that counts them."""
    grid = parse(read_lines("generated_chains.txt")[1].split()[2])
    solution = next(solve(grid)).cells
    walk = list(steps(grid, techniques=(*SINGLES, "nishio forcing chains")))
    for step in walk:
        assert all(solution[c] == v for c, v in step.placements), step
        assert all(solution[c] != v for c, v in step.eliminations), step
    taken = Counter(step.technique for step in walk)
    assert taken["nishio forcing chain"] and taken["bifurcation"]
    rating = rating_of(walk)
    assert rating.floor and rating.guesses == taken["bifurcation"]
    assert rating.hardest == "bifurcation"


def test_only_a_unique_puzzle_is_rated() -> None:
    with pytest.raises(UnsolvedError, match="more than one solution") as several:
        rate(parse("0" * 16))
    assert several.value.solutions == 2
    with pytest.raises(UnsolvedError, match="no solution") as none:
        rate(parse(NO_SOLUTION))
    assert none.value.solutions == 0


def test_limiting_the_ladder() -> None:
    easy = EULER_GRID1
    only = list(
        takewhile(
            lambda s: s.technique != "bifurcation", steps(parse(easy), techniques=["naked single"])
        )
    )
    assert {s.technique for s in only} <= {"naked single"}
    with pytest.raises(ValueError, match="unknown techniques: telepathy"):
        steps(parse(easy), techniques=["telepathy"])


@pytest.mark.long_from_source  # from source the readable chains (+) run before each guess
def test_cli_rate_streams_in_order_with_errors_and_status(tmp_path: Path) -> None:
    lines = [
        "....34...3.11..4",
        "12",
        "# a comment",
        "0" * 16,
        _past_ladder(),
    ]
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(app, ["sudoku", "rate", "-f", str(path)])
    bad = "line 2: expected 81 cells (9x9), or 16 (4x4), 256 (16x16) or 625 (25x25), got 2"
    assert result.stdout.splitlines() == [
        "1.2 easy hidden single (box)",
        f"# {bad}",
        "# line 4: more than one solution: no rating",
        "11.4+ extreme bifurcation",
    ]
    assert f"lazyfun: {bad}" in result.stderr
    assert "lazyfun: line 4: more than one solution: no rating" in result.stderr
    assert "2 rated, 1 with more than one solution, 1 invalid" in result.stderr
    assert result.exit_code == 2  # an invalid line outranks an unrated one
    records = CliRunner().invoke(app, ["sudoku", "rate", lines[0], "--format", "json"])
    assert records.exit_code == 0
    assert json.loads(records.stdout) == {
        "line": 1,
        "puzzle": lines[0],
        "score": 1.2,
        "hardest": "hidden single (box)",
        "level": "easy",
        "steps": 10,
        "guesses": 0,
        "floor": False,
    }
    several = CliRunner().invoke(app, ["sudoku", "rate", "0" * 16])
    assert several.exit_code == 1


def test_the_rate_help_names_the_ladder_with_its_ratings() -> None:
    result = CliRunner().invoke(app, ["sudoku", "rate", "--help"], terminal_width=400)
    text = " ".join(result.stdout.split())
    assert "full house 1.0, hidden single (box) 1.2" in text
    assert "aligned triple exclusion 7.5" in text
    assert "nested multiple forcing chains 10.0; past them a guess, and a floor of 10.5" in text
