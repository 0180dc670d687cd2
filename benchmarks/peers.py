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


def cpsat_model(puzzle: str) -> tuple[Any, list[Any]]:
    """The CP-SAT model of a Sudoku of any size (AddAllDifferent per unit) and its cells.

    Only the reading of the puzzle's alphabet is lazyfun's (``parse``).
    """
    from ortools.sat.python import cp_model

    from lazyfun.sudoku import parse
    from lazyfun.sudoku.board.geometry import units

    grid = parse(puzzle)
    model = cp_model.CpModel()
    x = [model.NewIntVar(1, grid.size, f"c{i}") for i in range(grid.size**2)]
    for i, v in enumerate(grid.cells):
        if v:
            model.Add(x[i] == v)
    for unit in units(grid.box):
        model.AddAllDifferent([x[i] for i in unit])
    return model, x


def cpsat_solve(puzzle: str, count: bool = False) -> int:
    """Solve with CP-SAT (AddAllDifferent, one worker); the number of solutions found."""
    from ortools.sat.python import cp_model

    model, _ = cpsat_model(puzzle)
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


def plain_queens(n: int) -> Any:
    """The plain recursive generator: the article's flatmap order, one placement at a time."""

    def safe(row: int, placed: tuple[int, ...]) -> bool:
        col = len(placed)
        return all(row != r and abs(row - r) != col - c for c, r in enumerate(placed))

    def place(k: int) -> Any:
        if k == 0:
            yield ()
            return
        for placed in place(k - 1):
            for row in range(n):
                if safe(row, placed):
                    yield (*placed, row)

    return place(n)


def mirror_count(n: int) -> int:
    """A straightforward bit-mask counter with mirror symmetry: the usual Python answer."""
    full = (1 << n) - 1

    def walk(taken: int, rising: int, falling: int) -> int:
        if taken == full:
            return 1
        total = 0
        free = full & ~(taken | rising | falling)
        while free:
            bit = free & -free
            free ^= bit
            total += walk(taken | bit, (rising | bit) << 1, (falling | bit) >> 1)
        return total

    half = sum(walk(1 << r, 1 << r << 1, 1 << r >> 1) for r in range(n // 2))
    middle = walk(1 << (n // 2), 1 << (n // 2) << 1, 1 << (n // 2) >> 1) if n % 2 else 0
    return 2 * half + middle


def _queens_problem(n: int, solver: Any) -> Any:
    import constraint

    problem = constraint.Problem(solver)
    problem.addVariables(range(n), range(n))
    for i in range(n):
        for j in range(i + 1, n):
            problem.addConstraint(lambda a, b, d=j - i: a != b and abs(a - b) != d, (i, j))
    return problem


def constraint_queens_count(n: int) -> int:
    """Every placement with python-constraint2's BacktrackingSolver, counted as it streams."""
    import constraint

    return sum(1 for _ in _queens_problem(n, constraint.BacktrackingSolver()).getSolutionIter())


def constraint_queens_first(n: int) -> Any:
    """A first placement with python-constraint2's MinConflictsSolver (local search)."""
    import constraint

    return _queens_problem(n, constraint.MinConflictsSolver(steps=1_000_000)).getSolution()


def cpsat_queens_first(n: int, seconds: float = 60.0) -> list[int] | None:
    """A first placement with OR-Tools CP-SAT (one worker): AllDifferent on rows and diagonals.

    None when it finds none within ``seconds``.
    """
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    q = [model.NewIntVar(0, n - 1, f"q{i}") for i in range(n)]
    model.AddAllDifferent(q)
    model.AddAllDifferent([q[i] + i for i in range(n)])
    model.AddAllDifferent([q[i] - i for i in range(n)])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = seconds
    if solver.Solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return [solver.Value(v) for v in q]


def minlex_exhaustive(line: str) -> str:
    """Minlex by the specification: every arrangement, cut as soon as a prefix is larger.

    The peer every pruned canonicaliser is measured against: all 2,592 row
    arrangements times 1,296 column orders, relabelling each on the fly.
    """
    from lazyfun.sudoku import parse
    from lazyfun.sudoku.board.arrangement import band_orders, oriented

    grid = parse(line)
    orders = band_orders(3)
    best = [10] * 81
    for transpose in (False, True):
        src = oriented(grid, transpose)
        for rows in orders:
            arranged = [src[r] for r in rows]
            for cols in orders:
                labels = {0: 0}
                out: list[int] = []
                smaller = False
                for row in arranged:
                    for c in cols:
                        v = row[c]
                        if v not in labels:
                            labels[v] = len(labels)
                        x = labels[v]
                        if not smaller:
                            if x > best[len(out)]:
                                break
                            smaller = x < best[len(out)]
                        out.append(x)
                    else:
                        continue
                    break
                else:
                    if smaller:
                        best = out
    return "".join(map(str, best))


def cpsat_golomb(marks: int, fixed_search: bool = False) -> int:
    """The Golomb model of ``lazyfun.csp.examples.golomb_model``, in CP-SAT (one worker):
    the same decisions, domains, constraints, goal and branching order; the optimal
    length.  ``fixed_search`` makes CP-SAT follow that branching order only."""
    from itertools import combinations

    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    top = marks * marks
    ruler = [model.NewIntVar(0, top, f"m{i}") for i in range(marks)]
    model.Add(ruler[0] == 0)
    for i in range(marks - 1):
        model.Add(ruler[i] < ruler[i + 1])
    gaps = []
    for i, j in combinations(range(marks), 2):
        gap = model.NewIntVar((j - i) * (j - i + 1) // 2, top, f"d{i}_{j}")
        model.Add(gap == ruler[j] - ruler[i])
        gaps.append(gap)
    model.AddAllDifferent(gaps)
    model.Add(gaps[0] < gaps[-1])
    model.Minimize(ruler[-1])
    model.AddDecisionStrategy(ruler, cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if fixed_search:
        solver.parameters.search_branching = cp_model.FIXED_SEARCH
    assert solver.Solve(model) == cp_model.OPTIMAL
    return int(solver.Value(ruler[-1]))


def cpsat_jobshop(jobs: Any) -> tuple[int, int]:
    """The job shop of ``lazyfun.csp.jobshop.jobshop_model`` in CP-SAT (one worker), with
    its interval model (``NewIntervalVar``, ``AddNoOverlap``, ends before starts, the
    makespan at least every job's end): the optimal makespan and CP-SAT's branches."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    horizon = sum(d for job in jobs for _, d in job)
    machines: dict[int, list[Any]] = {}
    ends = []
    for j, job in enumerate(jobs):
        before = 0
        after = sum(d for _, d in job)
        previous = None
        for machine, duration in job:
            start = model.NewIntVar(before, horizon - after, f"j{j}m{machine}")
            end = model.NewIntVar(before + duration, horizon - after + duration, "")
            interval = model.NewIntervalVar(start, duration, end, "")
            machines.setdefault(machine, []).append(interval)
            if previous is not None:
                model.Add(start >= previous)
            previous = end
            before += duration
            after -= duration
        ends.append(previous)
    for intervals in machines.values():
        model.AddNoOverlap(intervals)
    longest = max(sum(d for _, d in job) for job in jobs)
    makespan = model.NewIntVar(longest, horizon, "makespan")
    for end in ends:
        model.Add(makespan >= end)
    model.Minimize(makespan)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.Solve(model) == cp_model.OPTIMAL
    return int(solver.ObjectiveValue()), int(solver.NumBranches())


def cpsat_knapsack(items: Any, capacity: int) -> int:
    """A 0-1 knapsack in CP-SAT (one worker); the optimal value."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    take = [model.NewBoolVar(name) for name, _, _ in items]
    model.Add(sum(w * x for x, (_, w, _) in zip(take, items, strict=True)) <= capacity)
    model.Maximize(sum(v * x for x, (_, _, v) in zip(take, items, strict=True)))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.Solve(model) == cp_model.OPTIMAL
    return int(solver.ObjectiveValue())


def dp_knapsack(items: Any, capacity: int) -> int:
    """A 0-1 knapsack by dynamic programming over the capacity: the optimal value (the check)."""
    best = [0] * (capacity + 1)
    for _, w, v in items:
        for room in range(capacity, w - 1, -1):
            best[room] = max(best[room], best[room - w] + v)
    return best[capacity]


def cpsat_variant(variant: Any, stop_at: int = 1) -> int:
    """A Sudoku variant (``lazyfun.sudoku.variants.Variant``) in CP-SAT, one worker:
    AllDifferent on every unit and cage, ``!=`` for the extra peers, the arithmetic as
    linear constraints and allowed pairs.  Returns how many solutions it found, up to
    ``stop_at`` (1: solve; 2: prove uniqueness)."""
    from ortools.sat.python import cp_model

    grid = variant.grid
    n = grid.size
    model = cp_model.CpModel()
    x = [model.NewIntVar(1, n, f"c{c}") for c in range(n * n)]
    for c, v in enumerate(grid.cells):
        if v:
            model.Add(x[c] == v)
    for unit in variant.units:
        model.AddAllDifferent([x[c] for c in unit])
    in_unit = {(a, b) for unit in variant.units for a in unit for b in unit}
    for a, near in enumerate(variant.tables.peers):
        for b in near:
            if a < b and (a, b) not in in_unit:
                model.Add(x[a] != x[b])
    for a, near in enumerate(variant.tables.adjacent):
        for b in near:
            if a < b:
                model.Add(x[a] - x[b] != 1)
                model.Add(x[b] - x[a] != 1)
    _cpsat_rules(model, x, variant)
    return _cpsat_count(model, stop_at)


def _cpsat_rules(model: Any, x: list[Any], variant: Any) -> None:
    """A variant's arithmetic rules, as CP-SAT constraints on the cells ``x``."""
    from lazyfun.sudoku.variants import Arrow, Cage, Dot, GreaterThan, Thermo

    n = variant.grid.size
    for rule in variant.rules:
        if isinstance(rule, Cage) and rule.total is not None:
            model.Add(sum(x[c] for c in rule.cells) == rule.total)
        elif isinstance(rule, Thermo):
            for a, b in zip(rule.cells, rule.cells[1:], strict=False):
                model.Add(x[a] < x[b])
        elif isinstance(rule, Arrow):
            model.Add(x[rule.circle] == sum(x[c] for c in rule.shaft))
        elif isinstance(rule, GreaterThan):
            model.Add(x[rule.cells[0]] < x[rule.cells[1]])
        elif isinstance(rule, Dot):
            white = rule.color == "white"
            pairs = [
                (v, w)
                for v in range(1, n + 1)
                for w in range(1, n + 1)
                if (abs(v - w) == 1 if white else 2 * w in (v, 4 * v))
            ]
            model.AddAllowedAssignments([x[rule.cells[0]], x[rule.cells[1]]], pairs)


def _cpsat_count(model: Any, stop_at: int) -> int:
    """How many solutions CP-SAT (one worker) finds, up to ``stop_at``."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if stop_at == 1:
        status = solver.Solve(model)
        return int(status in (cp_model.OPTIMAL, cp_model.FEASIBLE))
    solver.parameters.enumerate_all_solutions = True

    class Stop(cp_model.CpSolverSolutionCallback):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.found = 0

        def on_solution_callback(self) -> None:
            self.found += 1
            if self.found >= stop_at:
                self.StopSearch()

    stop = Stop()
    solver.Solve(model, stop)
    return stop.found
