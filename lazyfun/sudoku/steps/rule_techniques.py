"""The rules' own steps: what a variant rule's sums, signs and neighbours rule out.

A rule's technique reads the rule on its own (a person's "this cage can only be 1+2+6
or 1+3+5"): each finding of the rule (:meth:`~lazyfun.sudoku.variants.rule.Rule.findings`:
a group of the engine's checks, the tables the search propagates with) strikes the
candidates of its cells that no way of keeping those checks supports
(:meth:`~lazyfun.sudoku.variants.rule.Rule.support`, written in the rule's own file).
The techniques are named by the rules (:class:`~lazyfun.sudoku.variants.rule.Technique`)
and found here, one finder a kind of rule, for the ladder of
:mod:`lazyfun.sudoku.steps.deduction`.

>>> from lazyfun.sudoku import parse
>>> from lazyfun.sudoku.variants import Cage, Variant
>>> cage = Cage(cells=(0, 1), total=3)  # only 1 + 2
>>> found = finder(Cage)(State(Variant(parse("." * 16), (cage,)), None))
>>> found.units, sorted({v for _, v in found.eliminations})
(('cage at r1c1 (sum 3)',), [3, 4])
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from lazyfun.sudoku.solving.tables import Check
from lazyfun.sudoku.steps.techniques import Finder, Found, Pair, State, values_of
from lazyfun.sudoku.variants.rule import RULES, Finding, Rule, Technique

__all__ = ["finder", "techniques"]


def techniques() -> list[tuple[Technique, type[Rule]]]:
    """Every registered rule's own technique, with its kind of rule, in ladder order."""
    found = [(kind.technique, kind) for kind in RULES.values() if kind.technique is not None]
    return sorted(found, key=lambda pair: pair[0].order)


@cache
def _findings(rule: Rule, n: int) -> tuple[Finding, ...]:
    """A rule's findings, built once (a cage's sets, a pair's tables), not at every step."""
    return rule.findings(n)


def _struck(s: State, rule: Rule, checks: tuple[Check, ...]) -> tuple[Pair, ...]:
    """The candidates of the checks' cells that one of the checks does not support."""

    def domain(cell: int) -> int:
        value = s.values[cell]
        return 1 << (value - 1) if value else s.cands[cell]

    gone: set[Pair] = set()
    for check in checks:
        keeps = _support(s, rule, check, domain)
        for cell, keep in zip(check.cells, keeps, strict=True):
            gone.update((cell, v) for v in values_of(s.cands[cell] & ~keep))
    return tuple(sorted(gone))


def _support(s: State, rule: Rule, check: Check, domain: Callable[[int], int]) -> tuple[int, ...]:
    """A check's support, remembered by its cells' domains and which of them see each
    other (all a rule's support reads): a walk, and a forcing chain, ask again of each
    unchanged check at every step."""
    cells = check.cells
    key = (
        check,
        tuple(domain(c) for c in cells),
        tuple(d in s.peers[c] for c in cells for d in cells),
    )
    keeps = _supported.get(key)
    if keeps is None:
        keeps = _supported[key] = tuple(rule.support(check, domain, s.peers))
        if len(_supported) > 1 << 18:
            _supported.clear()
    return keeps


_supported: dict[tuple[Check, tuple[int, ...], tuple[bool, ...]], tuple[int, ...]] = {}


def finder(kind: type[Rule]) -> Finder:
    """The step of one kind of rule: its first finding that strikes a candidate."""

    def find(s: State) -> Found | None:
        for rule in s.rules:
            if type(rule) is kind:
                for checks, cells, units in _findings(rule, s.n):
                    gone = _struck(s, rule, checks)
                    if gone:
                        return Found(eliminations=gone, cells=cells, units=units)
        return None

    return find


def strikes(s: State, changed: set[int] | None = None) -> tuple[Pair, ...]:
    """Every candidate some rule's own technique strikes in the state, at once (what a
    forcing chain follows besides the singles); with ``changed``, only by the checks on
    a cell whose candidates changed (the others struck all they could already)."""
    gone: set[Pair] = set()
    for rule in s.rules:
        if type(rule).technique is not None:
            for checks, _, _ in _findings(rule, s.n):
                if changed is not None:
                    checks = tuple(c for c in checks if not changed.isdisjoint(c.cells))
                gone.update(_struck(s, rule, checks))
    return tuple(sorted(gone))
