"""``lazyfun csp``: FlatZinc and MiniZinc models solved from the command line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lazyfun.cli import app

SEND_MORE = """include "alldifferent.mzn";
var 1..9: S; var 0..9: E; var 0..9: N; var 0..9: D;
var 1..9: M; var 0..9: O; var 0..9: R; var 0..9: Y;
constraint alldifferent([S,E,N,D,M,O,R,Y]);
constraint 1000*S + 100*E + 10*N + D + 1000*M + 100*O + 10*R + E
  = 10000*M + 1000*O + 100*N + 10*E + Y;
solve satisfy;
output ["\\(S)\\(E)\\(N)\\(D) + \\(M)\\(O)\\(R)\\(E) = \\(M)\\(O)\\(N)\\(E)\\(Y)\\n"];
"""
KNAPSACK = """int: n;
array[1..n] of int: w;
array[1..n] of int: v;
int: capacity;
array[1..n] of var bool: take;
var int: value = sum(i in 1..n)(v[i] * take[i]);
constraint sum(i in 1..n)(w[i] * take[i]) <= capacity;
solve maximize value;
output ["value = \\(value)\\n"];
"""
KNAPSACK_DATA = "n = 5; w = [4, 3, 5, 2, 6]; v = [7, 5, 9, 3, 10]; capacity = 10;\n"
FZN = """var 1..3: x:: output_var;
var 1..3: y:: output_var;
constraint int_lt(x, y);
solve maximize y;
"""
minizinc = pytest.mark.skipif(shutil.which("minizinc") is None, reason="minizinc is not installed")


def test_a_flatzinc_file_is_solved_in_the_flatzinc_protocol(tmp_path: Path) -> None:
    model = tmp_path / "m.fzn"
    model.write_text(FZN)
    done = CliRunner().invoke(app, ["csp", "solve", str(model)])
    assert done.exit_code == 0
    assert done.output == "x = 1;\ny = 3;\n----------\n==========\n"
    every = CliRunner().invoke(app, ["csp", "solve", str(model), "-a", "-s", "-t", "5000"])
    assert every.output.count("----------") >= 1 and "%%%mzn-stat: nodes=" in every.output


@minizinc
def test_a_minizinc_model_and_its_data_go_through_minizinc(tmp_path: Path) -> None:
    (tmp_path / "send.mzn").write_text(SEND_MORE)
    (tmp_path / "k.mzn").write_text(KNAPSACK)
    (tmp_path / "k.dzn").write_text(KNAPSACK_DATA)
    runner = CliRunner()
    send = runner.invoke(app, ["csp", "solve", str(tmp_path / "send.mzn")])
    assert send.exit_code == 0 and send.output == "9567 + 1085 = 10652\n----------\n"
    best = runner.invoke(app, ["csp", "solve", str(tmp_path / "k.mzn"), str(tmp_path / "k.dzn")])
    assert (
        best.exit_code == 0 and best.output == "value = 17\n----------\n==========\n"
    )  # as Gecode


@pytest.mark.parametrize(
    ("name", "text", "said"),
    [
        ("gone.fzn", None, "gone.fzn: no such file"),
        ("bad.fzn", "var 1..x: y;\n", "line 1: expected an int, found 'x'"),
        ("model.txt", "", "model.txt: expected a .fzn file, or a .mzn model with its .dzn data"),
        ("floats.fzn", "var float: x;\nsolve satisfy;\n", "line 1: floats are not supported"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    tmp_path: Path, name: str, text: str | None, said: str
) -> None:
    path = tmp_path / name
    if text is not None:
        path.write_text(text)
    done = CliRunner().invoke(app, ["csp", "solve", str(path)])
    assert done.exit_code == 2
    assert done.output.count("\n") == 1 and said in done.output
    assert done.exception is None or isinstance(done.exception, SystemExit)


@minizinc
def test_a_model_minizinc_refuses_is_its_error_in_one_line(tmp_path: Path) -> None:
    model = tmp_path / "bad.mzn"
    model.write_text("var 1..3: x;\nconstraint foo(x);\n")
    done = CliRunner().invoke(app, ["csp", "solve", str(model)])
    assert done.exit_code == 2
    assert (
        done.output.startswith("lazyfun: minizinc: Error: type error")
        and done.output.count("\n") == 1
    )


def test_without_minizinc_a_model_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = tmp_path / "m.mzn"
    model.write_text(SEND_MORE)
    monkeypatch.setattr(shutil, "which", lambda name: None)
    done = CliRunner().invoke(app, ["csp", "solve", str(model)])
    assert (
        done.exit_code == 2
        and "needs minizinc to compile it, and it is not installed" in done.output
    )


def test_install_solver_writes_the_configuration_and_its_program(tmp_path: Path) -> None:
    done = CliRunner().invoke(app, ["csp", "install-solver", "--to", str(tmp_path)])
    assert done.exit_code == 0
    config = json.loads((tmp_path / "lazyfun.msc").read_text())
    assert config["id"] == "org.lazyfun.lazyfun" and Path(config["mznlib"]).is_dir()
    program = Path(config["executable"])
    assert program == (tmp_path / "lazyfun-fzn").resolve() and program.stat().st_mode & 0o111
    assert "-m lazyfun.csp.flatzinc" in program.read_text()
