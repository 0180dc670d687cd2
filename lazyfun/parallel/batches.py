"""Batches of puzzle lines in parallel: partitions as tasks, answers in input order.

Lines are read as partitions are handed out; a bounded number of partitions
is in flight (two per worker), and each partition's answers are yielded as
soon as it and every partition before it are done.  Each line is answered
by :func:`lazyfun.batch.answers`, exactly as the one-process path does.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from functools import partial
from typing import Any

from more_itertools import chunked

from lazyfun.batch import Answer, Method, Mode, Request, answers, numbered
from lazyfun.parallel.runners import ParallelError, runner

__all__ = ["canon_file", "solve_file"]


def _answer_part(request: Request, part: list[tuple[int, str]]) -> list[Answer]:
    """One partition of lines, answered in a worker."""
    return [a for number, text in part for a in answers(number, text, request)]


def _batch(
    lines: Iterable[str],
    request: Request,
    scheduler: str | None,
    jobs: int | None,
    partition: int,
) -> Iterator[Answer]:
    if partition < 1:
        raise ParallelError(f"partition must be at least 1 line, got {partition}")
    work = partial(_answer_part, request)
    with runner(scheduler, jobs) as run:
        pending: deque[Any] = deque()
        for part in chunked(numbered(lines), partition):
            pending.append(run.submit(work, part))
            if len(pending) >= 2 * run.workers:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()


def solve_file(
    lines: Iterable[str],
    *,
    mode: Mode = "solution",
    method: Method = "engine",
    limit: int | None = None,
    force: bool = False,
    scheduler: str | None = None,
    jobs: int | None = None,
    partition: int = 200,
) -> Iterator[Answer]:
    """Answer every puzzle line in parallel: the first solution, a count, or uniqueness.

    Lazy: lines are read as partitions are handed out, and answers come back
    in input order.  A bad line is an ``"invalid"`` answer in its place; the
    rest still run.  Mode ``all`` streams from one process only (use
    :func:`lazyfun.batch.answer_lines`).

    >>> [a.kind for a in solve_file(["1...", "0" * 16], scheduler="sync")]
    ['invalid', 'solution']
    """
    if mode in ("all", "minlex"):
        raise ValueError(f"solve_file answers solution, count or unique, not {mode!r}")
    request = Request(mode, method, limit, force)
    return _batch(lines, request, scheduler, jobs, partition)


def canon_file(
    lines: Iterable[str],
    *,
    scheduler: str | None = None,
    jobs: int | None = None,
    partition: int = 500,
) -> Iterator[Answer]:
    """The minlex form of every puzzle line in parallel, in input order."""
    return _batch(lines, Request("minlex"), scheduler, jobs, partition)
