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
together (``full_second_rows``): the second row, read through the column order
that the first row fixes, is a permutation conjugated by that order, and
its smallest form is found position by position, placing each digit's column
as early as its stack allows.

>>> g = parse("207005000000340000150000009005000001040000320000016500000002084700000010010580000")
>>> print(minlex(g))
000000012000034005006007300001300007053080000080000100010005090200100000700400030

For 9x9 grids ``minlex`` runs the same search in C where it was built
(``lazyfun/sudoku/canon/minlex_c``, see :mod:`~lazyfun.sudoku.canon.canonical`).

The modules: :mod:`~lazyfun.sudoku.board.arrangement` (arrangements and
relabelling), :mod:`~lazyfun.sudoku.canon.spec` (the specification),
:mod:`~lazyfun.sudoku.canon.rows` (the row-by-row search),
:mod:`~lazyfun.sudoku.canon.full` (the top two rows of full grids), and
:mod:`~lazyfun.sudoku.canon.canonical` (the public forms).
"""

from lazyfun.sudoku.board.arrangement import (
    Arrangement,
    identity,
    random_arrangement,
    random_transform,
    transform,
)
from lazyfun.sudoku.board.formats import parse  # noqa: F401 (doctests)
from lazyfun.sudoku.canon.canonical import (
    automorphisms,
    canonical_rows,
    equivalent,
    minlex,
    minlex_arrangement,
)
from lazyfun.sudoku.canon.spec import minlex_by_enumeration

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
