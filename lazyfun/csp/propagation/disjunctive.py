"""Propagators for scheduling: disjunctive reasoning for ``no_overlap``, time-tabling for
``cumulative``.

Each task is read off the domains as its window: the earliest start ``est``
(the start's lowest value), its length ``p`` (the least its size can be: a
task at least that long runs at least then, so reasoning on it is sound) and
its latest completion ``lct = lst + p``.  A task is *mandatory* when it is
present for sure, *optional* while its presence is open, and left out when
absent or of length 0 (it occupies no time).  Mandatory tasks push each other's
windows; an optional task is pushed by the mandatory ones only to see whether
it still fits, and when it cannot, its presence becomes 0 (its start is not
touched: an absent task's start is free).

The rules for ``no_overlap`` (Vilím's names; a set's earliest completion
``ECT(S)`` is the most, over its tasks ``k``, of ``est_k`` plus the lengths of
the tasks of ``S`` starting no earlier):

- overload checking: ``ECT(S) > lct(S)`` fails, for each ``S`` of the tasks
  due by some time;
- detectable precedences: when ``est_i + p_i > lct_j - p_j``, ``j`` must run
  before ``i``, so ``i`` starts after the ECT of all those ``j``;
- edge finding: when the tasks ``S`` due by ``L`` and ``i`` (due later)
  cannot all end by ``L``, ``i`` runs after all of ``S``: it starts after ``ECT(S)``;
- not-first: when ``i`` cannot run before all of the tasks that could not end
  before it starts, it starts after the earliest of their ends;
- and each rule again on the mirror image (times negated), which brings the
  latest completions in.

Quadratic forms over lists (edge finding in O(n^2 log n), skipping the due
times where no edge can be found), not Vilím's O(n log n) Theta-trees: a job
shop's machines hold 6 to 15 tasks.

Installed from source, this module is compiled with mypyc (see
:mod:`lazyfun.compiled`); the code here is what runs either way.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from itertools import pairwise

from lazyfun.csp.propagation.filters import Changes, Propagator, low

__all__ = ["SetTimes", "Task", "cumulative_filter", "no_overlap_filter"]

# One interval as the propagators see it: its start, its size decision (-1: a
# number) and that number, its presence decision (-1: always present), its
# demand decision (-1: a number) and that number.
Task = tuple[int, int, int, int, int, int]

MANDATORY = 1
NEVER = -(1 << 62)  # before any time
OPTIONAL = 2


class Windows:
    """The tasks' windows read off the domains: ``est``, ``lct``, ``p``, ``d``
    (demand) and ``kind`` (0: left out, ``MANDATORY``, ``OPTIONAL``)."""

    def __init__(self, n: int) -> None:
        self.est = [0] * n
        self.lct = [0] * n
        self.p = [0] * n
        self.d = [0] * n
        self.kind = [0] * n

    def read(self, tasks: list[Task], offsets: list[int], doms: list[int]) -> None:
        """Each task's window in the current domains."""
        est, lct, p, d, kind = self.est, self.lct, self.p, self.d, self.kind
        for k, (start, size_at, size, present, demand_at, demand) in enumerate(tasks):
            length = size if size_at < 0 else offsets[size_at] + low(doms[size_at])
            need = demand if demand_at < 0 else offsets[demand_at] + low(doms[demand_at])
            if length <= 0 or need <= 0:
                kind[k] = 0
                continue
            kind[k] = MANDATORY if present < 0 else presence(doms[present], offsets[present])
            bits = doms[start]
            est[k] = offsets[start] + low(bits)
            lct[k] = offsets[start] + bits.bit_length() - 1 + length
            p[k] = length
            d[k] = need


def presence(bits: int, offset: int) -> int:
    """A 0/1 presence's kind: ``OPTIONAL`` while open, else ``MANDATORY`` or 0 (absent)."""
    if bits & (bits - 1):
        return OPTIONAL
    return MANDATORY if offset + low(bits) == 1 else 0


def by_est(est: list[int], tasks: list[int]) -> list[int]:
    """``tasks`` sorted by earliest start."""
    return [j for _, j in sorted([(est[j], j) for j in tasks])]


def ect(order: list[int], est: list[int], p: list[int], lct: list[int], due: int) -> int:
    """``ECT`` of the tasks of ``order`` (sorted by ``est``) due by ``due``."""
    end = NEVER
    for j in order:
        if lct[j] <= due:
            e = est[j]
            end = (e if e > end else end) + p[j]
    return end


def ect_with(
    order: list[int], est: list[int], p: list[int], lct: list[int], due: int, i: int
) -> int:
    """``ECT`` of the tasks of ``order`` due by ``due``, and task ``i`` (not among them)."""
    end = NEVER
    est_i = est[i]
    placed = False
    for j in order:
        if not placed and est_i <= est[j]:
            end = (est_i if est_i > end else end) + p[i]
            placed = True
        if lct[j] <= due and j != i:
            e = est[j]
            end = (e if e > end else end) + p[j]
    if not placed:
        end = (est_i if est_i > end else end) + p[i]
    return end


def earliest_starts(
    est: list[int], lct: list[int], p: list[int], mandatory: list[int], tasks: list[int]
) -> list[int] | None:
    """The earliest starts of ``tasks`` that overload checking, detectable precedences
    and edge finding prove, with the ``mandatory`` tasks as the ones that push;
    None when the mandatory tasks are overloaded.

    For each time ``due``, the set ``S`` of mandatory tasks due by then, sorted by
    est: with ``rest[k]`` the lengths of its tasks from the ``k``-th on, ``ECT(S)``
    is the most of ``est_k + rest[k]``, and adding a task ``i`` that would come
    ``q``-th in the order, ``ECT(S + i)`` is the most of that over ``k >= q``, of
    ``p_i`` more over ``k < q``, and of ``est_i + p_i + rest[q]``.
    """
    order = by_est(est, mandatory)
    dues = sorted({lct[j] for j in mandatory})
    new = [est[i] for i in tasks]
    longest = max([p[i] for i in tasks])
    latest = max([est[i] + p[i] for i in tasks])
    for due in dues:
        theta = ect(order, est, p, lct, due)
        if theta > due:
            return None  # overload: the tasks due by ``due`` cannot all end by then
        if theta + longest <= due and latest <= due:
            continue  # adding a task ``i`` ends by ``max(theta, est_i) + p_i``: no edge
        members = [j for j in order if lct[j] <= due]
        m = len(members)
        rest = [0] * (m + 1)
        for k in range(m - 1, -1, -1):
            rest[k] = rest[k + 1] + p[members[k]]
        after = [NEVER] * (m + 1)  # the most of est_k + rest[k] over k >= q
        for k in range(m - 1, -1, -1):
            v = est[members[k]] + rest[k]
            after[k] = v if v > after[k + 1] else after[k + 1]
        before = [NEVER] * (m + 1)  # the most of est_k + rest[k] over k < q
        for k in range(m):
            v = est[members[k]] + rest[k]
            before[k + 1] = v if v > before[k] else before[k]
        starts = [est[j] for j in members]
        for k, i in enumerate(tasks):
            if lct[i] <= due or theta <= new[k]:
                continue
            q = bisect_left(starts, est[i])
            with_i = est[i] + p[i] + rest[q]
            if after[q] > with_i:
                with_i = after[q]
            if before[q] + p[i] > with_i:
                with_i = before[q] + p[i]
            if with_i > due:
                new[k] = theta  # edge finding: i runs after every task due by ``due``
    detectable_precedences(est, lct, p, order, tasks, new)
    not_first(est, lct, p, [j for _, j in sorted([(-lct[j], j) for j in mandatory])], tasks, new)
    return new


def not_first(
    est: list[int],
    lct: list[int],
    p: list[int],
    order: list[int],
    tasks: list[int],
    new: list[int],
) -> None:
    """Raise ``new[k]``, the earliest start of ``tasks[k]`` (``i``), when ``i`` cannot come
    first among the tasks ``S`` of ``order`` (sorted by lct, latest first) that could
    not end before it starts (``est_j + p_j > est_i``): when the latest start of ``S``
    (the least, over its tasks ``k``, of ``lct_k`` less the lengths of the tasks due
    no later) comes before ``est_i + p_i``, some task of ``S`` runs before ``i``, which
    starts after the earliest of their ends."""
    for k, i in enumerate(tasks):
        est_i = est[i]
        start = 1 << 62
        first_end = 1 << 62
        for j in order:
            ect_j = est[j] + p[j]
            if j != i and ect_j > est_i:
                c = lct[j]
                start = (c if c < start else start) - p[j]
                if ect_j < first_end:
                    first_end = ect_j
        if start < est_i + p[i] and first_end > new[k]:
            new[k] = first_end


def detectable_precedences(
    est: list[int],
    lct: list[int],
    p: list[int],
    order: list[int],
    tasks: list[int],
    new: list[int],
) -> None:
    """Raise ``new[k]``, the earliest start of ``tasks[k]`` (``i``), to the ECT of the
    tasks ``j`` of ``order`` (sorted by est) it cannot precede: ``est_i + p_i > lct_j - p_j``."""
    for k, i in enumerate(tasks):
        ect_i = est[i] + p[i]
        end = NEVER
        for j in order:
            if j != i and ect_i > lct[j] - p[j]:
                e = est[j]
                end = (e if e > end else end) + p[j]
        if end > new[k]:
            new[k] = end


def fits_alone(est: list[int], lct: list[int], p: list[int], mandatory: list[int], i: int) -> bool:
    """Whether optional task ``i`` added to the ``mandatory`` ones overloads none of the
    sets due by ``lct_i`` or later."""
    order = by_est(est, mandatory)
    for due in sorted({lct[j] for j in mandatory if lct[j] >= lct[i]} | {lct[i]}):
        if ect_with(order, est, p, lct, due, i) > due:
            return False
    return True


def _cut(doms: list[int], i: int, offset: int, lowest: int, highest: int) -> int:
    """Decision ``i``'s bits kept within ``lowest .. highest``; 0 when none is left."""
    bits = doms[i]
    lo = lowest - offset
    if lo > 0:
        bits = bits >> lo << lo
    hi = highest - offset
    if hi < 0:
        return 0
    return bits & ((1 << (hi + 1)) - 1)


def _windows_update(
    doms: list[int],
    tasks: list[Task],
    offsets: list[int],
    w: Windows,
    items: list[int],
    lows: list[int],
    highs: list[int],
) -> Changes:
    """Narrow each mandatory task of ``items`` to start in ``lows[k] .. highs[k] - p``, and
    make absent each optional one whose window emptied; None when a mandatory one's did."""
    changed: list[int] = []
    for k, t in enumerate(items):
        start = tasks[t][0]
        if w.kind[t] == OPTIONAL:
            if lows[k] + w.p[t] > highs[k]:
                present = tasks[t][3]
                doms[present] &= ~(1 << (1 - offsets[present]))  # open: 0 is left
                changed.append(present)
            continue
        bits = _cut(doms, start, offsets[start], lows[k], highs[k] - w.p[t])
        if not bits:
            return None
        if bits != doms[start]:
            doms[start] = bits
            changed.append(start)
    return changed


def no_overlap_filter(tasks: list[Task], offsets: list[int]) -> Propagator:
    """``no_overlap``: each window narrowed by the disjunctive rules, both ways."""
    n = len(tasks)
    w = Windows(n)

    def prop(doms: list[int]) -> Changes:
        w.read(tasks, offsets, doms)
        kind = w.kind
        mandatory = [k for k in range(n) if kind[k] == MANDATORY]
        items = [k for k in range(n) if kind[k]]
        if len(items) < 2:
            return ()
        lows = earliest_starts(w.est, w.lct, w.p, mandatory, items)
        if lows is None:
            return None
        mirror_est = [-x for x in w.lct]
        mirror_lct = [-x for x in w.est]
        highs = earliest_starts(mirror_est, mirror_lct, w.p, mandatory, items)
        if highs is None:
            return None
        highs = [-x for x in highs]
        for k, t in enumerate(items):
            if kind[t] == OPTIONAL and not fits_alone(w.est, w.lct, w.p, mandatory, t):
                lows[k] = highs[k]  # empty window: absent
        return _windows_update(doms, tasks, offsets, w, items, lows, highs)

    return prop


def _profile(w: Windows, items: list[int]) -> list[tuple[int, int, int]]:
    """The compulsory parts of the mandatory tasks (``lst .. ect``) summed: segments
    ``(from, to, height)`` in time order, each of one height."""
    events: dict[int, int] = {}
    for t in items:
        if w.kind[t] == MANDATORY:
            lst, ect_t = w.lct[t] - w.p[t], w.est[t] + w.p[t]
            if lst < ect_t:
                events[lst] = events.get(lst, 0) + w.d[t]
                events[ect_t] = events.get(ect_t, 0) - w.d[t]
    segments = []
    height = 0
    times = sorted(events)
    for a, b in pairwise(times):
        height += events[a]
        if height:
            segments.append((a, b, height))
    return segments


def _sweep(
    segments: list[tuple[int, int, int]],
    est: int,
    p: int,
    d: int,
    own: tuple[int, int],
    capacity: int,
) -> int:
    """The earliest start from ``est`` at which a task of length ``p`` and demand ``d``
    keeps each segment of the profile (less its own compulsory part ``own``) within
    ``capacity``."""
    t = est
    for a, b, h in segments:
        if b <= t:
            continue
        if a >= t + p:
            break
        mine = d if own[0] <= a and b <= own[1] else 0
        if h - mine + d > capacity:
            t = b
    return t


def cumulative_filter(tasks: list[Task], capacity: int, offsets: list[int]) -> Propagator:
    """``cumulative`` by time-tabling: the compulsory parts of the mandatory tasks make a
    profile that must stay within the capacity, and no task may start where its demand
    on top of the profile would exceed it (both ways in time)."""
    n = len(tasks)
    w = Windows(n)

    def prop(doms: list[int]) -> Changes:
        w.read(tasks, offsets, doms)
        items = [k for k in range(n) if w.kind[k]]
        segments = _profile(w, items)
        if any(h > capacity for _, _, h in segments):
            return None
        mirrored = [(-b, -a, h) for a, b, h in reversed(segments)]
        lows = []
        highs = []
        for t in items:
            est, lct, p, d = w.est[t], w.lct[t], w.p[t], w.d[t]
            own = (lct - p, est + p) if w.kind[t] == MANDATORY else (0, 0)
            if d > capacity:
                lows.append(lct)
                highs.append(lct)
                continue
            lows.append(_sweep(segments, est, p, d, own, capacity))
            highs.append(-_sweep(mirrored, -lct, p, d, (-own[1], -own[0]), capacity))
        return _windows_update(doms, tasks, offsets, w, items, lows, highs)

    return prop


class SetTimes:
    """Branching for schedules (Le Pape et al.'s SetTimes): of the open tasks, the one
    that can start first (ties: the one that must start soonest) either starts as
    early as it can, or not then.

    With ``postpone``, the second branch *postpones* the task: its domain stays, but it
    is not chosen again until propagation moves its earliest start.  A node is a dead
    end when every open task is postponed, or when a postponed task would end, started
    at its earliest, before any open task can start: every schedule below could start
    it then instead, and that schedule lies in the first branch.  That keeps, of all
    schedules, the ones where no task could start earlier without moving another: an
    optimum is among them when the goal grows with the tasks' ends (a makespan) and
    the constraints are precedences and resources.  Without it the second branch
    takes the earliest start out of the task's domain, and the branching is complete.
    """

    def __init__(
        self, starts: list[int], sizes: list[int], offsets: list[int], postpone: bool
    ) -> None:
        first = dict(zip(starts, sizes, strict=True))
        self.starts = list(first)
        self.sizes = list(first.values())
        self.offsets = offsets
        self.postpone = postpone

    def choose(self, doms: Sequence[int], postponed: Sequence[tuple[int, int]]) -> int:
        """The start to branch on; -1 when every task is fixed, -2 at a dead end."""
        held = dict(postponed)
        open_: list[tuple[int, int, int]] = []
        waiting = False
        first_held_end = 1 << 62
        for k, i in enumerate(self.starts):
            bits = doms[i]
            if not bits & (bits - 1):
                continue
            est = low(bits)
            end = est + self.offsets[i] + max(self.sizes[k], 1)
            if held.get(i, -1) == est:
                waiting = True
                if end < first_held_end:
                    first_held_end = end
                continue
            est += self.offsets[i]
            lst = bits.bit_length() - 1 + self.offsets[i]
            open_.append((est, lst, i))
        if not open_:
            return -2 if waiting else -1
        first = min(open_)
        if first_held_end <= first[0]:
            return -2  # a put-off task could end before any open one starts: dominated
        return first[2]

    def later(
        self, i: int, bits: int, postponed: tuple[tuple[int, int], ...]
    ) -> tuple[tuple[int, int], ...]:
        """``postponed`` after task ``i`` is put off, its start's bits now ``bits``."""
        if not self.postpone:
            return postponed
        return (*((j, e) for j, e in postponed if j != i), (i, low(bits)))
