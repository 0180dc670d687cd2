"""``lazyfun sudoku solve|canon``: puzzles in, one result per line out, as found."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Annotated, cast

import typer

from lazyfun.batch import METHODS, Answer, Mode, Request, answer_lines
from lazyfun.cli.output import Format, Report, Source, fail
from lazyfun.parallel import ParallelError, canon_file, solve_file

app = typer.Typer(
    help="Solve and canonicalise Sudoku puzzles, one per line, streaming.", no_args_is_help=True
)

PuzzlesArg = Annotated[
    list[str] | None,
    typer.Argument(help="Puzzles (one-line form); '-' reads stdin.", show_default=False),
]
FileOpt = Annotated[
    str | None,
    typer.Option("--file", "-f", help="Read puzzles from FILE, one per line ('-' for stdin)."),
]
QuietOpt = Annotated[
    bool, typer.Option("--quiet", "-q", help="No progress bar and no summary on stderr.")
]
JobsOpt = Annotated[
    int | None,
    typer.Option("--jobs", "-j", help="Run on dask with N local worker processes."),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option(
        help="Run on this dask scheduler (tcp://HOST:PORT, or sync); "
        "default: $LAZYFUN_DASK_SCHEDULER, else local workers."
    ),
]

Answers = Callable[[Iterable[str]], Iterable[Answer]]


def _format(output: str, allowed: tuple[str, ...]) -> Format:
    if output not in allowed:
        raise fail(f"unknown --format {output!r}: choose {', '.join(allowed)}")
    return cast(Format, output)


def _mode(every: bool, count: bool, unique: bool) -> Mode:
    if sum((every, count, unique)) > 1:
        raise fail("choose at most one of --all, --count and --unique")
    return "all" if every else "count" if count else "unique" if unique else "solution"


def _run(report: Report, answers: Answers) -> None:
    try:
        report.run(answers)
    except ParallelError as error:
        raise fail(str(error)) from None


@app.command("solve")
def solve(
    puzzles: PuzzlesArg = None,
    file: FileOpt = None,
    output: Annotated[
        str, typer.Option("--format", help="Output: line, grid (pretty) or json (JSON Lines).")
    ] = "line",
    every: Annotated[bool, typer.Option("--all", help="Stream every solution.")] = False,
    limit: Annotated[
        int | None, typer.Option(help="At most K solutions (or a cap on --count).")
    ] = None,
    count: Annotated[bool, typer.Option("--count", help="Print how many solutions.")] = False,
    unique: Annotated[
        bool, typer.Option("--unique", help="Check that each puzzle has exactly one solution.")
    ] = False,
    method: Annotated[str, typer.Option(help=f"Solver: {', '.join(METHODS)}.")] = "engine",
    force: Annotated[
        bool, typer.Option("--force", help="Run Bird's naive/pruned stages even on big inputs.")
    ] = False,
    quiet: QuietOpt = False,
    jobs: JobsOpt = None,
    scheduler: SchedulerOpt = None,
) -> None:
    """Solve puzzles, writing each solution as soon as it is found.

    Exit status: 0 all solved, 1 some puzzle had no solution (or was not unique
    with --unique), 2 some line was invalid, 130 interrupted.
    """
    fmt = _format(output, ("line", "grid", "json"))
    if method not in METHODS:
        raise fail(f"unknown --method {method!r}: choose one of {', '.join(METHODS)}")
    if limit is not None and limit < 1:
        raise fail(f"--limit must be at least 1, got {limit}")
    mode = _mode(every, count, unique)
    parallel = jobs is not None or scheduler is not None
    if parallel and mode == "all":
        raise fail("--all streams from one process: drop --jobs and --scheduler")
    source = Source(puzzles, file)
    request = Request(mode, method, limit, force)
    answers: Answers = partial(answer_lines, request=request)
    if parallel:
        answers = partial(
            solve_file,
            mode=mode,
            method=request.method,
            limit=limit,
            force=force,
            scheduler=scheduler,
            jobs=jobs,
        )
    _run(Report(source, fmt, quiet, "solved"), answers)


@app.command("canon")
def canon(
    puzzles: PuzzlesArg = None,
    file: FileOpt = None,
    output: Annotated[
        str, typer.Option("--format", help="Output: line or json (JSON Lines).")
    ] = "line",
    quiet: QuietOpt = False,
    jobs: JobsOpt = None,
    scheduler: SchedulerOpt = None,
) -> None:
    """The minlex canonical form of each puzzle, one per input line, in input order."""
    fmt = _format(output, ("line", "json"))
    source = Source(puzzles, file)
    answers: Answers = partial(answer_lines, request=Request("minlex"))
    if jobs is not None or scheduler is not None:
        answers = partial(canon_file, scheduler=scheduler, jobs=jobs)
    _run(Report(source, fmt, quiet, "canonicalised"), answers)
