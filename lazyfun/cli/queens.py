"""``lazyfun queens``: placements streamed one per line, or counted.

A search that runs longer than a second shows a status line on stderr
(work done, rate, elapsed time, and what would finish sooner); a count that
would run for hours is refused at once with the estimate, unless forced.
"""

from __future__ import annotations

from itertools import islice
from pathlib import Path
from typing import Annotated, Literal

import typer

from lazyfun.cli.options import JobsOpt, SchedulerOpt, SvgOpt, choice, flag, value
from lazyfun.cli.output import Status, exit_protocol, write_document
from lazyfun.parallel import ParallelError
from lazyfun.queens import (
    MOST_CONSTRAINED_LIMIT,
    QueensError,
    Strategy,
    count_queens,
    queens,
)
from lazyfun.queens.board import board_size
from lazyfun.queens.count import estimate_nodes
from lazyfun.queens.svg import boards_svg
from lazyfun.runs import count_queens_parallel
from lazyfun.trace import Meter

StrategyName = Literal["lexicographic", "most-constrained", "lex", "mrv"]
STRATEGY_NAMES: dict[StrategyName, Strategy] = {
    "lexicographic": "lexicographic",
    "most-constrained": "most-constrained",
    "lex": "lexicographic",
    "mrv": "most-constrained",
}
# A count is refused when Knuth's estimate of its tree, at about this many
# nodes a second on one core, says it would run longer than COUNT_BUDGET.
NODES_PER_SECOND = 4e6
COUNT_BUDGET = 3600.0
# From this size on, the lexicographic order can wander for hours before its
# first placement; the status line then points to the other strategy.
WANDERS_FROM = 30


def _board(placement: tuple[int, ...], rows: int) -> str:
    """Rows of the board, top row first: ``Q`` for a queen, ``.`` for an empty square."""
    return "\n".join(" ".join("Q" if r == row else "." for r in placement) for row in range(rows))


def _check_count(rows: int, cols: int | None, workers: int) -> None:
    """Refuse a count whose estimated time is beyond ``COUNT_BUDGET``."""
    nodes = estimate_nodes(rows, cols, probes=300)
    seconds = nodes / NODES_PER_SECOND / workers
    if seconds > COUNT_BUDGET:
        raise QueensError(
            f"counting would walk about {nodes:.1e} partial placements "
            f"(some {seconds / 3600:,.0f} hours here, by Knuth's estimate); --force to try"
        )


def _count(
    rows: int, cols: int | None, force: bool, jobs: int | None, scheduler: str | None
) -> None:
    parallel = jobs is not None or scheduler is not None
    if not force:
        _check_count(rows, cols, jobs or 1)
    if parallel:
        typer.echo(count_queens_parallel(rows, cols, scheduler=scheduler, jobs=jobs))
        return
    meter = Meter("first-column branches")
    with Status(meter) as status:
        status.emit(str(count_queens(rows, cols, meter)))


def _stream(
    rows: int, cols: int | None, limit: int | None, strategy: StrategyName, show: bool
) -> None:
    name = STRATEGY_NAMES[strategy]
    if limit is not None and limit < 0:
        raise QueensError(f"--limit must be >= 0, got {limit}")
    height, width = board_size(rows, cols)
    hint = ""
    if name == "lexicographic" and width >= WANDERS_FROM:
        hint = (
            "the lexicographic order can search for hours on boards this big; "
            "--strategy mrv finds a first placement at once"
            if width <= MOST_CONSTRAINED_LIMIT
            else "no search here finishes soon on a board this big"
        )
    meter = Meter("queens placed" if name == "lexicographic" else "nodes")
    stream = queens(height, width, strategy=name, meter=meter)
    with Status(meter, hint=hint) as status:
        for placement in islice(stream, limit):
            status.emit(_board(placement, height) + "\n" if show else " ".join(map(str, placement)))


DRAWN_AT_MOST = 60  # boards in one picture


def _draw(
    rows: int, cols: int | None, limit: int | None, strategy: StrategyName, svg: Path
) -> None:
    height, width = board_size(rows, cols)
    wanted = 1 if limit is None else limit
    if not 1 <= wanted <= DRAWN_AT_MOST:
        raise QueensError(f"--svg draws 1 to {DRAWN_AT_MOST} placements, got --limit {wanted}")
    placements = list(islice(queens(height, width, strategy=STRATEGY_NAMES[strategy]), wanted))
    if not placements:
        raise QueensError(f"a {height} x {width} board has no placement to draw")
    title = f"{len(placements)} placements of {width} queens on {height} rows"
    write_document(boards_svg(placements, height, title=title), svg, "the picture")


def queens_command(
    rows: Annotated[
        int, typer.Argument(help="Rows of the board (and columns, unless COLS).", metavar="ROWS")
    ],
    cols: Annotated[
        int | None, typer.Argument(help="Columns: one queen in each.", metavar="COLS")
    ] = None,
    limit: Annotated[
        int | None,
        value("--limit", "--first", "-n", metavar="K", help="Stop after K placements."),
    ] = None,
    count: Annotated[
        bool, flag("--count", help="Print how many placements there are, not them.")
    ] = False,
    strategy: Annotated[
        StrategyName,
        choice("--strategy", choices=StrategyName, help="Search order (lex, mrv: short names)."),
    ] = "lexicographic",
    board: Annotated[bool, flag("--show", "--board", help="Draw each placement.")] = False,
    force: Annotated[
        bool, flag("--force", help="Count even when the estimate says it takes hours.")
    ] = False,
    jobs: JobsOpt = None,
    scheduler: SchedulerOpt = None,
    svg: SvgOpt = None,
) -> None:
    """Stream placements of non-attacking queens, one per column: each line the queens' rows.

    With --svg FILE, the placements (--limit K of them, at most 60) are drawn as a
    strip of boards instead.
    """
    with exit_protocol(QueensError, ParallelError):
        if svg is not None:
            _draw(rows, cols, limit, strategy, svg)
            return
        if count:
            _count(rows, cols, force, jobs, scheduler)
            return
        if jobs is not None or scheduler is not None:
            raise QueensError("--jobs and --scheduler go with --count")
        _stream(rows, cols, limit, strategy, board)
