"""``lazyfun study``: eager against lazy, measured, as a table and a chart."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Annotated, TypeVar

import typer
from rich import box
from rich.console import Console
from rich.table import Table

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
from lazyfun.study.evaluation import FIB_LARGEST_NAIVE
from lazyfun.study.queens import LARGEST_BOARD
from lazyfun.study.sudoku import LARGEST_BLANKS
from lazyfun.study.tree import queens_tree, sudoku_tree, tree_summary, tree_svg
from lazyfun.sudoku import PuzzleError, parse

M = TypeVar("M")
SmallestBlanks = Annotated[int, value("--from", metavar="N", help="Fewest blank cells.")]
LargestBlanks = Annotated[
    int,
    value("--to", metavar="N", help=f"Most blank cells (9^n candidates; <= {LARGEST_BLANKS})."),
]


def _measure(
    title: str,
    headings: Sequence[str],
    measurements: Iterator[M],
    cells: Callable[[list[M]], Iterator[tuple[str, ...]]],
    describe: Callable[[M], str],
) -> tuple[list[M], Console]:
    """Print the measurements in a table as they come; return them."""
    table = Table(title=title, box=box.SIMPLE)
    for heading in headings:
        table.add_column(heading, justify="left" if heading == "version" else "right", no_wrap=True)
    measured: list[M] = []
    console = Console()
    with console.status("measuring...") as status:
        for m in measurements:
            status.update(f"measured {describe(m)}")
            measured.append(m)
            table.add_row(*next(cells([m])))
    console.print(table)
    return measured, console


def _plot(draw: Callable[[], None], console: Console, plot: Path) -> None:
    try:
        draw()
    except RuntimeError as error:
        raise fail(str(error)) from None
    console.print(f"chart written to {plot}")


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
) -> None:
    """Eager comprehension, eager flatmap and the lazy stream on n x n boards, measured."""
    if not 1 <= smallest <= largest <= LARGEST_BOARD:
        raise fail(f"need 1 <= --from <= --to <= {LARGEST_BOARD}, got {smallest} and {largest}")
    if not 1 <= run_limit <= 9:
        raise fail(f"--run-limit must be between 1 and 9 (n = 9 takes minutes), got {run_limit}")
    measured, console = _measure(
        "N queens: eager comprehension, eager flatmap, lazy",
        ("n", "version", "time", "peak memory", "partials", "found"),
        study_queens(range(smallest, largest + 1), run_limit=run_limit),
        table_rows,
        lambda m: f"{m.version} on {m.n} x {m.n}",
    )
    console.print(
        "partials: partial placements tested by the eager versions, built by the lazy one.\n"
        "(est.): work predicted exactly, time extrapolated; not run."
    )
    if plot is not None:
        _plot(lambda: plot_queens(measured, plot), console, plot)


def sudoku_command(
    smallest: SmallestBlanks = 1,
    largest: LargestBlanks = 5,
    plot: PlotOpt = None,
) -> None:
    """Bird's specification eager, lazy, and lazy after pruning, on grids with n blanks."""
    if not 1 <= smallest <= largest <= LARGEST_BLANKS:
        raise fail(f"need 1 <= --from <= --to <= {LARGEST_BLANKS}, got {smallest} and {largest}")
    measured, console = _measure(
        "Sudoku: filter valid . expand, eager and lazy",
        ("blanks", "version", "time", "peak memory", "candidates", "found"),
        study_sudoku(range(smallest, largest + 1)),
        sudoku_table_rows,
        lambda m: f"{m.version} with {m.blanks} blanks",
    )
    console.print(
        "The lazy stream holds one candidate at a time; the eager list holds all of them.\n"
        "The lazy expand recomputes row products instead of storing them, so it is slower."
    )
    if plot is not None:
        _plot(lambda: plot_sudoku(measured, plot), console, plot)


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
) -> None:
    """Strict lists, call-by-name generators and call-by-need LazyList, side by side."""
    if not 1 <= smallest <= largest <= LARGEST_BLANKS:
        raise fail(f"need 1 <= --from <= --to <= {LARGEST_BLANKS}, got {smallest} and {largest}")
    indices = fib if fib is not None else [10, 16, 22]
    if any(not 0 <= k <= FIB_LARGEST_NAIVE for k in indices):
        raise fail(f"--fib indices must be between 0 and {FIB_LARGEST_NAIVE}, got {indices}")
    measured, console = _measure(
        "Three evaluation strategies: filter valid . expand, and fibs",
        ("program", "size", "strategy", "time", "peak memory", "work"),
        study_evaluation(range(smallest, largest + 1), indices),
        evaluation_table_rows,
        lambda m: f"{m.strategy} {m.program} {m.size}",
    )
    console.print(
        "work: row tuples computed (sudoku; size = blanks), generators started or cells\n"
        "computed (fibonacci; size = index).  Call-by-name recomputes what call-by-need\n"
        "computes once and shares; strict builds every candidate before filtering."
    )
    if plot is not None:
        _plot(lambda: plot_evaluation(measured, plot), console, plot)


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
