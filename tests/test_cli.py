"""The command line: ``lazyfun demo`` runs the main job on built-in data."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from lazyfun.cli import app
from lazyfun.cli.demo import PAGE


@pytest.mark.untraced
def test_demo_solves_the_built_in_puzzles_and_shows_the_counts() -> None:
    result = CliRunner().invoke(app, ["demo"])
    assert result.exit_code == 0, result.output
    assert "716235984528974316394816527845163792271489635639752841982647153163528479457391268" in (
        result.output
    )
    assert "59,049 candidates" in result.output
    assert "(0, 4, 7, 5, 2, 6, 1, 3)" in result.output
    assert "finds the same solution for the first: True" in result.output
    assert "the scrambled copy has the same form: True" in result.output
    assert "6,561" in result.output  # the eager-against-lazy table, 4 blanks
    assert result.output.rstrip().endswith(str(PAGE))
    assert PAGE.read_text().count('<section class="step"') > 10


def test_study_sudoku_table_and_chart(tmp_path: Path) -> None:
    chart = tmp_path / "sudoku.png"
    result = CliRunner().invoke(app, ["study", "sudoku", "--to", "3", "--plot", str(chart)])
    assert result.exit_code == 0, result.output
    assert "729" in result.output  # 9^3 candidates
    assert chart.stat().st_size > 10_000
    refused = CliRunner().invoke(app, ["study", "sudoku", "--to", "9"])
    assert refused.exit_code == 2
    assert "--to <= 6" in refused.stderr


def test_queens_aliases_from_the_issue() -> None:
    runner = CliRunner()
    assert runner.invoke(app, ["queens", "8", "--limit", "1", "--strategy", "lex"]).output == (
        "0 4 7 5 2 6 1 3\n"
    )
    shown = runner.invoke(app, ["queens", "4", "--limit", "1", "--show", "--strategy", "mrv"])
    assert shown.output.count("Q") == 4


def test_python_dash_m_lazyfun_without_arguments_shows_help() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "lazyfun"], capture_output=True, text=True, check=False
    )
    assert "Traceback" not in proc.stderr
    assert "Usage:" in proc.stdout
    commands = proc.stdout[proc.stdout.index("Commands") :]
    for command in ("demo", "queens", "sudoku", "study"):
        assert f"│ {command} " in commands
    assert proc.returncode == 2  # no command given: help, and a usage error status


def test_queens_streams_placements_one_per_line() -> None:
    result = CliRunner().invoke(app, ["queens", "4"])
    assert result.exit_code == 0
    assert result.output == "1 3 0 2\n2 0 3 1\n"


def test_queens_first_board_and_count() -> None:
    runner = CliRunner()
    drawn = runner.invoke(app, ["queens", "6", "4", "--first", "1", "--board"])
    assert drawn.output.splitlines()[:3] == ["Q . . .", ". . . Q", ". Q . ."]
    assert runner.invoke(app, ["queens", "12", "--count"]).output == "14200\n"
    big = runner.invoke(app, ["queens", "60", "-n", "1", "--strategy", "most-constrained"])
    assert sorted(map(int, big.output.split())) == list(range(60))


def test_queens_bad_input_is_one_line_and_exit_2() -> None:
    result = CliRunner().invoke(app, ["queens", "8", "--strategy", "random"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "lazyfun: Invalid value for '--strategy': Value error, 'random' is not one of "
        "'lexicographic', 'most-constrained', 'lex', 'mrv'."
    ]
    assert "Traceback" not in result.output


def test_study_queens_prints_the_table_and_marks_estimates() -> None:
    result = CliRunner().invoke(
        app, ["study", "queens", "--from", "4", "--to", "6", "--run-limit", "5"]
    )
    assert result.exit_code == 0, result.output
    assert "comprehension" in result.output and "(est.)" in result.output
    assert "128,904" in result.output


def _commands(command: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The path of every command under ``command`` (typer's own click), groups left out."""
    subs = getattr(command, "commands", None)
    if subs:
        return [p for name, sub in subs.items() for p in _commands(sub, (*path, name))]
    return [path]


USAGE = {
    ("sudoku", "solve"): "[OPTIONS] [PUZZLE]...",
    ("sudoku", "canon"): "[OPTIONS] [PUZZLE]...",
    ("sudoku", "convert"): "[OPTIONS] [PUZZLE]...",
    ("sudoku", "rate"): "[OPTIONS] [PUZZLE]...",
    ("sudoku", "explain"): "[OPTIONS] [PUZZLE]",
    ("sudoku", "hint"): "[OPTIONS] [PUZZLE]",
    ("sudoku", "show"): "[OPTIONS] [PUZZLE]",
    ("queens",): "[OPTIONS] ROWS [COLS]",
    ("csp", "solve"): "[OPTIONS] MODEL [DATA]...",
}


@pytest.mark.parametrize("path", _commands(typer.main.get_command(app)), ids=" ".join)
def test_help_names_each_argument_as_users_write_it(path: tuple[str, ...]) -> None:
    """``[PUZZLE]...`` for any number, ``ROWS`` required, ``[COLS]`` optional: never a type
    placeholder such as ``<list[str]>`` or a name bracketed twice."""
    result = CliRunner().invoke(app, [*path, "--help"], prog_name="lazyfun", env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    usage = next(line for line in result.stdout.splitlines() if "Usage:" in line).strip()
    assert usage == f"Usage: lazyfun {' '.join(path)} {USAGE.get(path, '[OPTIONS]')}"
    for placeholder in ("<list", "<str>", "<int>", "<path>", "{", "[[", "...]..."):
        assert placeholder not in result.stdout
    rows = result.stdout[result.stdout.find("Arguments") :].splitlines()
    for name in re.findall(r"[A-Z]+", USAGE.get(path, ""))[1:]:  # its own row, as in the usage
        assert any(row.lstrip("│ *").startswith(f"{name} ") for row in rows), name


def test_the_demos_quick_parts_traced(tmp_path: Path) -> None:
    """The demo's parts but its eager-against-lazy table (the whole demo runs untraced
    above): what each says holds the facts it shows."""
    from lazyfun.cli import demo

    said: list[str] = []
    for part in (demo._sudoku, demo._bird_stages, demo._canon, demo._queens_pipeline):
        part(said.append)
    demo._cp_pipeline(said.append)
    demo._page(said.append, tmp_path / "steps.html")
    text = "\n".join(said)
    assert "(0, 4, 7, 5, 2, 6, 1, 3)" in text
    assert "the scrambled copy has the same form: True" in text
    assert (tmp_path / "steps.html").read_text().count('<section class="step"') > 10


def test_the_demo_opens_with_a_pipeline_that_explains_what_it_did(tmp_path: Path) -> None:
    """The orders read, line 42 skipped, each of the 119 priced once, 5 batches written,
    and the explain table that says so, step by step."""
    from lazyfun.cli import demo
    from lazyfun.io import read_jsonl

    said: list[str] = []
    demo._data_pipeline(said.append, tmp_path / "batches.jsonl")
    text = "\n".join(said)
    assert "line 42: bad JSON" in text
    batches = read_jsonl(tmp_path / "batches.jsonl").to_list()
    assert [b["orders"] for b in batches] == [25, 25, 25, 25, 19]
    assert batches[0]["from"] == 1 and batches[-1]["from"] == 102
    rows = {line.split()[0]: line.split()[1:] for line in said[-1].splitlines()[1:]}
    assert rows[".catch(RecordError,"][1:4] == ["119", "119", "1/0"]
    assert rows[".map(_priced,"][1:4] == ["119", "119", "-"] and rows[".map(_priced,"][4] == "119"
    assert rows[".group(25)"][:2] == ["119", "5"] and rows[".group(25)"][4] == "25"
