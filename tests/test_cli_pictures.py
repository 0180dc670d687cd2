"""The CLI's pictures and pages: SVG to a file or stdout, the page, the booklet, the tree."""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree as ET

from typer.testing import CliRunner

from lazyfun.cli import app
from lazyfun.sudoku import parse, steps

PUZZLE = "006200080008970000004810500000060002070000030600050000002047100003028400050001200"
NS = "{http://www.w3.org/2000/svg}"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_explain_writes_one_page_with_every_step(tmp_path: Path) -> None:
    page = tmp_path / "steps.html"
    code, out, err = run("sudoku", "explain", PUZZLE, "--format", "html", "-o", str(page))
    assert (code, out) == (0, "")
    assert f"written to {page}" in err
    html = page.read_text()
    assert html.count('<section class="step"') == sum(1 for _ in steps(parse(PUZZLE))) + 1


def test_explain_html_goes_to_stdout_without_a_file() -> None:
    code, out, _ = run("sudoku", "explain", "....34...3.11..4", "--format", "html")
    assert code == 0
    assert out.startswith("<!doctype html>")


def test_output_without_html_is_refused_in_one_line(tmp_path: Path) -> None:
    code, _, err = run("sudoku", "explain", PUZZLE, "-o", str(tmp_path / "x.html"))
    assert code == 2
    assert err.strip() == "lazyfun: --output goes with --format html"


def test_show_draws_the_puzzle_and_its_solution() -> None:
    code, out, _ = run("sudoku", "show", PUZZLE, "--solution")
    root = ET.fromstring(out)
    classes = [e.get("class", "") for e in root.iter(NS + "text")]
    assert code == 0
    assert classes.count("digit given") == parse(PUZZLE).givens
    assert classes.count("digit placed") == 81 - parse(PUZZLE).givens


def test_show_refuses_a_conflict_and_an_unwritable_file() -> None:
    assert run("sudoku", "show", "11" + "0" * 14)[0] == 2
    code, _, err = run("sudoku", "show", PUZZLE, "--svg", "/nonexistent/dir/x.svg")
    assert code == 2
    assert err.startswith("lazyfun: cannot write the picture to /nonexistent/dir/x.svg")


def test_queens_draws_k_boards(tmp_path: Path) -> None:
    svg = tmp_path / "q.svg"
    code, _, _ = run("queens", "8", "--limit", "5", "--svg", str(svg))
    root = ET.parse(svg).getroot()
    queens = [e for e in root.iter(NS + "text") if e.get("class") == "queen"]
    assert (code, len(queens)) == (0, 40)
    assert run("queens", "8", "--limit", "61", "--svg", str(svg))[0] == 2


def test_study_tree_reports_the_probe_count(tmp_path: Path) -> None:
    svg = tmp_path / "t.svg"
    code, _, err = run("study", "tree", "--queens", "6", "--solutions", "2", "--svg", str(svg))
    assert code == 0
    found = re.search(r"built (\d+) of 894 nodes \(probe: (\d+) partial placements\)", err)
    assert found is not None
    assert found.group(1) == found.group(2)
    ET.parse(svg)
    code, _, err = run("study", "tree", "--svg", str(svg))
    assert (code, err.strip()) == (2, "lazyfun: give one of --queens N and --sudoku PUZZLE")


def test_study_tree_without_svg_writes_a_summary_not_a_drawing() -> None:
    code, out, err = run("study", "tree", "--queens", "6")
    assert code == 0
    assert "<svg" not in out and len(out) < 1000
    assert "of the 894 nodes the eager version builds" in out
    assert "--svg FILE" in err
    code, out, _ = run("study", "tree", "--queens", "6", "--svg", "-")
    assert code == 0
    assert ET.fromstring(out).tag == NS + "svg"


def test_study_report_writes_one_page(tmp_path: Path) -> None:
    page = tmp_path / "study.html"
    args = ("--queens-to", "5", "--blanks-to", "2", "--runs", "1")
    code, out, err = run("study", "report", "--out", str(page), *args)
    assert (code, out) == (0, "")
    assert f"written to {page}" in err
    html = page.read_text()
    assert html.startswith("<!doctype html>") and html.count("<svg") == 3
    assert "Learning from failure" in html and html.count('<td class="text">random CSP 50') == 3
    assert run("study", "report", "--out", str(page), "--queens-to", "13")[0] == 2


def test_generate_writes_a_booklet(tmp_path: Path) -> None:
    book = tmp_path / "book.html"
    code, out, _ = run(
        "sudoku",
        "generate",
        "-n",
        "3",
        "--seed",
        "1",
        "--size",
        "4",
        "-q",
        "--booklet",
        str(book),
        "--per-page",
        "2",
        "--paper",
        "letter",
    )
    assert code == 0
    assert len(out.split()) == 3
    html = book.read_text()
    assert html.count('class="sheet"') == 4
    assert "size:8.5in 11in" in html
    assert run("sudoku", "generate", "--per-page", "3", "--booklet", str(book))[0] == 2


def test_solve_writes_a_booklet_of_the_puzzles_it_solved(tmp_path: Path) -> None:
    puzzles = tmp_path / "puzzles.txt"
    several = "0" * 16  # 288 solutions: with --first, printed with the first, without a rating
    puzzles.write_text(f"{PUZZLE}\n{'1' * 81}\n{several}\n")
    book = tmp_path / "book.html"
    command = ("sudoku", "solve", "-f", str(puzzles), "-q", "--first", "--booklet", str(book))
    code, out, err = run(*command)
    assert code == 2 and "line 2" in err
    assert len(out.splitlines()) == 3  # line 2 marked in its place
    assert out.splitlines()[1] == "# line 2: givens conflict: r1c1 and r1c2 are both 1"
    html = book.read_text()
    assert html.count('class="sheet"') == 2  # one sheet of puzzles, one of solutions
    assert html.count(" &middot; ") == 1  # the unique puzzle is rated, the other not
    code, _, err = run("sudoku", "solve", PUZZLE, "--count", "--booklet", str(book))
    assert code == 2 and "--booklet prints each puzzle with its solution" in err
