"""``all_different``: by its values, the propagator every ``all_different`` runs, and
by its bounds, where the values are many (Hall intervals).

By its values (:func:`all_different_filter`): a fixed value leaves the other
decisions (and a decision left with one value strikes it in turn); the pigeonhole test
fails fewer values than decisions; when the decisions must take every value they can,
a value only one decision can take is fixed there (hidden singles).
``AllDifferent(..., domain=True)`` adds :mod:`lazyfun.csp.propagation.matching`'s
domain consistency.

By its bounds (:func:`bounds_distinct`): when decisions must differ and ``k`` of them
can only take values inside an interval of ``k`` values (a *Hall interval*), those
values are theirs: every other decision's bounds step out of the interval.  And more
than ``k`` of them inside ``k`` values cannot be.  Applied until nothing changes, that
is bounds consistency (Puget 1998).  :func:`hall_bounds` finds every Hall interval at
once in ``O(n log n)`` (the sort) by the algorithm of López-Ortiz, Quimper, Tromp and
van Beek ("A fast and simple algorithm for bounds consistency of the alldifferent
constraint", IJCAI 2003); :func:`hall_bounds_naive` is the same rule read off its
definition, interval by interval, kept as the reference the fast one is tested
against.

Installed from source, this module is compiled with mypyc (see
:mod:`lazyfun.compiled`); the code here is what runs either way.
"""

from __future__ import annotations

from collections.abc import Sequence

from lazyfun.csp.propagation.filters import Changes, Propagator, low

__all__ = ["all_different_filter", "bounds_distinct", "hall_bounds", "hall_bounds_naive"]


def all_different_filter(scope: tuple[int, ...], offsets: list[int]) -> Propagator:
    """``all_different``: its bits compared directly when the decisions share an offset,
    else on a copy of their domains lifted to a common one."""
    if not scope:
        return lambda doms: ()
    base = min(offsets[i] for i in scope)
    lift = [(i, offsets[i] - base) for i in scope]
    if not any(s for _, s in lift):
        return _distinct(scope)
    distinct = _distinct(tuple(range(len(scope))))

    def lifted(doms: list[int]) -> Changes:
        view = [doms[i] << s for i, s in lift]
        changes = distinct(view)
        if changes is None:
            return None
        for k in changes:
            i, s = lift[k]
            doms[i] = view[k] >> s
        return [lift[k][0] for k in changes]

    return lifted


def _distinct(scope: tuple[int, ...]) -> Propagator:
    """``all_different`` over decisions whose bits stand for the same values.

    A fixed value leaves the other decisions (and a decision left with one
    value strikes it in turn); the pigeonhole test fails fewer values than
    decisions; when the decisions must take every value they can, a value
    only one decision can take is fixed there (hidden singles).
    """
    size = len(scope)

    def prop(doms: list[int]) -> Changes:
        # One pass: the values of fixed decisions, and the values open ones
        # can take (once or more).  Most calls stop here with nothing to do.
        fixed = once = twice = 0
        for i in scope:
            bits = doms[i]
            if bits & (bits - 1):
                twice |= once & bits
                once |= bits
            elif fixed & bits:
                return None
            else:
                fixed |= bits
        if not once & fixed:
            count = (once | fixed).bit_count()
            if count < size:
                return None
            if count > size or not once & ~twice & ~fixed:
                return ()
        return _narrow(doms, scope, fixed)

    return prop


def _narrow(doms: list[int], scope: tuple[int, ...], fixed: int) -> Changes:  # noqa: C901 (hot loop)
    """``all_different``'s work when there is some: strike fixed values to a fixpoint,
    test the pigeonhole, and place hidden singles, until nothing changes."""
    size = len(scope)
    open_ = [i for i in scope if doms[i] & (doms[i] - 1)]
    before = [doms[i] for i in open_]
    while True:
        new = fixed
        while new:
            new = 0
            for i in open_:
                bits = doms[i]
                if bits & fixed and bits & (bits - 1):
                    bits &= ~fixed
                    if not bits & (bits - 1):
                        if not bits or new & bits:
                            return None
                        new |= bits
                    doms[i] = bits
            fixed |= new
        once = twice = 0
        for i in open_:
            bits = doms[i]
            twice |= once & bits
            once |= bits
        count = (once | fixed).bit_count()
        if count < size:
            return None
        singles = once & ~twice & ~fixed
        if count > size or not singles:
            break
        for i in open_:
            hit = doms[i] & singles
            if hit:
                if hit & (hit - 1):
                    return None  # one decision would need two values
                doms[i] = hit
        fixed |= singles
    return [i for i, bits in zip(open_, before, strict=True) if doms[i] != bits]


def hall_bounds_naive(lo: list[int], hi: list[int]) -> bool:
    """Distinct values in ``[lo[k], hi[k]]``: narrow the ranges in place to bounds
    consistency; False when no distinct values can be chosen.

    For every interval ``[a, b]`` between a low and a high: more than ``b - a + 1``
    ranges inside it is a failure; exactly that many makes it a Hall interval,
    and a range not inside it whose low (or high) falls in it moves past it.
    Repeated until nothing moves.
    """
    n = len(lo)
    moved = True
    while moved:
        moved = False
        for a in sorted(set(lo)):
            for b in sorted(set(hi)):
                if b < a:
                    continue
                inside = [k for k in range(n) if a <= lo[k] and hi[k] <= b]
                if len(inside) > b - a + 1:
                    return False
                if len(inside) < b - a + 1:
                    continue
                for k in range(n):
                    if a <= lo[k] <= b and hi[k] > b:
                        lo[k], moved = b + 1, True
                    if a <= hi[k] <= b and lo[k] < a:
                        hi[k], moved = a - 1, True
    return True


def _pathset(t: list[int], start: int, end: int, to: int) -> None:
    """Point every link on the path from ``start`` to ``end`` at ``to``."""
    k = start
    while k != end:
        nxt = t[k]
        t[k] = to
        k = nxt


def _pathmax(t: list[int], i: int) -> int:
    while t[i] > i:
        i = t[i]
    return i


def _pathmin(t: list[int], i: int) -> int:
    while t[i] < i:
        i = t[i]
    return i


def _order(keys: list[int]) -> list[int]:
    """The positions of ``keys``, smallest key first (sorted as plain ints: key and
    position packed in one)."""
    n = len(keys)
    least = min(keys)
    packed = sorted([(keys[k] - least) * n + k for k in range(n)])
    return [p % n for p in packed]


def hall_bounds(lo: list[int], hi: list[int]) -> bool:  # noqa: C901, PLR0912, PLR0915 (one algorithm)
    """:func:`hall_bounds_naive`'s answer, in one pass each way (López-Ortiz et al.).

    The lows and highs (highs as ``hi + 1``) are ranked on one sorted list of
    bounds; the ranges, taken by increasing high, fill the bounds' capacities
    (``d``) through path-compressed links (``t``), and a bucket filled up to
    its capacity marks a Hall interval (links ``h``) that later lows jump
    past.  The same from the other end moves the highs.
    """
    n = len(lo)
    if not n:
        return True
    by_min = _order(lo)
    by_max = _order(hi)
    minrank = [0] * n
    maxrank = [0] * n
    size = 2 * n + 3
    bounds = [0] * size
    smallest = lo[by_min[0]]
    largest = hi[by_max[0]] + 1
    last = smallest - 2
    bounds[0] = last
    nb = i = j = 0
    while True:
        if i < n and smallest <= largest:
            if smallest != last:
                nb += 1
                bounds[nb] = last = smallest
            minrank[by_min[i]] = nb
            i += 1
            if i < n:
                smallest = lo[by_min[i]]
        else:
            if largest != last:
                nb += 1
                bounds[nb] = last = largest
            maxrank[by_max[j]] = nb
            j += 1
            if j == n:
                break
            largest = hi[by_max[j]] + 1
    bounds[nb + 1] = bounds[nb] + 2
    t = [0] * size
    h = [0] * size
    d = [0] * size
    # Lows, ranges taken by increasing high.
    for r in range(1, nb + 2):
        t[r] = h[r] = r - 1
        d[r] = bounds[r] - bounds[r - 1]
    for k in by_max:
        x, y = minrank[k], maxrank[k]
        z = _pathmax(t, x + 1)
        j = t[z]
        d[z] -= 1
        if d[z] == 0:
            t[z] = z + 1
            z = _pathmax(t, t[z])
            t[z] = j
        _pathset(t, x + 1, z, z)
        if d[z] < bounds[z] - bounds[y]:
            return False
        if h[x] > x:
            w = _pathmax(h, h[x])
            lo[k] = bounds[w]
            _pathset(h, x, w, w)
        if d[z] == bounds[z] - bounds[y]:
            _pathset(h, h[y], j - 1, y)
            h[y] = j - 1
    # Highs, ranges taken by decreasing low.
    for r in range(nb + 1):
        t[r] = h[r] = r + 1
        d[r] = bounds[r + 1] - bounds[r]
    for k in reversed(by_min):
        x, y = maxrank[k], minrank[k]
        z = _pathmin(t, x - 1)
        j = t[z]
        d[z] -= 1
        if d[z] == 0:
            t[z] = z - 1
            z = _pathmin(t, t[z])
            t[z] = j
        _pathset(t, x - 1, z, z)
        if d[z] < bounds[y] - bounds[z]:
            return False
        if h[x] < x:
            w = _pathmin(h, h[x])
            hi[k] = bounds[w] - 1
            _pathset(h, x, w, w)
        if d[z] == bounds[y] - bounds[z]:
            _pathset(h, h[y], j + 1, y)
            h[y] = j + 1
    return True


def bounds_distinct(scope: tuple[int, ...], offsets: Sequence[int]) -> Propagator:
    """``all_different`` by bounds consistency: each decision's bounds step out of the
    Hall intervals of the others (see :func:`hall_bounds`); its low and high then
    move on to values it still has.  Bounds met as the last call left them are
    consistent already: nothing to do."""
    offs = [offsets[i] for i in scope]
    n = len(scope)
    # The bounds the last call left: consistent, so met again they need no work.
    last: list[list[int]] = [[], []]

    def prop(doms: list[int]) -> Changes:
        lo = [0] * n
        hi = [0] * n
        for k in range(n):
            bits = doms[scope[k]]
            lo[k] = offs[k] + low(bits)
            hi[k] = offs[k] + bits.bit_length() - 1
        if lo == last[0] and hi == last[1]:
            return ()
        if not hall_bounds(lo, hi):
            return None
        last[0], last[1] = lo, hi
        changed = []
        for k in range(n):
            i = scope[k]
            bits = doms[i]
            start = lo[k] - offs[k]
            kept = (bits >> start << start) & ((1 << (hi[k] - offs[k] + 1)) - 1)
            if kept != bits:
                if not kept:
                    return None
                doms[i] = kept
                changed.append(i)
        return changed

    return prop
