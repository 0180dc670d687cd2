"""Minlex: the canonical form of a Sudoku grid, found by a pruned lazy search.

Two grids are *equivalent* when one becomes the other by an **arrangement**:
transpose or not, reorder the bands and the rows inside each band, reorder the
stacks and the columns inside each stack, and relabel the digits.  For a 9x9
grid there are 2 * 6^8 = 3,359,232 arrangements of the cells.  The canonical
form is the smallest of them, read as an 81-digit string with 0 for a blank,
each arrangement taking the relabelling that minimises it (the first digit met
in reading order becomes 1, the next new one 2, and so on).  The specification
is one line::

    minlex g = minimum [relabel (arrange a g) | a <- arrangements]

and ``minlex_by_enumeration`` runs it as written (for 4x4 grids and tests).

``minlex`` never enumerates the group.  It builds the answer row by row,
keeping every partial arrangement whose rows so far are the smallest possible
(a lexicographic minimum has a minimal prefix, so nothing else can win):

    canonical_rows g = map best (iterate extend (start g))

* ``start``: both orientations, nothing placed.
* ``extend``: for each surviving partial arrangement, each source row that may
  come next (the rest of the current band, or any row of an unused band), and
  the column orders still open, write the row as small as it can be; keep the
  candidates whose row equals the smallest.
* Columns that are blank in every row placed so far are interchangeable; they
  stay together in a *cell* until a row tells them apart (blanks first, then
  known labels in ascending order, then new digits).  Whole stacks blank so far
  stay unordered the same way.  So an empty top row costs one candidate, not
  1,296 column orders.
* Blank rows of one band are interchangeable too: one is tried and counted for
  all.  Candidates that reach the same state are merged and their counts added,
  which is what ``automorphisms`` sums.

Full grids are the hard case for that pruning: every top row reads
``123456789`` under every column order.  There the top two rows are found
together (``_full_second_rows``): the second row, read through the column order
that the first row fixes, is a permutation conjugated by that order, and
its smallest form is found position by position, placing each digit's column
as early as its stack allows.

>>> g = parse("207005000000340000150000009005000001040000320000016500000002084700000010010580000")
>>> print(minlex(g))
000000012000034005006007300001300007053080000080000100010005090200100000700400030
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import permutations, product
from math import factorial
from typing import NamedTuple

from lazyfun.sudoku.grid import Grid, PuzzleError, check_givens, parse  # noqa: F401 (doctests)

__all__ = [
    "Arrangement",
    "automorphisms",
    "canonical_rows",
    "equivalent",
    "identity",
    "minlex",
    "minlex_arrangement",
    "minlex_by_enumeration",
    "random_arrangement",
    "random_transform",
    "transform",
]

CANON_BOXES = (2, 3)

Row = tuple[int, ...]
Cells = tuple[tuple[int, ...], ...]
# A stack slot of the output: (source stack, its columns in ordered cells), or
# (-1, (source stacks,)): stacks blank so far, filling the next slots in any order.
Entry = tuple[int, Cells]
Layout = tuple[Entry, ...]


class Arrangement(NamedTuple):
    """One arrangement of a grid: ``transform`` reads it as

    ``out[i][j] = digits[src[rows[i]][cols[j]]]`` where ``src`` is the grid,
    transposed first when ``transpose`` is true.  ``rows`` must keep bands
    together (each output band takes the rows of one source band), ``cols``
    must keep stacks together, and ``digits`` is a permutation of 1..N with
    ``digits[0] == 0``.
    """

    transpose: bool
    rows: tuple[int, ...]
    cols: tuple[int, ...]
    digits: tuple[int, ...]

    def check(self, box: int) -> None:
        """Raise ``ValueError`` unless this is an arrangement of a grid of box size ``box``."""
        n = box * box
        for name, order in (("rows", self.rows), ("cols", self.cols)):
            if sorted(order) != list(range(n)):
                raise ValueError(f"{name} must be a permutation of 0..{n - 1}: {order}")
            for k in range(0, n, box):
                if len({i // box for i in order[k : k + box]}) != 1:
                    raise ValueError(f"{name} {order} splits a band or stack")
        if (
            len(self.digits) != n + 1
            or self.digits[0] != 0
            or sorted(self.digits) != list(range(n + 1))
        ):
            raise ValueError(f"digits must be 0 then a permutation of 1..{n}: {self.digits}")


def identity(box: int) -> Arrangement:
    """The arrangement that leaves a grid of box size ``box`` as it is."""
    n = box * box
    return Arrangement(False, tuple(range(n)), tuple(range(n)), tuple(range(n + 1)))


def _matrix(grid: Grid, transpose: bool) -> tuple[Row, ...]:
    rows = grid.rows
    return tuple(zip(*rows, strict=True)) if transpose else rows


def transform(grid: Grid, arrangement: Arrangement) -> Grid:
    """The grid rearranged: ``out[i][j] = digits[src[rows[i]][cols[j]]]``.

    >>> g = parse("1200" "0000" "0000" "0001")
    >>> print(transform(g, Arrangement(True, (1, 0, 2, 3), (0, 1, 3, 2), (0, 2, 1, 3, 4))))
    1000200000000020
    """
    arrangement.check(grid.box)
    src = _matrix(grid, arrangement.transpose)
    d = arrangement.digits
    return Grid(
        tuple(d[src[r][c]] for r in arrangement.rows for c in arrangement.cols),
        grid.box,
    )


def _shuffled_blocks(box: int, rng: random.Random) -> tuple[int, ...]:
    blocks = rng.sample(range(box), box)
    return tuple(b * box + i for b in blocks for i in rng.sample(range(box), box))


def random_arrangement(box: int, rng: random.Random) -> Arrangement:
    """A uniformly random arrangement (relabelling included) for box size ``box``."""
    n = box * box
    return Arrangement(
        rng.random() < 0.5,
        _shuffled_blocks(box, rng),
        _shuffled_blocks(box, rng),
        (0, *rng.sample(range(1, n + 1), n)),
    )


def random_transform(grid: Grid, rng: random.Random) -> Grid:
    """``grid`` under a random arrangement: an equivalent grid."""
    return transform(grid, random_arrangement(grid.box, rng))


def _relabelled(cells: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    """Relabel digits by first appearance: ``relabel`` of the specification."""
    labels: dict[int, int] = {0: 0}
    for v in cells:
        if v not in labels:
            labels[v] = len(labels)
    return tuple(labels[v] for v in cells)


def _orders(box: int) -> list[tuple[int, ...]]:
    """Every band-preserving order of 0..N-1: every row order, and every column order."""
    inner = list(permutations(range(box)))
    return [
        tuple(b * box + i for b, w in zip(blocks, within, strict=True) for i in w)
        for blocks in permutations(range(box))
        for within in product(inner, repeat=box)
    ]


def minlex_by_enumeration(grid: Grid) -> Grid:
    """The specification, run as written: the least relabelled arrangement of all.

    Eager and exhaustive: 2 * (b!)^(2(b+1)) arrangements, so 128 for a 4x4 grid
    but 3,359,232 for a 9x9 one (minutes).  Tests use it to check ``minlex``.

    >>> print(minlex_by_enumeration(parse("1200" "0000" "0000" "0001")))
    0000000100001200
    """
    box = grid.box
    orders = _orders(box)
    best: tuple[int, ...] | None = None
    for transpose in (False, True):
        src = _matrix(grid, transpose)
        for rows in orders:
            arranged = [src[r] for r in rows]
            for cols in orders:
                candidate = _relabelled([row[c] for row in arranged for c in cols])
                if best is None or candidate < best:
                    best = candidate
    assert best is not None
    return Grid(best, box)


# --------------------------------------------------------------------------
# The search.  A state is one partial arrangement, its interchangeable columns
# still grouped in cells:
#   (transpose, layout, labels, next label, rows left in the band,
#    bands left, multiplicity, source rows placed so far)

State = tuple[int, Layout, tuple[int, ...], int, tuple[int, ...], tuple[int, ...], int, Row]
# How a stack may be refined: a sequence of parts, each a list of choices of cells.
Parts = list[list[Cells]]
# A piece of the next layout: (kind, source stacks, their parts), the kind being
# STACK (one placed stack), EQUAL (stacks that write the row alike: every order
# is tried) or BLANK (stacks still blank: they stay unordered).
Piece = tuple[int, tuple[int, ...], list[Parts]]
STACK, EQUAL, BLANK = 0, 1, 2

NEW = 1 << 20  # sorts after every label: a digit seen for the first time


def _refine_stack(cells: Cells, labels: tuple[int, ...], row: Row) -> tuple[list[int], Parts]:
    """Write one row through a stack's cells, as small as it can be.

    Inside a cell: blanks first (they stay one cell), then known labels in
    ascending order, then new digits (written ``NEW``), whose order is open.
    Returns the values and the parts the refined cells are chosen from.
    """
    values: list[int] = []
    parts: Parts = []
    fixed: list[tuple[int, ...]] = []
    for cell in cells:
        if len(cell) == 1:
            d = row[cell[0]]
            values.append((labels[d] or NEW) if d else 0)
            fixed.append(cell)
            continue
        blanks = tuple(c for c in cell if not row[c])
        known = sorted((labels[row[c]], c) for c in cell if row[c] and labels[row[c]])
        new = [c for c in cell if row[c] and not labels[row[c]]]
        values += [0] * len(blanks)
        values += [k for k, _ in known]
        values += [NEW] * len(new)
        if blanks:
            fixed.append(blanks)
        fixed += [(c,) for _, c in known]
        if len(new) > 1:
            parts.append([tuple(fixed)])
            parts.append([tuple((c,) for c in p) for p in permutations(new)])
            fixed = []
        else:
            fixed += [(c,) for c in new]
    parts.append([tuple(fixed)])
    return values, parts


def _choices(parts: Parts) -> list[Cells]:
    """Every refined cell sequence a stack's parts allow."""
    if len(parts) == 1:
        return parts[0]
    return [tuple(cell for part in choice for cell in part) for choice in product(*parts)]


def _write_row(
    layout: Layout, labels: tuple[int, ...], nxt: int, row: Row, box: int
) -> tuple[Row, list[Piece]]:
    """The smallest way to write ``row`` next, and the pieces its arrangements are made of.

    Stacks still blank so far are sorted by how small they write this row;
    those that stay blank stay unordered, equal ones are tried in every order.
    """
    values: list[int] = []
    pieces: list[Piece] = []
    for s, body in layout:
        if s >= 0:
            vals, parts = _refine_stack(body, labels, row)
            values += vals
            pieces.append((STACK, (s,), [parts]))
            continue
        keyed = sorted(
            (
                (*_refine_stack((tuple(range(t * box, t * box + box)),), labels, row), t)
                for t in body[0]
            ),
            key=lambda x: x[0],
        )
        i = 0
        while i < len(keyed):
            j = i + 1
            while j < len(keyed) and keyed[j][0] == keyed[i][0]:
                j += 1
            vals = keyed[i][0]
            values += vals * (j - i)
            if any(vals):
                group = keyed[i:j]
                pieces.append((EQUAL, tuple(t for *_, t in group), [p for _, p, _ in group]))
            else:
                pieces.append((BLANK, tuple(t for *_, t in keyed[i:j]), []))
            i = j
    if NEW in values:
        for i, v in enumerate(values):
            if v == NEW:
                values[i] = nxt
                nxt += 1
    return tuple(values), pieces


def _piece_layouts(piece: Piece) -> list[tuple[Entry, ...]]:
    """The layout entries one piece may become."""
    kind, stacks, parts = piece
    if kind == STACK:
        return [((stacks[0], cells),) for cells in _choices(parts[0])]
    if kind == BLANK:
        return [((-1, (stacks,)),)]
    return [
        tuple(zip((t for t, _ in order), choice, strict=True))
        for order in permutations(zip(stacks, parts, strict=True))
        for choice in product(*(_choices(p) for _, p in order))
    ]


def _arrangements_of(
    pieces: list[Piece], labels: tuple[int, ...], nxt: int, row: Row
) -> Iterator[tuple[Layout, tuple[int, ...], int]]:
    """Each way of choosing among the pieces: the layout, its labels and the next label."""
    for choice in product(*map(_piece_layouts, pieces)):
        layout = tuple(e for entries in choice for e in entries)
        new_labels = list(labels)
        n = nxt
        for s, cells in layout:
            if s < 0:
                continue
            for cell in cells:
                d = row[cell[0]]
                if len(cell) == 1 and d and not new_labels[d]:
                    new_labels[d] = n
                    n += 1
        yield layout, tuple(new_labels), n


def _next_rows(
    band_left: tuple[int, ...], bands_left: tuple[int, ...], src: tuple[Row, ...], box: int
) -> Iterator[tuple[int, int]]:
    """The source rows that may come next, each with how many blank rows it stands for.

    Blank rows of one band are interchangeable, so only the first is tried.
    """
    rows = band_left or tuple(r for b in bands_left for r in range(b * box, b * box + box))
    blank: dict[int, int] = {}
    for r in rows:
        if not any(src[r]):
            blank[r // box] = blank.get(r // box, 0) + 1
    seen: set[int] = set()
    for r in rows:
        if any(src[r]):
            yield r, 1
        elif r // box not in seen:
            seen.add(r // box)
            yield r, blank[r // box]


def _start(box: int) -> list[State]:
    n = box * box
    free: Layout = ((-1, (tuple(range(box)),)),)
    return [(t, free, (0,) * (n + 1), 1, (), tuple(range(box)), 1, ()) for t in (0, 1)]


def _extend(
    states: list[State], srcs: tuple[tuple[Row, ...], ...], box: int
) -> tuple[Row, list[State]]:
    """One step of the search: the smallest next row, and every state that writes it."""
    best: Row | None = None
    winners: list[tuple[State, int, int, list[Piece]]] = []
    for state in states:
        t, layout, labels, nxt, band_left, bands_left, _, _ = state
        src = srcs[t]
        for r, count in _next_rows(band_left, bands_left, src, box):
            values, pieces = _write_row(layout, labels, nxt, src[r], box)
            if best is None or values < best:
                best, winners = values, [(state, r, count, pieces)]
            elif values == best:
                winners.append((state, r, count, pieces))
    assert best is not None
    merged: dict[tuple[object, ...], State] = {}
    for (t, _, labels, nxt, band_left, bands_left, mult, placed), r, count, pieces in winners:
        band = r // box
        if band_left:
            rest = tuple(x for x in band_left if x != r)
            bands = bands_left
        else:
            rest = tuple(x for x in range(band * box, band * box + box) if x != r)
            bands = tuple(b for b in bands_left if b != band)
        for layout, new_labels, n in _arrangements_of(pieces, labels, nxt, srcs[t][r]):
            key = (t, layout, new_labels, rest, bands)
            old = merged.get(key)
            weight = mult * count + (old[6] if old else 0)
            merged[key] = (t, layout, new_labels, n, rest, bands, weight, (*placed, r))
    return best, list(merged.values())


_Frontier = tuple[
    int, int, int, tuple[int, ...], list[int], list[int], list[int], list[int], list[int]
]


def _full_second_rows(srcs: tuple[tuple[Row, ...], ...], box: int) -> tuple[Row, list[State]]:
    """For a full grid: the smallest second row over every top row and column order.

    Row 0 reads 1..N under any column order, so the labels are the output
    positions of row 0's columns.  Row 1 at output position j then reads
    ``1 + pos(pi(sigma j))`` where ``pi(c)`` is the row-0 column holding
    ``row1[c]``.  Positions are filled left to right; a target column not yet
    placed goes to the earliest free position its stack allows (the smallest
    value there), and only the choice of ``sigma j`` branches.
    """
    n = box * box
    frontier: list[_Frontier] = []
    for t, src in enumerate(srcs):
        for r0 in range(n):
            pos0 = [0] * (n + 1)
            for c, d in enumerate(src[r0]):
                pos0[d] = c
            band = r0 // box
            for r1 in range(band * box, band * box + box):
                if r1 != r0:
                    pi = tuple(pos0[d] for d in src[r1])
                    frontier.append(
                        (t, r0, r1, pi, [-1] * n, [-1] * n, [-1] * box, [-1] * box, [0] * box)
                    )
    row1: list[int] = []
    for j in range(n):
        k = j // box
        best = n + 1
        survivors: list[_Frontier] = []
        for item in frontier:
            t, r0, r1, pi, sigma, inv, stack_at, slot_of, fill = item
            if sigma[j] >= 0:
                choices = [sigma[j]]
            elif stack_at[k] >= 0:
                s = stack_at[k]
                choices = [c for c in range(s * box, s * box + box) if inv[c] < 0]
            else:
                choices = [c for c in range(n) if slot_of[c // box] < 0]
            for c in choices:
                sg, iv, sa, so, fl = (
                    list(sigma),
                    list(inv),
                    list(stack_at),
                    list(slot_of),
                    list(fill),
                )
                if sg[j] < 0:
                    if sa[k] < 0:
                        sa[k], so[c // box] = c // box, k
                    sg[j], iv[c] = c, j
                    fl[k] += 1
                target = pi[c]
                if iv[target] < 0:
                    st = target // box
                    if so[st] < 0:
                        slot = sa.index(-1)
                        sa[slot], so[st] = st, slot
                    slot = so[st]
                    p = slot * box + fl[slot]
                    fl[slot] += 1
                    sg[p], iv[target] = target, p
                value = iv[target] + 1
                if value < best:
                    best, survivors = value, []
                if value == best:
                    survivors.append((t, r0, r1, pi, sg, iv, sa, so, fl))
        row1.append(best)
        frontier = survivors
    states: list[State] = []
    for t, r0, r1, _, sigma, _, stack_at, _, _ in frontier:
        labels = [0] * (n + 1)
        for j, c in enumerate(sigma):
            labels[srcs[t][r0][c]] = j + 1
        layout = tuple(
            (stack_at[k], tuple((sigma[k * box + i],) for i in range(box))) for k in range(box)
        )
        band = r0 // box
        rest = tuple(x for x in range(band * box, band * box + box) if x not in (r0, r1))
        bands = tuple(b for b in range(box) if b != band)
        states.append((t, layout, tuple(labels), n + 1, rest, bands, 1, (r0, r1)))
    return tuple(row1), states


def _search(grid: Grid) -> Iterator[tuple[Row, list[State]]]:
    """The canonical rows one at a time, each with the states that write it (lazy)."""
    box = grid.box
    if box not in CANON_BOXES:
        raise PuzzleError(f"minlex supports 4x4 and 9x9 grids, not {grid.size}x{grid.size}")
    check_givens(grid)
    n = box * box
    srcs = (_matrix(grid, False), _matrix(grid, True))
    if grid.is_complete():
        yield tuple(range(1, n + 1)), []
        row1, states = _full_second_rows(srcs, box)
        yield row1, states
        done = 2
    else:
        states, done = _start(box), 0
    for _ in range(done, n):
        row, states = _extend(states, srcs, box)
        yield row, states


def canonical_rows(grid: Grid) -> Iterator[Row]:
    """The rows of ``minlex(grid)``, each computed only when it is asked for.

    The first row needs only the clue counts; later rows cost more.  Two grids
    can be told apart at the first row where these streams differ.

    >>> g = parse("2070050000003400001500000090050000010400003200000165"
    ...           "00000002084700000010010580000")
    >>> next(canonical_rows(g))
    (0, 0, 0, 0, 0, 0, 0, 1, 2)
    """
    return (row for row, _ in _search(grid))


def _last_level(grid: Grid) -> tuple[Row, list[State]]:
    cells: list[int] = []
    states: list[State] = []
    for row, level in _search(grid):
        cells += row
        states = level
    return tuple(cells), states


def minlex(grid: Grid) -> Grid:
    """The minlex canonical form: the least relabelled arrangement of ``grid``.

    A puzzle with no solution still has one; givens that conflict raise
    ``PuzzleError``.

    >>> print(minlex(parse("0000" "0000" "0000" "0001")))
    0000000000000001
    """
    cells, _ = _last_level(grid)
    return Grid(cells, grid.box)


def _columns(layout: Layout, box: int) -> tuple[int, ...]:
    cols: list[int] = []
    for s, body in layout:
        if s >= 0:
            cols += [c for cell in body for c in cell]
        else:
            cols += [c for t in body[0] for c in range(t * box, t * box + box)]
    return tuple(cols)


def minlex_arrangement(grid: Grid) -> Arrangement:
    """An arrangement taking ``grid`` to ``minlex(grid)``.

    >>> g = parse("1200" "0000" "0000" "0001")
    >>> transform(g, minlex_arrangement(g)) == minlex(g)
    True
    """
    _, states = _last_level(grid)
    t, layout, labels, _, _, _, _, placed = states[0]
    n = grid.size
    unused = iter(sorted(set(range(1, n + 1)) - set(labels)))
    digits = tuple(labels[d] or next(unused) if d else 0 for d in range(n + 1))
    return Arrangement(bool(t), placed, _columns(layout, grid.box), digits)


def _weight(state: State, box: int) -> int:
    """How many arrangements one final state stands for."""
    total = state[6]
    for s, body in state[1]:
        if s >= 0:
            for cell in body:
                total *= factorial(len(cell))
        else:
            total *= factorial(len(body[0])) * factorial(box) ** len(body[0])
    return total


def automorphisms(grid: Grid) -> int:
    """How many arrangements map ``grid`` to itself (the identity included).

    Each arrangement is counted with the relabelling it forces on the digits
    present; digits absent from a puzzle are not permuted separately.

    >>> automorphisms(parse("0000" "0000" "0000" "0000"))
    128
    """
    _, states = _last_level(grid)
    return sum(_weight(state, grid.box) for state in states)


def equivalent(a: Grid, b: Grid) -> bool:
    """Whether some arrangement takes ``a`` to ``b``; stops at the first canonical row that differs.

    >>> a = parse("1200" "0000" "0000" "0001")
    >>> equivalent(a, random_transform(a, random.Random(7)))
    True
    """
    if a.box != b.box:
        return False
    return all(x == y for x, y in zip(canonical_rows(a), canonical_rows(b), strict=True))
