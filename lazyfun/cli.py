"""The ``lazyfun`` command: the demo, the queens, and the laziness study.

User errors (a board that is not a board, a missing extra) print one line on
stderr and exit with status 2, never a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from lazyfun import demo as demo_module
from lazyfun.queens import STRATEGIES, QueensError, count_queens, queens
from lazyfun.study import plot_queens, study_queens, table_rows

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


def _board(placement: tuple[int, ...], rows: int) -> str:
    """Rows of the board, top row first: ``Q`` for a queen, ``.`` for an empty square."""
    return "\n".join(" ".join("Q" if r == row else "." for r in placement) for row in range(rows))


@app.command("queens")
def queens_command(
    rows: Annotated[int, typer.Argument(help="Rows of the board (and columns, unless COLS).")],
    cols: Annotated[int | None, typer.Argument(help="Columns: one queen in each.")] = None,
    limit: Annotated[
        int | None, typer.Option("--first", "-n", help="Stop after this many placements.")
    ] = None,
    count: Annotated[
        bool, typer.Option("--count", help="Print how many placements there are, not them.")
    ] = False,
    strategy: Annotated[
        str, typer.Option(help=f"Search order: {' or '.join(STRATEGIES)}.")
    ] = "lexicographic",
    board: Annotated[bool, typer.Option("--board", help="Draw each placement.")] = False,
) -> None:
    """Stream placements of non-attacking queens, one per column: each line the queens' rows."""
    try:
        if count:
            typer.echo(count_queens(rows, cols))
            return
        if strategy not in STRATEGIES:
            raise QueensError(
                f"unknown strategy {strategy!r}: choose one of {', '.join(STRATEGIES)}"
            )
        stream = queens(rows, cols, strategy=strategy)
        if limit is not None and limit < 0:
            raise QueensError(f"--first must be >= 0, got {limit}")
        for shown, placement in enumerate(stream):
            if limit is not None and shown >= limit:
                break
            typer.echo(_board(placement, rows) + "\n" if board else " ".join(map(str, placement)))
    except QueensError as error:
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


def main() -> None:
    """Console-script entry point."""
    app()
