"""What one task of a :class:`~lazyfun.parallel.window.Window` does in its worker, and
what it sends back: :func:`apply` calls the work on each item of its chunk, keeping an
exception as that item's outcome (picklable, with the worker's traceback, when it
crosses a process) and going on; a flatmap's inner iterable is read there to its end
(:func:`drained`).  This module is what a process or a dask worker imports to run a
task: nothing of the window's threads.

>>> done = apply(lambda n: 10 // n, [5, 0, 2], remote=False)
>>> done.values, sorted(done.errors), type(done.errors[1][0]).__name__
([2, None, 5], [1], 'ZeroDivisionError')
"""

from __future__ import annotations

import pickle
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

__all__ = ["Chunk", "Inner", "apply", "drained"]

Errors = TypeVar(  # where a worker keeps the errors: by item, or after a count of inner items
    "Errors", dict[int, tuple[BaseException, str]], list[tuple[int, BaseException, str]]
)


@dataclass(slots=True)
class Chunk:
    """What a worker sends back for one task: a value per item it called (None where the
    call raised), the time the task took, and the exceptions by position in the task.
    A task that overran its time has fewer values than items: the rest were not started."""

    values: list[Any]
    seconds: float
    errors: dict[int, tuple[BaseException, str]] = field(default_factory=dict)


@dataclass(slots=True)
class Inner:
    """A flatmap's inner iterable, read to its end in a worker: its items, and each error
    a read of it raised as ``(items read before it, error, worker's traceback)``."""

    items: list[Any]
    errors: list[tuple[int, BaseException, str]]


def _portable(error: Exception) -> BaseException:
    """``error`` itself if it survives pickling, else a RuntimeError that names it."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error} (not picklable, so restated)")
    return error


def _kept(error: Exception, remote: bool) -> tuple[BaseException, str]:
    """What travels back of an error raised in a worker: the error and, when it crosses
    a process, a form of it that pickles and the worker's traceback as text."""
    if remote:
        return _portable(error), "".join(traceback.format_exception(error))
    return error, ""


def drained(made: Iterable[Any], remote: bool) -> Inner:
    """The inner iterable ``made`` read as the sequential flatmap reads it: to its end,
    and on after an error (an iterator object may go on; a generator that raised has
    ended, and its next read ends it), each error kept after the items read before it.

    >>> inner = drained(map(int, "1-2"), remote=False)
    >>> inner.items, [(at, type(error).__name__) for at, error, _ in inner.errors]
    ([1, 2], [(1, 'ValueError')])
    """
    iterator = iter(made)
    items: list[Any] = []
    errors: list[tuple[int, BaseException, str]] = []
    while True:
        try:
            items.extend(iterator)  # what was read before an error stays in the list
        except Exception as error:
            errors.append((len(items), *_kept(error, remote)))
        else:
            return Inner(items, _moved(errors))


def apply(
    work: Callable[[Any], Any],
    chunk: list[Any],
    remote: bool,
    budget: float | None = None,
    inner: bool = False,
) -> Chunk:
    """``work`` on each item of a task, in a worker; an exception is kept as the item's
    outcome (with the worker's traceback when it crosses a process) and the task goes on.
    With ``inner`` (a flatmap), what ``work`` returns is read there (:func:`drained`).
    Past ``budget`` seconds the task stops after the call it is in (its last items are
    then not called: the window sends them out again)."""
    start = time.perf_counter()
    values: list[Any] = []
    errors: dict[int, tuple[BaseException, str]] = {}
    for item in chunk:
        if budget is not None and values and time.perf_counter() - start > budget:
            break
        try:
            value = work(item)
            values.append(drained(value, remote) if inner else value)
        except Exception as error:
            errors[len(values)] = _kept(error, remote)
            values.append(None)
    return Chunk(values, time.perf_counter() - start, _moved(errors))


def _moved(errors: Errors) -> Errors:
    """The errors, out of the caller's own container: the failing frames in each
    traceback lead back to the caller's frame, which must not lead to the errors again
    (a cycle would keep each error, and every frame it passed, until the collector runs)."""
    moved = errors.copy()
    errors.clear()
    return moved
