"""Structures recognised in FlatZinc's flat constraints: machines in reified
disjunctions, bins in linear rows.

A job shop written in plain MiniZinc (no ``disjunctive``) reaches FlatZinc as pairs:
``int_lin_le_reif([1,-1], [a,b], -da, r1)``, ``int_lin_le_reif([1,-1], [b,a], -db,
r2)`` and ``array_bool_or([r1, r2], true)``: task ``a`` (of duration ``da``) ends
before ``b`` starts, or the other way round.  When ``r1`` and ``r2`` are FlatZinc's
own (introduced, used nowhere else) and the durations are positive numbers, the pair
says only that the two tasks do not overlap.  Tasks pairwise so form a machine; the
pairs are covered by machines (greedy cliques), and each machine is posted as one
``no_overlap`` of intervals: the scheduling propagators, SetTimes, ranking and the
tabu search then see the shop.  A task's duration must be the same in all its pairs.

A cutting stock or a bin packing written as counts reaches FlatZinc as two kinds of
linear rows: a bin's capacity, ``int_lin_le([w1,...,wn,-C], [x1,...,xn,u], 0)`` (the
counts ``x`` of items of sizes ``w`` fit in ``C`` when the bin is used, ``u`` in
0..1, and nothing is in it when not), and an item's demand, ``int_lin_le([-1,...,-1],
[x(1,i),...,x(m,i)], -d)`` (at least ``d`` copies of item ``i`` over the bins).  The
propagators see each row alone, so the search learns only by failing that 24 items
of 495 and 9 of 452 cannot share bins with 17 of 571.  Read together, the rows are a
bin packing, and Martello and Toth's bound :func:`bins_needed` says how many bins
its items need at least: the reader posts that the bins used are at least that many.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field

from lazyfun.csp.flatzinc.bounds import Bounds, Row, linear_rows
from lazyfun.csp.flatzinc.text import Ast, Call, Id, Item

__all__ = ["Bins", "Machines", "bins", "bins_needed", "machines"]

Pair = tuple[str, str]  # two tasks' start variables, sorted


@dataclass
class Machines:
    """The machines found: each its tasks as (start variable, duration); the items they
    replace (by position) and the booleans no longer needed."""

    machines: list[list[tuple[str, int]]] = field(default_factory=list)
    replaced: set[int] = field(default_factory=set)
    dropped: set[str] = field(default_factory=set)


def _names(ast: Ast | None) -> Iterator[str]:
    """The variable names ``ast`` uses."""
    if isinstance(ast, Id):
        yield ast.name
    elif isinstance(ast, list):
        for a in ast:
            yield from _names(a)
    elif isinstance(ast, Call):
        for a in ast.args:
            yield from _names(a)


def _precedence(item: Item, params: dict[str, Ast]) -> tuple[str, str, int, str] | None:
    """``int_lin_le_reif([1,-1], [a,b], -d, r)`` as ``(a, b, d, r)``, ``d`` positive (the
    coefficients written out or a parameter array's name)."""
    if item.name != "int_lin_le_reif" or len(item.args) != 4:
        return None
    ks, xs, c, r = item.args
    if (
        (params.get(ks.name) if isinstance(ks, Id) else ks) != [1, -1]
        or not isinstance(xs, list)
        or not isinstance(c, int)
        or c >= 0
    ):
        return None
    if len(xs) != 2 or not all(isinstance(x, Id) for x in xs) or not isinstance(r, Id):
        return None
    a, b = xs
    assert isinstance(a, Id) and isinstance(b, Id)
    return (a.name, b.name, -c, r.name) if a.name != b.name else None


def _pairs(items: list[Item]) -> dict[Pair, tuple[dict[str, int], list[int], list[str]]]:
    """The disjunctive pairs: per pair of tasks, their durations, the items saying it and
    the two booleans."""
    uses = Counter(n for item in items for a in (*item.args, item.value) for n in _names(a))
    introduced = {
        item.name
        for item in items
        if item.kind == "decl" and Id("var_is_introduced") in item.annotations
    }
    params = {
        item.name: item.value
        for item in items
        if item.kind == "decl" and item.type is not None and not item.type.var and item.value
    }
    defined: dict[str, tuple[int, tuple[str, str, int, str]]] = {}
    for k, item in enumerate(items):
        found = _precedence(item, params) if item.kind == "constraint" else None
        if found is not None:
            defined[found[3]] = (k, found)
    pairs: dict[Pair, tuple[dict[str, int], list[int], list[str]]] = {}
    for k, item in enumerate(items):
        if item.kind != "constraint" or item.name != "array_bool_or" or item.args[1:] != (True,):
            continue
        either = item.args[0]
        if not isinstance(either, list) or len(either) != 2:
            continue
        rs = [r.name for r in either if isinstance(r, Id)]
        if len(rs) != 2 or not all(r in defined and r in introduced and uses[r] == 2 for r in rs):
            continue
        (k1, (a1, b1, d1, _)), (k2, (a2, b2, d2, _)) = defined[rs[0]], defined[rs[1]]
        if (a1, b1) != (b2, a2):
            continue
        pair = (min(a1, b1), max(a1, b1))
        if pair not in pairs:  # a pair said twice keeps its first saying
            pairs[pair] = ({a1: d1, a2: d2}, [k, k1, k2], rs)
    return pairs


def _cliques(pairs: set[Pair]) -> list[list[str]]:
    """Groups of tasks pairwise in ``pairs``, covering every pair (greedy, largest first)."""
    near: dict[str, set[str]] = {}
    for a, b in pairs:
        near.setdefault(a, set()).add(b)
        near.setdefault(b, set()).add(a)
    left = set(pairs)
    groups = []
    for a, b in sorted(pairs):
        if (a, b) not in left:
            continue
        group = [a, b]
        for c in sorted(near[a] & near[b]):
            if all(c in near[x] for x in group):
                group.append(c)
        left -= {(min(x, y), max(x, y)) for x in group for y in group if x < y}
        groups.append(group)
    return groups


def machines(items: list[Item]) -> Machines:
    """The machines hidden in ``items``' reified disjunctions (see the module)."""
    pairs = _pairs(items)
    duration: dict[str, int] = {}
    for durations, _, _ in pairs.values():
        for task, d in durations.items():
            if duration.setdefault(task, d) != d:
                return Machines()  # a task of two durations: not a shop
    found = Machines()
    for group in _cliques(set(pairs)):
        found.machines.append([(task, duration[task]) for task in group])
    for _, said, booleans in pairs.values():
        found.replaced.update(said)
        found.dropped.update(booleans)
    return found


def bins_needed(sizes: Counter[int], capacity: int) -> int:
    """The least number of bins of ``capacity`` that items of ``sizes`` (a size: how many
    items have it) need, by Martello and Toth's bound L2: for each ``a`` at most half the
    capacity, the items over ``capacity - a`` take a bin each, so do those over half of
    it (no two share a bin), and the items from ``a`` to half fill at least what those
    middle bins leave free, and more bins beyond.

    >>> bins_needed(Counter({6: 3, 5: 3}), 10)  # 33 fills 4; no 6 shares, 5s go two a bin
    5
    """
    if not sizes:
        return 0
    total = sum(w * n for w, n in sizes.items())
    best = -(-total // capacity)
    for a in {0} | {w for w in sizes if 2 * w <= capacity}:
        big = sum(n for w, n in sizes.items() if w > capacity - a)
        middle = [(w, n) for w, n in sizes.items() if 2 * w > capacity and w <= capacity - a]
        small = sum(w * n for w, n in sizes.items() if a <= w and 2 * w <= capacity)
        free = sum((capacity - w) * n for w, n in middle)
        beyond = max(0, -(-(small - free) // capacity))
        best = max(best, big + sum(n for _, n in middle) + beyond)
    return best


@dataclass
class Bins:
    """The bin packings found: each the variables saying a bin is used and the least
    number of them its items need (the objective alone when it is their sum: a
    bound on it is a domain, where a new row of them would steer the relaxation's
    branching)."""

    counts: list[tuple[list[str], int]] = field(default_factory=list)


def _row(item: Item, bounds: Bounds) -> Row | None:
    """``int_lin_le(ks, xs, c)`` as its coefficients, variable names and constant."""
    if item.kind != "constraint" or item.name != "int_lin_le":
        return None
    found = linear_rows(item, bounds)
    return found[0] if found else None


def bins(items: list[Item], bounds: Bounds) -> Bins:
    """The bin packings in ``items``' linear rows (see the module): per capacity, the
    items its demand rows ask for, each of the least size it has in a bin.  A count
    must be in one bin's row and one demand's (else a copy could count twice), and a
    bin's use variable in one bin's row."""
    bin_of: dict[str, tuple[str, int, int]] = {}  # a count: its bin's use, size, capacity
    rows_of: Counter[str] = Counter()  # a count or a use: the bins' rows it is in
    demands: list[tuple[list[str], int]] = []
    for item in items:
        row = _row(item, bounds)
        if row is None or len(set(row[1])) != len(row[1]):
            continue
        ks, xs, c = row
        if c == 0 and ks[-1] < 0 and all(k > 0 for k in ks[:-1]) and _counts(xs[:-1], bounds):
            if bounds.of_name(xs[-1]) == (0, 1):
                rows_of.update(xs)
                bin_of.update((x, (xs[-1], k, -ks[-1])) for k, x in zip(ks, xs[:-1], strict=False))
        elif c < 0 and all(k == -1 for k in ks):
            demands.append((xs, -c))
    in_demands = Counter(x for xs, _ in demands for x in xs)
    asked: dict[int, Counter[int]] = defaultdict(Counter)
    for xs, d in demands:
        if all(x in bin_of and rows_of[x] == 1 and in_demands[x] == 1 for x in xs):
            capacities = {bin_of[x][2] for x in xs}
            if len(capacities) == 1:
                asked[capacities.pop()][min(bin_of[x][1] for x in xs)] += d
    objective = next((i.value for i in items if i.kind == "solve" and i.goal == "minimize"), None)
    goal = objective.name if isinstance(objective, Id) else ""
    found = Bins()
    for capacity, sizes in asked.items():
        uses = sorted({u for u, _, c in bin_of.values() if c == capacity})
        if all(rows_of[u] == 1 for u in uses):
            least = bins_needed(sizes, capacity)
            summed = any(_sum_of(goal, i, bounds) == set(uses) for i in items)
            found.counts.append(([goal] if summed else uses, least))
    return found


def _sum_of(name: str, item: Item, bounds: Bounds) -> set[str] | None:
    """The variables ``name`` is the sum of, if ``item`` is an ``int_lin_eq`` saying so."""
    if item.kind != "constraint" or item.name != "int_lin_eq":
        return None
    rows = linear_rows(item, bounds)
    if not rows or rows[0][2] != 0 or name not in rows[0][1]:
        return None
    ks, xs, _ = rows[0]
    sign = ks[xs.index(name)]
    others = [(k, x) for k, x in zip(ks, xs, strict=True) if x != name]
    if sign not in (1, -1) or not all(k == -sign for k, _ in others):
        return None
    return {x for _, x in others}


def _counts(names: list[str], bounds: Bounds) -> bool:
    """Whether the variables ``names`` are counts: none below 0."""
    return all((b := bounds.of_name(x)) is not None and b[0] >= 0 for x in names)
