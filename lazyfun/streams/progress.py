"""A progress bar for a long stream: counted on a terminal, silent off one.

``Stream.progress(description, total)`` comes here.  On a terminal (standard
error is a TTY) the items are counted on a rich progress bar, which stops when
the stream ends or is closed; anywhere else (a pipe, a file, CI) the items pass
through untouched and rich is never imported.

>>> list(progress(iter("ab"), "letters", None))  # not a terminal here: untouched
['a', 'b']
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any, TextIO, TypeVar

__all__ = ["Bar", "progress"]

T = TypeVar("T")


class Bar(Iterator[T]):
    """The items, each advancing the bar; an upstream error passes through it."""

    def __init__(
        self, items: Iterator[T], description: str | None, total: int | None, out: TextIO
    ) -> None:
        self.items, self.description, self.total, self.out = items, description, total, out
        self.bar: Any = None
        self.task: Any = None

    def __next__(self) -> T:
        if self.bar is None:
            from rich.console import Console
            from rich.progress import Progress

            self.bar = Progress(console=Console(file=self.out), transient=False)
            self.bar.start()
            self.task = self.bar.add_task(self.description or "items", total=self.total)
        try:
            item = next(self.items)
        except StopIteration:
            self.close()
            raise
        self.bar.advance(self.task)
        return item

    def close(self) -> None:
        """Stop the bar (it stays on the screen with its final count)."""
        if self.bar is not None:
            self.bar.stop()
        close = getattr(self.items, "close", None)
        if close is not None:
            close()

    def __del__(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def progress(
    items: Iterator[T], description: str | None, total: int | None, out: TextIO | None = None
) -> Iterator[T]:
    """``items`` counted on a bar when ``out`` (standard error) is a terminal, else as is."""
    if total is not None and total < 0:
        raise ValueError(f"progress's total must be at least 0, got {total}")
    stream = out or sys.stderr
    if not stream.isatty():
        return items
    return Bar(items, description, total, stream)
