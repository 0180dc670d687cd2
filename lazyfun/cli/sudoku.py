"""``lazyfun sudoku solve|canon``: puzzles in, one result per line out, as found."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from lazyfun.cli.options import (
    PER_PAGE,
    BookletOpt,
    FileOpt,
    JobsOpt,
    LineOrJsonOpt,
    Paper,
    PaperOpt,
    PerPageOpt,
    PuzzlesArg,
    QuietOpt,
    SchedulerOpt,
    ToOpt,
    choice,
    flag,
    value,
)
from lazyfun.cli.output import Format, Report, Source, fail, readable, write_document
from lazyfun.parallel import ParallelError
from lazyfun.runs import canon_file, solve_file
from lazyfun.runs.batch import Answer, Method, Mode, Request, answer_lines
from lazyfun.sudoku.board.formats import is_link
from lazyfun.sudoku.board.grid import PuzzleError, grid_of
from lazyfun.sudoku.variants import Variant
from lazyfun.sudoku.variants.exchange import read_puzzle

if TYPE_CHECKING:
    from lazyfun.pages import Printed

Answers = Callable[[Iterable[str]], Iterable[Answer]]


def _mode(every: bool, count: bool, unique: bool, first: bool) -> Mode:
    if sum((every, count, unique, first)) > 1:
        raise fail("choose at most one of --all, --count, --unique and --first")
    if first:
        return "first"
    return "all" if every else "count" if count else "unique" if unique else "solution"


def solve_command(
    puzzles: PuzzlesArg = None,
    file: FileOpt = None,
    output: Annotated[
        Format,
        choice("--format", choices=Format, help="One line, a pretty grid, or JSON Lines."),
    ] = "line",
    every: Annotated[bool, flag("--all", help="Stream every solution.")] = False,
    limit: Annotated[
        int | None, value("--limit", metavar="K", help="At most K solutions (a cap on --count).")
    ] = None,
    count: Annotated[bool, flag("--count", help="Print how many solutions.")] = False,
    unique: Annotated[
        bool, flag("--unique", help="Print unique, multiple or none for each puzzle.")
    ] = False,
    first: Annotated[
        bool,
        flag(
            "--first", help="Print the first solution found, without checking it is the only one."
        ),
    ] = False,
    method: Annotated[Method, choice("--method", choices=Method, help="The solver.")] = "engine",
    force: Annotated[
        bool, flag("--force", help="Run Bird's naive/pruned stages even on big inputs.")
    ] = False,
    to: ToOpt = None,
    quiet: QuietOpt = False,
    jobs: JobsOpt = None,
    scheduler: SchedulerOpt = None,
    book: BookletOpt = None,
    per_page: PerPageOpt = 4,
    paper: PaperOpt = "a4",
    variant: Annotated[
        list[str] | None,
        value(
            "--variant",
            metavar="FILE_OR_LINK",
            help="A variant: a sudoku-puzzle JSON file (one or many, one per line) or an"
            " f-puzzles/SudokuPad link; repeat for more.",
        ),
    ] = None,
) -> None:
    """Solve puzzles, writing each solution as soon as it is found.

    Each solution is checked to be the only one: a puzzle with more than one
    is reported on stderr (none of them printed), and --first prints the first
    found without looking further.  In line format every puzzle gets its line
    (with --all, one per solution), in input order: one without a result (no
    solution, more than one, not a puzzle) gets '# line N: why' in its place.
    A pencil-mark grid is solved keeping to its candidates.  With --booklet FILE
    the solved puzzles are also laid out for print, rated, with their solutions.
    With --variant, each puzzle of each file or link is solved under its rules
    (and printed with them in a booklet).

    Exit status: 0 all solved, 1 some puzzle had no solution or more than one
    (unless --first; with --unique: was not unique), 2 some line was invalid,
    130 interrupted.
    """
    if limit is not None and limit < 1:
        raise fail(f"--limit must be at least 1, got {limit}")
    mode = _mode(every, count, unique, first)
    if to is not None and output == "grid":
        raise fail("--to chooses the format of each solution; --format grid is another: pick one")
    parallel = jobs is not None or scheduler is not None
    if parallel and mode == "all":
        raise fail("--all streams from one process: drop --jobs and --scheduler")
    if variant:
        if puzzles or file is not None:
            raise fail("give variants with --variant only, not as arguments or --file")
        if method != "engine" or parallel:
            raise fail("--variant solves with the engine, in one process")
        puzzles = [text for place in variant for text in variant_texts(place)]
    source = Source(puzzles, file)
    request = Request(mode, method, limit, force, variant=bool(variant))
    answers: Answers = partial(answer_lines, request=request)
    if parallel:
        answers = partial(
            solve_file,
            mode=mode,
            method=method,
            limit=limit,
            force=force,
            scheduler=scheduler,
            jobs=jobs,
        )
    if book is None:
        Report(source, output, quiet, "solved", to, limit).run(answers, ParallelError)
        return
    if mode not in ("solution", "first"):
        raise fail("--booklet prints each puzzle with its solution: drop --all, --count, --unique")
    if per_page not in PER_PAGE:
        raise fail(f"--per-page must be 1, 2, 4 or 6, got {per_page}")
    kept: list[Printed] = []
    try:
        Report(source, output, quiet, "solved", to).run(_keeping(answers, kept), ParallelError)
    finally:
        _print_booklet(kept, book, per_page, paper)


def variant_texts(place: str) -> list[str]:
    """The puzzles of one --variant value: a link, or a file of one JSON document
    (pretty or not) or of JSON Lines (each line a puzzle; ``#`` lines skipped)."""
    if is_link(place):
        return [place]
    if not os.path.exists(place):
        raise fail(f"{place}: no such file (and not an f-puzzles or SudokuPad link)")
    with readable(place).open(encoding="utf-8-sig") as f:  # a FIFO too; a BOM skipped
        text = f.read()
    try:
        return [json.dumps(json.loads(text))]
    except (json.JSONDecodeError, RecursionError):  # nested too deeply: read as lines
        return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


def _keeping(answers: Answers, kept: list[Printed]) -> Answers:
    """The answers, each solved puzzle also kept (rated when it has one solution) for print."""
    from lazyfun.pages import Printed  # the pages and the rating: for a booklet only
    from lazyfun.sudoku.steps.rating import rate

    def passing(lines: Iterable[str]) -> Iterator[Answer]:
        for a in answers(lines):
            if a.grid is not None:
                start = read_puzzle(a.text)
                try:
                    rating = rate(start)
                except PuzzleError:  # several solutions, or a variant: no rating
                    rating = None
                puzzle = start if isinstance(start, Variant) else grid_of(start)
                kept.append(Printed(puzzle, a.grid, rating))
            yield a

    return passing


def _print_booklet(kept: list[Printed], book: Path, per_page: int, paper: Paper) -> None:
    if not kept:
        typer.echo("lazyfun: no puzzle was solved: no booklet written", err=True)
        return
    from lazyfun.pages import booklet

    page = booklet(kept, per_page=per_page, paper=paper, title=f"Sudoku ({len(kept)} puzzles)")
    write_document(page, book, "the booklet")


def canon_command(
    puzzles: PuzzlesArg = None,
    file: FileOpt = None,
    output: LineOrJsonOpt = "line",
    quiet: QuietOpt = False,
    jobs: JobsOpt = None,
    scheduler: SchedulerOpt = None,
) -> None:
    """The minlex canonical form of each puzzle, one per input line, in input order.

    In line format a puzzle without one (not a puzzle, a variant) gets the line
    '# line N: why' in its place, and the same on stderr.  Exit status: 0 all
    canonicalised, 2 some line was invalid.
    """
    source = Source(puzzles, file)
    answers: Answers = partial(answer_lines, request=Request("minlex"))
    if jobs is not None or scheduler is not None:
        answers = partial(canon_file, scheduler=scheduler, jobs=jobs)
    Report(source, output, quiet, "canonicalised").run(answers, ParallelError)
