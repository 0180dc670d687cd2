"""Peer Sudoku solvers, modelled the same way: OR-Tools CP-SAT and python-constraint2."""

from __future__ import annotations

from typing import Any


def _cells(puzzle: str) -> list[int]:
    return [0 if ch in ".0" else int(ch) for ch in puzzle]


def _units() -> list[list[int]]:
    rows = [[r * 9 + c for c in range(9)] for r in range(9)]
    cols = [[r * 9 + c for r in range(9)] for c in range(9)]
    boxes = [
        [(br + r) * 9 + bc + c for r in range(3) for c in range(3)]
        for br in (0, 3, 6)
        for bc in (0, 3, 6)
    ]
    return rows + cols + boxes


def cpsat_solve(puzzle: str, count: bool = False) -> int:
    """Solve with CP-SAT (AddAllDifferent, one worker); the number of solutions found."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    x = [model.NewIntVar(1, 9, f"c{i}") for i in range(81)]
    for i, v in enumerate(_cells(puzzle)):
        if v:
            model.Add(x[i] == v)
    for unit in _units():
        model.AddAllDifferent([x[i] for i in unit])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if not count:
        status = solver.Solve(model)
        return 1 if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) else 0

    class Counter(cp_model.CpSolverSolutionCallback):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.n = 0

        def on_solution_callback(self) -> None:
            self.n += 1

    counter = Counter()
    solver.parameters.enumerate_all_solutions = True
    solver.Solve(model, counter)
    return counter.n


def constraint_solve(puzzle: str) -> Any:
    """Solve with python-constraint2's BacktrackingSolver (its default hangs on Sudoku)."""
    import constraint

    problem = constraint.Problem(constraint.BacktrackingSolver())
    for i, v in enumerate(_cells(puzzle)):
        problem.addVariable(i, [v] if v else list(range(1, 10)))
    for unit in _units():
        problem.addConstraint(constraint.AllDifferentConstraint(), unit)
    return problem.getSolution()
