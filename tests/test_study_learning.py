"""The learning study: one model searched with nogoods and without, side by side."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from lazyfun.cli import app
from lazyfun.study.learning import learning_notes, learning_table_rows, study_learning


def test_each_model_is_searched_without_nogoods_then_with_them_to_the_same_answer() -> None:
    told: list[str] = []
    measured = list(study_learning(["queens 6", "golomb 9"], runs=1, progress=told.append))
    assert [(m.model, m.learn) for m in measured] == [
        ("queens 6", False), ("queens 6", True), ("queens 6", "clauses"),
        ("golomb 9", False), ("golomb 9", True), ("golomb 9", "clauses"),
    ]  # fmt: skip
    # 6 queens have 4 solutions (OEIS A000170); the shortest 9-mark Golomb ruler is 44
    assert [m.found for m in measured] == ["4 solutions"] * 3 + ["optimum 44"] * 3
    assert told == [
        "queens 6 without nogoods", "queens 6 with nogoods from restarts",
        "queens 6 with clauses", "golomb 9 without nogoods",
        "golomb 9 with nogoods from restarts", "golomb 9 with clauses",
    ]  # fmt: skip
    assert all(m.nodes > 0 and m.failures > 0 and m.seconds > 0 for m in measured)
    assert [m.nogoods > 0 for m in measured if m.model == "golomb 9"] == [False, True, True]
    rows = list(learning_table_rows(measured))
    assert [row[1] for row in rows[3:]] == ["off", "restarts", "clauses"]
    assert rows[5][0] == "golomb 9" and rows[5][-1] == "optimum 44"
    notes = learning_notes(measured)
    off, on, clauses = measured[3:]
    assert notes[2].startswith(f"golomb 9: with nogoods from restarts {on.nodes:,} nodes, ")
    assert f"{on.nodes / off.nodes:.2f}x those without ({off.nodes:,})" in notes[2]
    assert notes[3].startswith(f"golomb 9: with clauses {clauses.nodes:,} nodes, ")
    assert "the same answer, optimum 44" in notes[3]


def test_an_unknown_model_is_refused_before_anything_runs() -> None:
    told: list[str] = []
    with pytest.raises(ValueError, match="no model named 'golomb 99'"):
        next(study_learning(["queens 6", "golomb 99"], progress=told.append))
    assert told == []


def test_the_command_prints_a_row_as_each_is_measured_then_the_notes() -> None:
    result = CliRunner().invoke(app, ["study", "learning", "--model", "queens 6", "--runs", "1"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    headings = ["model", "learning", "nodes", "failures", "nogoods", "time", "found"]
    assert lines[1].split() == headings
    assert [line.split()[2] for line in lines[2:5]] == ["off", "restarts", "clauses"]
    assert all(line.endswith("4 solutions") for line in lines[2:5])
    assert lines[5].startswith("queens 6: with nogoods from restarts")
    assert lines[6].startswith("queens 6: with clauses")
