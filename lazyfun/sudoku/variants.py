"""Sudoku variants: a grid plus rules, solved by the same engine.

A variant is the classic puzzle with more rules, or with its boxes replaced.
Each rule here is *more units* or *more peers*, so it rides on the bitset
engine at full speed: the engine's tables gain the rule's units (hidden
singles run over them too), its extra peers (a placed value leaves them), or
its neighbours (non-consecutive: a placed value leaves the values one above
and one below it in the cells beside it).

- :data:`DIAGONALS` (Sudoku X): each main diagonal holds every value once;
- :data:`WINDOWS` (windoku, hyper): the boxes set one cell in from the
  corners of the classic boxes (four on a 9x9) are units too;
- :class:`Regions` (jigsaw, irregular): a region map replaces the boxes;
- :data:`ANTI_KNIGHT`, :data:`ANTI_KING`: cells a chess knight's (king's)
  move apart never hold the same value;
- :data:`NON_CONSECUTIVE`: cells side by side never hold consecutive values.

>>> from lazyfun.sudoku import parse
>>> empty = parse("." * 16)
>>> count_solutions(Variant(empty)), count_solutions(Variant(empty, (DIAGONALS,)))
(288, 48)
>>> count_solutions(Variant(empty, (ANTI_KING,)))  # no 4x4 grid keeps kings apart
0
>>> x = Variant(parse("." * 81), (DIAGONALS, ANTI_KNIGHT))
>>> answer = next(solve(x))
>>> print(answer)
123456789967812453845793216352968174671345892498127635286579341534681927719234568
>>> is_solution(x, answer)
True

``is_solution`` checks a grid against the rules directly, not through the
engine's tables: it is how the tests judge the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from itertools import combinations, pairwise

from lazyfun.sudoku import engine
from lazyfun.sudoku.geometry import cell_name, unit_name, units
from lazyfun.sudoku.grid import Grid, PuzzleError

__all__ = [
    "ANTI_KING",
    "ANTI_KNIGHT",
    "DIAGONALS",
    "KNOWN",
    "NON_CONSECUTIVE",
    "RULES",
    "SHAPED",
    "WINDOWS",
    "Arrow",
    "Cage",
    "Dot",
    "Extra",
    "Less",
    "Regions",
    "Rule",
    "Thermo",
    "Variant",
    "count_solutions",
    "is_solution",
    "is_unique",
    "pair_check",
    "reach",
    "sets_making",
    "solve",
]

KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
KING = ((1, 1), (1, -1), (-1, 1), (-1, -1), (0, 1), (1, 0), (0, -1), (-1, 0))
BESIDE = ((0, 1), (1, 0), (0, -1), (-1, 0))


@dataclass(frozen=True)
class Rule:
    """A rule beyond the classic ones, by its name (``x``, ``windoku``, ...)."""

    name: str

    def units(self, box: int) -> tuple[tuple[int, ...], ...]:
        """The cell groups the rule makes hold every value once."""
        if self.name == "x":
            n = box * box
            return (
                tuple(r * n + r for r in range(n)),
                tuple(r * n + n - 1 - r for r in range(n)),
            )
        if self.name == "windoku":
            return _windows(box)
        return ()

    def moves(self) -> tuple[tuple[int, int], ...]:
        """The (row, column) steps between cells that may not share a value."""
        return {"anti-knight": KNIGHT, "anti-king": KING}.get(self.name, ())

    def apart(self) -> tuple[tuple[int, int], ...]:
        """Pairs of cells that may not share a value (a killer cage's cells)."""
        return ()

    def checks(self, n: int) -> tuple[engine.Check, ...]:
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


DIAGONALS = Rule("x")
WINDOWS = Rule("windoku")
ANTI_KNIGHT = Rule("anti-knight")
ANTI_KING = Rule("anti-king")
NON_CONSECUTIVE = Rule("non-consecutive")


@dataclass(frozen=True)
class Regions(Rule):
    """Jigsaw: ``regions[cell]`` numbers the region of each cell (0..N-1), N cells
    each; the regions replace the boxes."""

    name: str = field(default="jigsaw", init=False)
    regions: tuple[int, ...] = ()

    def units(self, box: int) -> tuple[tuple[int, ...], ...]:
        n = box * box
        return tuple(tuple(c for c, r in enumerate(self.regions) if r == k) for k in range(n))

    def check(self, box: int) -> None:
        """Raise ``PuzzleError`` unless the map gives N regions of N cells."""
        n = box * box
        if len(self.regions) != n * n:
            raise PuzzleError(f"jigsaw: the region map has {len(self.regions)} cells, not {n * n}")
        for cell, r in enumerate(self.regions):
            if not 0 <= r < n:
                raise PuzzleError(
                    f"jigsaw: {cell_name(cell, n)} is in region {r}, not one of 0..{n - 1}"
                )
        for k, unit in enumerate(self.units(box)):
            if len(unit) != n:
                raise PuzzleError(f"jigsaw: region {k} has {len(unit)} cells, not {n}")


@dataclass(frozen=True)
class Extra(Rule):
    """An extra region: its cells hold distinct values (every value, if it has N
    cells).  ``kind`` is what the region is called where it came from
    (``diagonal``, ``window``, ``disjoint``, ...); it does not change the rule."""

    name: str = field(default="extra region", init=False)
    cells: tuple[int, ...] = ()
    kind: str = "extra"

    def units(self, box: int) -> tuple[tuple[int, ...], ...]:
        return (self.cells,) if len(self.cells) == box * box else ()

    def apart(self) -> tuple[tuple[int, int], ...]:
        return tuple(combinations(self.cells, 2))

    def check(self, box: int) -> None:
        _on_board(self, self.cells, box)
        if len(self.cells) > box * box:
            raise PuzzleError(f"extra region: {len(self.cells)} cells cannot hold distinct values")

    @property
    def where(self) -> tuple[int, ...]:
        return self.cells


def _names(cells: tuple[int, ...], n: int) -> str:
    return "-".join(cell_name(c, n) for c in cells)


def _on_board(rule: Rule, cells: tuple[int, ...], box: int) -> None:
    """Raise ``PuzzleError`` unless ``cells`` are distinct cells of the board."""
    n = box * box
    if not cells:
        raise PuzzleError(f"{rule.name}: no cells")
    for c in cells:
        if not 0 <= c < n * n:
            raise PuzzleError(f"{rule.name}: cell {c} is outside the {n}x{n} board")
    if len(set(cells)) != len(cells):
        raise PuzzleError(f"{rule.name}: {_names(cells, n)} names a cell twice")


def _touching(rule: Rule, cells: tuple[int, ...], n: int, diagonal: bool = True) -> None:
    """Raise ``PuzzleError`` unless each cell touches the next (``diagonal``: corners count)."""
    for a, b in pairwise(cells):
        dr, dc = abs(a // n - b // n), abs(a % n - b % n)
        if max(dr, dc) != 1 or (not diagonal and dr + dc != 1):
            raise PuzzleError(
                f"{rule.name}: {cell_name(a, n)} and {cell_name(b, n)} do not touch"
                + ("" if diagonal else " along a side")
            )


def pair_check(a: int, b: int, n: int, ok: Callable[[int, int], bool]) -> engine.Check:
    """The engine's check that the values of cells ``a`` and ``b`` satisfy ``ok``."""
    forward = tuple(sum(1 << (w - 1) for w in range(1, n + 1) if ok(v, w)) for v in range(1, n + 1))
    back = tuple(sum(1 << (v - 1) for v in range(1, n + 1) if ok(v, w)) for w in range(1, n + 1))
    return engine.Check(engine.PAIR, (a, b), forward + back, 0)


def sets_making(total: int, size: int, n: int) -> tuple[int, ...]:
    """The sets of ``size`` distinct values 1..n that add up to ``total``, as bits.

    >>> [bin(s) for s in sets_making(4, 2, 9)]  # only 1 + 3
    ['0b101']
    """
    return tuple(
        sum(1 << (v - 1) for v in values)
        for values in combinations(range(1, n + 1), size)
        if sum(values) == total
    )


@dataclass(frozen=True)
class Cage(Rule):
    """Killer: the cells hold distinct values that add up to ``total`` (None: the
    values are only distinct)."""

    name: str = field(default="killer", init=False)
    cells: tuple[int, ...] = ()
    total: int | None = None

    def apart(self) -> tuple[tuple[int, int], ...]:
        return tuple(combinations(self.cells, 2))

    def units(self, box: int) -> tuple[tuple[int, ...], ...]:
        return (self.cells,) if len(self.cells) == box * box else ()

    def checks(self, n: int) -> tuple[engine.Check, ...]:
        if self.total is None:
            return ()
        return (
            engine.Check(
                engine.CAGE, self.cells, sets_making(self.total, len(self.cells), n), self.total
            ),
        )

    def check(self, box: int) -> None:
        _on_board(self, self.cells, box)
        n = box * box
        if len(self.cells) > n:
            raise PuzzleError(f"killer: the cage {_names(self.cells, n)} has more than {n} cells")
        if self.total is not None and not sets_making(self.total, len(self.cells), n):
            raise PuzzleError(
                f"killer: no {len(self.cells)} distinct values of 1..{n} add up to "
                f"{self.total} (the cage {_names(self.cells, n)}, field sum)"
            )

    def broken(self, cells: tuple[int, ...], n: int) -> str | None:
        values = [cells[c] for c in self.cells]
        if self.total is None or not all(values) or sum(values) == self.total:
            return None
        return f"the killer cage {_names(self.cells, n)} adds up to {sum(values)}, not {self.total}"

    @property
    def where(self) -> tuple[int, ...]:
        return self.cells

    def label(self, n: int) -> str:
        total = "" if self.total is None else f" (sum {self.total})"
        return f"cage at {cell_name(self.cells[0], n)}{total}"


@dataclass(frozen=True)
class Thermo(Rule):
    """A thermometer: values strictly increase from the bulb (``cells[0]``) along it."""

    name: str = field(default="thermo", init=False)
    cells: tuple[int, ...] = ()

    def checks(self, n: int) -> tuple[engine.Check, ...]:
        return tuple(pair_check(a, b, n, int.__lt__) for a, b in pairwise(self.cells))

    def check(self, box: int) -> None:
        _on_board(self, self.cells, box)
        n = box * box
        if len(self.cells) > n:
            raise PuzzleError(f"thermo: {_names(self.cells, n)} is longer than {n} cells")
        _touching(self, self.cells, n)

    def broken(self, cells: tuple[int, ...], n: int) -> str | None:
        for a, b in pairwise(self.cells):
            if cells[a] and cells[b] and cells[a] >= cells[b]:
                return (
                    f"the thermometer {_names(self.cells, n)} does not rise from "
                    f"{cell_name(a, n)} to {cell_name(b, n)}"
                )
        return None

    @property
    def where(self) -> tuple[int, ...]:
        return self.cells


@dataclass(frozen=True)
class Arrow(Rule):
    """An arrow: the circled cell holds the sum of the cells along its shaft."""

    name: str = field(default="arrow", init=False)
    circle: int = 0
    shaft: tuple[int, ...] = ()

    def checks(self, n: int) -> tuple[engine.Check, ...]:
        coefs = (-1,) + (1,) * len(self.shaft)
        return (engine.Check(engine.SUM, (self.circle, *self.shaft), coefs, 0),)

    def check(self, box: int) -> None:
        _on_board(self, (self.circle, *self.shaft), box)
        _touching(self, (self.circle, *self.shaft), box * box)

    def broken(self, cells: tuple[int, ...], n: int) -> str | None:
        values = [cells[c] for c in self.shaft]
        if not cells[self.circle] or not all(values) or sum(values) == cells[self.circle]:
            return None
        return (
            f"the arrow from {cell_name(self.circle, n)} along {_names(self.shaft, n)} "
            f"adds up to {sum(values)}, not {cells[self.circle]}"
        )

    @property
    def where(self) -> tuple[int, ...]:
        return (self.circle, *self.shaft)


def _consecutive(v: int, w: int) -> bool:
    return abs(v - w) == 1


def _double(v: int, w: int) -> bool:
    return v == 2 * w or w == 2 * v


@dataclass(frozen=True)
class Dot(Rule):
    """A kropki dot between two cells side by side: white, their values are
    consecutive; black, one is twice the other."""

    name: str = field(default="kropki", init=False)
    cells: tuple[int, ...] = ()
    color: str = "white"

    def _ok(self) -> Callable[[int, int], bool]:
        return _consecutive if self.color == "white" else _double

    def checks(self, n: int) -> tuple[engine.Check, ...]:
        return (pair_check(self.cells[0], self.cells[1], n, self._ok()),)

    def check(self, box: int) -> None:
        _on_board(self, self.cells, box)
        if len(self.cells) != 2:
            raise PuzzleError(f"kropki: a dot joins 2 cells, not {len(self.cells)}")
        if self.color not in ("white", "black"):
            raise PuzzleError(f"kropki: color {self.color!r} is not white or black")
        _touching(self, self.cells, box * box, diagonal=False)

    def broken(self, cells: tuple[int, ...], n: int) -> str | None:
        v, w = cells[self.cells[0]], cells[self.cells[1]]
        if not v or not w or self._ok()(v, w):
            return None
        return f"the {self.color} dot between {_names(self.cells, n)} joins {v} and {w}"

    @property
    def where(self) -> tuple[int, ...]:
        return self.cells

    def label(self, n: int) -> str:
        return f"{self.color} dot {_names(self.cells, n)}"


@dataclass(frozen=True)
class Less(Rule):
    """A greater-than sign between two cells side by side: ``cells[0]`` holds the
    smaller value."""

    name: str = field(default="greater-than", init=False)
    cells: tuple[int, ...] = ()

    def checks(self, n: int) -> tuple[engine.Check, ...]:
        return (pair_check(self.cells[0], self.cells[1], n, int.__lt__),)

    def check(self, box: int) -> None:
        _on_board(self, self.cells, box)
        if len(self.cells) != 2:
            raise PuzzleError(f"greater-than: a sign joins 2 cells, not {len(self.cells)}")
        _touching(self, self.cells, box * box, diagonal=False)

    def broken(self, cells: tuple[int, ...], n: int) -> str | None:
        v, w = cells[self.cells[0]], cells[self.cells[1]]
        if not v or not w or v < w:
            return None
        return f"{cell_name(self.cells[0], n)} < {cell_name(self.cells[1], n)} fails: {v} >= {w}"

    @property
    def where(self) -> tuple[int, ...]:
        return self.cells

    def label(self, n: int) -> str:
        return f"{cell_name(self.cells[0], n)} < {cell_name(self.cells[1], n)}"


RULES = {r.name: r for r in (DIAGONALS, WINDOWS, ANTI_KNIGHT, ANTI_KING, NON_CONSECUTIVE)}
"""The rules without parameters, by name (jigsaw needs its map: :class:`Regions`)."""

SHAPED = (Regions, Extra, Cage, Thermo, Arrow, Dot, Less)
"""The rules laid on particular cells (or, for jigsaw, a map of them)."""

KNOWN = (*RULES, *(kind.name for kind in SHAPED))


def _windows(box: int) -> tuple[tuple[int, ...], ...]:
    """Box-sized squares one cell in from the corners of the classic boxes."""
    n = box * box
    starts = range(1, n - box + 1, box + 1)
    return tuple(
        tuple((top + r) * n + left + c for r in range(box) for c in range(box))
        for top in starts
        for left in starts
    )


@cache
def reach(n: int, moves: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    """For each cell, the cells one of ``moves`` away, on the board."""
    return tuple(
        tuple((r + dr) * n + c + dc for dr, dc in moves if 0 <= r + dr < n and 0 <= c + dc < n)
        for r in range(n)
        for c in range(n)
    )


@dataclass(frozen=True)
class Variant:
    """A puzzle (its givens) and its rules beyond rows, columns and boxes.

    The givens are checked against every rule when the variant is made:
    two givens that break a rule raise ``PuzzleError`` naming both.
    """

    grid: Grid
    rules: tuple[Rule, ...] = ()
    # What a file said about the puzzle (title, author, ...): kept, never used to solve.
    meta: Mapping[str, object] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        for rule in self.rules:
            if not isinstance(rule, SHAPED) and rule not in RULES.values():
                raise PuzzleError(f"unknown rule {rule.name!r}; known: {', '.join(KNOWN)}")
            rule.check(self.grid.box)
        if sum(isinstance(r, Regions) for r in self.rules) > 1:
            raise PuzzleError("jigsaw: a variant takes one region map")
        _check_givens(self)

    @property
    def names(self) -> tuple[str, ...]:
        """The rules' names."""
        return tuple(r.name for r in self.rules)

    @property
    def kind(self) -> str:
        """The rules' names, each once: ``"killer, thermo"`` (``"classic"`` without rules)."""
        return ", ".join(dict.fromkeys(self.names)) or "classic"

    @cached_property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """Rows, columns, the boxes (or the jigsaw's regions), then the rules' units."""
        box = self.grid.box
        n = box * box
        classic = units(box)
        regions = [r for r in self.rules if isinstance(r, Regions)]
        boxes = regions[0].units(box) if regions else classic[2 * n :]
        extra = [u for r in self.rules if not isinstance(r, Regions) for u in r.units(box)]
        return (*classic[: 2 * n], *boxes, *extra)

    @cached_property
    def unit_names(self) -> tuple[str, ...]:
        """What a step calls each of :attr:`units`: ``row 3``, ``region 2``,
        ``diagonal 1``, ``window 4``, ``cage at r1c1 (sum 45)``, ..."""
        n = self.grid.size
        jigsaw = any(isinstance(r, Regions) for r in self.rules)
        names = [unit_name(k, n) for k in range(2 * n)]
        names += [f"{'region' if jigsaw else 'box'} {k + 1}" for k in range(n)]
        for rule in self.rules:
            if isinstance(rule, Regions):
                continue
            own = rule.units(self.grid.box)
            word = {"x": "diagonal", "windoku": "window"}.get(rule.name)
            names += [f"{word} {k + 1}" if word else rule.label(n) for k in range(len(own))]
        return tuple(names)

    @cached_property
    def named(self) -> dict[str, tuple[int, ...]]:
        """The cells of each unit and each rule on some cells, by the name steps give it."""
        n = self.grid.size
        places = dict(zip(self.unit_names, self.units, strict=True))
        places.update((r.label(n), r.where) for r in self.rules if r.where)
        return places

    @cached_property
    def tables(self) -> engine.Tables:
        """The engine's tables for this board."""
        n = self.grid.size
        moves = tuple(m for r in self.rules for m in r.moves())
        near = [set(cells) for cells in reach(n, moves)]
        for rule in self.rules:
            for a, b in rule.apart():
                near[a].add(b)
                near[b].add(a)
        beside = reach(n, BESIDE) if NON_CONSECUTIVE in self.rules else ()
        return engine.variant_tables(
            self.grid.box,
            self.units,
            tuple(tuple(sorted(cells)) for cells in near),
            beside,
            boxes=not any(isinstance(r, Regions) for r in self.rules),
            checks=tuple(c for r in self.rules for c in r.checks(n)),
        )


def _pairs(variant: Variant) -> Iterator[tuple[int, int, str]]:
    """Every pair of cells a rule forbids to share a value, with the rule's words."""
    n = variant.grid.size
    for unit in variant.units:
        for i, a in enumerate(unit):
            for b in unit[i + 1 :]:
                yield a, b, "share a unit"
    for rule in variant.rules:
        for a, near in enumerate(reach(n, rule.moves())):
            for b in near:
                if a < b:
                    yield a, b, f"are a {rule.name[5:]}'s move apart"
        for a, b in rule.apart():
            yield a, b, f"are in one {'killer cage' if isinstance(rule, Cage) else rule.name}"


def _check_givens(variant: Variant) -> None:
    """Raise ``PuzzleError`` naming the first two givens that break a rule."""
    grid = variant.grid
    n, cells = grid.size, grid.cells
    for a, b, why in _pairs(variant):
        if cells[a] and cells[a] == cells[b]:
            raise PuzzleError(
                f"givens conflict: {cell_name(a, n)} and {cell_name(b, n)} {why} "
                f"and are both {grid.symbol(cells[a])}"
            )
    if NON_CONSECUTIVE in variant.rules:
        for a, near in enumerate(reach(n, BESIDE)):
            for b in near:
                if a < b and cells[a] and cells[b] and abs(cells[a] - cells[b]) == 1:
                    raise PuzzleError(
                        f"givens conflict: {cell_name(a, n)} and {cell_name(b, n)} are side "
                        f"by side with consecutive values {grid.symbol(cells[a])} and "
                        f"{grid.symbol(cells[b])} (non-consecutive)"
                    )
    for rule in variant.rules:
        broken = rule.broken(cells, n)
        if broken:
            raise PuzzleError(f"givens conflict: {broken}")


def is_solution(variant: Variant, grid: Grid) -> bool:
    """Whether ``grid`` is complete, keeps the givens, and keeps every rule, checked
    cell by cell from the rules themselves (not from the engine's tables)."""
    puzzle = variant.grid
    if grid.box != puzzle.box or not grid.is_complete():
        return False
    if any(g != v for g, v in zip(grid.cells, puzzle.cells, strict=True) if v):
        return False
    try:
        Variant(grid, variant.rules)
    except PuzzleError:
        return False
    return True


def solve(variant: Variant) -> Iterator[Grid]:
    """Every solution of a variant, lazily, in depth-first order."""
    return engine.solve(variant.grid, variant.tables)


def count_solutions(variant: Variant, limit: int | None = None) -> int:
    """How many solutions a variant has, stopping at ``limit``."""
    return engine.count_solutions(variant.grid, limit, variant.tables)


def is_unique(variant: Variant) -> bool:
    """Whether a variant has exactly one solution (stops at the second)."""
    return engine.is_unique(variant.grid, variant.tables)
