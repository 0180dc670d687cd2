"""How the studies measure a run: its time, its peak memory, and the charts they draw."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lazyfun.trace import Probe

if TYPE_CHECKING:  # matplotlib is the `plot` extra, imported only to draw
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "RUNS",
    "Timing",
    "charts",
    "human_bytes",
    "labelled",
    "peak_bytes",
    "runs_note",
    "save_chart",
    "seconds_cell",
    "spread_cell",
    "timed",
]

RUNS = 3  # timed calls a figure is the best of


@dataclass(frozen=True)
class Timing:
    """Seconds: the ``best`` of ``runs`` calls, and their ``spread``, the slowest less the best.

    The best is the figure: what the first call costs beside the others (a cold
    cache, the allocator growing the heap, a collection left over from the run
    before) goes into the spread, so the order in which sizes run cannot move it.
    """

    best: float
    spread: float
    runs: int


def timed(run: Callable[[], object], runs: int = RUNS) -> Timing:
    """``run`` called ``runs`` times: the best time and the spread.

    >>> t = timed(lambda: sum(range(1000)), runs=5)
    >>> t.runs, 0 < t.best <= t.best + t.spread
    (5, True)
    """
    if runs < 1:
        raise ValueError(f"runs must be at least 1, got {runs}")
    seconds = []
    for _ in range(runs):
        started = time.perf_counter()
        run()
        seconds.append(time.perf_counter() - started)
    return Timing(min(seconds), max(seconds) - min(seconds), runs)


def seconds_cell(seconds: float) -> str:
    """A time as a table cell: seconds to four places, microseconds below a millisecond
    (where four places of a second would read 0.0000).

    >>> seconds_cell(0.0513), seconds_cell(0.0000142)
    ('0.0513 s', '14 µs')
    """
    return f"{seconds:.4f} s" if seconds >= 0.001 else f"{seconds * 1e6:.0f} µs"


def runs_note(runs: int) -> str:
    """The table's note on its times.

    >>> runs_note(3)
    'time: the best of 3 runs; spread: how much slower the slowest run was.'
    """
    if runs < 2:
        return "time: one run each (--runs R for the best of R, and their spread)."
    return f"time: the best of {runs} runs; spread: how much slower the slowest run was."


def spread_cell(t: Timing) -> str:
    """The spread as a table cell: how much slower the slowest run was than the best.

    >>> spread_cell(Timing(0.004, 0.001, 3)), spread_cell(Timing(0.004, 0.0, 1))
    ('+25%', '-')
    """
    if t.runs < 2 or t.best <= 0:
        return "-"
    return f"+{100 * t.spread / t.best:.0f}%"


def peak_bytes(run: Callable[[], object]) -> int:
    """The peak memory one call of ``run`` allocates (traced, so run it apart from timing)."""
    probe = Probe(memory=True)
    with probe:
        run()
    return probe.peak_bytes or 0


def charts(xlabel: str) -> tuple[Figure, Axes, Axes]:
    """A figure of two log-scale panels, time and peak memory, against an integer ``xlabel``:
    ``(figure, left, right)``.  Nothing global: no pyplot, no backend chosen.

    Needs matplotlib (the ``plot`` extra); without it, a ``RuntimeError`` says so.
    """
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.ticker import MaxNLocator
    except ImportError as missing:
        raise RuntimeError("plotting needs matplotlib: pip install 'lazyfun[plot]'") from missing
    figure = Figure(figsize=(11, 4.2))
    FigureCanvasAgg(figure)
    left, right = figure.subplots(1, 2)
    left.set(yscale="log", xlabel=xlabel, ylabel="time, best of runs (seconds)", title="time")
    right.set(yscale="log", xlabel=xlabel, ylabel="peak memory (bytes)", title="peak memory")
    for axes in (left, right):
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    return figure, left, right


def labelled(
    axes: Axes, xs: Iterable[float], ys: Iterable[float], label: str, **style: Any
) -> None:
    """Plot a line with markers, and name it in the legend only when it has a point."""
    xs, ys = list(xs), list(ys)
    if xs:
        axes.plot(xs, ys, label=label, **{"marker": "o", **style})


def save_chart(figure: Figure, path: Path) -> None:
    """The figure with a legend on each panel that has a named line, saved to ``path``."""
    for axes in figure.axes:
        if axes.get_legend_handles_labels()[1]:
            axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def human_bytes(n: int) -> str:
    """``1536 -> '1.5 KiB'``."""
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    raise AssertionError("unreachable")
