"""Human-style steps: the deductions a person would make, simplest first, one at a time.

``steps(grid)`` is a lazy stream of :class:`Step`: each is found only when
the consumer asks for the next one.  At each point the techniques are tried
in the order of their Sudoku Explainer rating, and the first that applies
gives the step.  The ladder is one declared table, :data:`LADDER`: each
:class:`Technique` with its name, its SE rating, its family and the function
that finds it; :data:`TECHNIQUES`, :data:`RATINGS` and :data:`SINGLES` are
read off it, and so is the table in the docs (:func:`ladder_table`).  When no
technique applies, the step is a labelled guess (``"bifurcation"``), checked
by the engine's search.

Cells are numbered 0..N*N-1 in reading order; values from 1.  Candidates
start as the values no given rules out (the usual pencil marks).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Literal, NamedTuple

from lazyfun.sudoku import geometry
from lazyfun.sudoku.engine import solve
from lazyfun.sudoku.geometry import cell_name, unit_name
from lazyfun.sudoku.grid import Grid, PuzzleError, UnsolvedError, check_givens

__all__ = [
    "LADDER",
    "RATINGS",
    "SINGLES",
    "TECHNIQUES",
    "Family",
    "Found",
    "Position",
    "Step",
    "Technique",
    "candidates_of",
    "hint",
    "ladder_table",
    "steps",
    "walkthrough",
]

Pair = tuple[int, int]
Family = Literal["single", "intersection", "subset", "fish", "wing", "chain"]


@dataclass(frozen=True, slots=True)
class Step:
    """One deduction: what it places and eliminates, and what it rests on.

    ``placements`` and ``eliminations`` are (cell, value) pairs; ``cells``
    and ``units`` (names such as ``"row 3"``, counted from 1) are what the
    deduction rests on, for highlighting; ``side`` is the grid's N.
    """

    technique: str
    placements: tuple[Pair, ...] = ()
    eliminations: tuple[Pair, ...] = ()
    cells: tuple[int, ...] = ()
    units: tuple[str, ...] = ()
    side: int = 9

    @property
    def rating(self) -> float | None:
        """The Sudoku Explainer rating of the technique (None for a guess)."""
        return RATINGS.get(self.technique)

    def __str__(self) -> str:
        where = f" in {', '.join(self.units)}" if self.units else ""
        actions = [f"{cell_name(c, self.side)}={v}" for c, v in self.placements]
        actions += [f"{cell_name(c, self.side)}<>{v}" for c, v in self.eliminations]
        return f"{self.technique}{where}: {' '.join(actions)}"


class Found(NamedTuple):
    """What a technique's finder returns: the step without its name (the ladder names it)."""

    placements: tuple[Pair, ...] = ()
    eliminations: tuple[Pair, ...] = ()
    cells: tuple[int, ...] = ()
    units: tuple[str, ...] = ()


def _values(bits: int) -> list[int]:
    return [v + 1 for v in range(bits.bit_length()) if bits >> v & 1]


class _State:
    """Placed values and the candidates (bit v-1 for value v) of the empty cells."""

    def __init__(self, grid: Grid, candidates: Mapping[int, Iterable[int]] | None) -> None:
        check_givens(grid)
        self.box, self.n = grid.box, grid.size
        self.units, self.peers = geometry.units(grid.box), geometry.peer_sets(grid.box)
        self.values = list(grid.cells)
        full = (1 << self.n) - 1
        self.cands = [0 if v else full for v in self.values]
        for cell, v in enumerate(self.values):
            if v:
                for p in self.peers[cell]:
                    self.cands[p] &= ~(1 << (v - 1))
        for cell, marks in (candidates or {}).items():
            if self.values[cell]:
                continue
            self.cands[cell] &= sum(1 << (v - 1) for v in marks)

    def apply(self, step: Step) -> None:
        for cell, value in step.placements:
            self.values[cell] = value
            self.cands[cell] = 0
            for p in self.peers[cell]:
                self.cands[p] &= ~(1 << (value - 1))
        for cell, value in step.eliminations:
            self.cands[cell] &= ~(1 << (value - 1))

    def solved(self) -> bool:
        return 0 not in self.values

    def where(self, unit: tuple[int, ...], value: int) -> list[int]:
        bit = 1 << (value - 1)
        return [c for c in unit if self.cands[c] & bit]

    def missing(self, unit: tuple[int, ...]) -> list[int]:
        """The values not yet placed in a unit."""
        placed = {self.values[c] for c in unit}
        return [v for v in range(1, self.n + 1) if v not in placed]


Finder = Callable[[_State], Found | None]


# --- singles --------------------------------------------------------------------


def full_house(s: _State) -> Found | None:
    for k, unit in enumerate(s.units):
        empty = [c for c in unit if not s.values[c]]
        if len(empty) == 1 and s.cands[empty[0]]:
            (value,) = s.missing(unit)
            if s.cands[empty[0]] >> (value - 1) & 1:
                return Found(
                    placements=((empty[0], value),), cells=(empty[0],), units=(unit_name(k, s.n),)
                )
    return None


def _hidden_single(s: _State, unit_range: range) -> Found | None:
    for k in unit_range:
        unit = s.units[k]
        for value in s.missing(unit):
            places = s.where(unit, value)
            if len(places) == 1:
                return Found(
                    placements=((places[0], value),), cells=(places[0],), units=(unit_name(k, s.n),)
                )
    return None


def hidden_single_box(s: _State) -> Found | None:
    return _hidden_single(s, range(2 * s.n, 3 * s.n))


def hidden_single_line(s: _State) -> Found | None:
    return _hidden_single(s, range(2 * s.n))


def naked_single(s: _State) -> Found | None:
    for cell, x in enumerate(s.cands):
        if x and not x & (x - 1):
            return Found(placements=((cell, x.bit_length()),), cells=(cell,))
    return None


# --- intersections --------------------------------------------------------------


def _confined(s: _State, bases: range, covers: range) -> Found | None:
    """A value whose places in a base unit all lie in one cover unit leaves the rest
    of the cover (pointing: box into line; claiming: line into box)."""
    for k in bases:
        unit = s.units[k]
        for value in s.missing(unit):
            places = s.where(unit, value)
            if len(places) < 2:
                continue
            for j in covers:
                cover = s.units[j]
                if all(c in cover for c in places):
                    gone = tuple((c, value) for c in s.where(cover, value) if c not in unit)
                    if gone:
                        names = (unit_name(k, s.n), unit_name(j, s.n))
                        return Found(eliminations=gone, cells=tuple(places), units=names)
    return None


def pointing(s: _State) -> Found | None:
    return _confined(s, range(2 * s.n, 3 * s.n), range(2 * s.n))


def claiming(s: _State) -> Found | None:
    return _confined(s, range(2 * s.n), range(2 * s.n, 3 * s.n))


# --- subsets --------------------------------------------------------------------


def _naked(size: int) -> Finder:
    def find(s: _State) -> Found | None:
        for k, unit in enumerate(s.units):
            open_cells = [c for c in unit if s.cands[c]]
            small = [c for c in open_cells if s.cands[c].bit_count() <= size]
            for group in combinations(small, size):
                union = 0
                for c in group:
                    union |= s.cands[c]
                if union.bit_count() != size:
                    continue
                gone = tuple(
                    (c, v)
                    for c in open_cells
                    if c not in group
                    for v in _values(s.cands[c] & union)
                )
                if gone:
                    return Found(eliminations=gone, cells=group, units=(unit_name(k, s.n),))
        return None

    return find


def _hidden(size: int) -> Finder:
    def find(s: _State) -> Found | None:
        for k, unit in enumerate(s.units):
            places = {v: s.where(unit, v) for v in s.missing(unit)}
            few = [v for v, where in places.items() if 1 < len(where) <= size]
            for values in combinations(few, size):
                cells = sorted({c for v in values for c in places[v]})
                if len(cells) != size:
                    continue
                keep = sum(1 << (v - 1) for v in values)
                gone = tuple((c, v) for c in cells for v in _values(s.cands[c] & ~keep))
                if gone:
                    return Found(eliminations=gone, cells=tuple(cells), units=(unit_name(k, s.n),))
        return None

    return find


# --- fish -----------------------------------------------------------------------


def _fish(size: int) -> Finder:
    """A value whose places in ``size`` base lines lie in ``size`` cover lines leaves
    the rest of the cover lines (rows as bases, then columns)."""

    def find(s: _State) -> Found | None:
        n = s.n
        for base_start, cover_start in ((0, n), (n, 0)):
            for value in range(1, n + 1):
                lines = []
                for k in range(base_start, base_start + n):
                    where = s.where(s.units[k], value)
                    if 2 <= len(where) <= size:
                        lines.append((k, where))
                for group in combinations(lines, size):
                    covers = {_cross(c, n, base_start) for _, where in group for c in where}
                    if len(covers) != size:
                        continue
                    base_cells = {c for _, where in group for c in where}
                    gone = tuple(
                        (c, value)
                        for j in sorted(covers)
                        for c in s.where(s.units[cover_start + j], value)
                        if c not in base_cells
                    )
                    if gone:
                        names = tuple(unit_name(k, n) for k, _ in group)
                        return Found(
                            eliminations=gone, cells=tuple(sorted(base_cells)), units=names
                        )
        return None

    return find


def _cross(cell: int, n: int, base_start: int) -> int:
    """The index of the other line through a cell: its column for a row base."""
    return cell % n if base_start == 0 else cell // n


# --- wings ----------------------------------------------------------------------


def xy_wing(s: _State) -> Found | None:
    pairs = [c for c, x in enumerate(s.cands) if x.bit_count() == 2]
    for pivot in pairs:
        ab = s.cands[pivot]
        wings = [c for c in pairs if c in s.peers[pivot] and (s.cands[c] & ab).bit_count() == 1]
        for one, two in combinations(wings, 2):
            x, y = s.cands[one], s.cands[two]
            if x & y & ab or (x & ab) == (y & ab):
                continue
            z = (x & y) & ~ab
            if z.bit_count() != 1:
                continue
            found = _wing(s, (pivot, one, two), (one, two), z)
            if found:
                return found
    return None


def xyz_wing(s: _State) -> Found | None:
    for pivot, abc in enumerate(s.cands):
        if abc.bit_count() != 3:
            continue
        wings = [
            c for c in s.peers[pivot] if s.cands[c].bit_count() == 2 and s.cands[c] & ~abc == 0
        ]
        for one, two in combinations(wings, 2):
            z = s.cands[one] & s.cands[two]
            if z.bit_count() != 1 or s.cands[one] == s.cands[two]:
                continue
            found = _wing(s, (pivot, one, two), (pivot, one, two), z)
            if found:
                return found
    return None


def _wing(s: _State, cells: tuple[int, ...], seen_by: tuple[int, ...], z: int) -> Found | None:
    value = z.bit_length()
    common = frozenset.intersection(*(s.peers[c] for c in seen_by)) - set(cells)
    gone = tuple((c, value) for c in sorted(common) if s.cands[c] & z)
    return Found(eliminations=gone, cells=cells) if gone else None


# --- chains ---------------------------------------------------------------------


def _strong_links(s: _State, value: int) -> dict[int, set[int]]:
    """For each cell, the cells it forms a conjugate pair with for ``value``: the only
    two places of the value in some unit (one of the two holds it)."""
    links: dict[int, set[int]] = {}
    for unit in s.units:
        places = s.where(unit, value)
        if len(places) == 2:
            a, b = places
            links.setdefault(a, set()).add(b)
            links.setdefault(b, set()).add(a)
    return links


def _chain_from(
    s: _State, value: int, start: int, strong: dict[int, set[int]]
) -> tuple[list[int], tuple[Pair, ...]] | None:
    """The shortest X-chain from ``start``: ``start`` off forces the next cell on
    (a strong link), a cell on forces its peers off (a weak link), and so on.  Any
    cell ``end`` reached on gives ``start or end``: the value leaves every cell
    that sees both.  Breadth first, so the first chain found is a shortest one."""
    bit = 1 << (value - 1)
    parent: dict[tuple[int, bool], tuple[int, bool] | None] = {(start, False): None}
    level = [(start, False)]
    while level:
        deeper = []
        for cell, on in level:
            following = (
                strong.get(cell, ()) if not on else (p for p in s.peers[cell] if s.cands[p] & bit)
            )
            for nxt in following:
                state = (nxt, not on)
                if state in parent:
                    continue
                parent[state] = (cell, on)
                deeper.append(state)
                if on or nxt == start:
                    continue
                seen = s.peers[start] & s.peers[nxt]
                gone = tuple((c, value) for c in sorted(seen) if s.cands[c] & bit)
                if gone:
                    path, at = [], parent.get(state)
                    path.append(nxt)
                    while at is not None:
                        path.append(at[0])
                        at = parent[at]
                    return path[::-1], gone
        level = deeper
    return None


def x_chain(s: _State) -> Found | None:
    """The shortest single-value chain, over every value and start, that eliminates."""
    best: tuple[list[int], tuple[Pair, ...]] | None = None
    for value in range(1, s.n + 1):
        strong = _strong_links(s, value)
        for start in sorted(strong):
            found = _chain_from(s, value, start, strong)
            if found and (best is None or len(found[0]) < len(best[0])):
                best = found
    if best is None:
        return None
    return Found(eliminations=best[1], cells=tuple(best[0]))


# --- the ladder -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Technique:
    """One rung of the ladder: a technique's name, its Sudoku Explainer rating, its
    family, what it says, and the function that finds it in a state."""

    name: str
    rating: float
    family: Family
    says: str
    find: Finder


LADDER: tuple[Technique, ...] = (
    Technique(
        "full house", 1.0, "single", "a unit has one empty cell: its missing value", full_house
    ),
    Technique(
        "hidden single (box)",
        1.2,
        "single",
        "a value has one place left in a box",
        hidden_single_box,
    ),
    Technique(
        "hidden single (line)",
        1.5,
        "single",
        "a value has one place left in a row or column",
        hidden_single_line,
    ),
    Technique("naked single", 2.3, "single", "a cell has one candidate left", naked_single),
    Technique(
        "pointing",
        2.6,
        "intersection",
        "a box's value is confined to one line: not elsewhere on that line",
        pointing,
    ),
    Technique(
        "claiming",
        2.8,
        "intersection",
        "a line's value is confined to one box: not elsewhere in that box",
        claiming,
    ),
    Technique(
        "naked pair", 3.0, "subset", "two cells of a unit hold the same two values", _naked(2)
    ),
    Technique(
        "X-wing",
        3.2,
        "fish",
        "a value in two rows sits in the same two columns (or the other way round)",
        _fish(2),
    ),
    Technique("hidden pair", 3.4, "subset", "two values of a unit fit only two cells", _hidden(2)),
    Technique(
        "naked triple", 3.6, "subset", "three cells of a unit hold only three values", _naked(3)
    ),
    Technique("swordfish", 3.8, "fish", "the X-wing on three lines", _fish(3)),
    Technique(
        "hidden triple", 4.0, "subset", "three values of a unit fit only three cells", _hidden(3)
    ),
    Technique(
        "XY-wing",
        4.2,
        "wing",
        "a pivot {a,b} sees {a,c} and {b,c}: c goes from the cells that see both pincers",
        xy_wing,
    ),
    Technique(
        "XYZ-wing",
        4.4,
        "wing",
        "a pivot {a,b,c} sees {a,c} and {b,c}: c goes from the cells that see all three",
        xyz_wing,
    ),
    Technique("naked quad", 5.0, "subset", "four cells of a unit hold only four values", _naked(4)),
    Technique("jellyfish", 5.2, "fish", "the X-wing on four lines", _fish(4)),
    Technique(
        "hidden quad", 5.4, "subset", "four values of a unit fit only four cells", _hidden(4)
    ),
    Technique(
        "X-chain",
        6.5,  # SE's base for X-chains; SE adds up to 0.4 for long ones, not done here
        "chain",
        "one value along alternating links: the ends of a chain that starts and ends on a"
        " strong link cannot both lack it",
        x_chain,
    ),
)

TECHNIQUES: tuple[str, ...] = tuple(t.name for t in LADDER)
RATINGS: dict[str, float] = {t.name: t.rating for t in LADDER}
SINGLES: tuple[str, ...] = tuple(t.name for t in LADDER if t.family == "single")


def ladder_table() -> str:
    """The ladder as a Markdown table: technique, SE rating, family, what it says."""
    rows = ["| technique | SE | family | what it says |", "|---|---|---|---|"]
    rows += [f"| {t.name} | {t.rating} | {t.family} | {t.says} |" for t in LADDER]
    rows.append(
        "| bifurcation | - | guess | none applies: a labelled guess, checked by the engine |"
    )
    return "\n".join(rows)


def _guess(s: _State) -> Step:
    """No technique applies: branch on a cell with the fewest candidates, and let the
    engine's search say which value leads to a solution (labelled, never silent)."""
    cell = min((c for c, x in enumerate(s.cands) if x), key=lambda c: s.cands[c].bit_count())
    grid = Grid(tuple(s.values), s.box)
    for value in _values(s.cands[cell]):
        trial = list(s.values)
        trial[cell] = value
        try:
            found = next(solve(Grid(tuple(trial), s.box)), None)
        except PuzzleError:
            found = None
        if found is not None:
            return Step("bifurcation", placements=((cell, value),), cells=(cell,), side=s.n)
    raise UnsolvedError(f"no solution from here: {grid}")


Ladder = tuple[Technique, ...]


def _ladder(techniques: Iterable[str] | None) -> Ladder:
    """The ladder, or the part of it named in ``techniques`` (in the ladder's order)."""
    if techniques is None:
        return LADDER
    wanted = set(techniques)
    unknown = wanted - set(TECHNIQUES)
    if unknown:
        raise ValueError(f"unknown techniques: {', '.join(sorted(unknown))}")
    return tuple(t for t in LADDER if t.name in wanted)


def _next_step(s: _State, ladder: Ladder) -> Step:
    for technique in ladder:
        found = technique.find(s)
        if found is not None:
            return Step(
                technique.name,
                placements=found.placements,
                eliminations=found.eliminations,
                cells=found.cells,
                units=found.units,
                side=s.n,
            )
    return _guess(s)


def hint(
    grid: Grid,
    candidates: Mapping[int, Iterable[int]] | None = None,
    *,
    techniques: Iterable[str] | None = None,
) -> Step | None:
    """The simplest next step from a state: the grid's placed values and, if given, the
    user's pencil marks (cell -> values still thought possible).  None when solved.

    >>> from lazyfun.sudoku import parse
    >>> print(hint(parse("123." "34.." "2..." "4...")))
    full house in row 1: r1c4=4
    """
    ladder = _ladder(techniques)
    state = _State(grid, candidates)
    return None if state.solved() else _next_step(state, ladder)


def steps(
    grid: Grid,
    candidates: Mapping[int, Iterable[int]] | None = None,
    *,
    techniques: Iterable[str] | None = None,
) -> Iterator[Step]:
    """The steps that solve ``grid``, simplest available first, each found when asked for.

    ``techniques`` limits the ladder to the named ones (what a solver that
    knows only those would do; where they stop, a guess).  Raises PuzzleError
    at once if two givens conflict.

    >>> from lazyfun.sudoku import parse
    >>> walk = steps(parse("...." "34.." ".3.1" "1..4"))
    >>> print(next(walk))
    hidden single (box) in box 1: r1c2=1
    >>> print(next(walk))  # found only now
    full house in column 2: r4c2=2
    """
    ladder = _ladder(techniques)
    state = _State(grid, candidates)
    return _walk(state, ladder)


def candidates_of(grid: Grid) -> dict[int, tuple[int, ...]]:
    """The pencil marks of the empty cells: the values no placed peer rules out.

    >>> candidates_of(Grid((1, 0, 0, 0) + (0,) * 12, 2))[1]
    (2, 3, 4)
    """
    state = _State(grid, None)
    return {c: tuple(_values(bits)) for c, bits in enumerate(state.cands) if not state.values[c]}


@dataclass(frozen=True, slots=True)
class Position:
    """A step with the state it applies to: the values placed so far and the
    candidates of each cell (``(v,)`` for a placed cell), for drawing or replaying it."""

    grid: Grid
    candidates: tuple[tuple[int, ...], ...]
    step: Step

    def _repr_svg_(self) -> str:
        """The step drawn on its state, for Jupyter."""
        from lazyfun.sudoku.svg import position_svg

        return position_svg(self)

    def marks(self) -> dict[int, tuple[int, ...]]:
        """The candidates of the empty cells, as the ``candidates`` argument takes them."""
        return {c: marks for c, marks in enumerate(self.candidates) if not self.grid.cells[c]}


def walkthrough(
    grid: Grid,
    candidates: Mapping[int, Iterable[int]] | None = None,
    *,
    techniques: Iterable[str] | None = None,
) -> Iterator[Position]:
    """``steps`` with the state before each step, lazily: what a picture of a step needs.

    >>> from lazyfun.sudoku import parse
    >>> first = next(walkthrough(parse("...." "34.." ".3.1" "1..4")))
    >>> str(first.grid), first.candidates[1], str(first.step)
    ('0000340003011004', (1, 2), 'hidden single (box) in box 1: r1c2=1')
    """
    ladder = _ladder(techniques)
    state = _State(grid, candidates)
    return _positions(state, ladder, grid)


def _positions(state: _State, ladder: Ladder, puzzle: Grid) -> Iterator[Position]:
    while not state.solved():
        step = _next_step(state, ladder)
        before = tuple(
            (v,) if v else tuple(_values(bits))
            for v, bits in zip(state.values, state.cands, strict=True)
        )
        yield Position(Grid(tuple(state.values), state.box, puzzle.symbols), before, step)
        state.apply(step)


def _walk(state: _State, ladder: Ladder) -> Iterator[Step]:
    while not state.solved():
        step = _next_step(state, ladder)
        yield step
        state.apply(step)
