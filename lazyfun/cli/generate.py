"""``lazyfun sudoku generate``: puzzles with one solution, printed one per line as made."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import asdict
from functools import partial
from itertools import count, islice
from typing import Annotated, Any, Literal, cast

from lazyfun.cli.options import (
    JobsOpt,
    LineOrJson,
    QuietOpt,
    SchedulerOpt,
    choice,
    flag,
    value,
)
from lazyfun.cli.output import bar, exit_protocol, fail
from lazyfun.parallel import ParallelError, pmap
from lazyfun.sudoku.generation import Symmetry, check_request, of_level, puzzle, rated
from lazyfun.sudoku.geometry import BOX_OF_SIDE
from lazyfun.sudoku.grid import Grid, PuzzleError
from lazyfun.sudoku.rating import Level, Rating

Side = Literal["4", "9", "16", "25"]


def _puzzles(
    box: int,
    seed: int,
    options: dict[str, Any],
    level: Level | None,
    rating: bool,
    place: tuple[int | None, str | None],
) -> Iterator[tuple[Grid, Rating | None]]:
    """The puzzles, rated when asked for (in the workers when there are workers)."""
    jobs, scheduler = place
    make: Callable[[int], tuple[Grid, Rating | None]]
    if rating or level is not None:
        make = partial(rated, box, seed, **options)
    else:
        make = partial(_unrated, box, seed, options)
    made: Iterator[tuple[Grid, Rating | None]]
    if jobs is None and scheduler is None:
        made = map(make, count())
    else:
        made = pmap(make, count(), jobs=jobs, scheduler=scheduler, chunksize=1)
    if level is None:
        return made
    return cast(Iterator[tuple[Grid, Rating | None]], of_level(cast(Any, made), level))


def _unrated(box: int, seed: int, options: dict[str, Any], index: int) -> tuple[Grid, None]:
    return puzzle(box, seed, index, **options), None


def _line(grid: Grid, rating: Rating | None, fmt: str, seed: int, index: int) -> str:
    if fmt == "line":
        return str(grid)
    record: dict[str, object] = {
        "puzzle": str(grid),
        "givens": grid.givens,
        "size": grid.size,
        "seed": seed,
        "index": index,
    }
    if rating is not None:
        record["rating"] = asdict(rating)
    return json.dumps(record)


def generate_command(
    number: Annotated[int, value("--number", "-n", metavar="N", help="How many puzzles.")] = 1,
    seed: Annotated[
        int | None,
        value("--seed", metavar="S", help="Make the same puzzles on every run (default: random)."),
    ] = None,
    symmetry: Annotated[
        Symmetry | None, choice("--symmetry", choices=Symmetry, help="Symmetric givens.")
    ] = None,
    size: Annotated[
        Side, choice("--size", choices=Side, help="Grid side (a minimal 25x25: about 30 s).")
    ] = "9",
    minimal: Annotated[
        bool,
        flag("--minimal/--not-minimal", help="No given can go (default), or stop blanking early."),
    ] = True,
    level: Annotated[
        Level | None, choice("--level", choices=Level, help="Only puzzles of this level.")
    ] = None,
    output: Annotated[
        LineOrJson,
        choice("--format", choices=LineOrJson, help="One line each, or JSON Lines with ratings."),
    ] = "line",
    quiet: QuietOpt = False,
    jobs: JobsOpt = None,
    scheduler: SchedulerOpt = None,
) -> None:
    """Puzzles with exactly one solution, each printed as soon as it is made.

    With --seed the same puzzles come out on every run, with or without --jobs.
    """
    if number < 1:
        raise fail(f"--number must be at least 1, got {number}")
    box = BOX_OF_SIDE[int(size)]
    with exit_protocol(PuzzleError):
        check_request(box, symmetry, level)
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    options = {"symmetry": symmetry, "minimal": minimal}
    made = _puzzles(box, seed, options, level, output == "json", (jobs, scheduler))
    progress = bar("generating", number, quiet)
    try:
        with exit_protocol(ParallelError, PuzzleError):
            for index, (grid, rating) in enumerate(islice(made, number)):
                sys.stdout.write(_line(grid, rating, output, seed, index) + "\n")
                sys.stdout.flush()
                if progress is not None:
                    progress.advance()
    finally:
        if progress is not None:
            progress.stop()
