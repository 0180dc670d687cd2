"""A courier's lorry: which of 50 parcels to carry for the most pay, with lazyfun.csp.

Each parcel pays its weight in kilograms plus a flat 100 for the stop; the
lorry takes half of what is waiting.  Pay so close to weight makes every
parcel about as good as any other per kilogram: Pisinger's "strongly
correlated" knapsack, the hard kind for branch and bound.  The model is the
plain one: a yes/no decision per parcel, one weight limit, the pay to
maximise.  The solutions stream in as the search finds better ones; the
last is proved optimal.

Run: ``.venv/bin/python examples/knapsack.py``
"""

from __future__ import annotations

import time

from lazyfun.csp import Domain, Model, Quality, total
from lazyfun.csp.examples import correlated_items

TOWNS = ("Leeds", "York", "Hull", "Derby", "Bath", "Ely", "Wells", "Ripon", "Truro", "Perth")


def parcels() -> tuple[list[tuple[str, int, int]], int]:
    """50 parcels ``(label, kg, pay)`` and the lorry's payload in kg."""
    items, payload = correlated_items(50, seed=1)
    labelled = [
        (f"parcel {k + 1:02d} to {TOWNS[k % len(TOWNS)]}", kg, pay)
        for k, (_, kg, pay) in enumerate(items)
    ]
    return labelled, payload


def main() -> None:
    items, payload = parcels()
    model = Model()
    take = [model.decision(label, Domain.boolean()) for label, _, _ in items]
    model.add_constraint(
        "payload", total(kg * x for x, (_, kg, _) in zip(take, items, strict=True)) <= payload
    )
    model.maximize(total(pay * x for x, (_, _, pay) in zip(take, items, strict=True)))
    waiting = sum(kg for _, kg, _ in items)
    print(f"{len(items)} parcels, {waiting} kg waiting, lorry takes {payload} kg")
    start = time.perf_counter()
    stream = model.solutions()
    best = None
    for solution in stream:
        seconds = time.perf_counter() - start
        if solution.quality is Quality.OPTIMAL:
            best = solution
            break
        print(
            f"  {seconds * 1000:8.1f} ms  pay {solution.objective[0]}"
            f"  (nothing better than {solution.bound})"
        )
    assert best is not None
    chosen = [(label, kg, pay) for (label, kg, pay), x in zip(items, take, strict=True) if best[x]]
    print(f"Proved optimal after {stream.nodes} branchings, {seconds:.2f} s:")
    for label, kg, pay in chosen:
        print(f"  {label:<22} {kg:4} kg  pays {pay}")
    print(
        f"{len(chosen)} parcels, {sum(kg for _, kg, _ in chosen)} kg, "
        f"pay {best.objective[0]} (quality: {best.quality.value})"
    )


if __name__ == "__main__":
    main()
