"""Machines recognised in FlatZinc's reified disjunctions: a job shop arrives as one."""

from __future__ import annotations

import io
from collections import Counter

from lazyfun.csp.flatzinc import parse, solve

ONE_MACHINE = """\
array [1..2] of int: X_INTRODUCED_9_ = [1,-1];
var 0..20: a:: output_var;
var 0..20: b:: output_var;
var 0..20: c:: output_var;
var 0..20: end:: output_var;
var bool: X_1 ::var_is_introduced :: is_defined_var;
var bool: X_2 ::var_is_introduced :: is_defined_var;
var bool: X_3 ::var_is_introduced :: is_defined_var;
var bool: X_4 ::var_is_introduced :: is_defined_var;
var bool: X_5 ::var_is_introduced :: is_defined_var;
var bool: X_6 ::var_is_introduced :: is_defined_var;
constraint array_bool_or([X_1,X_2],true);
constraint array_bool_or([X_3,X_4],true);
constraint array_bool_or([X_5,X_6],true);
constraint int_lin_le_reif(X_INTRODUCED_9_,[a,b],-3,X_1):: defines_var(X_1);
constraint int_lin_le_reif(X_INTRODUCED_9_,[b,a],-2,X_2):: defines_var(X_2);
constraint int_lin_le_reif([1,-1],[a,c],-3,X_3):: defines_var(X_3);
constraint int_lin_le_reif([1,-1],[c,a],-4,X_4):: defines_var(X_4);
constraint int_lin_le_reif(X_INTRODUCED_9_,[b,c],-2,X_5):: defines_var(X_5);
constraint int_lin_le_reif(X_INTRODUCED_9_,[c,b],-4,X_6):: defines_var(X_6);
constraint int_lin_le([1,-1],[a,end],-3);
constraint int_lin_le([1,-1],[b,end],-2);
constraint int_lin_le([1,-1],[c,end],-4);
constraint int_le(2,c);
solve minimize end;
"""


def kinds(text: str) -> Counter[str]:
    return Counter(type(c).__name__ for c in parse(text).model.constraints.values())


def best(text: str) -> str:
    out = io.StringIO()
    solve(parse(text), out=out)
    return out.getvalue()


def test_three_tasks_pairwise_apart_are_one_machine_and_its_optimum_holds() -> None:
    assert kinds(ONE_MACHINE) == Counter({"Linear": 4, "NoOverlap": 1})
    assert len(parse(ONE_MACHINE).model.decisions) == 4  # the six booleans are gone
    # c (4 long) starts at 2 at the earliest: a and b (5 in all) fit before or after it
    assert best(ONE_MACHINE).endswith("end = 9;\n----------\n==========\n")


def test_a_boolean_used_elsewhere_or_a_task_of_two_durations_keeps_the_disjunctions() -> None:
    used = ONE_MACHINE.replace(
        "constraint int_le(2,c);", "constraint int_le(2,c);\nconstraint bool_eq(X_1,true);"
    )
    assert kinds(used)["NoOverlap"] == 2  # the pair (a, b) stays as written, the rest a machine
    assert "a = 0;" in best(used) and best(used).endswith("end = 9;\n----------\n==========\n")
    twice = ONE_MACHINE.replace("[b,a],-2,X_2", "[b,a],-5,X_2")
    assert kinds(twice)["NoOverlap"] == 0 and kinds(twice)["Truth"] == 6
