"""The loops that feed the sinks' writers batches: :func:`drain` (a Stream's terminals)
and :func:`adrain` (an AsyncStream's, the writing on one thread of its own).  The writers
are named here too, from their modules: :mod:`lazyfun.sinks.files` (:class:`Writer`,
what every writer is, and those of lines, JSON Lines and CSV), :mod:`lazyfun.sinks.parquet`
and :mod:`lazyfun.sinks.sql`.

The loops, :func:`drain` and :func:`adrain`, write what reached the sink before an
error, an interrupt (Ctrl-C) or a cancellation goes on: the batch being written, and
the records gathered for the next one.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import signal
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Protocol, TypeVar

from lazyfun.sinks.files import (
    BATCH,
    CsvWriter,
    JsonlWriter,
    LinesWriter,
    Resume,
    Writer,
    _FileWriter,
)
from lazyfun.sinks.parquet import ParquetParts, ParquetWriter, count_parts, parts_of
from lazyfun.sinks.resume import Marks, Resumable, durable
from lazyfun.sinks.sql import SqlWriter

__all__ = [
    "BATCH",
    "AsyncBatches",
    "Batches",
    "CsvWriter",
    "JsonlWriter",
    "LinesWriter",
    "ParquetParts",
    "ParquetWriter",
    "Resume",
    "SqlWriter",
    "Writer",
    "_FileWriter",
    "adrain",
    "adrain_resumable",
    "count_parts",
    "drain",
    "parts_of",
]

T = TypeVar("T")


class Batches(Protocol):
    """Lists of records, and the records gathered for the next list so far (handed over
    by ``leftover`` when an interrupt or an error stops the reading)."""

    def __iter__(self) -> Iterator[list[Any]]: ...

    def __next__(self) -> list[Any]: ...

    def leftover(self) -> list[Any]: ...


class AsyncBatches(Protocol):
    """:class:`Batches` read with ``async for``."""

    def __aiter__(self) -> AsyncIterator[list[Any]]: ...

    async def __anext__(self) -> list[Any]: ...

    def leftover(self) -> list[Any]: ...


def _close_failed(
    writer: Writer, leftover: list[Any], stop: BaseException, before: Future[None] | None = None
) -> None:
    """Close ``writer`` after ``stop``, first writing ``leftover`` (the records that had
    reached the sink) unless the batch written ``before`` failed.  What cannot be written
    is said on ``stop``, which goes on."""
    try:
        failed = before.exception() if before is not None else None
        if failed is not None and failed is not stop:
            stop.add_note(f"the sink's last batch failed too: {failed!r}")
        elif leftover:
            writer.write(leftover)
    except Exception as late:
        stop.add_note(f"{len(leftover)} records held by the sink were not all written: {late!r}")
    finally:
        writer.close(failed=True)


def _held(batches: Batches | AsyncBatches, stop: BaseException, from_source: bool) -> list[Any]:
    """The records ``batches`` gathered and not yet handed over, to be written after
    ``stop``: after an error of the source or an interrupt (Ctrl-C, a cancellation,
    whatever the sink was doing), not after the writer's own error."""
    return batches.leftover() if from_source or not isinstance(stop, Exception) else []


def drain(writer: Writer, batches: Batches) -> int:
    """Write every batch, then close the writer; how many records were written.  When the
    batches (or the writer) raise, what came before is written and kept (unless the
    writer is atomic), the writer is closed, and the error propagates; an interrupt
    (``KeyboardInterrupt``, ``SystemExit``) first writes the records gathered for the
    next batch too: what reached the sink is written."""
    from_source = True
    records: list[Any] = []
    before = 0
    try:
        for records in batches:
            from_source, before = False, writer.written
            with _interrupts_after():
                writer.write(records)
            from_source = True
    except BaseException as stop:
        leftover = _held(batches, stop, from_source)
        if not from_source and not isinstance(stop, Exception):  # interrupted in the write:
            leftover = records[writer.written - before :] + leftover  # its rest too
        _close_failed(writer, leftover, stop)
        raise
    writer.close(failed=False)
    return writer.written


@contextlib.contextmanager
def _interrupts_after() -> Iterator[None]:
    """Ctrl-C (SIGINT) that comes while a batch is written is handled once it is written
    and counted, so the batch is neither cut nor written twice (in the main thread, where
    Python handles signals; elsewhere there is nothing to hold)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous):  # ignored, or the default of a process that set it so
        yield
        return
    came: list[tuple[int, Any]] = []
    signal.signal(signal.SIGINT, lambda number, frame: came.append((number, frame)))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        for number, frame in came[:1]:
            previous(number, frame)


async def adrain(open_writer: Callable[[], Writer], batches: AsyncBatches) -> int:
    """:func:`drain` for an AsyncStream: the writer is made, fed and closed on one thread
    of its own, never in the event loop; the next batch is gathered while the last
    one is written.  A cancellation (a timeout, a task cancelled) writes what reached
    the sink, the batch being written and the records gathered for the next, before it
    goes on; a second cancellation does not cut that short.  ``batches`` is closed at
    the end."""
    with ThreadPoolExecutor(1, thread_name_prefix="lazyfun-sink") as thread:
        try:
            writer = await _opened(thread, open_writer)
            pending: Future[None] | None = None
            from_source = True
            taken: list[Any] = []  # a batch taken from the source while the last is written
            try:
                async for records in batches:
                    taken = records
                    if pending is not None:
                        from_source = False
                        await _waited(pending)
                        from_source = True
                    pending, taken = thread.submit(writer.write, records), []
                if pending is not None:
                    from_source = False
                    await _waited(pending)
            except BaseException as stop:
                leftover = _held(batches, stop, from_source)
                if not isinstance(stop, Exception):  # cancelled while the last was written
                    leftover = taken + leftover
                # on the writer's thread, after the batch in hand: the executor's exit
                # waits for it even if this wait is cancelled again
                await _waited(thread.submit(_close_failed, writer, leftover, stop, pending))
                raise
            await _on(thread, functools.partial(writer.close, False))
            return writer.written
        finally:
            await _aclosed(batches)


async def adrain_resumable(
    open_writer: Callable[[], Resumable],
    items: AsyncIterator[Any],
    position: Callable[[], int],
    marks: Marks,
) -> int:
    """:func:`~lazyfun.sinks.resume.drain_resumable` for an AsyncStream: the writer made,
    fed, made durable and closed on one thread of its own, never in the event loop.  An
    error, an interrupt or a cancellation first makes what reached the sink durable with
    its position (the batch being made durable finishes first; a second cancellation
    does not cut that short).  ``items`` is closed at the end."""
    with ThreadPoolExecutor(1, thread_name_prefix="lazyfun-sink") as thread:
        try:
            writer = await _opened(thread, open_writer)
            try:
                gathered: list[Any] = []
                mark = position()
                while True:
                    try:
                        item = await anext(items)
                    except StopAsyncIteration:
                        mark = position()  # what was caught or filtered after the last
                        break
                    except BaseException:
                        await _on(thread, functools.partial(durable, writer, gathered, mark, marks))
                        raise
                    gathered.append(item)
                    mark = position()
                    if len(gathered) >= writer.batch:
                        batch, gathered = gathered, []
                        await _on(thread, functools.partial(durable, writer, batch, mark, marks))
                await _on(thread, functools.partial(durable, writer, gathered, mark, marks, True))
            except BaseException:
                await _on(thread, functools.partial(writer.close, True))
                raise
            await _on(thread, functools.partial(writer.close, False))
            return writer.written
        finally:
            await _aclosed(items)


async def _aclosed(items: object) -> None:
    """Close an async iterator that has ``aclose``."""
    close = getattr(items, "aclose", None)
    if close is not None:
        await close()


async def _opened(thread: ThreadPoolExecutor, open_writer: Callable[[], T]) -> T:
    """The writer ``open_writer`` opens on the sink's ``thread``; cancelled while it
    opens, what it opens is closed (as failed) once it is open."""
    opening = thread.submit(open_writer)
    try:
        return await _waited(opening)
    except BaseException:
        opening.add_done_callback(_close_opened)
        raise


def _close_opened(opening: Future[Any]) -> None:
    """Close, as failed, the writer an abandoned open made."""
    if not opening.cancelled() and opening.exception() is None:
        opening.result().close(failed=True)


def _on(thread: ThreadPoolExecutor, call: Callable[[], T]) -> Awaitable[T]:
    return _waited(thread.submit(call))


async def _waited(future: Future[T]) -> T:
    """The result of ``future``, running on the sink's thread; a cancellation of the wait
    leaves the work to finish (a batch is written whole or fails on its own)."""
    return await asyncio.shield(asyncio.wrap_future(future))
