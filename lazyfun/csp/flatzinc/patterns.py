"""Machines recognised in FlatZinc's reified disjunctions.

A job shop written in plain MiniZinc (no ``disjunctive``) reaches FlatZinc as pairs:
``int_lin_le_reif([1,-1], [a,b], -da, r1)``, ``int_lin_le_reif([1,-1], [b,a], -db,
r2)`` and ``array_bool_or([r1, r2], true)``: task ``a`` (of duration ``da``) ends
before ``b`` starts, or the other way round.  When ``r1`` and ``r2`` are FlatZinc's
own (introduced, used nowhere else) and the durations are positive numbers, the pair
says only that the two tasks do not overlap.  Tasks pairwise so form a machine; the
pairs are covered by machines (greedy cliques), and each machine is posted as one
``no_overlap`` of intervals: the scheduling propagators, SetTimes, ranking and the
tabu search then see the shop.  A task's duration must be the same in all its pairs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from lazyfun.csp.flatzinc.text import Ast, Call, Id, Item

__all__ = ["Machines", "machines"]

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
