"""Domain consistency for ``all_different``: Régin's matching rule.

Decisions that must differ take distinct values exactly when the bipartite graph
of decisions and the values in their domains has a matching that covers every
decision.  A value stays in a decision's domain only if some such matching gives
it that value.  Régin ("A filtering algorithm for constraints of difference in
CSPs", AAAI 1994) reads that off one maximum matching: with each decision ``x``
matched to ``m(x)``, let ``x -> y`` when ``m(x)`` is in ``y``'s domain (``y`` could
take ``x``'s value if ``x`` moved on).  Then ``x`` keeps value ``a`` when ``a`` is
``m(x)``, or is matched to no one, or is ``m(y)`` for a ``y`` in ``x``'s strongly
connected component (a cycle of moves frees it), or for a ``y`` reached from a
decision that can take an unmatched value (a chain of moves ending on a free value
frees it).  Every other value is in no covering matching and goes.

:func:`matching_distinct` runs it on bit-set domains, starting each call from the
matching the last call found (still valid where the domains kept its values).
:func:`supported_naive` is the definition read directly (try each value, look for a
matching of the rest), the reference the rule is tested against.

Installed from source, this module is compiled with mypyc (see
:mod:`lazyfun.compiled`); the code here is what runs either way.
"""

from __future__ import annotations

from collections.abc import Sequence

from lazyfun.csp.propagation.filters import Changes, Propagator

__all__ = ["matching_distinct", "maximum_matching", "regin_filter", "supported_naive"]


def _augment(doms: Sequence[int], x: int, owner: dict[int, int], mate: list[int]) -> bool:
    """Look for an alternating path from the unmatched decision ``x`` to a free value
    (depth first, each value visited once) and flip it: True when ``x`` is matched."""
    seen = 0
    stack = [(x, doms[x])]
    path: list[int] = []  # the value tried at each level of the stack
    while stack:
        y, rest = stack[-1]
        rest &= ~seen
        if not rest:
            stack.pop()
            if path:
                path.pop()
            continue
        bit = rest & -rest
        stack[-1] = (y, rest ^ bit)
        seen |= bit
        holder = owner.get(bit, -1)
        if holder < 0:  # a free value: flip the path
            path.append(bit)
            for (z, _), value in zip(stack, path, strict=True):
                mate[z] = value
                owner[value] = z
            return True
        path.append(bit)
        stack.append((holder, doms[holder]))
    return False


def maximum_matching(doms: Sequence[int], start: Sequence[int] = ()) -> list[int]:
    """A matching of the decisions (their bit-set domains ``doms``, one value each, all
    distinct) as large as any: each decision's value as a one-bit set, 0 for a decision
    left unmatched.  ``start`` (a former matching) is kept where the domains still hold
    its values."""
    n = len(doms)
    mate = [0] * n
    owner: dict[int, int] = {}
    for x in range(n):
        bit = start[x] if x < len(start) else 0
        if bit and doms[x] & bit and bit not in owner:
            mate[x] = bit
            owner[bit] = x
    for x in range(n):
        if not mate[x]:
            _augment(doms, x, owner, mate)
    return mate


def _components(doms: Sequence[int], mate: Sequence[int], owner: dict[int, int]) -> list[int]:
    """Each decision's strongly connected component (a number) in the graph ``y -> x``
    when ``m(x)`` is in ``y``'s domain (Tarjan's algorithm, without recursion): the
    reverse of Régin's graph, with the same components."""
    n = len(doms)
    index = [-1] * n
    lowlink = [0] * n
    component = [-1] * n
    on_stack = [False] * n
    stack: list[int] = []
    counter = 0
    found = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        work = [(root, doms[root] & ~mate[root])]
        index[root] = lowlink[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            y, rest = work[-1]
            advanced = False
            while rest:
                bit = rest & -rest
                rest ^= bit
                x = owner.get(bit, -1)
                if x < 0:
                    continue
                if index[x] < 0:
                    work[-1] = (y, rest)
                    index[x] = lowlink[x] = counter
                    counter += 1
                    stack.append(x)
                    on_stack[x] = True
                    work.append((x, doms[x] & ~mate[x]))
                    advanced = True
                    break
                if on_stack[x] and index[x] < lowlink[y]:
                    lowlink[y] = index[x]
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                lowlink[parent] = min(lowlink[parent], lowlink[y])
            if lowlink[y] == index[y]:
                _close(y, stack, on_stack, component, found)
                found += 1
    return component


def _close(
    root: int, stack: list[int], on_stack: list[bool], component: list[int], found: int
) -> None:
    """Tarjan's step at a component's root: the decisions on the stack down to ``root``
    make component ``found``."""
    while True:
        z = stack.pop()
        on_stack[z] = False
        component[z] = found
        if z == root:
            return


def regin_filter(doms: list[int], start: Sequence[int] = ()) -> list[int] | None:
    """Narrow ``doms`` (bit sets over common values) in place to domain consistency for
    all of them differing; the matching used, or None when no matching covers them."""
    mate = maximum_matching(doms, start)
    if not all(mate):
        return None
    owner = {bit: x for x, bit in enumerate(mate)}
    matched = 0
    for bit in mate:
        matched |= bit
    free = 0
    for bits in doms:
        free |= bits
    free &= ~matched
    # The decisions a chain of moves ending on a free value reaches: their values may go.
    movable = free
    grew = True
    while grew:
        grew = False
        for x, bits in enumerate(doms):
            if bits & movable and not mate[x] & movable:
                movable |= mate[x]
                grew = True
    component = _components(doms, mate, owner)
    cycles: dict[int, int] = {}
    for x, bit in enumerate(mate):
        cycles[component[x]] = cycles.get(component[x], 0) | bit
    for x, bits in enumerate(doms):
        doms[x] = bits & (mate[x] | movable | cycles[component[x]])
    return mate


def matching_distinct(scope: tuple[int, ...], offsets: Sequence[int]) -> Propagator:
    """``all_different`` over the decisions ``scope`` by domain consistency (see
    :func:`regin_filter`), their domains lifted to a common offset; each call starts
    from the last call's matching."""
    base = min(offsets[i] for i in scope)
    lift = [offsets[i] - base for i in scope]
    last: list[int] = []

    def prop(doms: list[int]) -> Changes:
        view = [doms[i] << s for i, s in zip(scope, lift, strict=True)]
        before = list(view)
        mate = regin_filter(view, last)
        if mate is None:
            return None
        last[:] = mate
        changed = []
        for k, i in enumerate(scope):
            if view[k] != before[k]:
                doms[i] = view[k] >> lift[k]
                changed.append(i)
        return changed

    return prop


def supported_naive(doms: Sequence[int]) -> list[int]:
    """Each domain's values that some assignment of distinct values to all the decisions
    gives it (all empty when there is none): the definition, value by value."""
    kept = [0] * len(doms)
    for x, bits in enumerate(doms):
        rest = bits
        while rest:
            bit = rest & -rest
            rest ^= bit
            trial = [bit if y == x else b & ~bit for y, b in enumerate(doms)]
            if all(maximum_matching(trial)):
                kept[x] |= bit
    return kept
