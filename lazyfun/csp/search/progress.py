"""Showing a long search as it goes: ``model.solutions(progress=True)``.

What is shown is what the stream keeps (:class:`~lazyfun.csp.search.solver.Solutions`'s
``nodes``, ``best`` and ``bound``) and the time so far, at most a few times a
second.  On a terminal it is one status line redrawn in place
(:class:`lazyfun.streams.progress.Status`, the one place the core draws); anywhere
else (a pipe, a log, CI) a plain line at most once a second, so a log shows a long
search is alive without filling up.  A last line says how the search ended.

>>> import io
>>> out = io.StringIO()
>>> shown = SearchProgress(out, every=0.0)
>>> shown.update(1_000, 57, 48)
>>> shown.close("optimal")
>>> print(out.getvalue(), end="")
search: 1,000 nodes, best 57, bound 48
search: 1,000 nodes, best 57, bound 48 (optimal)
"""

from __future__ import annotations

import time
from typing import TextIO

from lazyfun.streams.progress import Status

__all__ = ["SearchProgress"]


class SearchProgress:
    """A search's nodes, best goal value and bound, shown on ``out``."""

    def __init__(self, out: TextIO, every: float | None = None) -> None:
        self.out = out
        self.terminal = out.isatty()
        self.every = every if every is not None else (0.1 if self.terminal else 1.0)
        self.last = time.perf_counter() - self.every
        self.started = time.perf_counter()
        self.line = ""
        self.status: Status | None = None

    def due(self) -> bool:
        """Whether it is time to show the search again."""
        return time.perf_counter() - self.last >= self.every

    def update(self, nodes: int, best: int | None, bound: int | None) -> None:
        """Show the search now."""
        self.last = time.perf_counter()
        self.line = _line(nodes, best, bound)
        if self.terminal:
            if self.status is None:
                self.status = Status(self.out)
            elapsed = self.last - self.started
            self.status.update(f"{self.line}  [dim]{elapsed:.1f} s[/dim]")
        else:
            print(self.line, file=self.out, flush=True)

    def close(self, ending: str) -> None:
        """The last line: how the search ended (``optimal``, ``all found``, a limit)."""
        if self.status is not None:
            self.status.stop(f"{self.line} ({ending})")
            self.status = None
        elif self.line:
            print(f"{self.line} ({ending})", file=self.out, flush=True)


def _line(nodes: int, best: int | None, bound: int | None) -> str:
    parts = [f"search: {nodes:,} nodes"]
    if best is not None:
        parts.append(f"best {best}")
    if bound is not None:
        parts.append(f"bound {bound}")
    return ", ".join(parts)
