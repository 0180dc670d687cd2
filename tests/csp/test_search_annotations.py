"""Search annotations and branching strategies: which decision next, which values first."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest

from lazyfun.csp import Domain, Model, ModelError
from lazyfun.csp.flatzinc import parse, solve
from lazyfun.csp.search.strategy import Strategy, branches, chosen

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

# Four variables whose first solution differs by heuristic: the annotation is a
# placeholder, replaced in the FlatZinc minizinc writes.
HEURISTICS = """include "alldifferent.mzn";
array[1..4] of var int: x;
constraint x[1] in 1..6 /\\ x[2] in 2..4 /\\ x[3] in 3..9 /\\ x[4] in {1,5,7};
constraint alldifferent(x);
constraint sum(x) >= 12;
constraint x[1] + 2 * x[2] != 9;
solve :: int_search(x, input_order, indomain_min, complete) satisfy;
"""
CHOICES = [  # the first solutions differ but for the last (Gecode's, below)
    ("input_order", "indomain_min"),
    ("input_order", "indomain_max"),
    ("input_order", "indomain_median"),
    ("first_fail", "indomain_min"),
    ("first_fail", "indomain_median"),
    ("smallest", "indomain_median"),
    ("largest", "indomain_min"),
    ("largest", "indomain_median"),
    ("largest", "indomain_split"),
    ("dom_w_deg", "indomain_reverse_split"),
]


def first_solution(text: str, *, free_search: bool = False) -> str:
    out = io.StringIO()
    solve(parse(text, free_search=free_search), out=out)
    return out.getvalue().replace(" ", "")


@pytest.fixture(scope="module")
def heuristics_fzn(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("heuristics")
    model, fzn = folder / "h.mzn", folder / "h.fzn"
    model.write_text(HEURISTICS)
    command = ["minizinc", "-c", "--solver", "org.minizinc.mzn-fzn", str(model), "--fzn", str(fzn)]
    subprocess.run(command, check=True, capture_output=True)
    return fzn.read_text()


@pytest.mark.skipif(shutil.which("minizinc") is None, reason="minizinc is not installed")
def test_each_heuristic_finds_gecodes_first_solution(heuristics_fzn: str, tmp_path: Path) -> None:
    annotation = "int_search(x,input_order,indomain_min,complete)"
    assert annotation in heuristics_fzn
    ours, theirs = [], []
    for variable, value in CHOICES:
        text = heuristics_fzn.replace(annotation, f"int_search(x,{variable},{value},complete)")
        path = tmp_path / f"{variable}-{value}.fzn"
        path.write_text(text)
        gecode = ["minizinc", "--solver", "gecode", str(path)]
        theirs.append(subprocess.run(gecode, capture_output=True, text=True).stdout)
        ours.append(first_solution(text))
    assert ours == [t.replace(" ", "") for t in theirs]
    assert len(set(ours)) == 9  # the heuristics lead apart (dom_w_deg's as input_order's max)
    assert ours[0].startswith("x=array1d(1..4,[1,2,3,7]);")
    assert ours[1].startswith("x=array1d(1..4,[6,4,9,7]);")
    free = first_solution(
        heuristics_fzn.replace(annotation, "int_search(x,largest,indomain_max,complete)"),
        free_search=True,
    )
    assert free == first_solution(heuristics_fzn, free_search=True)  # -f: the annotation ignored


INTRODUCED = """\
var 0..3: x:: output_var;
var 0..3: y:: output_var;
var 0..9: X_INTRODUCED_1_ ::var_is_introduced :: is_defined_var;
var 0..9: X_INTRODUCED_2_ ::var_is_introduced;
var 0..6: z:: output_var;
constraint int_lin_eq([1,1,-1],[x,y,X_INTRODUCED_1_],0):: defines_var(X_INTRODUCED_1_);
constraint int_lin_le([1,-1],[X_INTRODUCED_1_,X_INTRODUCED_2_],0);
constraint int_le(z, X_INTRODUCED_2_);
solve :: seq_search([int_search([y],input_order,indomain_max,complete),
                     bool_search([],input_order,indomain_min,complete),
                     int_search([x,y],first_fail,indomain_split,complete)]) satisfy;
"""


def test_seq_search_then_the_models_own_variables_never_the_introduced() -> None:
    model = parse(INTRODUCED).model
    named = [
        ([model.decisions[i].name for i in s.decisions], s.variable, s.value)
        for s in model.strategies
    ]
    assert named == [
        (["y"], "input_order", "max"),
        ([], "input_order", "min"),
        (["x"], "first_fail", "split"),
        (["z"], "first_fail", "default"),
    ]
    assert first_solution(INTRODUCED).startswith("x=0;\ny=3;\nz=0;")
    assert parse(INTRODUCED, free_search=True).model.strategies == []


def test_without_annotations_a_satisfaction_guesses_its_own_variables_first() -> None:
    """Unannotated, the model's own variables are a tentative branching for a satisfaction
    (the restarts try it against the solver's), none for an optimisation."""
    unannotated = INTRODUCED[: INTRODUCED.index("solve")] + "solve satisfy;\n"
    strategies = parse(unannotated).model.strategies
    assert [(s.decisions, s.variable, s.tentative) for s in strategies] == [
        ([0, 1, 4], "first_fail", True)
    ]
    assert first_solution(unannotated).startswith("x=0;\ny=0;\nz=0;")
    optimise = unannotated.replace("solve satisfy", "solve minimize z")
    assert parse(optimise).model.strategies == []
    assert [s.tentative for s in parse(INTRODUCED).model.strategies] == [False] * 4


def test_branch_on_splits_and_orders_as_asked() -> None:
    m = Model()
    x, y, z = (m.decision(n, Domain.integer_range(0, 9)) for n in "xyz")
    m.add_constraint("sum", x + y + z == 12)
    m.branch_on([z, y, x], variable="largest", value="reverse_split")
    assert m.solve().as_dict() == {"x": 0, "y": 3, "z": 9}
    m = Model()
    x, y = (m.decision(n, Domain.integer_range(-4, 5)) for n in "xy")
    m.add_constraint("apart", x - y >= 3)
    m.branch_on([x, y], value="median")
    # x is -1..5 once propagated: its median 2; then y is -4..-1: its median (the lower) -3
    assert m.solve().as_dict() == {"x": 2, "y": -3}
    with pytest.raises(ModelError, match="variable='most' is not one of"):
        m.branch_on([x], variable="most")
    with pytest.raises(ModelError, match="value='random' is not one of"):
        m.branch_on([x], value="random")


def test_each_variable_choice_picks_its_decision() -> None:
    doms = [0b1111, 0b0110, 0b11, 0b1]  # sizes 4, 2, 2, 1 (fixed)
    offsets = [0, 5, -3, 0]  # least values 0, 6, -3; greatest 3, 7, -2
    weight = [1, 1, 4, 9]
    picked = {
        name: chosen(Strategy([0, 1, 2, 3], name, "min"), doms, offsets, weight)
        for name in (
            "input_order",
            "first_fail",
            "anti_first_fail",
            "smallest",
            "largest",
            "occurrence",
            "dom_w_deg",
        )
    }
    assert picked == {
        "input_order": 0,
        "first_fail": 1,
        "anti_first_fail": 0,
        "smallest": 2,
        "largest": 1,
        "occurrence": 2,
        "dom_w_deg": 2,
    }
    assert chosen(Strategy([3], "first_fail", "min"), doms, offsets, weight) == -1


def test_each_value_choice_splits_the_domain_in_two() -> None:
    bits = 0b1011010  # values 1, 3, 4, 6
    assert branches(bits, "min") == [0b10, 0b1011000]
    assert branches(bits, "max") == [0b1000000, 0b11010]
    assert branches(bits, "median") == [0b1000, 0b1010010]
    assert branches(bits, "split") == [0b1010, 0b1010000]  # 1, 3 | 4, 6: up to (1 + 6) // 2
    assert branches(bits, "reverse_split") == [0b1010000, 0b1010]
