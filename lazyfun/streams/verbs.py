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

import contextlib
import copy
import heapq
import math
import numbers
import os
import pickle
import re
import shutil
import sys
import tempfile
import time
import weakref
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Generator, Hashable, Iterable, Iterator
from itertools import islice
from typing import IO, Any, Generic, TypeVar

__all__ = [
    "MEMORY",
    "REDUCTIONS",
    "Accumulators",
    "HashTable",
    "KeyMismatch",
    "MergeJoin",
    "MergeJoining",
    "OutOfOrder",
    "Recent",
    "Sorter",
    "Top",
    "field",
    "one_key",
    "raise_first",
    "reductions",
    "size_of",
    "sweep",
]

T = TypeVar("T")
R = TypeVar("R")

MEMORY = 256 * 2**20  # bytes: what sort holds in memory before it spills sorted runs
CHUNK = 4096  # items a verb reads at a time (in C, by islice)
FAN_IN = 64  # the most runs a merge reads at once
FRAME = 32 * 2**10  # bytes: the least frame of a run read back, unless the budget is smaller
FRAME_MOST = 256 * 2**10  # bytes: the most (larger frames only read slower, out of cache)
POINTERS = 12  # bytes an item held costs beside itself: its place in the list, in the
# sort's scratch (half a list) and the list's room to grow; and with a key, KEYED more
KEYED = 12  # bytes: an item's place in the sort's list of keys and in its scratch
PREFIX = "lazyfun-sort-"  # a spill folder's name: PREFIX, the owner's pid, "-", random
_SPILL_FOLDER = re.compile(re.escape(PREFIX) + r"(\d+)-[a-z0-9_]+\Z")


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


def _values(item: object) -> Iterable[object]:
    """What ``item`` holds that a key may give as it is: a dict's values, a sequence's
    items, an object's attributes (none known: nothing)."""
    if isinstance(item, dict):
        return item.values()
    if isinstance(item, list | tuple):
        return item
    fields = getattr(item, "__dict__", None)
    return fields.values() if isinstance(fields, dict) else ()


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
    ``memory`` bytes at any size and any budget.  An item whose key raises is left out
    and its error kept in ``errors``.  ``close`` removes the temporary files.

    While it reads, it holds what the budget has room for (an item costs its
    :func:`size_of`, its pointers, and its key's, unless the key is one of its values);
    past it, what it holds is sorted and
    written as a run, in frames of ``frame_bytes``, to a folder of ``tmpdir`` (the
    system's temporary folder by default) named for its process, ``lazyfun-sort-<pid>-…``.
    At the end the runs are merged in passes of at most ``fan_in`` runs (``heapq.merge``:
    stable, the earlier run first on equal keys), each pass writing longer runs, until
    one merge of at most ``fan_in`` runs gives the items, lazily.  A merge holds a frame
    of each run it reads (and of the run it writes), ``fan_in + 1`` frames of
    ``frame_bytes``: half the budget; of the items read last, what passes the other
    half is spilled too, the rest stays in memory.  Beside ``memory``, a sort holds a fixed
    overhead: a file's buffer (8 KiB) for each of at most :data:`FAN_IN` runs open at
    once, and one frame's pickled bytes as it is read or written.

    The first spill of a process's sort removes the spill folders of processes that
    are no longer alive (a sort killed with its process leaves its folder behind).
    """

    def __init__(
        self,
        key: Callable[[T], Any] | None,
        reverse: bool,
        memory: int,
        tmpdir: str | os.PathLike[str] | None = None,
    ) -> None:
        self.key, self.reverse, self.memory, self.tmpdir = key, reverse, memory, tmpdir
        # the fan-in: frames of at least FRAME bytes in half the budget, 2 to FAN_IN
        self.fan_in = max(2, min(FAN_IN, memory // (2 * FRAME) - 1))
        self.frame_bytes = max(1, min(FRAME_MOST, memory // (2 * (self.fan_in + 1))))
        self.items: list[T] = []
        self.held = 0  # bytes, estimated from one item a chunk
        self.each = 0  # bytes an item, as last measured
        self.runs: list[str] = []
        self.made = 0  # runs written (a merge pass's too), and names them
        self.spilled = 0  # the bytes of the runs written
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
        self.each = self._measure(chunk[len(chunk) // 2])  # the item in the middle
        self.held += len(chunk) * self.each
        if self.held >= self.memory:
            self._sorted()
            self._spill()

    def _measure(self, item: T) -> int:
        """The bytes an item held costs: itself, its pointers, and its key (the sort
        keeps each item's), unless the key is one of the item's own values."""
        each = POINTERS + size_of(item) * 9 // 8  # and the allocator's rounding up
        if self.key is not None:
            each += KEYED
            with contextlib.suppress(Exception):  # the sort reports it, in its place
                k = self.key(item)
                if not any(k is value for value in _values(item)):
                    each += size_of(k, 1)
        return each

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

    def _frame(self) -> int:
        """Items a frame: ``frame_bytes`` of them, by the last item measured."""
        return max(1, self.frame_bytes // max(1, self.each))

    def _spill(self) -> None:
        """Write the items held (sorted) as a run, and let go of them."""
        items, self.items = self.items, []
        self.runs.append(self._write(iter(items)))
        del items
        self.held = 0

    def _write(self, items: Iterator[T]) -> str:
        """A new run of ``items`` (in order), in frames; its path."""
        if self.folder is None:
            parent = tempfile.gettempdir() if self.tmpdir is None else os.fspath(self.tmpdir)
            sweep(parent)
            self.folder = tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-", dir=parent)
        path = os.path.join(self.folder, f"run{self.made}")
        self.made += 1
        frame = self._frame()
        with open(path, "wb") as file:
            while True:
                part = list(islice(items, frame))
                if not part:
                    break
                pickle.dump(part, file, pickle.HIGHEST_PROTOCOL)
            self.spilled += file.tell()
        return path

    def _merged(self, runs: list[Any]) -> Iterator[T]:
        key: Any = self.key  # heapq's stub wants a key of comparables; the items' own order
        return heapq.merge(*runs, key=key, reverse=self.reverse)

    def _pass(self) -> None:
        """Merge each ``fan_in`` runs in turn into one (in their order, so the merge
        stays stable)."""
        runs, self.runs = self.runs, []
        for start in range(0, len(runs), self.fan_in):
            group = runs[start : start + self.fan_in]
            if len(group) == 1:
                self.runs.append(group[0])
                continue
            self.readers = [_read_run(path) for path in group]
            self.runs.append(self._write(self._merged(self.readers)))
            for reader in self.readers:
                reader.close()
            self.readers = []
            for path in group:
                os.remove(path)

    def output(self) -> Iterator[T]:
        """The items in order: from memory, or merged from the runs and what is held."""
        self._sorted()
        if not self.runs:
            items, self.items = self.items, []
            return iter(items)
        if self.held > self.memory // 2:  # what crowds the merge's frames, spilled
            cut = len(self.items) - len(self.items) * (self.memory // 2) // self.held
            self.runs.append(self._write(islice(self.items, cut)))  # before the rest, so
            del self.items[:cut]  # the merge stays stable
            self.held = self.memory // 2
        while len(self.runs) > self.fan_in:
            self._pass()
        self.readers = [_read_run(path) for path in self.runs]
        return self._merged([*self.readers, self.items])

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


def _alive(pid: int) -> bool:
    """Whether process ``pid`` is alive (signal 0 tests it and sends nothing); a process
    of another user is."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # another user's, or no pid at all: not ours to judge
    return True


def sweep(parent: str) -> list[str]:
    """Remove the spill folders in ``parent`` of processes no longer alive (their pid in
    the name, ``lazyfun-sort-<pid>-…``); the folders removed.  Only on POSIX, where
    signal 0 tests a process without touching it.

    >>> sweep("/no/such/folder")
    []
    """
    removed: list[str] = []
    if os.name != "posix":
        return removed
    try:
        names = os.listdir(parent)
    except OSError:
        return removed
    for name in names:
        found = _SPILL_FOLDER.match(name)
        if found is None:
            continue
        pid = int(found[1])
        if pid == os.getpid() or _alive(pid):
            continue
        path = os.path.join(parent, name)
        shutil.rmtree(path, ignore_errors=True)
        removed.append(path)
    return removed


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
    _FIELD_NAMES[get] = on
    return get


_FIELD_NAMES: weakref.WeakKeyDictionary[Callable[[Any], Any], str] = weakref.WeakKeyDictionary()
# the name each getter :func:`field` made reads (a generated loop reads it inline)


class KeyMismatch(ValueError):
    """A join whose keys are of two types that never equal each other (an id read as a
    string on one side, as a number on the other): the join would miss silently.  It
    names both types, the key of this side and its item (from 1), and the other side's
    key of that type seen first (a merge join: its row).  Two types may match when one
    is the other's subclass, both are numbers (``1 == 1.0``), or one is None (a missing
    key, which a merge join cannot order, so there it is a mismatch too)."""

    def __init__(self, message: str, this: type, other: type) -> None:
        super().__init__(message)
        self.this, self.other = this, other


def _may_equal(a: type, b: type) -> bool:
    """Whether keys of types ``a`` and ``b`` can be equal (see :class:`KeyMismatch`)."""
    if issubclass(a, b) or issubclass(b, a) or a is type(None) or b is type(None):
        return True
    return issubclass(a, numbers.Number) and issubclass(b, numbers.Number)


def _mismatch(this: Any, item: int, other: Any, where: str) -> KeyMismatch:
    """The error of this side's key ``this`` (at ``item``) against the other side's
    ``other`` (seen ``where``)."""
    mine, theirs = type(this), type(other)
    return KeyMismatch(
        f"join: this side's key {this!r} ({mine.__name__}, item {item}) can never equal "
        f"the other side's keys ({theirs.__name__}: {other!r}, {where}); the join would "
        "miss silently. Make both sides' keys one type (e.g. on=lambda r: int(r['id']))",
        mine,
        theirs,
    )


class HashTable(Generic[T]):
    """The other side of a hash join: its items by key, in their order, holding at most
    ``memory`` bytes (a ValueError with the reason beyond it).  A key of this side that
    finds no rows is checked by its type (:meth:`check`): one that can equal none of
    the table's keys' types is a :class:`KeyMismatch` at its place."""

    def __init__(self, key: Callable[[T], Any], memory: int | None) -> None:
        self.key, self.memory = key, memory
        self.rows: dict[Any, list[T]] = {}
        self.held = 0
        self.errors: deque[Exception] = deque()
        # the key types a missing key may have (a set lookup a miss); the first key of
        # each type of the table's, worked out at the first miss
        self.matching: set[type] = {type(None)}
        self.firsts: dict[type, Any] | None = None

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

    def check(self, k: Any, item: int) -> None:
        """A key ``k`` of this side's ``item`` that found no rows, and whose type is not
        in ``matching``: a KeyMismatch if it can equal none of the table's keys (an
        empty table matches every type)."""
        if self.firsts is None:
            self.firsts = {}
            for key in self.rows:  # once, by distinct key
                self.firsts.setdefault(type(key), key)
        kind = type(k)
        if not self.firsts or any(_may_equal(kind, other) for other in self.firsts):
            self.matching.add(kind)
            return
        first = next(iter(self.firsts.values()))
        raise _mismatch(k, item, first, "the first")

    def pairs(self, item: T, k: Any, left: bool, index: int) -> list[tuple[T, Any]]:
        """The pairs ``item`` (whose key is ``k``, the ``index``-th item) makes: one a
        matching row, or with ``left`` ``(item, None)`` when none matches."""
        rows = self.rows.get(k)
        if rows is None:
            if type(k) not in self.matching:
                self.check(k, index)
            return [(item, None)] if left else []
        return [(item, row) for row in rows]


_END: Any = object()


class OutOfOrder(ValueError):
    """A merge join's input whose keys are not in order (the join ends there)."""


class MergeJoin:
    """A merge join's state: the other side's rows of the key in hand, read from an
    iterator sorted on its key; a key out of order on either side is a ValueError, and
    keys that do not compare (of two types) a :class:`KeyMismatch`: either ends it."""

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
        if self.next_key is not _END:
            try:
                behind = k < self.next_key
            except TypeError:
                self.done = True
                raise KeyMismatch(
                    f"join(sorted=True): the other side's keys do not compare: row "
                    f"{self.read} has {k!r} ({type(k).__name__}) after {self.next_key!r} "
                    f"({type(self.next_key).__name__})",
                    type(k),
                    type(self.next_key),
                ) from None
            if behind:
                self.done = True
                raise OutOfOrder(
                    f"join(sorted=True): the other side is not sorted on its key: row "
                    f"{self.read} has {k!r} after {self.next_key!r}"
                )
        self.next_row, self.next_key = row, k

    def matches(self, k: Any, item: int = 0) -> list[Any]:
        """The other side's rows of key ``k``, of this side's ``item`` (the left keys
        must come in order)."""
        try:
            behind = self.last_left is not _END and k < self.last_left
        except TypeError:
            raise KeyMismatch(
                f"join(sorted=True): this side's keys do not compare: item {item} has "
                f"{k!r} ({type(k).__name__}) after {self.last_left!r} "
                f"({type(self.last_left).__name__})",
                type(k),
                type(self.last_left),
            ) from None
        if behind:
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
            try:
                ahead = self.next_row is _END or k < self.next_key
            except TypeError:
                raise _mismatch(k, item, self.next_key, f"row {self.read}") from None
            if ahead:
                self.complete = True  # every row of the key read (an error of the other
                return self.rows  # side raised above leaves it to be gone on with)
            if self.next_key == k:
                self.rows.append(self.next_row)
            self.next_row = _END


class MergeJoining:
    """A merge join's step, sync or async, but for how it reads its source: the item in
    hand, its key, the pairs ready to give; the other side's error passes on and the
    item stays in hand; a key out of order, or keys that do not compare, end the join."""

    def __init__(self, key: Callable[[Any], Any], join: MergeJoin, left: bool) -> None:
        self.key, self.join, self.left = key, join, left
        self.item: Any = None
        self.k: Any = None
        self.taken = 0  # items taken, the one in hand the last
        self.waiting = False  # an item whose rows were not all read (the other side raised)
        self.ready: deque[tuple[Any, Any]] = deque()
        self.ended = False

    def take(self, item: Any) -> None:
        """``item`` in hand, its rows to find."""
        self.taken += 1
        self.item, self.k = item, self.key(item)
        self.waiting = True

    def match(self) -> None:
        """The pairs of the item in hand."""
        try:
            rows = self.join.matches(self.k, self.taken)
        except (OutOfOrder, KeyMismatch):
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


# --- keyed aggregates -----------------------------------------------------------------


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


class _Exact(list[float]):
    """A running sum, exact: its floats as ``[hi, lo, *more]``, floats whose sum is exactly
    theirs (empty until the first float): each float ``x`` is added by Knuth's TwoSum,
    ``hi + x == s + e`` and ``lo + e == t + f`` exactly, so ``hi, lo = s, t`` and ``f`` joins
    ``more`` only when it is not zero (rare: ``lo`` holds what ``hi`` lost, at most a few
    dozen bits; ``more`` folded into partials past ``SPARE``), two floats a key in practice;
    its ints added as ints, anything else (a Decimal, a Fraction, a timedelta) with ``+``."""

    __slots__ = ("ints", "other")

    def __init__(self) -> None:
        super().__init__()
        self.ints: int | None = None
        self.other: Any = _END


SPARE = 32  # floats a sum gathers beyond its two before it folds them into its partials


def _partials(values: list[float]) -> list[float]:
    """Floats whose sum is exactly the sum of ``values`` (which it takes for its own),
    largest first: the sum correctly rounded (``math.fsum``), then what it left out,
    rounded, until nothing is (each left-out part is below half an ulp of the last:
    two or three steps).  Past the floats' range, the plain sum (inf, as ``sum``)."""
    parts: list[float] = []
    try:
        while True:
            part = math.fsum(values)
            if not part or not math.isfinite(part):
                return parts or [part]
            parts.append(part)
            values.append(-part)
    except OverflowError:  # an intermediate sum past the floats' range
        return [sum(values[: len(values) - len(parts)])]


def _rounded(values: list[float]) -> float:
    """The sum of ``values`` correctly rounded (``math.fsum``); past the floats' range on
    the way, the plain sum (inf, as ``sum``)."""
    try:
        return math.fsum(values)
    except OverflowError:
        return sum(values)


def _int_floats(n: int) -> list[float]:
    """Floats whose sum is exactly ``n``."""
    parts: list[float] = []
    while n:
        part = float(n)
        parts.append(part)
        n -= int(part)
    return parts


def _add_float(acc: _Exact, x: float) -> None:
    """``acc`` plus the float ``x``, exactly (TwoSum twice; see :class:`_Exact`)."""
    if not acc:
        acc += (x, 0.0)
        return
    hi, lo = acc[0], acc[1]
    s = hi + x
    z = s - hi
    e = (hi - (s - z)) + (x - z)  # hi + x == s + e
    t = lo + e
    z = t - lo
    f = (lo - (t - z)) + (e - z)  # lo + e == t + f
    if f:  # a part left over, or inf or nan past the floats' range
        _spill_float(acc, x, s, t, f)
    else:
        acc[0], acc[1] = s, t


def _spill_float(acc: _Exact, x: float, s: float, t: float, f: float) -> None:
    """The rare case of :func:`_add_float`: ``f``, the part ``hi, lo = s, t`` leave out,
    kept beside them; ``x`` itself when the TwoSums left the floats' range (``f`` inf or
    nan), for :func:`math.fsum` to judge at the end; past ``SPARE`` of them, all folded."""
    if math.isfinite(f):
        acc[0], acc[1] = s, t
        acc.append(f)
    else:
        acc.append(x)
    if len(acc) > SPARE:
        parts = _partials(list(acc))
        acc[:] = parts if len(parts) > 1 else [parts[0], 0.0]


class _Sum(_Reduction):
    """The sum, exact: ints stay ints; floats (and ints among them) give the exact sum
    rounded once, as ``math.fsum``; other values are added with ``+``, then to that."""

    def start(self, value: Any) -> Any:
        return self.step(_Exact(), value)

    def step(self, acc: Any, value: Any) -> Any:
        if type(value) is float:  # the common case first
            _add_float(acc, value)
        elif isinstance(value, float):
            _add_float(acc, float(value))
        elif isinstance(value, int):
            acc.ints = value if acc.ints is None else acc.ints + value
        else:
            acc.other = value if acc.other is _END else acc.other + value
        return acc

    def end(self, acc: Any) -> Any:
        total: Any = acc.ints
        if acc:  # floats: two at least, once one came
            if len(acc) == 2 and not acc[1] and total is None:
                total = acc[0]  # as fsum([x]) is x, -0.0 too
            else:
                total = _rounded([*acc, *_int_floats(acc.ints or 0)])
        if acc.other is _END:
            return total
        return acc.other if total is None else acc.other + total


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


def one_key(item: object) -> None:
    """The one key of reductions over a whole group (a window's): None, for any item."""
    return None


class Accumulators:
    """Per key, the running state of each named reduction (``aggregate``), or of ``fn``
    from a copy of ``initial`` (``reduce_by``; a list folded in place is each key's own):
    memory by the number of keys, not of items.  An
    item whose key or value raises changes nothing and its error passes on.

    The named reductions' loop is written once for their set (:func:`_adder`): per item,
    its key, its values (all read before any state changes), then each state's start or
    step inline, with no list of values, no call per reduction, no method lookups.

    >>> acc = Accumulators(len, reductions({"n": "count", "s": ("sum", len)}))
    >>> acc.add_all(["ab", "cd", "e"])
    >>> acc.output()
    {2: {'n': 2, 's': 4}, 1: {'n': 1, 's': 1}}
    """

    def __init__(
        self,
        by: Callable[[Any], Any],
        named: list[tuple[str, _Reduction, Callable[[Any], Any]]] | None = None,
        fold: tuple[Callable[[Any, Any], Any], Any] | None = None,
        memory: int | None = None,
        what: str = "aggregate",
    ) -> None:
        self.by, self.named, self.fold = by, named, fold
        self.memory, self.what = memory, what
        self.state: dict[Any, Any] = {}
        self.held = 0  # about how many bytes the keys' states take, counted with a budget
        self._grown = None if memory is None else self.grown
        self._add_all = _adder(by, named) if named is not None else None

    def fresh(self) -> Accumulators:
        """Accumulators of the same reductions and budget, from nothing (a window's)."""
        fresh = Accumulators.__new__(Accumulators)
        fresh.by, fresh.named, fresh.fold = self.by, self.named, self.fold
        fresh.memory, fresh.what, fresh.held = self.memory, self.what, 0
        fresh.state, fresh._add_all = {}, self._add_all
        fresh._grown = None if self.memory is None else fresh.grown
        return fresh

    def grown(self, k: Any) -> None:
        """Count the state just made for the new key ``k`` (its key, its state and a
        dict entry); past the budget, a ValueError with the reason."""
        assert self.memory is not None
        self.held += _ENTRY + size_of(k) + size_of(self.state[k])
        if self.held > self.memory:
            raise ValueError(
                f"{self.what}: the states of {len(self.state):,} keys passed "
                f"memory={self.memory:,} bytes; it holds one state a key. Use a key with "
                "fewer values, or windows (every=, within=), each holding its own keys"
            )

    def add(self, item: Any) -> None:
        """One item into its key's state."""
        if self._add_all is not None:
            self._add_all((item,), self.state, self._grown)
        else:
            self.add_all((item,))

    def add_all(self, items: Iterable[Any]) -> None:
        """Each of ``items`` into its key's state, in order; an item's error passes on
        at once (the items before it are in, it and those after it are not)."""
        state = self.state
        if self._add_all is not None:
            self._add_all(items, state, self._grown)
            return
        assert self.fold is not None
        fn, initial = self.fold
        get, counted = state.get, self.memory is not None
        for item in items:
            k = self.by(item)
            acc = get(k, _END)
            state[k] = fn(copy.copy(initial) if acc is _END else acc, item)
            if counted and acc is _END:
                self.grown(k)

    def output(self) -> dict[Any, Any]:
        """The aggregates so far, and a fresh start (a window's end)."""
        state, self.state, self.held = self.state, {}, 0
        if self.named is None:
            return state
        ends = [r.end for _, r, _ in self.named]
        names = [name for name, _, _ in self.named]
        if all(type(r) in _PLAIN_END for _, r, _ in self.named):
            return {k: dict(zip(names, accs, strict=True)) for k, accs in state.items()}

        def ended(accs: list[Any]) -> dict[str, Any]:
            values = {name: end(acc) for name, end, acc in zip(names, ends, accs, strict=True)}
            accs.clear()  # a key's state let go as its values are made: not both held
            return values

        return {k: ended(accs) for k, accs in state.items()}


_ENTRY = 64  # bytes a key's entry takes in a dict of states, its growth included

_PLAIN_END: tuple[type, ...] = (_Count, _Min, _Max, _First, _Last)  # their state is the value

# Each reduction's code in the loop of :func:`_adder`: its value read (or not), its start
# (an expression), its step (statements on ``accs[{i}]``, ``v{i}``).  A reduction of a
# type not here is called: ``r{i}.start(v{i})``, ``accs[{i}] = r{i}.step(accs[{i}], v{i})``.
_CODE: dict[type, tuple[bool, str, str]] = {
    _Count: (False, "1", "accs[{i}] += 1"),
    _Sum: (
        True,
        "r{i}.start(v{i})",
        "if type(v{i}) is float:\n"
        "    a = accs[{i}]\n"
        "    if a:\n"
        "        hi = a[0]\n"
        "        lo = a[1]\n"
        "        s = hi + v{i}\n"
        "        z = s - hi\n"
        "        e = (hi - (s - z)) + (v{i} - z)\n"
        "        t = lo + e\n"
        "        z = t - lo\n"
        "        f = (lo - (t - z)) + (e - z)\n"
        "        if f:\n"
        "            spill(a, v{i}, s, t, f)\n"
        "        else:\n"
        "            a[0] = s\n"
        "            a[1] = t\n"
        "    else:\n"
        "        a += (v{i}, 0.0)\n"
        "else:\n"
        "    r{i}.step(accs[{i}], v{i})",
    ),
    _Min: (True, "v{i}", "if v{i} < accs[{i}]:\n    accs[{i}] = v{i}"),
    _Max: (True, "v{i}", "if accs[{i}] < v{i}:\n    accs[{i}] = v{i}"),
    _First: (True, "v{i}", "pass"),
    _Last: (True, "v{i}", "accs[{i}] = v{i}"),
}


def _adder(
    by: Callable[[Any], Any], named: list[tuple[str, _Reduction, Callable[[Any], Any]]]
) -> Callable[[Iterable[Any], dict[Any, Any], Callable[[Any], None] | None], None]:
    """The loop that adds items to the states of ``named``, written for them and compiled
    once: for each item, ``k = by(item)``, each value ``v{i} = g{i}(item)`` (a
    :func:`field`'s read inline), then a new
    key's ``[start, ...]`` (and ``grown(k)``, given a budget's) or each state's step, as
    :data:`_CODE` has them (equal, item for item, to ``r.start``/``r.step`` of each
    reduction)."""
    reads: list[str] = []
    starts: list[str] = []
    steps: list[str] = []
    names: dict[str, Any] = {"by": by, "spill": _spill_float}
    for i, (_, r, get) in enumerate(named):
        read, start, step = _CODE.get(
            type(r), (True, "r{i}.start(v{i})", "accs[{i}] = r{i}.step(accs[{i}], v{i})")
        )
        names[f"r{i}"], names[f"g{i}"] = r, get
        if read and get in _FIELD_NAMES:  # field(name): read inline, as it reads
            names[f"n{i}"] = _FIELD_NAMES[get]
            reads += [
                "        try:",
                f"            v{i} = item[n{i}]",
                "        except TypeError:",
                f"            v{i} = getattr(item, n{i})",
            ]
        elif read:
            reads.append(f"        v{i} = g{i}(item)")
        starts.append(start.format(i=i))
        steps.extend("            " + line for line in step.format(i=i).splitlines())
    source = "\n".join(
        [
            f"def make({', '.join(names)}):",
            "    def add_all(items, state, grown):",
            "        get = state.get",
            "        for item in items:",
            "            k = None" if by is one_key else "            k = by(item)",
            *("    " + read for read in reads),
            "            accs = get(k)",
            "            if accs is None:",
            f"                state[k] = [{', '.join(starts)}]",
            "                if grown is not None:",
            "                    grown(k)",
            "                continue",
            *steps,
            "    return add_all",
        ]
    )
    scope: dict[str, Any] = {}
    exec(compile(source, f"<aggregate of {', '.join(n for n, _, _ in named)}>", "exec"), scope)
    made: Callable[[Iterable[Any], dict[Any, Any], Callable[[Any], None] | None], None]
    made = scope["make"](**names)
    return made


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
