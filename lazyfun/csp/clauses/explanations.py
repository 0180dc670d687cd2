"""Why a propagator narrowed a domain: its explanation, asked for only when a conflict is
analysed (lazy clause generation; Ohrimenko, Stuckey and Codish, 2009).

A *literal* ``(i, mask)`` says decision ``i`` takes a value of ``mask`` (a bit set over
its offset, as a domain is): it is true once the domain lies within ``mask``.  An
explanation of a propagator's run is a list of literals, true on the domains it ran on,
that are enough for what it did:

    explanation ∧ constraint  ⟹  the values it struck from ``i`` are not there

and, for a run that failed, ``explanation ∧ constraint ⟹ false``.  A propagator only ever
strikes what its constraint rules out on its scope's domains, so its scope's domains as
they were (:func:`by_scope`, the others' and ``i``'s own) always explain it: every
model keeps working.  Linear bounds reasoning reads only bounds, so a bound of each other
decision is enough (:func:`by_bounds`): a literal like ``[y >= 3]`` rather than
``y in {3, 5, 8}``, true in many more places, so the nogood it ends in prunes more.

>>> start = [0b1111, 0b1111]  # x, y in 0..3
>>> by_scope((0, 1), start)([0b0011, 0b1111], 1, 0b1000)  # y's start: always true
[(0, 3)]
>>> by_bounds([(0, 1, 0), (1, 1, 0)], False, (0, 1), start)([0b1100, 0b1111], 1, 0b1000)
[(0, 12)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lazyfun.csp.propagation.disjunctive import Task
from lazyfun.csp.propagation.filters import low, range_mask

__all__ = [
    "Explainer",
    "Literal",
    "at_least",
    "at_most",
    "by_bounds",
    "by_element",
    "by_guards",
    "by_others",
    "by_ranges",
    "by_scope",
    "by_time_table",
    "by_values",
]

Literal = tuple[int, int]
"""``(decision, mask)``: the decision takes a value of ``mask``."""
Explainer = Callable[[Sequence[int], int, int], list[Literal]]
"""Given the scope's domains before a run (in the order of its scope), the decision whose
narrowing is explained (-1: the run failed) and the values struck from it (bits), the
literals that explain it."""


def at_least(start: int, position: int) -> int:
    """``[x >= v]`` as a mask: the values of ``start`` from bit ``position`` up.

    >>> bin(at_least(0b1011, 1))
    '0b1010'
    """
    return start >> position << position


def at_most(start: int, position: int) -> int:
    """``[x <= v]`` as a mask: the values of ``start`` up to bit ``position``.

    >>> bin(at_most(0b1011, 1))
    '0b11'
    """
    return start & ((1 << (position + 1)) - 1)


def by_scope(scope: Sequence[int], start: Sequence[int]) -> Explainer:
    """Any propagator's explanation: each decision of its scope in the domain it had
    (``i`` included), leaving out a domain still whole (a literal always true)."""

    def explain(before: Sequence[int], i: int, removed: int) -> list[Literal]:
        return [(j, bits) for j, bits in zip(scope, before, strict=True) if bits != start[j]]

    return explain


def by_others(scope: Sequence[int], start: Sequence[int]) -> Explainer:
    """The explanation of a propagator that keeps of a decision the values the others'
    domains support (forward checking, a table's, ``all_different``'s): the others'
    domains explain a narrowing of ``i``; all of them a failure."""

    def explain(before: Sequence[int], i: int, removed: int) -> list[Literal]:
        return [
            (j, bits) for j, bits in zip(scope, before, strict=True) if bits != start[j] and j != i
        ]

    return explain


def by_values(scope: Sequence[int], start: Sequence[int], offsets: Sequence[int]) -> Explainer:
    """``all_different``'s explanation: a value struck from ``i`` because another decision
    is fixed to it is explained by that decision alone (``[y = v]``); a narrowing with a
    value struck otherwise (a hidden single), and a failure, by the others' domains
    (:func:`by_others`).

    >>> by_values((0, 1, 2), [0b111] * 3, [0, 0, 1])([0b111, 0b010, 0b001], 0, 0b110)
    [(1, 2), (2, 1)]
    """
    others = by_others(scope, start)

    def explain(before: Sequence[int], i: int, removed: int) -> list[Literal]:
        if i < 0:
            return others(before, i, removed)
        fixed = {}
        for j, bits in zip(scope, before, strict=True):
            if j != i and not bits & (bits - 1):
                fixed[offsets[j] + bits.bit_length() - 1] = (j, bits)
        found: list[Literal] = []
        while removed:
            bit = removed & -removed
            removed ^= bit
            literal = fixed.get(offsets[i] + bit.bit_length() - 1)
            if literal is None:
                return others(before, i, removed)
            if literal not in found:
                found.append(literal)
        return found

    return explain


def by_ranges(scope: Sequence[int], start: Sequence[int]) -> Explainer:
    """The explanation of a propagator that reads only bounds (scheduling's, the goals'
    cut, a relaxation): each decision of its scope within its least and most values
    then, ``i`` included; what a run infers from those holds for any domains between
    them."""

    def explain(before: Sequence[int], i: int, removed: int) -> list[Literal]:
        found: list[Literal] = []
        for j, bits in zip(scope, before, strict=True):
            whole = start[j]
            mask = at_most(at_least(whole, (bits & -bits).bit_length() - 1), bits.bit_length() - 1)
            if mask != whole:
                found.append((j, mask))
        return found

    return explain


def by_bounds(
    terms: Sequence[tuple[int, int, int]], equal: bool, scope: Sequence[int], start: Sequence[int]
) -> Explainer:
    """``sum(a * x) + k <= 0`` (``== 0`` when ``equal``) by bounds: what a term may be is
    the constant less the others' least (``==``: and their most), so each other term's
    bound on the side that counts explains it (``==``: both), and every term's explains a
    failure.  With ``a > 0`` the least of ``a * x`` is at ``x``'s lower bound:
    ``[x >= lo]``; with ``a < 0`` at its upper: ``[x <= hi]``."""
    where = {j: n for n, j in enumerate(scope)}
    placed = [(j, where[j], a > 0) for j, a, _ in terms]

    def explain(before: Sequence[int], i: int, removed: int) -> list[Literal]:
        found: list[Literal] = []
        for j, n, rising in placed:
            if j == i:
                continue
            bits, whole = before[n], start[j]
            lo, hi = (bits & -bits).bit_length() - 1, bits.bit_length() - 1
            if equal:
                mask = at_most(at_least(whole, lo), hi)
            else:
                mask = at_least(whole, lo) if rising else at_most(whole, hi)
            if mask != whole:
                found.append((j, mask))
        return found

    return explain


def by_guards(
    guards: Sequence[tuple[int, int, Sequence[tuple[int, int, int]]]],
    scope: Sequence[int],
    start: Sequence[int],
) -> Explainer:
    """The explanation of a propagator of linear inequalities ``sum(a * x) + k <= 0``
    each holding when its guard, a decision ``g``, takes a value of a mask (``if_then``'s
    one, a reified inequality's two: when 1, and negated when 0).  With its guard sure,
    a row narrows by bounds: the guard's literal and :func:`by_bounds` explain it (and a
    failure); a guard's values struck because its row cannot hold are explained by the
    row's failure.  Anything else by the scope's domains (:func:`by_scope`).

    >>> guarded = by_guards([(0, 0b10, [(1, 1, 0), (2, -1, 0)])], (0, 1, 2), [0b11, 0b1111, 0b1111])
    >>> guarded([0b10, 0b1100, 0b1111], 2, 0b0011)  # b = 1, x >= 2: y >= 2
    [(0, 2), (1, 12)]
    >>> guarded([0b11, 0b1100, 0b0011], 0, 0b10)  # x >= 2 > y: b = 0
    [(1, 12), (2, 3)]
    """
    rows = [(g, mask, by_bounds(terms, False, scope, start)) for g, mask, terms in guards]
    where = {j: n for n, j in enumerate(scope)}
    fallback = by_scope(scope, start)

    def explain(before: Sequence[int], i: int, removed: int) -> list[Literal]:
        found: list[Literal] = []
        for g, mask, row in rows:
            if g == i and removed & mask:  # the guard's values struck: its row fails
                found.extend(row(before, -1, 0))
                removed &= ~mask
            elif g != i and before[where[g]] & ~mask == 0:  # the guard sure: the row ran
                sure = [(g, mask)] if start[g] & ~mask else []
                return merged(sure + row(before, i, removed))
        if i >= 0 and found and not removed:
            return merged(found)
        return fallback(before, i, removed)

    return explain


def by_element(
    result: int,
    index: int,
    items: Sequence[tuple[int, int]],
    scope: Sequence[int],
    start: Sequence[int],
    offsets: Sequence[int],
) -> Explainer:
    """``element``'s explanation by values (``result == items[index]``, an item
    ``(decision, 0)`` or ``(-1, number)``): a position struck from the index because its
    item cannot take a value the result can is explained by the result's domain and that
    item's ``[y not in it]``; a value struck from the result by the index's domain and,
    for each item there, ``[y != v]``; a failure by all of those; an item narrowed once
    the index is fixed, by the index and the result.  Anything else by the scope's
    domains (:func:`by_scope`).

    >>> explain = by_element(0, 1, [(2, 0), (3, 0)], (0, 1, 2, 3), [0b11] * 4, [0] * 4)
    >>> explain([0b10, 0b11, 0b01, 0b11], 1, 0b01)  # r = 1, y0 = 0: not position 0
    [(0, 2), (2, 1)]
    """
    where = {j: n for n, j in enumerate(scope)}
    fallback = by_scope(scope, start)

    def onto(k: int, bits: int) -> int:
        """The result's values ``bits`` as item ``k``'s decision's bits."""
        move = offsets[items[k][0]] - offsets[result]
        return bits >> move if move >= 0 else bits << -move

    def unlike(positions: int, values: int) -> list[Literal]:
        """For each item at index ``positions`` (bits), ``[y not in values]``."""
        found: list[Literal] = []
        while positions:
            bit = positions & -positions
            positions ^= bit
            k = offsets[index] + bit.bit_length() - 1
            if 0 <= k < len(items) and items[k][0] >= 0:
                j = items[k][0]
                found.append((j, start[j] & ~onto(k, values)))
        return found

    def known(i: int, bits: int) -> list[Literal]:
        return [(i, bits)] if bits != start[i] else []

    def explain(before: Sequence[int], i: int, removed: int) -> list[Literal]:
        res, idx = before[where[result]], before[where[index]]
        if i == index:
            return merged(known(result, res) + unlike(removed, res))
        if i == result:
            return merged(known(index, idx) + unlike(idx, removed))
        if i < 0:
            return merged(known(result, res) + known(index, idx) + unlike(idx, res))
        if not idx & (idx - 1):
            return merged(known(result, res) + known(index, idx))
        return fallback(before, i, removed)

    return explain


# A task sure to run, as the time-table reads it: earliest start, latest start, least
# size and least demand.
Window = tuple[int, int, int, int]


def by_time_table(
    tasks: Sequence[Task],
    capacity: int,
    scope: Sequence[int],
    start: Sequence[int],
    offsets: Sequence[int],
) -> Explainer:
    """``cumulative``'s explanation by its time-table (``no_overlap``'s: capacity 1,
    demands 1), pointwise (Schutt, Feydy, Stuckey and Wallace, 2011).  A present task
    whose start lies in ``[t - p + 1, t]`` runs at ``t`` for sure, its least size ``p``
    and demand at least; a start ``s`` struck from task ``k`` because the tasks sure to
    run at some ``t`` in ``[s, s + p_k)`` leave less than ``k``'s demand is explained by

        [s_j in [t - p_j + 1, t]] for enough such tasks j,  with k's and their least
        size and demand and their presence

    one ``t`` for as many struck starts as it covers; a failure by tasks sure to run at
    one time, more than the capacity in all.  What the time-table does not explain (edge
    finding, a size, demand or presence narrowed) is explained by the scope's bounds
    (:func:`by_ranges`); a failure it does not, by the scope's domains (:func:`by_scope`):
    a start in ``{0, 2}`` whose two values the others' sure parts strike fails where one
    in ``0..2`` would not.

    >>> tasks = [(0, -1, 2, -1, -1, 1), (1, -1, 2, -1, -1, 1)]  # two tasks of size 2
    >>> explain = by_time_table(tasks, 1, (0, 1), [0b1111, 0b1111], [0, 0])
    >>> explain([0b1111, 0b0011], 0, 0b0011)  # y in 0..1 runs at 1: x cannot start at 0, 1
    [(1, 3)]
    """
    return TimeTable(tasks, capacity, scope, start, offsets).explain


class TimeTable:
    """:func:`by_time_table`'s explainer, over one constraint's tasks."""

    def __init__(
        self,
        tasks: Sequence[Task],
        capacity: int,
        scope: Sequence[int],
        start: Sequence[int],
        offsets: Sequence[int],
    ) -> None:
        self.tasks = list(tasks)
        self.capacity = capacity
        self.where = {j: n for n, j in enumerate(scope)}
        self.start = start
        self.offsets = offsets
        self.ranges = by_ranges(scope, start)
        self.exact = by_scope(scope, start)
        self.owner: dict[int, int] = {}  # a start's task (-1: the start of two)
        for k, task in enumerate(tasks):
            self.owner[task[0]] = -1 if task[0] in self.owner else k

    def explain(self, before: Sequence[int], i: int, removed: int) -> list[Literal]:
        """An :data:`Explainer`."""
        windows = [self.window(k, before) for k in range(len(self.tasks))]
        if i < 0:
            spans = overloaded(windows, self.capacity)
            found = self.covering(windows, spans[0][0], self.capacity) if spans else None
            # else a start's values all struck, one by one: its holes are part of the reason
            return merged(found) if found is not None else self.exact(before, i, removed)
        k = self.owner.get(i, -1)
        w = windows[k] if k >= 0 else None
        if w is None:
            return self.ranges(before, i, removed)
        windows[k] = None
        room = self.capacity - w[3]
        spans = overloaded(windows, room)
        found = self.own(k, w)
        rest = removed
        while rest:
            s = self.offsets[i] + low(rest)
            ends = [min(b - 1, s + w[2] - 1) for a, b in spans if a < s + w[2] and b > s]
            t = max(ends, default=s - 1)  # the latest overloaded time s reaches
            more = self.covering(windows, t, room) if ends else None
            if more is None:
                return self.ranges(before, i, removed)
            found.extend(more)
            rest &= -1 << (t - self.offsets[i] + 1)  # the starts up to t run at t
        return merged(found)

    def least(self, j: int, number: int, before: Sequence[int]) -> int:
        """The least of decision ``j`` (-1: the ``number``)."""
        return number if j < 0 else self.offsets[j] + low(before[self.where[j]])

    def window(self, k: int, before: Sequence[int]) -> Window | None:
        """Task ``k``'s window while it is present for sure and not empty, else None."""
        s, size_at, size, present, demand_at, demand = self.tasks[k]
        if present >= 0:
            bits = before[self.where[present]]
            if bits & (bits - 1) or self.offsets[present] + low(bits) != 1:
                return None
        p, d = self.least(size_at, size, before), self.least(demand_at, demand, before)
        if p <= 0 or d <= 0:
            return None
        bits = before[self.where[s]]
        return self.offsets[s] + low(bits), self.offsets[s] + bits.bit_length() - 1, p, d

    def own(self, k: int, w: Window) -> list[Literal]:
        """Task ``k``'s presence, least size and least demand, as literals."""
        _, size_at, _, present, demand_at, _ = self.tasks[k]
        offsets = self.offsets
        found = [(present, 1 << (1 - offsets[present]))] if present >= 0 else []
        for j, amount in ((size_at, w[2]), (demand_at, w[3])):
            if j >= 0 and amount > offsets[j]:
                found.append((j, at_least(self.start[j], amount - offsets[j])))
        return found

    def runs(self, k: int, w: Window, t: int) -> list[Literal]:
        """Task ``k`` runs at ``t``: its start in ``[t - p + 1, t]``, and :meth:`own`."""
        s = self.tasks[k][0]
        whole, offset = self.start[s], self.offsets[s]
        mask = whole & range_mask(t - w[2] + 1 - offset, t - offset)
        return ([(s, mask)] if mask != whole else []) + self.own(k, w)

    def covering(self, windows: list[Window | None], t: int, room: int) -> list[Literal] | None:
        """Tasks sure to run at ``t``, largest demand first, till they need more than
        ``room``: what runs there; None when all of them do not."""
        sure = [
            (w[3], k) for k, w in enumerate(windows) if w is not None and w[1] <= t < w[0] + w[2]
        ]
        found: list[Literal] = []
        for d, k in sorted(sure, reverse=True):
            w = windows[k]
            assert w is not None
            found.extend(self.runs(k, w, t))
            room -= d
            if room < 0:
                return found
        return None


def overloaded(windows: list[Window | None], room: int) -> list[tuple[int, int]]:
    """The spans ``[a, b)`` where the tasks sure to run (their windows) need more than
    ``room`` in all.

    >>> overloaded([(0, 1, 2, 1), (1, 1, 1, 1)], 1)  # both run at 1
    [(1, 2)]
    """
    events = sorted(
        e
        for w in windows
        if w is not None and w[1] < w[0] + w[2]
        for e in ((w[1], w[3]), (w[0] + w[2], -w[3]))
    )
    spans: list[tuple[int, int]] = []
    height = 0
    for n, (t, delta) in enumerate(events[:-1]):
        height += delta
        if height > room and events[n + 1][0] > t:
            spans.append((t, events[n + 1][0]))
    return spans


def merged(literals: list[Literal]) -> list[Literal]:
    """Literals on the same decision as one (both true: their masks' intersection is).

    >>> merged([(0, 0b110), (1, 0b1), (0, 0b011)])
    [(0, 2), (1, 1)]
    """
    masks: dict[int, int] = {}
    for i, mask in literals:
        masks[i] = masks.get(i, mask) & mask
    return list(masks.items())
