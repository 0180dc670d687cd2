"""Rules of the whole grid between neighbours: anti-knight, anti-king, non-consecutive.

- :data:`ANTI_KNIGHT`, :data:`ANTI_KING`: cells a chess knight's (king's) move apart
  never hold the same value: the engine's tables gain them as peers (a placed value
  leaves them);
- :data:`NON_CONSECUTIVE`: cells side by side never hold consecutive values: a placed
  value leaves the values one above and one below it in the cells beside it, and a
  step reads each pair of cells side by side as a pair rule.

A ``sudoku-puzzle`` document states them as ``neighbours`` rules; an f-puzzles link
as flags.  Having nothing to draw, a picture names them under the grid.

>>> ANTI_KNIGHT.moves()[:2]
((1, 2), (2, 1))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar

from lazyfun.sudoku.board.geometry import cell_name
from lazyfun.sudoku.board.grid import SYMBOLS, PuzzleError
from lazyfun.sudoku.solving.tables import Check
from lazyfun.sudoku.variants.rule import (
    Board,
    Domain,
    Finding,
    Format,
    Making,
    Names,
    Rule,
    Technique,
    pair_check,
    pair_support,
    register,
    side_pairs,
)

__all__ = [
    "ANTI_KING",
    "ANTI_KNIGHT",
    "NON_CONSECUTIVE",
    "KingApart",
    "KnightApart",
    "NonConsecutive",
]

KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
KING = ((1, 1), (1, -1), (-1, 1), (-1, -1), (0, 1), (1, 0), (0, -1), (-1, 0))


class _Neighbours(Rule):
    """What the rules of the whole grid share: a flag in files, a name in a caption."""

    def to_json(self, box: int, names: Names) -> list[dict[str, Any]]:
        return [{"type": "neighbours", "kind": self.name.replace("-", "")}]

    def to_fpuzzles(self, data: dict[str, Any], box: int, names: Names) -> None:
        data[self.name.replace("-", "")] = True

    def in_caption(self) -> bool:
        return True


@dataclass(frozen=True)
class KnightApart(_Neighbours):
    """Anti-knight: cells a knight's move apart hold different values."""

    name: str = field(default="anti-knight", init=False)

    def moves(self) -> tuple[tuple[int, int], ...]:
        return KNIGHT

    def why_apart(self) -> str:
        return "are a knight's move apart"


@dataclass(frozen=True)
class KingApart(_Neighbours):
    """Anti-king: cells a king's move apart (touching, corners too) hold different values."""

    name: str = field(default="anti-king", init=False)

    def moves(self) -> tuple[tuple[int, int], ...]:
        return KING

    def why_apart(self) -> str:
        return "are a king's move apart"


@cache
def _apart(n: int) -> tuple[Finding, ...]:
    """Each pair of cells side by side as a pair rule: values more than 1 apart (they
    share a row or a column, so they differ)."""
    return tuple(
        ((pair_check(a, b, n, lambda v, w: abs(v - w) > 1),), (a, b), ()) for a, b in side_pairs(n)
    )


@dataclass(frozen=True)
class NonConsecutive(_Neighbours):
    """Non-consecutive: cells side by side never hold consecutive values."""

    name: str = field(default="non-consecutive", init=False)
    side_by_side: ClassVar[bool] = True
    technique: ClassVar[Technique | None] = Technique(
        "non-consecutive",
        "every candidate of a cell is a value or next to it: not in the cells beside it",
        5,
    )

    def broken(self, cells: tuple[int, ...], n: int) -> str | None:
        for a, b in side_pairs(n):
            if cells[a] and cells[b] and abs(cells[a] - cells[b]) == 1:
                return (
                    f"{cell_name(a, n)} and {cell_name(b, n)} are side by side with "
                    f"consecutive values {SYMBOLS[cells[a] - 1]} and {SYMBOLS[cells[b] - 1]}"
                    " (non-consecutive)"
                )
        return None

    def findings(self, n: int) -> tuple[Finding, ...]:
        """One finding a pair of cells side by side, named by its two cells."""
        return _apart(n)

    def support(self, check: Check, domain: Domain, peers: tuple[frozenset[int], ...]) -> list[int]:
        return pair_support(check, domain)


ANTI_KNIGHT = KnightApart()
ANTI_KING = KingApart()
NON_CONSECUTIVE = NonConsecutive()

_BY_FLAG: dict[str, Rule] = {
    r.name.replace("-", ""): r for r in (ANTI_KNIGHT, ANTI_KING, NON_CONSECUTIVE)
}


def _read_neighbours(rule: dict[str, Any], board: Board, where: str) -> list[Rule]:
    kind = rule.get("kind")
    if kind not in _BY_FLAG:
        raise PuzzleError(f"{where}: field kind: {kind!r} is not supported")
    return [_BY_FLAG[str(kind)]]


def _read_flags(data: dict[str, Any], board: Board) -> list[Rule]:
    return [rule for flag, rule in _BY_FLAG.items() if data.get(flag)]


register(
    KnightApart,
    formats=[
        Format(
            "neighbours",
            frozenset({"kind"}),
            _read_neighbours,
            frozenset(_BY_FLAG),
            _read_flags,
        )
    ],
    making=[Making("anti-knight", rule=ANTI_KNIGHT)],
)
register(KingApart, making=[Making("anti-king", rule=ANTI_KING)])
register(NonConsecutive, making=[Making("non-consecutive", rule=NON_CONSECUTIVE)])
