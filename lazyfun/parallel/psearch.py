"""The search skeleton on parallel workers: the tree cut near its root, subtrees as tasks.

:func:`lazyfun.search` walks one tree depth-first.  Its subtrees are
independent, so ``psearch`` cuts the top of the tree here
(:func:`lazyfun.parallel.tree.cut`) where it holds enough open subtrees for
the workers, or ``depth`` levels down.  Each open subtree is one task running the same
``search`` below it; solutions stream back as subtrees finish.

Order: by default solutions come as they are found (the states complete
above the cut first, then each subtree's solutions when it finishes), so
the first solution does not wait for the slowest subtree.  With
``ordered=True`` they come in exactly the order of the sequential ``search``,
each subtree's solutions when it and every subtree before it are done.

A subtree's solutions travel back together when it finishes: the cut makes
many small subtrees (sixteen per worker by default) so that this stays short.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any, TypeVar

from lazyfun.parallel.runners import ParallelError, Runner, check_jobs, check_sendable, runner
from lazyfun.parallel.tree import Cut, Tree, cut
from lazyfun.search import never, search, unchanged

__all__ = ["SUBTREES_PER_WORKER", "psearch"]

S = TypeVar("S")

SUBTREES_PER_WORKER = 16


def _below(tree: Tree[S], node: S) -> list[S]:
    """Every solution below an open node, in a worker: the sequential ``search``."""
    return list(
        search(
            node,
            expand1=tree.expand1,
            complete=tree.complete,
            blocked=tree.blocked,
            prune=tree.prune,
        )
    )


def _noted(future: Any, node: object) -> list[Any]:
    try:
        found: list[Any] = future.result()
    except Exception as error:
        error.add_note(f"psearch: raised in the subtree below {node!r:.200}")
        raise
    return found


def _run(
    start: S,
    tree: Tree[S],
    depth: int | None,
    scheduler: str | None,
    jobs: int | None,
    ordered: bool,
) -> Generator[S, None, None]:
    with runner(scheduler, jobs) as run:
        top = cut(start, tree, depth=depth, wanted=SUBTREES_PER_WORKER * run.workers)
        futures = {
            i: run.submit(_below, tree, node.state)
            for i, node in enumerate(top)
            if not node.solution
        }
        try:
            yield from (_in_order if ordered else _as_found)(run, top, futures)
        finally:
            run.cancel(futures.values())


def _in_order(run: Runner, top: list[Cut[S]], futures: dict[int, Any]) -> Iterator[S]:
    for i, node in enumerate(top):
        if node.solution:
            yield node.state
        else:
            yield from _noted(futures.pop(i), node.state)


def _as_found(run: Runner, top: list[Cut[S]], futures: dict[int, Any]) -> Iterator[S]:
    for node in top:
        if node.solution:
            yield node.state
    index = {id(f): i for i, f in futures.items()}
    for future in run.as_completed(list(futures.values())):
        i = index[id(future)]
        del futures[i]
        yield from _noted(future, top[i].state)


def psearch(
    start: S,
    *,
    expand1: Callable[[S], Iterable[S]],
    complete: Callable[[S], object],
    blocked: Callable[[S], object] = never,
    prune: Callable[[S], S] = unchanged,
    depth: int | None = None,
    jobs: int | None = None,
    scheduler: str | None = None,
    ordered: bool = False,
) -> Generator[S, None, None]:
    """:func:`lazyfun.search` with its subtrees searched on parallel workers.

    The same solutions as ``search(start, ...)``: in the order they are
    found, or with ``ordered=True`` in the sequential order.  The tree is cut
    ``depth`` levels down (default: where it holds sixteen open subtrees per
    worker).  ``jobs`` and ``scheduler`` as for every lazyfun.parallel
    function.  Stopping early cancels the subtrees not yet searched.

    The four functions and ``start`` go to worker processes, so they must be
    picklable there (checked at the call; a lambda is refused by the process
    pool that stands in for dask, and accepted by dask's cloudpickle).

    >>> def expand1(chosen):
    ...     return [chosen + (k,) for k in range(1, 4) if sum(chosen) + k <= 4]
    >>> sorted(psearch((), expand1=expand1, complete=lambda c: sum(c) == 4, scheduler="sync"))
    [(1, 1, 1, 1), (1, 1, 2), (1, 2, 1), (1, 3), (2, 1, 1), (2, 2), (3, 1)]
    """
    if depth is not None and depth < 0:
        raise ParallelError(f"depth must be at least 0, got {depth}")
    check_jobs(jobs)
    tree = Tree(expand1, complete, blocked, prune)
    for name, value in (*zip(Tree._fields, tree, strict=True), ("start", start)):
        check_sendable(value, f"psearch's {name}", scheduler)
    return _run(start, tree, depth, scheduler, jobs, ordered)
