"""The verbs of data pipelines on the façade: ``sort``, ``top``, ``join``, ``count_by``,
``reduce_by``, ``aggregate``, each saying what it holds in memory.  Their keys are plain
functions in both modes (a coroutine function is refused at the call); the dicts of the
terminal forms are awaited in an async stream.  The work is in
:mod:`lazyfun.streams.verbs`, the steps in :mod:`lazyfun.streams.sync.vsteps`.

>>> stream([3, 1, 2]).sort().to_list()
[1, 2, 3]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Coroutine, Iterable
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Literal, TypeVar, overload

from lazyfun.streams.explain import Stage, root
from lazyfun.streams.facade.base import Base, async_only
from lazyfun.streams.facade.shapes import Shapes
from lazyfun.streams.modes import Async, M, Sync
from lazyfun.streams.plan import Node
from lazyfun.streams.shared.parts import check_count, seconds
from lazyfun.streams.sorting import MEMORY
from lazyfun.streams.verbs import Accumulators, key_of, reductions
from lazyfun.trace import Counts

if TYPE_CHECKING:
    from datetime import date, time
    from decimal import Decimal
    from enum import Enum
    from uuid import UUID

    from lazyfun.streams.stream import Stream

    # The key of a join given two functions: one of these types, the same on both sides (as
    # AnyStr is str or bytes in both places), so that the checkers refuse an int key against
    # a str one (the ids of a CSV file against a JSON log's).  A subclass counts as its type
    # (bool and IntEnum as int, datetime as date), an int as a float, and the types with None
    # are a missing key's.  Constrained, not a plain TypeVar: a plain one is widened to
    # ``int | str`` (or ``object``) and lets the pair through.
    Key = TypeVar(
        "Key",
        int,
        float,
        str,
        bytes,
        Decimal,
        date,
        time,
        timedelta,
        UUID,
        Enum,
        tuple[Any, ...],
        int | None,
        float | None,
        str | None,
        bytes | None,
        date | None,
    )

__all__ = ["Verbs"]

T = TypeVar("T")
R = TypeVar("R")
K = TypeVar("K")
A = TypeVar("A")

How = Literal["inner", "left"]


def _budget(memory: object, what: str) -> int | None:
    """A keyed fold's ``memory=``: None (no budget) or a positive number of bytes."""
    return None if memory is None else _memory(memory, what)


def _memory(memory: object, what: str) -> int:
    check_count(memory, f"{what}'s memory (bytes)", 1)
    assert isinstance(memory, int)
    return memory


def _window(every: int | None, within: float | timedelta | None, what: str) -> float | None:
    """``within`` in seconds, both checked at the call; None for ``every`` alone."""
    if every is not None:
        check_count(every, f"{what}'s every", 1)
    return None if within is None else seconds(within, f"{what}'s within")


def _plus_one(count: int, _item: object) -> int:
    return count + 1


class Verbs(Shapes[T, M]):
    """The verbs of the façade."""

    __slots__ = ()

    def sort(
        self,
        key: Callable[[T], Any] | None = None,
        *,
        reverse: bool = False,
        memory: int = MEMORY,
        tmpdir: str | os.PathLike[str] | None = None,
    ) -> Stream[T, M]:
        """The items sorted by ``key`` (stable; ``reverse`` as ``sorted`` takes it),
        holding about ``memory`` bytes (256 MiB unless you say) at any size: beyond it,
        sorted runs are written to temporary files (in a folder of ``tmpdir``, the
        system's temporary folder by default, named ``lazyfun-sort-<pid>-…``) and merged
        in passes of at most 64 runs, the last one lazily as the stream is read; a merge
        holds a frame of each run it reads, half the budget.  Beside ``memory`` a sort
        holds a fixed overhead: a file buffer (8 KiB) for each of at most 64 open runs
        and one frame's bytes.  The files are removed at the end, on ``close()``, on an
        error and on Ctrl-C; a process killed outright leaves its folder, and the next
        sort that spills into that ``tmpdir`` removes the folders of processes no
        longer alive.  An error from upstream passes on before the sorted items, and
        the sort goes on.

        >>> rows = [{"n": 2}, {"n": 1}, {"n": 2, "late": True}]
        >>> stream(rows).sort(key=lambda r: r["n"]).to_list()
        [{'n': 1}, {'n': 2}, {'n': 2, 'late': True}]
        """
        if key is not None:
            self._checked(key, "sort's key", plain=True)
        if tmpdir is not None and not isinstance(tmpdir, str | os.PathLike):
            raise TypeError(f"sort's tmpdir must be a folder's path, got {tmpdir!r}")
        made: Stream[T, M] = self._step("sort", key, reverse, _memory(memory, "sort"), tmpdir)
        return made

    def top(
        self, k: int, key: Callable[[T], Any] | None = None, *, reverse: bool = False
    ) -> Stream[T, M]:
        """The ``k`` least items by ``key`` (with ``reverse``, the greatest), in order, as
        ``heapq.nsmallest`` (``nlargest``) gives them; holds ``k`` items and a chunk.

        >>> stream([5, 1, 4, 2, 3]).top(2).to_list(), stream("hello").top(1, reverse=True).to_list()
        ([1, 2], ['o'])
        """
        check_count(k, "top's k", 0)
        if key is not None:
            self._checked(key, "top's key", plain=True)
        made: Stream[T, M] = self._step("top", k, key, reverse)
        return made

    @overload
    def join(
        self,
        other: Iterable[R],
        on: str | Callable[[T], Any],
        *,
        how: Literal["inner"] = "inner",
        other_on: str | None = None,
        sorted: bool = False,
        memory: int | None = None,
    ) -> Stream[tuple[T, R], M]: ...

    @overload
    def join(
        self,
        other: Iterable[R],
        on: str | Callable[[T], Any],
        *,
        how: Literal["left"],
        other_on: str | None = None,
        sorted: bool = False,
        memory: int | None = None,
    ) -> Stream[tuple[T, R | None], M]: ...

    @overload
    def join(
        self,
        other: Iterable[R],
        on: str,
        *,
        how: Literal["inner"] = "inner",
        other_on: Callable[[R], Any],
        sorted: bool = False,
        memory: int | None = None,
    ) -> Stream[tuple[T, R], M]: ...

    @overload
    def join(
        self,
        other: Iterable[R],
        on: str,
        *,
        how: Literal["left"],
        other_on: Callable[[R], Any],
        sorted: bool = False,
        memory: int | None = None,
    ) -> Stream[tuple[T, R | None], M]: ...

    # Two key functions: typed (``Key``).  These come last: of the overloads a call fails
    # alike, pyright reports the last, so a mismatched pair is told in their terms.
    @overload
    def join(
        self,
        other: Iterable[R],
        on: Callable[[T], Key],
        *,
        how: Literal["inner"] = "inner",
        other_on: Callable[[R], Key],
        sorted: bool = False,
        memory: int | None = None,
    ) -> Stream[tuple[T, R], M]: ...

    @overload
    def join(
        self,
        other: Iterable[R],
        on: Callable[[T], Key],
        *,
        how: Literal["left"],
        other_on: Callable[[R], Key],
        sorted: bool = False,
        memory: int | None = None,
    ) -> Stream[tuple[T, R | None], M]: ...

    def join(
        self,
        other: Iterable[Any],
        on: str | Callable[[Any], Any],
        *,
        how: How = "inner",
        other_on: str | Callable[[Any], Any] | None = None,
        sorted: bool = False,
        memory: int | None = None,
    ) -> Stream[Any, M]:
        """Pairs ``(item, row)`` of each item and each row of ``other`` with the same key
        (``on``: a field name or a function; ``other_on`` for the other side, else
        ``on``), in this stream's order, then ``other``'s; with ``how="left"`` an item
        with no row comes once, paired with None.  ``other`` (a plain iterable, read in
        the event loop by an async stream) is read into a hash table at the first read
        (refused with the reason once it passes ``memory=`` bytes); with ``sorted=True``
        both sides must be sorted on their keys and are merged in constant memory (the
        rows of one key), a key out of order a ValueError.

        Keys of two types that never equal each other are a ``KeyMismatch`` where they
        meet.  Given as two functions, the keys are typed too, and mypy and pyright refuse
        the pair before it runs: both must give the same one of ``int``, ``float``,
        ``str``, ``bytes``, ``Decimal``, ``date``, ``time``, ``timedelta``, ``UUID``, an
        ``Enum`` or a tuple (``int``, ``float``, ``str``, ``bytes`` and ``date`` may be
        None), a subclass counting as its type and an int as a float.  So
        ``on=lambda e: e["user"]`` (an ``int`` field of a TypedDict, a Struct or a
        dataclass) against ``other_on=lambda u: u["id"]`` (a ``str``) is a type error.
        Field names, and one function for both sides, are not checked; a key of another
        type is given by name, or by a function typed as giving ``Any``.

        >>> people = [{"id": 1, "name": "ada"}, {"id": 2, "name": "alan"}]
        >>> orders = [{"who": 1, "item": "tea"}, {"who": 1, "item": "cake"}]
        >>> pairs = stream(people).join(orders, "id", other_on="who", how="left")
        >>> [(person["name"], order and order["item"]) for person, order in pairs]
        [('ada', 'tea'), ('ada', 'cake'), ('alan', None)]
        """
        if how not in ("inner", "left"):
            raise ValueError(f"join's how must be 'inner' or 'left', got {how!r}")
        if sorted and memory is not None:
            raise ValueError(
                "join(sorted=True) holds the rows of one key: memory= is for the hash join"
            )
        if async_only(other):
            raise TypeError("join reads the other side as it goes: give a plain iterable")
        limit = None if memory is None else _memory(memory, "join")
        key, other_key = key_of(on), key_of(on if other_on is None else other_on)
        rows, side = self._beside(other)
        made: Stream[Any, M] = self._step(
            "join", rows, key, other_key, how == "left", sorted, limit
        )
        made._stage.sides = (side,)  # explain shows the other side's plan above the join
        return made

    def _beside(self, other: Iterable[Any]) -> tuple[Any, Stage]:
        """The other side of a join, and its last stage: where this stream is analysed,
        a stream given is analysed too (when not read yet), any other iterable counted
        as a source of its own."""
        if self._stage.meter is None:
            side = other._stage if isinstance(other, Base) else root(other, None)
            return self._input(other), side
        if isinstance(other, Base):
            if other._stage.meter is None and not other._used:
                other.analyze()
            return self._input(other), other._stage
        side = root(other, Counts())
        return Node("source", (other,), None, side), side

    def _aggregated(
        self, acc: Accumulators, every: int | None, limit: float | None, what: str
    ) -> Any:
        """The verbs' folds: a terminal, or with a window a step of a dict a window."""
        if every is None and limit is None:
            return self._run.aggregated(self._built(), acc, None, None, what)
        return self._step("aggregated", acc, every, limit, what)

    @overload
    def count_by(
        self: Verbs[T, Sync], key: Callable[[T], K], *, memory: int | None = None
    ) -> dict[K, int]: ...

    @overload
    def count_by(
        self: Verbs[T, Async], key: Callable[[T], K], *, memory: int | None = None
    ) -> Coroutine[Any, Any, dict[K, int]]: ...

    @overload
    def count_by(
        self,
        key: Callable[[T], K],
        *,
        every: int | None = None,
        within: float | timedelta,
        memory: int | None = None,
    ) -> Stream[dict[K, int], M]: ...

    @overload
    def count_by(
        self,
        key: Callable[[T], K],
        *,
        every: int,
        within: float | timedelta | None = None,
        memory: int | None = None,
    ) -> Stream[dict[K, int], M]: ...

    def count_by(
        self,
        key: Callable[[T], Any],
        *,
        every: int | None = None,
        within: float | timedelta | None = None,
        memory: int | None = None,
    ) -> Any:
        """How many items each key has, in a dict (a terminal, like ``collections.Counter``
        of the keys; awaited in an async stream); with ``every=n`` or ``within=seconds``,
        a stream of such a dict for each window instead.  Holds one count a key: with
        ``memory=`` bytes, refused with the reason once the keys' counts pass it (a
        window's keys: each window's).

        >>> stream("banana").count_by(str.upper)
        {'B': 1, 'A': 3, 'N': 2}
        >>> stream("banana").count_by(str.upper, every=3).to_list()
        [{'B': 1, 'A': 1, 'N': 1}, {'A': 2, 'N': 1}]
        """
        self._checked(key, "count_by's key", plain=True)
        acc = Accumulators(
            key, fold=(_plus_one, 0), memory=_budget(memory, "count_by"), what="count_by"
        )
        return self._aggregated(acc, every, _window(every, within, "count_by"), "count_by")

    @overload
    def reduce_by(
        self: Verbs[T, Sync],
        key: Callable[[T], K],
        fn: Callable[[A, T], A],
        initial: A,
        *,
        memory: int | None = None,
    ) -> dict[K, A]: ...

    @overload
    def reduce_by(
        self: Verbs[T, Async],
        key: Callable[[T], K],
        fn: Callable[[A, T], A],
        initial: A,
        *,
        memory: int | None = None,
    ) -> Coroutine[Any, Any, dict[K, A]]: ...

    @overload
    def reduce_by(
        self,
        key: Callable[[T], K],
        fn: Callable[[A, T], A],
        initial: A,
        *,
        every: int | None = None,
        within: float | timedelta,
        memory: int | None = None,
    ) -> Stream[dict[K, A], M]: ...

    @overload
    def reduce_by(
        self,
        key: Callable[[T], K],
        fn: Callable[[A, T], A],
        initial: A,
        *,
        every: int,
        within: float | timedelta | None = None,
        memory: int | None = None,
    ) -> Stream[dict[K, A], M]: ...

    def reduce_by(
        self,
        key: Callable[[T], Any],
        fn: Callable[[Any, T], Any],
        initial: Any,
        *,
        every: int | None = None,
        within: float | timedelta | None = None,
        memory: int | None = None,
    ) -> Any:
        """Each key's items folded by ``fn`` from ``initial``, in a dict (a terminal); with
        ``every=`` or ``within=``, a stream of a dict a window.  Holds one value a key
        (with ``memory=`` bytes, refused with the reason once they pass it).

        >>> stream(["ab", "c", "de"]).reduce_by(len, lambda total, s: total + s, "")
        {2: 'abde', 1: 'c'}
        """
        self._checked(key, "reduce_by's key", plain=True)
        self._checked(fn, "reduce_by's fn", plain=True)
        acc = Accumulators(
            key, fold=(fn, initial), memory=_budget(memory, "reduce_by"), what="reduce_by"
        )
        return self._aggregated(acc, every, _window(every, within, "reduce_by"), "reduce_by")

    @overload
    def aggregate(
        self: Verbs[T, Sync],
        by: Callable[[T], K],
        *,
        every: None = None,
        within: None = None,
        memory: int | None = None,
        **named: Any,
    ) -> dict[K, dict[str, Any]]: ...

    @overload
    def aggregate(
        self: Verbs[T, Async],
        by: Callable[[T], K],
        *,
        every: None = None,
        within: None = None,
        memory: int | None = None,
        **named: Any,
    ) -> Coroutine[Any, Any, dict[K, dict[str, Any]]]: ...

    @overload
    def aggregate(
        self,
        by: Callable[[T], K],
        *,
        every: int,
        within: float | timedelta | None = None,
        memory: int | None = None,
        **named: Any,
    ) -> Stream[dict[K, dict[str, Any]], M]: ...

    @overload
    def aggregate(
        self,
        by: Callable[[T], K],
        *,
        every: int | None = None,
        within: float | timedelta,
        memory: int | None = None,
        **named: Any,
    ) -> Stream[dict[K, dict[str, Any]], M]: ...

    def aggregate(
        self,
        by: Callable[[T], Any],
        *,
        every: int | None = None,
        within: float | timedelta | None = None,
        memory: int | None = None,
        **named: Any,
    ) -> Any:
        """Named reductions of each key's items, in a dict of dicts (a terminal); with
        ``every=`` or ``within=``, a stream of one a window.  Each name is ``"count"``
        or a pair of a reduction (``sum``, ``min``, ``max``, ``mean``, ``var``, ``std``:
        Welford's running moments, numerically stable; ``first``, ``last``) and what it
        reduces: a field name or a function of the item.  Holds one state a key: with
        ``memory=`` bytes, refused with the reason (a ValueError) once the keys' states
        pass it (a window's keys: each window's), so a key with more values than the
        machine can hold stops the job at the budget, not at the machine's end.

        >>> sales = [{"at": "Oslo", "eur": 10}, {"at": "Rome", "eur": 4}, {"at": "Oslo", "eur": 6}]
        >>> stream(sales).aggregate(lambda s: s["at"], n="count", total=("sum", "eur"))
        {'Oslo': {'n': 2, 'total': 16}, 'Rome': {'n': 1, 'total': 4}}
        """
        self._checked(by, "aggregate's by", plain=True)
        acc = Accumulators(by, reductions(named), memory=_budget(memory, "aggregate"))
        return self._aggregated(acc, every, _window(every, within, "aggregate"), "aggregate")
