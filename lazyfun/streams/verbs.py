"""The verbs of data pipelines, each in bounded memory: ``sort`` (sorted runs spilled to
temporary files beyond a memory budget, merged lazily), ``top``, ``join`` (a hash join,
or a merge join of two sorted inputs), keyed aggregates, and ``unique`` within a window.

Each verb's work is a small object that knows nothing of how its items arrive: the
sync steps (:mod:`lazyfun.streams.sync.vsteps`) and the async ones
(:mod:`lazyfun.streams.aio.avsteps`) feed it chunks and read what it gives, so an algorithm
is written once; a merge join's step is written once too (:class:`MergeJoining`), but
for its read.  The sort's and top's work is in :mod:`lazyfun.streams.sorting`, the joins'
in :mod:`lazyfun.streams.joins` (their names importable from here too); here are the
keyed folds (:class:`Accumulators` of the named :func:`reductions`, the exact sum) and
what ``unique`` within a window remembers (:class:`Recent`).
"""

from __future__ import annotations

import copy
import math
import operator
import os
import time
import weakref
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar, overload

from lazyfun.compiled import PURE_ENV
from lazyfun.streams.joins import HashTable, KeyMismatch, MergeJoin, MergeJoining, OutOfOrder
from lazyfun.streams.sorting import CHUNK as CHUNK
from lazyfun.streams.sorting import MEMORY, Sorter, Top, size_of, sweep

try:  # the C flow engine's Folder, the named reductions' loop (beside _adder's Python)
    from lazyfun.streams.sync import _flow  # which import-linter cannot read
except ImportError:  # built without a C compiler
    FOLDER = None
else:
    FOLDER = None if os.environ.get(PURE_ENV) else _flow.Folder

__all__ = [
    "MEMORY",
    "REDUCTIONS",
    "Accumulators",
    "Attribute",
    "HashTable",
    "KeyMismatch",
    "MergeJoin",
    "MergeJoining",
    "OutOfOrder",
    "Recent",
    "Sorter",
    "Top",
    "attribute_name",
    "field",
    "field_name",
    "field_path",
    "key_of",
    "one_key",
    "raise_first",
    "reductions",
    "size_of",
    "sweep",
]

T = TypeVar("T")
R = TypeVar("R")


@overload
def field(on: Callable[[T], R]) -> Callable[[T], R]: ...


@overload
def field(on: str | int, *path: str | int) -> Callable[[Any], Any]: ...


def field(on: str | int | Callable[[T], R], *path: str | int) -> Callable[[Any], Any]:
    """A key function: ``on`` itself, or for a name, the item's value of that name (a
    dict's key, else an attribute); given more steps, the value at that path, read a
    step at a time (a name as above, an int a place: ``value[place]``), such as a
    join's pair's ``field(1, "country")`` or a nested record's ``field("user", "id")``.
    A fold reads a name or a path inline, in C where the flow engine is built.

    >>> field("id")({"id": 7}), field(len)("abc")
    (7, 3)
    >>> field(1, "country")(({"amount": 2.5}, {"country": "pt"}))
    'pt'
    """
    if callable(on):
        if path:
            raise TypeError("a key function takes no path after it")
        return on
    steps = (on, *path)
    for step in steps:
        if not isinstance(step, str) and type(step) is not int:
            raise TypeError(f"a field's path is names and places (ints), got {type(step).__name__}")
    # each name as a plain str (a StrEnum's member, say): the engine reads a str of
    # another class (an Attribute) as an attribute only
    steps = tuple(str.__str__(step) if isinstance(step, str) else step for step in steps)
    if len(steps) > 1 or not isinstance(on, str):
        return _path(steps)
    name = str.__str__(on)

    def get(item: Any) -> Any:
        kind = type(item)
        if kind is dict or _has_items(kind):
            try:
                return item[name]
            except TypeError:  # not a mapping: a named tuple
                pass
        return getattr(item, name)  # a dataclass, a Struct: no error raised to get here

    get.__name__, get.__qualname__ = f"field_{name}", f"field({name!r})"  # as a plan shows it
    _FIELD_NAMES[get] = name
    return get


def key_of(on: str | Callable[[T], R]) -> Callable[[T], Any]:
    """A verb's key as its caller gave it, a field's name or a function (a path comes as
    :func:`field`'s function): :func:`field` of it; a TypeError for anything else."""
    if not isinstance(on, str) and not callable(on):
        raise TypeError(f"a key must be a field name or a function, got {type(on).__name__}")
    return field(on)


def _path(steps: tuple[str | int, ...]) -> Callable[[Any], Any]:
    """:func:`field`'s getter of the value at ``steps``."""

    def get(item: Any) -> Any:
        for step in steps:
            if isinstance(step, int):  # a place (field let no bool in)
                item = item[step]
                continue
            kind = type(item)
            if kind is dict or _has_items(kind):
                try:
                    item = item[step]
                    continue
                except TypeError:  # not a mapping: a pair, a named tuple
                    pass
            item = getattr(item, step)
        return item

    get.__name__ = "field_" + "_".join(map(str, steps))
    get.__qualname__ = f"field({', '.join(map(repr, steps))})"
    _FIELD_PATHS[get] = steps
    return get


def _has_items(kind: type) -> bool:
    """Whether objects of ``kind`` may have items (``obj[name]``), asked once a class."""
    has = _ITEMS.get(kind)
    if has is None:
        has = _ITEMS[kind] = hasattr(kind, "__getitem__")
    return has


_ITEMS: dict[type, bool] = {}
_FIELD_NAMES: weakref.WeakKeyDictionary[Callable[[Any], Any], str] = weakref.WeakKeyDictionary()
# the name each getter :func:`field` made reads (a generated loop reads it inline)
_FIELD_PATHS: weakref.WeakKeyDictionary[Callable[[Any], Any], tuple[str | int, ...]] = (
    weakref.WeakKeyDictionary()
)  # the path each getter of a path reads (the C fold reads it inline)


def field_name(get: Callable[[Any], Any]) -> str | None:
    """The name a :func:`field` getter reads (a loop reads it inline), or None for another
    function (one that cannot be weakly referred to, like ``operator.itemgetter``, or
    hashed, included)."""
    try:
        return _FIELD_NAMES.get(get)
    except TypeError:  # no weak reference to it, or no hash: not a getter field made
        return None


class Attribute(str):
    """A name the C flow engine reads as an attribute only, as ``operator.attrgetter``
    of it does (never ``item[name]``, which a :func:`field` tries first): from the
    item's slot, where it is one."""

    __slots__ = ()


def attribute_name(get: Callable[[Any], Any]) -> Attribute | None:
    """The one attribute ``get`` reads, where it is ``operator.attrgetter`` of one name
    (no dotted path), as an :class:`Attribute` for the C engine to read inline; None
    for another function.

    >>> attribute_name(operator.attrgetter("kind")), attribute_name(operator.attrgetter("a.b"))
    ('kind', None)
    """
    if type(get) is not operator.attrgetter:
        return None
    getter: Any = get  # its reduce: (attrgetter, its names)
    _, names = getter.__reduce__()
    if len(names) != 1 or "." in names[0]:
        return None
    return Attribute(names[0])


def field_path(get: Callable[[Any], Any]) -> tuple[str | int, ...] | None:
    """The path a :func:`field` getter of several steps (or of a place) reads, or None
    for another function (see :func:`field_name`)."""
    try:
        return _FIELD_PATHS.get(get)
    except TypeError:  # no weak reference to it, or no hash: not a getter field made
        return None


def raise_first(errors: deque[Exception]) -> None:
    """Raise the first of ``errors`` (forgotten once raised), if there is one."""
    if errors:
        error = errors.popleft()
        try:
            raise error
        finally:
            del error  # the frame keeps no error alive once it is passed on


# --- keyed aggregates -----------------------------------------------------------------


_END: Any = object()  # not there yet: a key's state (reduce_by), a sum's values other than numbers


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
    two or three steps).  Past the floats' range, the plain sum (inf, or nan for -inf and
    inf, as ``sum``)."""
    parts: list[float] = []
    try:
        while True:
            part = math.fsum(values)
            if not part or not math.isfinite(part):
                return parts or [part]
            parts.append(part)
            values.append(-part)
    except (OverflowError, ValueError):  # a sum past the range, or -inf and inf (nan)
        return [sum(values[: len(values) - len(parts)])]


def _rounded(values: list[float]) -> float:
    """The sum of ``values`` correctly rounded (``math.fsum``); past the floats' range on
    the way, the plain sum (inf, as ``sum``)."""
    try:
        return math.fsum(values)
    except (OverflowError, ValueError):  # past the range, or -inf and inf (nan, as sum)
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
    rounded once, as ``math.fsum``; other values are added with ``+``, then to that.
    A value that could not be added to what came before (a None, a str or a timedelta
    among numbers) is a TypeError at its item, before it changes anything, not at the
    end: where numbers and other values meet, their sum's last ``+`` is tried then."""

    def start(self, value: Any) -> Any:
        return self.step(_Exact(), value)

    def step(self, acc: Any, value: Any) -> Any:
        if type(value) is float:  # the common case first
            _add_float(acc, _mixed(acc, value))
        elif isinstance(value, float):
            _add_float(acc, float(_mixed(acc, value)))
        elif isinstance(value, int):
            acc.ints = _mixed(acc, value) if acc.ints is None else acc.ints + value
        elif acc.other is _END:
            if acc or acc.ints is not None:
                _ = value + (0.0 if acc else 0)  # as end() will add them: may raise
            acc.other = value
        else:
            acc.other += value
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


def _mixed(acc: _Exact, number: T) -> T:
    """``number``, once tried against the sum's other values, where there are some and
    no number of its kind came before (end() adds them): a TypeError if they cannot."""
    if acc.other is not _END and not acc and (acc.ints is None or type(number) is float):
        _ = acc.other + (0.0 if type(number) is float else 0)  # as end() will: may raise
    return number


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
        made.append((name, REDUCTIONS[spec[0]], key_of(spec[1])))
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
    step inline, with no list of values, no call per reduction, no method lookups.  In
    the C flow engine, counts and sums by integer keys are held inline in a table of
    their own (a key's state one place in memory, where a dict's is four), until a key
    or value it cannot hold comes, and then in a dict from there on.

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
        self.held = 0  # about how many bytes the keys' states take, counted with a budget
        self._grown = None if memory is None else self.grown
        self._add_all = _adder(by, named) if named is not None else None
        self.state: Any = _states(self._add_all)

    def fresh(self) -> Accumulators:
        """Accumulators of the same reductions and budget, from nothing (a window's)."""
        fresh = Accumulators.__new__(Accumulators)
        fresh.by, fresh.named, fresh.fold = self.by, self.named, self.fold
        fresh.memory, fresh.what, fresh.held = self.memory, self.what, 0
        fresh.state, fresh._add_all = _states(self._add_all), self._add_all
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
        state, self.state, self.held = self.state, _states(self._add_all), 0
        if self.named is None:  # reduce_by's: a dict
            folded: dict[Any, Any] = state
            return folded
        names = [name for name, _, _ in self.named]
        if FOLDER is not None and isinstance(self._add_all, FOLDER):
            return _ended(state, self._add_all, names, self.named)
        ends = [r.end for _, r, _ in self.named]
        if all(type(r) in _PLAIN_END for _, r, _ in self.named):
            return {k: dict(zip(names, accs, strict=True)) for k, accs in state.items()}

        def ended(accs: list[Any]) -> dict[str, Any]:
            values = {name: end(acc) for name, end, acc in zip(names, ends, accs, strict=True)}
            accs.clear()  # a key's state let go as its values are made: not both held
            return values

        return {k: ended(accs) for k, accs in state.items()}


def _states(adder: Adder | None) -> Any:
    """New empty states for the keys of a fold by ``adder``: the C ``Folder``'s own
    (integer keys' states inline in a table, while every key is one: a state is then
    one place in memory, where a dict's is four), else a dict."""
    if FOLDER is not None and isinstance(adder, FOLDER):
        return adder.states()
    return {}


def _ended(
    state: Any,
    folder: Any,
    names: list[str],
    named: list[tuple[str, _Reduction, Callable[[Any], Any]]],
) -> dict[Any, Any]:
    """The values of each key's C state (the ``States`` of ``folder``, or a dict of its
    ``Accs``), in order, each state let go as its values are made: a count's and a sum of
    floats' made in C (the sum's ``hi + lo``, one rounding of their exact sum, as
    ``math.fsum`` gives), the others' by their reduction's end (none for those whose
    state is their value)."""
    ends = tuple(None if type(r) in _PLAIN_END else r.end for _, r, _ in named)
    keys = tuple(names)
    if not isinstance(state, dict):
        made: dict[Any, Any] = state.ended(keys, ends)
        return made
    made = {}
    for k in list(state):
        made[k] = state.pop(k).values(folder, keys, ends)
    return made


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
        "        r{i}.step(a, v{i})\n"
        "else:\n"
        "    r{i}.step(accs[{i}], v{i})",
    ),
    _Min: (True, "v{i}", "if v{i} < accs[{i}]:\n    accs[{i}] = v{i}"),
    _Max: (True, "v{i}", "if accs[{i}] < v{i}:\n    accs[{i}] = v{i}"),
    _First: (True, "v{i}", "pass"),
    _Last: (True, "v{i}", "accs[{i}] = v{i}"),
}


# A reduction's operation in the C loop (``Folder``); any other type is called, as here.
_OPS: dict[type, int] = {_Count: 0, _Sum: 1, _Min: 2, _Max: 3, _First: 4, _Last: 5}
_CALLED = 6

Adder = Callable[[Iterable[Any], Any, Callable[[Any], None] | None], None]


def _adder(
    by: Callable[[Any], Any],
    named: list[tuple[str, _Reduction, Callable[[Any], Any]]],
    engine: bool = True,
) -> Adder:
    """The loop that adds items to the states of ``named``: the C flow engine's
    ``Folder`` where it is built (and ``engine``), else :func:`_written`."""
    if FOLDER is None or not engine:
        return _written(by, named)
    ops = tuple(_OPS.get(type(r), _CALLED) for _, r, _ in named)
    reads = tuple(
        None if op == 0 else field_name(get) or field_path(get) or attribute_name(get) or get
        for op, (_, _, get) in zip(ops, named, strict=True)
    )
    return FOLDER(
        None if by is one_key else by,
        field_name(by) or field_path(by) or attribute_name(by),
        reads,
        ops,
        tuple(r.start for _, r, _ in named),
        tuple(r.step for _, r, _ in named),
        _spill_float,
        _Exact,
    )


def _written(
    by: Callable[[Any], Any], named: list[tuple[str, _Reduction, Callable[[Any], Any]]]
) -> Adder:
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
        name = field_name(get) if read else None
        if name is not None:  # field(name): read inline, as it reads
            names[f"n{i}"] = name
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
    made: Adder = scope["make"](**names)
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
