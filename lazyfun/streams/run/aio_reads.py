"""The async runner's reading: the terminals, the sinks and the verbs' folds, each a
coroutine that reads its stream once with ``async for`` and closes what it started when
done (or left early, or cancelled).  A function given to a terminal may be plain or a
coroutine function.  The sinks write on a thread of their own, never in the event loop.
The façade has checked the arguments.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

from lazyfun.sinks.errors import RecordError
from lazyfun.sinks.resume import (
    HoldsBack,
    Marking,
    Positioned,
    Progress,
    ThreadMarks,
    finished,
    job_of,
    plan,
    refuse_resume_to,
    resume_source,
)
from lazyfun.sinks.writers import (
    BATCH,
    CsvWriter,
    JsonlWriter,
    LinesWriter,
    ParquetParts,
    ParquetWriter,
    Resume,
    SqlWriter,
    Writer,
    adrain,
    adrain_resumable,
    count_parts,
    parts_of,
)
from lazyfun.streams.aio import avsteps
from lazyfun.streams.aio.aconcurrent import Concurrent, ReadAhead
from lazyfun.streams.aio.asteps import Group, aclose, call, is_async, may_wait
from lazyfun.streams.plan import Chain
from lazyfun.streams.run.aio_steps import then
from lazyfun.streams.shared.parts import NOTHING, Step
from lazyfun.streams.shared.reading import GROUP_AHEAD

if TYPE_CHECKING:
    import sqlite3

    from lazyfun.sinks.paths import PathLike
    from lazyfun.streams.verbs import Accumulators

Stream = Chain


def _empty(default: Any, name: str) -> Any:
    if default is NOTHING:
        raise ValueError(f"{name}() of an empty AsyncStream (give a default)")
    return default


async def to_list(s: Stream) -> list[Any]:
    items = s._take_items()
    try:
        return [item async for item in items]
    finally:
        await aclose(items)


async def collected(s: Stream, kind: Callable[[list[Any]], Any]) -> Any:
    """The items in a set, or a dict of the pairs."""
    return kind(await to_list(s))


async def first(s: Stream, default: Any) -> Any:
    items = s._take_items()
    try:
        async for item in items:
            return item
    finally:
        await aclose(items)
    return _empty(default, "first")


async def last(s: Stream, default: Any) -> Any:
    found = NOTHING
    items = s._take_items()
    try:
        async for item in items:
            found = item
    finally:
        await aclose(items)
    return _empty(default, "last") if found is NOTHING else found


async def count(s: Stream) -> int:
    items = s._take_items()
    n = 0
    try:
        async for _ in items:
            n += 1
    finally:
        await aclose(items)
    return n


async def reduce(s: Stream, f: Callable[[Any, Any], Any], initial: Any) -> Any:
    awaited = is_async(f)
    items = s._take_items()
    value = initial
    try:
        async for item in items:
            value = await call(f, awaited, value, item)
    finally:
        await aclose(items)
    return value


async def for_each(s: Stream, f: Callable[[Any], object]) -> None:
    awaited = is_async(f)
    items = s._take_items()
    try:
        async for item in items:
            await call(f, awaited, item)
    finally:
        await aclose(items)


def _plus(total: Any, n: Any) -> Any:
    return total + n


def sum(s: Stream, start: Any) -> Awaitable[Any]:
    return reduce(s, _plus, start)


async def extreme(s: Stream, greatest: bool, key: Any, default: Any, name: str) -> Any:
    """The first least item (``greatest``: the first greatest), by ``key`` awaited."""
    awaited = key is not None and is_async(key)
    best = mark = NOTHING
    items = s._take_items()
    try:
        async for item in items:
            this = item if key is None else await call(key, awaited, item)
            if best is NOTHING or (mark < this if greatest else this < mark):
                best, mark = item, this
    finally:
        await aclose(items)
    return _empty(default, name) if best is NOTHING else best


async def decides(s: Stream, pred: Callable[[Any], object] | None, on: bool) -> bool:
    """The first item whose truth (under ``pred``) is ``on`` decides; none: not ``on``."""
    awaited = pred is not None and is_async(pred)
    items = s._take_items()
    try:
        async for item in items:
            truth = item if pred is None else await call(pred, awaited, item)
            if bool(truth) is on:
                return on
    finally:
        await aclose(items)
    return not on


async def _folded(s: Stream, acc: Accumulators) -> Any:
    items = s._take_items()
    try:
        async for item in items:
            acc.add(item)
    finally:
        await aclose(items)
    return acc.output()


def aggregated(
    s: Stream, acc: Accumulators, every: int | None, limit: float | None, what: str
) -> Any:
    """The verbs' folds: every item into ``acc`` (awaited), or a dict a window."""
    if every is None and limit is None:
        return _folded(s, acc)
    items: AsyncIterator[Any] = s._take_items()
    ask = None
    if limit is not None and may_wait(items):  # its reads would block the loop
        items = ahead = ReadAhead(items.items, GROUP_AHEAD, asked=True)
        ask = ahead.ask
    fresh = acc.fresh
    windows = Group(items, every, limit, None, lambda: avsteps.Folded(fresh()), ask)
    return then(s, avsteps.AsyncWindows(windows))


# --- sinks: the writing on a thread of its own, never in the event loop -------------------


def _drained(
    s: Stream, open_writer: Callable[[], Writer], size: int, within: float | None
) -> Awaitable[int]:
    return adrain(open_writer, Group(s._take_items(), size, within, None))


def to_lines(
    s: Stream, path: PathLike, encoding: str, atomic: bool, resume: bool
) -> Awaitable[int]:
    if resume:
        writer = functools.partial(LinesWriter, path, encoding=encoding)
        return _resumed(s, path, atomic, "to_lines", writer)
    writer = functools.partial(LinesWriter, path, encoding=encoding, atomic=atomic)
    return _drained(s, writer, BATCH, None)


def to_jsonl(s: Stream, path: PathLike, atomic: bool, resume: bool) -> Awaitable[int]:
    if resume:
        return _resumed(s, path, atomic, "to_jsonl", functools.partial(JsonlWriter, path))
    return _drained(s, functools.partial(JsonlWriter, path, atomic=atomic), BATCH, None)


def to_csv(
    s: Stream, path: PathLike, atomic: bool, resume: bool, dialect: dict[str, Any]
) -> Awaitable[int]:
    if resume:
        writer = functools.partial(CsvWriter, path, **dialect)
        return _resumed(s, path, atomic, "to_csv", writer)
    return _drained(s, functools.partial(CsvWriter, path, atomic=atomic, **dialect), BATCH, None)


def to_parquet(
    s: Stream, path: PathLike, row_group: int, atomic: bool, resume: bool
) -> Awaitable[int]:
    if resume:
        return _resumed_parquet(s, path, row_group, atomic)
    writer = functools.partial(ParquetWriter, path, row_group=row_group, atomic=atomic)
    return _drained(s, writer, row_group, None)


def to_sql(
    s: Stream,
    db: PathLike | sqlite3.Connection,
    table: str,
    batch: int,
    limit: float | None,
    atomic: bool,
    resume: bool,
) -> Awaitable[int]:
    if resume:
        raise ValueError(
            "to_sql(resume=True) resumes a Stream's job; an AsyncStream's file sinks resume "
            "(to_jsonl, to_lines, to_csv, to_parquet), its to_sql not yet: read the source "
            "with a Stream, or write a file"
        )
    writer = functools.partial(SqlWriter, db, table, batch=batch, within=limit, atomic=atomic)
    return _drained(s, writer, batch, limit)


# --- resuming a killed job: what the loop took from the source, less what steps hold ------


class _Counted(Step):
    """The values an async stream takes from its source: each item, and each
    RecordError at its place (what the source counts in its position), counted in the
    loop as it is taken, so the count never runs ahead with a reading thread."""

    def __init__(self, source: AsyncIterator[Any]) -> None:
        self.source, self.taken = source, 0

    async def __anext__(self) -> Any:
        try:
            item = await anext(self.source)
        except RecordError:
            self.taken += 1
            raise
        self.taken += 1
        return item


# the async steps a killed job resumes through: one output an input at most, in order
_KEPT = {"Map", "Catch", "Throttle", "Metered", "Observed", "ACounting", "AsyncBar"}


def _blocker(node: object) -> str:
    """How the refusal names an async step a killed job cannot resume through."""
    if isinstance(node, Concurrent):
        return f"{node.kind}(concurrency=, ordered={node.ordered})"
    return type(node).__name__.lower()


class _Place:
    """The source's position for the records the sink has taken: where this run began
    (past what a resumed job had done), and the values the loop took from the source
    since, less what the ordered concurrent maps after it hold."""

    def __init__(self, counted: _Counted, windows: list[Concurrent]) -> None:
        self.counted, self.windows, self.start = counted, windows, 0

    def __call__(self) -> int:
        held = 0
        for window in self.windows:
            held += len(window.pending)
        return self.start + self.counted.taken - held


def _resumable(s: Stream, what: str) -> tuple[Positioned, _Place, AsyncIterator[Any], ThreadMarks]:
    """An async stream's source, its position for the records the sink has taken
    (:class:`_Place`), the items to write, and the marks its reading thread takes;
    refused at the call, with the reason, where a resume could not be exact.  The
    source is read on a thread (``astream(read_jsonl(...))``), so its position is
    counted in the loop (:class:`_Counted`), never read from the source while that
    thread reads, and where it stands is taken by that thread (:class:`ThreadMarks`),
    each mark naming the records given when it was taken."""
    source, _ = plan(s._holds, None, what)
    if any(isinstance(hold, HoldsBack) for hold in s._holds):
        raise ValueError(
            f"{what}(resume=True): a concurrent step of the Stream an AsyncStream reads "
            "cannot say, from the loop, which records it holds; make it a step of the "
            "AsyncStream"
        )
    reader, chain = _chain(s, source, what)
    windows = _windows(chain, what)
    marks = ThreadMarks()
    reader.ahead.source = marks.reading(reader.ahead.source)  # its thread starts at the first read
    items: AsyncIterator[Any] = s._take_items()  # the chain, or a meter over it
    counted = _Counted(reader)
    if items is reader:
        items = counted
    else:  # not read yet: the step over the source reads through the count
        over: Any = chain[-1] if chain else items  # a step, or the meter over the source
        over.source = counted
    return source, _Place(counted, windows), items, marks


def _chain(s: Stream, source: object, what: str) -> tuple[ReadAhead, list[Any]]:
    """The reader of ``source`` at the root of the async chain, and the steps from the
    sink up to it; refused where a step does not keep one output an input, or the
    source is not read as it is."""
    chain: list[Any] = []
    node: Any = s._items
    while type(node).__name__ in _KEPT or isinstance(node, Concurrent):
        chain.append(node)
        node = node.source
    if not isinstance(node, ReadAhead) and getattr(node, "source", None) is not None:
        _refuse(what, _blocker(node))
    if not isinstance(node, ReadAhead) or node.ahead.source is not source:
        raise ValueError(
            f"{what}(resume=True) reads the source itself: astream(read_jsonl(...)) (or "
            "another reader of lazyfun.io) with the steps on the AsyncStream"
        )
    return node, chain


def _windows(chain: list[Any], what: str) -> list[Concurrent]:
    """The concurrent steps of ``chain``, each an ordered map or do before any step that
    drops (else refused: it could not say which records its outputs came from)."""
    windows: list[Concurrent] = []
    dropped = None
    for step in reversed(chain):  # from the source down
        if isinstance(step, Concurrent):
            if step.kind not in ("map", "do") or not step.ordered:
                _refuse(what, _blocker(step))
            if dropped is not None:
                _refuse(what, f"{step.kind}(concurrency=) after a {dropped}")
            windows.append(step)
        elif type(step).__name__ == "Catch" or getattr(step, "kind", None) == "filter":
            dropped = dropped or ("catch" if type(step).__name__ == "Catch" else "filter")
    return windows


def _refuse(what: str, step: str) -> None:
    raise ValueError(
        f"{what}(resume=True): the pipeline's {step} step cannot resume exactly (its "
        "output would not follow the source, or would start over); resume runs a "
        "pipeline of map, filter, do, catch, throttle, observe and progress"
    )


def _resumed(
    s: Stream, path: PathLike, atomic: bool, what: str, make: Callable[..., Any]
) -> Awaitable[int]:
    """A file sink's job, resumed where a progress file beside ``path`` says it stopped
    (or begun, writing one), as a Stream's is, refused at the call where it cannot; the
    source goes on from the mark its reading thread took at the last commit or before,
    where it can seek."""
    name = refuse_resume_to(path, atomic, what)
    source, position, items, marks = _resumable(s, what)
    progress = Progress(name, job_of(source, what))
    state = progress.load()  # refused here where the output is not this job's
    if state is not None and state["done"]:
        return _finished(items, name)
    if state is None:
        writer = functools.partial(_begun, make, progress)
    else:
        resume = Resume(progress, state["size"], state["written"])
        writer = functools.partial(_opened, make, resume, source, state, position, marks)
    return adrain_resumable(writer, items, position, marks)


def _begun(make: Callable[..., Any], progress: Progress) -> Any:
    """The writer of a job begun, on the sink's thread, its record saved before the
    output is opened (a kill leaves an output this job may cut back)."""
    progress.begin()
    return make(resume=Resume(progress))


def _opened(
    make: Callable[..., Any],
    resume: Resume,
    source: Positioned,
    state: dict[str, Any],
    place: _Place,
    marks: ThreadMarks,
    **more: Any,
) -> Any:
    """The writer of a resumed job, on the sink's thread, the source gone on past what was
    done first (from its mark where it can seek, reading through the rest, never in the
    loop, before its reading thread starts): the position this run begins at, and the
    first mark of this run, until its thread takes one."""
    resume_source(source, state)
    place.start = source.position
    if isinstance(source, Marking):
        marks.took(source.mark())
    return make(resume=resume, **more)


def _resumed_parquet(s: Stream, path: PathLike, row_group: int, atomic: bool) -> Awaitable[int]:
    """``to_parquet``'s job, resumed from the parts its progress names."""
    name = refuse_resume_to(path, atomic, "to_parquet")
    source, position, items, marks = _resumable(s, "to_parquet")
    progress = Progress(name, job_of(source, "to_parquet"))
    state = progress.load_parts(parts_of(name), functools.partial(count_parts, name))
    if state is not None and state["done"]:
        return _finished(items, name)
    make = functools.partial(ParquetParts, name, row_group=row_group)
    if state is None:
        writer = functools.partial(make, resume=Resume(progress), parts=0)
    else:
        resume = Resume(progress, None, state["written"])
        parts = state["parts"]
        writer = functools.partial(
            _opened, make, resume, source, state, position, marks, parts=parts
        )
    return adrain_resumable(writer, items, position, marks)


async def _finished(items: AsyncIterator[Any], name: str) -> int:
    await aclose(items)
    return finished(name)
