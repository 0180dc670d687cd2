"""Pictures and pages: SVG grids per second, an explanation page, a rated booklet.

Targets (issue 27): an explanation page with every step of a forum-hardest
puzzle under 0.2 s; SVG grids at 2,000 a second or more; a 12-puzzle booklet
with ratings under 3 s.  For scale, the same SVG documents serialised by
``xml.etree`` (parsed once, outside the timing), the approach
``lazyfun.drawing`` replaced.
"""

from __future__ import annotations

import time
from itertools import islice
from xml.etree import ElementTree as ET

from benchmarks.common import best_of, data_file, lines, report, time_each, verdict
from lazyfun.pages import booklet, explanation_page, printed
from lazyfun.sudoku import generate, parse, solve
from lazyfun.sudoku.steps.rating import rate
from lazyfun.sudoku.svg import grid_svg

HARDEST = "tdoku_puzzles5_forum_hardest_1905_11plus.txt"
FALLBACK = "006200080008970000004810500000060002070000030600050000002047100003028400050001200"


def main() -> list[str]:
    verdicts: list[str] = []
    path = data_file(HARDEST)
    puzzles = lines(path, 20) if path is not None else [FALLBACK]
    grids = [parse(p) for p in puzzles]
    solved = [(g, next(solve(g))) for g in grids]

    def draw(k: str) -> None:
        grid, solution = solved[int(k)]
        grid_svg(grid, solution)

    indices = [str(k % len(solved)) for k in range(2000)]
    ours = time_each("lazyfun grid_svg", indices, draw)
    trees = [ET.fromstring(grid_svg(g, s)) for g, s in solved]
    etree = time_each(
        "xml.etree serialising them", indices[:500], lambda k: ET.tostring(trees[int(k)])
    )
    report("SVG grids: a puzzle with its solution", [ours, etree])
    verdicts.append(
        verdict(
            "SVG grids at 2,000/s or more",
            ours.rate >= 2000,
            f"{ours.rate:,.0f}/s, {ours.rate / etree.rate:.1f}x xml.etree's serialising alone",
        )
    )

    pages = time_each(
        "explanation page",
        [str(k) for k in range(len(grids))],
        lambda k: explanation_page(grids[int(k)]),
    )
    report(f"explanation pages, every step, {len(grids)} puzzles of {HARDEST}", [pages])
    slowest = max(pages.times)
    verdicts.append(
        verdict(
            "an explanation page of a forum-hardest puzzle under 0.2 s",
            slowest < 0.2,
            f"slowest {slowest:.3f} s, median {sorted(pages.times)[len(pages.times) // 2]:.3f} s",
        )
    )

    twelve = list(islice(generate(seed=27), 12))

    def book() -> None:
        booklet([printed(g, rate(g)) for g in twelve])

    seconds = best_of(3, book)
    start = time.perf_counter()
    size = len(booklet([printed(g, rate(g)) for g in twelve]))
    print(
        f"booklet of 12 rated puzzles: {seconds:.2f} s best of 3, {size:,} bytes "
        f"({time.perf_counter() - start:.2f} s once more)"
    )
    verdicts.append(
        verdict("a 12-puzzle booklet with ratings under 3 s", seconds < 3, f"{seconds:.2f} s")
    )
    return verdicts
