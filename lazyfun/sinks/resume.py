"""A killed job that resumes: a sink given ``resume=True`` makes each batch durable and
records with it how far the pipeline's source had been read for it; run again, it cuts
its output back to the last durable batch, has the source skip what was done, and
appends, so the output is as if the job had never stopped.

- Files (``to_jsonl``, ``to_lines``, ``to_csv``): a job begun records itself (nothing
  written yet) before it opens its output; each batch is flushed and fsynced, then
  ``PATH.progress`` (the output's size, the source's position, the records written,
  whether the job ended, and where the source stood: :class:`Marks`) is replaced
  atomically.  A torn last line is cut away with the rest of an unfinished batch.
- Parquet (``to_parquet``), a file that is whole or useless: each batch is a row
  group in a Parquet file of its own in the folder ``PATH.parts`` (written beside,
  renamed, fsynced), then the progress names it, so what is committed is what a
  reader of the folder sees; when the job ends the parts are copied, row group by row
  group, into a file beside ``PATH`` that is renamed over it, and the folder goes.
- SQLite (``to_sql``): the batch and its progress row (``lazyfun_progress``: the
  position, whether the job ended, the source's mark) are one transaction.
- The position is the source's count of records read (a bad record counts), less
  what a concurrent ordered map still holds: the records caught or filtered out
  count, since the output's length is not the source's position.  A file source that
  can seek (a local file, not compressed) goes on from the byte offset recorded with
  the progress, reading through only the records between that mark and the position
  (those a concurrent map held at the commit; an AsyncStream's, whose source is read
  on a thread of its own, also those since the mark that thread took last before the
  commit, :class:`ThreadMarks`); any other source reads through what was done.
- A record names its job: the sink and its source (a file source by its absolute
  path).  ``resume=True`` never destroys what it did not write: an output that holds
  something (a file of some bytes, a table of some rows) with no record of a job
  beside it, or whose record names another job, is refused with the reason
  (:class:`~lazyfun.sinks.errors.RecordError`, naming the output) before anything is
  written or read.
- Only a pipeline whose output follows its source, one output for each record at
  most, can resume exactly: one lazyfun source that can skip, then ``map``,
  ``filter``, ``do`` (concurrent ones ordered, ``map``/``do`` only, and before any
  ``filter`` or ``catch``), ``catch``, ``throttle``, ``observe``, ``progress``.
  Anything else is refused at the call with the reason, never resumed wrongly.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import chain, islice
from typing import Any, Protocol, runtime_checkable

from lazyfun.sinks.errors import RecordError
from lazyfun.sinks.paths import PathLike, is_url

__all__ = [
    "MARK_EVERY",
    "Marking",
    "Marks",
    "Progress",
    "Resumable",
    "ThreadMarks",
    "drain_resumable",
    "durable",
    "finished",
    "job_of",
    "plan",
    "refuse_resume_to",
    "resume_source",
]

_log = logging.getLogger("lazyfun.resume")


@runtime_checkable
class Positioned(Protocol):
    """A source that counts the records it gave and can skip them."""

    position: int

    def skip(self, n: int) -> None: ...


@runtime_checkable
class HoldsBack(Protocol):
    """A step that reads ahead: how many inputs it holds (None: it cannot say)."""

    def held_back(self) -> int | None: ...


def plan(
    sources: Iterable[object], blocker: str | None, what: str
) -> tuple[Positioned, Callable[[], int]]:
    """The pipeline's source and the function that gives its position for the records the
    sink has received; refused with the reason where a resume could not be exact."""
    if blocker is not None:
        raise ValueError(
            f"{what}(resume=True): the pipeline's {blocker} step cannot resume exactly (its "
            "output would not follow the source, or would start over); resume runs a "
            "pipeline of map, filter, do, catch, throttle, observe and progress"
        )
    held = list(sources)
    positioned = [hold for hold in held if isinstance(hold, Positioned)]
    if len(positioned) != 1:
        raise ValueError(
            f"{what}(resume=True) needs a pipeline read from one lazyfun source that can skip "
            f"(read_jsonl, read_lines, read_csv, read_parquet, read_sql); this one has "
            f"{len(positioned)}"
        )
    windows = [hold for hold in held if isinstance(hold, HoldsBack)]
    for window in windows:
        if window.held_back() is None:
            raise ValueError(
                f"{what}(resume=True): a concurrent step that is unordered, or a filter or "
                "flatmap, cannot say which records its outputs came from; make it an "
                "ordered map"
            )
    source = positioned[0]

    def position() -> int:
        return source.position - sum(window.held_back() or 0 for window in windows)

    return source, position


@runtime_checkable
class Marking(Protocol):
    """A source that can say where its reading stands, to go on from there."""

    def mark(self) -> dict[str, Any] | None: ...


class Marks:
    """Where the source stood at each commit (its ``mark()``: a file source's byte offset),
    to record with a committed position the latest mark taken at it or before: what a
    resumed job seeks to.  With no concurrent map, the mark of a commit is at its
    position; with one, the records it held are read through on resume."""

    def __init__(self, source: object) -> None:
        self.source = source if isinstance(source, Marking) else None
        self.taken: deque[dict[str, Any]] = deque()

    def at(self, position: int) -> dict[str, Any] | None:
        """The mark to record with ``position`` (None: read through on resume), the
        source's mark now taken for the commits to come."""
        now = None if self.source is None else self.source.mark()
        if now is not None:
            self.taken.append(now)
        return self._latest(position)

    def _latest(self, position: int) -> dict[str, Any] | None:
        """The latest mark taken at ``position`` or before (None: none), those before it
        let go of, it kept for a later position."""
        best = None
        while self.taken and self.taken[0]["position"] <= position:
            best = self.taken.popleft()
        if best is not None:
            self.taken.appendleft(best)  # still the best for a later position
        return best


class _Readable(Positioned, Marking, Iterator[Any], Protocol):
    """A source read on a thread of its own, that can say where its reading stands."""


MARK_EVERY = 1024  # the values between two marks a reading thread takes (16 µs a mark)


class ThreadMarks(Marks):
    """The marks of a source read on a thread of its own (an AsyncStream's reader), taken
    by that thread as it reads, never by another (where the source stands is that
    thread's to say): one every ``every`` values given, a record error counted, as in
    the position (:meth:`reading` wraps the source), each naming the values given when
    it was taken.  A commit records the latest of them at its position or before,
    never one ahead of what it committed, however far the thread has read ahead; a
    resumed job seeks to it and reads through the values from there to the position:
    ``every`` at most, and those held.  It
    keeps ``most`` marks at most: the last commit's (a later commit's fallback, as a
    Stream's) and the latest, the thread being no further ahead of a commit than its
    read-ahead and what the concurrent steps hold (and what a filter dropped since the
    last record the sink took)."""

    def __init__(self, every: int = MARK_EVERY, most: int = 64) -> None:
        super().__init__(None)
        self.every, self.most = every, most
        self.lock = threading.Lock()

    def took(self, mark: dict[str, Any] | None) -> None:
        """Keep ``mark`` (None: the source cannot say where it stands, nothing kept), the
        second oldest let go of when ``most`` are kept."""
        if mark is not None:
            with self.lock:
                if len(self.taken) >= self.most:
                    del self.taken[1]
                self.taken.append(mark)

    def at(self, position: int) -> dict[str, Any] | None:
        """The latest mark taken at ``position`` or before (None: read through on resume),
        kept for a later position."""
        with self.lock:
            return self._latest(position)

    def reading(self, source: Iterator[Any]) -> Iterator[Any]:
        """``source`` as its thread reads it, its mark taken every ``every`` values (the
        source itself where it cannot say where it stands)."""
        if isinstance(source, Positioned) and isinstance(source, Marking):
            return chain.from_iterable(self._stretches(source))
        return source

    def _stretches(self, source: _Readable) -> Iterator[Iterator[Any]]:
        """The values of ``source`` in stretches of ``every``, each read in C (nothing
        between its values), the source's mark taken after each, on the reading thread.
        A stretch cut short (the end, or an error) is followed by one value read on its
        own, which tells the end from an error (the reading goes on after an error, as
        the source's own does)."""
        every = self.every
        while True:
            before = source.position
            yield islice(source, every)
            if source.position - before < every:
                last = _Last(source)
                yield last
                if last.ended:
                    return
            self.took(source.mark())


class _Last(Iterator[Any]):
    """One value of a source, read on its own: whether the source has ended."""

    def __init__(self, source: Iterator[Any]) -> None:
        self.source, self.read, self.ended = source, False, False

    def __next__(self) -> Any:
        if self.read:
            raise StopIteration
        self.read = True
        try:
            return next(self.source)
        except StopIteration:
            self.ended = True
            raise


def resume_source(source: Positioned, state: dict[str, Any]) -> None:
    """Have ``source`` go on after the position ``state`` records: from its mark, where
    it can seek, else by reading through."""
    resume = getattr(source, "resume", None)
    if callable(resume):
        resume(state.get("mark"), state["position"])
    else:
        source.skip(state["position"])


def refuse_resume_to(path: PathLike, atomic: bool, what: str) -> str:
    """The local file a resumable sink writes, refused at the call where it cannot be cut
    back and appended to."""
    name = os.fspath(path)
    if atomic:
        raise ValueError(f"{what}: resume=True appends to what was written; atomic=True cannot")
    if name == "-" or is_url(name) or name.endswith((".gz", ".bz2", ".xz", ".zst")):
        raise ValueError(
            f"{what}(resume=True) cuts its output back and appends: {name} is not a plain local "
            "file"
        )
    return name


def job_of(source: object, what: str) -> str:
    """The job a resumable sink's record names: the sink and the source it reads, a file
    source by its absolute path (the same job run from another folder is the same job).

    >>> job_of(object(), "to_jsonl")
    'to_jsonl from object'
    """
    path, made_by = getattr(source, "path", None), getattr(source, "made_by", None)
    if isinstance(path, (str, os.PathLike)) and isinstance(made_by, str):
        name = os.fspath(path)
        read = f"{made_by}({name if is_url(name) else os.path.abspath(name)!r})"
    else:
        read = str(getattr(source, "plan", type(source).__name__))
    return f"{what} from {read}"


def refuse_unrecorded(output: str, holds: str, record: str) -> RecordError:
    """The refusal of an output that holds something no record says this job wrote."""
    return RecordError(
        output,
        None,
        f"resume=True keeps only what its job wrote, and this holds {holds} with "
        f"{record}: move it away, or write without resume= to replace it",
    )


class Progress:
    """A file sink's progress, ``PATH.progress`` beside its output: a small JSON object
    naming its ``job`` (:func:`job_of`), replaced atomically (written beside it,
    fsynced, renamed)."""

    def __init__(self, output: str, job: str) -> None:
        self.output, self.job = output, job
        self.path = output + ".progress"

    def _read(self) -> dict[str, Any]:
        try:
            with open(self.path, encoding="utf-8") as file:
                state: dict[str, Any] = json.load(file)
        except FileNotFoundError:
            state = {}
        return state

    def _refuse_another(self, state: dict[str, Any], size: int) -> None:
        """Refuse an output whose record names another job (or none)."""
        if state.get("job") != self.job:
            named = state.get("job")
            raise refuse_unrecorded(
                self.output,
                f"{size:,} bytes",
                f"{self.path} naming {'no job' if named is None else repr(named)}, "
                f"not {self.job!r}",
            )

    def load(self) -> dict[str, Any] | None:
        """The progress of this job's earlier run, or None where there is nothing to go on
        from (no output, or an empty one); refused (a RecordError naming the output)
        where the output holds bytes that no record says this job wrote: no progress
        beside them, or one naming another job."""
        state = self._read()
        if not os.path.exists(self.output):
            return None  # no output (or the output is gone): start afresh
        size = os.path.getsize(self.output)
        if not state:
            if size == 0:
                return None  # nothing there to keep
            raise refuse_unrecorded(self.output, f"{size:,} bytes", f"no {self.path} beside it")
        self._refuse_another(state, size)
        if size < state["size"]:
            raise RecordError(
                self.output,
                None,
                f"shorter than its progress file says ({state['size']:,} bytes): it was "
                f"changed outside the job; remove it and {self.path} to start afresh",
            )
        return state

    def load_parts(self, folder: str, parts: Callable[[], int]) -> dict[str, Any] | None:
        """:meth:`load` for an output written whole at the end from the parts in
        ``folder`` (``parts()`` counts them): the committed state is the parts, so a
        job not ended goes on with no output yet; one that ended starts afresh where its
        output is gone (its folder, if a kill left it, removed).  Refused as :meth:`load`
        is where the output holds bytes no record says this job wrote, and where fewer
        parts are there than its progress names."""
        state = self._read()
        size = os.path.getsize(self.output) if os.path.exists(self.output) else 0
        if not state:
            if size:
                raise refuse_unrecorded(self.output, f"{size:,} bytes", f"no {self.path} beside it")
            return None
        self._refuse_another(state, size)
        if state["done"]:  # the parts a kill left after the end are of no more use
            shutil.rmtree(folder, ignore_errors=True)
            return state if os.path.exists(self.output) else None
        if parts() < state["parts"]:
            raise RecordError(
                self.output,
                None,
                f"{folder} holds fewer parts than its progress file says ({state['parts']:,}):"
                f" it was changed outside the job; remove it and {self.path} to start afresh",
            )
        return state

    def begin(self) -> None:
        """The record of a job begun, saved before its output is opened: a kill between
        the first batch's bytes and its progress leaves an output this job may cut back
        (to nothing), not one it holds no record of."""
        self.save(size=0, position=0, written=0, done=False, mark=None)

    def save(self, **state: Any) -> None:
        """Replace the record with ``state`` and this job's name."""
        fresh = self.path + ".tmp"
        with open(fresh, "w", encoding="utf-8") as file:
            json.dump({"job": self.job, **state}, file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(fresh, self.path)
        folder = os.open(os.path.dirname(os.path.abspath(self.path)), os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


class Resumable(Protocol):
    """A writer that can make batches durable with the source's position."""

    batch: int
    written: int

    def write(self, records: list[Any]) -> None: ...

    def begin(self) -> None: ...

    def commit(self, position: int, done: bool, mark: dict[str, Any] | None = None) -> None: ...

    def abort(self) -> None: ...

    def close(self, failed: bool) -> None: ...


def drain_resumable(
    writer: Resumable, items: Iterator[Any], position: Callable[[], int], marks: Marks
) -> int:
    """Write ``items`` in batches, each made durable with the source's position after its
    last record (and the source's mark for it, :class:`Marks`); at the end, the position
    of the whole source, marked done.  A batch that fails or is interrupted is undone
    (the next run writes it again)."""
    gathered: list[Any] = []
    mark = position()
    try:
        while True:
            try:
                item = next(items)
            except StopIteration:
                mark = position()  # what was caught or filtered after the last record
                break
            except BaseException:
                # an error or an interrupt from the pipeline: what reached the sink is made
                # durable, with the position after it (the failing record is read again)
                durable(writer, gathered, mark, marks, done=False)
                raise
            gathered.append(item)
            mark = position()
            if len(gathered) >= writer.batch:
                durable(writer, gathered, mark, marks, done=False)
                gathered = []
        durable(writer, gathered, mark, marks, done=True)
    except BaseException:
        writer.close(failed=True)
        raise
    writer.close(failed=False)
    return writer.written


def durable(
    writer: Resumable, records: list[Any], position: int, marks: Marks, done: bool = False
) -> None:
    """``records`` written and made durable with ``position`` (and its mark), ``done``
    whether the job ended; undone (the next run writes them again) where that fails."""
    writer.begin()
    try:
        if records:
            writer.write(records)
        writer.commit(position, done, marks.at(position))
    except BaseException:
        writer.abort()
        raise


def finished(where: str) -> int:
    """What a resumed sink whose job had ended writes: nothing, said in the log."""
    _log.warning("%s: the job had ended (resume=True): nothing new written", where)
    return 0
