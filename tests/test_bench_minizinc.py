"""The MiniZinc bench's set: the 39 chosen by hand, then one instance a problem drawn by a
fixed seeded rule over a folder with the benchmarks repository's layout (here a fake one,
built in ``tmp_path``; minizinc's acceptance stands in as a function)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import bench_minizinc as bench
from benchmarks.bench_minizinc import INSTANCES, TARGET, Outcome, grown

SOLVING = "var 1..3: x;\nconstraint x > 1;\nsolve minimize x;\n"
INCLUDED = "var 0..1: z;\nsolve :: int_search([z], input_order, indomain_min) maximize z;\n"
GENERIC = [f"p{i:02}" for i in range(25)]  # enough problems to pass TARGET


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def _fake_repository(root: Path, generic: list[str] = GENERIC) -> Path:
    """The 39's problems (each with a second model, which must not be drawn), problems the
    rule must skip, and ``generic`` problems of a model and data files."""
    for model, data in INSTANCES:
        _write(root / model, SOLVING)
        _write(root / model.split("/")[0] / "another.mzn", SOLVING)
        if data:
            _write(root / data, "")
    _write(root / "a-alone" / "alone.mzn", "var bool: b;\nsolve satisfy;\n")
    _write(root / "b-data" / "m.mzn", "int: n;\nvar 1..n: x;\nsolve maximize x;\n")
    for name in ("d1", "d2", "sub/d3"):
        _write(root / "b-data" / f"{name}.dzn", "n = 3;\n")
    no_solve = "var 1..3: x; % ; solve satisfy;\n/*\nsolve maximize x;\n*/\noutput [];\n"
    _write(root / "c-none" / "m.mzn", no_solve)
    _write(root / "c-none" / "d.dzn", "")
    _write(root / "d-include" / "m.mzn", 'include "core.mzn.model";\nconstraint true;\n')
    _write(root / "d-include" / "core.mzn.model", INCLUDED)
    _write(root / "e-files" / "d.dzn", "n = 1;\n")
    _write(root / ".hidden" / "m.mzn", SOLVING)
    _write(root / "top.mzn", SOLVING)
    for problem in generic:
        _write(
            root / problem / "model.mzn",
            "int: n;\nvar 1..n: x;\nconstraint x > 0; solve satisfy;\n",
        )
        for i in range(6):
            _write(root / problem / f"data{i}.dzn", f"n = {i + 1};\n")
    return root


def _all(model: Path, data: Path | None) -> bool:
    return True


def _problem(instance: tuple[str, str | None]) -> str:
    return instance[0].split("/")[0]


def test_the_39_come_first_as_they_are_then_one_instance_a_problem_up_to_the_target(
    tmp_path: Path,
) -> None:
    found = grown(_fake_repository(tmp_path), _all)
    assert found.instances[: len(INSTANCES)] == INSTANCES
    assert len(found.instances) == TARGET == 60
    problems = [_problem(i) for i in found.instances]
    assert len(set(problems)) == len(problems)
    # sorted order: the three special problems that solve, then p00.. until 60
    drawn = problems[len(INSTANCES) :]
    assert drawn == ["a-alone", "b-data", "d-include", *GENERIC[:18]]
    assert (found.drawn, found.problems, found.refused) == (21, 21, [])


def test_problems_without_a_model_that_solves_are_skipped_and_includes_are_followed(
    tmp_path: Path,
) -> None:
    found = grown(_fake_repository(tmp_path), _all)
    drawn = dict(found.instances[len(INSTANCES) :])
    assert drawn["a-alone/alone.mzn"] is None
    assert "d-include/m.mzn" in drawn  # its solve item is in the file it includes
    problems = {_problem(i) for i in found.instances}
    assert not problems & {"c-none", "e-files", ".hidden", "top.mzn"}


def test_with_fewer_problems_than_the_target_all_are_taken_and_the_target_is_a_parameter(
    tmp_path: Path,
) -> None:
    few = grown(_fake_repository(tmp_path / "few", GENERIC[:5]), _all)
    assert len(few.instances) == len(INSTANCES) + 3 + 5
    assert len(grown(_fake_repository(tmp_path / "all"), _all, target=45).instances) == 45
    assert grown(tmp_path / "nowhere", _all).instances == INSTANCES


def test_the_draw_is_fixed_not_the_first_pair_and_one_problem_does_not_move_another(
    tmp_path: Path,
) -> None:
    first = grown(_fake_repository(tmp_path / "a"), _all).instances
    again = grown(_fake_repository(tmp_path / "b", list(reversed(GENERIC))), _all).instances
    assert first == again  # created in another order, read in sorted order
    generic = [i for i in first if _problem(i) in GENERIC]
    assert all(m.endswith("/model.mzn") for m, _ in generic)
    assert len({d for _, d in generic}) > 2  # drawn: not the same (first sorted) pair each time
    pairs = [None, "b-data/d1.dzn", "b-data/d2.dzn", "b-data/sub/d3.dzn"]
    assert next(i for i in first if _problem(i) == "b-data") in [("b-data/m.mzn", d) for d in pairs]
    for i in range(6, 40):  # another problem's files change
        _write(tmp_path / "b" / "b-data" / f"more{i}.dzn", "n = 2;\n")
    moved = grown(tmp_path / "b", _all).instances
    assert [i for i in moved if _problem(i) != "b-data"] == [
        i for i in first if _problem(i) != "b-data"
    ]


def test_a_pair_minizinc_refuses_gives_way_to_the_next_and_a_problem_all_refused_is_told(
    tmp_path: Path,
) -> None:
    root = _fake_repository(tmp_path)
    asked: list[tuple[str, str | None]] = []

    def accepts(model: Path, data: Path | None) -> bool:
        named = data.relative_to(root).as_posix() if data else None
        pair = (model.relative_to(root).as_posix(), named)
        asked.append(pair)
        return _problem(pair) != "p01" and data is not None  # a model alone needs data

    found = grown(root, accepts)
    assert found.refused == ["a-alone", "d-include", "p01"]
    assert all(d is not None for _, d in found.instances[len(INSTANCES) :])
    assert len(found.instances) == TARGET
    assert sum(_problem(p) == "p01" for p in asked) == bench.TRIES
    assert "no pair accepted: a-alone, d-include, p01" in found.told()


def test_mzn_set_39_runs_the_39_alone_and_mzn_instances_picks_from_the_grown_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _fake_repository(tmp_path)
    monkeypatch.delenv("MZN_INSTANCES", raising=False)
    monkeypatch.setenv("MZN_SET", "39")
    assert bench._chosen(root, _all) == INSTANCES
    monkeypatch.delenv("MZN_SET")
    assert len(bench._chosen(root, _all)) == TARGET
    assert "39 chosen by hand, 21 drawn (seed 71) from the 21 problems" in capsys.readouterr().out
    monkeypatch.setenv("MZN_INSTANCES", "p03, golomb")
    assert [_problem(i) for i in bench._chosen(root, _all)] == ["golomb", "p03"]


def test_nodes_and_learnt_clauses_per_second_come_from_the_runs_statistics() -> None:
    out = (
        'x = 1;\n----------\n%%%mzn-stat: method="min"\n%%%mzn-stat: nodes=1200\n'
        "%%%mzn-stat: nodes=3000\n%%%mzn-stat: solveTime=1.5\n%%%mzn-stat: flatTime=0.25\n"
    )
    ran = bench._outcome(out, "", 0, 2.0, "sat")
    assert ran.statistics == {"nodes": 3000.0, "solveTime": 1.5, "flatTime": 0.25}
    assert ran.solver == pytest.approx(1.75)
    assert bench._per_second(ran, "nodes") == "2,000"
    assert bench._per_second(ran, "nogoods") == "—"  # no learnt clauses reported
    assert bench._per_second(Outcome("none", None, 1.0), "nodes") == "—"


def test_lazyfun_takes_its_own_flags_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    config = tmp_path / "lazyfun.msc"
    monkeypatch.delenv("MZN_CPSAT", raising=False)
    monkeypatch.delenv("MZN_LAZYFUN_FLAGS", raising=False)
    assert bench._solvers(config) == {"lazyfun": ["--solver", str(config)], "Gecode": None}
    monkeypatch.setenv("MZN_LAZYFUN_FLAGS", " --clauses ")
    assert bench._solvers(config)["lazyfun"] == ["--solver", str(config), "--clauses"]
