"""lazyfun as a MiniZinc solver: models compiled against its mznlib agree with Gecode.

Each model is compiled twice by minizinc: for lazyfun (``--solver`` our configuration,
so the globals lazyfun has propagators for arrive whole) and against the standard
library alone, which Gecode solves (Debian's Gecode cannot compile ``globals.mzn``
itself).  The satisfaction models' solutions (all of them) and the optimisation
models' optima must agree.  Skipped when minizinc is not installed.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest

from lazyfun.csp.examples import MSF_PUZZLE
from lazyfun.csp.flatzinc import parse, solve
from lazyfun.csp.flatzinc.bounds import Bounds
from lazyfun.csp.flatzinc.patterns import bins
from lazyfun.csp.flatzinc.solver_config import install
from lazyfun.csp.flatzinc.text import Parser
from lazyfun.csp.modelling.model import Learning

pytestmark = pytest.mark.skipif(
    shutil.which("minizinc") is None, reason="minizinc is not installed"
)

SUDOKU = f"""include "alldifferent.mzn";
array[1..9, 1..9] of int: given = array2d(1..9, 1..9, [{", ".join(MSF_PUZZLE)}]);
array[1..9, 1..9] of var 1..9: cell;
constraint forall(r, c in 1..9 where given[r, c] > 0)(cell[r, c] = given[r, c]);
constraint forall(r in 1..9)(alldifferent([cell[r, c] | c in 1..9]));
constraint forall(c in 1..9)(alldifferent([cell[r, c] | r in 1..9]));
constraint forall(br, bc in 0..2)(
  alldifferent([cell[3 * br + r, 3 * bc + c] | r, c in 1..3]));
solve satisfy;
"""

MODELS = {
    "sudoku": SUDOKU,
    "queens": """include "alldifferent.mzn";
int: n = 6;
array[1..n] of var 1..n: q;
constraint alldifferent(q);
constraint alldifferent([q[i] + i | i in 1..n]);
constraint alldifferent([q[i] - i | i in 1..n]);
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
    "jobshop": """include "disjunctive.mzn";
array[1..3, 1..3] of int: mach = [|1,2,3|2,1,3|3,2,1|];
array[1..3, 1..3] of int: dur = [|3,2,2|2,4,1|3,3,2|];
array[1..3, 1..3] of var 0..21: s;
var 0..21: makespan;
constraint forall(j in 1..3, k in 1..2)(s[j,k] + dur[j,k] <= s[j,k+1]);
constraint forall(j in 1..3)(s[j,3] + dur[j,3] <= makespan);
constraint forall(m in 1..3)(disjunctive(
  [s[j,k] | j, k in 1..3 where mach[j,k] = m], [dur[j,k] | j, k in 1..3 where mach[j,k] = m]));
solve minimize makespan;
""",
    "knapsack": """array[1..8] of int: w = [12, 7, 11, 8, 9, 6, 5, 14];
array[1..8] of int: v = [24, 13, 23, 15, 16, 11, 9, 30];
array[1..8] of var bool: take;
var 0..200: value;
constraint sum(i in 1..8)(w[i] * take[i]) <= 35;
constraint value = sum(i in 1..8)(v[i] * take[i]);
solve maximize value;
""",
    "cumulative": """include "cumulative.mzn";
array[1..5] of int: d = [3, 2, 4, 2, 3];
array[1..5] of int: r = [2, 1, 2, 3, 1];
array[1..5] of var 0..14: s;
var 0..14: makespan;
constraint cumulative(s, d, r, 3);
constraint s[1] + d[1] <= s[3] /\\ s[2] + d[2] <= s[4];
constraint forall(i in 1..5)(s[i] + d[i] <= makespan);
solve minimize makespan;
""",
    "table": """include "table.mzn";
array[1..3] of var 0..4: x;
constraint table(x, [|0,1,2|1,2,3|2,3,4|4,0,0|3,3,3|1,1,4|]);
constraint x[1] + x[3] >= 3;
solve satisfy;
""",
    "element": """include "element.mzn";
array[1..5] of int: a = [9, 4, 7, 4, 1];
var 1..5: i; var 1..5: j; var 0..9: x;
constraint element(i, a, x) /\\ x = a[j] + 0 /\\ i != j;
solve satisfy;
""",
    "inverse": """include "inverse.mzn";
array[1..4] of var 1..4: f;
array[1..4] of var 1..4: g;
constraint inverse(f, g) /\\ f[1] != 1 /\\ g[2] < 3;
solve satisfy;
""",
    "circuit": """include "circuit.mzn";
int: n = 6;
array[1..n, 1..n] of int: dist = [|0,3,9,4,7,5|3,0,6,8,2,9|9,6,0,3,5,4|
                                   4,8,3,0,6,2|7,2,5,6,0,8|5,9,4,2,8,0|];
array[1..n] of var 1..n: next;
var 0..100: length;
constraint length = sum(i in 1..n)(dist[i, next[i]]);
constraint circuit(next);
solve minimize length;
""",
    "lex": """include "lex_less.mzn";
array[1..3] of var 0..2: x;
array[1..3] of var 0..2: y;
constraint lex_less(x, y) /\\ sum(x) = 3 /\\ sum(y) = 3;
solve satisfy;
""",
    "count_among": """include "count.mzn"; include "among.mzn";
array[1..5] of var 1..3: x;
var 0..5: c;
constraint count(x, 2) = c /\\ c >= 2;
constraint among(2, x, {1, 3});
constraint x[1] <= x[2] /\\ x[2] <= x[3];
solve satisfy;
""",
    "bin_packing": """include "bin_packing.mzn";
array[1..5] of int: w = [4, 3, 3, 2, 2];
array[1..5] of var 1..3: bin;
constraint bin_packing(6, bin, w);
constraint bin[1] = 1;
solve satisfy;
""",
    "cutstock": """array[1..2] of int: length = [6, 5];
array[1..2] of int: demand = [3, 3];
array[1..6] of var 0..1: used;
array[1..6, 1..2] of var 0..3: cut;
constraint forall(i in 1..2)(sum(k in 1..6)(cut[k, i]) >= demand[i]);
constraint forall(k in 1..6)(sum(i in 1..2)(cut[k, i] * length[i]) <= used[k] * 10);
var 0..6: bins;
constraint bins = sum(used);
solve minimize bins;
""",
    "levels": """array[1..4] of int: w = [6, 5, 4, 3];
array[1..4, 1..4] of var int: x;
constraint forall(i, j in 1..4)(x[i, j] >= 0);
constraint forall(j in 1..4)(sum(i in 1..4)(x[i, j]) = 1);
constraint forall(i in 1..4)(sum(j in 1..4)(w[j] * x[i, j]) <= 10 * x[i, i]);
var 0..4: levels;
constraint levels = sum(i in 1..4)(x[i, i]);
solve minimize levels;
""",
}
GOALS = {
    "jobshop": "makespan",
    "knapsack": "value",
    "cumulative": "makespan",
    "circuit": "length",
    "cutstock": "bins",
    "levels": "levels",
}


@pytest.fixture(scope="module")
def msc(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Our solver configuration, written where the test can find it."""
    return install(tmp_path_factory.mktemp("solvers"))


def _compiled(folder: Path, name: str, solver: str) -> str:
    model, fzn = folder / f"{name}.mzn", folder / f"{name}.{Path(solver).stem}.fzn"
    model.write_text(MODELS[name])
    command = ["minizinc", "-c", "--solver", solver, str(model), "--fzn", str(fzn)]
    subprocess.run(command, check=True, capture_output=True)
    return fzn.read_text()


def _blocks(text: str) -> list[str]:
    """The solutions of a FlatZinc output (spaces left out), then its last line."""
    return text.replace(" ", "").split("----------\n")


def _goal(block: str, goal: str) -> str:
    (line,) = [x for x in block.splitlines() if x.startswith(goal + "=")]
    return line


@pytest.mark.parametrize("learn", [False, "clauses"])
@pytest.mark.parametrize("name", sorted(MODELS))
def test_our_mznlib_and_gecode_agree(tmp_path: Path, msc: Path, name: str, learn: Learning) -> None:
    """Searched depth-first and with lazy clause generation (every global's propagator
    explained by its scope, its bounds or its support)."""
    ours_fzn = _compiled(tmp_path, name, str(msc))
    standard = tmp_path / f"{name}.std.fzn"
    standard.write_text(_compiled(tmp_path, name, "org.minizinc.mzn-fzn"))
    gecode = ["minizinc", "--solver", "gecode", "-a", str(standard)]
    theirs = _blocks(subprocess.run(gecode, capture_output=True, text=True, check=True).stdout)
    out = io.StringIO()
    solve(parse(ours_fzn), all_solutions=True, out=out, learn=learn)
    ours = _blocks(out.getvalue())
    assert ours[-1] == theirs[-1] == "==========\n"
    if name in GOALS:
        assert _goal(ours[-2], GOALS[name]) == _goal(theirs[-2], GOALS[name])
    else:
        assert sorted(ours) == sorted(theirs)
        assert len(ours) > 1


def test_the_globals_arrive_whole(tmp_path: Path, msc: Path) -> None:
    """With our mznlib, the globals lazyfun has propagators for are single constraints."""
    found = {
        name: {
            line.split("(")[0].split()[-1]
            for line in _compiled(tmp_path, name, str(msc)).splitlines()
            if line.startswith("constraint ")
        }
        for name in ("queens", "jobshop", "cumulative", "table", "circuit", "inverse")
    }
    assert "fzn_all_different_int" in found["queens"]
    assert "lazyfun_disjunctive" in found["jobshop"]
    assert "lazyfun_cumulative" in found["cumulative"]
    assert "lazyfun_table_int" in found["table"]
    assert found["circuit"] >= {"lazyfun_circuit"}
    assert "lazyfun_all_different_domain" in found["inverse"]


def test_a_cutting_stock_arrives_as_a_bin_packing(tmp_path: Path, msc: Path) -> None:
    """Its capacity and demand rows read together: 33 fills 4 bins, but no 6 shares one."""
    items = Parser(_compiled(tmp_path, "cutstock", str(msc))).items()
    assert bins(items, Bounds(items)).counts == [(["bins"], 5)]


def test_the_whole_standard_library_compiles_against_our_mznlib(tmp_path: Path, msc: Path) -> None:
    model = tmp_path / "all.mzn"
    model.write_text('include "globals.mzn";\nvar 1..3: x;\nsolve satisfy;\n')
    command = [
        "minizinc",
        "-c",
        "--solver",
        str(msc),
        str(model),
        "--fzn",
        str(tmp_path / "all.fzn"),
    ]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_minizinc_runs_lazyfun_with_its_flags(tmp_path: Path, msc: Path) -> None:
    model = tmp_path / "knapsack.mzn"
    model.write_text(MODELS["knapsack"] + 'output ["value = \\(value)\\n"];\n')

    def run(*flags: str) -> subprocess.CompletedProcess[str]:
        command = ["minizinc", "--solver", str(msc), *flags, str(model)]
        return subprocess.run(command, capture_output=True, text=True, check=True)

    assert run().stdout == "value = 70\n----------\n==========\n"
    intermediate = run("-i", "-s", "-p", "2", "-t", "20000")
    values = [
        int(line.split("= ")[1])
        for line in intermediate.stdout.splitlines()
        if line.startswith("value")
    ]
    assert values[-1] == 70 and values == sorted(set(values)) and len(values) > 2
    assert "%%%mzn-stat: nodes=" in intermediate.stdout
    assert "%%%mzn-stat: failures=" in intermediate.stdout
    assert "one worker only; -p 2 is ignored" in intermediate.stderr
    assert run("-f").stdout == "value = 70\n----------\n==========\n"
    learnt = run("--clauses", "-s")
    assert "\nvalue = 70\n----------\n==========\n" in learnt.stdout
    assert "%%%mzn-stat: nogoods=" in learnt.stdout


def test_set_variables_become_booleans_and_agree_with_gecode(tmp_path: Path, msc: Path) -> None:
    model = tmp_path / "sets.mzn"
    model.write_text(
        "var set of 1..5: s;\nvar set of 1..5: t;\n"
        "constraint card(s) = 2 /\\ 1 in s /\\ s intersect t = {} /\\ card(t) >= 2;\n"
        "solve satisfy;\n"
    )

    def every(*solver: str) -> list[str]:
        command = ["minizinc", *solver, "-a", str(model)]
        out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        return sorted(out.split("----------\n"))

    ours = every("--solver", str(msc))
    assert ours == every("--solver", "gecode") and len(ours) == 17  # 4 * 4 solutions, then =====
