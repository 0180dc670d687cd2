"""``lazyfun sudoku generate``: puzzles with one solution, printed one per line as made."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from functools import partial
from itertools import count, islice
from typing import Annotated, cast

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
from lazyfun.sudoku.generate import SYMMETRIES, Symmetry, puzzle
from lazyfun.sudoku.grid import Grid

BOXES = {4: 2, 9: 3, 16: 4}


def _puzzles(
    box: int,
    seed: int,
    symmetry: Symmetry | None,
    minimal: bool,
    jobs: int | None,
    scheduler: str | None,
) -> Iterator[Grid]:
    make = partial(puzzle, box, seed, symmetry=symmetry, minimal=minimal)
    if jobs is None and scheduler is None:
        return map(make, count())
    return pmap(make, count(), jobs=jobs, scheduler=scheduler, chunksize=1)


def _line(grid: Grid, fmt: str, seed: int, index: int, symmetry: str | None) -> str:
    if fmt == "line":
        return str(grid)
    record = {
        "puzzle": str(grid),
        "givens": grid.givens,
        "size": grid.size,
        "seed": seed,
        "index": index,
        "symmetry": symmetry,
    }
    return json.dumps(record)


def _check(size: int, number: int, symmetry: str | None, output: str) -> None:
    if size not in BOXES:
        raise fail(f"--size must be 4, 9 or 16, got {size}")
    if number < 1:
        raise fail(f"--number must be at least 1, got {number}")
    if symmetry is not None and symmetry not in SYMMETRIES:
        raise fail(f"unknown --symmetry {symmetry!r}: choose {', '.join(SYMMETRIES)}")
    if output not in ("line", "json"):
        raise fail(f"unknown --format {output!r}: choose line, json")


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
    size: Annotated[int, typer.Option(help="Grid side: 4, 9 or 16.")] = 9,
    minimal: Annotated[
        bool,
        typer.Option(
            "--minimal/--not-minimal", help="No given can go (default), or stop blanking early."
        ),
    ] = True,
    output: Annotated[
        str, typer.Option("--format", help="Output: line or json (JSON Lines).")
    ] = "line",
    quiet: QuietOpt = False,
    jobs: JobsOpt = None,
    scheduler: SchedulerOpt = None,
) -> None:
    """Puzzles with exactly one solution, each printed as soon as it is made.

    With --seed the same puzzles come out on every run, with or without --jobs.
    """
    _check(size, number, symmetry, output)
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    made = _puzzles(BOXES[size], seed, cast(Symmetry | None, symmetry), minimal, jobs, scheduler)
    progress, task = _progress(quiet, number)
    try:
        for index, grid in enumerate(islice(made, number)):
            sys.stdout.write(_line(grid, output, seed, index, symmetry) + "\n")
            sys.stdout.flush()
            if progress is not None and task is not None:
                progress.advance(task)
    except ParallelError as error:
        raise fail(str(error)) from None
    except BrokenPipeError:
        silence_stdout()
    except KeyboardInterrupt:
        raise typer.Exit(130) from None
    finally:
        if progress is not None:
            progress.stop()
