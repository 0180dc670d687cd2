"""Generation: every puzzle unique and minimal, symmetric when asked, the same for a seed."""

from __future__ import annotations

import importlib
import json
import random
import re
import subprocess
import sys
from itertools import islice
from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from lazyfun.cli import app
from lazyfun.sudoku import Grid, PuzzleError, count_solutions, is_solution, parse
from lazyfun.sudoku.board.grid import check_givens
from lazyfun.sudoku.making import generate
from lazyfun.sudoku.making.generation import (
    SYMMETRIES,
    Symmetry,
    _stays_unique,
    blank_orbits,
    orbits,
    puzzle,
    random_solution,
)
from lazyfun.sudoku.solving import learning
from lazyfun.sudoku.solving.engine import count_below, depth_first, solve, start_ruling_out
from tests.budget import cheap, examples

pytestmark = pytest.mark.compiled  # run again from source by `make unit`


def _minimal(grid: Grid, symmetry: str | None = None) -> bool:
    """No given (no orbit of givens) can be blanked without a second solution."""
    cells = list(grid.cells)
    for orbit in orbits(grid.box, symmetry):  # type: ignore[arg-type]
        if not cells[orbit[0]]:
            continue
        blanked = [0 if i in orbit else v for i, v in enumerate(cells)]
        if count_solutions(Grid(tuple(blanked), grid.box), limit=2) == 1:
            return False
    return True


def _symmetric(grid: Grid, symmetry: str) -> bool:
    return all(
        len({bool(grid.cells[c]) for c in orbit}) == 1
        for orbit in orbits(grid.box, symmetry)  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("box", cheap([2, 3], {3}))
def test_every_puzzle_is_unique_and_minimal(box: int) -> None:
    for grid in islice(generate(box, seed=11), 12 if box == 3 else 40):
        assert count_solutions(grid, limit=2) == 1
        assert _minimal(grid)


@pytest.mark.untraced
@pytest.mark.long_from_source
def test_a_16x16_puzzle_is_unique() -> None:
    grid = next(generate(4, seed=1))
    assert grid.size == 16
    assert count_solutions(grid, limit=2) == 1
    assert 60 < grid.givens < 140


@pytest.mark.parametrize("symmetry", ["rot180", "rot90", "mirror", "diagonal"])
def test_symmetric_puzzles_are_symmetric_unique_and_orbit_minimal(symmetry: str) -> None:
    for grid in islice(generate(3, seed=5, symmetry=symmetry), 3):  # type: ignore[call-overload]
        assert _symmetric(grid, symmetry)
        assert count_solutions(grid, limit=2) == 1
        assert _minimal(grid, symmetry)


def test_not_minimal_stops_early_and_stays_unique() -> None:
    quick = list(islice(generate(3, seed=9, minimal=False), 5))
    full = list(islice(generate(3, seed=9), 5))
    assert all(count_solutions(g, limit=2) == 1 for g in quick)
    assert sum(g.givens for g in quick) > sum(g.givens for g in full)


def test_a_seed_gives_the_same_stream_in_pieces_and_everywhere() -> None:
    stream = [str(g) for g in islice(generate(3, seed=42, symmetry="rot180"), 4)]
    assert stream == [str(g) for g in islice(generate(3, seed=42, symmetry="rot180"), 4)]
    assert str(puzzle(3, 42, 3, symmetry="rot180")) == stream[3]
    assert len(set(stream)) == 4
    assert [str(g) for g in islice(generate(2, seed=3), 2)] == [
        "0040030000012000",
        "0310400000000030",
    ]  # pinned: the same on any machine (string seeds hash the same everywhere)
    assert next(generate(3)) != next(generate(3))  # no seed: a fresh one each time


def test_random_solutions_are_valid_and_varied() -> None:
    rng = random.Random(0)
    grids = [random_solution(box, rng) for box in (2, 3, 3, 4)]
    for grid in grids:
        assert is_solution(parse("0" * grid.size**2), grid)
    assert grids[1] != grids[2]


def test_orbits_partition_the_grid() -> None:
    for symmetry, expected in [("rot180", 41), ("rot90", 21), ("mirror", 45), ("diagonal", 45)]:
        groups = orbits(3, symmetry)  # type: ignore[arg-type]
        assert len(groups) == expected
        assert sorted(c for g in groups for c in g) == list(range(81))
    assert len(orbits(3)) == 81


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(PuzzleError, match=r"\(4x4, 9x9, 16x16, 25x25\), not 6$"):
        generate(6)
    with pytest.raises(PuzzleError, match="unknown symmetry"):
        generate(3, symmetry="spiral")  # type: ignore[call-overload]
    with pytest.raises(PuzzleError, match="levels are for 4x4 to 16x16"):
        generate(5, level="extreme")
    with pytest.raises(PuzzleError, match="unknown symmetry"):
        orbits(3, "spiral")  # type: ignore[arg-type]


def test_ruling_out_a_value_counts_the_other_solutions() -> None:
    assert count_below(start_ruling_out((0,) * 16, 2, 0, 1)) == 216
    forced = (1, 2, 3, 0) + (0,) * 12  # the 4 is forced at cell 3: ruling it out leaves none
    assert count_below(start_ruling_out(forced, 2, 3, 4)) == 0


@pytest.mark.long_from_source  # from source it reaches no line the pure pass's other tests miss
@settings(max_examples=examples(30, least=10), deadline=None)
@given(seed=st.integers(0, 10**9), box=st.sampled_from([2, 3]))
def test_the_quick_uniqueness_test_agrees_with_counting(seed: int, box: int) -> None:
    """Along a whole blanking pass, the shortcut (singles, then one search per cell)
    says what counting up to two solutions says."""
    rng = random.Random(seed)
    solution = random_solution(box, rng)
    cells = list(solution.cells)
    order = orbits(box)
    rng.shuffle(order)
    for orbit in order:
        for cell in orbit:
            cells[cell] = 0
        quick = _stays_unique(cells, box, solution, orbit)
        assert quick == (count_solutions(Grid(tuple(cells), box), limit=2) == 1)
        if not quick:
            for cell in orbit:
                cells[cell] = solution.cells[cell]


def _consistent(cells: list[int]) -> bool:
    try:
        check_givens(Grid(tuple(cells), 3))
    except PuzzleError:
        return False
    return True


needs_c = pytest.mark.skipif(not learning.AVAILABLE, reason="the C learning extension is not built")


@pytest.mark.long_from_source  # from source it reaches no line the pure pass's other tests miss
@needs_c
@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    symmetry=st.sampled_from([None, *SYMMETRIES]),
    minimal=st.booleans(),
)
def test_the_c_minimiser_makes_the_puzzle_the_python_loop_makes(
    seed: int, symmetry: str | None, minimal: bool
) -> None:
    """The 9x9 routine in C blanks exactly what the readable loop blanks, for any grid,
    orbit order and symmetry: same answers, so the same puzzles for a seed."""
    rng = random.Random(seed)
    solution = random_solution(3, rng)
    order = orbits(3, symmetry)  # type: ignore[arg-type]
    rng.shuffle(order)
    fast = learning.minimised_9x9(solution.cells, order, minimal=minimal)
    assert fast == blank_orbits(solution, order, minimal=minimal).cells


@needs_c
@settings(max_examples=examples(100), deadline=None)
@given(seed=st.integers(0, 10**9), diagonal=st.booleans())
def test_the_c_completion_is_the_engines_first_solution(seed: int, diagonal: bool) -> None:
    """Where the C search gives a grid (its path met no failure), it is the one the
    depth-first engine gives first: on diagonal-box starts, as random_solution makes
    them, and on scattered consistent givens."""
    rng = random.Random(seed)
    cells = [0] * 81
    if diagonal:
        for k in range(3):
            for i, value in enumerate(rng.sample(range(1, 10), 9)):
                cells[(k * 3 + i // 3) * 9 + k * 3 + i % 3] = value
    else:
        for cell in rng.sample(range(81), rng.randrange(30)):
            cells[cell] = rng.randrange(1, 10)
            if not _consistent(cells):
                cells[cell] = 0
    found = learning.completed_9x9(cells)
    first = next(depth_first(Grid(tuple(cells), 3)), None)
    assert found is None or (first is not None and found == first.cells)


@needs_c
def test_the_c_completion_refuses_conflicting_givens_and_says_none_on_a_dead_end() -> None:
    with pytest.raises(ValueError, match="share a unit"):
        learning.completed_9x9((1, 1) + (0,) * 79)
    with pytest.raises(ValueError, match="81 values"):
        learning.completed_9x9((0,) * 80)
    dead = [0] * 81
    dead[:8] = range(1, 9)
    dead[17] = 9  # the 9 of row 1 has no place: r1c9 sees it
    assert learning.completed_9x9(dead) is None
    assert next(solve(Grid(tuple(dead), 3)), None) is None


@pytest.mark.long_from_source  # from source it reaches no line the pure pass's other tests miss
@needs_c
def test_c_minimised_puzzles_are_unique_and_minimal_by_counting() -> None:
    """Checked by the depth-first engine's count, which shares no code with the C routine."""
    rng = random.Random(3)
    for _ in range(20):
        solution = random_solution(3, rng)
        order = orbits(3)
        rng.shuffle(order)
        grid = Grid(learning.minimised_9x9(solution.cells, order), 3)
        assert is_solution(grid, solution)
        assert count_solutions(grid, limit=2) == 1
        assert _minimal(grid)


@pytest.mark.long_from_source  # from source it reaches no line the pure pass's other tests miss
def test_the_stream_is_the_same_with_and_without_the_c_routines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = list(islice(generate(3, seed=21), 8))
    monkeypatch.setattr(learning, "FAST_9X9", False)
    assert list(islice(generate(3, seed=21), 8)) == made


@needs_c
def test_the_c_minimiser_refuses_what_is_not_a_grid_and_its_orbits() -> None:
    full = random_solution(3, random.Random(1)).cells
    singles = [(cell,) for cell in range(81)]
    with pytest.raises(ValueError, match="not a valid 9x9 grid"):
        learning.minimised_9x9((full[1], full[0], *full[2:]), singles)
    with pytest.raises(ValueError, match="81 values"):
        learning.minimised_9x9(full[:80], singles)
    with pytest.raises(ValueError, match=r"outside 1\.\.9"):
        learning.minimised_9x9((0, *full[1:]), singles)
    with pytest.raises(ValueError, match="in two orbits"):
        learning.minimised_9x9(full, [(0, 1), (1,)])
    with pytest.raises(ValueError, match=r"outside 0\.\.80"):
        learning.minimised_9x9(full, [(81,)])
    with pytest.raises(TypeError):
        learning.minimised_9x9(full, [3])  # type: ignore[list-item]
    assert learning.minimised_9x9(full, []) == full  # no orbit: nothing blanked


def test_cli_generate_lines_json_and_errors() -> None:
    runner = CliRunner()
    lines = runner.invoke(app, ["sudoku", "generate", "-n", "3", "--seed", "7"])
    assert lines.exit_code == 0, lines.output
    made = lines.stdout.split()
    assert made == [str(g) for g in islice(generate(3, seed=7), 3)]
    records = runner.invoke(
        app, ["sudoku", "generate", "-n", "2", "--seed", "7", "--format", "json", "--size", "4"]
    )
    assert records.exit_code == 0, records.output
    first = json.loads(records.stdout.splitlines()[0])
    assert first["size"] == 4 and first["seed"] == 7 and first["index"] == 0
    assert count_solutions(parse(first["puzzle"]), limit=2) == 1
    assert first["givens"] == parse(first["puzzle"]).givens
    for args, message in [
        (["--size", "36"], "Invalid value for '--size'"),
        (["--size", "25", "--level", "easy"], "levels are for 4x4 to 16x16"),
        (["-n", "0"], "--number must be at least 1"),
        (["--symmetry", "spiral"], "Invalid value for '--symmetry'"),
        (["--format", "grid"], "Invalid value for '--format'"),
    ]:
        refused = runner.invoke(app, ["sudoku", "generate", *args])
        assert refused.exit_code == 2
        assert message in refused.stderr


def test_cli_generate_on_workers_makes_the_same_puzzles() -> None:
    runner = CliRunner()
    args = ["sudoku", "generate", "-n", "3", "--seed", "7", "--scheduler", "sync"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stdout.split() == [str(g) for g in islice(generate(3, seed=7), 3)]


@pytest.mark.long_from_source  # from source it reaches no line the pure pass's other tests miss
def test_cli_generate_on_two_processes_exits_cleanly() -> None:
    """The run ends by itself: four puzzles, status 0, no traceback from the pool's shutdown."""
    args = ["-m", "lazyfun", "sudoku", "generate", "-n", "4", "-j", "2", "--seed", "3"]
    run = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    assert run.stdout.split() == [str(g) for g in islice(generate(3, seed=3), 4)]


@pytest.mark.untraced
def test_puzzles_of_a_level_by_filtering() -> None:
    from lazyfun.sudoku.steps.rating import rate

    for level in ("hard", "expert"):
        made = list(islice(generate(3, seed=1, level=level), 2))
        assert all(rate(g).level == level for g in made)
    with pytest.raises(PuzzleError, match="no expert puzzle in 1,000 tries"):
        next(generate(2, seed=1, level="expert"))
    with pytest.raises(PuzzleError, match="unknown level"):
        generate(3, level="insane")  # type: ignore[call-overload]


@pytest.mark.untraced
def test_cli_generate_by_level_and_json_ratings() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["sudoku", "generate", "-n", "2", "--seed", "1", "--level", "hard"])
    assert result.exit_code == 0, result.output
    assert result.stdout.split() == [str(g) for g in islice(generate(3, seed=1, level="hard"), 2)]
    record = json.loads(
        runner.invoke(app, ["sudoku", "generate", "--seed", "1", "--format", "json"]).stdout
    )
    assert record["rating"]["level"] == "hard" and record["rating"]["score"] == 4.2
    never = runner.invoke(app, ["sudoku", "generate", "--size", "4", "--level", "expert"])
    assert never.exit_code == 2 and "no expert puzzle in 1,000 tries" in never.stderr


@pytest.mark.skipif(not learning.AVAILABLE, reason="the C learning engine is not built")
def test_25x25_puzzles_come_from_the_learning_search_unique_and_reproducible() -> None:
    first = next(generate(5, seed=1, minimal=False))
    assert first.size == 25
    assert count_solutions(first, limit=2) == 1
    assert first == next(generate(5, seed=1, minimal=False))
    out = CliRunner().invoke(
        app, ["sudoku", "generate", "--size", "25", "--not-minimal", "-n", "1", "--seed", "1"]
    )
    assert out.exit_code == 0, out.output
    assert out.stdout.split() == [str(first)]


# --- puzzles made to a rating ----------------------------------------------------------------


@pytest.mark.long_from_source
@pytest.mark.parametrize(
    ("wanted", "symmetry"), [((3.0, 4.4), None), ((2.4, 2.8), "rot180"), ((5.0, 6.5), None)]
)
def test_puzzles_to_a_rating_are_unique_minimal_and_rated_inside(
    wanted: tuple[float, float], symmetry: str | None
) -> None:
    from lazyfun.sudoku.steps.rating import rate

    shape = cast("Symmetry | None", symmetry)
    made = list(islice(generate(3, seed=5, rating=wanted, symmetry=shape), 2))
    assert len({g.cells for g in made}) == 2
    for grid in made:
        assert count_solutions(grid, limit=2) == 1
        assert _minimal(grid, symmetry)
        if symmetry is not None:
            assert _symmetric(grid, symmetry)
        rating = rate(grid)
        assert not rating.floor and wanted[0] <= rating.score <= wanted[1]


@pytest.mark.long_from_source  # the chains' readable Python: the C engine is off
def test_a_rating_stream_is_lazy_and_yields_each_puzzle_as_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from lazyfun.sudoku.steps.rating import Rating, rate
    from lazyfun.trace import Meter

    rated: list[Grid] = []

    def counting(grid: Grid) -> Rating:
        rated.append(grid)
        return rate(grid)

    monkeypatch.setattr("lazyfun.sudoku.making.climbing.rate", counting)
    meter = Meter("rated")
    stream = generate(3, seed=2, rating=(3.0, 4.4), meter=meter)
    assert rated == [] and meter.done == 0  # nothing is made before it is asked for
    first = next(stream)
    assert rated[-1] == first  # yielded the moment it was rated: no second one looked for
    assert meter.done == len(rated)
    assert next(stream) != first and meter.done == len(rated)
    same = generate(3, seed=2, rating=(3.0, 4.4))
    assert next(same) == first  # a seed gives the same stream


def test_ratings_the_ladder_cannot_certify_are_refused_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from lazyfun.sudoku.making import climbing

    top = climbing.ceiling()
    refusals: list[tuple[dict[str, object], str]] = [
        ({"rating": (top - 0.5, top + 0.5)}, f"certifies ratings up to {top:g}"),
        ({"rating": (5.0, 4.0)}, "is empty"),
        ({"rating": ("a", 4.0)}, "two numbers"),
        ({"rating": (1.0, float("inf"))}, "finite"),
        ({"rating": (2.4, 2.4)}, "no technique of the ladder is rated 2.4-2.4"),
        ({"rating": (3.0, 4.0), "box": 2}, "no minimal 4x4 puzzle rates above 1.2"),
        ({"rating": (3.0, 4.0), "box": 4}, "ratings are for 4x4 and 9x9"),
        ({"rating": (3.0, 4.0), "box": 5}, "ratings are for 4x4 and 9x9"),
        ({"rating": (3.0, 4.0), "variant": "x"}, "a variant (x) has no rating"),
        ({"rating": (3.0, 4.0), "level": "hard"}, "not both"),
        ({"rating": (3.0, 4.0), "minimal": False}, "are minimal"),
    ]
    for asked, reason in refusals:
        with pytest.raises(PuzzleError, match=re.escape(reason)):
            generate(**asked)  # type: ignore[call-overload]  # refused before any puzzle is made
    # the ceiling is read from the ladder: lower its top and 5.0-5.4 is refused
    monkeypatch.setattr(importlib.import_module("lazyfun.sudoku.steps.rating"), "TOP", 5.2)
    with pytest.raises(PuzzleError, match=r"up to 5\.2"):
        generate(3, rating=(5.0, 5.4))


def test_a_range_between_the_chains_base_ratings_is_not_refused() -> None:
    """A chain is rated by its length (6.5 plus 0.1 steps), so 6.7-6.9 is a rating the
    ladder gives, though no technique's base rating lies there."""
    from lazyfun.sudoku.making import climbing

    assert climbing.check_range(3, (6.7, 6.9)) == (6.7, 6.9)


def test_every_minimal_4x4_puzzle_is_one_of_the_listed_classes() -> None:
    from lazyfun.sudoku.canon import minlex
    from lazyfun.sudoku.making.climbing import MINIMAL_4X4, reach
    from lazyfun.sudoku.steps.rating import rate

    listed = set(MINIMAL_4X4)
    assert all(str(minlex(g)) in listed for g in islice(generate(2, seed=4), 60))
    assert reach(2) == max(rate(parse(text)).score for text in MINIMAL_4X4)
    made = list(islice(generate(2, seed=4, rating=(1.0, 1.2)), 2))
    assert all(count_solutions(g, limit=2) == 1 and _minimal(g) for g in made)


@pytest.mark.long_from_source  # the chains' readable Python: the C engine is off
def test_cli_generate_to_a_rating_and_bad_ranges() -> None:
    runner = CliRunner()
    args = ["sudoku", "generate", "--rating", "3.0-4.4", "-n", "2", "--seed", "2"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stdout.split() == [
        str(g) for g in islice(generate(3, seed=2, rating=(3.0, 4.4)), 2)
    ]
    record = json.loads(runner.invoke(app, [*args, "--format", "json"]).stdout.splitlines()[0])
    assert 3.0 <= record["rating"]["score"] <= 4.4
    for bad, message in [
        ("4.0-3.0", "the low end is above the high end"),
        ("hard", "--rating takes LOW-HIGH"),
        ("3..4", "--rating takes LOW-HIGH"),
        ("10.2-10.9", "the ladder certifies ratings up to"),
    ]:
        refused = runner.invoke(app, ["sudoku", "generate", "--rating", bad])
        assert refused.exit_code == 2, bad
        assert refused.stdout == "" and len(refused.stderr.splitlines()) == 1
        assert message in refused.stderr and "Traceback" not in refused.stderr
    clash = runner.invoke(app, ["sudoku", "generate", "--rating", "3-4", "--level", "hard"])
    assert clash.exit_code == 2 and "drop --variant, --level" in clash.stderr


def test_one_puzzle_per_climb_comes_from_different_solutions() -> None:
    from lazyfun.sudoku.making.climbing import made_to_rating

    made = list(islice(made_to_rating(3, (2.0, 3.0), seed=3, per_climb=1), 3))
    assert len({next(solve(g)).cells for g in made}) == 3
    with pytest.raises(PuzzleError, match="per_climb must be at least 1"):
        made_to_rating(3, (2.0, 3.0), per_climb=0)
