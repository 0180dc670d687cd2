"""The first goal's linear relaxation against each linear constraint: a bound and fixings
(and, the same way, each linear row's against each other's: :func:`row_bounds`).

Written as a maximisation, the first goal is ``sum(p * x) + k``; a linear
constraint, made ``sum(a * x) + b <= 0`` (``>=`` negated, ``==`` both ways),
is a knapsack: each decision's value costs ``a`` per unit of the capacity
``-b`` and earns ``p``.  Relaxed to the boxes ``lo <= x <= hi`` (holes
ignored), the best the goal can do is Dantzig's bound: measure each decision
from its end that costs least (``x = lo + y`` when ``a > 0``, ``x = hi - y``
when ``a < 0``: every weight ``w = |a|`` then counts positively), give the
room left to the decisions best value-per-weight first, the last one taking
a fraction.  That last one's ratio ``r`` prices the capacity, and for every
decision ``d = p - r * w`` is what each unit of it moved against its place in
the relaxation costs the bound (reduced costs).  Hence, with ``target`` the
value a new solution must reach (the incumbent's, plus one when it is the
only goal):

- the bound test (:meth:`Knapsack.propagate`): fail when the bound is
  below ``target``;
- reduced-cost fixing (:func:`reduced_cost_fixing`): a decision keeps only
  the values whose cost, ``|d|`` per unit away from its place, leaves the
  bound at ``target`` or above.

A goal decision absent from the constraint weighs nothing and sits at its
best end.  Both rules follow from the Lagrangian bound: for every price
``r >= 0``, no solution's goal exceeds ``L(r) = (the goal with every decision
at its cheaper end) + r * (the room left then) + the sum over decisions of
max(0, d) * (their ranges)``, and moving a decision ``k`` units from where
``L`` puts it lowers that by ``|d| * k``; Dantzig's ``r`` makes ``L`` the linear
relaxation's optimum.  A constraint is used when at least two goal
decisions compete in it for room (with one, bounds reasoning already knows
as much).  The decision that takes the fraction, the best value per weight
that does not fit, is the one the search branches on
(:meth:`Relaxation.critical`), its value that gains most tried first.

Installed from source, this module is compiled with mypyc (see
:mod:`lazyfun.compiled`); the code here is what runs either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from lazyfun.csp.modelling.constraints import Constraint, Linear
from lazyfun.csp.propagation.filters import Changes, GoalBound, low

__all__ = ["ROW_LIMIT", "Knapsack", "Relaxation", "RowBound", "knapsacks", "row_bounds"]

ROW_LIMIT = 16
"""The most linear rows (of three decisions or more) whose pairs :func:`row_bounds`
relaxes: the pairs grow as the square of the rows."""

# One decision in a knapsack: (decision, offset, side, profit, weight), measured
# from its low end when side is 1 (x = lo + y), from its high end when -1 (x = hi - y).
Item = tuple[int, int, int, int, int]


class Knapsack:
    """One linear constraint read as a knapsack for the goal (see the module's docs).

    ``items`` are every decision of the goal and of the constraint, best
    profit-per-weight first (weightless gains first, the ones that gain
    nothing last); ``capacity`` the room when every decision sits at 0.
    """

    def __init__(self, items: list[Item], capacity: int, constant: int) -> None:
        self.items = items
        self.capacity = capacity
        self.constant = constant

    def relax(self, doms: Sequence[int]) -> tuple[int, int, int, int] | None:
        """The relaxation over the domains' bounds: ``(bound * weight, profit, weight,
        decision)``, where the decision takes a fraction and its profit and weight
        price the room (``(value, 0, 1, -1)`` when everything fits); None when even
        every decision at its cheaper end overflows."""
        room = self.capacity
        value = self.constant
        for i, off, side, profit, weight in self.items:
            bits = doms[i]
            at = off + (low(bits) if side > 0 else bits.bit_length() - 1)
            value += side * profit * at
            room -= side * weight * at
        if room < 0:
            return None
        for i, _, _, profit, weight in self.items:
            if profit <= 0:
                break
            bits = doms[i]
            span = bits.bit_length() - 1 - low(bits)
            if weight * span <= room:
                room -= weight * span
                value += profit * span
            else:
                return weight * value + profit * room, profit, weight, i
        return value, 0, 1, -1

    def propagate(self, doms: list[int], target: int) -> Changes:
        """Fail when the relaxation's bound is below ``target``; else fix by reduced costs."""
        relaxed = self.relax(doms)
        if relaxed is None:
            return None
        bound, price_profit, price_weight, _ = relaxed
        slack = bound - price_weight * target
        if slack < 0:
            return None
        if price_profit == 0:
            return ()
        return reduced_cost_fixing(self.items, doms, slack, price_profit, price_weight)


def reduced_cost_fixing(
    items: list[Item], doms: list[int], slack: int, price_profit: int, price_weight: int
) -> Changes:
    """Each decision keeps the values the bound can pay for.

    With the price ``r = price_profit / price_weight``, a decision whose
    reduced cost ``d = profit - r * weight`` is positive sits at its far end
    in the relaxation and may come back at most ``slack / d`` units (slack
    and ``d`` both times ``price_weight``); one whose ``d`` is negative sits
    at its near end and may move out at most ``slack / -d`` units.
    """
    changed: list[int] = []
    for i, _off, side, profit, weight in items:
        bits = doms[i]
        if not bits & (bits - 1):
            continue
        cost = profit * price_weight - price_profit * weight
        if cost == 0:
            continue
        lo = low(bits)
        hi = bits.bit_length() - 1
        reach = slack // (cost if cost > 0 else -cost)
        if reach >= hi - lo:
            continue
        if (cost > 0) == (side > 0):
            at = hi - reach  # stay within reach of the high end
            kept = bits >> at << at
        else:
            kept = bits & ((1 << (lo + reach + 1)) - 1)
        if not kept:
            return None
        if kept != bits:
            doms[i] = kept
            changed.append(i)
    return changed


class Relaxation:
    """The relaxation's bound on the first goal, against each knapsack, run as one propagator."""

    def __init__(self, goal: GoalBound, sacks: list[Knapsack]) -> None:
        self.goal = goal
        self.sacks = sacks
        self.scope = tuple(sorted({item[0] for sack in sacks for item in sack.items}))

    def critical(self, doms: Sequence[int]) -> int:
        """The decision the first knapsack that overflows takes a fraction of (-1: none)."""
        for sack in self.sacks:
            relaxed = sack.relax(doms)
            if relaxed is not None and relaxed[3] >= 0:
                return relaxed[3]
        return -1

    def lowest(self, doms: Sequence[int]) -> int | None:
        """The least the first goal (minimised) can reach by the tightest knapsack's
        relaxation; None when one of them cannot hold."""
        reach: int | None = None
        for sack in self.sacks:
            relaxed = sack.relax(doms)
            if relaxed is None:
                return None
            least = -(relaxed[0] // relaxed[2])
            reach = least if reach is None else max(reach, least)
        return reach

    def __call__(self, doms: list[int]) -> Changes:
        """Once a solution is known, each knapsack in turn: fail when its bound cannot
        beat it, else fix by reduced costs (see :meth:`Knapsack.propagate`)."""
        limit = self.goal.limit()
        if limit is None:
            return ()
        changed: list[int] = []
        for sack in self.sacks:
            narrowed = sack.propagate(doms, -limit)
            if narrowed is None:
                return None
            changed.extend(narrowed)
        return changed


def _normalised(c: Constraint) -> list[tuple[dict[int, int], int]]:
    """A linear constraint as ``sum(a * x) + b <= 0`` forms (two for ``==``, none for ``!=``)."""
    if not isinstance(c, Linear) or c.op == "!=":
        return []
    terms, constant = c.expr.terms, c.expr.constant
    negated = {i: -a for i, a in terms.items()}
    if c.op == "<=":
        return [(terms, constant)]
    if c.op == "<":
        return [(terms, constant + 1)]
    if c.op == ">=":
        return [(negated, -constant)]
    if c.op == ">":
        return [(negated, 1 - constant)]
    return [(terms, constant), (negated, -constant)]


def _ratio(item: Item) -> tuple[int, Fraction]:
    """Sort key: weightless gains, then gains by falling profit per weight, then the rest."""
    _, _, _, profit, weight = item
    if profit <= 0:
        return (2, Fraction(0))
    if weight == 0:
        return (0, Fraction(0))
    return (1, Fraction(-profit, weight))


def _sack(
    profits: dict[int, int], constant: int, weights: dict[int, int], b: int, offsets: list[int]
) -> Knapsack | None:
    """``sum(profits * x) + constant`` maximised against ``sum(weights * x) + b <= 0``;
    None unless two or more decisions compete for the room."""
    items: list[Item] = []
    for i in sorted(profits.keys() | weights.keys()):
        a, p = weights.get(i, 0), profits.get(i, 0)
        side = (1 if a > 0 else -1) if a else (1 if p >= 0 else -1)
        items.append((i, offsets[i], side, side * p, abs(a)))
    if sum(1 for item in items if item[3] > 0 and item[4] > 0) < 2:
        return None
    items.sort(key=_ratio)
    return Knapsack(items, -b, constant)


def knapsacks(
    goal: GoalBound,
    constraints: Sequence[Constraint],
    offsets: list[int],
) -> Relaxation | None:
    """The relaxation of the first goal (``goal.goals[0]``, minimised) against every linear
    constraint where two or more of its decisions compete for room; None when there is none."""
    if not goal.goals:
        return None
    terms, constant = goal.goals[0]
    profits = {i: -a for i, a, _ in terms}
    sacks = [
        sack
        for c in constraints
        for weights, b in _normalised(c)
        if (sack := _sack(profits, -constant, weights, b, offsets)) is not None
    ]
    return Relaxation(goal, sacks) if sacks else None


class RowBound:
    """A linear row that must reach 0 (``sum(p * x) + k >= 0``) relaxed against another
    row's room: fail when even the relaxation's best is below 0, else fix by reduced
    costs (see :meth:`Knapsack.propagate`)."""

    def __init__(self, sack: Knapsack) -> None:
        self.sack = sack
        self.scope = tuple(sorted({item[0] for item in sack.items}))

    def __call__(self, doms: list[int]) -> Changes:
        return self.sack.propagate(doms, 0)


def row_bounds(constraints: Sequence[Constraint], offsets: list[int]) -> list[RowBound]:
    """Each linear row (of three decisions or more; ``==`` counts as ``<=`` and ``>=``)
    relaxed against each other row whose room two or more of its decisions compete
    for: a multidimensional knapsack's profit target against each capacity, which
    bounds reasoning, one row at a time, cannot see.  None when there are more than
    :data:`ROW_LIMIT` such rows."""
    rows = [
        (k, form)
        for k, c in enumerate(constraints)
        if isinstance(c, Linear) and len(c.expr.terms) >= 3
        for form in _normalised(c)
    ]
    if len(rows) > ROW_LIMIT:
        return []
    found = []
    for k, (terms, b) in rows:
        profits = {i: -a for i, a in terms.items()}
        for other, (weights, room) in rows:
            sack = _sack(profits, -b, weights, room, offsets) if other != k else None
            if sack is not None:
                found.append(RowBound(sack))
    return found
