"""The C engines' fuzz targets: their entry points fed what the bytes say.

``forcing`` reads a grid's candidates (and at times malformed units) into the chains
and wings engine (``search`` at levels 1 to 3, ``chains``, ``wings``, ``aligned``);
``learning`` a puzzle of box 2 or 3 (given cells, cells ruled out) into the learning
search with a small budget; ``unique9`` a 9x9 grid and its orbits into the generator's
C completion and minimiser; ``flow`` a flow of items, some of them errors, through the
Stream's C take and catch; ``nine`` a 9x9 puzzle (givens, values ruled out) into the 9x9
engine, counted and solved a solution at a time, and the rest of the bytes as lines of
its batch; ``minlex`` a 9x9 grid (givens, often conflicting) into minlex's C search
with a bound from the bytes, its form canonicalised again (the same), and the rest of the
bytes as lines of its batch.  Each engine may refuse its arguments with ``ValueError``;
an error a flow's source raises comes through as it is.  ``make fuzz`` builds the
engines with libFuzzer's coverage, AddressSanitizer and UndefinedBehaviorSanitizer
(build/fuzz) and runs these there: a sanitizer's report is a finding.

Run one: ``python -m fuzz.engines TARGET fuzz/corpus/TARGET -max_total_time=60``.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from itertools import islice

from lazyfun import stream
from lazyfun.sudoku.board import geometry
from lazyfun.sudoku.board.grid import Grid
from lazyfun.sudoku.canon import _minlex
from lazyfun.sudoku.solving import _learning, _nine
from lazyfun.sudoku.steps import _forcing


class Reader:
    """The bytes read from the front, as small numbers (zero once they run out)."""

    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def byte(self) -> int:
        """The next byte, 0 past the end."""
        self.at += 1
        return self.data[self.at - 1] if self.at <= len(self.data) else 0

    def number(self, below: int) -> int:
        """A number from 0 up to ``below`` (two bytes' worth)."""
        return (self.byte() << 8 | self.byte()) % below

    def left(self) -> int:
        """How many bytes are left."""
        return max(len(self.data) - self.at, 0)


def _refused(call: Callable[[], object]) -> None:
    """``call()``, its refusal of the arguments (``ValueError``) let through."""
    with contextlib.suppress(ValueError):
        call()


def _units(r: Reader, box: int) -> tuple[list[list[int]], list[list[int]]]:
    """The grid's units and each cell's houses (box first); one time in eight, units and
    houses read from the bytes instead, cells or units off the grid among them."""
    n = box * box
    units = [list(unit) for unit in geometry.units(box)]
    boxes = range(2 * n, 3 * n)
    of = geometry.units_of(box)
    houses = [
        [u for u in of[c] if u in boxes] + [u for u in of[c] if u not in boxes]
        for c in range(n * n)
    ]
    if r.byte() % 8 == 0:
        units = [
            [r.number(n * n + 2) for _ in range(r.byte() % (n + 2))]
            for _ in range(r.byte() % (3 * n + 2))
        ]
        houses = [[r.number(len(units) + 2) for _ in range(r.byte() % 4)] for _ in range(n * n)]
    return units, houses


# A solution of each size the engine reads: a state's candidates are built around it.
SOLVED = {
    2: "1234341221434321",
    3: "483921657967345821251876493548132976729564138136798245372689514814253769695417382",
}


def _state(r: Reader, box: int) -> tuple[list[int], list[int], bool]:
    """Candidates and placed values from the bytes, and whether they may be anything: one
    time in four each cell's candidates are any set (the searches' worst case, so they
    run only at level 1); otherwise a cell is placed or keeps its solution's value and a
    few others, as a walk's states do."""
    n = box * box
    if r.byte() % 4 == 0:
        return [r.number(1 << n) for _ in range(n * n)], [0] * (n * n), True
    cands, values = [], []
    for value in map(int, SOLVED[box]):
        placed = r.byte() % 3 == 0
        values.append(value if placed else 0)
        cands.append(0 if placed else 1 << (value - 1) | (r.byte() & r.byte() & (1 << n) - 1))
    return cands, values, False


def forcing(data: bytes) -> None:
    """One of the chains and wings engine's four searches on a state from the bytes."""
    r = Reader(data)
    box = 2 if r.byte() % 4 == 0 else 3
    n = box * box
    units, houses = _units(r, box)
    cands, placed, anything = _state(r, box)
    which = r.byte() % 6
    if which == 0:
        _refused(lambda: _forcing.chains(cands, n, units, houses))
    elif which == 1:
        _refused(lambda: _forcing.wings(cands, n, units, 3 + r.byte() % 4))
    elif which == 2:
        _refused(lambda: _forcing.aligned(cands, n, units, 2 + r.byte() % 2))
    else:
        values = placed if r.byte() % 2 else None
        # the nested levels search chains within chains: on a state of many candidates
        # one search takes seconds (tens under the sanitizers), so they get the sparser
        few = not anything and sum(c.bit_count() for c in cands) < 160
        level, flags = 1 + r.byte() % 3 if few else 1, r.byte()
        dynamic, y, kinds = bool(flags & 1), bool(flags & 2), flags >> 2 & 31
        _refused(
            lambda: _forcing.search(cands, n, units, houses, 7.0, dynamic, y, kinds, values, level)
        )


def learning(data: bytes) -> None:
    """The learning search on a puzzle of box 2 or 3 from the bytes, a few hundred
    conflicts at most, and its answer read back."""
    r = Reader(data)
    box = 2 + r.byte() % 2
    n = box * box
    cells = [r.byte() % (n + 1) if r.byte() % 3 == 0 else 0 for _ in range(n * n)]
    ruled_out = [(r.number(n * n + 1), r.byte() % (n + 2)) for _ in range(r.byte() % 8)]
    units = [cell for unit in geometry.units(box) for cell in unit]
    peers = [p for of in geometry.peers(box) for p in of]

    def run() -> None:
        learner = _learning.Learner(box, cells, units, peers, seed=r.byte(), ruled_out=ruled_out)
        if learner.run(300) == 1:
            learner.solution()
        learner.stats()

    _refused(run)


def unique9(data: bytes) -> None:
    """The generator's C routines: a completion of the 9x9 cells the bytes give, and the
    minimiser on a grid and orbits from the bytes (a full grid first, when one is found)."""
    r = Reader(data)
    cells = [r.byte() % 10 if r.byte() % 4 == 0 else 0 for _ in range(81)]
    grid = None
    with contextlib.suppress(ValueError):
        grid = _learning.complete_9x9(cells)
    solution = list(grid) if grid and r.byte() % 4 else [r.byte() % 11 for _ in range(81)]
    orbits = [[r.number(84) for _ in range(1 + r.byte() % 4)] for _ in range(r.byte() % 40)]
    _refused(lambda: _learning.minimise_9x9(solution, orbits, bool(r.byte() % 2)))


def nine(data: bytes) -> None:
    """The 9x9 engine on a puzzle from the bytes (pairs ruled out off the grid among them):
    counted to a small limit, its first solutions taken one at a time; then the bytes left
    as up to four lines of a batch."""
    r = Reader(data)
    cells = [r.byte() % 10 for _ in range(81)]
    ruled_out = [(r.number(82), r.byte() % 11) for _ in range(r.byte() % 8)]
    limit = r.byte() % 5
    _refused(lambda: _nine.count(cells, limit, ruled_out))
    _refused(lambda: list(islice(_nine.Solutions(Grid(tuple(cells), 3), ruled_out), limit)))
    lines = data[r.at :].decode("latin-1").split("\n")[:4]
    _refused(lambda: _nine.solve_lines(lines, 1 + limit))


def minlex(data: bytes) -> None:
    """minlex's C search on a grid from the bytes, under a bound from them: a form it
    gives is its own form; then the bytes left as up to four lines of its batch."""
    r = Reader(data)
    density = 1 + r.byte() % 8
    cells = [r.byte() % 10 if r.byte() % density == 0 else 0 for _ in range(81)]
    bound = 1 + r.number(5000)
    with contextlib.suppress(ValueError):
        form = _minlex.minlex(cells, bound)
        assert form is None or _minlex.minlex(form) == form, (cells, form)
    lines = data[r.at :].decode("latin-1").split("\n")[:4]
    _refused(lambda: _minlex.minlex_lines(lines))


class Planted(Exception):
    """An error a flow's source raises: it comes through the steps as it is."""


def _source(r: Reader) -> Iterator[int]:
    """Items from the bytes; a byte of 250 and up raises instead."""
    while r.left():
        item = r.byte()
        if item >= 250:
            raise Planted(item)
        yield item


def flow(data: bytes) -> None:
    """The Stream's take and catch (C iterators where built) over a flow from the bytes."""
    r = Reader(data)
    steps = r.byte()
    items = stream(_source(r))
    if steps & 1:
        items = items.catch(Planted, where=lambda e: e.args[0] % 2 == 0)
    if steps & 2:
        items = items.take(steps >> 2)
    if steps & 4:
        items = items.catch(Planted, replace=lambda e: -1)
    with contextlib.suppress(Planted, ValueError):
        items.to_list()


TARGETS: dict[str, Callable[[bytes], None]] = {
    "forcing": forcing,
    "learning": learning,
    "unique9": unique9,
    "flow": flow,
    "nine": nine,
    "minlex": minlex,
}


def main(argv: list[str]) -> None:
    """Fuzz the target named first; the rest of ``argv`` goes to libFuzzer."""
    import atheris  # type: ignore[import-untyped, import-not-found, unused-ignore]  # the fuzz extra

    target = TARGETS[argv[1]]
    atheris.Setup([argv[0], *argv[2:]], target)
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
