"""cp against itertools.product, the consumer keeping every tuple: ns per tuple."""

from __future__ import annotations

import itertools

from benchmarks.common import best_of, verdict
from lazyfun import cp

TUPLES = 1_000_000


def _per_tuple(make: object, shape: list[range]) -> float:
    def run() -> None:
        list(itertools.islice(make(shape), TUPLES))  # type: ignore[operator]

    return best_of(3, run) / TUPLES * 1e9


def main() -> list[str]:
    print(f"cp vs itertools.product, {TUPLES:,} tuples kept, best of 3")
    verdicts = []
    for label, shape in [
        ("81 positions x 9 (a Sudoku grid)", [range(1, 10)] * 81),
        ("9 positions x 9 (a Sudoku row)", [range(1, 10)] * 9),
        ("20 positions x 2", [range(2)] * 20),
    ]:
        ours = _per_tuple(cp, shape)
        theirs = _per_tuple(lambda s: itertools.product(*s), shape)
        ratio = ours / theirs
        print(f"  {label:<34} cp {ours:6.0f} ns  product {theirs:6.0f} ns  ratio {ratio:.2f}")
        if label.startswith("81"):
            verdicts.append(
                verdict("cp within 1.5x of product (81x9)", ratio <= 1.5, f"{ratio:.2f}x")
            )
    return verdicts
