"""``lazyfun study``: eager against lazy, measured, row by row, then a chart.

Each row is printed as soon as it is measured: on a terminal in a live table
(rich) with a line saying what is being measured and since when; in a pipe as
plain lines, flushed one by one (and that line on stderr when it is a
terminal).  The chart is drawn once every row is in.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Annotated, TypeVar

import typer

from lazyfun.cli.options import PlotOpt, SvgOpt, value
from lazyfun.cli.output import exit_protocol, fail, write_document
from lazyfun.queens import QueensError
from lazyfun.study import (
    evaluation_table_rows,
    plot_evaluation,
    plot_queens,
    plot_sudoku,
    study_evaluation,
    study_queens,
    study_sudoku,
    sudoku_table_rows,
    table_rows,
)
from lazyfun.study.evaluation import FIB_LARGEST_NAIVE, evaluation_notes
from lazyfun.study.learning import (
    DEFAULT_MODELS,
    LEARNING_HEADINGS,
    LEARNING_MODELS,
    LEARNING_TITLE,
    learning_notes,
    learning_table_rows,
    study_learning,
)
from lazyfun.study.measure import RUNS
from lazyfun.study.queens import LARGEST_BOARD, queens_notes
from lazyfun.study.sudoku import LARGEST_BLANKS, sudoku_notes
from lazyfun.study.tree import queens_tree, sudoku_tree, tree_summary, tree_svg
from lazyfun.sudoku import PuzzleError, parse

M = TypeVar("M")
Tell = Callable[[str], None]
SmallestBlanks = Annotated[int, value("--from", metavar="N", help="Fewest blank cells.")]
LargestBlanks = Annotated[
    int,
    value("--to", metavar="N", help=f"Most blank cells (9^n candidates; <= {LARGEST_BLANKS})."),
]
RunsOpt = Annotated[
    int,
    value("--runs", metavar="R", help=f"Timed runs per row, the best kept (default {RUNS})."),
]
# text columns, aligned left
LEFT = ("version", "strategy", "program", "model", "learning", "found")
# plain lines: each column as wide as its heading, and these as wide as their widest cells
WIDE = {"n": 2, "version": 13, "strategy": 12, "time": 17, "spread": 6, "peak memory": 11}
WIDE |= {"model": 13, "nodes": 7, "nogoods": 7, "found": 13}


def _runs(runs: int) -> int:
    if not 1 <= runs <= 100:
        raise fail(f"--runs must be between 1 and 100, got {runs}")
    return runs


def _doing(what: str) -> str:
    """The progress line: what is being measured, since when (a clock time: the line is
    redrawn only when a row starts, since a thread redrawing it would allocate while the
    peak memory is traced, and tracing counts every thread)."""
    return f"measuring {what}... (since {time.strftime('%H:%M:%S')})"


def _live(
    title: str,
    headings: Sequence[str],
    study: Callable[[Tell], Iterator[M]],
    cells: Callable[[M], tuple[str, ...]],
) -> list[M]:
    """The rows in a live table on the terminal, a progress line under it while one runs."""
    from rich import box
    from rich.console import Console, Group
    from rich.live import Live
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title, box=box.SIMPLE)
    for heading in headings:
        table.add_column(heading, justify="left" if heading in LEFT else "right", no_wrap=True)
    doing = Text("", style="dim")
    measured: list[M] = []
    with Live(Group(table, doing), console=Console(), auto_refresh=False) as live:

        def tell(what: str) -> None:
            doing.plain = _doing(what)
            live.refresh()

        for m in study(tell):
            measured.append(m)
            table.add_row(*cells(m))
            live.refresh()
        live.update(table, refresh=True)
    return measured


def _lines(
    title: str,
    headings: Sequence[str],
    study: Callable[[Tell], Iterator[M]],
    cells: Callable[[M], tuple[str, ...]],
) -> list[M]:
    """The rows as plain lines, each written and flushed as it is measured; the progress
    line on stderr when that is a terminal."""
    widths = [max(len(h), WIDE.get(h, 0)) for h in headings]

    def line(row: Sequence[str]) -> str:
        return "  ".join(
            c.ljust(w) if h in LEFT else c.rjust(w)
            for h, c, w in zip(headings, row, widths, strict=True)
        ).rstrip()

    def emit(text: str) -> None:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    def tell(what: str) -> None:
        if sys.stderr.isatty():
            sys.stderr.write(f"\r{_doing(what)}\x1b[K")
            sys.stderr.flush()

    emit(title)
    emit(line(headings))
    measured: list[M] = []
    try:
        for m in study(tell):
            measured.append(m)
            emit(line(cells(m)))
    finally:
        if sys.stderr.isatty():
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
    return measured


def _measure(
    title: str,
    headings: Sequence[str],
    study: Callable[[Tell], Iterator[M]],
    cells: Callable[[list[M]], Iterator[tuple[str, ...]]],
    notes: Callable[[list[M]], list[str]],
) -> list[M]:
    """Measure, printing each row as it comes; then the notes on what the rows hold."""

    def row(m: M) -> tuple[str, ...]:
        return next(cells([m]))

    show = _live if sys.stdout.isatty() else _lines
    measured = show(title, headings, study, row)
    typer.echo("\n".join(notes(measured)))
    return measured


def _plot(draw: Callable[[], None], plot: Path) -> None:
    try:
        draw()
    except RuntimeError as error:
        raise fail(str(error)) from None
    typer.echo(f"chart written to {plot}")


def queens_command(
    smallest: Annotated[int, value("--from", metavar="N", help="Smallest board.")] = 4,
    largest: Annotated[
        int, value("--to", metavar="N", help=f"Largest board (at most {LARGEST_BOARD}).")
    ] = 9,
    run_limit: Annotated[
        int,
        value("--run-limit", metavar="N", help="Largest board the comprehension really runs on."),
    ] = 7,
    plot: PlotOpt = None,
    runs: RunsOpt = RUNS,
) -> None:
    """Eager comprehension, eager flatmap and the lazy stream on n x n boards, measured.

    Each row is printed when it is measured; the chart (--plot) is drawn at the end.
    """
    runs = _runs(runs)
    if not 1 <= smallest <= largest <= LARGEST_BOARD:
        raise fail(f"need 1 <= --from <= --to <= {LARGEST_BOARD}, got {smallest} and {largest}")
    if not 1 <= run_limit <= 9:
        raise fail(f"--run-limit must be between 1 and 9 (n = 9 takes minutes), got {run_limit}")
    sizes = range(smallest, largest + 1)
    measured = _measure(
        "N queens: eager comprehension, eager flatmap, lazy",
        ("n", "version", "time", "spread", "peak memory", "placements built", "found"),
        lambda tell: study_queens(sizes, run_limit=run_limit, runs=runs, progress=tell),
        table_rows,
        queens_notes,
    )
    if plot is not None:
        _plot(lambda: plot_queens(measured, plot), plot)


def sudoku_command(
    smallest: SmallestBlanks = 1,
    largest: LargestBlanks = 5,
    plot: PlotOpt = None,
    runs: RunsOpt = RUNS,
) -> None:
    """Bird's specification eager, lazy, and lazy after pruning, on grids with n blanks.

    Each row is printed when it is measured; the chart (--plot) is drawn at the end.
    """
    runs = _runs(runs)
    if not 1 <= smallest <= largest <= LARGEST_BLANKS:
        raise fail(f"need 1 <= --from <= --to <= {LARGEST_BLANKS}, got {smallest} and {largest}")
    blanks = range(smallest, largest + 1)
    measured = _measure(
        "Sudoku: filter valid . expand, eager and lazy",
        ("blanks", "version", "time", "spread", "peak memory", "candidates", "found"),
        lambda tell: study_sudoku(blanks, runs=runs, progress=tell),
        sudoku_table_rows,
        sudoku_notes,
    )
    if plot is not None:
        _plot(lambda: plot_sudoku(measured, plot), plot)


def evaluation_command(
    smallest: SmallestBlanks = 1,
    largest: LargestBlanks = 5,
    fib: Annotated[
        list[int] | None,
        value(
            "--fib",
            metavar="K",
            help=f"Fibonacci indices to compare (<= {FIB_LARGEST_NAIVE}; repeatable).",
        ),
    ] = None,
    plot: PlotOpt = None,
    runs: RunsOpt = RUNS,
) -> None:
    """Strict lists, call-by-name generators and call-by-need LazyList, side by side.

    Each row is printed when it is measured; the chart (--plot) is drawn at the end.
    """
    runs = _runs(runs)
    if not 1 <= smallest <= largest <= LARGEST_BLANKS:
        raise fail(f"need 1 <= --from <= --to <= {LARGEST_BLANKS}, got {smallest} and {largest}")
    indices = fib if fib is not None else [10, 16, 22]
    if any(not 0 <= k <= FIB_LARGEST_NAIVE for k in indices):
        raise fail(f"--fib indices must be between 0 and {FIB_LARGEST_NAIVE}, got {indices}")
    blanks = range(smallest, largest + 1)
    measured = _measure(
        "Three evaluation strategies: filter valid . expand, and fibs",
        ("program", "size", "strategy", "time", "spread", "peak memory", "work"),
        lambda tell: study_evaluation(blanks, indices, runs=runs, progress=tell),
        evaluation_table_rows,
        evaluation_notes,
    )
    if plot is not None:
        _plot(lambda: plot_evaluation(measured, plot), plot)


def learning_command(
    models: Annotated[
        list[str] | None,
        value(
            "--model",
            metavar="NAME",
            help=f"A model to search ({', '.join(LEARNING_MODELS)}; repeatable).",
        ),
    ] = None,
    runs: RunsOpt = RUNS,
) -> None:
    """One model searched with nogoods (learning from each restart) and without.

    Each row is printed when it is measured: the nodes, failures, nogoods and time of
    the search, and what it found (the same either way).
    """
    runs = _runs(runs)
    chosen = models or list(DEFAULT_MODELS)
    unknown = [name for name in chosen if name not in LEARNING_MODELS]
    if unknown:
        takes = ", ".join(LEARNING_MODELS)
        raise fail(f"no model {', '.join(map(repr, unknown))}: --model takes {takes}")
    _measure(
        LEARNING_TITLE,
        LEARNING_HEADINGS,
        lambda tell: study_learning(chosen, runs=runs, progress=tell),
        learning_table_rows,
        learning_notes,
    )


def tree_command(
    queens: Annotated[
        int | None, value("--queens", metavar="N", help="The N queens search tree.")
    ] = None,
    sudoku: Annotated[
        str | None,
        value("--sudoku", metavar="PUZZLE", help="The tree of Bird's expand for PUZZLE."),
    ] = None,
    solutions: Annotated[
        int, value("--solutions", metavar="K", help="Run the lazy search to K solutions.")
    ] = 1,
    svg: SvgOpt = None,
) -> None:
    """What the lazy search built to reach K solutions, inside the eager tree.

    Without --svg, a short summary: the nodes built of those the eager version
    builds, depth by depth.  With --svg FILE the tree is drawn as SVG to FILE
    ('-': stdout).
    """
    if (queens is None) == (sudoku is None):
        raise fail("give one of --queens N and --sudoku PUZZLE")
    if solutions < 1:
        raise fail(f"--solutions must be at least 1, got {solutions}")
    with exit_protocol(PuzzleError, QueensError, ValueError):
        if queens is not None:
            if not 1 <= queens <= 12:
                raise QueensError(f"--queens takes 1 to 12 here, got {queens}")
            tree = queens_tree(queens, solutions)
        else:
            tree = sudoku_tree(parse(sudoku or ""), solutions)
        if svg is None:
            typer.echo(tree_summary(tree))
            typer.echo("to draw it: --svg FILE (or --svg - for stdout)", err=True)
            return
        write_document(tree_svg(tree), svg, "the tree")
        typer.echo(
            f"{tree.title}: built {tree.built:,} of {tree.eager_nodes:,} nodes "
            f"(probe: {tree.probe_count:,} {tree.counted})",
            err=True,
        )


def report_command(
    out: Annotated[
        Path, value("--out", "-o", metavar="FILE", help="Write the page to FILE ('-': stdout).")
    ],
    largest: Annotated[
        int, value("--queens-to", metavar="N", help="Largest queens board (at most 12).")
    ] = 9,
    blanks: Annotated[
        int, value("--blanks-to", metavar="N", help=f"Most blank cells (<= {LARGEST_BLANKS}).")
    ] = 5,
    runs: RunsOpt = RUNS,
) -> None:
    """One self-contained page for a class: the queens and Sudoku studies (tables, charts
    as inline SVG), the search tree, and one pipeline explained lazy and with an eager step.

    Nothing on the page is fetched from the network: it opens offline.
    """
    runs = _runs(runs)
    if not 4 <= largest <= 12:
        raise fail(f"--queens-to must be between 4 and 12, got {largest}")
    if not 1 <= blanks <= LARGEST_BLANKS:
        raise fail(f"--blanks-to must be between 1 and {LARGEST_BLANKS}, got {blanks}")
    try:
        from lazyfun.study.report import report_page

        page = report_page(
            queens_sizes=range(4, largest + 1), blanks=range(1, blanks + 1), runs=runs
        )
    except RuntimeError as error:  # no matplotlib: the charts cannot be drawn
        raise fail(str(error)) from None
    write_document(page, out, "the study page")
