"""The techniques of variant rules with arithmetic: what a rule's sums and signs rule out.

Each finder looks at a :class:`~lazyfun.sudoku.techniques.State` of a variant
and strikes the candidates that no way of keeping one rule supports, the rule
read on its own (a person's "this cage can only be 1+2+6 or 1+3+5"):

- ``cage_combination`` (killer): a value stays in a cage's cell only if some
  set of distinct values making the cage's sum puts it there, the cage's
  other cells taking the rest of the set;
- ``thermometer``, ``kropki`` and ``greater_than``: a value stays in one
  cell of a pair only if a value of the other cell keeps the rule with it
  (``v < w`` along a thermometer, ``|v - w| = 1`` at a white dot, ...);
- ``arrow``: a value stays only if the other cells can make the sum with it
  (cells that see each other holding different values);
- ``non_consecutive``: a value leaves a cell beside another whose every
  candidate is that value or next to it.

The rules are read from the engine's checks of each rule
(:meth:`~lazyfun.sudoku.variants.Rule.checks`): the tables the search
propagates with are the ones a step explains with.

>>> from lazyfun.sudoku import parse
>>> from lazyfun.sudoku.variants import Cage, Variant
>>> cage = Cage(cells=(0, 1), total=3)  # only 1 + 2
>>> found = cage_combination(State(Variant(parse("." * 16), (cage,)), None))
>>> found.units, sorted({v for _, v in found.eliminations})
(('cage at r1c1 (sum 3)',), [3, 4])
"""

from __future__ import annotations

from functools import cache

from lazyfun.sudoku import engine
from lazyfun.sudoku.techniques import Finder, Found, Pair, State, values_of
from lazyfun.sudoku.variants import (
    NON_CONSECUTIVE,
    Arrow,
    Cage,
    Dot,
    Less,
    Rule,
    Thermo,
    pair_check,
)

__all__ = [
    "arrow",
    "cage_combination",
    "greater_than",
    "kropki",
    "non_consecutive",
    "thermometer",
]


def _domain(s: State, cell: int) -> int:
    """A cell's possible values as bits: its value if placed, else its candidates."""
    value = s.values[cell]
    return 1 << (value - 1) if value else s.cands[cell]


def _pair_support(s: State, check: engine.Check) -> list[int]:
    """``a R b``: the values of each of the two cells that a value of the other keeps."""
    a, b = check.cells
    forward, back = check.table[: s.n], check.table[s.n :]
    da, db = _domain(s, a), _domain(s, b)
    return [
        sum(1 << v for v in range(s.n) if da >> v & 1 and forward[v] & db),
        sum(1 << w for w in range(s.n) if db >> w & 1 and back[w] & da),
    ]


def _sum_support(s: State, check: engine.Check) -> list[int]:
    """``sum coef_i * x_i = total``: the values of each cell that some way of making the
    sum uses, the cells that see each other holding different values."""
    cells, coefs, total = check.cells, check.table, check.total
    domains = [_domain(s, c) for c in cells]
    reach = [(0, 0)] * (len(cells) + 1)  # the least and most the cells from i on add
    for i in range(len(cells) - 1, -1, -1):
        ends = [coefs[i] * v for v in values_of(domains[i])] or [0]
        reach[i] = (reach[i + 1][0] + min(ends), reach[i + 1][1] + max(ends))
    support = [0] * len(cells)
    chosen: list[int] = []

    def walk(i: int, made: int) -> None:
        low, high = reach[i]
        if not low <= total - made <= high:
            return
        if i == len(cells):
            for j, v in enumerate(chosen):
                support[j] |= 1 << (v - 1)
            return
        seen = s.peers[cells[i]]
        for v in values_of(domains[i]):
            if all(w != v or cells[j] not in seen for j, w in enumerate(chosen)):
                chosen.append(v)
                walk(i + 1, made + coefs[i] * v)
                chosen.pop()

    walk(0, 0)
    return support


def _used(domains: list[int], allowed: int) -> list[set[int]]:
    """``layers[i]``: the sets of distinct values (bits, inside ``allowed``) that the
    first ``i`` cells can hold, one value each."""
    layers = [{0}]
    for domain in domains:
        layers.append(
            {
                used | 1 << (v - 1)
                for used in layers[-1]
                for v in values_of(domain & allowed & ~used)
            }
        )
    return layers


def _cage_support(s: State, check: engine.Check) -> list[int]:
    """Killer: for each cell, the values that some set making the sum (``check.table``)
    puts there while the other cells take the rest of the set, one value each."""
    domains = [_domain(s, c) for c in check.cells]
    support = [0] * len(domains)
    for values in check.table:
        before = _used(domains, values)
        after = _used(domains[::-1], values)[::-1]
        for i, domain in enumerate(domains):
            for v in values_of(domain & values & ~support[i]):
                rest = values & ~(1 << (v - 1))
                rest_after = after[i + 1]
                if any(rest & ~used in rest_after for used in before[i] if used & rest == used):
                    support[i] |= 1 << (v - 1)
    return support


_SUPPORT = {engine.PAIR: _pair_support, engine.SUM: _sum_support, engine.CAGE: _cage_support}


@cache
def _checks(rule: Rule, n: int) -> tuple[engine.Check, ...]:
    """A rule's checks, built once (a cage's sets, a pair's tables), not at every step."""
    return rule.checks(n)


def _struck(s: State, rule: Rule) -> tuple[Pair, ...]:
    """The candidates of the rule's cells that one of its checks does not support."""
    gone: set[Pair] = set()
    for check in _checks(rule, s.n):
        for cell, keep in zip(check.cells, _SUPPORT[check.kind](s, check), strict=True):
            gone.update((cell, v) for v in values_of(s.cands[cell] & ~keep))
    return tuple(sorted(gone))


def _finder(kind: type[Rule]) -> Finder:
    def find(s: State) -> Found | None:
        for rule in s.rules:
            if isinstance(rule, kind):
                gone = _struck(s, rule)
                if gone:
                    return Found(eliminations=gone, cells=rule.where, units=(rule.label(s.n),))
        return None

    return find


@cache
def _apart(n: int, a: int, b: int) -> engine.Check:
    """Cells side by side under non-consecutive: their values differ by more than 1
    (they share a row or a column, so they differ)."""
    return pair_check(a, b, n, lambda v, w: abs(v - w) > 1)


def non_consecutive(s: State) -> Found | None:
    """A value stays beside a cell only if a value of the cell is neither it nor next to it."""
    if NON_CONSECUTIVE not in s.rules:
        return None
    for a, near in enumerate(s.beside):
        for b in near:
            if a < b and not (s.values[a] and s.values[b]):
                check = _apart(s.n, a, b)
                gone = [
                    (cell, v)
                    for cell, keep in zip(check.cells, _pair_support(s, check), strict=True)
                    for v in values_of(s.cands[cell] & ~keep)
                ]
                if gone:
                    return Found(eliminations=tuple(gone), cells=(a, b))
    return None


cage_combination = _finder(Cage)
thermometer = _finder(Thermo)
arrow = _finder(Arrow)
kropki = _finder(Dot)
greater_than = _finder(Less)
