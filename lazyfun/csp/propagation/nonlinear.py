"""Propagators for the function constraints of :mod:`lazyfun.csp.modelling.arithmetic` and for
constraints combined with ``&``, ``|``, ``~`` and ``model.truth``.

Domains are bit sets over offsets, as in :mod:`lazyfun.csp.propagation.filters`.  A function
``result == f(arguments)`` keeps exactly the supported values while its arguments
have few combinations (:data:`~lazyfun.csp.modelling.arithmetic.ENUMERATED`), and reasons on
bounds beyond that.  A combination of constraints runs the propagators of its parts:
a part that fails on a trial of the domains cannot hold there; a disjunction of
0/1 decisions' values (a clause) is unit propagation.

Installed from source, this module is compiled with mypyc (see
:mod:`lazyfun.compiled`); the code here is what runs either way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from math import isqrt

from lazyfun.csp.modelling.arithmetic import ENUMERATED, span
from lazyfun.csp.propagation.filters import (
    Changes,
    Propagator,
    fails_on_trial,
    low,
    narrow,
    range_mask,
)

__all__ = [
    "abs_filter",
    "all_filter",
    "any_filter",
    "clause_filter",
    "function_filter",
    "reified_clause_filter",
    "reified_shift_filter",
    "reified_unary_filter",
    "truth_filter",
]


def _values(bits: int, offset: int) -> list[int]:
    """The values a bit set over ``offset`` holds, smallest first."""
    found = []
    while bits:
        bit = bits & -bits
        bits ^= bit
        found.append(offset + bit.bit_length() - 1)
    return found


def _cut(doms: list[int], i: int, offset: int, lo: int, hi: int, changed: list[int]) -> bool:
    """Narrow decision ``i`` to values ``lo .. hi``; False when none is left."""
    return narrow(doms, i, doms[i] & range_mask(lo - offset, hi - offset), changed)


def _ceil_floor(low_: Fraction, high_: Fraction) -> tuple[int, int]:
    return -(-low_.numerator // low_.denominator), high_.numerator // high_.denominator


def _inverse(
    name: str, k: int, z: tuple[int, int], ranges: list[tuple[int, int]], position: int
) -> tuple[int, int] | None:
    """The range argument ``position`` must lie in for the result to stay in ``z``;
    None when nothing can be said on bounds alone."""
    zl, zh = z
    if name == "*":
        if len(ranges) == 1:
            root = isqrt(zh) if zh >= 0 else -1
            return -root, root
        yl, yh = ranges[1 - position]
        if yl <= 0 <= yh:
            return None
        quotients = [Fraction(a, b) for a in (zl, zh) for b in (yl, yh)]
        return _ceil_floor(min(quotients), max(quotients))
    if name == "//":
        return (zl * k, zh * k + k - 1) if k > 0 else ((zh + 1) * k + 1, zl * k)
    if name == "abs":
        return -zh, zh
    return None


def _hole(name: str, least: int) -> int:
    """``abs(x)`` (or ``x * x``) is at least ``least``: x is outside ``-t .. t`` for the
    ``t`` given (-1: no hole)."""
    if least <= 0:
        return -1
    return least - 1 if name == "abs" else isqrt(least - 1)


def _outside(doms: list[int], i: int, offset: int, t: int, changed: list[int]) -> Changes:
    """Strike values ``-t .. t`` from decision ``i``."""
    if t < 0 or narrow(doms, i, doms[i] & ~range_mask(-t - offset, t - offset), changed):
        return changed
    return None


def _supported(
    doms: list[int],
    result: int,
    arguments: tuple[int, ...],
    f: Callable[..., int],
    offsets: list[int],
) -> Changes:
    """``result == f(*arguments)`` with every combination of the arguments tried: each
    decision keeps the values some combination in the domains supports."""
    off_z = offsets[result]
    z_bits = doms[result]
    kept_z = 0
    kept = [0] * len(arguments)
    for combo in _combinations([_values(doms[i], offsets[i]) for i in arguments]):
        position = f(*combo) - off_z
        if position >= 0 and z_bits >> position & 1:
            kept_z |= 1 << position
            for n, v in enumerate(combo):
                kept[n] |= 1 << (v - offsets[arguments[n]])
    changed: list[int] = []
    for i, bits in ((result, kept_z), *zip(arguments, kept, strict=True)):
        if not narrow(doms, i, bits, changed):
            return None
    return changed


def _by_bounds(
    doms: list[int], result: int, arguments: tuple[int, ...], name: str, k: int, offsets: list[int]
) -> Changes:
    """``result == f(*arguments)`` on ranges: the result cut to what ``f`` reaches over
    the arguments' ranges, each argument to what the result's range allows."""
    changed: list[int] = []
    ranges = [(offsets[i] + low(doms[i]), offsets[i] + doms[i].bit_length() - 1) for i in arguments]
    lo, hi = span(name, k, ranges)
    off_z = offsets[result]
    if not _cut(doms, result, off_z, lo, hi, changed):
        return None
    z = (off_z + low(doms[result]), off_z + doms[result].bit_length() - 1)
    for n, i in enumerate(arguments):
        allowed = _inverse(name, k, z, ranges, n)
        if allowed is not None and not _cut(doms, i, offsets[i], *allowed, changed):
            return None
    if name == "abs" or (name == "*" and len(arguments) == 1):
        return _outside(doms, arguments[0], offsets[arguments[0]], _hole(name, z[0]), changed)
    return changed


# each byte with its bits in the opposite order
_BYTES_REVERSED = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))


def _reversed(bits: int, width: int) -> int:
    """The lowest ``width`` bits of ``bits`` in the opposite order: the bytes read the
    other way round, each byte's bits reversed by a table (a bit set as wide as 280,000
    values turns in a fifth of a millisecond, where a string of its digits took two), or,
    where they are one run (a range: the common case), the run moved by a shift."""
    kept = bits & ((1 << width) - 1) if width > 0 else 0
    if not kept:
        return 0
    lowest = (kept & -kept).bit_length() - 1
    run = kept >> lowest
    if not run & (run + 1):
        return run << (width - lowest - run.bit_length())
    size = (width + 7) // 8
    low_first = kept.to_bytes(size, "little")
    return int.from_bytes(low_first.translate(_BYTES_REVERSED), "big") >> (8 * size - width)


def _magnitudes(bits: int, offset: int) -> int:
    """``abs`` of the values of a bit set over ``offset``, as a bit set over 0."""
    if offset >= 0:
        return bits << offset
    width = -offset  # positions below it hold the negative values, -1 at width - 1
    return bits >> width | _reversed(bits, width) << 1


def _with_magnitudes(allowed: int, offset: int) -> int:
    """The positions of a bit set over ``offset`` whose value's ``abs`` is in ``allowed``
    (a bit set over 0)."""
    if offset >= 0:
        return allowed >> offset
    width = -offset
    return allowed << width | _reversed(allowed >> 1, width)


def abs_filter(result: int, x: int, offsets: list[int]) -> Propagator:
    """``result == abs(x)`` to domain consistency, by bit sets: the result keeps the
    magnitudes of x's values, x the values whose magnitude the result keeps (the
    negative ones mirrored, a bit reversal)."""
    off_z, off_x = offsets[result], offsets[x]

    def prop(doms: list[int]) -> Changes:
        z_bits, x_bits = doms[result], doms[x]
        reach = _magnitudes(x_bits, off_x)
        z = z_bits & (reach >> off_z if off_z >= 0 else reach << -off_z)
        if not z:
            return None
        allowed = z << off_z if off_z >= 0 else z >> -off_z
        kept = x_bits & _with_magnitudes(allowed, off_x)
        if not kept:
            return None
        changed = []
        if z != z_bits:
            doms[result] = z
            changed.append(result)
        if kept != x_bits:
            doms[x] = kept
            changed.append(x)
        return changed

    return prop


def function_filter(
    result: int,
    arguments: tuple[int, ...],
    name: str,
    k: int,
    f: Callable[..., int],
    offsets: list[int],
) -> Propagator:
    """``result == f(*arguments)``: the values with a support while the arguments have
    at most ``ENUMERATED`` combinations, else reasoning on ranges."""

    def prop(doms: list[int]) -> Changes:
        count = 1
        for i in arguments:
            count *= doms[i].bit_count()
        if count <= ENUMERATED:
            return _supported(doms, result, arguments, f, offsets)
        return _by_bounds(doms, result, arguments, name, k, offsets)

    return prop


def _combinations(options: list[list[int]]) -> list[tuple[int, ...]]:
    combos: list[tuple[int, ...]] = [()]
    for values in options:
        combos = [(*c, v) for c in combos for v in values]
    return combos


def all_filter(parts: Sequence[Propagator]) -> Propagator:
    """``c1 & c2 & ...``: each part's propagator in turn."""

    def prop(doms: list[int]) -> Changes:
        changed: list[int] = []
        for part in parts:
            changes = part(doms)
            if changes is None:
                return None
            changed.extend(changes)
        return changed

    return prop


def any_filter(parts: Sequence[tuple[Propagator, tuple[int, ...]]]) -> Propagator:
    """``c1 | c2 | ...`` (each part's propagator and scope): fails when every part
    fails; when all but one fail, that one must hold and its propagator runs."""

    def prop(doms: list[int]) -> Changes:
        alive = [part for part, scope in parts if not fails_on_trial(part, scope, doms)]
        if not alive:
            return None
        if len(alive) == 1:
            return alive[0](doms)
        return ()

    return prop


def truth_filter(
    truth: int, holds: Propagator, fails: Propagator, scope: tuple[int, ...]
) -> Propagator:
    """``truth == 1`` exactly when the condition holds (over the decisions ``scope``):
    with ``truth`` fixed, the condition (1) or its negation (0) is propagated; open,
    it is fixed to 0 when the condition cannot hold and to 1 when its negation
    cannot."""

    def prop(doms: list[int]) -> Changes:
        bits = doms[truth]  # over offset 0: bit 0 is false, bit 1 true
        if bits == 0b10:
            return holds(doms)
        if bits == 0b01:
            return fails(doms)
        if fails_on_trial(holds, scope, doms):
            doms[truth] = 0b01
            return (truth,)
        if fails_on_trial(fails, scope, doms):
            doms[truth] = 0b10
            return (truth,)
        return ()

    return prop


def reified_unary_filter(truth: int, x: int, meets: int) -> Propagator:
    """The 0/1 decision ``truth`` is 1 exactly when decision ``x`` takes one of the
    values of the bit set ``meets`` (a condition on ``x`` alone: ``x == 3``, ``x <=
    5``, ``x in s``), by bit masks."""

    def prop(doms: list[int]) -> Changes:
        bits = doms[truth]
        held = doms[x]
        if bits == 0b10 or bits == 0b01:
            kept = held & meets if bits == 0b10 else held & ~meets
            if not kept:
                return None
            if kept == held:
                return ()
            doms[x] = kept
            return (x,)
        if not held & meets:
            doms[truth] = 0b01
            return (truth,)
        if not held & ~meets:
            doms[truth] = 0b10
            return (truth,)
        return ()

    return prop


def _moved(bits: int, by: int) -> int:
    """A bit set shifted up ``by`` places (down when negative; bits below 0 dropped)."""
    return bits << by if by >= 0 else bits >> -by


def reified_shift_filter(
    truth: int, x: int, y: int, k: int, equal: int, offsets: list[int]
) -> Propagator:
    """The 0/1 decision ``truth`` is ``equal`` (a bit: ``0b10`` for 1, ``0b01`` for 0)
    exactly when ``x == y + k``, by bit sets: ``y``'s values moved by ``k`` onto
    ``x``'s.  Fixed to equal, each keeps the values the other can match; fixed to
    differ, a fixed side strikes its one value from the other; open, no common value
    makes them differ and two fixed matching values make them equal."""
    shift = offsets[y] + k - offsets[x]  # value v of y is bit (v + k - offsets[x]) of x
    differ = equal ^ 0b11

    def prop(doms: list[int]) -> Changes:
        state, bx, by = doms[truth], doms[x], doms[y]
        if state == equal:
            nx = bx & _moved(by, shift)
            ny = by & _moved(nx, -shift)
            if not nx or not ny:
                return None
            doms[x], doms[y] = nx, ny
            return [i for i, old, new in ((x, bx, nx), (y, by, ny)) if old != new]
        if state == differ:
            if not by & (by - 1):
                nx = bx & ~_moved(by, shift)
                return None if not nx else () if nx == bx else _set(doms, x, nx)
            if not bx & (bx - 1):
                ny = by & ~_moved(bx, -shift)
                return None if not ny else () if ny == by else _set(doms, y, ny)
            return ()
        if not bx & _moved(by, shift):
            return _set(doms, truth, differ)
        if not bx & (bx - 1) and not by & (by - 1):
            return _set(doms, truth, equal)
        return ()

    return prop


def _set(doms: list[int], i: int, bits: int) -> Changes:
    """Narrow decision ``i`` to ``bits``: the change."""
    doms[i] = bits
    return (i,)


def clause_filter(literals: Sequence[tuple[int, int]]) -> Propagator:
    """At least one literal holds: a literal ``(i, bit)`` is a 0/1 decision (over offset
    0) taking the value of ``bit`` (``0b01``: 0, ``0b10``: 1).  Unit propagation: with
    every literal but one false, that one is set; with all false, a failure."""

    decisions = [i for i, _ in literals]
    wanted = [bit for _, bit in literals]
    size = len(literals)

    def prop(doms: list[int]) -> Changes:
        last = -1
        want = 0
        for k in range(size):
            bits = doms[decisions[k]]
            bit = wanted[k]
            if bits == bit:
                return ()
            if bits & bit:
                if last >= 0:
                    return ()
                last, want = decisions[k], bit
        if last < 0:
            return None
        doms[last] = want
        return (last,)

    return prop


def reified_clause_filter(truth: int, when: int, literals: Sequence[tuple[int, int]]) -> Propagator:
    """The 0/1 decision ``truth`` is ``when`` (a bit, as a literal's) exactly when some
    literal holds (see :func:`clause_filter`): ``array_bool_or`` reified, and
    ``array_bool_and`` reified as the clause of the negated literals."""
    unit = clause_filter(literals)
    other = when ^ 0b11
    decisions = [i for i, _ in literals]
    wanted = [bit for _, bit in literals]
    size = len(literals)

    def prop(doms: list[int]) -> Changes:
        bits = doms[truth]
        if bits == when:
            return unit(doms)
        if bits == other:
            changed = []
            for k in range(size):
                i = decisions[k]
                held, bit = doms[i], wanted[k]
                if held == bit:
                    return None
                if held & bit:
                    doms[i] = held ^ bit
                    changed.append(i)
            return changed
        open_ = False
        for k in range(size):
            held, bit = doms[decisions[k]], wanted[k]
            if held == bit:
                doms[truth] = when
                return (truth,)
            if held & bit:
                open_ = True
        if open_:
            return ()
        doms[truth] = other
        return (truth,)

    return prop
