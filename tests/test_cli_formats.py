"""The formats on the command line: every -f reader takes them, convert writes them."""

from __future__ import annotations

import json
from pathlib import Path

from lzstring import LZString
from typer.testing import CliRunner

from lazyfun.cli import app
from lazyfun.sudoku import MarkedGrid, hint, parse, read, solve, write
from lazyfun.sudoku.board.links import FPUZZLES
from tests.datafiles import DATA, data_path, read_lines
from tests.puzzles import PUZZLES, SOLUTIONS


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def _mixed(tmp_path: Path) -> Path:
    """Puzzles in five formats, and a grid with a bad cell on its line 13."""
    rows = parse(PUZZLES[3]).pretty().splitlines()
    rows[2] = rows[2].replace(".", "?", 1)
    path = tmp_path / "mixed.txt"
    path.write_text(
        "\n".join(
            [
                "#A someone",
                *write(parse(PUZZLES[0]), "sdk").splitlines(),
                "",
                write(parse(PUZZLES[1]), "link"),
                *write(parse(PUZZLES[2]), "ss").splitlines(),
                *rows,
                PUZZLES[4],
            ]
        )
        + "\n"
    )
    return path


def test_solve_reads_a_file_of_mixed_formats_and_names_the_bad_line(tmp_path: Path) -> None:
    code, out, err = run("sudoku", "solve", "-f", str(_mixed(tmp_path)))
    assert code == 2
    bad = "line 28, column 1: unexpected character '?' for a 9x9 grid"
    assert out.splitlines() == [*SOLUTIONS[:3], f"# {bad}", SOLUTIONS[4]]
    assert f"lazyfun: {bad}" in err


def test_convert_writes_each_puzzle_and_keeps_sdk_metadata(tmp_path: Path) -> None:
    code, out, err = run("sudoku", "convert", "-f", str(_mixed(tmp_path)), "--to", "sdk")
    assert code == 2 and "4 converted, 1 invalid" in err
    blocks = out.strip().split("\n\n")
    assert blocks[0].splitlines()[0] == "#A someone"
    assert [parse(b) for b in blocks] == [parse(PUZZLES[k]) for k in (0, 1, 2, 4)]


def test_convert_to_a_link_and_back() -> None:
    code, link, _ = run("sudoku", "convert", PUZZLES[0], "--to", "link")
    assert code == 0 and link.startswith(FPUZZLES)
    code, line, _ = run("sudoku", "convert", link.strip())
    assert code == 0 and parse(line.strip()) == parse(PUZZLES[0])


def test_a_link_with_killer_cages_is_solved_as_a_variant_and_not_converted() -> None:
    grid: list[list[dict[str, int]]] = [[{} for _ in range(9)] for _ in range(9)]
    data = {"size": 9, "grid": grid, "killercage": [{"cells": ["R1C1", "R1C2"], "value": "3"}]}
    link = FPUZZLES + LZString.compressToBase64(json.dumps(data))
    code, out, _ = run("sudoku", "solve", "--first", link)
    assert code == 0 and {out[0], out[1]} == {"1", "2"}
    code, out, err = run("sudoku", "convert", link)
    refused = "argument 1: a variant (killer): --to 81 has no rules; --to link keeps them"
    assert (code, out) == (2, f"# {refused}\n")
    assert f"lazyfun: {refused}" in err


def test_convert_to_729_and_back_gives_the_same_puzzles() -> None:
    """top95's puzzles whose givens leave a blank one candidate: that blank stays blank."""
    path = data_path("top95_single_candidate.txt")
    puzzles = read_lines("top95_single_candidate.txt")
    code, marks, err = run("sudoku", "convert", "-f", str(path), "--to", "729")
    assert code == 0 and len(marks.split()) == 10, err
    assert all(len(line) == 729 for line in marks.split())
    code, back, err = run("sudoku", "convert", "-", "--to", "81", stdin=marks)
    assert code == 0, err
    assert back.split() == [p.replace(".", "0") for p in puzzles]
    code, solved, _ = run("sudoku", "solve", "-q", "-", stdin=marks)
    _, direct, _ = run("sudoku", "solve", "-q", "-f", str(path))
    assert (code, solved) == (0, direct)


def test_convert_keeps_the_marks_of_a_pencil_mark_line() -> None:
    usual = MarkedGrid.of(parse(PUZZLES[0]))
    marked = MarkedGrid.of(usual.grid, {1: usual.candidates[1][:2]})
    code, out, _ = run("sudoku", "convert", write(marked, "729"), "--to", "729")
    assert (code, out.strip()) == (0, write(marked, "729"))
    code, out, _ = run("sudoku", "convert", write(marked, "729"), "--to", "link")
    assert code == 0 and read(out.strip()) == marked


def test_a_pencil_mark_line_is_solved_keeping_to_its_marks() -> None:
    puzzle = parse(PUZZLES[0])
    solution = parse(SOLUTIONS[0])
    cell = puzzle.cells.index(0)
    marks = MarkedGrid.of(puzzle)
    allowed = [v for v in marks.candidates[cell] if v != solution.cells[cell]]
    wrong = write(MarkedGrid.of(puzzle, {cell: allowed}), "729")
    code, out, err = run("sudoku", "solve", write(marks, "729"), wrong, "--format", "json")
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["solution"] == SOLUTIONS[0] and second["solution"] is None
    assert code == 1 and "argument 2: no solution" in err


def test_pencil_marks_are_refused_where_they_cannot_be_honoured() -> None:
    line = write(MarkedGrid.of(parse(PUZZLES[0])), "729")
    code, _, err = run("sudoku", "canon", line)
    assert code == 2 and "a pencil-mark grid has no minlex form here" in err
    code, _, err = run("sudoku", "solve", line, "--method", "search")
    assert code == 2 and "the search method reads no pencil marks: use --method engine" in err


def test_hint_explain_and_rate_start_from_the_marks() -> None:
    puzzle = parse(PUZZLES[0])
    solution = parse(SOLUTIONS[0])
    box1 = [c for c in (0, 1, 2, 9, 10, 11, 18, 19, 20) if not puzzle.cells[c]]
    cell, value = box1[0], solution.cells[box1[0]]
    usual = MarkedGrid.of(puzzle)
    narrowed = {c: [v for v in usual.candidates[c] if v != value] for c in box1[1:]}
    line = write(MarkedGrid.of(puzzle, narrowed), "729")
    code, out, _ = run("sudoku", "hint", line)
    assert code == 0 and out.strip() == f"hidden single (box) in box 1: r1c{cell + 1}={value}"
    assert str(hint(puzzle)).startswith("hidden single (box) in box 4")  # without the marks
    code, out, _ = run("sudoku", "explain", line)
    assert (
        code == 0 and out.splitlines()[0] == f"hidden single (box) in box 1: r1c{cell + 1}={value}"
    )
    code, out, _ = run("sudoku", "rate", line, PUZZLES[0])
    assert code == 0 and len(out.splitlines()) == 2


def test_show_draws_a_pencil_mark_grid_with_its_marks() -> None:
    marked = MarkedGrid.of(parse(PUZZLES[0]))
    code, svg, _ = run("sudoku", "show", write(marked, "729"))
    marks = sum(len(m) for m in marked.marks().values())
    assert code == 0 and svg.count('class="mark') == marks


def test_generate_and_solve_write_the_format_asked_for() -> None:
    code, out, _ = run("sudoku", "generate", "-n", "2", "--seed", "7", "--size", "4", "--to", "ss")
    assert code == 0
    blocks = out.strip().split("\n\n")
    assert len(blocks) == 2 and all(b.startswith("*-----*") for b in blocks)
    puzzles = [parse(b) for b in blocks]
    code, out, _ = run("sudoku", "solve", *map(str, puzzles), "--to", "link")
    assert code == 0
    assert [read(u) for u in out.split()] == [next(solve(p)) for p in puzzles]
    code, _, err = run("sudoku", "solve", PUZZLES[0], "--to", "ss", "--format", "grid")
    assert code == 2 and "--to chooses the format" in err


def test_the_sample_files_solve() -> None:
    for name, count in (("samples.sdk", 2), ("samples.ss", 2)):
        code, out, _ = run("sudoku", "solve", "-f", str(DATA / name))
        assert code == 0 and len(out.split()) == count
