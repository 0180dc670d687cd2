"""A progress bar for a long stream: counted on a terminal, silent off one.

``Stream.progress(description, total)`` comes here, and ``AsyncStream.progress``
(:func:`aprogress`, the same bar over an async iterator).  On a terminal (standard
error is a TTY) the items are counted on a rich progress bar, which stops when
the stream ends or is closed; anywhere else (a pipe, a file, CI) the items pass
through untouched and rich is never imported.

>>> list(progress(iter("ab"), "letters", None))  # not a terminal here: untouched
['a', 'b']
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterator
from typing import Any, TextIO, TypeVar

from lazyfun.streams.asteps import Step, aclose

__all__ = ["AsyncBar", "Bar", "Status", "aprogress", "progress"]

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
            self.bar, self.task = _started(self.description, self.total, self.out)
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


def _started(description: str | None, total: int | None, out: TextIO) -> tuple[Any, Any]:
    """A rich bar drawn on ``out``, and its task."""
    from rich.console import Console
    from rich.progress import Progress

    bar = Progress(console=Console(file=out), transient=False)
    bar.start()
    return bar, bar.add_task(description or "items", total=total)


class Status:
    """One line of text redrawn in place on a terminal ``out`` (a long search's nodes and
    bound, say), for work that is not a stream of items; stopped, the last text stays."""

    def __init__(self, out: TextIO) -> None:
        from rich.console import Console
        from rich.live import Live

        self.live = Live(console=Console(file=out), transient=False)
        self.live.start()

    def update(self, text: str) -> None:
        """Show ``text`` (rich markup) in place of the line before."""
        self.live.update(text)

    def stop(self, text: str) -> None:
        """Show ``text`` last, and leave it on the screen."""
        self.live.update(text)
        self.live.stop()


class AsyncBar(Step):
    """The items of an async iterator, each advancing the bar (as :class:`Bar`)."""

    def __init__(
        self, source: AsyncIterator[Any], description: str | None, total: int | None, out: TextIO
    ) -> None:
        self.source, self.description, self.total, self.out = source, description, total, out
        self.bar: Any = None
        self.task: Any = None

    async def __anext__(self) -> Any:
        if self.bar is None:
            self.bar, self.task = _started(self.description, self.total, self.out)
        try:
            item = await anext(self.source)
        except StopAsyncIteration:
            self.bar.stop()
            raise
        self.bar.advance(self.task)
        return item

    async def aclose(self) -> None:
        """Stop the bar (it stays on the screen with its final count)."""
        if self.bar is not None:
            self.bar.stop()
        await aclose(self.source)


def aprogress(
    items: AsyncIterator[Any],
    description: str | None,
    total: int | None,
    out: TextIO | None = None,
) -> AsyncIterator[Any]:
    """``items`` counted on a bar when ``out`` (standard error) is a terminal, else as is.

    >>> import asyncio
    >>> from lazyfun.streams.asteps import FromSync
    >>> async def read():
    ...     return [x async for x in aprogress(FromSync("ab"), "letters", None)]
    >>> asyncio.run(read())  # not a terminal here: untouched
    ['a', 'b']
    """
    if total is not None and total < 0:
        raise ValueError(f"progress's total must be at least 0, got {total}")
    stream = out or sys.stderr
    if not stream.isatty():
        return items
    return AsyncBar(items, description, total, stream)
