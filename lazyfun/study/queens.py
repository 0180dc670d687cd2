"""N queens, eager against lazy: the article's two eager versions and the lazy stream.

``study_queens`` runs the list-comprehension article's two eager versions and
the lazy stream on boards of growing size and reports, for each, the time,
the peak memory, the partial placements it built or tested, and the
placements found.  The comprehension recomputes the smaller boards for every
row, so beyond ``run_limit`` it is not run: its work is predicted exactly by
:func:`lazyfun.eager.predicted_work` and its time extrapolated from the
largest board it did run (marked as an estimate).

>>> rows = list(study_queens(range(4, 6)))
>>> [(m.n, m.version, m.placements, m.solutions) for m in rows]  # doctest: +NORMALIZE_WHITESPACE
[(4, 'eager comprehension', 624, 2), (4, 'eager flatmap', 60, 2), (4, 'lazy', 16, 2),
 (5, 'eager comprehension', 8160, 10), (5, 'eager flatmap', 220, 10), (5, 'lazy', 53, 10)]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from lazyfun.eager import Work, predicted_work, queens_comprehension, queens_flatmap
from lazyfun.queens import count_queens, queens
from lazyfun.queens.lex import Partial, expand1
from lazyfun.search import search
from lazyfun.study.measure import human_bytes, log_charts, peak_bytes, timed
from lazyfun.trace import Probe
from lazyfun.vocab import ilen

__all__ = [
    "LARGEST_BOARD",
    "VERSIONS",
    "QueensMeasurement",
    "plot_queens",
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

    ``placements``: partial placements the version built or tested (the
    eager versions test every row for every smaller placement; the lazy search
    builds only safe ones).  ``measured`` is False for an estimate: then
    ``seconds`` is extrapolated and ``peak_bytes`` is None.
    """

    n: int
    version: str
    seconds: float
    peak_bytes: int | None
    placements: int
    solutions: int
    measured: bool = True


def _comprehension(n: int, work: Work | None = None) -> int:
    return len(queens_comprehension(n, n, work))


def _flatmap(n: int, work: Work | None = None) -> int:
    return len(queens_flatmap(n, n, work))


def _lazy(n: int) -> int:
    return ilen(queens(n))


def _lazy_partials(n: int) -> int:
    """Partial placements the lazy search builds on an n x n board (every node, root excepted)."""
    probe = Probe()
    children = probe.counted("partials")(expand1(n))
    ilen(search(Partial(()), expand1=children, complete=lambda p: len(p.rows) == n))
    return probe.counts.get("partials", 0)


def _estimate(n: int, largest_run: tuple[float, Work] | None) -> QueensMeasurement:
    """The comprehension on a board too big to run: exact work, time scaled from a run."""
    predicted = predicted_work("comprehension", n)
    seconds = float("nan")
    if largest_run is not None:
        base_seconds, base = largest_run
        per_unit = base_seconds / (base.calls + base.candidates)
        seconds = per_unit * (predicted.calls + predicted.candidates)
    return QueensMeasurement(
        n, VERSIONS[0], seconds, None, predicted.candidates, count_queens(n), measured=False
    )


def study_queens(
    sizes: Iterable[int] = range(4, 10), *, run_limit: int = 7
) -> Iterator[QueensMeasurement]:
    """Measure the three versions on each n x n board, lazily, one measurement at a time.

    Each version runs twice: once for time, once under ``tracemalloc`` for
    peak memory (tracing slows a run down, so the two are kept apart).  The
    lazy version is ``queens(n)`` consumed by counting, so it holds one
    placement at a time; the eager ones return their lists.  Boards larger
    than ``LARGEST_BOARD`` are refused (``ValueError``) before anything runs.
    """
    sizes = list(sizes)
    too_big = [n for n in sizes if n > LARGEST_BOARD]
    if too_big:
        raise ValueError(
            f"the eager flatmap keeps every placement of every smaller board: "
            f"boards up to {LARGEST_BOARD} only, got {too_big[0]}"
        )
    largest_run: tuple[float, Work] | None = None
    for n in sizes:
        if n <= run_limit:
            work = Work()
            seconds = timed(partial(_comprehension, n, work))
            peak = peak_bytes(partial(_comprehension, n))
            largest_run = (seconds, work)
            yield QueensMeasurement(n, VERSIONS[0], seconds, peak, work.candidates, count_queens(n))
        else:
            yield _estimate(n, largest_run)

        work = Work()
        seconds = timed(partial(_flatmap, n, work))
        peak = peak_bytes(partial(_flatmap, n))
        yield QueensMeasurement(n, VERSIONS[1], seconds, peak, work.candidates, count_queens(n))

        seconds = timed(partial(_lazy, n))
        peak = peak_bytes(partial(_lazy, n))
        yield QueensMeasurement(n, VERSIONS[2], seconds, peak, _lazy_partials(n), count_queens(n))


def table_rows(measurements: Iterable[QueensMeasurement]) -> Iterator[tuple[str, ...]]:
    """Each measurement as printable cells: n, version, time, peak, partials, found.

    The version drops its ``eager`` prefix to keep the table narrow.
    """
    for m in measurements:
        if m.measured:
            seconds = f"{m.seconds:.4f} s"
        elif m.seconds == m.seconds:
            seconds = f"~{m.seconds:,.3g} s (est.)"
        else:
            seconds = "not run"
        peak = human_bytes(m.peak_bytes) if m.peak_bytes is not None else "-"
        version = m.version.removeprefix("eager ")
        yield (str(m.n), version, seconds, peak, f"{m.placements:,}", f"{m.solutions:,}")


def plot_queens(measurements: Iterable[QueensMeasurement], path: Path) -> None:
    """Draw time and peak memory against n, log scale, one line per version (needs matplotlib).

    Estimated times are drawn dashed; estimated memory is left out.
    """
    data = list(measurements)
    with log_charts("n (n x n board)", path) as (left, right):
        for version in VERSIONS:
            mine = [m for m in data if m.version == version]
            run = [m for m in mine if m.measured]
            left.plot([m.n for m in run], [m.seconds for m in run], marker="o", label=version)
            guessed = [m for m in mine if not m.measured and m.seconds == m.seconds]
            if guessed and run:
                joined = [run[-1], *guessed]
                left.plot([m.n for m in joined], [m.seconds for m in joined], "k:", linewidth=1)
            peaks = [m.peak_bytes or 1 for m in run]
            right.plot([m.n for m in run], peaks, marker="o", label=version)
