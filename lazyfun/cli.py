"""The ``lazyfun`` command: the demo, the queens, and the laziness study.

User errors (a board that is not a board, a missing extra) print one line on
stderr and exit with status 2, never a traceback.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import Annotated

import typer
from more_itertools import ilen
from rich import box
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from lazyfun import demo as demo_module
from lazyfun.parallel import (
    Answer,
    ParallelError,
    canon_file,
    count_queens_parallel,
    solve_file,
)
from lazyfun.queens import STRATEGIES, QueensError, count_queens, queens
from lazyfun.study import (
    plot_queens,
    plot_sudoku,
    study_queens,
    study_sudoku,
    sudoku_table_rows,
    table_rows,
)
from lazyfun.sudoku import Grid, PuzzleError, parse
from lazyfun.sudoku.batch import METHODS, canon_lines, read_puzzles, refusal, solver

app = typer.Typer(
    help="Lazy functional search programs: Sudoku, N queens, constraint models.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
study_app = typer.Typer(
    help="Eager against lazy, measured: time, memory, work.", no_args_is_help=True
)
app.add_typer(study_app, name="study")


def _fail(message: str) -> typer.Exit:
    typer.echo(f"lazyfun: {message}", err=True)
    return typer.Exit(2)


@app.callback()
def root() -> None:
    """Lazy functional search programs: Sudoku, N queens, constraint models."""


@app.command()
def demo() -> None:
    """The main job on built-in data, explained as it runs (a few seconds)."""
    demo_module.run(typer.echo)


STRATEGY_ALIASES = {"lex": "lexicographic", "mrv": "most-constrained"}


def _board(placement: tuple[int, ...], rows: int) -> str:
    """Rows of the board, top row first: ``Q`` for a queen, ``.`` for an empty square."""
    return "\n".join(" ".join("Q" if r == row else "." for r in placement) for row in range(rows))


@app.command("queens")
def queens_command(
    rows: Annotated[int, typer.Argument(help="Rows of the board (and columns, unless COLS).")],
    cols: Annotated[int | None, typer.Argument(help="Columns: one queen in each.")] = None,
    limit: Annotated[
        int | None,
        typer.Option("--limit", "--first", "-n", help="Stop after this many placements."),
    ] = None,
    count: Annotated[
        bool, typer.Option("--count", help="Print how many placements there are, not them.")
    ] = False,
    strategy: Annotated[
        str,
        typer.Option(help=f"Search order: {' or '.join(STRATEGIES)} (or lex, mrv)."),
    ] = "lexicographic",
    board: Annotated[bool, typer.Option("--show", "--board", help="Draw each placement.")] = False,
    jobs: JobsOpt = None,
    scheduler: SchedulerOpt = None,
) -> None:
    """Stream placements of non-attacking queens, one per column: each line the queens' rows."""
    try:
        if count and (jobs is not None or scheduler is not None):
            typer.echo(count_queens_parallel(rows, cols, scheduler=scheduler, jobs=jobs))
            return
        if count:
            typer.echo(count_queens(rows, cols))
            return
        if jobs is not None or scheduler is not None:
            raise QueensError("--jobs and --scheduler go with --count")
        strategy = STRATEGY_ALIASES.get(strategy, strategy)
        if strategy not in STRATEGIES:
            raise QueensError(
                f"unknown strategy {strategy!r}: choose one of {', '.join(STRATEGIES)}"
            )
        stream = queens(rows, cols, strategy=strategy)
        if limit is not None and limit < 0:
            raise QueensError(f"--limit must be >= 0, got {limit}")
        for shown, placement in enumerate(stream):
            if limit is not None and shown >= limit:
                break
            typer.echo(_board(placement, rows) + "\n" if board else " ".join(map(str, placement)))
    except (QueensError, ParallelError) as error:
        raise _fail(str(error)) from None


@study_app.command("queens")
def study_queens_command(
    smallest: Annotated[int, typer.Option("--from", help="Smallest board.")] = 4,
    largest: Annotated[int, typer.Option("--to", help="Largest board.")] = 9,
    run_limit: Annotated[
        int, typer.Option(help="Largest board the list comprehension really runs on.")
    ] = 7,
    plot: Annotated[
        Path | None, typer.Option(help="Also draw a log-scale chart to this PNG file.")
    ] = None,
) -> None:
    """Eager comprehension, eager flatmap and the lazy stream on n x n boards, measured."""
    if not 1 <= smallest <= largest:
        raise _fail(f"need 1 <= --from <= --to, got {smallest} and {largest}")
    table = Table(title="N queens: eager comprehension, eager flatmap, lazy", box=box.SIMPLE)
    for heading in ("n", "version", "time", "peak memory", "partials", "found"):
        table.add_column(heading, justify="left" if heading == "version" else "right", no_wrap=True)
    measured = []
    console = Console()
    with console.status("measuring...") as status:
        for m in study_queens(range(smallest, largest + 1), run_limit=run_limit):
            status.update(f"measured {m.version} on {m.n} x {m.n}")
            measured.append(m)
            table.add_row(*next(table_rows([m])))
    console.print(table)
    console.print(
        "partials: partial placements tested by the eager versions, built by the lazy one.\n"
        "(est.): work predicted exactly, time extrapolated; not run."
    )
    if plot is not None:
        try:
            plot_queens(measured, plot)
        except RuntimeError as error:
            raise _fail(str(error)) from None
        console.print(f"chart written to {plot}")


@study_app.command("sudoku")
def study_sudoku_command(
    smallest: Annotated[int, typer.Option("--from", help="Fewest blank cells.")] = 1,
    largest: Annotated[int, typer.Option("--to", help="Most blank cells (9^n candidates).")] = 5,
    plot: Annotated[
        Path | None, typer.Option(help="Also draw a log-scale chart to this PNG file.")
    ] = None,
) -> None:
    """Bird's specification eager, lazy, and lazy after pruning, on grids with n blanks."""
    if not 1 <= smallest <= largest <= 6:
        raise _fail(f"need 1 <= --from <= --to <= 6, got {smallest} and {largest}")
    table = Table(title="Sudoku: filter valid . expand, eager and lazy", box=box.SIMPLE)
    for heading in ("blanks", "version", "time", "peak memory", "candidates", "found"):
        table.add_column(heading, justify="left" if heading == "version" else "right", no_wrap=True)
    measured = []
    console = Console()
    with console.status("measuring...") as status:
        for m in study_sudoku(range(smallest, largest + 1)):
            status.update(f"measured {m.version} with {m.blanks} blanks")
            measured.append(m)
            table.add_row(*next(sudoku_table_rows([m])))
    console.print(table)
    console.print(
        "The lazy stream holds one candidate at a time; the eager list holds all of them.\n"
        "The lazy expand recomputes row products instead of storing them, so it is slower."
    )
    if plot is not None:
        try:
            plot_sudoku(measured, plot)
        except RuntimeError as error:
            raise _fail(str(error)) from None
        console.print(f"chart written to {plot}")


# --- sudoku solve | canon -------------------------------------------------------

sudoku_app = typer.Typer(
    help="Solve and canonicalise Sudoku puzzles, one per line, streaming.", no_args_is_help=True
)
app.add_typer(sudoku_app, name="sudoku")

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

EXIT_INVALID, EXIT_UNSOLVED, EXIT_INTERRUPTED = 2, 1, 130


class RateColumn(ProgressColumn):
    """Puzzles per second, once there is a rate to show."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.0f}/s" if speed else "", style="progress.data.speed")


class Batch:
    """The bookkeeping of one batch: results to stdout, problems and a summary to stderr."""

    def __init__(self, quiet: bool, total: int | None) -> None:
        self.quiet = quiet
        self.counts = {"done": 0, "unsolved": 0, "refused": 0, "invalid": 0}
        self.start = time.perf_counter()
        self.progress: Progress | None = None
        self.task: TaskID | None = None
        if not quiet and sys.stderr.isatty():
            self.progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                RateColumn(),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=True,
                # results go to the real stdout (a file or a pipe), never through the bar
                redirect_stdout=False,
                redirect_stderr=False,
            )
            self.progress.start()
            self.task = self.progress.add_task("puzzles", total=total)

    def emit(self, text: str) -> None:
        """Write one result and flush it, so a pipe downstream sees it at once."""
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    def warn(self, text: str) -> None:
        """One line on stderr, above the progress bar when there is one."""
        if self.progress is not None:
            self.progress.console.print(text, markup=False, highlight=False)
        else:
            typer.echo(text, err=True)

    def advance(self, kind: str) -> None:
        self.counts[kind] += 1
        if self.progress is not None and self.task is not None:
            self.progress.advance(self.task)

    def finish(self, verb: str, interrupted: bool = False) -> int:
        """Stop the bar, print the summary line, and return the exit status."""
        if self.progress is not None:
            self.progress.stop()
        c = self.counts
        if not self.quiet:
            parts = [f"{c['done']} {verb}"] + [
                f"{c[kind]} {label}"
                for kind, label in (
                    ("unsolved", "without solution"),
                    ("refused", "refused"),
                    ("invalid", "invalid"),
                )
                if c[kind]
            ]
            typer.echo(
                f"lazyfun: {', '.join(parts)} in {time.perf_counter() - self.start:.2f} s"
                + (" (interrupted)" if interrupted else ""),
                err=True,
            )
        if interrupted:
            return EXIT_INTERRUPTED
        if c["invalid"] or c["refused"]:
            return EXIT_INVALID
        return EXIT_UNSOLVED if c["unsolved"] else 0


def _input_lines(puzzles: list[str] | None, file: str | None) -> tuple[Iterable[str], int | None]:
    """The lines to read and, when cheap to know, how many there are."""
    if file is not None and puzzles:
        raise _fail("give puzzles as arguments or with --file, not both")
    if file == "-" or puzzles == ["-"]:
        return sys.stdin, None
    if file is not None:
        path = Path(file)
        if not path.is_file():
            raise _fail(f"{file}: no such file")
        with path.open() as f:
            total = sum(1 for line in f if line.strip() and not line.lstrip().startswith("#"))
        return _stream_file(path), total
    if puzzles:
        return puzzles, len(puzzles)
    if not sys.stdin.isatty():
        return sys.stdin, None
    raise _fail("no puzzles: give them as arguments, with --file FILE, or '-' for stdin")


def _stream_file(path: Path) -> Iterator[str]:
    with path.open() as f:
        yield from f


def _where(error: PuzzleError, from_arguments: bool) -> str:
    """``line 17: ...`` for files, ``argument 2: ...`` for puzzles given as arguments."""
    if not from_arguments:
        return str(error)
    place = f"argument {error.line}" + (f", column {error.column}" if error.column else "")
    return f"{place}: {error.message}"


def _record(number: int, puzzle: str, ms: float, **fields: object) -> str:
    return json.dumps({"line": number, "puzzle": puzzle, **fields, "ms": round(ms, 3)})


def _run(batch: Batch, verb: str, work: Callable[[], None]) -> None:
    """Run a batch; Ctrl-C and a closed pipe end it cleanly with the right status."""
    try:
        work()
    except KeyboardInterrupt:
        sys.stdout.flush()
        raise typer.Exit(batch.finish(verb, interrupted=True)) from None
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        if batch.progress is not None:
            batch.progress.stop()
        raise typer.Exit(0) from None
    raise typer.Exit(batch.finish(verb))


def _verdict(found: int) -> str:
    """What ``--unique`` prints for a puzzle with ``found`` solutions (counted up to 2)."""
    return {0: "none", 1: "unique"}.get(found, "multiple")


def _run_parallel(batch: Batch, verb: str, answers: Iterator[Answer], output: str) -> None:
    """Write the answers of a parallel batch as the sequential commands would."""

    def work() -> None:
        for number, text, kind, value, ms in answers:
            if kind in ("invalid", "refused"):
                batch.warn(f"lazyfun: {value}")
                batch.advance(kind)
                continue
            shown = _verdict(int(str(value))) if kind == "unique" else value
            if output == "json":
                batch.emit(_record(number, text, ms, **{kind: shown}))
            elif kind == "unique":
                batch.emit(str(shown))
            elif kind == "solution" and value is not None:
                grid = parse(str(value))
                batch.emit(grid.pretty() + "\n" if output == "grid" else str(grid))
            elif value is not None:
                batch.emit(str(value))
            solved = value is not None and (kind != "unique" or value == 1)
            if not solved:
                problem = "not unique" if kind == "unique" and value else "no solution"
                batch.warn(f"lazyfun: line {number}: {problem}")
            batch.advance("done" if solved else "unsolved")

    try:
        _run(batch, verb, work)
    except ParallelError as error:
        raise _fail(str(error)) from None


@sudoku_app.command("solve")
def sudoku_solve(
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
    if output not in ("line", "grid", "json"):
        raise _fail(f"unknown --format {output!r}: choose line, grid or json")
    if method not in METHODS:
        raise _fail(f"unknown --method {method!r}: choose one of {', '.join(METHODS)}")
    if limit is not None and limit < 1:
        raise _fail(f"--limit must be at least 1, got {limit}")
    if sum((every, count, unique)) > 1:
        raise _fail("choose at most one of --all, --count and --unique")
    lines, total = _input_lines(puzzles, file)
    from_arguments = bool(puzzles) and puzzles != ["-"]
    if jobs is not None or scheduler is not None:
        if every:
            raise _fail("--all streams from one process: drop --jobs and --scheduler")
        mode = "count" if count else "unique" if unique else "solution"
        answers = solve_file(
            lines,
            mode=mode,
            method=method,
            limit=limit,
            force=force,
            scheduler=scheduler,
            jobs=jobs,
        )
        _run_parallel(Batch(quiet, total), "solved", answers, output)
        return
    stream = solver(method)
    batch = Batch(quiet, total)

    def place(number: int) -> str:
        return f"{'argument' if from_arguments else 'line'} {number}"

    def show(number: int, text: str, grid: Grid, ms: float, index: int | None = None) -> None:
        if output == "json":
            extra = {"index": index} if index is not None else {}
            batch.emit(_record(number, text, ms, solution=str(grid), **extra))
        elif output == "grid":
            batch.emit(grid.pretty() + "\n")
        else:
            batch.emit(str(grid))

    def one(number: int, text: str, grid: Grid) -> None:
        reason = None if force else refusal(method, grid)
        if reason is not None:
            batch.warn(f"lazyfun: {place(number)}: {reason}")
            batch.advance("refused")
            return
        start = time.perf_counter()
        solutions = stream(grid)
        if count or unique:
            found = ilen(islice(solutions, 2 if unique else limit))
            ms = (time.perf_counter() - start) * 1000
            verdict = _verdict(found) if unique else found
            if output == "json":
                key = "unique" if unique else "count"
                batch.emit(_record(number, text, ms, **{key: verdict}))
            else:
                batch.emit(str(verdict))
            ok = found == 1 if unique else True
            batch.advance("done" if ok else "unsolved")
            if unique and not ok:
                problem = "not unique" if found else "no solution"
                batch.warn(f"lazyfun: {place(number)}: {problem}")
            return
        shown = 0
        for shown, solution in enumerate(islice(solutions, limit if every else 1), 1):
            show(
                number,
                text,
                solution,
                (time.perf_counter() - start) * 1000,
                shown if every else None,
            )
            start = time.perf_counter()
        if shown:
            batch.advance("done")
            return
        if output == "json":
            batch.emit(_record(number, text, (time.perf_counter() - start) * 1000, solution=None))
        batch.warn(f"lazyfun: {place(number)}: no solution")
        batch.advance("unsolved")

    def work() -> None:
        for number, text, item in read_puzzles(lines):
            try:
                if isinstance(item, PuzzleError):
                    raise item
                one(number, text, item)
            except PuzzleError as error:
                batch.warn(f"lazyfun: {_where(error.at_line(number), from_arguments)}")
                batch.advance("invalid")

    _run(batch, "solved", work)


@sudoku_app.command("canon")
def sudoku_canon(
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
    if output not in ("line", "json"):
        raise _fail(f"unknown --format {output!r}: choose line or json")
    lines, total = _input_lines(puzzles, file)
    from_arguments = bool(puzzles) and puzzles != ["-"]
    if jobs is not None or scheduler is not None:
        answers = canon_file(lines, scheduler=scheduler, jobs=jobs)
        _run_parallel(Batch(quiet, total), "canonicalised", answers, output)
        return
    batch = Batch(quiet, total)

    def work() -> None:
        start = time.perf_counter()
        for number, text, item in canon_lines(lines):
            ms = (time.perf_counter() - start) * 1000
            if isinstance(item, PuzzleError):
                batch.warn(f"lazyfun: {_where(item, from_arguments)}")
                batch.advance("invalid")
            else:
                batch.emit(
                    _record(number, text, ms, minlex=str(item)) if output == "json" else str(item)
                )
                batch.advance("done")
            start = time.perf_counter()

    _run(batch, "canonicalised", work)


def main() -> None:
    """Console-script entry point."""
    app()
