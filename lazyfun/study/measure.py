"""How the studies measure a run: its time, its peak memory, and the charts they draw."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from lazyfun.trace import Probe

__all__ = ["human_bytes", "log_charts", "peak_bytes", "timed"]


def timed(run: Callable[[], object]) -> float:
    """Seconds one call of ``run`` takes."""
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def peak_bytes(run: Callable[[], object]) -> int:
    """The peak memory one call of ``run`` allocates (traced, so run it apart from timing)."""
    probe = Probe(memory=True)
    with probe:
        run()
    return probe.peak_bytes or 0


@contextmanager
def log_charts(xlabel: str, path: Path) -> Iterator[tuple[Any, Any]]:
    """Two log-scale panels, time and peak memory, drawn in the block and saved to ``path``.

    Needs matplotlib (the ``plot`` extra); without it, a ``RuntimeError`` says so.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as missing:
        raise RuntimeError("plotting needs matplotlib: pip install 'lazyfun[plot]'") from missing
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    left.set(yscale="log", xlabel=xlabel, ylabel="seconds", title="time")
    right.set(yscale="log", xlabel=xlabel, ylabel="bytes", title="peak memory")
    try:
        yield left, right
        left.legend()
        right.legend()
        figure.tight_layout()
        figure.savefig(path, dpi=110)
    finally:
        plt.close(figure)


def human_bytes(n: int) -> str:
    """``1536 -> '1.5 KiB'``."""
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    raise AssertionError("unreachable")
