"""What a pipeline is and what it did: the plan of a Stream (or AsyncStream), one step a
line, and, for a stream built to be analysed, exact counts for each step.

Every step records, as it is written, a :class:`Stage`: the method's name and the
arguments given (those left at their defaults are not shown), linked to the stage it
reads.  Nothing is read to show the plan.  A stream built with ``analyze=True`` (or
turned so by ``.analyze()`` before it is read) also keeps a
:class:`~lazyfun.trace.Counts` a stage: each item or error that leaves the stage is
counted, and the time spent getting it; the calls of a step's function (every attempt
of a retry) are counted; a concurrent step or a buffer says how many items it held.
A step that watches its items (``observe``, ``progress``, ``probe``) counts them
itself, into the counts its log, its bar or its probe shows: that object is the
step's counts here (:func:`metered`), so there is one count a step, not two.  A verb
that holds items before it gives any (``sort``, ``top``, a hash ``join``) offers a
gauge of what it holds, and a sort the runs it spilled with their bytes
(:mod:`lazyfun.streams.gauges`); a join's other input is counted as stages of
its own (:func:`beside`), shown above the join.  A terminal or a sink that reads an
analysed stream leaves a last stage, :class:`Finish`: its whole time, so the time
spent inside it (a sink's writing) is a row like any step's.  The counts cost a
little for each item and step (``make bench BENCH=stream`` prints how much), so they
are kept only when asked.  ``LAZYFUN_ANALYZE=1`` in the environment analyses every
stream.

>>> from lazyfun import stream
>>> squares = stream(range(10), analyze=True).map(lambda n: n * n).take(3)
>>> squares.to_list()
[0, 1, 4]
>>> print(squares.explain(analyze=True, times=False))
step                          in  out  errors  calls  held
stream(range(0, 10))           -    3       -      -     -
.map(<lambda>)                 3    3       -      3     -
.take(3)                       3    3       -      -     -
.to_list()                     3    3       -      -     3
"""

from __future__ import annotations

import functools
import inspect
import os
import reprlib
import time
from collections.abc import Awaitable, Callable, Iterator, Sized
from typing import Any, Literal, Self, TypeVar, cast, overload

from lazyfun.compiled import PURE_ENV
from lazyfun.parallel.window import Holding
from lazyfun.streams.gauges import Gauge, Gauged, Spilling
from lazyfun.streams.shared.watching import Watching
from lazyfun.trace import Counts

try:
    from lazyfun.streams.sync import _flow  # the C flow engine (let through by import-linter)
except ImportError:  # built without a C compiler
    _TALLY: Any = None
    _CALLS: Any = None
else:
    _TALLY = None if os.environ.get(PURE_ENV) else _flow.Tally
    _CALLS = None if os.environ.get(PURE_ENV) else _flow.Calls

__all__ = [
    "ANALYZE_ENV",
    "END",
    "TERMINALS",
    "Accounting",
    "Explaining",
    "Finish",
    "Stage",
    "adopted",
    "analysing",
    "called",
    "counted",
    "explained",
    "gauged",
    "held",
    "metered",
    "recorded",
    "root",
]

T = TypeVar("T")

ANALYZE_ENV = "LAZYFUN_ANALYZE"


class _Shortened(reprlib.Repr):
    """reprlib's short forms, and a function or a class by its name wherever it is (in a
    reduction's pair, ``("sum", field(0, 'amount'))``), not by its address."""

    def repr1(self, x: object, level: int) -> str:
        if inspect.isroutine(x) or inspect.isclass(x):
            return _named(x)
        return super().repr1(x, level)


def _named(value: object) -> str:
    """A function or a class by its own name (a nested one's, past ``<locals>.``)."""
    name = getattr(value, "__qualname__", getattr(value, "__name__", repr(value)))
    return str(name).rsplit("<locals>.", 1)[-1]


_SHORT = _Shortened()
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxset = _SHORT.maxdict = 4
_SHORT.maxstring = _SHORT.maxother = 40

_LISTS = frozenset({"group", "chunked", "window"})  # the steps that give lists


_ANALYSE_ALL = bool(os.environ.get(ANALYZE_ENV))


def analysing(asked: bool | None) -> bool:
    """Whether a new stream keeps counts: as asked, else as ``LAZYFUN_ANALYZE`` said when
    lazyfun was imported."""
    return _ANALYSE_ALL if asked is None else asked


class Stage:
    """One step of a plan: its name, its arguments as written, the stage it reads, and
    its counts when the stream is analysed (one :class:`~lazyfun.trace.Counts`).  A step
    that reads another input too (a join's other side) has that input's last stage in
    ``sides``; a step that holds items says how many it holds now (``hold``, looked at
    after each item it gives), and a verb that holds them before it gives any offers a
    ``gauge`` of the most it held (and, a sort, of the runs and bytes it spilled), read
    only when the plan is shown."""

    __slots__ = ("args", "gauge", "hold", "keywords", "meter", "name", "sides", "source")

    def __init__(
        self,
        name: str,
        args: tuple[object, ...],
        source: Stage | None,
        meter: Counts | None,
        hold: Callable[[], int | None] | None = None,
        keywords: dict[str, object] | None = None,
    ) -> None:
        self.name, self.args, self.keywords, self.source = name, args, keywords, source
        self.meter, self.hold = meter, hold
        self.sides: tuple[Stage, ...] = ()
        self.gauge: Gauged | None = None

    def label(self) -> str:
        """The step as written: ``.map(str, concurrency=4)``; a source without the dot (a
        reader of :mod:`lazyfun.io` is named whole: ``read_jsonl('s.jsonl')``)."""
        if "(" in self.name:
            return self.name
        named = (f"{name}={_short(value)}" for name, value in (self.keywords or {}).items())
        shown = ", ".join([*map(_short, self.args), *named])
        return f"{'' if self.source is None else '.'}{self.name}({shown})"

    def chain(self) -> list[Stage]:
        """The stages from the source to this one."""
        stages: list[Stage] = []
        stage: Stage | None = self
        while stage is not None:
            stages.append(stage)
            stage = stage.source
        return stages[::-1]


def _short(value: object) -> str:
    """A value as a plan shows it: a function by its name, anything else shortened."""
    if inspect.isroutine(value) or inspect.isclass(value):
        return _named(value)
    if inspect.isgenerator(value):
        return f"<generator {value.__name__}>"
    if isinstance(value, Iterator) and not isinstance(value, (str, bytes)):
        return f"<{type(value).__name__}>"
    if isinstance(value, Explaining):  # another stream: its source and last step, one line
        first, *rest = repr(value).splitlines()
        return f"{first}…{rest[-1]}" if rest else first
    return _SHORT.repr(value)


def root(items: object, meter: Counts | None, made_by: str = "stream") -> Stage:
    """The source stage of a stream over ``items``: a reader of :mod:`lazyfun.io` names
    itself (``read_jsonl('s.jsonl')``); anything else is ``stream(items)`` (or, as
    ``made_by`` says, ``astream(items)``)."""
    plan = getattr(items, "plan", None)
    if isinstance(plan, str):
        return Stage(plan, (), None, meter)
    return Stage(made_by, (items,), None, meter)


def called(owner: Explaining, source: Stage) -> Stage:
    """The stage of the step of ``owner`` (a stream) now declaring a new stream, as the
    step recorded its call (:func:`recorded`); counted where ``source`` is."""
    meter = None if source.meter is None else Counts()
    if owner._call is None:  # a stream made outside a step: named by its type
        return Stage(type(owner).__name__, (), source, meter)
    name, args, keywords = owner._call
    return Stage(name, args, source, meter, None, keywords)


def held(stage: Stage, holding: tuple[object, ...]) -> Stage:
    """``stage``, told what its step holds once built (``holding``): how many items it
    holds now, and a verb's gauge of the most it held."""
    offered = next(filter(callable, (getattr(h, "holding", None) for h in holding)), None)
    stage.hold = cast("Callable[[], int | None] | None", offered)
    stage.gauge = next((h for h in holding if isinstance(h, Gauged)), None)
    return stage


S = TypeVar("S", bound=type)


TERMINALS = frozenset(
    {"first", "last", "to_list", "to_set", "to_dict", "count", "reduce", "for_each", "sum"}
    | {"min", "max", "any", "all", "count_by", "reduce_by", "aggregate"}
    | {"to_lines", "to_jsonl", "to_csv", "to_parquet", "to_sql"}
)  # the methods that read a stream to its end (or to what decides), and the sinks
_SINKS = frozenset({"to_lines", "to_jsonl", "to_csv", "to_parquet", "to_sql"})
_SIZED = frozenset({"to_list", "to_set", "to_dict", "count_by", "reduce_by", "aggregate"})


def recorded(kind: S) -> S:
    """``kind`` with each of its steps (a public method returning a stream) recording
    its call as written on the stream it is called on, for the stage it makes: the
    outermost step only (a step written with other steps is one step).  Each of its
    :data:`TERMINALS` records its call too, and on an analysed stream adds a last
    stage when it is done: its time, what it gave (:func:`_finishing`)."""
    for name, method in list(vars(kind).items()):
        returns = str(getattr(method, "__annotations__", {}).get("return", ""))
        if name[0] == "_" or not inspect.isfunction(method):
            continue
        if name in TERMINALS:
            setattr(kind, name, _finishing(method, name))
        elif "Stream[" in returns:
            setattr(kind, name, _recording(method, name))
    return kind


def _recording(method: Callable[..., Any], name: str) -> Callable[..., Any]:
    @functools.wraps(method)
    def step(self: Explaining, *args: Any, **keywords: Any) -> Any:
        if self._call is not None:  # inside another step of this stream
            return method(self, *args, **keywords)
        self._call = (name, args, keywords)
        try:
            return method(self, *args, **keywords)
        finally:
            self._call = None

    return step


Call = tuple[str, tuple[Any, ...], dict[str, Any]]  # a step or terminal as written


def _finishing(method: Callable[..., Any], name: str) -> Callable[..., Any]:
    """A terminal (or a verb that is one unless given a window: then a step, recorded as
    one) that, on an analysed stream it reads, leaves a :class:`Finish` stage behind:
    the stream's plan ends with it.  Its seconds are the terminal's whole time (an async
    one's from its first await), so its ``inside`` is what the terminal itself took: a
    sink's writing, a fold's adding."""

    @functools.wraps(method)
    def terminal(self: Explaining, *args: Any, **keywords: Any) -> Any:
        if self._call is not None or self._stage.meter is None or self._used:
            return method(self, *args, **keywords)
        call = self._call = (name, args, keywords)
        start = time.perf_counter()
        try:
            result = method(self, *args, **keywords)
        except BaseException:
            if self._used:  # not an argument refused before the first read
                self._stage = Finish(call, self._stage, start, FAILED)
            raise
        finally:
            self._call = None
        if isinstance(result, Explaining):  # count_by(every=...): a step, recorded
            return result
        if self._is_async:
            return _awaited(self, call, result)
        self._stage = Finish(call, self._stage, start, result)
        return result

    return terminal


async def _awaited(owner: Explaining, call: Call, pending: Awaitable[T]) -> T:
    """An async terminal's coroutine, its stage left behind when it is done."""
    start = time.perf_counter()
    try:
        result = await pending
    except BaseException:
        owner._stage = Finish(call, owner._stage, start, FAILED)
        raise
    owner._stage = Finish(call, owner._stage, start, result)
    return result


FAILED: Any = object()  # what a terminal that raised gave


class Finish(Stage):
    """The last stage of an analysed stream read by a terminal or a sink, from
    ``start`` to now: the items in (the stage before's out), what it gave (``out``: the
    records a sink wrote, the size of a list, set or dict; None for a single value),
    what it ``held`` (a list's items, a dict's keys: one state a key), an error if it
    raised, and its time."""

    __slots__ = ("held", "out")

    def __init__(self, call: Call, source: Stage, start: float, result: object) -> None:
        name, args, keywords = call
        meter = Counts()
        meter.seconds = time.perf_counter() - start
        super().__init__(name, args, source, meter, None, keywords)
        self.out: int | None = None
        self.held: int | None = None
        if result is FAILED:
            meter.errors = 1
        elif name in _SINKS and isinstance(result, int):
            self.out = result
        elif name in _SIZED and isinstance(result, Sized):
            self.out = self.held = len(result)


W = TypeVar("W", bound=Watching)


def adopted(step: W, stage: Stage) -> W:
    """The watching ``step`` (``observe``, ``progress``, ``probe``), timing its reads
    from now on, its counts the stage's: what ``explain`` says of the step is what its
    log, bar or probe says, one count."""
    stage.meter = step.timing()
    return step


def metered(items: Iterator[T], stage: Stage) -> Iterator[T]:
    """``items`` with each item and error counted into the stage's meter (what a stream
    built to be analysed hands on); a step that holds threads stays closable.  A
    watching step counts itself: its counts become the stage's (:func:`adopted`)."""
    if stage.meter is None:
        return items
    if isinstance(items, Watching):
        return adopted(items, stage)
    if isinstance(items, Holding):
        return _MeteredHolding(items, stage)
    if _TALLY is None:
        return _Metered(items, stage)
    stage.meter.tally = _TALLY(items, stage.name in _LISTS, stage.hold)
    return cast(Iterator[T], stage.meter.tally)


class Accounting:
    """What the Python meters share, sync and async (the async one is
    :class:`lazyfun.streams.aio.aobserving.Metered`): the stage's meter, and the accounting
    after a read."""

    __slots__ = ("hold", "lists", "meter")

    def __init__(self, stage: Stage) -> None:
        assert stage.meter is not None
        self.meter, self.hold, self.lists = stage.meter, stage.hold, stage.name in _LISTS

    def _stopped(self, start: float, error: BaseException) -> None:
        """A read that began at ``start`` raised ``error``: the end (StopIteration,
        StopAsyncIteration) or an error, counted and timed."""
        if isinstance(error, (StopIteration, StopAsyncIteration)):
            self._came(start, END)
        else:
            self._came(start, error=True)

    def _came(self, start: float, item: object = None, error: bool = False) -> None:
        """A read that began at ``start`` gave ``item`` (or an error, or, with neither,
        the end): counted, timed, and what the step holds now looked at."""
        meter = self.meter
        meter.seconds += time.perf_counter() - start
        if error:
            meter.errors += 1
        elif item is not END:
            meter.items += 1
            if self.lists:
                meter.held = max(meter.held, len(item))  # type: ignore[arg-type]
        if self.hold is not None and item is not END:
            now = self.hold()
            if now is not None and now > meter.held:
                meter.held = now


END: Any = object()  # what a read that found the end gave


class _Metered(Accounting, Iterator[T]):
    __slots__ = ("items",)

    def __init__(self, items: Iterator[T], stage: Stage) -> None:
        super().__init__(stage)
        self.items = items

    def __next__(self) -> T:
        start = time.perf_counter()
        try:
            item = next(self.items)
        except BaseException as error:
            self._stopped(start, error)
            raise
        self._came(start, item)
        return item


class _MeteredHolding(_Metered[T], Holding[T]):
    __slots__ = ()

    def close(self) -> None:
        close = getattr(self.items, "close", None)
        if close is not None:
            close()


C = TypeVar("C")


def gauged(stage: Stage, core: C) -> C:
    """A verb's core (a sort's :class:`~lazyfun.streams.sorting.Sorter`, a top's) as its
    step should read it: itself, or, where ``stage`` (the stream the verb reads) is
    analysed, a :class:`~lazyfun.streams.gauges.Gauge` of it, which the verb's step offers
    as what it holds."""
    if stage.meter is None:
        return core
    return cast(C, Spilling(core) if hasattr(core, "runs") else Gauge(core))


def counted(f: Callable[..., Any], meter: Counts | None) -> Callable[..., Any]:
    """``f``, each call counted into ``meter`` (a coroutine function stays one)."""
    if meter is None:
        return f
    meter.counting_calls()
    if _CALLS is not None and not inspect.iscoroutinefunction(f):
        meter.counter = _CALLS(f)
        return cast(Callable[..., Any], meter.counter)
    if inspect.iscoroutinefunction(f):

        @functools.wraps(f)
        async def calling_async(*args: Any) -> Any:
            meter.called()
            return await f(*args)

        return calling_async

    @functools.wraps(f)
    def calling(*args: Any) -> Any:
        meter.called()
        return f(*args)

    return calling


def explained(
    stage: Stage, analyze: bool, format: Literal["text", "dict"], times: bool
) -> str | list[dict[str, object]]:
    """The plan ending at ``stage``, with the counts when ``analyze``."""
    stages = stage.chain()
    if analyze and all(s.meter is None for s in stages):
        raise ValueError(
            "explain(analyze=True): this stream kept no counts; build it with "
            "stream(..., analyze=True) or call .analyze() on it before it is read "
            f"(or set {ANALYZE_ENV}=1)"
        )
    rows = _rows(stage, analyze, "")
    if format == "dict":
        return rows
    if not analyze:
        return "\n".join(str(row["step"]) for row in rows)
    return _table(rows, times)


def _rows(stage: Stage, analyze: bool, indent: str) -> list[dict[str, object]]:
    """The rows of the stages from the source to ``stage``, each step's other input
    (a join's other side) just above it, its steps indented."""
    rows: list[dict[str, object]] = []
    for each in stage.chain():
        for side in each.sides:
            rows += _rows(side, analyze, indent + "  ")
        row = _row(each, analyze)
        row["step"] = indent + str(row["step"])
        rows.append(row)
    return rows


def _row(stage: Stage, analyze: bool) -> dict[str, object]:
    """One stage as a dict: its step, and with ``analyze`` its counts (None: not kept)."""
    row: dict[str, object] = {"step": stage.label()}
    if not analyze:
        return row
    meter, before = stage.meter, None if stage.source is None else stage.source.meter
    if meter is None:
        return row | dict.fromkeys(_COUNTS)
    items, errors, seconds, held = meter.snapshot()
    if stage.gauge is not None:  # a verb: the most it held, before it gave any
        held = max(held, stage.gauge.most_held())
    came = None if before is None else before.snapshot()
    row["in"] = None if came is None else came[0]
    row["out"] = items
    row["errors in"] = None if came is None else came[1]
    row["errors out"] = errors
    row["calls"] = meter.calls
    holds = stage.hold is not None or stage.gauge is not None or stage.name in _LISTS
    row["held"] = held if holds else None
    if isinstance(stage, Finish):
        row["out"], row["held"] = stage.out, stage.held
    spilled = getattr(stage.gauge, "spilled", None)
    row["spilled runs"], row["spilled bytes"] = (None, None) if spilled is None else spilled()
    row["seconds"] = seconds
    row["waiting"] = None if came is None else came[2]
    row["inside"] = max(0.0, seconds - (0.0 if came is None else came[2]))
    return row


_COUNTS = (
    *("in", "out", "errors in", "errors out", "calls", "held", "spilled runs"),
    *("spilled bytes", "seconds", "waiting", "inside"),
)


def _table(rows: list[dict[str, object]], times: bool) -> str:
    """The rows as a text table: the counts, and the times in milliseconds."""
    columns = ["in", "out", "errors", "calls", "held"]
    columns += ["spilled"] if any(row.get("spilled runs") for row in rows) else []
    columns += ["inside ms", "waiting ms"] if times else []
    cells = [[str(row["step"]), *(_cell(row, c) for c in columns)] for row in rows]
    head = ["step", *columns]
    widths = [max(len(line[i]) for line in [head, *cells]) for i in range(len(head))]
    widths[0] = max(widths[0], 28)

    def line(values: list[str]) -> str:
        first = values[0].ljust(widths[0])
        rest = (v.rjust(widths[i + 1] + 2) for i, v in enumerate(values[1:]))
        return (first + "".join(rest)).rstrip()

    return "\n".join([line(head), *(line(c) for c in cells)])


def _cell(row: dict[str, object], column: str) -> str:
    """One count as the table shows it: ``-`` where none was kept, errors as in/out."""
    if column == "errors":
        into, out = row["errors in"], row["errors out"]
        if not into and not out:
            return "-"
        return f"{into or 0}/{out or 0}"
    if column == "spilled":
        runs, size = row["spilled runs"], row["spilled bytes"]
        return f"{runs} ({_bytes(size)})" if runs else "-"
    key = {"inside ms": "inside", "waiting ms": "waiting"}.get(column, column)
    value = row[key]
    if value is None or (column == "held" and value == 0):
        return "-"
    if isinstance(value, float):
        return f"{value * 1000:.1f}"
    return str(value)


def _bytes(size: object) -> str:
    """A size as the table shows it: ``12.3 MB``."""
    amount = float(size) if isinstance(size, int | float) else 0.0
    for unit in ("B", "kB", "MB"):
        if amount < 1000:
            return f"{amount:.0f} {unit}" if unit == "B" else f"{amount:.1f} {unit}"
        amount /= 1000
    return f"{amount:.1f} GB"


class Explaining:
    """``explain``, ``analyze`` and the plan as ``repr``, for both kinds of stream (each
    keeps its ``_stage``: the last node's of its plan)."""

    __slots__ = ("_call", "_stage")

    _stage: Stage
    _call: tuple[str, tuple[Any, ...], dict[str, Any]] | None  # the step being written

    @property
    def _used(self) -> bool:
        """Whether the stream was read (or a step made of it)."""
        raise NotImplementedError

    @property
    def _is_async(self) -> bool:
        """Whether the stream is read with ``async for``."""
        raise NotImplementedError

    def _restaged(self, stage: Stage) -> None:
        """Show ``stage`` as the stream's last (an analysed one, the same step)."""
        raise NotImplementedError

    @overload
    def explain(
        self, analyze: bool = False, *, format: Literal["text"] = "text", times: bool = True
    ) -> str: ...

    @overload
    def explain(
        self, analyze: bool = False, *, format: Literal["dict"], times: bool = True
    ) -> list[dict[str, object]]: ...

    def explain(
        self, analyze: bool = False, *, format: Literal["text", "dict"] = "text", times: bool = True
    ) -> str | list[dict[str, object]]:
        """The pipeline as written, one step a line, with the arguments given (nothing
        is read to show it); with ``analyze``, what each step did so far (the stream
        must have been built with ``analyze=True`` or turned so by :meth:`analyze`):
        items in and out, errors in and out (a ``catch`` takes them in, hands fewer
        out), calls of its function (every attempt of a retry; not counted in worker
        processes; a verb's key), the most items it held (a concurrent step's or a
        buffer's window, a group's list, what a sort or a top held at once, a hash
        join's table), the runs a sort spilled and their bytes (a ``spilled`` column
        when any did), the milliseconds spent inside the step and waiting on the steps
        before it.  A join's other input shows as rows of its own, indented, above the
        join; the terminal or sink that read the stream is the last row (its ``out``:
        the records a sink wrote, the size of the list, set or dict it made, else
        ``-``; its ``inside``: the time it took itself).  ``format="dict"`` gives one
        dict a row (None: not counted).  Works while a stream is read, after, and on
        one left early or ended by an error.

        >>> from lazyfun import stream
        >>> print(stream([3, 1, 2]).map(str, concurrency=4).filter(str.isdigit).explain())
        stream([3, 1, 2])
        .map(str, concurrency=4)
        .filter(str.isdigit)
        """
        if format not in ("text", "dict"):
            raise ValueError(f"explain's format is 'text' or 'dict', got {format!r}")
        return explained(self._stage, analyze, format, times)

    def analyze(self) -> Self:
        """This stream, keeping counts for :meth:`explain` from here on: in its source
        (if it is one) and in every step written after it.  Call it before reading.

        >>> from lazyfun import stream
        >>> evens = stream(range(100)).analyze().filter(lambda n: n % 2 == 0)
        >>> evens.take(2).to_list()
        [0, 2]
        >>> evens.explain(analyze=True, format="dict")[0]["out"]
        3
        """
        if self._used:
            raise ValueError("analyze(): this stream was already read; call it before reading")
        stage = self._stage
        if stage.meter is None:
            made = Stage(stage.name, stage.args, stage.source, Counts(), stage.hold, stage.keywords)
            made.sides = stage.sides
            self._restaged(made)
        return self

    def __repr__(self) -> str:
        return explained(self._stage, False, "text", True)  # type: ignore[return-value]
