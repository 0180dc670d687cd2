"""The verbs of data pipelines, each in bounded memory: ``sort`` (sorted runs spilled to
temporary files beyond a memory budget, merged lazily), ``top``, ``join`` (a hash join,
or a merge join of two sorted inputs), keyed aggregates, and ``unique`` within a window.

Each verb's work is a small object that knows nothing of how its items arrive: the
sync steps (:mod:`lazyfun.streams.sync.vsteps`) and the async ones
(:mod:`lazyfun.streams.aio.avsteps`) feed it chunks and read what it gives, so an algorithm
is written once; a merge join's step is written once too (:class:`MergeJoining`), but
for its read.

>>> sorter = Sorter(None, False, MEMORY)
>>> sorter.add([3, 1, 2])
>>> list(sorter.output())
[1, 2, 3]
"""

from __future__ import annotations

import copy
import heapq
import math
import os
import pickle
import shutil
import sys
import tempfile
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Generator, Hashable, Iterator
from itertools import islice
from typing import IO, Any, Generic, TypeVar

__all__ = [
    "MEMORY",
    "REDUCTIONS",
    "Accumulators",
    "HashTable",
    "MergeJoin",
    "MergeJoining",
    "OutOfOrder",
    "Recent",
    "Sorter",
    "Top",
    "field",
    "raise_first",
    "reductions",
    "size_of",
]

T = TypeVar("T")
R = TypeVar("R")

MEMORY = 256 * 2**20  # bytes: what sort holds in memory before it spills sorted runs
CHUNK = 4096  # items a verb reads at a time (in C, by islice)
FRAME = 1024  # items pickled together in a spilled run, and read back together


def size_of(item: object, depth: int = 2) -> int:
    """About how many bytes ``item`` takes: its own size and its contents' (a dict's
    values, a sequence's or a set's items), ``depth`` levels down.  A dict's string keys
    are not counted: the records of a stream share them (a decoder makes each once).

    >>> size_of(1) == sys.getsizeof(1)
    True
    >>> size_of({"a": 1}) > sys.getsizeof({"a": 1})
    True
    """
    size = sys.getsizeof(item)
    if depth <= 0:
        return size
    if isinstance(item, dict):
        for key, value in item.items():
            size += size_of(value, depth - 1) + (0 if isinstance(key, str) else size_of(key))
    elif isinstance(item, list | tuple | set | frozenset):
        for inner in item:
            size += size_of(inner, depth - 1)
    return size


def _sift(items: list[T], key: Callable[[T], Any], errors: deque[Exception]) -> list[T]:
    """``items`` without those whose ``key`` raises; their errors added to ``errors``."""
    kept: list[T] = []
    for item in items:
        try:
            key(item)
        except Exception as error:
            errors.append(error)
        else:
            kept.append(item)
    return kept


class Sorter(Generic[T]):
    """Items sorted by ``key`` (stable, ``reverse`` as ``sorted`` takes it), holding about
    ``memory`` bytes: beyond that, what it holds is sorted and written to a temporary
    file as a run, and ``output`` merges the runs lazily (``heapq.merge``: stable, the
    earlier run first on equal keys).  An item whose key raises is left out and its
    error kept in ``errors``.  ``close`` removes the temporary files."""

    def __init__(self, key: Callable[[T], Any] | None, reverse: bool, memory: int) -> None:
        self.key, self.reverse, self.memory = key, reverse, memory
        self.items: list[T] = []
        self.held = 0  # bytes, estimated from one item a chunk
        self.each = 0  # bytes an item, as last measured
        self.runs: list[str] = []
        self.folder: str | None = None
        self.errors: deque[Exception] = deque()
        self.readers: list[Generator[T, None, None]] = []

    def room(self) -> int:
        """How many items to read next: about what the budget has room for (by the last
        item measured), one chunk at most."""
        if not self.each:
            return 1
        return max(1, min(CHUNK, (self.memory - self.held) // self.each))

    def add(self, chunk: list[T]) -> None:
        """Hold ``chunk``; spill a sorted run when the budget is passed."""
        if not chunk:
            return
        self.items.extend(chunk)
        # a pointer in the list, and the item in the middle of the chunk as measured
        self.each = 8 + size_of(chunk[len(chunk) // 2])
        self.held += len(chunk) * self.each
        if self.held >= self.memory:
            self._spill()

    def _sorted(self) -> None:
        key: Any = self.key  # the stubs want a key of comparables; the items' own order
        try:
            self.items.sort(key=key, reverse=self.reverse)
        except Exception:
            if key is None:
                raise  # items that do not compare: no item's own fault
            kept = _sift(self.items, key, self.errors)
            if len(kept) == len(self.items):
                raise
            self.items = kept
            self.items.sort(key=key, reverse=self.reverse)

    def _spill(self) -> None:
        self._sorted()
        if self.folder is None:
            self.folder = tempfile.mkdtemp(prefix="lazyfun-sort-")
        path = os.path.join(self.folder, f"run{len(self.runs)}")
        with open(path, "wb") as file:
            items = self.items
            for start in range(0, len(items), FRAME):
                pickle.dump(items[start : start + FRAME], file, pickle.HIGHEST_PROTOCOL)
        self.runs.append(path)
        self.items, self.held = [], 0

    def output(self) -> Iterator[T]:
        """The items in order: from memory, or merged from the runs and what is held."""
        self._sorted()
        if not self.runs:
            items, self.items = self.items, []
            return iter(items)
        self.readers = [_read_run(path) for path in self.runs]
        key: Any = self.key  # heapq's stub wants a key of comparables; the items' own order
        return heapq.merge(*self.readers, self.items, key=key, reverse=self.reverse)

    def __del__(self) -> None:
        self.close()

    def close(self) -> None:
        """Let go of the items and remove the runs (also of a sort left early)."""
        self.items = []
        for reader in self.readers:
            reader.close()
        self.readers = []
        folder, self.folder = self.folder, None
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


def _read_run(path: str) -> Generator[Any, None, None]:
    """The items of a spilled run, a frame at a time."""
    file: IO[bytes]
    with open(path, "rb") as file:
        while True:
            try:
                frame = pickle.load(file)
            except EOFError:
                return
            yield from frame


class Top(Generic[T]):
    """The ``k`` least items by ``key`` (the greatest with ``reverse``), in order, as
    ``heapq.nsmallest`` (``nlargest``) gives them, holding at most ``k`` + a chunk:
    stable, since the kept items came before the new ones."""

    def __init__(self, k: int, key: Callable[[T], Any] | None, reverse: bool) -> None:
        self.k, self.key = k, key
        self.order: Any = key  # heapq's stub wants a key of comparables
        self.pick = heapq.nlargest if reverse else heapq.nsmallest
        self.kept: list[T] = []
        self.errors: deque[Exception] = deque()

    def _picked(self) -> list[T]:
        try:
            return self.pick(self.k, self.kept, key=self.order)
        except Exception:
            if self.key is None:
                raise
            kept = _sift(self.kept, self.key, self.errors)
            if len(kept) == len(self.kept):
                raise
            return self.pick(self.k, kept, key=self.order)

    def room(self) -> int:
        return CHUNK

    def add(self, chunk: list[T]) -> None:
        self.kept.extend(chunk)
        if len(self.kept) >= 2 * self.k + CHUNK:
            self.kept = self._picked()

    def output(self) -> list[T]:
        picked, self.kept = self._picked(), []
        return picked


def field(on: str | Callable[[T], R]) -> Callable[[T], Any]:
    """A key function: ``on`` itself, or for a name, the item's value of that name (a
    dict's key, else an attribute).

    >>> field("id")({"id": 7}), field(len)("abc")
    (7, 3)
    """
    if callable(on):
        return on
    if not isinstance(on, str):
        raise TypeError(f"a key must be a field name or a function, got {type(on).__name__}")

    def get(item: Any) -> Any:
        try:
            return item[on]
        except TypeError:  # not a mapping: a dataclass, a Struct, a named tuple
            return getattr(item, on)

    get.__name__ = f"field_{on}"
    return get


class HashTable(Generic[T]):
    """The other side of a hash join: its items by key, in their order, holding at most
    ``memory`` bytes (a ValueError with the reason beyond it)."""

    def __init__(self, key: Callable[[T], Any], memory: int | None) -> None:
        self.key, self.memory = key, memory
        self.rows: dict[Any, list[T]] = {}
        self.held = 0
        self.errors: deque[Exception] = deque()

    def add(self, chunk: list[T]) -> None:
        """Hold the rows of ``chunk`` (a row whose key raises left out, its error kept)."""
        key, rows = self.key, self.rows
        for item in chunk:
            try:
                k = key(item)
            except Exception as error:
                self.errors.append(error)
                continue
            rows.setdefault(k, []).append(item)
        if self.memory is not None and chunk:
            self.held += len(chunk) * (64 + size_of(chunk[0]))
            if self.held > self.memory:
                raise ValueError(
                    f"join: the other side passed memory={self.memory:,} bytes after "
                    f"{sum(map(len, rows.values())):,} items; a hash join holds it all. Sort "
                    "both sides on the key and join with sorted=True (constant memory)"
                )

    def filled(self, other: Iterator[T]) -> Iterator[Exception]:
        """Read ``other`` into the table a chunk at a time (in C), giving each error (of
        a read, or of a row's key) at its place; the reading goes on after it."""
        while True:
            chunk: list[T] = []
            try:  # list.extend keeps the items it appended before an error
                chunk.extend(islice(other, CHUNK))
            except Exception as error:
                self.add(chunk)
                yield error
                continue
            self.add(chunk)
            while self.errors:
                yield self.errors.popleft()
            if not chunk:
                return

    def pairs(self, item: T, k: Any, left: bool) -> list[tuple[T, Any]]:
        """The pairs ``item`` (whose key is ``k``) makes: one a matching row, or with
        ``left`` ``(item, None)`` when none matches."""
        rows = self.rows.get(k)
        if rows is None:
            return [(item, None)] if left else []
        return [(item, row) for row in rows]


_END: Any = object()


class OutOfOrder(ValueError):
    """A merge join's input whose keys are not in order (the join ends there)."""


class MergeJoin:
    """A merge join's state: the other side's rows of the key in hand, read from an
    iterator sorted on its key; a key out of order on either side is a ValueError."""

    def __init__(self, other: Iterator[Any], other_key: Callable[[Any], Any]) -> None:
        self.other, self.other_key = other, other_key
        self.key: Any = _END  # the key of ``rows``
        self.rows: list[Any] = []
        self.next_row: Any = _END
        self.next_key: Any = _END
        self.done = False
        self.complete = False  # whether ``rows`` holds every row of ``key``
        self.last_left: Any = _END
        self.read = 0

    def _pull(self) -> None:
        """The next row of the other side into ``next_row`` (its errors pass on)."""
        row = next(self.other, _END)
        if row is _END:
            self.done = True
            self.next_row = self.next_key = _END
            return
        self.read += 1
        k = self.other_key(row)
        if self.next_key is not _END and k < self.next_key:
            self.done = True
            raise OutOfOrder(
                f"join(sorted=True): the other side is not sorted on its key: row "
                f"{self.read} has {k!r} after {self.next_key!r}"
            )
        self.next_row, self.next_key = row, k

    def matches(self, k: Any) -> list[Any]:
        """The other side's rows of key ``k`` (the left keys must come in order)."""
        if self.last_left is not _END and k < self.last_left:
            raise OutOfOrder(
                f"join(sorted=True): this side is not sorted on its key: {k!r} after "
                f"{self.last_left!r}"
            )
        self.last_left = k
        if self.key is not _END and not self.key < k and self.complete:  # the same key again
            return self.rows
        if self.key is _END or self.key < k:  # a new key (else: gathering it goes on)
            self.key, self.rows = k, []
        self.complete = False
        while True:
            if self.next_row is _END and not self.done:
                self._pull()
            if self.next_row is _END or k < self.next_key:
                self.complete = True  # every row of the key read (an error of the other
                return self.rows  # side raised above leaves it to be gone on with)
            if self.next_key == k:
                self.rows.append(self.next_row)
            self.next_row = _END


# --- keyed aggregates -----------------------------------------------------------------


class MergeJoining:
    """A merge join's step, sync or async, but for how it reads its source: the item in
    hand, its key, the pairs ready to give; the other side's error passes on and the
    item stays in hand; a key out of order ends the join."""

    def __init__(self, key: Callable[[Any], Any], join: MergeJoin, left: bool) -> None:
        self.key, self.join, self.left = key, join, left
        self.item: Any = None
        self.k: Any = None
        self.waiting = False  # an item whose rows were not all read (the other side raised)
        self.ready: deque[tuple[Any, Any]] = deque()
        self.ended = False

    def take(self, item: Any) -> None:
        """``item`` in hand, its rows to find."""
        self.item, self.k = item, self.key(item)
        self.waiting = True

    def match(self) -> None:
        """The pairs of the item in hand."""
        try:
            rows = self.join.matches(self.k)
        except OutOfOrder:
            self.ended = True
            raise
        self.waiting = False
        if rows:
            self.ready.extend((self.item, row) for row in rows)
        elif self.left:
            self.ready.append((self.item, None))


def raise_first(errors: deque[Exception]) -> None:
    """Raise the first of ``errors`` (forgotten once raised), if there is one."""
    if errors:
        error = errors.popleft()
        try:
            raise error
        finally:
            del error  # the frame keeps no error alive once it is passed on


class _Reduction:
    """A named reduction: a start, a step and an end over the values of a key."""

    __slots__ = ()

    def start(self, value: Any) -> Any:
        return value

    def step(self, acc: Any, value: Any) -> Any:
        raise NotImplementedError

    def end(self, acc: Any) -> Any:
        return acc


class _Count(_Reduction):
    def start(self, value: Any) -> Any:
        return 1

    def step(self, acc: Any, value: Any) -> Any:
        return acc + 1


class _Sum(_Reduction):
    def step(self, acc: Any, value: Any) -> Any:
        return acc + value


class _Min(_Reduction):
    def step(self, acc: Any, value: Any) -> Any:
        return value if value < acc else acc


class _Max(_Reduction):
    def step(self, acc: Any, value: Any) -> Any:
        return value if acc < value else acc


class _First(_Reduction):
    def step(self, acc: Any, value: Any) -> Any:
        return acc


class _Last(_Reduction):
    def step(self, acc: Any, value: Any) -> Any:
        return value


class _Moments(_Reduction):
    """Welford's running count, mean and sum of squared deviations: numerically stable
    (no sum of squares that cancels)."""

    def start(self, value: Any) -> Any:
        return [1, float(value), 0.0]

    def step(self, acc: Any, value: Any) -> Any:
        acc[0] += 1
        delta = value - acc[1]
        acc[1] += delta / acc[0]
        acc[2] += delta * (value - acc[1])
        return acc


class _Mean(_Moments):
    def end(self, acc: Any) -> Any:
        return acc[1]


class _Var(_Moments):
    """The sample variance (n - 1), as ``statistics.variance``; None below two values."""

    def end(self, acc: Any) -> Any:
        return acc[2] / (acc[0] - 1) if acc[0] > 1 else None


class _Std(_Var):
    def end(self, acc: Any) -> Any:
        variance = super().end(acc)
        return None if variance is None else math.sqrt(variance)


REDUCTIONS: dict[str, _Reduction] = {
    "count": _Count(),
    "sum": _Sum(),
    "min": _Min(),
    "max": _Max(),
    "mean": _Mean(),
    "var": _Var(),
    "std": _Std(),
    "first": _First(),
    "last": _Last(),
}

Named = str | tuple[str, "str | Callable[[Any], Any]"]


def reductions(named: dict[str, Any]) -> list[tuple[str, _Reduction, Callable[[Any], Any]]]:
    """``aggregate``'s named reductions, checked at the call: each ``"count"`` or a pair of
    a reduction's name and what it reduces (a field name or a function of the item)."""
    if not named:
        raise ValueError("aggregate needs at least one named reduction, e.g. n='count'")
    made: list[tuple[str, _Reduction, Callable[[Any], Any]]] = []
    for name, spec in named.items():
        if spec == "count":
            made.append((name, REDUCTIONS["count"], _itself))
            continue
        if not (isinstance(spec, tuple) and len(spec) == 2 and spec[0] in REDUCTIONS):
            raise ValueError(
                f"aggregate's {name}= must be 'count' or (reduction, field or function) with "
                f"a reduction of {', '.join(REDUCTIONS)}; got {spec!r}"
            )
        made.append((name, REDUCTIONS[spec[0]], field(spec[1])))
    return made


def _itself(item: T) -> T:
    return item


class Accumulators:
    """Per key, the running state of each named reduction (``aggregate``), or of ``fn``
    from a copy of ``initial`` (``reduce_by``; a list folded in place is each key's own):
    memory by the number of keys, not of items.  An
    item whose key or value raises changes nothing and its error passes on."""

    def __init__(
        self,
        by: Callable[[Any], Any],
        named: list[tuple[str, _Reduction, Callable[[Any], Any]]] | None = None,
        fold: tuple[Callable[[Any, Any], Any], Any] | None = None,
    ) -> None:
        self.by, self.named, self.fold = by, named, fold
        self.state: dict[Any, Any] = {}

    def fresh(self) -> Accumulators:
        """Accumulators of the same reductions, from nothing (a window's)."""
        return Accumulators(self.by, self.named, self.fold)

    def add(self, item: Any) -> None:
        k = self.by(item)
        state = self.state
        if self.fold is not None:
            fn, initial = self.fold
            state[k] = fn(state[k] if k in state else copy.copy(initial), item)
            return
        assert self.named is not None
        values = [get(item) for _, _, get in self.named]  # all read before any is changed
        accs = state.get(k)
        if accs is None:
            state[k] = [r.start(v) for (_, r, _), v in zip(self.named, values, strict=True)]
        else:
            for i, ((_, r, _), v) in enumerate(zip(self.named, values, strict=True)):
                accs[i] = r.step(accs[i], v)

    def output(self) -> dict[Any, Any]:
        """The aggregates so far, and a fresh start (a window's end)."""
        state, self.state = self.state, {}
        if self.named is None:
            return state
        names = self.named
        return {
            k: {name: r.end(acc) for (name, r, _), acc in zip(names, accs, strict=True)}
            for k, accs in state.items()
        }


class Recent:
    """What ``unique(within=, last=)`` remembers: the keys let through in the last
    ``within`` seconds, or the last ``last`` of them; a key among them is a repeat.

    >>> recent = Recent(None, 2)
    >>> [recent.repeat(k) for k in "abab" "cb"]
    [False, False, True, True, False, True]
    """

    def __init__(
        self, within: float | None, last: int | None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.within, self.last, self.clock = within, last, clock
        self.times: OrderedDict[Hashable, float] = OrderedDict()
        self.order: deque[Hashable] = deque()
        self.counts: Counter[Hashable] = Counter()

    def repeat(self, k: Hashable) -> bool:
        """Whether ``k`` is a repeat (dropped); if not, it is remembered as let through."""
        if self.within is not None:
            now, times = self.clock(), self.times
            while times:
                oldest, seen = next(iter(times.items()))
                if now - seen < self.within:
                    break
                del times[oldest]
            if k in times:
                return True
            times[k] = now
            return False
        if self.counts[k]:
            return True
        assert self.last is not None
        self.order.append(k)
        self.counts[k] += 1
        if len(self.order) > self.last:
            gone = self.order.popleft()
            self.counts[gone] -= 1
            if not self.counts[gone]:
                del self.counts[gone]
        return False
