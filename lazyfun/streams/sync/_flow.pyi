"""Types of the C extension ``lazyfun.streams.sync._flow``.

See lazyfun.streams.sync.flow.
"""

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol, TypeVar, final

from typing_extensions import disjoint_base

_T = TypeVar("_T")
_S = TypeVar("_S")

class _Recovery(Protocol):
    @property
    def errors(self) -> tuple[type[BaseException], ...]: ...
    @property
    def stopped(self) -> bool: ...
    def recover(self, error: BaseException) -> object: ...

@final
class Guarded(Iterator[_T]):
    """The items of ``source``; an exception of ``recovery.errors`` is handed to
    ``recovery.recover``, whose result comes in its place (nothing if it is ``dropped``)."""

    def __new__(cls, source: Iterable[_T], recovery: _Recovery, dropped: object) -> Guarded[_T]: ...
    def __next__(self) -> _T: ...

@final
class Counted(Iterator[_T]):
    """At most ``n`` items of ``source``, exceptions passed on uncounted; ``on_last()`` is
    called once the nth is read; then, given ``refill``, the next read asks it for the
    next allowance (at least 1) and goes on."""

    @property
    def left(self) -> int: ...
    def __new__(
        cls,
        source: Iterable[_T],
        n: int,
        on_last: Callable[[], object] | None = None,
        refill: Callable[[], int] | None = None,
    ) -> Counted[_T]: ...
    def __next__(self) -> _T: ...
    def __length_hint__(self) -> int: ...

@final
class FlatMapped(Iterator[_T]):
    """The items of ``iter(f(x))`` for each item ``x`` of ``source``; an error (of the
    source, of ``f``, of an inner iterator) passes on at its place and the reading goes on."""

    def __new__(cls, source: Iterable[_S], f: Callable[[_S], Iterable[_T]]) -> FlatMapped[_T]: ...
    def __next__(self) -> _T: ...

@final
class Tally(Iterator[_T]):
    """The items of ``source``, unchanged, counted for a Stream's explain: ``items`` and
    ``errors`` that passed, the ``seconds`` spent getting them, and ``held``: the longest
    item when ``lists``, and the most ``hold()`` said after an item."""

    @property
    def items(self) -> int: ...
    @property
    def errors(self) -> int: ...
    @property
    def held(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    def __new__(
        cls, source: Iterable[_T], lists: bool = False, hold: Callable[[], int | None] | None = None
    ) -> Tally[_T]: ...
    def __next__(self) -> _T: ...

@final
class Calls:
    """``f``, each call counted in ``made`` (from any thread)."""

    @property
    def made(self) -> int: ...
    @property
    def f(self) -> Callable[..., object]: ...
    def __new__(cls, f: Callable[..., object]) -> Calls: ...
    def __call__(self, *args: object, **kwargs: object) -> object: ...

@final
class Folder:
    """The loop of a keyed fold's named reductions (``aggregate``): for each item its key
    (``by(item)``, or the field or path ``by_name`` read inline; ``by`` None: one key),
    each reduction's value (``reads``: None, a field's name or path, or a function), then
    a new key's state ``[start, ...]`` and ``grown(key)``, or each state's step, by
    ``ops`` (count, sum, min, max, first, last, other); as
    :func:`lazyfun.streams.verbs._adder`'s loop."""

    def __new__(
        cls,
        by: Callable[[Any], object] | None,
        by_name: str | tuple[str | int, ...] | None,
        reads: tuple[str | tuple[str | int, ...] | Callable[[Any], object] | None, ...],
        ops: tuple[int, ...],
        starts: tuple[Callable[[Any], object] | None, ...],
        steps: tuple[Callable[[Any, Any], object] | None, ...],
        spill: Callable[[Any, float, float, float, float], None],
        exact: Callable[[], list[float]],
    ) -> Folder: ...
    def __call__(
        self,
        items: Iterable[Any],
        state: States | dict[Any, Any],
        grown: Callable[[Any], None] | None,
    ) -> None: ...
    def states(self) -> States: ...

@disjoint_base
class Runs(Iterator[Any]):
    """A base for a source's iterator: ``next()`` hands on the items of ``run`` in order
    (``given`` of them so far), and when it is spent calls ``self._refill()``, which sets
    the next run or raises (``StopIteration`` at the end); setting ``run`` starts
    ``given`` over."""

    @property
    def given(self) -> int: ...
    run: list[Any] | None
    def __next__(self) -> Any: ...

@final
class Probe(Iterator[tuple[Any, Any]]):
    """A hash join's pairs: each item of ``source`` with each row of its key (read from
    the field ``name``, or ``key(item)`` where ``name`` is None): the first row from
    ``index`` or ``first``, the later from ``more``; an item of no rows checked by
    ``check(k, item)`` unless its key's type is in ``matching``, and paired with None
    when ``left``.  An error passes on at its place and the next read goes on."""

    def __new__(
        cls,
        source: Iterable[Any],
        key: Callable[[Any], Any],
        name: str | None,
        first: dict[Any, Any],
        index: list[Any],
        more: dict[Any, list[Any]],
        matching: set[type],
        check: Callable[[Any, int], object],
        missing: object,
        left: bool,
    ) -> Probe: ...
    def __next__(self) -> tuple[Any, Any]: ...

@final
class Accs:
    """A key's state in a :class:`Folder`'s fold: a count and a sum of floats held as C
    numbers, any other reduction's state as the Python loop keeps it."""

    def list(self, folder: Folder, /) -> list[Any]: ...
    def values(
        self,
        folder: Folder,
        names: tuple[str, ...],
        ends: tuple[Callable[[Any], object] | None, ...],
        /,
    ) -> dict[str, Any]: ...

@final
class States:
    """A :class:`Folder`'s states: while every key is an integer of 64 bits (and the fold
    is of counts and sums, by a key), inline in a table; from the first other key or
    value, a dict of key to :class:`Accs`, in the order the keys came."""

    def __len__(self) -> int: ...
    def __getitem__(self, k: object, /) -> Accs: ...
    def list(self, k: object, /) -> list[Any]: ...
    def ended(
        self, names: tuple[str, ...], ends: tuple[Callable[[Any], object] | None, ...], /
    ) -> dict[Any, dict[str, Any]]: ...

@final
class TimeField:
    """An item's time read by a field's name (a dict's key, else an attribute): a string
    an ISO-8601 time as seconds since 1970 (UTC), read in C for the common shape, else
    by ``parse``; any other value as it is."""

    @property
    def name(self) -> str: ...
    @property
    def parse(self) -> Callable[[str], Any]: ...
    def __new__(cls, name: str, parse: Callable[[str], Any]) -> TimeField: ...
    def __call__(self, item: Any, /) -> Any: ...

@final
class Windowed:
    """Tumbling and sliding windows of numbers whose named reductions a :class:`Folder`
    folds: ``EventTime`` of ``lazyfun.streams.windows`` in C."""

    @property
    def what(self) -> str: ...
    @property
    def ready(self) -> deque[Any]: ...
    @property
    def held(self) -> int: ...
    @property
    def open(self) -> int: ...
    @property
    def latest(self) -> Any: ...
    @property
    def watermark(self) -> Any: ...
    def __new__(
        cls,
        what: str,
        on: Callable[[Any], Any],
        by: Callable[[Any], Any] | str | None,
        late: Callable[[Any], object] | None,
        folder: Folder,
        size: Any,
        every: Any,
        lateness: Any,
        check: Callable[[Any, int], Any],
        late_error: Callable[[str, Any, int, Any, Any], BaseException],
        values: Callable[[dict[Any, Any]], dict[str, Any]],
        window: Callable[[Any, Any, Any, tuple[Any, ...], dict[str, Any]], Any],
        ready: deque[Any],
        heappush: Callable[[list[Any], Any], None],
        heappop: Callable[[list[Any]], Any],
        counts: tuple[str, ...] | None,
    ) -> Windowed: ...
    def add(self, item: Any, /) -> None: ...
    def pull(self, source: Iterator[Any], /) -> bool: ...
    def finish(self) -> None: ...
    def close(self) -> None: ...

def by_fields(
    items: list[_T], fields: list[list[Any]], reverse: bool, ends: list[int] | None = None, /
) -> list[_T] | None:
    """``items`` in a new list, sorted stably by the tuples of their ``fields`` (a list of
    values a field, each of one type: int in 64 bits, float none NaN, str or bytes),
    greatest first with ``reverse``; None where a field is not such.  Given ``ends``, the
    items hold runs in that order, each ending at the next end (the last the items'
    count), and the runs are merged, the earlier first on equal fields."""

def fields_of(items: list[Any], names: tuple[str, ...], /) -> list[list[Any]] | None:
    """A list a name of each item's value of the slot of that name, the items all of the
    class of the first; None where they are not (or there are none)."""

def holds(
    items: list[Any], kind: type, names: tuple[str, ...], allowed: tuple[tuple[type, ...], ...], /
) -> bool:
    """Whether every item is a ``kind`` itself whose slot ``names[f]`` holds a value of a
    type of ``allowed[f]`` itself (False where a field is no slot)."""

def pack(
    items: list[Any], kind: type, names: tuple[str, ...], allowed: tuple[tuple[type, ...], ...], /
) -> bytes | None:
    """A spilled frame's bytes, where every item is a ``kind`` itself whose slot
    ``names[f]`` holds a value of a type of ``allowed[f]`` itself (as ``holds`` checks),
    an int in 64 bits, a str with its UTF-8; None where one is not."""

def unpack(payload: bytes, kind: Callable[..., _T], names: tuple[str, ...], /) -> list[_T]:
    """The items of a frame ``pack`` wrote, each ``kind`` called with its fields by name."""
