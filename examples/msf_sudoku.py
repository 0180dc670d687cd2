"""The Solver Foundation Sudoku demo, with lazyfun.csp.

The MSDN article builds a model of 81 decisions (``grid00`` .. ``grid88``, each
``Domain.IntegerRange(1, 9)``), adds ``AllDifferent`` for each row, pairwise
``!=`` for the columns and the 3x3 boxes, one ``==`` constraint per given, then
calls ``Solve`` and walks the solutions with ``GetNext`` to count them.  Here
the same model, then the solutions as a lazy stream.

Run: ``.venv/bin/python examples/msf_sudoku.py``
"""

from __future__ import annotations

from itertools import combinations

from lazyfun.csp import Decision, Domain, Model, Quality, all_different

PUZZLE = "006200080008970000004810500000060002070000030600050000002047100003028400050001200"


def build(puzzle: str) -> tuple[Model, list[list[Decision]]]:
    model = Model()
    grid = [
        [model.decision(f"grid{r}{c}", Domain.integer_range(1, 9)) for c in range(9)]
        for r in range(9)
    ]
    for r in range(9):
        model.add_constraint(f"rowConstraint{r}", all_different(grid[r]))
    for c in range(9):
        for first, second in combinations(range(9), 2):
            model.add_constraint(
                f"colConstraint{c}{first}{second}", grid[first][c] != grid[second][c]
            )
    for r0 in (0, 3, 6):
        for c0 in (0, 3, 6):
            cells = [(r0 + a, c0 + b) for a in range(3) for b in range(3)]
            for (ra, ca), (rb, cb) in combinations(cells, 2):
                model.add_constraint(
                    f"cubeConstraint{ra}{ca}{rb}{cb}", grid[ra][ca] != grid[rb][cb]
                )
    for k, ch in enumerate(puzzle):
        if ch != "0":
            r, c = divmod(k, 9)
            model.add_constraint(f"v{r}{c}", grid[r][c] == int(ch))
    return model, grid


def main() -> None:
    print("Begin Solver Foundation style Sudoku demo (lazyfun.csp)")
    model, grid = build(PUZZLE)
    print(f"{len(model.decisions)} decisions, {len(model.constraints)} named constraints")
    solution = model.solve()
    print(f"Quality: {solution.quality.value}")
    if solution.quality is Quality.FEASIBLE:
        for row in grid:
            print(" ".join(str(solution[d]) for d in row))
    stream = model.solutions()
    count = sum(1 for _ in stream)
    print(f"Number of solutions: {count} ({stream.nodes} branchings in all)")
    print("End demo")


if __name__ == "__main__":
    main()
