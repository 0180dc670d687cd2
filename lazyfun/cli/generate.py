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
    PER_PAGE,
    BookletOpt,
    JobsOpt,
    LineOrJson,
    PaperOpt,
    PerPageOpt,
    QuietOpt,
    SchedulerOpt,
    ToOpt,
    choice,
    flag,
    value,
)
from lazyfun.cli.output import bar, exit_protocol, fail, write_document
from lazyfun.pages import Printed, booklet, printed
from lazyfun.parallel import ParallelError, pmap
from lazyfun.sudoku.board.formats import Target, write
from lazyfun.sudoku.board.geometry import BOX_OF_SIDE
from lazyfun.sudoku.board.grid import Grid, PuzzleError
from lazyfun.sudoku.making import generate
from lazyfun.sudoku.making.generation import (
    Symmetry,
    check_request,
    of_level,
    puzzle,
    rated,
)
from lazyfun.sudoku.making.variant_generation import KINDS
from lazyfun.sudoku.steps.rating import Level, Rating
from lazyfun.sudoku.variants.exchange import dumps, to_json

Side = Literal["4", "9", "16", "25"]


def _variants(
    kind: str, box: int, number: int, seed: int | None, minimal: bool, quiet: bool
) -> None:
    """Write ``number`` variants of ``kind`` as sudoku-puzzle JSON Lines, as they are made."""
    with exit_protocol(PuzzleError):
        made = generate(box, seed=seed, minimal=minimal, variant=kind)
    progress = bar("generating", number, quiet)
    try:
        with exit_protocol(PuzzleError):
            for variant in islice(made, number):
                sys.stdout.write(dumps(to_json(variant)) + "\n")
                sys.stdout.flush()
                if progress is not None:
                    progress.advance()
    finally:
        if progress is not None:
            progress.stop()


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


def _line(
    grid: Grid, rating: Rating | None, fmt: str, seed: int, index: int, to: Target | None
) -> str:
    text = str(grid) if to is None else write(grid, to)
    if fmt == "line":
        return text + "\n" if "\n" in text else text  # a blank line after a multi-line one
    record: dict[str, object] = {
        "puzzle": text,
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
    to: ToOpt = None,
    quiet: QuietOpt = False,
    jobs: JobsOpt = None,
    scheduler: SchedulerOpt = None,
    book: BookletOpt = None,
    per_page: PerPageOpt = 4,
    paper: PaperOpt = "a4",
    variant: Annotated[
        str | None,
        choice(
            "--variant",
            choices=KINDS,
            help="A variant, written as sudoku-puzzle JSON, one per line (4x4 or 9x9).",
        ),
    ] = None,
) -> None:
    """Puzzles with exactly one solution, each printed as soon as it is made.

    With --seed the same puzzles come out on every run, with or without --jobs.
    With --booklet FILE they are also laid out for print, rated, with their solutions.
    With --variant KIND they are variants, as sudoku-puzzle JSON Lines.
    """
    if number < 1:
        raise fail(f"--number must be at least 1, got {number}")
    if variant is not None:
        if symmetry or level or to or book or jobs or scheduler or output != "line":
            raise fail(
                "--variant writes sudoku-puzzle JSON from one process: drop --symmetry,"
                " --level, --to, --format, --booklet, --jobs and --scheduler"
            )
        _variants(variant, BOX_OF_SIDE[int(size)], number, seed, minimal, quiet)
        return
    if per_page not in PER_PAGE:
        raise fail(f"--per-page must be 1, 2, 4 or 6, got {per_page}")
    box = BOX_OF_SIDE[int(size)]
    with exit_protocol(PuzzleError):
        check_request(box, symmetry, level)
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    options = {"symmetry": symmetry, "minimal": minimal}
    rating = output == "json" or book is not None
    made = _puzzles(box, seed, options, level, rating, (jobs, scheduler))
    progress = bar("generating", number, quiet)
    kept: list[Printed] = []
    try:
        with exit_protocol(ParallelError, PuzzleError):
            for index, (grid, rated_as) in enumerate(islice(made, number)):
                sys.stdout.write(_line(grid, rated_as, output, seed, index, to) + "\n")
                sys.stdout.flush()
                if book is not None:
                    kept.append(printed(grid, rated_as))
                if progress is not None:
                    progress.advance()
    finally:
        if progress is not None:
            progress.stop()
    if book is not None:
        page = booklet(kept, per_page=per_page, paper=paper, title=f"Sudoku (seed {seed})")
        write_document(page, book, "the booklet")
