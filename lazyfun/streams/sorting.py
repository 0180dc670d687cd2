"""The sort's and top's work, each in bounded memory: :class:`Sorter` (sorted runs spilled
to temporary files beyond a memory budget, merged lazily; :func:`sweep` removes the spill
folders a process killed left behind) and :class:`Top` (the ``k`` least items, holding ``k``
and a chunk); and :func:`size_of`, what an item costs in each verb's budget (a sort's, a
hash join's in :mod:`lazyfun.streams.joins`, a keyed fold's in :mod:`lazyfun.streams.verbs`).

Like every verb's core, each knows nothing of how its items arrive: a sync or an async
step feeds it chunks and reads what it gives.

>>> sorter = Sorter(None, False, MEMORY)
>>> sorter.add([3, 1, 2])
>>> list(sorter.output())
[1, 2, 3]
"""

from __future__ import annotations

import contextlib
import heapq
import math
import operator
import os
import re
import shutil
import sys
import tempfile
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from functools import partial
from itertools import chain, islice
from typing import Any, Generic, TypeVar

from lazyfun.compiled import PURE_ENV
from lazyfun.streams.frames import Frames

try:  # the C flow engine's sort of a run by its key's fields, beside _by_each_field's
    from lazyfun.streams.sync import _flow  # which import-linter cannot read
except ImportError:  # built without a C compiler
    BY_FIELDS = FIELDS_OF = CALLS = None
else:
    BY_FIELDS = None if os.environ.get(PURE_ENV) else _flow.by_fields
    FIELDS_OF = None if os.environ.get(PURE_ENV) else _flow.fields_of
    CALLS = None if os.environ.get(PURE_ENV) else _flow.Calls  # explain's count of a key's calls

__all__ = [
    "CHUNK",
    "MEMORY",
    "Sorter",
    "Top",
    "size_of",
    "sweep",
]

T = TypeVar("T")

MEMORY = 256 * 2**20  # bytes: what sort holds in memory before it spills sorted runs
CHUNK = 4096  # items a verb reads at a time (in C, by islice)
FAN_IN = 64  # the most runs a merge reads at once
FRAME = 32 * 2**10  # bytes: the least frame of a run read back, unless the budget is smaller
FRAME_MOST = 256 * 2**10  # bytes: the most (larger frames only read slower, out of cache)
POINTERS = 20  # bytes an item held costs beside itself: its place in the list, in the
# sorted copy a run is written from, in the sort's scratch (half a list) and the list's
# room to grow; and with a key, KEYED more
KEYED = 12  # bytes: an item's place in the sort's list of keys and in its scratch
BLOCK = 64  # bytes: an item's place in a merge's block: in its list of items, its
# fields' lists (or keys), its entry in the order the block is merged in, and in the block given
PREFIX = "lazyfun-sort-"  # a spill folder's name: PREFIX, the owner's pid, "-", random
_SPILL_FOLDER = re.compile(re.escape(PREFIX) + r"(\d+)-[a-z0-9_]+\Z")


def size_of(item: object, depth: int = 2) -> int:
    """About how many bytes ``item`` takes: its own size and its contents' (a dict's
    values, a sequence's or a set's items, the fields of a msgspec Struct or of a class
    with ``__slots__``), ``depth`` levels down.  A dict's string keys are not counted:
    the records of a stream share them (a decoder makes each once).

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
    else:
        for name in _slots(type(item)):
            size += size_of(getattr(item, name, None), depth - 1)
    return size


def _slots(kind: type) -> tuple[str, ...]:
    """The fields a class's objects hold in slots of their own, which ``sys.getsizeof``
    does not count: a msgspec Struct's, or its ``__slots__`` (an object with a
    ``__dict__`` is left at its own size: reading that would make one)."""
    names = _SLOTS.get(kind)
    if names is None:
        found = getattr(kind, "__struct_fields__", None)
        found = getattr(kind, "__slots__", ()) if found is None else found
        names = _SLOTS[kind] = tuple(found) if isinstance(found, tuple) else ()
    return names


_SLOTS: dict[type, tuple[str, ...]] = {}  # each class's, once asked


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
    past it, what it holds is sorted and written as a run, in frames of ``frame_bytes``,
    to a folder of ``tmpdir`` (the system's temporary folder by default) named for its
    process, ``lazyfun-sort-<pid>-…``.  At the end the runs are merged in passes of at
    most ``fan_in`` runs (stable: the earlier run first on equal keys), each pass
    writing longer runs, until one merge of at most ``fan_in`` runs and what is held
    gives the items, lazily.  A merge reads its runs a frame at a time and gives them a
    block at a time: what the frames it holds hold up to the first of their last keys,
    each frame's part found by bisection (the key found of a few of its items), the
    parts merged as one list (in C by the key's fields where the key is a getter of
    plain fields, else sorted by their keys, which finds the parts' sorted runs and
    merges them).  A merge holds a frame of each run it reads (and of the run it
    writes), ``fan_in + 1`` frames of ``frame_bytes``, their items' places in a block
    counted: half the budget; of the items read last, what passes the other half is
    spilled too, the rest stays in memory.  Beside ``memory``, a sort holds a fixed
    overhead: a file's buffer (8 KiB) for each of at most :data:`FAN_IN` runs open at
    once, and one frame's bytes as it is read or written
    (:mod:`lazyfun.streams.frames`).

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
        self.readers: list[Generator[list[T], None, None]] = []
        self.frames = Frames()  # how the frames are written and read back

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

    def _sorted(self) -> list[T]:
        """The items held, sorted, in a list of their own: the list held keeps the order
        they were read in (less an item whose key raises, its error kept)."""
        key: Any = self.key  # the stubs want a key of comparables; the items' own order
        try:
            if key is None:
                own: Any = self.items  # the stubs want comparables; the items' own order
                return sorted(own, reverse=self.reverse)
            fields = _named_fields(key, self.items)
            if fields is not None:  # the getter's fields, read a field at a time
                by_named = _by_each_field(self.items, fields, self.reverse)
                if by_named is not None:
                    return by_named
                return _by_keys(list(self.items), list(zip(*fields, strict=True)), self.reverse)
            keys = list(map(key, self.items))
            by_fields = _by_fields(self.items, keys, self.reverse)
            if by_fields is not None:
                return by_fields
            return _by_keys(list(self.items), keys, self.reverse)
        except Exception:
            if key is None:
                raise  # items that do not compare: no item's own fault
            kept = _sift(self.items, key, self.errors)
            if len(kept) == len(self.items):
                raise
            self.items = kept
            return sorted(kept, key=key, reverse=self.reverse)

    def _frame(self) -> int:
        """Items a frame: ``frame_bytes`` of them, by the last item measured, each with
        its place in a merge's block."""
        return max(1, self.frame_bytes // (self.each + BLOCK))

    def _spill(self) -> None:
        """Write the items held, sorted, as a run, and let go of them: of the sorted list
        first (nothing is freed, the list held has them all), then of the list held, so
        they are freed in the order they were read, the order they lie in memory in
        (freed in sorted order, each far from the last, they take several times longer:
        the cache misses each)."""
        ordered = self._sorted()
        self.runs.append(self._write(iter(ordered)))
        del ordered
        self.items = []
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
                self.frames.write(file, part)
            self.spilled += file.tell()
        return path

    def _merged(self, sources: Sequence[Iterator[list[T]]]) -> Iterator[T]:
        """The items of ``sources`` (each sorted, in frames), merged stably: the earlier
        source's first on equal keys."""
        return chain.from_iterable(self._blocks(sources))

    def _blocks(self, sources: Sequence[Iterator[list[T]]]) -> Iterator[list[T]]:
        """The merge of ``sources``, a block at a time: what the frames held hold up to
        the first of their last keys (which no item still unread comes before), their
        parts merged as one list (:meth:`_ordered`).  A frame's part is found by bisection
        on its items' keys: a key is found for a few items of a frame, not for each; a
        heap would take an item at a time, a Python step each."""
        before = operator.gt if self.reverse else operator.lt  # a key before another
        heads = [head for head in (_Head(source, self.key).next() for source in sources) if head]
        while heads:
            first = 0  # the first source whose frame ends with the first last key
            for index in range(1, len(heads)):
                if before(heads[index].last, heads[first].last):
                    first = index
            bound = heads[first].last
            items: list[T] = []
            ends: list[int] = []  # where each source's part ends in items
            for index, head in enumerate(heads):
                # the bound's equals: this source's, those of the sources before it
                # (their frames hold all they have), none of the later ones' yet
                end = head.cut(bound, index <= first, before)
                if end > head.start:
                    items += head.items[head.start : end]
                    ends.append(len(items))
                    head.start = end
            yield items if len(ends) == 1 else self._ordered(items, ends)
            del items
            heads = [head for head in (head.more() for head in heads) if head]

    def _ordered(self, items: list[T], ends: list[int]) -> list[T]:
        """``items``, runs in order that end at ``ends``, in one order (stable: the
        earlier run's first on equal keys): the runs merged by the C engine where the key
        is a getter of plain fields (:func:`_by_each_field`), else sorted by their keys."""
        if self.key is None:
            own: Any = None  # the stubs want a key of comparables; the items' own order
            items.sort(key=own, reverse=self.reverse)
            return items
        fields = _named_fields(self.key, items)
        if fields is not None:
            merged = _by_each_field(items, fields, self.reverse, ends)
            if merged is not None:
                return merged
        return _by_keys(items, list(map(self.key, items)), self.reverse)

    def _pass(self) -> None:
        """Merge each ``fan_in`` runs in turn into one (in their order, so the merge
        stays stable)."""
        runs, self.runs = self.runs, []
        for start in range(0, len(runs), self.fan_in):
            group = runs[start : start + self.fan_in]
            if len(group) == 1:
                self.runs.append(group[0])
                continue
            self.readers = [self.frames.read(path) for path in group]
            self.runs.append(self._write(self._merged(self.readers)))
            for reader in self.readers:
                reader.close()
            self.readers = []
            for path in group:
                os.remove(path)

    def output(self) -> Iterator[T]:
        """The items in order: from memory, or merged from the runs and what is held."""
        self.items = self._sorted()
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
        self.readers = [self.frames.read(path) for path in self.runs]
        return self._merged([*self.readers, _frames(self.items, self._frame())])

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


def _frames(items: list[T], frame: int) -> Iterator[list[T]]:
    """``items`` in frames of ``frame`` items (copies, one at a time)."""
    for start in range(0, len(items), frame):
        yield items[start : start + frame]


def _by_keys(items: list[T], keys: list[Any], reverse: bool) -> list[T]:
    """``items`` (a list of its own, sorted in place) in the order of their ``keys``,
    stable, as :func:`_by_keys_reference` gives them: the sort's key is the next of
    ``keys``, in C, since a list's sort asks the key of each item once, in the list's
    order, before it compares any (CPython's ``list.sort``); no list of places is made
    and read back (half the time of a merge's block)."""
    given: Any = partial(next, iter(keys))  # the stubs want a key of comparables
    items.sort(key=given, reverse=reverse)
    return items


ORDERED = frozenset({int, str, bytes})  # types whose values compare as a total order


def _by_fields(items: list[T], keys: list[Any], reverse: bool) -> list[T] | None:
    """``items`` in a list of their own, sorted by their ``keys`` as ``sorted`` sorts
    them, where every key is a tuple of one length whose each field holds values of one
    type of :data:`ORDERED` (or floats, none NaN): :func:`_by_each_field` of the keys'
    fields.  None where the keys are not such tuples.

    >>> _by_fields(["b1", "a2", "a1"], [(2, "a"), (1, "b"), (1, "a")], False)
    ['a1', 'a2', 'b1']
    """
    if set(map(type, keys)) != {tuple}:
        return None
    widths = set(map(len, keys))
    if len(widths) != 1:
        return None
    fields = [list(map(operator.itemgetter(f), keys)) for f in range(widths.pop())]
    return _by_each_field(items, fields, reverse)


def _by_each_field(
    items: list[T], fields: list[list[Any]], reverse: bool, ends: list[int] | None = None
) -> list[T] | None:
    """``items`` in a list of their own, sorted by the tuples of their ``fields`` (a list
    a field, an item's value at its place), where each field holds values of one type of
    :data:`ORDERED` (or floats, none NaN): a stable sort by the last field, then by each
    field before it (a tuple's order is its fields' order, the first deciding), each
    comparing values of one type, which CPython's sort compares without a tuple's steps
    (twice as fast on (int, str) keys), the fields but the last sorted in place with
    them.  None where a field is not such, ``fields`` as they were.  The C engine's
    ``by_fields`` gives the same order in one merge sort, the first field's values
    compared in place and the later ones only on its ties; it checks the fields as it
    reads them, so they are checked here only where it gives None (a field not such, or
    an int past 64 bits).  Given ``ends``, the items hold runs in that order, each ending
    at the next end, which the engine merges (a merge's block); sorted here, they come
    in the same order, the sort being stable."""
    if BY_FIELDS is not None and items and isinstance(items, list):
        fast: list[T] | None = BY_FIELDS(items, fields, reverse, ends)
        if fast is not None:
            return fast
    for values in fields:
        kinds = set(map(type, values))
        if len(kinds) != 1 or not (kinds <= ORDERED or (kinds == {float} and _no_nan(values))):
            return None
    ordered = list(items)
    for f in reversed(range(len(fields))):
        given: Any = partial(next, iter(fields[f]))  # the stubs want a key of comparables
        ordered.sort(key=given, reverse=reverse)
        # the fields before it in the same order: the same stable sort of the same keys
        for earlier in fields[:f]:
            earlier.sort(key=partial(next, iter(fields[f])), reverse=reverse)
    return ordered


_GETTERS = (operator.attrgetter, operator.itemgetter)


def _named_fields(key: Callable[[Any], Any], items: list[Any]) -> list[list[Any]] | None:
    """The fields of the keys of ``items``, a list a field, where ``key`` is an
    ``attrgetter`` or ``itemgetter`` of several (its key the tuple of theirs): each read
    by a getter of its own, with no tuple made an item; None for another key.

    >>> _named_fields(operator.itemgetter(1, 0), [(1, "b"), (2, "a")])
    [['b', 'a'], [1, 2]]

    A getter that an analysed stream counts the calls of (explain's ``Calls``) is read
    the same way: its fields are read, it is not called, and no call is counted.
    """
    if CALLS is not None and type(key) is CALLS:
        counting: Any = key  # explain's Calls, its function as f
        key = counting.f
    if type(key) not in _GETTERS:
        return None
    getter: Any = key  # an attrgetter's or itemgetter's reduce: (its class, its names)
    made, names = getter.__reduce__()
    if len(names) < 2:
        return None
    if FIELDS_OF is not None and made is operator.attrgetter and isinstance(items, list):
        read: list[list[Any]] | None = FIELDS_OF(items, names)  # from the slots, in C
        if read is not None:
            return read
    return [list(map(made(name), items)) for name in names]


def _no_nan(values: list[float]) -> bool:
    """Whether none of ``values`` is NaN (which no order holds)."""
    return not any(map(math.isnan, values))


def _by_keys_reference(items: list[T], keys: list[Any], reverse: bool) -> list[T]:
    """:func:`_by_keys`, plainly: the places of ``items`` sorted by their keys, then the
    items in that order."""
    order = sorted(range(len(keys)), key=keys.__getitem__, reverse=reverse)
    return list(map(items.__getitem__, order))


class _Head(Generic[T]):
    """A source's frame as a merge reads it: its items, the key of its last, and where
    the items not given yet start."""

    __slots__ = ("items", "key", "last", "source", "start")

    def __init__(self, source: Iterator[list[T]], key: Callable[[T], Any] | None) -> None:
        self.source, self.key = source, key
        self.items: list[T] = []
        self.last: Any = None
        self.start = 0

    def next(self) -> _Head[T] | None:
        """This head on its source's next frame (with its last key); None past the last."""
        for frame in self.source:
            if frame:
                self.items, self.start = frame, 0
                self.last = frame[-1] if self.key is None else self.key(frame[-1])
                return self
        return None

    def more(self) -> _Head[T] | None:
        """This head, on its next frame once its frame is all given; None past the last."""
        return self if self.start < len(self.items) else self.next()

    def cut(self, bound: Any, through: bool, before: Callable[[Any, Any], bool]) -> int:
        """Where the frame's items up to ``bound`` end: past its equals (``through``), or
        at the first of them (by ``bisect`` in C where ``before`` is ``<``), the key
        found of the items it looks at only."""
        items, key = self.items, self.key
        if before is operator.lt:
            return (bisect_right if through else bisect_left)(items, bound, self.start, key=key)
        low, high = self.start, len(items)
        while low < high:
            middle = (low + high) // 2
            found = items[middle] if key is None else key(items[middle])
            if before(bound, found) if through else not before(found, bound):
                high = middle
            else:
                low = middle + 1
        return low


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
