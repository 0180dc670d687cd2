"""Hypothesis strategies for grids and matrices of choices."""

from __future__ import annotations

from hypothesis import strategies as st

from lazyfun.sudoku import Grid, MarkedGrid

Matrix = tuple[tuple[int, ...], ...]


def solved_grid(box: int, relabel: list[int], row_shift: int) -> Grid:
    """A valid full grid: the pattern ``(b*(r%b) + r//b + c) % N``, relabelled, rows rotated."""
    n = box * box
    rows = [[relabel[(box * (r % box) + r // box + c) % n] for c in range(n)] for r in range(n)]
    band = row_shift % box
    rows = rows[band * box :] + rows[: band * box]
    return Grid.from_rows(rows)


@st.composite
def full_grids(draw: st.DrawFn, box: int) -> Grid:
    """Valid solution grids of box size ``box``."""
    n = box * box
    relabel = draw(st.permutations(range(1, n + 1)))
    return solved_grid(box, list(relabel), draw(st.integers(0, box - 1)))


@st.composite
def puzzles(draw: st.DrawFn, box: int, max_blanks: int) -> Grid:
    """A full grid with up to ``max_blanks`` cells blanked: at least one solution."""
    g = draw(full_grids(box))
    blanks = draw(st.sets(st.integers(0, len(g.cells) - 1), max_size=min(max_blanks, len(g.cells))))
    return Grid(tuple(0 if i in blanks else v for i, v in enumerate(g.cells)), box)


@st.composite
def marked_grids(draw: st.DrawFn, box: int, max_blanks: int) -> MarkedGrid:
    """A puzzle with pencil marks that the one-line form can hold: every blank keeps at
    least two candidates (there one candidate means a given), none ruled out by a given.

    Blanks that the givens leave with one value are filled back from the solution
    until none is left; then some blanks' candidates are narrowed, to two or more.
    """
    g = draw(full_grids(box))
    n = len(g.cells)
    blanks = draw(st.sets(st.integers(0, n - 1), max_size=min(max_blanks, n)))
    while True:
        grid = Grid(tuple(0 if i in blanks else v for i, v in enumerate(g.cells)), box)
        singles = {c for c, m in MarkedGrid.of(grid).marks().items() if len(m) < 2}
        if not singles:
            break
        blanks -= singles
    narrowed = {
        cell: draw(st.sets(st.sampled_from(marks), min_size=2))
        for cell, marks in MarkedGrid.of(grid).marks().items()
        if draw(st.booleans())
    }
    return MarkedGrid.of(grid, narrowed)


@st.composite
def matrices(draw: st.DrawFn, box: int) -> Matrix:
    """Any matrix of small ints of side b*b (for the grid-shape laws)."""
    n = box * box
    cells = draw(st.lists(st.integers(0, 9), min_size=n * n, max_size=n * n))
    return tuple(tuple(cells[r * n : (r + 1) * n]) for r in range(n))


@st.composite
def random_4x4(draw: st.DrawFn) -> Grid:
    """Any 4x4 grid of givens whose givens do not conflict (it may have no solution).

    Each cell is drawn from blanks and digits; a given that repeats one before it in a
    row, column or box is blanked.  Nothing is thrown away: rejecting the conflicting
    draws (most of them) made generating the examples cost many times the test itself.
    """
    from lazyfun.sudoku import check_givens
    from lazyfun.sudoku.board.geometry import units

    peers = [{p for unit in units(2) if i in unit for p in unit} - {i} for i in range(16)]
    cells = draw(st.lists(st.sampled_from([0, 0, 0, 1, 2, 3, 4]), min_size=16, max_size=16))
    for i in range(16):
        if cells[i] and any(cells[p] == cells[i] for p in peers[i] if p < i):
            cells[i] = 0
    g = Grid(tuple(cells), 2)
    check_givens(g)  # raises PuzzleError if a conflict were left
    return g


@st.composite
def consistent_4x4(draw: st.DrawFn) -> Grid:
    """A 4x4 grid of givens drawn cell by cell so that no two conflict (no filtering)."""
    from lazyfun.sudoku.board.geometry import units

    peers = [{p for unit in units(2) if i in unit for p in unit} for i in range(16)]
    cells = [0] * 16
    for i in range(16):
        allowed = [v for v in range(1, 5) if all(cells[p] != v for p in peers[i])]
        cells[i] = draw(st.sampled_from([0, 0, *allowed]))
    return Grid(tuple(cells), 2)
