"""A progress bar for a long stream: counted on a terminal, silent off one.

``Stream.progress(description, total)`` comes here, and ``AsyncStream.progress``
(:func:`aprogress`, the same bar over an async iterator).  On a terminal (standard
error is a TTY) the items are counted on a rich progress bar, which stops when
the stream ends or is closed, and shows the step's count (its
:class:`~lazyfun.trace.Counts`, the one ``explain(analyze=True)`` reads of the step on an
analysed stream); anywhere else (a pipe, a file, CI) the items pass
through untouched and rich is never imported.  The bar of either mode is drawn here,
over the shared base's counting steps (:mod:`lazyfun.streams.shared.watching`): a sync
stream's bar loads nothing of the async chain, and the other way round.

>>> list(progress(iter("ab"), "letters", None))  # not a terminal here: untouched
['a', 'b']
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterator
from typing import Any, TextIO, TypeVar

from lazyfun.streams.shared.watching import ACounting, Counting, Watching
from lazyfun.trace import Counts

__all__ = ["AsyncBar", "Bar", "Status", "aprogress", "progress"]

T = TypeVar("T")


class Drawing(Watching):
    """The bar's watcher: drawn at the first read, showing the items counted so far (the
    step's :class:`~lazyfun.trace.Counts`, which an analysed stream's ``explain`` reads)."""

    source: Any

    def __init__(self, source: Any, description: str | None, total: int | None, out: TextIO):
        """A bar over ``source`` (drawn at the first read), sync or async."""
        self.source = source
        self.watch(Counts())
        self.description, self.total, self.out = description, total, out
        self.bar: Any = None
        self.task: Any = None
        self.due = 0  # told of every item

    def begin(self) -> None:
        """Draw the bar."""
        self.bar, self.task = _started(self.description, self.total, self.out)

    def counted(self, error: bool) -> None:
        """Show the count (an upstream error passes through, the bar stays)."""
        if not error:
            self.bar.update(self.task, completed=self.counts.items)


class Bar(Drawing, Counting[T]):
    """The items, each advancing the bar; an upstream error passes through it."""

    def ended(self) -> None:
        """At the end, the bar stops."""
        self.close()

    def close(self) -> None:
        """Stop the bar (it stays on the screen with its final count)."""
        if self.bar is not None:
            self.bar.stop()
        close = getattr(self.source, "close", None)
        if close is not None:
            close()

    def __del__(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def progress(
    items: Iterator[T], description: str | None, total: int | None, out: TextIO | None = None
) -> Iterator[T]:
    """``items`` counted on a bar when ``out`` (standard error) is a terminal, else as is."""
    screen = _screen(total, out)
    return items if screen is None else Bar(items, description, total, screen)


def _screen(total: int | None, out: TextIO | None) -> TextIO | None:
    """Where a bar is drawn: ``out`` (standard error by default) if it is a terminal, else
    None; a negative ``total`` is refused at the call."""
    if total is not None and total < 0:
        raise ValueError(f"progress's total must be at least 0, got {total}")
    stream = out or sys.stderr
    return stream if stream.isatty() else None


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


class AsyncBar(Drawing, ACounting):
    """The items of an async iterator, each advancing the bar (as :class:`Bar`)."""

    def ended(self) -> None:
        """At the end, the bar stops."""
        self.bar.stop()

    async def aclose(self) -> None:
        """Stop the bar (it stays on the screen with its final count)."""
        if self.bar is not None:
            self.bar.stop()
        await super().aclose()


def aprogress(
    items: AsyncIterator[Any],
    description: str | None,
    total: int | None,
    out: TextIO | None = None,
) -> AsyncIterator[Any]:
    """``items`` counted on a bar when ``out`` (standard error) is a terminal, else as is.

    >>> import asyncio
    >>> from lazyfun.streams.aio.asteps import FromSync
    >>> async def read():
    ...     return [x async for x in aprogress(FromSync("ab"), "letters", None)]
    >>> asyncio.run(read())  # not a terminal here: untouched
    ['a', 'b']
    """
    screen = _screen(total, out)
    return items if screen is None else AsyncBar(items, description, total, screen)
