"""What a rule is: the hooks every rule answers, the pieces the rule files share, and the
one registry of rules.

A rule beyond the classic ones is one class in one file of this folder (a family of
alike rules shares a file: :mod:`~lazyfun.sudoku.variants.units`,
:mod:`~lazyfun.sudoku.variants.peers`, :mod:`~lazyfun.sudoku.variants.pairs`,
:mod:`~lazyfun.sudoku.variants.sums`).  The class says, through the hooks of
:class:`Rule`, everything the rest of the library asks of it:

- to the engine: its ``units``, the ``moves`` and cells ``apart`` that make peers, its
  arithmetic as :class:`~lazyfun.sudoku.solving.tables.Check` s (``checks``);
- to the reader: whether it fits a board (``check``), what givens break it
  (``broken``), its name in the ``sudoku-puzzle`` JSON format and in f-puzzles links
  (a :class:`Format` registered with :func:`register`, and ``to_json``/``to_fpuzzles``);
- to the steps: the groups of checks a step reads (``findings``) and the values of a
  check's cells that some way of keeping it supports (``support``), under the name of
  its :class:`Technique`;
- to the pictures: what it draws under the grid lines and over them;
- to the generator: how puzzles of its kind are made (a :class:`Making`).

Adding a rule is its file (or a class in a family's file) and one line in
``lazyfun/sudoku/variants/__init__.py`` that imports it; ``docs/variants.md`` walks
through one.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from itertools import combinations, pairwise
from typing import Any, ClassVar, TypeVar

from lazyfun.drawing import Fragment
from lazyfun.sudoku.board.geometry import BOX_OF_SIDE, cell_name
from lazyfun.sudoku.board.grid import Grid, PuzzleError
from lazyfun.sudoku.solving.tables import PAIR, Check

__all__ = [
    "BESIDE",
    "DIAGONAL",
    "FORMATS",
    "INK",
    "MAKINGS",
    "REGION",
    "RULES",
    "SHAPE",
    "Board",
    "Domain",
    "Finding",
    "Format",
    "Making",
    "Names",
    "Rule",
    "Technique",
    "between",
    "bits_of",
    "centre",
    "checked",
    "distinct_pairs",
    "fpuzzles_items",
    "fpuzzles_lines",
    "names_of",
    "on_board",
    "pair_check",
    "pair_support",
    "polyline",
    "reach",
    "register",
    "shade",
    "side_pairs",
    "touching",
    "values_of",
]

BESIDE = ((0, 1), (1, 0), (0, -1), (-1, 0))

R = TypeVar("R", bound="Rule")

Names = Callable[[tuple[int, ...]], list[str]]
"""Cells to their names as a file writes them (``r1c1``; f-puzzles: ``R1C1``)."""
Finding = tuple[tuple[Check, ...], tuple[int, ...], tuple[str, ...]]
"""A group of checks one step reads together, with the cells and units the step names."""
Domain = Callable[[int], int]
"""A cell's possible values as bits (bit v-1 for value v): its value if placed."""


def values_of(bits: int) -> list[int]:
    """The values whose bits are set, smallest first.

    >>> values_of(0b1010)
    [2, 4]
    """
    return [v + 1 for v in range(bits.bit_length()) if bits >> v & 1]


def bits_of(values: Iterable[int]) -> int:
    """The bits of some values (bit v-1 for value v)."""
    return sum(1 << (v - 1) for v in set(values))


@dataclass(frozen=True)
class Technique:
    """A rule's own step, as the ladder of techniques names it: ``name``, what it says,
    and its ``order`` on the rules' rung (smallest first)."""

    name: str
    says: str
    order: int


@dataclass(frozen=True)
class Rule:
    """A rule beyond the classic ones.  Each hook's default is the rule that does not
    take part in it; a rule's class overrides what it does."""

    name: str

    technique: ClassVar[Technique | None] = None
    """The rule's own step, if it has one (read through :meth:`findings`)."""
    unit_word: ClassVar[str | None] = None
    """What a step calls the rule's units (``diagonal 1``); None: the rule's label."""
    side_by_side: ClassVar[bool] = False
    """Whether the engine's non-consecutive tables (cells beside each other) apply."""

    def units(self, box: int) -> tuple[tuple[int, ...], ...]:
        """The cell groups the rule makes hold every value once."""
        return ()

    def moves(self) -> tuple[tuple[int, int], ...]:
        """The (row, column) steps between cells that may not share a value."""
        return ()

    def apart(self) -> tuple[tuple[int, int], ...]:
        """Pairs of cells that may not share a value (a killer cage's cells)."""
        return ()

    def why_apart(self) -> str:
        """How a conflict between two givens the rule keeps apart is told."""
        return f"are in one {self.name}"

    def checks(self, n: int) -> tuple[Check, ...]:
        """The rule's arithmetic, as the engine runs it."""
        return ()

    def check(self, box: int) -> None:
        """Raise ``PuzzleError`` if the rule cannot be laid on a board of this box size."""

    def broken(self, cells: tuple[int, ...], n: int) -> str | None:
        """Why the values of a grid (0: blank) break the rule's arithmetic, or None."""
        return None

    @property
    def where(self) -> tuple[int, ...]:
        """The cells the rule is drawn on (none for a rule of the whole grid)."""
        return ()

    def label(self, n: int) -> str:
        """What a step calls this rule: its name and, for a rule on some cells, where."""
        return f"{self.name} at {cell_name(self.where[0], n)}" if self.where else self.name

    def findings(self, n: int) -> tuple[Finding, ...]:
        """The groups of checks one step of the rule's technique reads together, each with
        the cells and the units the step names: by default all the rule's checks, at
        its cells, under its label."""
        return ((self.checks(n), self.where, (self.label(n),)),)

    def support(self, check: Check, domain: Domain, peers: tuple[frozenset[int], ...]) -> list[int]:
        """For each cell of ``check``, the values (bits) that some way of keeping it
        supports, given the cells' ``domain`` (``peers``: the cells each cell sees)."""
        raise NotImplementedError(f"{self.name} has no checks to support")

    def to_json(self, box: int, names: Names) -> list[dict[str, Any]]:
        """The rule's entries in a ``sudoku-puzzle`` document's rule list."""
        return []

    def to_fpuzzles(self, data: dict[str, Any], box: int, names: Names) -> None:
        """Add the rule to an f-puzzles puzzle's JSON (refused where f-puzzles cannot
        draw it)."""
        raise PuzzleError(f"f-puzzles has no {self.name}: no link for this variant")

    def draw_under(self, svg: Fragment, box: int, cell: int) -> None:
        """Draw the shapes cells sit on, under the grid lines (regions, thermometers)."""

    def draw_over(self, svg: Fragment, box: int, cell: int) -> None:
        """Draw the marks on cell borders, over the grid lines (cages, dots, signs)."""

    def in_caption(self) -> bool:
        """Whether the picture names the rule under the grid (a rule with nothing to draw)."""
        return False


# --- the registry ------------------------------------------------------------------------

_CELL = re.compile(r"[rR]([1-9]\d*)[cC]([1-9]\d*)")

RULES: dict[str, type[Rule]] = {}
"""Every kind of rule, by name (``x``, ``killer``, ...)."""


@dataclass(frozen=True)
class Board:
    """Cell names on one board of side ``n``, read strictly (``r1c1``; f-puzzles writes
    ``R1C1``); ``where`` says where in a file the name stands."""

    n: int

    def cell(self, name: object, where: str, what: str) -> int:
        match = _CELL.fullmatch(name) if isinstance(name, str) else None
        if not match:
            raise PuzzleError(f"{where}: field {what}: {name!r} is not a cell name such as r1c1")
        r, c = int(match.group(1)), int(match.group(2))
        if r > self.n or c > self.n:
            raise PuzzleError(
                f"{where}: field {what}: {name} is outside the {self.n}x{self.n} board"
            )
        return (r - 1) * self.n + c - 1

    def cells(self, names: object, where: str, what: str = "cells") -> tuple[int, ...]:
        if not isinstance(names, list) or not names:
            raise PuzzleError(f'{where}: field {what}: a list of cell names, such as ["r1c1"]')
        return tuple(self.cell(name, where, what) for name in names)

    @property
    def box(self) -> int:
        return BOX_OF_SIDE[self.n]


@dataclass(frozen=True)
class Format:
    """How a family of rules is read from files: the ``sudoku-puzzle`` rule ``type`` it
    reads (with the keys such a rule may have) and its reader, and the f-puzzles keys
    it reads from a link (flags or lists) with that reader."""

    json_type: str
    keys: frozenset[str]
    read_json: Callable[[dict[str, Any], Board, str], list[Rule]]
    fpuzzles_keys: frozenset[str] = frozenset()
    read_fpuzzles: Callable[[dict[str, Any], Board], list[Rule]] | None = None


FORMATS: dict[str, Format] = {}
"""The rule types of the ``sudoku-puzzle`` format lazyfun reads, by type."""


@dataclass(frozen=True)
class Making:
    """How the generator makes puzzles of one ``kind``: from a rule of the whole grid
    laid on an empty grid (``rule``), from a region map drawn at random (``region_map``),
    or from shapes read off a classic solution (``shapes``; ``givens_first``: the shapes
    cover the grid, and givens are added until the puzzle is unique)."""

    kind: str
    rule: Rule | None = None
    region_map: Callable[[int, random.Random], Rule] | None = None
    shapes: Callable[[Grid, random.Random], tuple[Rule, ...]] | None = None
    givens_first: bool = False
    smallest_box: int = 2
    too_small: str = ""
    """Why a smaller board is refused."""


MAKINGS: dict[str, Making] = {}
"""The variants the generator makes, by kind, in the order they were registered."""


def register(
    kind: type[Rule], *, formats: Iterable[Format] = (), making: Iterable[Making] = ()
) -> None:
    """Make a rule known: its class by name, how files state it, how puzzles of it are made."""
    name: str = getattr(kind, "name")  # noqa: B009 (the name field's default, on the class)
    RULES[name] = kind
    FORMATS.update((f.json_type, f) for f in formats)
    MAKINGS.update((m.kind, m) for m in making)


# --- what the rule files share ------------------------------------------------------------


def names_of(cells: tuple[int, ...], n: int) -> str:
    """Cells as an error names them: ``r1c1-r1c2``."""
    return "-".join(cell_name(c, n) for c in cells)


def on_board(rule: Rule, cells: tuple[int, ...], box: int) -> None:
    """Raise ``PuzzleError`` unless ``cells`` are distinct cells of the board."""
    n = box * box
    if not cells:
        raise PuzzleError(f"{rule.name}: no cells")
    for c in cells:
        if not 0 <= c < n * n:
            raise PuzzleError(f"{rule.name}: cell {c} is outside the {n}x{n} board")
    if len(set(cells)) != len(cells):
        raise PuzzleError(f"{rule.name}: {names_of(cells, n)} names a cell twice")


def touching(rule: Rule, cells: tuple[int, ...], n: int, diagonal: bool = True) -> None:
    """Raise ``PuzzleError`` unless each cell touches the next (``diagonal``: corners count)."""
    for a, b in pairwise(cells):
        dr, dc = abs(a // n - b // n), abs(a % n - b % n)
        if max(dr, dc) != 1 or (not diagonal and dr + dc != 1):
            raise PuzzleError(
                f"{rule.name}: {cell_name(a, n)} and {cell_name(b, n)} do not touch"
                + ("" if diagonal else " along a side")
            )


def pair_check(a: int, b: int, n: int, ok: Callable[[int, int], bool]) -> Check:
    """The engine's check that the values of cells ``a`` and ``b`` satisfy ``ok``."""
    forward = tuple(sum(1 << (w - 1) for w in range(1, n + 1) if ok(v, w)) for v in range(1, n + 1))
    back = tuple(sum(1 << (v - 1) for v in range(1, n + 1) if ok(v, w)) for w in range(1, n + 1))
    return Check(PAIR, (a, b), forward + back, 0)


def pair_support(check: Check, domain: Domain) -> list[int]:
    """``a R b``: the values of each of the two cells that a value of the other keeps."""
    n = len(check.table) // 2
    a, b = check.cells
    forward, back = check.table[:n], check.table[n:]
    da, db = domain(a), domain(b)
    return [
        sum(1 << v for v in range(n) if da >> v & 1 and forward[v] & db),
        sum(1 << w for w in range(n) if db >> w & 1 and back[w] & da),
    ]


@cache
def reach(n: int, moves: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    """For each cell, the cells one of ``moves`` away, on the board."""
    return tuple(
        tuple((r + dr) * n + c + dc for dr, dc in moves if 0 <= r + dr < n and 0 <= c + dc < n)
        for r in range(n)
        for c in range(n)
    )


def side_pairs(n: int) -> tuple[tuple[int, int], ...]:
    """Every pair of cells side by side, each once (the smaller first)."""
    return tuple((a, b) for a, near in enumerate(reach(n, BESIDE)) for b in near if a < b)


def distinct_pairs(cells: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Every pair of the cells."""
    return tuple(combinations(cells, 2))


# --- what the pictures share -------------------------------------------------------------

INK, SHAPE, REGION, DIAGONAL = "#111", "#b8b8b8", "#e9e9e9", "#8fb3e8"

Point = tuple[float, float]


def centre(c: int, n: int, cell: int) -> Point:
    """The middle of cell ``c`` in a picture whose cells are ``cell`` wide."""
    return c % n * cell + cell / 2, c // n * cell + cell / 2


def polyline(points: Iterable[Point]) -> str:
    """Points as an SVG ``points`` attribute."""
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def between(cells: tuple[int, ...], n: int, cell: int) -> Point:
    """The middle of the border two cells side by side share."""
    (ax, ay), (bx, by) = (centre(c, n, cell) for c in cells)
    return (ax + bx) / 2, (ay + by) / 2


def shade(svg: Fragment, rule: Rule, cells: Iterable[int], n: int, cell: int) -> None:
    """Shade cells grey, under the grid lines (an extra region, a window)."""
    for c in cells:
        svg.add(
            "rect",
            x=c % n * cell,
            y=c // n * cell,
            width=cell,
            height=cell,
            fill=REGION,
            fill_opacity=0.7,
            class_=f"rule {rule.name.replace(' ', '-')}",
            data_cell=c,
        )


# --- what the readers share --------------------------------------------------------------


def checked(rule: R, board: Board, where: str) -> R:
    """The rule, if it fits the board; else its refusal, naming where it is in the file."""
    try:
        rule.check(board.box)
    except PuzzleError as error:
        raise PuzzleError(f"{where}: {error.message}") from None
    return rule


def fpuzzles_items(data: dict[str, Any], key: str) -> list[dict[str, Any]]:
    """The objects an f-puzzles puzzle lists under ``key`` (none: empty)."""
    items = data.get(key) or []
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise PuzzleError(f"{key}: a list of objects")
    return items


def fpuzzles_lines(item: dict[str, Any], board: Board, key: str) -> list[tuple[int, ...]]:
    """The lines of an f-puzzles object (a thermometer's, an arrow's shafts)."""
    lines = item.get("lines")
    if not isinstance(lines, list) or not lines:
        raise PuzzleError(f"{key}: field lines: a list of lines")
    return [board.cells(line, key, "lines") for line in lines]
