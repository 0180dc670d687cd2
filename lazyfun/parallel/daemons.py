"""A thread pool whose workers never hold the process open.

``concurrent.futures.ThreadPoolExecutor`` joins its workers when the interpreter
exits, so a call blocked in user code (a socket with no timeout, a long sleep)
keeps a finished script alive.  :class:`DaemonPool` runs the calls of a Stream's
``concurrency=`` on daemon threads instead: closing the step cancels what is
queued and returns at once, and a call still running is abandoned to its thread,
which ends with the process.  A pool dropped unclosed lets its idle threads go, and
at exit every pool still open cancels what it has queued.

>>> with DaemonPool(2) as pool:
...     [f.result() for f in [pool.submit(pow, 2, n) for n in range(5)]]
[1, 2, 4, 8, 16]
"""

from __future__ import annotations

import queue
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, ParamSpec, TypeVar

__all__ = ["DaemonPool"]

P = ParamSpec("P")
T = TypeVar("T")

_Call = tuple[Future[Any], Callable[..., Any], tuple[Any, ...], dict[str, Any]]
_Calls = queue.SimpleQueue[_Call | None]


def _work(calls: _Calls, idle: threading.Semaphore) -> None:
    """A worker: the calls in turn until the pool is shut down.  It holds the queue, not
    the pool, so a pool nobody holds is collected (and shut down) while its threads wait."""
    while True:
        call = calls.get()
        if call is None:
            calls.put(None)  # the next worker stops too
            return
        future, fn, args, kwargs = call
        if future.set_running_or_notify_cancel():
            try:
                future.set_result(fn(*args, **kwargs))
            except BaseException as error:
                future.set_exception(error)
        del future, fn, args, kwargs, call  # hold nothing while idle
        idle.release()


_OPEN: weakref.WeakSet[DaemonPool] = weakref.WeakSet()


def _cancel_at_exit() -> None:
    for pool in list(_OPEN):
        pool.shutdown(wait=False, cancel_futures=True)


threading._register_atexit(_cancel_at_exit)  # type: ignore[attr-defined]


class DaemonPool(Executor):
    """At most ``workers`` calls at once, on daemon threads started as calls arrive."""

    def __init__(self, workers: int, name: str = "lazyfun") -> None:
        self._shut = True  # until it is made
        if workers < 1:
            raise ValueError(f"a pool needs at least one worker, got {workers}")
        self._workers, self._name = workers, name
        self._calls: _Calls = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._idle = threading.Semaphore(0)
        self._lock = threading.Lock()
        self._shut = False
        _OPEN.add(self)

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """``fn(*args, **kwargs)`` on a worker; a RuntimeError once the pool is shut down."""
        with self._lock:
            if self._shut:
                raise RuntimeError("cannot submit to a pool that was shut down")
            future: Future[T] = Future()
            self._calls.put((future, fn, args, kwargs))
            if not self._idle.acquire(blocking=False) and len(self._threads) < self._workers:
                worker = threading.Thread(
                    target=_work,
                    args=(self._calls, self._idle),
                    name=f"{self._name}-{len(self._threads)}",
                    daemon=True,
                )
                self._threads.append(worker)
                worker.start()
            return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """No more calls; with ``cancel_futures`` the queued ones are cancelled, and with
        ``wait`` this returns once the running ones are done (else at once)."""
        with self._lock:
            if self._shut and not cancel_futures:
                return
            self._shut = True
            _OPEN.discard(self)
            if cancel_futures:
                while True:
                    try:
                        call = self._calls.get_nowait()
                    except queue.Empty:
                        break
                    if call is not None:
                        call[0].cancel()
            self._calls.put(None)
        if wait:
            for worker in self._threads:
                worker.join()

    def __del__(self) -> None:
        """Dropped unclosed: the threads end once the calls queued are done."""
        if not self._shut:
            self._shut = True
            self._calls.put(None)
