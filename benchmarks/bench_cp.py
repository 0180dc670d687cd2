"""cp against itertools.product, the consumer keeping every tuple: ns per tuple."""

from __future__ import annotations

import itertools

from benchmarks.common import best_of, verdict
from lazyfun import cp

TUPLES = 1_000_000


def _per_tuple(make: object, shape: list[range]) -> float:
    """ns per tuple kept, calling ``make`` again until ``TUPLES`` tuples were made."""
    made = 0

    def run() -> None:
        nonlocal made
        made = 0
        while made < TUPLES:
            made += len(list(itertools.islice(make(shape), TUPLES)))  # type: ignore[operator]

    return best_of(3, run) / made * 1e9


def main() -> list[str]:
    print(f"cp vs itertools.product, {TUPLES:,} tuples kept, best of 3")
    verdicts = []
    ratios: dict[str, float] = {}
    for label, shape in [
        ("81 positions x 9 (a Sudoku grid)", [range(1, 10)] * 81),
        ("9 positions x 9 (a Sudoku row)", [range(1, 10)] * 9),
        ("20 positions x 2", [range(2)] * 20),
        *((f"{k} positions x 9", [range(9)] * k) for k in range(2, 7)),
    ]:
        ours = _per_tuple(cp, shape)
        theirs = _per_tuple(lambda s: itertools.product(*s), shape)
        ratio = ours / theirs
        print(f"  {label:<34} cp {ours:6.0f} ns  product {theirs:6.0f} ns  ratio {ratio:.2f}")
        ratios[label] = ratio
    worst = max(ratios, key=ratios.__getitem__)
    verdicts.append(
        verdict(
            "cp within 1.5x of product at every shape",
            ratios[worst] <= 1.5,
            f"worst {ratios[worst]:.2f}x ({worst}), 81x9 {ratios[next(iter(ratios))]:.2f}x",
        )
    )
    return verdicts
