"""lazyfun.sudoku: the grid, its solutions, the human steps, the rating and the generator."""

from __future__ import annotations

from collections.abc import Iterator
from typing import assert_type

from lazyfun.sudoku import (
    Grid,
    MarkedGrid,
    Rating,
    Step,
    count_solutions,
    equivalent,
    generate,
    hint,
    is_unique,
    minlex,
    parse,
    rate,
    read,
    solve,
    steps,
    write,
)
from lazyfun.sudoku.variants import Variant

puzzle = parse("." * 81)
assert_type(puzzle, Grid)
assert_type(solve(puzzle), Iterator[Grid])
assert_type(next(solve(puzzle)), Grid)
assert_type(count_solutions(puzzle), int)
assert_type(is_unique(puzzle), bool)
# a line of text is the grid parse reads from it
line = "." * 81
assert_type(solve(line), Iterator[Grid])
assert_type(next(solve(line)), Grid)
assert_type(count_solutions(line, limit=2), int)
assert_type(is_unique(line), bool)
assert_type(hint(puzzle), Step | None)
assert_type(steps(puzzle), Iterator[Step])
assert_type(rate(puzzle), Rating)
assert_type(minlex(puzzle), Grid)
assert_type(equivalent(puzzle, minlex(puzzle)), bool)
assert_type(generate(seed=1), Iterator[Grid])
assert_type(write(puzzle, "sdk"), str)
assert_type(read("." * 81), Grid | MarkedGrid | Variant)
