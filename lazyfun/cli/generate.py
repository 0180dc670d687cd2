"""``lazyfun sudoku generate``: puzzles with one solution, printed one per line as made."""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import asdict
from functools import partial
from itertools import count, islice
from pathlib import Path
from typing import Annotated, Any, Literal, cast

from lazyfun.cli.options import (
    PER_PAGE,
    BookletOpt,
    JobsOpt,
    LineOrJson,
    Paper,
    PaperOpt,
    PerPageOpt,
    QuietOpt,
    SchedulerOpt,
    ToOpt,
    choice,
    flag,
    value,
)
from lazyfun.cli.output import Status, bar, exit_protocol, fail, write_document
from lazyfun.pages import Printed, booklet, printed
from lazyfun.parallel import ParallelError, pmap
from lazyfun.sudoku.board.formats import Target, write
from lazyfun.sudoku.board.geometry import BOX_OF_SIDE
from lazyfun.sudoku.board.grid import Grid, PuzzleError
from lazyfun.sudoku.making import generate
from lazyfun.sudoku.making.climbing import Range, check_range
from lazyfun.sudoku.making.generation import (
    Symmetry,
    check_request,
    of_level,
    puzzle,
    rated,
)
from lazyfun.sudoku.making.variant_generation import KINDS
from lazyfun.sudoku.steps.rating import Level, Rating, rate
from lazyfun.sudoku.variants.exchange import dumps, to_json
from lazyfun.trace import Meter

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


RANGE = re.compile(r"\s*(\d+(?:\.\d*)?)\s*(?:-\s*(\d+(?:\.\d*)?)\s*)?")


def rating_range(text: str) -> Range:
    """``7.0-8.5`` as (7.0, 8.5), and ``5.4`` as (5.4, 5.4); anything else is refused in
    one line (the caller's exit protocol prints it).

    >>> rating_range("7.0-8.5"), rating_range(" 5.4 ")
    ((7.0, 8.5), (5.4, 5.4))
    """
    match = RANGE.fullmatch(text)
    if match is None:
        raise PuzzleError(f"--rating takes LOW-HIGH (as 7.0-8.5) or one score, not {text!r}")
    lo = float(match[1])
    hi = float(match[2]) if match[2] is not None else lo
    if lo > hi:
        raise PuzzleError(f"--rating {text}: the low end is above the high end")
    return lo, hi


class Tries(Meter):
    """The puzzles rated on the way to a range, and how many of those asked for were found."""

    def __init__(self, wanted: int) -> None:
        super().__init__("puzzles tried")
        self.wanted, self.found = wanted, 0

    def describe(self) -> str:
        return f"{super().describe()}, {self.found} of {self.wanted} found"


def _to_rating(
    wanted: Range,
    options: tuple[int, int, Symmetry | None, int],
    output: tuple[LineOrJson, Target | None],
    book: Path | None,
) -> list[Printed]:
    """Print ``number`` puzzles rated inside ``wanted`` as each is found, a status line on
    stderr counting the puzzles tried; the puzzles kept for a booklet."""
    box, seed, symmetry, number = options
    meter = Tries(number)
    kept: list[Printed] = []
    with exit_protocol(PuzzleError):
        made = generate(box, seed=seed, symmetry=symmetry, rating=wanted, meter=meter)
        with Status(meter) as status:
            for index, grid in enumerate(islice(made, number)):
                meter.found += 1
                rated_as = rate(grid) if output[0] == "json" or book is not None else None
                status.emit(_line(grid, rated_as, output[0], seed, index, output[1]))
                if book is not None:
                    kept.append(printed(grid, rated_as))
    return kept


def _rating_command(
    text: str,
    clash: bool,
    options: tuple[int, int | None, Symmetry | None, int],
    output: tuple[LineOrJson, Target | None],
    pages: tuple[Path | None, int, Paper],
) -> None:
    """``generate --rating``: check the request, then print the puzzles as they are found."""
    if clash:
        raise fail(
            "--rating climbs to minimal classic puzzles in one process: drop --variant,"
            " --level, --jobs, --scheduler and --not-minimal"
        )
    book, per_page, paper = pages
    if per_page not in PER_PAGE:
        raise fail(f"--per-page must be 1, 2, 4 or 6, got {per_page}")
    box, seed, symmetry, number = options
    with exit_protocol(PuzzleError):
        wanted = check_range(box, rating_range(text), symmetry)
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    kept = _to_rating(wanted, (box, seed, symmetry, number), output, book)
    if book is not None:
        title = f"Sudoku rated {wanted[0]:g}-{wanted[1]:g} (seed {seed})"
        page = booklet(kept, per_page=per_page, paper=paper, title=title)
        write_document(page, book, "the booklet")


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
    wanted_rating: Annotated[
        str | None,
        value(
            "--rating",
            metavar="LOW-HIGH",
            help="Only puzzles whose Sudoku Explainer rating lies in the range (as 7.0-8.5),"
            " found by climbing a clue at a time.",
        ),
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
    With --rating LOW-HIGH each is rated inside the range; a status line counts the tries.
    """
    if number < 1:
        raise fail(f"--number must be at least 1, got {number}")
    if wanted_rating is not None:
        clash = bool(variant or level or jobs or scheduler or not minimal)
        _rating_command(
            wanted_rating,
            clash,
            (BOX_OF_SIDE[int(size)], seed, symmetry, number),
            (output, to),
            (book, per_page, paper),
        )
        return
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
