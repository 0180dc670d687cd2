"""N queens, eager against lazy: the article's two eager versions and the lazy stream.

``study_queens`` runs the list-comprehension article's two eager versions and
the lazy stream on boards of growing size and reports, for each, the time
(the best of a few runs, and their spread), the peak memory, the partial
placements it built, and the placements found.  The comprehension
recomputes the smaller boards for every row, so beyond ``run_limit`` it is
not run: its work is predicted exactly by
:func:`lazyfun.eager.predicted_work` and its time extrapolated from the
largest board it did run (marked as an estimate).

>>> rows = list(study_queens(range(4, 6)))
>>> [(m.n, m.version, m.placements, m.solutions) for m in rows]  # doctest: +NORMALIZE_WHITESPACE
[(4, 'eager comprehension', 624, 2), (4, 'eager flatmap', 60, 2), (4, 'lazy', 16, 2),
 (5, 'eager comprehension', 8160, 10), (5, 'eager flatmap', 220, 10), (5, 'lazy', 53, 10)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from lazyfun.eager import Work, predicted_work, queens_comprehension, queens_flatmap
from lazyfun.queens import count_queens, queens
from lazyfun.study.measure import (
    RUNS,
    Timing,
    charts,
    human_bytes,
    labelled,
    peak_bytes,
    runs_note,
    save_chart,
    seconds_cell,
    spread_cell,
    timed,
)
from lazyfun.trace import Meter
from lazyfun.vocab import ilen

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "LARGEST_BOARD",
    "VERSIONS",
    "QueensMeasurement",
    "plot_queens",
    "queens_figure",
    "queens_notes",
    "study_queens",
    "table_rows",
]

VERSIONS = ("eager comprehension", "eager flatmap", "lazy")
# The eager flatmap keeps every placement of every smaller board as lists: at
# n = 15 that is millions of lists (gigabytes), so the study stops at 14.
LARGEST_BOARD = 14


@dataclass(frozen=True)
class QueensMeasurement:
    """One version on one n x n board.

    ``placements``: partial placements the version built (the eager versions
    build every row for every smaller placement and then test it; the lazy
    search builds only safe ones, as its meter counts).  ``seconds`` is the
    best of ``runs`` runs and ``spread`` the slowest less the best.
    ``measured`` is False for an estimate: then ``seconds`` is extrapolated
    (NaN when nothing ran to scale it from), ``peak_bytes`` is None and
    ``runs`` is 0.
    """

    n: int
    version: str
    seconds: float
    peak_bytes: int | None
    placements: int
    solutions: int
    measured: bool = True
    spread: float = 0.0
    runs: int = 1


def _comprehension(n: int) -> int:
    return len(queens_comprehension(n, n))


def _flatmap(n: int) -> int:
    return len(queens_flatmap(n, n))


def _lazy(n: int) -> int:
    return ilen(queens(n))


def _lazy_partials(n: int) -> int:
    """Partial placements the lazy search builds on an n x n board (every node, root
    excepted): its meter's count."""
    meter = Meter("queens placed")
    ilen(queens(n, meter=meter))
    return meter.done


def _estimate(n: int, largest_run: tuple[float, Work] | None) -> QueensMeasurement:
    """The comprehension on a board too big to run: exact work, time scaled from a run."""
    predicted = predicted_work("comprehension", n)
    seconds = float("nan")
    if largest_run is not None:
        base_seconds, base = largest_run
        per_unit = base_seconds / (base.calls + base.candidates)
        seconds = per_unit * (predicted.calls + predicted.candidates)
    return QueensMeasurement(
        n, VERSIONS[0], seconds, None, predicted.candidates, count_queens(n), False, 0.0, 0
    )


def _measured(
    n: int, version: str, run: Callable[[], object], placements: int, runs: int
) -> QueensMeasurement:
    t: Timing = timed(run, runs)
    return QueensMeasurement(
        n, version, t.best, peak_bytes(run), placements, count_queens(n), True, t.spread, t.runs
    )


def study_queens(
    sizes: Iterable[int] = range(4, 10),
    *,
    run_limit: int = 7,
    runs: int = RUNS,
    progress: Callable[[str], None] | None = None,
) -> Iterator[QueensMeasurement]:
    """Measure the three versions on each n x n board, lazily, one measurement at a time.

    Each version runs ``runs`` times for time (the best is kept, with the
    spread), and once more under ``tracemalloc`` for peak memory (tracing
    slows a run down, so the two are kept apart).  The eager versions' work
    is :func:`lazyfun.eager.predicted_work` (exact); the lazy version is
    ``queens(n)`` consumed by counting, so it holds one placement at a time,
    and its meter counts what it built.  ``progress`` is told what is about
    to be measured, before each measurement.  Boards larger than
    ``LARGEST_BOARD`` are refused (``ValueError``) before anything runs.
    """
    sizes = list(sizes)
    too_big = [n for n in sizes if n > LARGEST_BOARD]
    if too_big:
        raise ValueError(
            f"the eager flatmap keeps every placement of every smaller board: "
            f"boards up to {LARGEST_BOARD} only, got {too_big[0]}"
        )
    tell = progress or (lambda what: None)
    largest_run: tuple[float, Work] | None = None
    for n in sizes:
        if n <= run_limit:
            tell(f"{VERSIONS[0]} on {n} x {n}")
            work = predicted_work("comprehension", n)
            m = _measured(n, VERSIONS[0], partial(_comprehension, n), work.candidates, runs)
            largest_run = (m.seconds, work)
            yield m
        else:
            yield _estimate(n, largest_run)
        tell(f"{VERSIONS[1]} on {n} x {n}")
        work = predicted_work("flatmap", n)
        yield _measured(n, VERSIONS[1], partial(_flatmap, n), work.candidates, runs)
        tell(f"{VERSIONS[2]} on {n} x {n}")
        yield _measured(n, VERSIONS[2], partial(_lazy, n), _lazy_partials(n), runs)


def table_rows(measurements: Iterable[QueensMeasurement]) -> Iterator[tuple[str, ...]]:
    """Each measurement as printable cells: n, version, time, spread, peak, placements, found.

    The version drops its ``eager`` prefix to keep the table narrow.
    """
    for m in measurements:
        if m.measured:
            seconds = seconds_cell(m.seconds)
            spread = spread_cell(Timing(m.seconds, m.spread, m.runs))
        else:
            seconds = "not run" if m.seconds != m.seconds else f"~{_long(m.seconds)} (est.)"
            spread = "-"
        peak = human_bytes(m.peak_bytes) if m.peak_bytes is not None else "-"
        version = m.version.removeprefix("eager ")
        yield (
            str(m.n),
            version,
            seconds,
            spread,
            peak,
            f"{m.placements:,}",
            f"{m.solutions:,}",
        )


def _long(seconds: float) -> str:
    """An estimated time in the unit a reader pictures: seconds, hours, days or years.

    >>> [_long(s) for s in (38.2, 904.0, 9207.0, 243_303.0, 7.1e6, 2.1e8)]
    ['38.2 s', '904 s', '2.6 hours', '2.8 days', '82 days', '6.7 years']
    """
    if seconds < 100:
        return f"{seconds:.3g} s"
    if seconds < 3600:
        return f"{seconds:,.0f} s"
    if seconds < 86_400:
        return f"{seconds / 3600:.1f} hours"
    days = seconds / 86_400
    if days < 10:
        return f"{days:.1f} days"
    if days < 365:
        return f"{days:,.0f} days"
    return f"{days / 365.25:,.1f} years"


def queens_notes(measurements: Iterable[QueensMeasurement]) -> list[str]:
    """The table's footnotes: what its words mean, the estimate's only under a table with one."""
    data = list(measurements)
    runs = max((m.runs for m in data), default=RUNS)
    notes = [
        runs_note(runs),
        "placements built: partial placements each version made on its way; the eager\n"
        "versions make every candidate and then test it, the lazy search only safe ones.",
    ]
    if any(not m.measured and m.seconds == m.seconds for m in data):
        notes.append("(est.): the work is exact, the time scaled from the largest board run.")
    if any(not m.measured and m.seconds != m.seconds for m in data):
        notes.append("not run: the comprehension is run up to --run-limit only.")
    return notes


def queens_figure(measurements: Iterable[QueensMeasurement]) -> Figure:
    """Time and peak memory against n, log scale, one line per version (needs matplotlib).

    Estimated times are drawn dotted from the last board run; estimated memory is left
    out; a version with no point gets no line and no legend entry.
    """
    data = list(measurements)
    figure, left, right = charts("board size n (queens on n x n squares)")
    for version in VERSIONS:
        run = [m for m in data if m.version == version and m.measured]
        labelled(left, [m.n for m in run], [m.seconds for m in run], version)
        guessed = [m for m in data if m.version == version and not m.measured]
        guessed = [m for m in guessed if m.seconds == m.seconds]
        if guessed:
            joined = [*run[-1:], *guessed]
            labelled(
                left,
                [m.n for m in joined],
                [m.seconds for m in joined],
                f"{version} (est.)",
                linestyle=":",
                color="k",
                marker=".",
            )
        labelled(right, [m.n for m in run], [m.peak_bytes or 1 for m in run], version)
    return figure


def plot_queens(measurements: Iterable[QueensMeasurement], path: Path) -> None:
    """:func:`queens_figure` saved to ``path`` (needs matplotlib)."""
    save_chart(queens_figure(measurements), path)
