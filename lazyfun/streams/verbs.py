"""The verbs of data pipelines, each in bounded memory: ``sort`` (sorted runs spilled to
temporary files beyond a memory budget, merged lazily), ``top``, ``join`` (a hash join,
or a merge join of two sorted inputs), keyed aggregates, and ``unique`` within a window.

Each verb's work is a small object that knows nothing of how its items arrive: the
sync steps (:mod:`lazyfun.streams.sync.vsteps`) and the async ones
(:mod:`lazyfun.streams.aio.avsteps`) feed it chunks and read what it gives, so an algorithm
is written once; a merge join's step is written once too (:class:`MergeJoining`), but
for its read.  The sort's and top's work is in :mod:`lazyfun.streams.sorting`, the joins'
in :mod:`lazyfun.streams.joins`, the named reductions (the exact sum among them) in
:mod:`lazyfun.streams.reductions` and what a key reads in :mod:`lazyfun.streams.fields`
(their names importable from here too); here are the keyed folds
(:class:`Accumulators` of the named :func:`reductions`) and what ``unique`` within a
window remembers (:class:`Recent`).
"""

from __future__ import annotations

import copy
import os
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from lazyfun.compiled import PURE_ENV
from lazyfun.streams.fields import Attribute as Attribute
from lazyfun.streams.fields import attribute_name, field, field_name, field_path, key_of
from lazyfun.streams.joins import HashTable, KeyMismatch, MergeJoin, MergeJoining, OutOfOrder
from lazyfun.streams.reductions import (
    END,
    REDUCTIONS,
    Count,
    Exact,
    First,
    Last,
    Max,
    Min,
    Named,
    Reduction,
    Sum,
    one_key,
    reductions,
    spill_float,
)
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
    "Named",
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


def raise_first(errors: deque[Exception]) -> None:
    """Raise the first of ``errors`` (forgotten once raised), if there is one."""
    if errors:
        error = errors.popleft()
        try:
            raise error
        finally:
            del error  # the frame keeps no error alive once it is passed on


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
        named: list[tuple[str, Reduction, Callable[[Any], Any]]] | None = None,
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
            acc = get(k, END)
            state[k] = fn(copy.copy(initial) if acc is END else acc, item)
            if counted and acc is END:
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
    named: list[tuple[str, Reduction, Callable[[Any], Any]]],
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

_PLAIN_END: tuple[type, ...] = (Count, Min, Max, First, Last)  # their state is the value

# Each reduction's code in the loop of :func:`_adder`: its value read (or not), its start
# (an expression), its step (statements on ``accs[{i}]``, ``v{i}``).  A reduction of a
# type not here is called: ``r{i}.start(v{i})``, ``accs[{i}] = r{i}.step(accs[{i}], v{i})``.
_CODE: dict[type, tuple[bool, str, str]] = {
    Count: (False, "1", "accs[{i}] += 1"),
    Sum: (
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
    Min: (True, "v{i}", "if v{i} < accs[{i}]:\n    accs[{i}] = v{i}"),
    Max: (True, "v{i}", "if accs[{i}] < v{i}:\n    accs[{i}] = v{i}"),
    First: (True, "v{i}", "pass"),
    Last: (True, "v{i}", "accs[{i}] = v{i}"),
}


# A reduction's operation in the C loop (``Folder``); any other type is called, as here.
_OPS: dict[type, int] = {Count: 0, Sum: 1, Min: 2, Max: 3, First: 4, Last: 5}
_CALLED = 6

Adder = Callable[[Iterable[Any], Any, Callable[[Any], None] | None], None]


def _adder(
    by: Callable[[Any], Any],
    named: list[tuple[str, Reduction, Callable[[Any], Any]]],
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
        spill_float,
        Exact,
    )


def _written(
    by: Callable[[Any], Any], named: list[tuple[str, Reduction, Callable[[Any], Any]]]
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
    names: dict[str, Any] = {"by": by, "spill": spill_float}
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
