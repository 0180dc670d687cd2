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

__all__ = [
    "Explainer",
    "Literal",
    "at_least",
    "at_most",
    "by_bounds",
    "by_others",
    "by_ranges",
    "by_scope",
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
