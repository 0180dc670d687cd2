"""lazyfun.csp.flatzinc: FlatZinc read into a Model, solved, written in the FlatZinc protocol."""

from __future__ import annotations

import io
import itertools
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.csp.flatzinc import BUILTINS, FlatZincError, parse, run, solve
from lazyfun.csp.flatzinc.bounds import Bounds, implied
from lazyfun.csp.flatzinc.text import Parser


def answers(text: str, *, all_solutions: bool = False, time_limit: float | None = None) -> str:
    out = io.StringIO()
    solve(parse(text), all_solutions=all_solutions, time_limit=time_limit, out=out)
    return out.getvalue()


def solutions(text: str) -> list[dict[str, str]]:
    """Every solution printed with -a, as name -> the text of its value."""
    found: list[dict[str, str]] = []
    current: dict[str, str] = {}
    for line in answers(text, all_solutions=True).splitlines():
        if line == "----------":
            found.append(current)
            current = {}
        elif " = " in line:
            name, value = line.rstrip(";").split(" = ", 1)
            current[name] = value
    return found


def queens(n: int) -> str:
    lines = [f"var 1..{n}: X_INTRODUCED_{i}_;" for i in range(n)]
    names = ",".join(f"X_INTRODUCED_{i}_" for i in range(n))
    lines.append(f"array [1..{n}] of var int: q:: output_array([1..{n}]) = [{names}];")
    lines.append("array [1..2] of int: X_INTRODUCED_100_ = [1,-1];")
    lines.append("constraint all_different_int(q);")
    for i in range(n):
        for j in range(i + 1, n):
            pair = f"[X_INTRODUCED_{i}_,X_INTRODUCED_{j}_]"
            lines.append(f"constraint int_lin_ne(X_INTRODUCED_100_,{pair},{i - j});")
            lines.append(f"constraint int_lin_ne(X_INTRODUCED_100_,{pair},{j - i});")
    lines.append("solve :: int_search(q,input_order,indomain_min,complete) satisfy;")
    return "\n".join(lines) + "\n"


def test_queens_8_has_92_solutions_each_in_the_protocol() -> None:
    text = answers(queens(8), all_solutions=True)
    assert text.count("----------\n") == 92
    assert text.endswith("----------\n==========\n")
    first = text.split("----------")[0].strip()
    assert first.startswith("q = array1d(1..8, [") and first.endswith("]);")
    assert answers(queens(8)).count("----------") == 1  # without -a, one and no ==========
    assert "==========" not in answers(queens(8))


SEND_MORE = """\
% SEND + MORE = MONEY, as minizinc -c writes it
array [1..2] of int: X_INTRODUCED_9_ = [1,-1];
array [1..8] of int: X_INTRODUCED_10_ = [1000,91,-90,-9000,-900,10,1,-1];
var 1..9: S:: output_var;
var 0..9: E:: output_var;
var 0..9: N:: output_var;
var 0..9: D:: output_var;
var 1..9: M:: output_var;
var 0..9: O:: output_var;
var 0..9: R:: output_var;
var 0..9: Y:: output_var;
array [1..8] of var int: X_INTRODUCED_8_ ::var_is_introduced  = [S,E,N,D,M,O,R,Y];
constraint all_different_int(X_INTRODUCED_8_);
constraint int_lin_eq(X_INTRODUCED_10_,[S,E,N,M,O,R,D,Y],0);
solve  satisfy;
"""


def test_send_more_money_has_its_unique_answer() -> None:
    assert solutions(SEND_MORE) == [
        {"S": "9", "E": "5", "N": "6", "D": "7", "M": "1", "O": "0", "R": "8", "Y": "2"}
    ]


WEIGHTS, VALUES, CAPACITY = [5, 4, 6, 3, 7], [10, 40, 30, 50, 35], 12


def knapsack() -> str:
    n = len(WEIGHTS)
    lines = [f"array [1..{n}] of int: w = [{','.join(map(str, WEIGHTS))}];"]
    lines.append(f"array [1..{n + 1}] of int: v = [{','.join(map(str, VALUES))},-1];")
    lines += [f"var bool: take_{i}:: output_var;" for i in range(n)]
    lines += [f"var 0..1: t_{i} ::var_is_introduced :: is_defined_var;" for i in range(n)]
    lines.append("var int: value:: output_var :: is_defined_var;")
    ts = ",".join(f"t_{i}" for i in range(n))
    lines += [f"constraint bool2int(take_{i},t_{i}):: defines_var(t_{i});" for i in range(n)]
    lines.append(f"constraint int_lin_le(w,[{ts}],{CAPACITY});")
    lines.append(f"constraint int_lin_eq(v,[{ts},value],0):: defines_var(value);")
    lines.append("solve  maximize value;")
    return "\n".join(lines) + "\n"


def best_knapsack() -> int:
    return max(
        sum(v for v, t in zip(VALUES, take, strict=True) if t)
        for take in itertools.product([0, 1], repeat=len(WEIGHTS))
        if sum(w for w, t in zip(WEIGHTS, take, strict=True) if t) <= CAPACITY
    )


def test_a_knapsack_reaches_its_optimum_and_says_it_is_proved() -> None:
    model = parse(knapsack()).model  # each bool2int's integer is its boolean
    assert (len(model.decisions), len(model.constraints)) == (len(WEIGHTS) + 1, 2)
    text = answers(knapsack())
    assert text.endswith("----------\n==========\n")
    assert text.count("----------") == 1
    assert f"value = {best_knapsack()};" in text
    assert "take_3 = true;" in text
    improving = answers(knapsack(), all_solutions=True)
    values = [int(line[8:-1]) for line in improving.splitlines() if line.startswith("value = ")]
    assert values == sorted(set(values)) and values[-1] == best_knapsack()
    assert improving.endswith("==========\n")


def test_an_unsatisfiable_model_says_so() -> None:
    text = "\n".join(
        [*(f"var 1..3: x{i};" for i in range(4)), "constraint all_different_int([x0,x1,x2,x3]);"]
    )
    assert answers(text + "\nsolve satisfy;\n") == "=====UNSATISFIABLE=====\n"
    assert answers("var 1..3: x;\nconstraint int_lt(2, 1);\nsolve satisfy;\n") == (
        "=====UNSATISFIABLE=====\n"
    )


REIFIED = """\
array [1..3] of int: table = [10,20,30];
var 0..3: x:: output_var;
var 0..3: y:: output_var;
var bool: le:: output_var;
var bool: ne:: output_var;
var bool: inset:: output_var;
var bool: either:: output_var;
var 10..30: z:: output_var;
var 1..3: i:: output_var;
var int: pick:: output_var :: is_defined_var;
array [1..3] of var int: vs = [x,y,3];
constraint int_le_reif(x,y,le);
constraint int_lin_ne_reif([1,1],[x,y],3,ne);
constraint set_in_reif(x,{0,2,3},inset);
constraint bool_or(le,inset,either);
constraint array_int_element(i,table,z);
constraint array_var_int_element(i,vs,pick):: defines_var(pick);
constraint bool_clause([le],[ne]);
solve satisfy;
"""


def test_reified_constraints_and_element_agree_with_brute_force() -> None:
    expected = []
    for x, y, i in itertools.product(range(4), range(4), range(1, 4)):
        le, ne, inset = x <= y, x + y != 3, x in (0, 2, 3)
        if not (le or not ne):
            continue
        row = {"x": x, "y": y, "le": le, "ne": ne, "inset": inset, "either": le or inset}
        row |= {"z": [10, 20, 30][i - 1], "i": i, "pick": [x, y, 3][i - 1]}
        expected.append({k: str(v).lower() for k, v in row.items()})
    key = lambda d: sorted(d.items())  # noqa: E731
    assert sorted(solutions(REIFIED), key=key) == sorted(expected, key=key)


def test_div_and_mod_round_toward_zero() -> None:
    text = """\
var -7..7: a:: output_var;
var {-3,-2,2,3}: d:: output_var;
var -10..10: q:: output_var;
var -10..10: r:: output_var;
constraint int_div(a,d,q);
constraint int_mod(a,d,r);
var -7..7: q3:: output_var;
var -7..7: r3:: output_var;
constraint int_div(a,-3,q3);
constraint int_mod(a,-3,r3);
solve satisfy;
"""
    found = sorted(
        tuple(int(s[k]) for k in ("a", "d", "q", "r", "q3", "r3")) for s in solutions(text)
    )
    expected = []
    for a in range(-7, 8):
        for d in (-3, -2, 2, 3):
            q = int(a / d)
            q3 = int(a / -3)
            expected.append((a, d, q, a - d * q, q3, a + 3 * q3))
    assert found == sorted(expected)


def test_times_max_min_abs_plus_and_booleans() -> None:
    text = """\
var -2..2: x:: output_var;
var -2..2: y:: output_var;
var int: p:: output_var :: is_defined_var;
var int: big:: output_var :: is_defined_var;
var int: small:: output_var :: is_defined_var;
var int: size:: output_var :: is_defined_var;
var int: s:: output_var :: is_defined_var;
var bool: a:: output_var;
var bool: b:: output_var;
var bool: c:: output_var;
constraint int_times(x,y,p):: defines_var(p);
constraint int_max(x,y,big):: defines_var(big);
constraint int_min(x,y,small):: defines_var(small);
constraint int_abs(x,size):: defines_var(size);
constraint int_plus(x,y,s):: defines_var(s);
constraint bool_xor(a,b,c);
constraint bool_not(a,b);
constraint array_bool_or([a,b],true);
solve satisfy;
"""
    found = solutions(text)
    assert len(found) == 25 * 2
    for s in found:
        x, y = int(s["x"]), int(s["y"])
        assert (int(s["p"]), int(s["big"]), int(s["small"])) == (x * y, max(x, y), min(x, y))
        assert (int(s["size"]), int(s["s"])) == (abs(x), x + y)
        assert s["a"] != s["b"] and s["c"] == "true"


def test_a_bad_line_is_an_error_naming_it() -> None:
    with pytest.raises(
        FlatZincError, match=r"line 3: the builtin 'int_frobnicate' is not supported"
    ):
        parse("var 1..3: x;\nvar 1..3: y;\nconstraint int_frobnicate(x, y);\nsolve satisfy;\n")
    with pytest.raises(FlatZincError, match=r"line 2: expected ';'"):
        parse("var 1..3: x;\nconstraint int_le(x, 2)\nsolve satisfy;\n")
    with pytest.raises(FlatZincError, match=r"line 1: unknown name 'y'"):
        parse("constraint int_le(y, 2);\nsolve satisfy;\n")


def test_floats_set_variables_and_unbounded_integers_are_refused_with_the_reason() -> None:
    with pytest.raises(FlatZincError, match=r"line 2: floats are not supported"):
        parse("var 1..3: x;\nvar float: f;\nsolve satisfy;\n")
    with pytest.raises(FlatZincError, match=r"line 1: floats are not supported"):
        parse("var 0.0..1.5: f;\nsolve satisfy;\n")
    annotated = "var 1..3: x:: output_var;\nsolve :: restart_geometric(1.5, 100) satisfy;\n"
    assert answers(annotated) == "x = 1;\n----------\n"  # a float in an annotation is no float
    with pytest.raises(FlatZincError, match=r"line 1: set variables are not supported"):
        parse("var set of 1..3: s;\nsolve satisfy;\n")
    with pytest.raises(FlatZincError, match=r"line 1: var int free has no bounds"):
        parse("var int: free;\nsolve satisfy;\n")
    with pytest.raises(FlatZincError, match=r"line 1: wide spans 100,000,001 values"):
        parse("var 0..100000000: wide;\nsolve satisfy;\n")
    within = (
        "var int: w;\nconstraint int_le(0,w);\nconstraint int_le(w,100000000);\nsolve satisfy;\n"
    )
    with pytest.raises(
        FlatZincError, match=r"line 1: var int w .* its constraints give 0\.\.100000000"
    ):
        parse(within)


def test_an_integer_without_bounds_takes_those_its_linear_constraints_imply() -> None:
    # x >= 0, y >= 0 and x + y = 1: both in 0..1; then z - 2x <= 5 and -z <= 3: -3..7
    text = """var int: x:: output_var;
var int: y:: output_var;
var int: z:: output_var;
constraint int_le(0,x);
constraint int_le(0,y);
constraint int_lin_eq([1,1],[x,y],1);
constraint int_lin_le([1,-2],[z,x],5);
constraint int_lin_le([-1],[z],3);
solve satisfy;
"""
    items = Parser(text).items()
    assert implied(items, Bounds(items)) == {"x": (0, 1), "y": (0, 1), "z": (-3, 7)}
    domains = {d.name: (d.domain.low, d.domain.high) for d in parse(text).model.decisions}
    assert domains == {"x": (0, 1), "y": (0, 1), "z": (-3, 7)}
    found = {(s["x"], s["z"]) for s in solutions(text)}
    assert len(found) == 9 + 11  # z in -3..5 with x = 0, -3..7 with x = 1
    # w has an upper bound only: refused, naming it
    upper = text.replace("solve", "var int: w;\nconstraint int_lin_le([1,1],[w,x],4);\nsolve")
    with pytest.raises(FlatZincError, match=r"line 9: var int w has no bounds"):
        parse(upper)


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.tuples(st.lists(st.integers(-3, 3), min_size=2, max_size=2), st.integers(-4, 4)),
        min_size=1,
        max_size=4,
    )
)
def test_implied_bounds_keep_every_solution(rows: list[tuple[list[int], int]]) -> None:
    """Over x and y in -4..4 and a free z, rows a*x + b*z <= c: every (x, y, z) that
    satisfies them with z in -40..40 lies within the bounds found for z."""
    lines = ["var -4..4: x;", "var int: z;"]
    lines += [f"constraint int_lin_le([{a},{b}],[x,z],{c});" for (a, b), c in rows]
    items = Parser("\n".join([*lines, "solve satisfy;"])).items()
    found = implied(items, Bounds(items)).get("z")
    for x, z in itertools.product(range(-4, 5), range(-40, 41)):
        if all(a * x + b * z <= c for (a, b), c in rows) and found is not None:
            assert found[0] <= z <= found[1]


def test_every_builtin_the_brief_names_is_read() -> None:
    names = """int_eq int_ne int_le int_lt int_lin_eq int_lin_le int_lin_ne int_eq_reif int_ne_reif
    int_le_reif int_lt_reif int_lin_eq_reif int_lin_le_reif int_lin_ne_reif int_le_imp bool2int
    bool_eq bool_not bool_xor bool_and bool_or array_bool_and array_bool_or bool_clause
    array_int_element array_var_int_element array_bool_element array_var_bool_element int_times
    int_div int_mod int_max int_min int_abs int_plus set_in set_in_reif all_different_int"""
    assert set(names.split()) <= set(BUILTINS)


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.integers(-3, 3), min_size=1, max_size=3),
    st.integers(-6, 6),
    st.sampled_from(["le", "eq", "ne"]),
)
def test_int_lin_reified_against_brute_force(ks: list[int], c: int, op: str) -> None:
    n = len(ks)
    lines = [f"var -1..2: x{i}:: output_var;" for i in range(n)]
    lines.append("var bool: r:: output_var;")
    xs = ",".join(f"x{i}" for i in range(n))
    lines.append(f"constraint int_lin_{op}_reif([{','.join(map(str, ks))}],[{xs}],{c},r);")
    lines.append("solve satisfy;")
    found = sorted(tuple(s.values()) for s in solutions("\n".join(lines)))
    tests: dict[str, Callable[[int], bool]] = {
        "le": lambda t: t <= c,
        "eq": lambda t: t == c,
        "ne": lambda t: t != c,
    }
    test = tests[op]
    expected = sorted(
        (*map(str, v), str(test(sum(k * x for k, x in zip(ks, v, strict=True)))).lower())
        for v in itertools.product(range(-1, 3), repeat=n)
    )
    assert found == expected


def test_run_reads_a_file_and_the_module_runs_from_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "send.fzn"
    path.write_text(SEND_MORE)
    out = io.StringIO()
    run(str(path), out=out)
    assert out.getvalue().startswith("S = 9;\nE = 5;")
    done = subprocess.run(
        [sys.executable, "-m", "lazyfun.csp.flatzinc", str(path), "-a", "-t", "10000"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.endswith("Y = 2;\n----------\n==========\n")
    missing = subprocess.run(
        [sys.executable, "-m", "lazyfun.csp.flatzinc", str(tmp_path / "none.fzn")],
        capture_output=True,
        text=True,
    )
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1  # one line, no trace


def test_a_time_limit_without_a_solution_is_unknown() -> None:
    # 14 pigeons, 13 holes: no solution, and not proved in a millisecond
    holes = "\n".join(f"var 1..13: p{i};" for i in range(14))
    pigeons = ",".join(f"p{i}" for i in range(14))
    text = holes + f"\nconstraint int_lin_le([{','.join(['1'] * 14)}],[{pigeons}],1000);"
    text += "\n" + "\n".join(
        f"constraint int_ne(p{i},p{j});" for i in range(14) for j in range(i + 1, 14)
    )
    text += "\nsolve satisfy;\n"
    assert answers(text, time_limit=0.001) in ("=====UNKNOWN=====\n", "=====UNSATISFIABLE=====\n")


MODELS = {  # compiled with the standard library: the globals arrive decomposed
    "queens": """include "globals.mzn";
int: n = 6;
array[1..n] of var 1..n: q;
constraint all_different(q);
constraint all_different([q[i] + i | i in 1..n]);
constraint all_different([q[i] - i | i in 1..n]);
solve satisfy;
""",
    "send_more": """include "alldifferent.mzn";
var 1..9: S; var 0..9: E; var 0..9: N; var 0..9: D;
var 1..9: M; var 0..9: O; var 0..9: R; var 0..9: Y;
constraint alldifferent([S,E,N,D,M,O,R,Y]);
constraint 1000*S + 100*E + 10*N + D + 1000*M + 100*O + 10*R + E
  = 10000*M + 1000*O + 100*N + 10*E + Y;
solve satisfy;
""",
    "knapsack": """array[1..8] of int: w = [12, 7, 11, 8, 9, 6, 5, 14];
array[1..8] of int: v = [24, 13, 23, 15, 16, 11, 9, 30];
array[1..8] of var bool: take;
var 0..200: value;
constraint sum(i in 1..8)(w[i] * take[i]) <= 35;
constraint value = sum(i in 1..8)(v[i] * take[i]);
solve maximize value;
""",
    "globals": """include "globals.mzn";
array[1..5] of var 1..5: x;
array[1..5] of var 1..5: y;
array[1..4] of var 0..10: s;
var 0..3: c;
constraint inverse(x, y);
constraint circuit(x);
constraint lex_less(x, y);
constraint count(x, 3) = c;
constraint table([x[1], x[2]], [|2,3|3,4|4,5|2,4|]);
constraint cumulative(s, [2,3,2,1], [1,2,2,1], 3);
constraint global_cardinality(y, [1,2], [1,1]);
constraint regular([x[i] mod 2 + 1 | i in 1..5], 2, 2, [|1,2|2,1|], 1, {1,2});
var 0..20: goal;
constraint goal = max(i in 1..4)(s[i] + [2,3,2,1][i]);
solve minimize goal;
""",
    "jobshop": """array[1..3, 1..3] of int: mach = [|1,2,3|2,1,3|3,2,1|];
array[1..3, 1..3] of int: dur = [|3,2,2|2,4,1|3,3,2|];
array[1..3, 1..3] of var 0..21: s;
var 0..21: makespan;
constraint forall(j in 1..3, k in 1..2)(s[j,k] + dur[j,k] <= s[j,k+1]);
constraint forall(j in 1..3)(s[j,3] + dur[j,3] <= makespan);
constraint forall(m in 1..3, j1 in 1..3, j2 in j1+1..3, k1, k2 in 1..3
    where mach[j1,k1] = m /\\ mach[j2,k2] = m)(
  s[j1,k1] + dur[j1,k1] <= s[j2,k2] \\/ s[j2,k2] + dur[j2,k2] <= s[j1,k1]);
solve minimize makespan;
""",
    "arithmetic": """array[1..4] of int: t = [7, -3, 5, 0];
var -6..6: x; var -3..3: y; var 1..4: i; var 1..4: j;
array[1..4] of var -5..5: a;
var -40..40: goal;
constraint y != 0;
constraint x div y + x mod y = t[i] - a[j];
constraint abs(x) >= 2 \\/ (i = j);
constraint max(a) - min(a) <= 3 /\\ a[i] = x;
constraint x * y >= -6;
constraint i in {1, 3, 4} <-> x > 0;
constraint sum(k in 1..4)(bool2int(a[k] > 0)) = 2;
constraint goal = x + 2*y + sum(a);
solve minimize goal;
""",
}


def _compiled(tmp_path: Path, name: str) -> Path:
    model, fzn = tmp_path / f"{name}.mzn", tmp_path / f"{name}.fzn"
    model.write_text(MODELS[name])
    command = ["minizinc", "-c", "--solver", "org.minizinc.mzn-fzn", str(model), "--fzn", str(fzn)]
    subprocess.run(command, check=True, capture_output=True)
    return fzn


def _blocks(text: str) -> list[str]:
    """The solutions of a FlatZinc output, spaces left out, then its last line."""
    return text.replace(" ", "").split("----------\n")


@pytest.mark.skipif(shutil.which("minizinc") is None, reason="minizinc is not installed")
@pytest.mark.parametrize("name", sorted(MODELS))
def test_models_minizinc_compiles_agree_with_gecode(tmp_path: Path, name: str) -> None:
    fzn = _compiled(tmp_path, name)
    out = io.StringIO()
    run(str(fzn), all_solutions=True, out=out)
    gecode = subprocess.run(
        ["minizinc", "--solver", "gecode", "-a", str(fzn)], capture_output=True, text=True
    ).stdout
    ours, theirs = _blocks(out.getvalue()), _blocks(gecode)
    assert ours[-1] == theirs[-1] == "==========\n"
    if "satisfy" in MODELS[name]:
        assert sorted(ours) == sorted(theirs)
    else:  # the optimum: the goal's line in the last solution
        goal = "value" if name == "knapsack" else "makespan" if name == "jobshop" else "goal"
        found = [
            [x for x in b.splitlines() if x.startswith(goal + "=")] for b in (ours[-2], theirs[-2])
        ]
        assert found[0] == found[1] != []


def test_int_pow_statistics_and_free_search(tmp_path: Path) -> None:
    text = """\
var -3..3: x:: output_var;
var 0..4: y:: output_var;
var -30..30: z:: output_var;
var -30..30: cube:: output_var;
constraint int_pow(x,y,z);
constraint int_pow(x,3,cube);
solve :: int_search([y,x],input_order,indomain_min,complete) satisfy;
"""
    found = {(int(s["x"]), int(s["y"]), int(s["z"]), int(s["cube"])) for s in solutions(text)}
    expected = {(x, y, x**y, x**3) for x in range(-3, 4) for y in range(5) if abs(x**y) <= 30}
    assert found == expected
    # y and x as annotated, then the model's own variables (none introduced here)
    assert [d.name for d in parse(text).model.branching] == ["y", "x", "z", "cube"]
    assert parse(text, free_search=True).model.branching == []
    path = tmp_path / "pow.fzn"
    path.write_text(text)
    out = io.StringIO()
    run(str(path), out=out, statistics=True)
    shown = out.getvalue()
    assert "%%%mzn-stat: nodes=" in shown and "%%%mzn-stat-end\n" in shown
    assert "%%%mzn-stat: initTime=" in shown and "%%%mzn-stat: solveTime=" in shown


def test_half_reified_forms_only_imply() -> None:
    text = """\
var 0..3: x:: output_var;
var bool: r:: output_var;
var bool: p:: output_var;
var bool: q:: output_var;
constraint set_in_imp(x,{1,2},r);
constraint bool_or_imp(p,q,r);
solve satisfy;
"""
    found = {(s["x"], s["r"], s["p"], s["q"]) for s in solutions(text)}
    expected = {
        (str(x), str(r).lower(), str(p).lower(), str(q).lower())
        for x in range(4)
        for r in (False, True)
        for p in (False, True)
        for q in (False, True)
        if not r or (x in (1, 2) and (p or q))
    }
    assert found == expected


def test_a_variable_given_another_is_that_one_within_its_own_domain() -> None:
    text = "var 0..3: x:: output_var;\nvar 1..2: y:: output_var = x;\nsolve satisfy;\n"
    assert [(s["x"], s["y"]) for s in solutions(text)] == [("1", "1"), ("2", "2")]
    assert len(parse(text).model.decisions) == 1


def test_the_command_line_in_process_takes_every_flag_and_says_a_bad_file_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from lazyfun.csp.flatzinc import main

    path = tmp_path / "send.fzn"
    path.write_text(SEND_MORE)
    assert main([str(path), "-i", "-t", "10000", "-f", "-s", "-p", "4"]) == 0
    shown = capsys.readouterr()
    assert "Y = 2;\n----------\n==========\n" in shown.out
    assert "%%%mzn-stat" in shown.out
    assert "one worker only; -p 4 is ignored" in shown.err
    # with a time limit, clause learning has the last part (settled before: no nogood)
    assert main([str(path), "-t", "10000", "-s"]) == 0
    assert "%%%mzn-stat: nogoods=0\n" in capsys.readouterr().out
    assert main([str(path), "-t", "10000", "-s", "--alone"]) == 0
    alone = capsys.readouterr().out
    assert "Y = 2;\n----------\n" in alone and "nogoods" not in alone
    bad = tmp_path / "bad.fzn"
    bad.write_text("var 1..3: x;\nconstraint no_such_builtin(x);\nsolve satisfy;\n")
    assert main([str(bad)]) == 2
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and "no_such_builtin" in said[0] and "line 2" in said[0]
    assert main([str(tmp_path / "missing.fzn")]) == 2
    assert "missing.fzn" in capsys.readouterr().err


BAD = {
    "var 1..3: x;\nconstraint int_eq(x, 1) @;\nsolve satisfy;\n": "line 2: cannot read '@",
    "var 1..3: x\nsolve satisfy;\n": "line 1: expected ';', found 'solve' on line 2",
    "predicate foo(var int: x)": "line 1: a predicate item with no ';'",
    "var 1..3: x;\nsolve maximise x;\n": "line 2: solve maximise\\?",
    "array [int] of var 1..3: a;\nsolve satisfy;\n": "an array indexed by 'int'",
    "var set of 1..3: s;\nsolve satisfy;\n": "set variables are not supported",
    "var set of int: s;\nsolve satisfy;\n": "set variables are not supported",
    "var 1..3: x;\nconstraint int_eq(x, );\nsolve satisfy;\n": "line 2: an expression, found '\\)'",
    "array [1..2] of int: a = [1,2];\nvar 1..3: x;\nconstraint int_eq(x, a[3]);\n": (
        "line 3: a\\[3\\] is not an element of an array"
    ),
    "var 1..3: x;\nconstraint int_lin_eq([1,2],[x],3);\nsolve satisfy;\n": "differ in length",
    "var 1..3: x;\nvar 1..3: y;\nconstraint int_lin_eq([1,y],[x,x],3);\nsolve satisfy;\n": (
        "line 3: a linear constraint's coefficients must be numbers"
    ),
    'var 1..3: x;\nconstraint int_eq(x, "s");\nsolve satisfy;\n': "line 2: cannot use 's' here",
    "var 1.0..2.0: f;\nsolve satisfy;\n": "line 1: floats are not supported",
    "var 1..3: x;\nconstraint array_bool_or(x, true);\nsolve satisfy;\n": "expected an array",
    "var 1..3: x;\nconstraint set_in(x, 3);\nsolve satisfy;\n": "expected a set of integers",
    "var 1..3: x;\nconstraint int_eq(x, y);\nsolve satisfy;\n": "line 2: unknown name 'y'",
    "var {}: x;\nsolve satisfy;\n": "line 1: x has an empty domain",
    "var 1..3: x; % x\n%\nconstraint int_eq(x, -);\n": "line 3: cannot read '-\\);",
    "var 1..3: x;\nconstraint int_eq(x, 1). ;\n": "line 2: cannot read '\\. ;",
    'var 1..3: x;\n\nconstraint int_eq(x, "s);\n': "line 3: cannot read '\"s\\);",
    "var 1..3: _;\n": "line 1: cannot read '_;",
    "var 1..3: x;\nvar 1..3: y;  # z\n": "line 2: cannot read '# z",
    "var 1..3: é;\n": "line 1: cannot read 'é;",
    "var 1..٣: x;\n": "line 1: cannot read '٣: x;",
}


@pytest.mark.parametrize("text", sorted(BAD))
def test_each_mistake_is_a_flatzinc_error_at_its_line(text: str) -> None:
    with pytest.raises(FlatZincError, match=BAD[text]):
        solve(parse(text), out=io.StringIO())


def test_literals_parameters_and_constant_reifications_are_read() -> None:
    octal = "predicate p(var int: x);\nvar 0x1..0o7: x :: output_var;\n"
    assert answers(octal + "constraint int_eq(x, 0x3);\nsolve satisfy;\n", all_solutions=True) == (
        "x = 3;\n----------\n==========\n"
    )
    indexed = "array [1..2] of int: a = [1,2];\nvar 1..3: x :: output_var;\n"
    assert answers(
        indexed + "constraint int_eq(x, a[2]);\nsolve satisfy;\n", all_solutions=True
    ) == ("x = 2;\n----------\n==========\n")
    reified = (
        "var bool: b :: output_var;\nvar 1..3: x :: output_var;\n"
        "constraint int_le_reif(x, 2, b);\nconstraint bool_eq(b, true);\n"
        "constraint int_eq_imp(x, 1, true);\nsolve satisfy;\n"
    )
    assert answers(reified, all_solutions=True) == "b = true;\nx = 1;\n----------\n==========\n"
    false = "var 1..3: x :: output_var;\nconstraint int_le_reif(x, 2, false);\nsolve satisfy;\n"
    assert answers(false, all_solutions=True) == "x = 3;\n----------\n==========\n"
    constant = "var bool: b :: output_var;\nconstraint int_le_reif(1, 2, b);\nsolve satisfy;\n"
    assert answers(constant, all_solutions=True) == "b = true;\n----------\n==========\n"
    assert answers("constraint int_le(3, 2);\nsolve satisfy;\n") == "=====UNSATISFIABLE=====\n"


def test_a_goal_minizinc_has_made_a_number_is_proved_at_its_first_solution() -> None:
    text = "var 1..3: x :: output_var;\nconstraint int_le(2, x);\nsolve minimize 7;\n"
    assert answers(text) == "x = 2;\n----------\n==========\n"
