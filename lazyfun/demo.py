"""The demo: lazy pipelines on built-in data, with the probe's counts as evidence."""

from __future__ import annotations

from collections.abc import Callable

from lazyfun import cp, search, take
from lazyfun.trace import Probe

Say = Callable[[str], None]


def _queens_pipeline(say: Say) -> None:
    """Eight queens as an instance of the search skeleton, streamed."""
    n = 8

    def expand1(placed: tuple[int, ...]) -> list[tuple[int, ...]]:
        col = len(placed)
        return [
            (*placed, row)
            for row in range(n)
            if all(row != r and abs(row - r) != col - c for c, r in enumerate(placed))
        ]

    probe = Probe()
    start: tuple[int, ...] = ()
    placements = search(
        start, expand1=probe.counted("partial boards")(expand1), complete=lambda p: len(p) == n
    )
    say("The first 3 of the 92 placements of 8 queens, streamed by lazyfun.search:")
    for p in take(3, probe.stage("placements", placements)):
        say(f"  {p}")
    say("What the search built to find them (the rest was never computed):")
    say("  " + str(probe).replace("\n", "\n  "))


def _cp_pipeline(say: Say) -> None:
    """cp over a Sudoku-sized product: the first hit without building the product."""
    probe = Probe(memory=True)
    with probe:
        candidates = probe.stage("candidates", cp([range(1, 10)] * 81))
        hits = probe.stage("hits", (g for g in candidates if sum(g[-3:]) == 20))
        hit = next(hits)
    say("The first of the 9^81 digit strings whose last three digits sum to 20:")
    say("  " + "".join(map(str, hit)))
    say("  " + str(probe).replace("\n", "\n  "))


def run(say: Say) -> None:
    """Run every part of the demo, printing through ``say``."""
    _queens_pipeline(say)
    say("")
    _cp_pipeline(say)
