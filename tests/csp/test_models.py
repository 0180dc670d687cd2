"""The seed's Sudoku demo and the classic models, solved lazily; bad models refused."""

from __future__ import annotations

import pytest

from lazyfun import ilen
from lazyfun.csp import Domain, Model, ModelError, Quality, all_different, total
from lazyfun.csp.examples import MSF_PUZZLE, queens_model, send_more_money, sudoku_model
from lazyfun.csp.modelling.model import Learning
from lazyfun.csp.propagation.propagators import Propagators
from lazyfun.queens import queens
from lazyfun.sudoku import is_solution, parse
from tests.puzzles import PUZZLES

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

MSF_SOLUTION = "716235984528974316394816527845163792271489635639752841982647153163528479457391268"


def _digits(solution: object, grid: list[list[object]]) -> str:
    return "".join(str(solution[d]) for row in grid for d in row)  # type: ignore[index]


@pytest.mark.parametrize("style", ["article", "all_different"])
def test_the_articles_puzzle_has_exactly_one_solution(style: str) -> None:
    model, grid = sudoku_model(MSF_PUZZLE, style)  # type: ignore[arg-type]
    found = list(model.solutions())
    assert len(found) == 1
    assert _digits(found[0], grid) == MSF_SOLUTION  # type: ignore[arg-type]
    assert found[0].quality is Quality.FEASIBLE


def test_the_article_style_names_its_constraints_like_the_article() -> None:
    model, grid = sudoku_model(MSF_PUZZLE)
    assert {"rowConstraint0", "v02", "v86"} <= set(model.constraints)
    givens = sum(ch != "0" for ch in MSF_PUZZLE)
    assert givens == 27
    assert len(model.constraints) == 9 + 2 * 9 * 36 + givens
    assert grid[0][2].name == "grid02"


@pytest.mark.parametrize("style", ["article", "all_different"])
def test_the_empty_4x4_sudoku_has_288_solutions(style: str) -> None:
    model, _ = sudoku_model("0" * 16, style, box=2)  # type: ignore[arg-type]
    assert model.count() == 288
    assert model.count(limit=10) == 10


def test_sample_puzzles_solve_to_valid_grids() -> None:
    for puzzle in PUZZLES[:5]:
        model, grid = sudoku_model(puzzle, "all_different")
        answer = _digits(model.solve(), grid)  # type: ignore[arg-type]
        assert is_solution(parse(puzzle), parse(answer))


def test_queens_as_a_model_finds_the_92() -> None:
    model, q = queens_model(8)
    found = {tuple(s[x] for x in q) for s in model.solutions()}
    assert found == set(queens(8))


def test_send_more_money() -> None:
    model, _ = send_more_money()
    (only,) = list(model.solutions())
    assert only.as_dict() == {"S": 9, "E": 5, "N": 6, "D": 7, "M": 1, "O": 0, "R": 8, "Y": 2}


def test_solutions_come_one_at_a_time_like_getnext() -> None:
    model, _ = sudoku_model("0" * 16, "all_different", box=2)
    stream = model.solutions()
    next(stream)
    early = stream.nodes
    assert early < 20
    assert ilen(stream) == 287
    assert stream.nodes > early and stream.stopped_by is None


def test_limits_stop_the_stream_cleanly_and_say_so() -> None:
    model, _ = queens_model(10)
    stream = model.solutions(node_limit=5)
    assert ilen(stream) <= 5
    assert stream.stopped_by == "node_limit"
    timed = model.solutions(time_limit=0.0)
    assert list(timed) == [] and timed.stopped_by == "time_limit"
    assert model.solve(node_limit=1).quality is Quality.UNKNOWN


@pytest.mark.parametrize("learn", [False, "clauses"])
def test_a_propagation_that_creeps_ends_at_the_time_limit(learn: Learning) -> None:
    """x + 1 <= y and y + 1 <= x over 0..200,000: bounds reasoning refutes them one value
    a run, some 400,000 runs on bit sets as wide (minutes); the limit ends the first
    propagation, where the search used to look at its limits only between nodes."""
    model = Model()
    x = model.decision("x", Domain.integer_range(0, 200_000))
    y = model.decision("y", Domain.integer_range(0, 200_000))
    model.add_constraint("x before y", x + 1 <= y)
    model.add_constraint("y before x", y + 1 <= x)
    stream = model.solutions(time_limit=0.2, learn=learn)
    assert list(stream) == [] and stream.stopped_by == "time_limit"
    assert stream.nodes <= 1


def test_an_infeasible_model_gives_an_infeasible_solution() -> None:
    model = Model()
    x = model.decision("x", Domain.integer_range(1, 3))
    y = model.decision("y", Domain.integer_range(1, 3))
    model.add_constraint("sum", x + y == 7)
    solution = model.solve()
    assert solution.quality is Quality.INFEASIBLE
    assert solution.as_dict() == {}
    with pytest.raises(ModelError, match="infeasible solution has no values"):
        solution[x]


def test_a_predicate_over_named_decisions() -> None:
    model = Model()
    x = model.decision("x", Domain.integer_range(0, 5))
    model.decision("y", Domain.of([2, 3]))
    model.add_constraint("odd", lambda a, b: (a * b) % 2 == 1, [x, "y"])
    assert [s.as_dict() for s in model.solutions()] == [
        {"x": 1, "y": 3},
        {"x": 3, "y": 3},
        {"x": 5, "y": 3},
    ]


def test_operators_build_the_documented_constraints() -> None:
    model = Model()
    xs = [model.decision(f"x{i}", Domain.integer_range(0, 4)) for i in range(3)]
    # mypy types sum() of decisions as ``Expr | int``; lazyfun.csp.total is the typed spelling.
    model.add_constraint("total", sum(xs) == 6)  # type: ignore[arg-type]
    model.add_constraint("total again", total(xs) == 6)
    model.add_constraint("weighted", 2 * xs[0] - xs[1] >= 3)
    model.add_constraint("gap", abs(xs[1] - xs[2]) != 1)
    model.add_constraint("distinct", all_different(xs))
    got = [tuple(s[x] for x in xs) for s in model.solutions()]
    expected = [
        (a, b, c)
        for a in range(5)
        for b in range(5)
        for c in range(5)
        if a + b + c == 6 and 2 * a - b >= 3 and abs(b - c) != 1 and len({a, b, c}) == 3
    ]
    assert sorted(got) == expected


def test_bad_models_fail_where_the_mistake_is() -> None:
    model = Model()
    x = model.decision("x", Domain.integer_range(0, 3))
    with pytest.raises(ModelError, match="duplicate decision name 'x'"):
        model.decision("x", Domain.boolean())
    model.add_constraint("c", x != 1)
    with pytest.raises(ModelError, match="duplicate constraint name 'c'"):
        model.add_constraint("c", x != 2)
    with pytest.raises(ModelError, match="empty domain"):
        Domain.integer_range(3, 1)
    with pytest.raises(ModelError, match="at least one value"):
        Domain.of([])
    other = Model()
    z = other.decision("z", Domain.boolean())
    with pytest.raises(ModelError, match="two models"):
        model.add_constraint("mixed", x + z == 1)
    with pytest.raises(ModelError, match="another model"):
        model.add_constraint("foreign", z == 1)
    with pytest.raises(ModelError, match="must be an integer"):
        model.add_constraint("float", x == 1.5)
    with pytest.raises(ModelError, match="unknown decision 'w'"):
        model.add_constraint("pred", lambda a: a > 0, ["w"])
    with pytest.raises(TypeError, match="no truth value"):
        bool(x == 1)


def test_the_msf_example_script_reproduces_the_demo() -> None:
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "examples" / "msf_sudoku.py"
    out = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, check=True
    ).stdout
    assert "81 decisions, 684 named constraints" in out
    assert "Quality: feasible" in out
    assert "7 1 6 2 3 5 9 8 4" in out
    assert "Number of solutions: 1" in out


def test_a_failed_constraint_weighs_its_decisions_for_branching_ties() -> None:
    m = Model()
    x, y, z = (m.decision(name, Domain.integer_range(1, 2)) for name in "xyz")
    m.add_constraint("differ", x != y)
    m.add_constraint("order", y <= z)
    compiled = Propagators(m.decisions, list(m.constraints.values()))
    assert compiled.weight == [1, 2, 1]  # the plain degree to start with
    doms = [0b1, 0b1, 0b11]  # x = y = 1
    assert not compiled.propagate(doms, [0])
    assert compiled.weight == [2, 3, 1]


def test_models_compare_by_identity_without_building_constraints() -> None:
    a, b = Model(), Model()
    a.decision("x", Domain.integer_range(1, 2))
    b.decision("x", Domain.integer_range(1, 2))
    assert a != b  # a dataclass would compare the decisions, and so build a constraint
    assert a == a
    assert repr(a) == "Model(1 decisions, 0 constraints)"


def test_hidden_decisions_are_numbered_by_kind_past_a_taken_name() -> None:
    m = Model()
    x = m.decision("x", Domain.integer_range(0, 9))
    m.decision("truth#2", Domain.boolean())
    made = [m.truth(x > k).name for k in range(3)]
    assert made == ["truth#1", "truth#3", "truth#4"]
    assert m.truth(x < 5).name == "truth#5"
    assert sorted(m.constraints) == ["truth#1", "truth#3", "truth#4", "truth#5"]
