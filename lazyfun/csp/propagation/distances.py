"""Distinct distances: the reasoning an ``all_different`` of differences implies.

A Golomb ruler's model says ``d(i, j) == m[j] - m[i]`` for marks ``i < j``
and ``all_different(d)``.  Written that way, each constraint alone knows
little: the gaps' domains start at 1, 3, 6, ... and the ruler's length is
only bounded by the last mark's domain.  Taken together they say more.  The
points (the marks) lie on a line in a known order (each difference is
positive), so the distance from point ``i`` to point ``k`` is the sum of the
``k - i`` consecutive differences between them; those are distinct, so the
distance is at least the sum of the ``k - i`` smallest values they can
still take.  That bound is what makes a branch-and-bound search on the marks
stop early: with the first marks placed, the ruler still needs the
smallest unused distances to reach its end.

:func:`distinct_distances` finds the structure in a model's constraints (an
``all_different`` whose decisions are each tied as ``g == x - y`` to two
points, with positive domains, the points in one chain), and
:func:`chain_bounds` is its propagator.

Installed from source, this module is compiled with mypyc (see
:mod:`lazyfun.compiled`); the code here is what runs either way.
"""

from __future__ import annotations

from collections.abc import Sequence

from lazyfun.csp.modelling.constraints import AllDifferent, Constraint, Linear
from lazyfun.csp.propagation.filters import Changes, Propagator, low

__all__ = [
    "Chain",
    "chain_bounds",
    "chains",
    "difference_filter",
    "difference_of",
    "distinct_distances",
    "smallest_sum",
]


class Chain:
    """Points in order along a line, and the distinct differences between them.

    ``points[p]`` is the decision of the ``p``-th point; ``steps[p]`` the
    difference decision ``points[p + 1] - points[p]``; ``between[p][q]``
    (``p < q``) the difference decision of points ``p`` and ``q``, or -1.
    """

    def __init__(self, points: list[int], steps: list[int], between: list[list[int]]) -> None:
        self.points = points
        self.steps = steps
        self.between = between


def difference_of(c: Constraint) -> tuple[int, int, int] | None:
    """``(g, x, y)`` when ``c`` says ``g == x - y``: ``x`` is the term whose sign the
    other two share the opposite of (``x - g - y == 0``, or its negation)."""
    if not isinstance(c, Linear) or c.op != "==" or c.expr.constant or len(c.expr.terms) != 3:
        return None
    plus = [i for i, a in c.expr.terms.items() if a == 1]
    minus = [i for i, a in c.expr.terms.items() if a == -1]
    if sorted((len(plus), len(minus))) != [1, 2]:
        return None
    (x,), (g, y) = (plus, minus) if len(plus) == 1 else (minus, plus)
    return g, x, y


def distinct_distances(constraints: Sequence[Constraint], offsets: Sequence[int]) -> list[Chain]:
    """The chains of points whose differences an ``all_different`` keeps distinct.

    An ``all_different`` qualifies when each of its decisions ``g`` is tied by
    some ``g == x - y`` with ``g``'s values all positive (so ``y < x``), and
    those orderings put the points in one line, each pair of neighbours tied
    by one of the differences.
    """
    ties = [tie for tie in map(difference_of, constraints) if tie is not None]
    groups = [c.scope for c in constraints if isinstance(c, AllDifferent)]
    return chains(groups, ties, offsets)


def chains(
    groups: Sequence[tuple[int, ...]],
    ties: Sequence[tuple[int, int, int]],
    offsets: Sequence[int],
) -> list[Chain]:
    """:func:`distinct_distances` from the scopes of the ``all_different`` constraints
    and the ties ``(g, x, y)``, each saying ``g == x - y``."""
    if not ties:
        return []
    tied = {g for g, _, _ in ties} | {y for _, _, y in ties}
    both = [*ties, *((y, x, g) for g, x, y in ties)]
    found = []
    for scope in groups:
        if len(scope) >= 3 and all(g in tied for g in scope):
            chain = _chain(set(scope), both, offsets)
            if chain is not None:
                found.append(chain)
    return found


def _chain(
    members: set[int], ties: list[tuple[int, int, int]], offsets: Sequence[int]
) -> Chain | None:
    """The chain of points whose differences are ``members``, if they make one."""
    pairs: dict[tuple[int, int], int] = {}
    for g, x, y in ties:
        if g in members and offsets[g] >= 1 and (y, x) not in pairs:
            pairs[(y, x)] = g
    if len(set(pairs.values())) != len(members):
        return None
    points = {p for pair in pairs for p in pair}
    if points & members:
        return None
    # Each point's rank is the number of points before it, transitively; in a
    # chain they are 0, 1, 2, ...
    before = {p: {y for y, x in pairs if x == p} for p in points}
    for _ in points:
        for p in points:
            before[p] = before[p].union(*[before[q] for q in before[p]])
    order = sorted(points, key=lambda p: len(before[p]))
    if any(
        len(before[p]) != k or (k and (order[k - 1], p) not in pairs) for k, p in enumerate(order)
    ):
        return None
    position = {p: k for k, p in enumerate(order)}
    between = [[-1] * len(order) for _ in order]
    for (y, x), g in pairs.items():
        between[position[y]][position[x]] = g
    steps = [between[k][k + 1] for k in range(len(order) - 1)]
    return Chain(order, steps, between)


def smallest_sum(bits: int, count: int) -> int:
    """The sum of the positions of the ``count`` lowest bits of ``bits`` (-1: fewer bits)."""
    total = 0
    while count:
        if not bits:
            return -1
        bit = bits & -bits
        total += bit.bit_length() - 1
        bits ^= bit
        count -= 1
    return total


def chain_bounds(chain: Chain, offsets: Sequence[int]) -> Propagator:
    """Points ``p < q`` of a chain are at least the sum of the ``q - p`` smallest values
    their consecutive differences can take apart (those differences are distinct).

    With that least distance ``L``: the later point is at least the earlier's
    least plus ``L``, the earlier at most the later's most minus ``L``, and
    their difference decision, when the model has one, at least ``L``.  A
    point ``p`` fixed with the next one fixed too is skipped: from there the
    next point's bounds cut as much.
    """
    points = chain.points
    steps = chain.steps
    between = chain.between
    n = len(points)

    def prop(doms: list[int]) -> Changes:
        changed: list[int] = []
        values = [doms[g] << offsets[g] for g in steps]
        for p in range(n - 1):
            if not _open(doms[points[p]]) and not _open(doms[points[p + 1]]):
                continue
            union = 0
            for q in range(p + 1, n):
                union |= values[q - 1]
                least = smallest_sum(union, q - p)
                if least < 0 or not _apart(
                    doms, points[p], points[q], between[p][q], least, offsets, changed
                ):
                    return None
        return changed

    return prop


def _apart(
    doms: list[int],
    a: int,
    b: int,
    g: int,
    least: int,
    offsets: Sequence[int],
    changed: list[int],
) -> bool:
    """Points ``a`` before ``b`` at least ``least`` apart, and their difference ``g``
    (-1: none) at least ``least``; False when a domain empties."""
    bits_a, bits_b = doms[a], doms[b]
    bits = _clip(bits_b, offsets[a] + low(bits_a) + least - offsets[b], bits_b.bit_length())
    if bits != bits_b:
        if not bits:
            return False
        doms[b] = bits_b = bits
        changed.append(b)
    bits = _clip(bits_a, 0, offsets[b] + bits_b.bit_length() - 1 - least - offsets[a])
    if bits != bits_a:
        if not bits:
            return False
        doms[a] = bits
        changed.append(a)
    if g >= 0:
        bits_g = doms[g]
        bits = _clip(bits_g, least - offsets[g], bits_g.bit_length())
        if bits != bits_g:
            if not bits:
                return False
            doms[g] = bits
            changed.append(g)
    return True


def difference_filter(g: int, x: int, y: int, offsets: Sequence[int]) -> Propagator:
    """``g == x - y``: each decision's bounds cut to what the other two's bounds leave,
    until they hold still; once ``y`` or ``g`` is fixed, the other two are shifts of
    each other, narrowed value by value.  It reaches its own fixpoint in one call.

    The fast form of :func:`lazyfun.csp.propagation.filters.unit_equality` on three decisions,
    with the same answers.
    """
    off_g, off_x, off_y = offsets[g], offsets[x], offsets[y]

    def prop(doms: list[int]) -> Changes:
        bg, bx, by = doms[g], doms[x], doms[y]
        while True:
            if not by & (by - 1):
                # y fixed at v: x = g + v.
                shift = off_g + off_y + by.bit_length() - 1 - off_x
                nx = bx & (bg << shift if shift >= 0 else bg >> -shift)
                ng = bg & (nx >> shift if shift >= 0 else nx << -shift)
                ny = by
            elif not bg & (bg - 1):
                # g fixed at v: x = y + v.
                shift = off_y + off_g + bg.bit_length() - 1 - off_x
                nx = bx & (by << shift if shift >= 0 else by >> -shift)
                ny = by & (nx >> shift if shift >= 0 else nx << -shift)
                ng = bg
            else:
                g_lo, g_hi = off_g + low(bg), off_g + bg.bit_length() - 1
                x_lo, x_hi = off_x + low(bx), off_x + bx.bit_length() - 1
                y_lo, y_hi = off_y + low(by), off_y + by.bit_length() - 1
                nx = _clip(bx, y_lo + g_lo - off_x, y_hi + g_hi - off_x)
                ny = _clip(by, x_lo - g_hi - off_y, x_hi - g_lo - off_y)
                ng = _clip(bg, x_lo - y_hi - off_g, x_hi - y_lo - off_g)
            if not nx or not ny or not ng:
                return None
            if nx == bx and ny == by and ng == bg:
                break
            bg, bx, by = ng, nx, ny
        changed = []
        for i, bits in ((x, bx), (y, by), (g, bg)):
            if bits != doms[i]:
                doms[i] = bits
                changed.append(i)
        return changed

    return prop


def _open(bits: int) -> bool:
    return bits & (bits - 1) != 0


def _clip(bits: int, lo: int, hi: int) -> int:
    """The bits from position ``lo`` to ``hi``."""
    if hi < 0:
        return 0
    if lo > 0:
        bits = bits >> lo << lo
    return bits & ((1 << (hi + 1)) - 1)
