"""``circuit``'s propagator: one tour through every stop, no shorter cycle.

A stop's decision is the stop after it.  Once fixed, a stop's successor is taken:
no other stop may lead there.  Each chain of fixed successors, from a stop no
fixed stop leads to, must not close on itself before it has every stop: its last
stop may not lead back to its first (Caseau and Laburthe's nocycle rule); a cycle of
fixed stops shorter than the tour fails.

A domain is a bit set: bit ``i`` of decision ``d`` stands for ``offsets[d] + i``.

Installed from source, this module is compiled with mypyc (see
:mod:`lazyfun.compiled`); the code here is what runs either way.
"""

from __future__ import annotations

from collections.abc import Sequence

from lazyfun.csp.propagation.filters import Changes, Propagator, low, range_mask

__all__ = ["circuit_filter"]


def _without(bits: int, value: int, offset: int) -> int:
    """The domain ``bits`` (bit ``i`` standing for ``offset + i``) without ``value``."""
    at = value - offset
    return bits & ~(1 << at) if at >= 0 else bits


def _successors(
    scope: Sequence[int], first: int, doms: list[int], offsets: Sequence[int]
) -> list[int] | None:
    """Each stop's fixed successor (a position in ``scope``), -1 while open, once each
    domain is cut to the stops' numbers; None when one is wiped out."""
    n = len(scope)
    nexts = []
    for i in scope:
        bits = doms[i] & range_mask(first - offsets[i], first + n - 1 - offsets[i])
        if not bits:
            return None
        doms[i] = bits
        nexts.append(offsets[i] + low(bits) - first if not bits & (bits - 1) else -1)
    return nexts


def _leaders(nexts: list[int]) -> list[int] | None:
    """The stop that leads to each (-1: none fixed); None when two lead to the same."""
    led = [-1] * len(nexts)
    for k, j in enumerate(nexts):
        if j >= 0:
            if led[j] >= 0:
                return None
            led[j] = k
    return led


def _open_stop(k: int, bits: int, led: list[int], first: int, offset: int) -> int:
    """Open stop ``k``'s domain ``bits`` without the stops taken, nor the head of the
    chain of fixed stops ending at ``k`` while that chain is shorter than the tour."""
    n = len(led)
    for j in range(n):
        if led[j] >= 0:
            bits = _without(bits, j + first, offset)
    head, length = k, 1
    while led[head] >= 0:
        head, length = led[head], length + 1
    if length < n:
        bits = _without(bits, head + first, offset)
    return bits


def _closes_early(nexts: list[int], led: list[int]) -> bool:
    """Whether a cycle of fixed stops is shorter than the tour: the stops no chain from an
    unled stop reaches lie on cycles."""
    n = len(nexts)
    visited = [False] * n
    for k in range(n):
        stop = k if led[k] < 0 else -1
        while stop >= 0 and not visited[stop]:
            visited[stop] = True
            stop = nexts[stop]
    for start in range(n):
        stop, length = start, 0
        while not visited[stop]:
            visited[stop] = True
            stop, length = nexts[stop], length + 1
        if 0 < length < n:
            return True
    return False


def circuit_filter(scope: Sequence[int], first: int, offsets: Sequence[int]) -> Propagator:
    """The propagator of ``circuit`` over the decisions ``scope``, stops numbered from
    ``first``: successors among the stops, each taken once, and no chain closing early."""

    def prop(doms: list[int]) -> Changes:
        before = [doms[i] for i in scope]
        nexts = _successors(scope, first, doms, offsets)
        led = None if nexts is None else _leaders(nexts)
        if nexts is None or led is None or _closes_early(nexts, led):
            return None
        for k, i in enumerate(scope):
            if nexts[k] < 0:
                doms[i] = _open_stop(k, doms[i], led, first, offsets[i])
                if not doms[i]:
                    return None
        return [i for k, i in enumerate(scope) if doms[i] != before[k]]

    return prop
