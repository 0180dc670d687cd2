"""Make unique 25x25 puzzles with about 355 blanks, OR-Tools CP-SAT proving uniqueness.

The recipe of tests/data/sudoku25_set.txt (see tests/data/PROVENANCE.md): a
valid grid from :func:`lazyfun.sudoku.making.generation.random_solution` (seeded), its
cells blanked in a seeded random order, each blank kept only while CP-SAT
proves that no other grid fits the givens ("the model plus *some blank differs
from the solution* is infeasible").  Cells are tried in batches while that is
easy, then one at a time; a cell whose blanking would admit a second solution
stays a given.  Stops at ``--blanks`` blanks.

    python -m benchmarks.make_sudoku25 --seeds 1-10 > puzzles.txt

Each output line is ``puzzle solution seed``.  Our own engine is not used to
decide anything: the point of the set is to test it.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from benchmarks.peers import cpsat_model
from lazyfun.sudoku.board.grid import Grid
from lazyfun.sudoku.making.generation import random_solution

BOX = 5
N = BOX * BOX


def _unique(givens: list[int], solution: Grid, seconds: float) -> bool | None:
    """Whether ``givens`` have ``solution`` as their only solution (None: CP-SAT timed out)."""
    from ortools.sat.python import cp_model

    model, x = cpsat_model(str(Grid(tuple(givens), BOX)))
    differs = []
    for i, v in enumerate(givens):
        if not v:
            d = model.NewBoolVar(f"d{i}")
            model.Add(x[i] != solution.cells[i]).OnlyEnforceIf(d)
            differs.append(d)
    model.AddBoolOr(differs)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = seconds
    status = solver.Solve(model)
    if status == cp_model.INFEASIBLE:
        return True
    if status in (cp_model.FEASIBLE, cp_model.OPTIMAL):
        return False
    return None


def make(seed: int, blanks: int, seconds: float) -> tuple[Grid, Grid]:
    """A puzzle with ``blanks`` blanks (or as many as could go) and its solution."""
    rng = random.Random(f"lazyfun.sudoku25:{seed}")
    solution = random_solution(BOX, rng)
    order = rng.sample(range(N * N), N * N)
    givens = list(solution.cells)
    made = 0
    batch = 64
    tried = 0
    while made < blanks and tried < len(order):
        take = order[tried : tried + min(batch, blanks - made)]
        for cell in take:
            givens[cell] = 0
        if _unique(givens, solution, seconds):
            made += len(take)
            tried += len(take)
            continue
        for cell in take:
            givens[cell] = solution.cells[cell]
        if len(take) == 1:
            tried += 1
        batch = max(1, len(take) // 2)
    return Grid(tuple(givens), BOX), solution


def _seeds(text: str) -> list[int]:
    low, _, high = text.partition("-")
    return list(range(int(low), int(high or low) + 1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seeds", default="1-10", help="a seed or a range, like 1-10")
    parser.add_argument("--blanks", type=int, default=355)
    parser.add_argument("--seconds", type=float, default=120.0, help="CP-SAT limit per question")
    args = parser.parse_args(argv)
    for seed in _seeds(args.seeds):
        began = time.perf_counter()
        puzzle, solution = make(seed, args.blanks, args.seconds)
        took = time.perf_counter() - began
        blanks = puzzle.cells.count(0)
        print(f"{puzzle} {solution} {seed}", flush=True)
        print(f"seed {seed}: {blanks} blanks in {took:.0f} s", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
