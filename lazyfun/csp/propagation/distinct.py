"""``all_different`` by its values: the propagator every ``all_different`` runs.

A fixed value leaves the other decisions (and a decision left with one value strikes it
in turn); the pigeonhole test fails fewer values than decisions; when the decisions must
take every value they can, a value only one decision can take is fixed there (hidden
singles).  Where the values are many, :mod:`lazyfun.csp.propagation.hall` adds bounds
consistency beside it, and ``AllDifferent(..., domain=True)``
:mod:`lazyfun.csp.propagation.matching`'s domain consistency.

Installed from source, this module is compiled with mypyc (see
:mod:`lazyfun.compiled`); the code here is what runs either way.
"""

from __future__ import annotations

from lazyfun.csp.propagation.filters import Changes, Propagator

__all__ = ["all_different_filter"]


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
