"""``lazyfun sudoku generate --variant`` and ``solve --variant``: JSON Lines out and in."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from lazyfun.cli import app
from lazyfun.sudoku import parse
from lazyfun.sudoku.exchange import from_json, read_variant, write_link
from lazyfun.sudoku.variants import count_solutions, is_solution, solve


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_generate_writes_unique_variants_as_json_lines(tmp_path: Path) -> None:
    code, out, _ = _run("sudoku", "generate", "--variant", "killer", "-n", "2", "--seed", "4", "-q")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 2
    for line in lines:
        variant = from_json(json.loads(line))
        assert "killer" in variant.names and count_solutions(variant, 2) == 1


def test_solve_reads_each_file_and_link_and_goes_on_past_a_bad_line(tmp_path: Path) -> None:
    _, made, _ = _run("sudoku", "generate", "--variant", "x", "-n", "2", "--seed", "1", "-q")
    lines = made.splitlines()
    file = tmp_path / "x.jsonl"
    file.write_text(f'# two X puzzles and a broken one\n{lines[0]}\n{{"format": 1\n{lines[1]}\n')
    link = write_link(read_variant(lines[0]))
    code, out, err = _run("sudoku", "solve", "--variant", str(file), "--variant", link)
    assert code == 2
    answers = out.splitlines()
    assert len(answers) == 3
    for puzzle, answer in zip([lines[0], lines[1], lines[0]], answers, strict=True):
        assert is_solution(read_variant(puzzle), parse(answer))
    assert "argument 2, column" in err and "not JSON" in err
    assert err.count("\n") == 2  # one line for the fault, one summary


def test_solve_counts_checks_uniqueness_and_draws_grids(tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text(
        json.dumps(
            {
                "format": "sudoku-puzzle",
                "format_version": 1,
                "board": {"rows": 4, "cols": 4},
                "digits": 4,
                "givens": [0] * 16,
                "rules": [
                    {"type": "box_grid", "origin": "r1c1", "box": [2, 2]},
                    {"type": "cage", "cells": ["r1c1", "r1c2"], "sum": 3},
                ],
            },
            indent=2,
        )
    )
    assert _run("sudoku", "solve", "--variant", str(empty), "--count")[:2] == (0, "48\n")
    code, out, _ = _run("sudoku", "solve", "--variant", str(empty), "--unique")
    assert (code, out) == (1, "multiple\n")
    code, out, _ = _run("sudoku", "solve", "--variant", str(empty), "--format", "grid")
    assert code == 0 and "|" in out
    first = next(solve(read_variant(empty.read_text())))
    assert str(first) in _run("sudoku", "solve", "--variant", str(empty))[1]


def test_variant_requests_that_cannot_run_are_refused() -> None:
    code, _, err = _run("sudoku", "solve", "--variant", "nowhere.json")
    assert code == 2 and "nowhere.json: no such file" in err
    code, _, err = _run("sudoku", "solve", "1" + "." * 15, "--variant", "x.json")
    assert code == 2 and "with --variant only" in err
    code, _, err = _run("sudoku", "generate", "--variant", "x", "--symmetry", "rot180")
    assert code == 2 and "drop --symmetry" in err
    code, _, err = _run("sudoku", "generate", "--variant", "windoku", "--size", "4")
    assert code == 2 and "windoku needs room" in err
