"""The async steps of several streams at once: ``merge``, the items of several async
iterators as they come, each read by a task of its own (:class:`Interleave`), and ``tee``,
one async source read as several branches at most a bound apart (:class:`Tee`, one
:class:`TeeBranch` a branch, over the book the sync tee keeps too,
:class:`~lazyfun.streams.shared.reading.TeeBook`).

Like every step of :mod:`lazyfun.streams.aio.aconcurrent`, a merge cancelled while read
ends the tasks it started (:class:`~lazyfun.streams.aio.aconcurrent.Ending`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from lazyfun.streams.aio.aconcurrent import Ending
from lazyfun.streams.shared.parts import Step, aclose
from lazyfun.streams.shared.reading import END, ENDED, READ, WAIT, WAKE, TeeBook, passed_on

__all__ = ["Interleave", "Tee", "TeeBranch"]


class Interleave(Ending):
    """The items of several async iterators as they come, each read by a task of its own
    into one queue of ``n`` places; an error from one arrives among them at its place,
    and that iterator is read on.  Closing cancels the readers and closes the steps."""

    def __init__(self, sources: list[AsyncIterator[Any]], n: int) -> None:
        self.sources = sources
        self.queue: asyncio.Queue[tuple[bool, Any]] = asyncio.Queue(n)
        self.tasks: list[asyncio.Task[None]] = []
        self.left = len(sources)

    async def _read(self, items: AsyncIterator[Any]) -> None:
        while True:
            try:
                entry: tuple[bool, Any] = (True, await anext(items))
            except StopAsyncIteration:
                await self.queue.put((True, END))
                return
            except Exception as error:  # at its place; the input is read on
                entry = (False, error)
            await self.queue.put(entry)

    async def _next(self) -> Any:
        if not self.tasks and self.left:
            self.tasks = [asyncio.ensure_future(self._read(s)) for s in self.sources]
        while self.left:
            value = passed_on([await self.queue.get()])  # an error raised, kept by no frame
            if value is END:
                self.left -= 1
                continue
            return value
        raise StopAsyncIteration

    async def aclose(self) -> None:
        self.left = 0
        tasks, self.tasks = self.tasks, []
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for items in self.sources:
            await aclose(items)


class Tee:
    """``n`` async branches over one source, at most ``bound`` items apart (the source's
    errors reach every branch at their place).  A branch that far ahead waits for the
    last one when another task reads it; when that branch is read by this task, or not
    yet at all, waiting would never end: a BufferError says so."""

    def __init__(self, source: AsyncIterator[Any], n: int, bound: int) -> None:
        self.source = source
        self.book = TeeBook(n, bound)
        self.turn = asyncio.Condition()

    async def next_for(self, k: int) -> Any:
        """Branch ``k``'s next item (or its error)."""
        book, me = self.book, asyncio.current_task()
        async with self.turn:
            while (move := book.move(k, me, "task")) in (READ, WAIT):
                if move is READ:
                    await self._read()
                else:
                    with contextlib.suppress(TimeoutError):  # a reader task that ends is seen
                        await asyncio.wait_for(self.turn.wait(), WAKE)
            if move is ENDED:
                raise StopAsyncIteration
            if book.freed:
                self.turn.notify_all()
            return book.hand_on()

    async def _read(self) -> None:
        try:
            self.book.kept.append((True, await anext(self.source)))
        except StopAsyncIteration:
            self.book.ended = True
        except Exception as error:  # at its place, for every branch
            self.book.kept.append((False, error))


class TeeBranch(Step):
    """One branch of a :class:`Tee`."""

    def __init__(self, tee: Tee, k: int) -> None:
        self.tee, self.k = tee, k

    async def __anext__(self) -> Any:
        return await self.tee.next_for(self.k)

    async def aclose(self) -> None:
        """A branch closes nothing: the others may still be reading the source."""
