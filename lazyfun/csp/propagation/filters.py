"""Bit-set filtering: linear bounds and !=, element, table, if_then, minimum/maximum, goal bounds.

A domain is a bit set over the decision's offset: bit ``i`` of decision ``d``
stands for ``offsets[d] + i``.  A propagator takes the list of domains,
narrows some of them in place, and returns the decisions it narrowed, or
None when the constraint cannot hold.  :mod:`lazyfun.csp.propagation.propagators` picks
one for each constraint of a model and runs them to a fixpoint.

Installed from source, this module is compiled with mypyc (see
:mod:`lazyfun.compiled`); the code here is what runs either way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lazyfun.csp.modelling.constraints import COMPARISONS, Constraint, Linear

__all__ = [
    "Changes",
    "GoalBound",
    "Propagator",
    "Terms",
    "bounds",
    "element_filter",
    "extreme_filter",
    "fails_on_trial",
    "if_then_filter",
    "keep_where",
    "lex_filter",
    "low",
    "narrow",
    "not_equal_filter",
    "range_mask",
    "reified_linear_filter",
    "table_filter",
    "unit_equality",
]

# What a propagator did to the domains: None when it found them inconsistent
# (a domain wiped out, or the constraint broken), else the decisions it narrowed.
Changes = Sequence[int] | None
Propagator = Callable[[list[int]], Changes]
# A linear expression over bit sets: (decision, coefficient, the decision's offset).
Terms = list[tuple[int, int, int]]


WORD = 60
"""Bits taken at a time from a wide bit set: numbers this small stay unboxed when compiled."""
WORD_MASK = (1 << WORD) - 1


def low(bits: int) -> int:
    """The position of the lowest bit."""
    return (bits & -bits).bit_length() - 1


def range_mask(low: int, high: int) -> int:
    """Bits ``low .. high`` (clipped at 0); 0 when the range is empty."""
    low = max(low, 0)
    if high < low:
        return 0
    return ((1 << (high + 1)) - 1) ^ ((1 << low) - 1)


def _shifted(bits: int, by: int) -> int:
    return bits << by if by >= 0 else bits >> -by


def _span(terms: Terms, doms: Sequence[int]) -> tuple[int, int]:
    """The smallest and largest value ``sum(a * x)`` can take over the domains' bounds."""
    smallest = largest = 0
    for i, a, off in terms:
        bits = doms[i]
        lo = off + low(bits)
        hi = off + bits.bit_length() - 1
        if a > 0:
            smallest += a * lo
            largest += a * hi
        else:
            smallest += a * hi
            largest += a * lo
    return smallest, largest


def bounds(terms: Terms, constant: int, equal: bool) -> Propagator:
    """``sum(a * x) + k <= 0`` (or ``== 0`` when ``equal``) by bounds reasoning:
    each decision's range is cut to what the others' extremes leave it.

    With the terms' smallest sum ``low`` (every ``a * x`` at its least), the
    term ``a * x`` may rise at most ``-low`` above its least; with ``==`` and
    the largest sum ``high``, fall at most ``high`` below its most.
    """

    # The offsets' part of the sum is a constant; the rest is each coefficient's size
    # times a bit position, both at least 0 (compiled, a product of two small numbers
    # of which neither is negative is a machine multiply; any other is a boxed one).
    base = constant + sum(a * off for _, a, off in terms)
    sized = [(i, abs(a), a > 0) for i, a, _ in terms]

    def prop(doms: list[int]) -> Changes:
        total_low = total_high = base
        widest = 0
        for i, size, rising in sized:
            bits = doms[i]
            lo = (bits & -bits).bit_length() - 1
            hi = bits.bit_length() - 1
            if rising:
                total_low += size * lo
                total_high += size * hi
            else:
                total_low -= size * hi
                total_high -= size * lo
            span = (hi - lo) * size
            if span > widest:
                widest = span
        if total_low > 0 or (equal and total_high < 0):
            return None
        # No term spans more than the slack on either side: nothing to cut (most calls).
        if widest <= -total_low and (not equal or widest <= total_high):
            return ()
        return _cut_terms(doms, terms, total_low, total_high, equal)

    return prop


def _cut_terms(
    doms: list[int], terms: Terms, total_low: int, total_high: int, equal: bool
) -> Changes:
    """:func:`bounds`' cuts: each term's range to what the sums' slack leaves it."""
    changed = []
    for i, a, _off in terms:
        bits = doms[i]
        lo, hi = low(bits), bits.bit_length() - 1
        if a > 0:
            new_lo = hi - total_high // a if equal else lo
            new_hi = lo + -total_low // a
        else:
            new_lo = hi - -total_low // -a
            new_hi = lo + total_high // -a if equal else hi
        if new_lo > lo:
            bits = bits >> new_lo << new_lo
        if new_hi < hi:
            bits &= (1 << (new_hi + 1)) - 1
        if bits != doms[i]:
            if not bits:
                return None
            doms[i] = bits
            changed.append(i)
    return changed


def not_equal_filter(terms: Terms, constant: int) -> Propagator:
    """``sum(a * x) + k != 0``: once one decision is open, strike its one forbidden value."""

    def prop(doms: list[int]) -> Changes:
        open_term: tuple[int, int, int] | None = None
        rest = constant
        for term in terms:
            i, a, off = term
            bits = doms[i]
            if bits & (bits - 1):
                if open_term is not None:
                    return ()
                open_term = term
            else:
                rest += a * (off + bits.bit_length() - 1)
        if open_term is None:
            return () if rest != 0 else None
        i, a, off = open_term
        if rest % a == 0:
            position = -rest // a - off
            if position >= 0 and doms[i] >> position & 1:
                doms[i] ^= 1 << position  # open: a value is left
                return (i,)
        return ()

    return prop


def unit_equality(terms: Terms, constant: int) -> Propagator:
    """``sum(±x) + k == 0`` over three or more decisions: bounds reasoning, and once
    all but two of opposite signs are fixed (``x - y == c``), domain reasoning
    between those two, their bit sets shifted onto each other."""
    by_bounds = bounds(terms, constant, True)

    def prop(doms: list[int]) -> Changes:
        changed = by_bounds(doms)
        if changed is None:
            return None
        rest = constant
        x = y = -1
        off_x = off_y = 0
        for i, a, off in terms:
            bits = doms[i]
            if not bits & (bits - 1):
                rest += a * (off + low(bits))
            elif a > 0 and x < 0:
                x, off_x = i, off
            elif a < 0 and y < 0:
                y, off_y = i, off
            else:
                return changed
        if x < 0 or y < 0:
            return changed
        shift = off_y - rest - off_x  # x = y - rest: bit of x = bit of y + shift
        x0, y0 = doms[x], doms[y]
        x1 = x0 & _shifted(y0, shift)
        y1 = y0 & _shifted(x1, -shift)
        if not x1 or not y1:
            return None
        if x1 == x0 and y1 == y0:
            return changed
        doms[x], doms[y] = x1, y1
        return [*changed, *(i for i, a, b in ((x, x0, x1), (y, y0, y1)) if a != b)]

    return prop


def element_filter(
    result: int, index: int, items: list[tuple[int, int]], offsets: list[int]
) -> Propagator:
    """``result == items[index]``; an item is ``(decision, 0)`` or ``(-1, number)``.

    The index keeps the positions whose item can still equal the result; the
    result keeps the values some such item can take; once the index is
    fixed, its item and the result narrow each other.
    """
    off_r, off_i = offsets[result], offsets[index]
    size = len(items)
    # Per item: its decision (-1 for a number), and how far its bits move onto the
    # result's (for a number: the result's bit of that value, or -1 when below).
    decisions = [j for j, _ in items]
    moves = [offsets[j] - off_r if j >= 0 else number - off_r for j, number in items]

    def prop(doms: list[int]) -> Changes:
        res, idx = doms[result], doms[index]
        kept = support = 0
        rest, base = idx, off_i
        while rest:  # the index's bits a word at a time: small numbers within it
            word, rest = rest & WORD_MASK, rest >> WORD
            kept_word = 0
            while word:
                bit = word & -word
                word ^= bit
                k = base + bit.bit_length() - 1
                if not 0 <= k < size:
                    continue
                j, move = decisions[k], moves[k]
                if j >= 0:
                    hit = (doms[j] << move if move >= 0 else doms[j] >> -move) & res
                else:
                    hit = res & (1 << move) if move >= 0 else 0
                if hit:
                    kept_word |= bit
                    support |= hit
            kept |= kept_word << (base - off_i)
            base += WORD
        if not kept:
            return None
        changed = []
        if kept != idx:
            doms[index] = kept
            changed.append(index)
        if support != res:
            doms[result] = support
            changed.append(result)
        j = items[off_i + low(kept)][0] if not kept & (kept - 1) else -1
        if j >= 0 and not narrow(
            doms, j, doms[j] & _shifted(doms[result], off_r - offsets[j]), changed
        ):
            return None
        return changed

    return prop


def narrow(doms: list[int], i: int, bits: int, changed: list[int]) -> bool:
    """Narrow decision ``i`` to ``bits`` (a subset of its domain), noting a change;
    False when nothing is left."""
    if not bits:
        return False
    if bits != doms[i]:
        doms[i] = bits
        changed.append(i)
    return True


def table_filter(
    scope: tuple[int, ...], rows: Sequence[tuple[int, ...]], offsets: list[int]
) -> Propagator:
    """The decisions keep the values some row still allowed by every domain uses.

    The rows are bits of one number: per position and value, the rows with that
    value there.  The rows still allowed are those whose value at each position is
    in its domain (an and of ors); a value stays where some allowed row has it.
    """
    width = len(scope)
    at: list[dict[int, int]] = [{} for _ in scope]
    count = 0
    for row in rows:
        if all(v >= offsets[i] for v, i in zip(row, scope, strict=True)):
            for k, i in enumerate(scope):
                bit = 1 << (row[k] - offsets[i])
                at[k][bit] = at[k].get(bit, 0) | 1 << count
            count += 1
    every = (1 << count) - 1

    def prop(doms: list[int]) -> Changes:
        allowed = every
        for k in range(width):
            rows_at = at[k]
            rest = doms[scope[k]]
            some = 0
            while rest:
                bit = rest & -rest
                rest ^= bit
                some |= rows_at.get(bit, 0)
            allowed &= some
            if not allowed:
                return None
        changed: list[int] = []
        for k in range(width):
            rows_at = at[k]
            i = scope[k]
            rest = kept = doms[i]
            while rest:
                bit = rest & -rest
                rest ^= bit
                if not rows_at.get(bit, 0) & allowed:
                    kept ^= bit
            if kept != doms[i]:
                doms[i] = kept
                changed.append(i)
        return changed

    return prop


def keep_where(
    c: Constraint, wanted: bool, doms: list[int], i: int, offsets: list[int], values: list[int]
) -> Changes:
    """Decision ``i``, the last open one of ``c``, keeps the values for which
    ``c.holds`` is ``wanted``, every other decision of ``c`` at its fixed value."""
    for j in c.scope:
        values[j] = offsets[j] + low(doms[j])
    bits = doms[i]
    kept = 0
    rest = bits
    while rest:
        bit = rest & -rest
        rest ^= bit
        values[i] = offsets[i] + bit.bit_length() - 1
        if c.holds(values) == wanted:
            kept |= bit
    if not kept:
        return None
    if kept == bits:
        return ()
    doms[i] = kept
    return (i,)


def _entailed(condition: Constraint, offsets: list[int]) -> Callable[[list[int], list[int]], bool]:
    """A test that ``condition`` holds whatever values the domains leave: from the
    expression's range for a linear condition, else once its decisions are fixed."""
    if isinstance(condition, Linear):
        terms = [(i, a, offsets[i]) for i, a in condition.expr.terms.items()]
        constant, op = condition.expr.constant, condition.op
        test = COMPARISONS[op]

        def by_range(doms: list[int], values: list[int]) -> bool:
            smallest, largest = _span(terms, doms)
            smallest += constant
            largest += constant
            if op == "!=":
                return smallest > 0 or largest < 0
            if op == "==":
                return smallest == largest == 0
            return test(smallest, 0) and test(largest, 0)

        return by_range

    def when_fixed(doms: list[int], values: list[int]) -> bool:
        for i in condition.scope:
            bits = doms[i]
            if bits & (bits - 1):
                return False
            values[i] = offsets[i] + low(bits)
        return condition.holds(values)

    return when_fixed


def reified_linear_filter(
    truth: int, condition: Linear, holds: Propagator, fails: Propagator, offsets: list[int]
) -> Propagator:
    """The 0/1 decision ``truth`` is 1 exactly when the linear ``condition`` holds: with
    ``truth`` fixed, ``holds`` (1) or ``fails`` (0) propagates; open, the expression's
    range decides it once the range is all on one side (one pass over the terms)."""
    terms = [(i, a, offsets[i]) for i, a in condition.expr.terms.items()]
    constant, op = condition.expr.constant, condition.op
    test = COMPARISONS[op]

    def prop(doms: list[int]) -> Changes:
        bits = doms[truth]
        if bits == 0b10:
            return holds(doms)
        if bits == 0b01:
            return fails(doms)
        smallest, largest = _span(terms, doms)
        smallest += constant
        largest += constant
        apart = smallest > 0 or largest < 0  # never 0
        if op == "!=":
            sure, never = apart, smallest == largest == 0
        else:
            sure = test(smallest, 0) and test(largest, 0)
            never = apart if op == "==" else not test(smallest, 0) and not test(largest, 0)
        if sure or never:
            doms[truth] = 0b10 if sure else 0b01
            return (truth,)
        return ()

    return prop


def fails_on_trial(prop: Propagator, scope: Sequence[int], doms: list[int]) -> bool:
    """Whether ``prop`` finds its constraint impossible on ``doms``; the domains of its
    ``scope`` (all it may narrow) are put back as they were."""
    saved = [doms[i] for i in scope]
    failed = prop(doms) is None
    for i, bits in zip(scope, saved, strict=True):
        doms[i] = bits
    return failed


def if_then_filter(
    condition: Constraint, then: Propagator, then_scope: Sequence[int], offsets: list[int]
) -> Propagator:
    """``condition`` implies the constraint that ``then`` propagates (over the decisions
    ``then_scope``).

    Once the condition is sure to hold, ``then`` runs; while ``then`` is
    found impossible (on a trial, see :func:`fails_on_trial`), the condition must
    fail: with one of its decisions open, that decision keeps the values
    that break it.
    """
    entailed = _entailed(condition, offsets)
    scope = sorted(set(condition.scope))
    values = [0] * len(offsets)

    def prop(doms: list[int]) -> Changes:
        if entailed(doms, values):
            return then(doms)
        if not fails_on_trial(then, then_scope, doms):
            return ()
        open_ = [i for i in scope if doms[i] & (doms[i] - 1)]
        if len(open_) != 1:
            return ()
        return keep_where(condition, False, doms, open_[0], offsets, values)

    return prop


def _at_least(doms: list[int], i: int, value: int, offsets: list[int], changed: list[int]) -> bool:
    """Cut decision ``i`` to values ``>= value``; False when none is left."""
    bits = doms[i]
    at = value - offsets[i]
    if at <= 0:
        return True
    kept = bits >> at << at
    if kept != bits:
        if not kept:
            return False
        doms[i] = kept
        changed.append(i)
    return True


def _at_most(doms: list[int], i: int, value: int, offsets: list[int], changed: list[int]) -> bool:
    """Cut decision ``i`` to values ``<= value``; False when none is left."""
    bits = doms[i]
    at = value - offsets[i]
    if at < 0:
        return False
    kept = bits & ((1 << (at + 1)) - 1)
    if kept != bits:
        if not kept:
            return False
        doms[i] = kept
        changed.append(i)
    return True


def _tail_may_hold(
    xs: Sequence[int],
    ys: Sequence[int],
    start: int,
    equal_ok: bool,
    doms: list[int],
    offsets: list[int],
) -> bool:
    """Whether ``xs[start:]`` can still come before (or, when ``equal_ok``, equal)
    ``ys[start:]`` lexicographically, by bounds: the first pair where ``x`` can be
    below ``y`` says yes, the first where it must be above says no, pairs that can
    only be equal say nothing."""
    for k in range(start, len(xs)):
        i, j = xs[k], ys[k]
        if i == j:
            continue
        least_x = offsets[i] + low(doms[i])
        most_y = offsets[j] + doms[j].bit_length() - 1
        if least_x != most_y:
            return least_x < most_y
    return equal_ok


def lex_filter(
    xs: Sequence[int], ys: Sequence[int], equal_ok: bool, offsets: list[int]
) -> Propagator:
    """``xs`` comes lexicographically before ``ys`` (equal allowed when ``equal_ok``;
    the lists are as long as the shorter of the two, the length decided ``equal_ok``).

    Frisch et al.'s rule: at the first pair not fixed to one value (alpha),
    ``x <= y``, and ``x < y`` when the rest cannot hold with the pair equal
    (:func:`_tail_may_hold`); a pair thereby fixed equal moves alpha on.  The
    pairs after alpha keep every value: ``x < y`` at alpha leaves them free.
    """

    def prop(doms: list[int]) -> Changes:
        changed: list[int] = []
        for k in range(len(xs)):
            i, j = xs[k], ys[k]
            if i == j:
                continue
            bx, by = doms[i], doms[j]
            least_x, most_x = offsets[i] + low(bx), offsets[i] + bx.bit_length() - 1
            least_y, most_y = offsets[j] + low(by), offsets[j] + by.bit_length() - 1
            if least_x == most_x == least_y == most_y:
                continue
            if most_x < least_y:
                return changed  # before at alpha, whatever follows
            gap = 0 if _tail_may_hold(xs, ys, k + 1, equal_ok, doms, offsets) else 1
            if not _at_most(doms, i, most_y - gap, offsets, changed):
                return None
            if not _at_least(doms, j, least_x + gap, offsets, changed):
                return None
            bx, by = doms[i], doms[j]
            if bx & (bx - 1) or by & (by - 1) or offsets[i] + low(bx) != offsets[j] + low(by):
                return changed
        return changed if equal_ok else None

    return prop


class _Side:
    """Decisions' bounds read one way: as they are (``sign`` 1) or negated (-1)."""

    def __init__(self, sign: int, offsets: list[int]) -> None:
        self.sign = sign
        self.offsets = offsets

    def span(self, doms: list[int], i: int) -> tuple[int, int]:
        bits = doms[i]
        lo, hi = self.offsets[i] + low(bits), self.offsets[i] + bits.bit_length() - 1
        return (lo, hi) if self.sign > 0 else (-hi, -lo)

    def at_least(self, doms: list[int], i: int, value: int, changed: list[int]) -> bool:
        if self.sign > 0:
            return _at_least(doms, i, value, self.offsets, changed)
        return _at_most(doms, i, -value, self.offsets, changed)

    def at_most(self, doms: list[int], i: int, value: int, changed: list[int]) -> bool:
        if self.sign > 0:
            return _at_most(doms, i, value, self.offsets, changed)
        return _at_least(doms, i, -value, self.offsets, changed)


def extreme_filter(
    result: int, items: list[int], cap: int | None, largest: bool, offsets: list[int]
) -> Propagator:
    """``result == min(items + [cap])`` (``max`` when ``largest``), by bounds.

    Written for the minimum, on values read negated for a maximum: the
    result lies between the smallest low and the smallest high of the items;
    every item is at least the result; and when only one item can still be
    as small as the result's high, that item is at most it.
    """
    side = _Side(-1 if largest else 1, offsets)
    signed_cap = None if cap is None else side.sign * cap

    def prop(doms: list[int]) -> Changes:
        spans = [side.span(doms, i) for i in items]
        least_low = min(lo for lo, _ in spans)
        least_high = min(hi for _, hi in spans)
        if signed_cap is not None:
            least_low = min(least_low, signed_cap)
            least_high = min(least_high, signed_cap)
        changed: list[int] = []
        if not side.at_least(doms, result, least_low, changed):
            return None
        if not side.at_most(doms, result, least_high, changed):
            return None
        r_low, r_high = side.span(doms, result)
        if not all(side.at_least(doms, i, r_low, changed) for i in items):
            return None
        if signed_cap is None or signed_cap > r_high:
            can_be_least = [i for i in items if side.span(doms, i)[0] <= r_high]
            if not can_be_least:
                return None
            if len(can_be_least) == 1 and not side.at_most(doms, can_be_least[0], r_high, changed):
                return None
        return changed

    return prop


class GoalBound:
    """The branch-and-bound cut: the goals must beat the best solution found so far.

    Goals are linear expressions to minimise (a maximised goal is negated),
    ranked: the first decides, the next breaks its ties.  After
    :meth:`improve_on` an objective ``v``, a solution must be
    lexicographically smaller: goal 0 at most ``v[0]``; once goal 0 cannot
    be below ``v[0]``, goal 1 at most ``v[1]``; and so on, the last strictly
    below.
    """

    def __init__(self, goals: list[tuple[Terms, int]]) -> None:
        self.goals = goals
        self.incumbent: list[int] = []
        self._cuts: list[Propagator] = []

    def value(self, k: int, values: Sequence[int]) -> int:
        """Goal ``k``'s value (minimised form) for the decisions' ``values``."""
        terms, constant = self.goals[k]
        return constant + sum(a * values[i] for i, a, _ in terms)

    def lowest(self, k: int, doms: Sequence[int]) -> int:
        """The smallest value goal ``k`` can take over the domains' bounds."""
        terms, constant = self.goals[k]
        return constant + _span(terms, doms)[0]

    def limit(self) -> int | None:
        """The most goal 0 may be from now on (None before any solution): the
        incumbent's value, less one when goal 0 is the only goal."""
        if not self.incumbent:
            return None
        return self.incumbent[0] - (1 if len(self.goals) == 1 else 0)

    def improve_on(self, objective: list[int]) -> None:
        """From now on, only solutions better than ``objective`` are allowed."""
        self.incumbent = objective
        last = len(self.goals) - 1
        self._cuts = [
            bounds(terms, constant - v + (1 if k == last else 0), False)
            for k, ((terms, constant), v) in enumerate(zip(self.goals, objective, strict=True))
        ]

    def __call__(self, doms: list[int]) -> Changes:
        changed: list[int] = []
        last = len(self._cuts) - 1
        for k, cut in enumerate(self._cuts):
            narrowed = cut(doms)
            if narrowed is None:
                return None
            changed.extend(narrowed)
            if k == last or self.lowest(k, doms) < self.incumbent[k]:
                break
        return changed
