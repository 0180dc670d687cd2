"""The steps that call your functions: ``map``, ``filter``, ``flatmap``, ``do``,
``scan``, ``catch``, ``takewhile``, ``dropwhile``, ``unique``, declared once for both
modes.  Each checks its arguments at the call, then hands the building to the stream's
runner.  In an async stream every function may be a coroutine function (awaited); a
sync stream refuses one at the call, with the reason.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterable, Awaitable, Callable, Coroutine, Iterable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Never, TypeVar, overload

from typing_extensions import TypeIs, deprecated

from lazyfun.parallel.places import check_concurrency, check_place
from lazyfun.streams.facade.base import Base
from lazyfun.streams.modes import Async, M, Sync
from lazyfun.streams.shared.calling import Rate, is_async, retry_policy
from lazyfun.streams.shared.parts import check_count, seconds

if TYPE_CHECKING:
    from typing import TypeGuard

    from tenacity import AsyncRetrying, Retrying

    from lazyfun.parallel.places import Via
    from lazyfun.streams.stream import Stream

__all__ = ["Steps"]

T = TypeVar("T")
U = TypeVar("U")
V = TypeVar("V")
E = TypeVar("E", bound=BaseException)


class Steps(Base[T, M]):
    """The function steps of the façade."""

    __slots__ = ()

    def _checked(self, f: object, what: str, plain: bool = False) -> None:
        """Refuse at the call a function that is not one, or a coroutine function given
        to a sync stream (it would give coroutines, never awaited) or, with ``plain``,
        to a step that calls it where the items are held (a verb's key, in either mode)."""
        if not callable(f):
            raise TypeError(f"{what} needs a function, got {type(f).__name__}")
        if (plain or not self._run.is_async) and inspect.iscoroutinefunction(f):
            why = (
                "a verb's key is a plain function (it is called where the items are held)"
                if plain
                else "a Stream is synchronous; use lazyfun.astream(...) (or .to_async()) "
                "to await it"
            )
            raise TypeError(
                f"{what} was given a coroutine function ({getattr(f, '__name__', f)!r}): {why}"
            )

    def _placed(
        self,
        what: str,
        via: object,
        chunksize: int | None,
        concurrency: int | None = None,
        ahead: int | None = None,
    ) -> None:
        """Refuse ``via=`` and ``chunksize=`` on an async stream, whose concurrent calls
        are tasks (a plain function's on threads): there is no pool to place or size;
        and an ``ahead`` that is not a count of at least ``concurrency``, or given to a
        step that runs one call at a time."""
        if self._is_async and (via is not None or chunksize is not None):
            raise ValueError(
                f"{what}: via= and chunksize= place a sync stream's calls on threads, "
                "processes or dask; an async stream's calls are tasks (use .pmap for workers)"
            )
        if chunksize is not None:
            check_count(chunksize, f"{what}'s chunksize", 1)
            if concurrency is None and via is None:
                raise ValueError(
                    f"{what}: chunksize sizes the tasks of concurrency= or via=; give one"
                )
        if concurrency is not None:
            if self._is_async:
                check_count(concurrency, f"{what}'s concurrency", 1)
            else:
                check_concurrency(concurrency, what)
        if ahead is None:
            return
        check_count(ahead, f"{what}'s ahead", 1)
        if concurrency is None and via is None:
            raise ValueError(
                f"{what}: ahead= bounds the read-ahead of concurrency= or via=; give one"
            )
        if concurrency is not None and ahead < concurrency:
            raise ValueError(
                f"{what}: ahead={ahead} is below concurrency={concurrency}: "
                "the calls could never all run at once"
            )

    def _policed(
        self,
        what: str,
        f: Callable[..., Any],
        via: Via,
        retry: object,
        rate: object = None,
        timeout: float | timedelta | None = None,
    ) -> None:
        """Refuse at the call a ``timeout`` that is not a positive time, a ``rate`` that
        is not a :class:`~lazyfun.streams.shared.calling.Rate` (or one given a pool
        it cannot meter), a ``retry`` that is not a count or a tenacity policy of the
        function's kind, and a function ``via`` cannot send to its workers."""
        if timeout is not None:
            seconds(timeout, "map's timeout")
        if rate is not None:
            if not isinstance(rate, Rate):
                raise TypeError(f"map's rate must be a lazyfun Rate, got {type(rate).__name__}")
            if via not in (None, "thread") and not isinstance(via, ThreadPoolExecutor):
                raise ValueError("map's rate meters calls on this process's threads: leave via out")
        retry_policy(retry, coroutine=is_async(f))
        if via is not None:
            check_place(f, via, what)

    @overload
    def map(
        self: Steps[T, Async],
        f: Callable[[T], Awaitable[U]],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        ahead: int | None = None,
        via: Via = None,
        chunksize: int | None = None,
        retry: int | Retrying | AsyncRetrying | None = None,
        rate: Rate | None = None,
        timeout: float | timedelta | None = None,
    ) -> Stream[U, Async]: ...

    @overload
    @deprecated("a Stream is synchronous: a coroutine function is refused; use astream(...)")
    def map(
        self: Steps[T, Sync],
        f: Callable[[T], Coroutine[Any, Any, Any]],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        ahead: int | None = None,
        via: Via = None,
        chunksize: int | None = None,
        retry: int | Retrying | None = None,
        rate: Rate | None = None,
        timeout: float | timedelta | None = None,
    ) -> Stream[Never]: ...

    @overload
    def map(
        self,
        f: Callable[[T], U],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        ahead: int | None = None,
        via: Via = None,
        chunksize: int | None = None,
        retry: int | Retrying | AsyncRetrying | None = None,
        rate: Rate | None = None,
        timeout: float | timedelta | None = None,
    ) -> Stream[U, M]: ...

    def map(
        self,
        f: Callable[[T], Any],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        ahead: int | None = None,
        via: Via = None,
        chunksize: int | None = None,
        retry: int | Retrying | AsyncRetrying | None = None,
        rate: Rate | None = None,
        timeout: float | timedelta | None = None,
    ) -> Stream[Any, Any]:
        """``map f``: ``f`` applied to each item as it is pulled.

        With ``concurrency=n`` (or a ``via``), at most n calls of ``f`` run at once
        on threads (``via``: see :mod:`lazyfun.parallel.places`), results in input
        order or, with ``ordered=False``, as they complete.  ``retry`` is a count of
        attempts or a tenacity ``Retrying``, applied to each call, in the worker.
        ``rate`` (a :class:`~lazyfun.streams.sync.threaded.Rate`) meters the calls, every
        attempt of a retry included, on this process's threads.  ``timeout`` (seconds)
        ends a call that runs longer with a TimeoutError at its item (catchable; a retry
        tries again): the call is left to finish on a daemon thread, its result dropped
        (in a worker process or on dask, on a thread of the worker's).  The items go out
        in tasks whose size adapts (cheap items in batches, slow ones one a task);
        ``chunksize=k`` fixes it at k items a task (as ``filter``, ``flatmap`` and
        ``do`` take it too).  It reads at most ``concurrency + 1`` tasks ahead of you
        (the calls running or done, and one more read), in order or not; in order, while
        the head's call is unfinished, the other places go on past that, their results
        held, up to ``max(1024, 64 * concurrency)`` items read and not handed on
        (:func:`~lazyfun.parallel.window.grown`): 1% of the calls a hundred times slower
        cost about what they do with ``ahead=4096``.  Once the head is done it reads again only
        below ``concurrency + 1`` tasks.  ``ahead=k`` (at least ``concurrency``) makes
        it a fixed ``k`` tasks, for a bound of your own.

        In an async stream ``f`` may be a coroutine function (awaited; a retry then takes
        a count or a tenacity ``AsyncRetrying``), and ``concurrency=n`` runs at most n
        calls at once as tasks (a plain ``f`` on threads); a timed-out coroutine is
        cancelled.  ``via`` and ``chunksize`` are for sync streams.

        >>> stream("ab").map(str.upper).to_list()
        ['A', 'B']
        >>> stream(range(5)).map(lambda n: n * n, concurrency=3).to_list()
        [0, 1, 4, 9, 16]
        >>> stream(range(5)).map(abs, concurrency=2, chunksize=2).to_list()
        [0, 1, 2, 3, 4]
        >>> from lazyfun import Rate
        >>> stream(range(3)).map(str, rate=Rate(100, per=1), retry=3).to_list()
        ['0', '1', '2']
        >>> import time
        >>> naps = stream([0.0, 5.0]).map(time.sleep, timeout=0.5)
        >>> naps.catch(TimeoutError, replace=lambda error: "over time").to_list()
        [None, 'over time']
        >>> import asyncio
        >>> async def double(n):
        ...     await asyncio.sleep(0)
        ...     return 2 * n
        >>> asyncio.run(astream(range(4)).map(double, concurrency=2).to_list())
        [0, 2, 4, 6]
        """
        self._checked(f, "map")
        self._placed("map", via, chunksize, concurrency, ahead)
        self._policed("map", f, via, retry, rate, timeout)
        made: Stream[Any, Any] = self._step(
            "map", f, concurrency, ordered, ahead, via, chunksize, retry, rate, timeout
        )
        return made

    @overload
    def filter(
        self,
        keep: Callable[[T], TypeIs[U]],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        ahead: int | None = None,
        via: Via = None,
        chunksize: int | None = None,
    ) -> Stream[U, M]: ...

    @overload
    def filter(
        self,
        keep: Callable[[T], TypeGuard[U]],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        ahead: int | None = None,
        via: Via = None,
        chunksize: int | None = None,
    ) -> Stream[U, M]: ...

    @overload
    def filter(
        self: Steps[V | None, M],
        keep: None = None,
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        ahead: int | None = None,
        via: Via = None,
        chunksize: int | None = None,
    ) -> Stream[V, M]: ...

    @overload
    def filter(
        self,
        keep: Callable[[T], object] | None = None,
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        ahead: int | None = None,
        via: Via = None,
        chunksize: int | None = None,
    ) -> Stream[T, M]: ...

    def filter(
        self,
        keep: Callable[[T], object] | None = None,
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        ahead: int | None = None,
        via: Via = None,
        chunksize: int | None = None,
    ) -> Stream[Any, Any]:
        """``filter keep``: the items for which ``keep`` is true (a ``TypeGuard`` or
        ``TypeIs`` predicate narrows the item type); without ``keep``, the true items
        (``None`` left out of the item type).  ``concurrency``, ``ordered``, ``ahead``,
        ``via`` and ``chunksize`` as for :meth:`map`; in an async stream ``keep`` may be a
        coroutine function.

        >>> stream(range(6)).filter(lambda n: n % 3 == 0).to_list()
        [0, 3]
        >>> stream([0, 1, "", "a", None]).filter().to_list()
        [1, 'a']
        """
        keep = bool if keep is None else keep
        self._checked(keep, "filter")
        self._placed("filter", via, chunksize, concurrency, ahead)
        self._policed("filter", keep, via, None)
        made: Stream[Any, Any] = self._step(
            "filter", keep, concurrency, ordered, ahead, via, chunksize
        )
        return made

    @overload
    def flatmap(
        self: Steps[T, Async],
        f: Callable[[T], Iterable[U] | AsyncIterable[U] | Awaitable[Iterable[U]]],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        ahead: int | None = None,
        via: Via = None,
        chunksize: int | None = None,
        retry: int | Retrying | AsyncRetrying | None = None,
    ) -> Stream[U, Async]: ...

    @overload
    def flatmap(
        self,
        f: Callable[[T], Iterable[U]],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        ahead: int | None = None,
        via: Via = None,
        chunksize: int | None = None,
        retry: int | Retrying | AsyncRetrying | None = None,
    ) -> Stream[U, M]: ...

    def flatmap(
        self,
        f: Callable[[T], Any],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        ahead: int | None = None,
        via: Via = None,
        chunksize: int | None = None,
        retry: int | Retrying | AsyncRetrying | None = None,
    ) -> Stream[Any, Any]:
        """``concatMap f``: the items of ``f(x)`` for each item ``x``, chained.  An error
        of an inner iterable passes on at its place and the iterable is read on (an
        iterator may go on; a generator that raised has ended).  With ``concurrency``,
        each ``f(x)`` is read to its end in the worker: the items and errors the chain
        hands on, in its order unless ``ordered=False``.  ``retry`` retries the call of
        ``f``, not the reading of what it gives.

        In an async stream ``f(x)`` may be an async iterable, or ``f`` a coroutine
        function giving an iterable; with ``concurrency=n`` at most n inner iterables are
        read at once, each by a task (a plain ``f`` and a plain inner iterator on a
        thread): in order, the first one's items come as they arrive while the others
        read ahead; with ``ordered=False`` every item comes as it arrives, interleaved.
        ``ahead`` (at least ``concurrency``) bounds the inner iterables started and not
        yet read to their end; without it, ``concurrency``, and in order, while the first
        one has nothing to hand on, up to ``max(1024, 64 * concurrency)``.
        Closing the stream closes the inner iterators ``f`` made.

        >>> stream([1, 2, 3]).flatmap(range).to_list()
        [0, 0, 1, 0, 1, 2]
        """
        self._checked(f, "flatmap")
        self._placed("flatmap", via, chunksize, concurrency, ahead)
        self._policed("flatmap", f, via, retry)
        made: Stream[Any, Any] = self._step(
            "flatmap", f, concurrency, ordered, ahead, via, chunksize, retry
        )
        return made

    def do(
        self,
        f: Callable[[T], object],
        *,
        concurrency: int | None = None,
        ordered: bool = True,
        ahead: int | None = None,
        via: Via = None,
        chunksize: int | None = None,
        retry: int | Retrying | AsyncRetrying | None = None,
    ) -> Stream[T, M]:
        """The items unchanged, ``f`` called on each for its effect (a tap; in an async
        stream ``f`` may be a coroutine function).  ``concurrency``, ``ordered``,
        ``ahead``, ``via``, ``chunksize`` and ``retry`` as for :meth:`map`: at most
        ``concurrency + 1`` tasks read ahead, and in order up to
        ``max(1024, 64 * concurrency)`` items while the head's call runs, unless ``ahead``
        fixes it.

        >>> seen = []
        >>> stream("ab").do(seen.append).map(str.upper).to_list(), seen
        (['A', 'B'], ['a', 'b'])
        """
        self._checked(f, "do")
        self._placed("do", via, chunksize, concurrency, ahead)
        self._policed("do", f, via, retry)
        made: Stream[T, M] = self._step("do", f, concurrency, ordered, ahead, via, chunksize, retry)
        return made

    @overload
    def scan(
        self: Steps[T, Async], f: Callable[[U, T], Awaitable[U]], initial: U
    ) -> Stream[U, Async]: ...

    @overload
    def scan(self, f: Callable[[U, T], U], initial: U) -> Stream[U, M]: ...

    def scan(self, f: Callable[[U, T], Any], initial: U) -> Stream[U, Any]:
        """``scanl f initial``: ``initial`` and every running result of ``f``.

        >>> stream([1, 2, 3]).scan(lambda total, n: total + n, 0).to_list()
        [0, 1, 3, 6]
        """
        self._checked(f, "scan")
        made: Stream[U, Any] = self._step("scan", f, initial)
        return made

    def takewhile(self, keep: Callable[[T], object]) -> Stream[T, M]:
        """The longest prefix of items satisfying ``keep``.

        >>> stream([1, 4, 9, 16, 1]).takewhile(lambda n: n < 10).to_list()
        [1, 4, 9]
        """
        self._checked(keep, "takewhile")
        made: Stream[T, M] = self._step("takewhile", keep)
        return made

    def dropwhile(self, drop: Callable[[T], object]) -> Stream[T, M]:
        """What follows the longest prefix satisfying ``drop``.

        >>> stream([1, 4, 9, 16, 1]).dropwhile(lambda n: n < 10).to_list()
        [16, 1]
        """
        self._checked(drop, "dropwhile")
        made: Stream[T, M] = self._step("dropwhile", drop)
        return made

    def unique(
        self,
        key: Callable[[T], object] | None = None,
        *,
        within: float | timedelta | None = None,
        last: int | None = None,
    ) -> Stream[T, M]:
        """Each item the first time it (or its ``key``) is seen; remembers what it has
        seen (in a set, or a list for unhashable items such as lists and dicts).  With
        ``within=seconds`` an item is a repeat only if its key was let through less
        than that long ago, with ``last=n`` if it is among the last n keys let through:
        the memory is then the window's keys (hashable), not every key seen.  In an
        async stream the key may be a coroutine function (not with a window).

        >>> stream("abracadabra").unique().to_list()
        ['a', 'b', 'r', 'c', 'd']
        >>> stream([[1], [2], [1]]).unique().to_list()
        [[1], [2]]
        >>> stream("abracadabra").unique(last=2).to_list()
        ['a', 'b', 'r', 'a', 'c', 'd', 'a', 'b', 'r', 'a']
        """
        if key is not None:
            self._checked(key, "unique's key")
        if within is None and last is None:
            made: Stream[T, M] = self._step("unique", key)
            return made
        if within is not None and last is not None:
            raise ValueError("unique takes within= (seconds) or last= (items), not both")
        if last is not None:
            check_count(last, "unique's last", 1)
        limit = None if within is None else seconds(within, "unique's within")
        windowed: Stream[T, M] = self._step("unique_within", key, limit, last)
        return windowed

    @overload
    def catch(
        self: Steps[T, Async],
        *,
        where: Callable[[Exception], object] | None = None,
        replace: Callable[[Exception], Awaitable[U]],
        do: Callable[[Exception], object] | None = None,
        stop: bool = False,
    ) -> Stream[T | U, Async]: ...

    @overload
    def catch(
        self,
        *,
        where: Callable[[Exception], object] | None = None,
        replace: Callable[[Exception], U] | None = None,
        do: Callable[[Exception], object] | None = None,
        stop: bool = False,
    ) -> Stream[T | U, M]: ...

    @overload
    def catch(
        self: Steps[T, Async],
        error: type[E],
        /,
        *errors: type[E],
        where: Callable[[E], object] | None = None,
        replace: Callable[[E], Awaitable[U]],
        do: Callable[[E], object] | None = None,
        stop: bool = False,
    ) -> Stream[T | U, Async]: ...

    @overload
    def catch(
        self,
        error: type[E],
        /,
        *errors: type[E],
        where: Callable[[E], object] | None = None,
        replace: Callable[[E], U] | None = None,
        do: Callable[[E], object] | None = None,
        stop: bool = False,
    ) -> Stream[T | U, M]: ...

    def catch(
        self,
        *errors: type[BaseException],
        where: Callable[[Any], object] | None = None,
        replace: Callable[[Any], Any] | None = None,
        do: Callable[[Any], object] | None = None,
        stop: bool = False,
    ) -> Stream[Any, Any]:
        """Recover from exceptions raised upstream: of the ``errors`` types (default
        ``Exception``) and for which ``where(error)`` holds, each is passed to
        ``do(error)``, then replaced by ``replace(error)``, or ends the stream
        quietly with ``stop=True``, or else is dropped and the stream goes on with
        the next item.  What ``where``, ``do`` or ``replace`` raise propagates.  In an
        async stream each may be a coroutine function.

        >>> stream(["1", "x", "3"]).map(int).catch(ValueError).to_list()
        [1, 3]
        >>> stream(["1", "x", "3"]).map(int).catch(replace=lambda error: -1).to_list()
        [1, -1, 3]
        """
        for error in errors:
            if not (isinstance(error, type) and issubclass(error, BaseException)):
                raise TypeError(f"catch takes exception types, got {error!r}")
        for name, f in (("where", where), ("replace", replace), ("do", do)):
            if f is not None:
                self._checked(f, f"catch's {name}")
        made: Stream[Any, Any] = self._step("catch", errors, where, replace, do, stop)
        return made
