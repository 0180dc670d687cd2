"""The joins' work: the other side of a hash join held by its keys within a memory
budget (:class:`HashTable`), a merge join of two inputs sorted on their keys
(:class:`MergeJoin`; its step, sync or async, but for its read: :class:`MergeJoining`), and
the errors that refuse or end a join: keys of two types that never equal each other
(:class:`KeyMismatch`), keys out of order (:class:`OutOfOrder`).

Like every verb's core, each knows nothing of how its items arrive: a sync or an async
step feeds it and reads what it gives.
"""

from __future__ import annotations

import numbers
from collections import deque
from collections.abc import Callable, Iterator
from itertools import islice
from typing import Any, Generic, TypeVar

from lazyfun.streams.sorting import CHUNK, size_of

__all__ = [
    "HashTable",
    "KeyMismatch",
    "MergeJoin",
    "MergeJoining",
    "OutOfOrder",
]

T = TypeVar("T")


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
    ``memory`` bytes (a ValueError with the reason beyond it).  Each key's first row is
    in ``first`` (the keys in the order they came), the rows after it, of a key that has
    more, in ``more``: a key of one row, the usual case, is found in one lookup.  Keys
    that are all ints from 0 to less than twice their number (ids) have their first
    rows in a list as well, at their key (:meth:`indexed`).  A key of this side that
    finds no rows is checked by its type (:meth:`check`): one that can equal none of
    the table's keys' types is a :class:`KeyMismatch` at its place."""

    def __init__(self, key: Callable[[T], Any], memory: int | None) -> None:
        self.key, self.memory = key, memory
        self.first: dict[Any, T] = {}
        self.more: dict[Any, list[T]] = {}
        self.count = 0  # the rows held
        self.index: list[Any] = []  # first[k] at k, MISSING where no key (see indexed)
        self.held = 0
        self.errors: deque[Exception] = deque()
        # the key types a missing key may have (a set lookup a miss); the first key of
        # each type of the table's, worked out at the first miss
        self.matching: set[type] = {type(None)}
        self.firsts: dict[type, Any] | None = None

    def add(self, chunk: list[T]) -> None:
        """Hold the rows of ``chunk`` (a row whose key raises left out, its error kept)."""
        key, first, more = self.key, self.first, self.more
        keys, errors = len(first), len(self.errors)
        for item in chunk:
            try:
                k = key(item)
            except Exception as error:
                self.errors.append(error)
                continue
            first.setdefault(k, item)
            if len(first) == keys:  # a key seen before: a row after its first
                more.setdefault(k, []).append(item)
            keys = len(first)
        self.count += len(chunk) - (len(self.errors) - errors)
        if self.memory is not None and chunk:
            self.held += len(chunk) * (64 + size_of(chunk[0]))
            if self.held > self.memory:
                raise ValueError(
                    f"join: the other side passed memory={self.memory:,} bytes after "
                    f"{self.count:,} items; a hash join holds it all. Sort "
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
                self.indexed()
                return

    def indexed(self) -> None:
        """The first rows in ``index`` at their keys, when every key is an int (not a
        bool) from 0 to less than twice the keys' number, and the list (8 bytes a place)
        fits the memory budget: an int key in its range is read there, one index
        instead of a dict's lookup, and finds there what ``first`` holds for it."""
        first = self.first
        if not first or set(map(type, first)) != {int} or min(first) < 0:
            return
        size = max(first) + 1
        if size > 2 * len(first) or (
            self.memory is not None and self.held + 8 * size > self.memory
        ):
            return
        index = [MISSING] * size
        for k, row in first.items():
            index[k] = row
        self.index = index

    def check(self, k: Any, item: int) -> None:
        """A key ``k`` of this side's ``item`` that found no rows, and whose type is not
        in ``matching``: a KeyMismatch if it can equal none of the table's keys (an
        empty table matches every type)."""
        if self.firsts is None:
            self.firsts = {}
            for key in self.first:  # once, by distinct key
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
        placed = self.index
        row = placed[k] if type(k) is int and 0 <= k < len(placed) else self.first.get(k, MISSING)
        if row is MISSING:
            if type(k) not in self.matching:
                self.check(k, index)
            return [(item, None)] if left else []
        pairs = [(item, row)]
        if self.more:
            pairs.extend((item, row) for row in self.more.get(k, ()))
        return pairs


MISSING: Any = object()  # what ``HashTable.first.get(k, MISSING)`` gives a key of no rows


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
