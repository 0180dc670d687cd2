"""Adding a rule is one class and its registration (docs/variants.md, "Adding a rule").

The toy rule here, a *whisper* between two cells side by side (their values at least
``gap`` apart, as on a German whispers line), is defined in this file only.  Once
registered, every part of the library takes it: the engine solves with it, a
``sudoku-puzzle`` document states it, a step explains it, a picture draws it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import product
from typing import Any, ClassVar

import pytest

from lazyfun.drawing import Fragment
from lazyfun.sudoku import hint, parse
from lazyfun.sudoku.solving.tables import Check
from lazyfun.sudoku.steps.deduction import variant_ladder
from lazyfun.sudoku.svg import grid_svg
from lazyfun.sudoku.variants import Variant, count_solutions, is_solution, solve
from lazyfun.sudoku.variants.exchange import from_json, to_json
from lazyfun.sudoku.variants.rule import (
    FORMATS,
    RULES,
    Board,
    Domain,
    Format,
    Names,
    Rule,
    Technique,
    between,
    checked,
    on_board,
    pair_check,
    pair_support,
    register,
    touching,
)


@dataclass(frozen=True)
class Whisper(Rule):
    """Two cells side by side whose values are at least ``gap`` apart."""

    name: str = field(default="whisper", init=False)
    cells: tuple[int, ...] = ()
    gap: int = 2
    technique: ClassVar[Technique | None] = Technique(
        "whisper", "a value has no partner far enough from it", 9
    )

    def checks(self, n: int) -> tuple[Check, ...]:
        a, b = self.cells
        return (pair_check(a, b, n, lambda v, w: abs(v - w) >= self.gap),)

    def check(self, box: int) -> None:
        on_board(self, self.cells, box)
        touching(self, self.cells, box * box, diagonal=False)

    def broken(self, cells: tuple[int, ...], n: int) -> str | None:
        v, w = (cells[c] for c in self.cells)
        return f"a whisper joins {v} and {w}" if v and w and abs(v - w) < self.gap else None

    @property
    def where(self) -> tuple[int, ...]:
        return self.cells

    def support(self, check: Check, domain: Domain, peers: tuple[frozenset[int], ...]) -> list[int]:
        return pair_support(check, domain)

    def to_json(self, box: int, names: Names) -> list[dict[str, Any]]:
        return [{"type": "whisper", "cells": names(self.cells), "gap": self.gap}]

    def draw_over(self, svg: Fragment, box: int, cell: int) -> None:
        x, y = between(self.cells, box * box, cell)
        svg.add("circle", cx=x, cy=y, r=4, fill="#2a2", class_="rule whisper")


def _read(rule: dict[str, Any], board: Board, where: str) -> list[Rule]:
    whisper = Whisper(cells=board.cells(rule.get("cells"), where), gap=int(rule.get("gap", 2)))
    return [checked(whisper, board, where)]


@pytest.fixture
def whisper() -> Iterator[type[Whisper]]:
    """The one line that adds a rule, undone after the test."""
    register(Whisper, formats=[Format("whisper", frozenset({"cells", "gap"}), _read)])
    yield Whisper
    del RULES["whisper"], FORMATS["whisper"]


EMPTY = parse("." * 16)


def _brute(rule: Whisper) -> int:
    """The 4x4 grids that keep the rule, counted from the 288 classic ones."""
    classic = Variant(EMPTY)
    return sum(
        1 for g in solve(classic) if rule.broken(g.cells, 4) is None and is_solution(classic, g)
    )


def test_a_registered_rule_is_solved_read_written_explained_and_drawn(
    whisper: type[Whisper],
) -> None:
    rule = whisper(cells=(0, 1))
    variant = Variant(EMPTY, (rule,))
    # the engine: as many solutions as the classic ones that keep the rule
    assert count_solutions(variant) == _brute(rule) == 144
    # the file format: written, then read back the same
    assert from_json(json.loads(json.dumps(to_json(variant)))) == variant
    # a step: with r1c1=2, r1c2 (1, 3 or 4 once 2 leaves the row) keeps only 4
    assert "whisper" in [t.name for t in variant_ladder()]
    step = hint(Variant(parse("2" + "." * 15), (rule,)), techniques=["whisper"])
    assert step is not None
    assert (step.technique, sorted(step.eliminations)) == ("whisper", [(1, 1), (1, 3)])
    assert step.units == ("whisper at r1c1",)
    # the picture
    assert 'class="rule whisper"' in grid_svg(variant)


def test_an_unregistered_rule_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown rule 'whisper'"):
        Variant(EMPTY, (Rule("whisper"),))


@pytest.mark.parametrize(("a", "b"), list(product(range(1, 5), repeat=2)))
def test_the_rule_breaks_exactly_the_close_pairs(whisper: type[Whisper], a: int, b: int) -> None:
    cells = (a, b) + (0,) * 14
    assert (whisper(cells=(0, 1)).broken(cells, 4) is None) == (abs(a - b) >= 2)
