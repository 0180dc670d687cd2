"""``lazyfun sudoku generate``: puzzles with one solution, printed one per line as made."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import asdict
from functools import partial
from itertools import count, islice
from typing import Annotated, Any, cast

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)

from lazyfun.cli.output import fail, silence_stdout
from lazyfun.cli.sudoku import JobsOpt, QuietOpt, SchedulerOpt
from lazyfun.parallel import ParallelError, pmap
from lazyfun.sudoku.generate import SYMMETRIES, of_level, puzzle, rated
from lazyfun.sudoku.grid import Grid, PuzzleError
from lazyfun.sudoku.rate import LEVEL_NAMES, Level, Rating

BOXES = {4: 2, 9: 3, 16: 4, 25: 5}


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


def _check(size: int, number: int, symmetry: str | None, output: str, level: str | None) -> None:
    if size not in BOXES:
        raise fail(f"--size must be 4, 9, 16 or 25, got {size}")
    if number < 1:
        raise fail(f"--number must be at least 1, got {number}")
    if size == 25 and level is not None:
        raise fail("--level is for sizes 4 to 16: filtering 25x25 puzzles could run for hours")
    if symmetry is not None and symmetry not in SYMMETRIES:
        raise fail(f"unknown --symmetry {symmetry!r}: choose {', '.join(SYMMETRIES)}")
    if output not in ("line", "json"):
        raise fail(f"unknown --format {output!r}: choose line, json")
    if level is not None and level not in LEVEL_NAMES:
        raise fail(f"unknown --level {level!r}: choose {', '.join(LEVEL_NAMES)}")


def _progress(quiet: bool, number: int) -> tuple[Progress | None, TaskID | None]:
    """A bar on stderr when it is a terminal (and not --quiet)."""
    if quiet or not sys.stderr.isatty():
        return None, None
    progress = Progress(
        TextColumn("generating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
        redirect_stdout=False,
        redirect_stderr=False,
    )
    progress.start()
    return progress, progress.add_task("puzzles", total=number)


def generate_command(
    number: Annotated[int, typer.Option("--number", "-n", help="How many puzzles.")] = 1,
    seed: Annotated[
        int | None, typer.Option(help="Make the same puzzles on every run (default: random).")
    ] = None,
    symmetry: Annotated[
        str | None, typer.Option(help=f"Symmetric givens: {', '.join(SYMMETRIES)}.")
    ] = None,
    size: Annotated[
        int, typer.Option(help="Grid side: 4, 9, 16 or 25 (a minimal 25x25: about 30 s).")
    ] = 9,
    minimal: Annotated[
        bool,
        typer.Option(
            "--minimal/--not-minimal", help="No given can go (default), or stop blanking early."
        ),
    ] = True,
    level: Annotated[
        str | None, typer.Option(help=f"Only puzzles of this level: {', '.join(LEVEL_NAMES)}.")
    ] = None,
    output: Annotated[
        str, typer.Option("--format", help="Output: line or json (JSON Lines, with the rating).")
    ] = "line",
    quiet: QuietOpt = False,
    jobs: JobsOpt = None,
    scheduler: SchedulerOpt = None,
) -> None:
    """Puzzles with exactly one solution, each printed as soon as it is made.

    With --seed the same puzzles come out on every run, with or without --jobs.
    """
    _check(size, number, symmetry, output, level)
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    options = {"symmetry": symmetry, "minimal": minimal}
    made = _puzzles(
        BOXES[size],
        seed,
        options,
        cast(Level | None, level),
        output == "json",
        (jobs, scheduler),
    )
    progress, task = _progress(quiet, number)
    try:
        for index, (grid, rating) in enumerate(islice(made, number)):
            sys.stdout.write(_line(grid, rating, output, seed, index) + "\n")
            sys.stdout.flush()
            if progress is not None and task is not None:
                progress.advance(task)
    except (ParallelError, PuzzleError) as error:
        raise fail(str(error)) from None
    except BrokenPipeError:
        silence_stdout()
    except KeyboardInterrupt:
        raise typer.Exit(130) from None
    finally:
        if progress is not None:
            progress.stop()
