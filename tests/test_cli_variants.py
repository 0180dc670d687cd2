"""``lazyfun sudoku generate --variant`` and ``solve --variant``: JSON Lines out and in."""

from __future__ import annotations

import json
from itertools import islice
from pathlib import Path

import pytest
from typer.testing import CliRunner

import lazyfun.sudoku as sudoku
from lazyfun.cli import app
from lazyfun.sudoku import Grid, MarkedGrid, parse, write
from lazyfun.sudoku.variants import Cage, Variant, count_solutions, is_solution, solve
from lazyfun.sudoku.variants.exchange import dumps, from_json, read_variant, to_json, write_link
from tests.datafiles import DATA
from tests.puzzles import NORVIG_GRID2


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


def test_a_file_of_json_nested_too_deep_is_one_line_refused(tmp_path: Path) -> None:
    """JSON nested past Python's recursion limit is read as a line, refused in one."""
    file = tmp_path / "deep.json"
    file.write_text('{"rules": ' + "[" * 5000 + "\n")
    code, out, err = _run("sudoku", "solve", "--variant", str(file))
    assert code == 2 and "nested too deeply" in out and "Traceback" not in err


def test_solve_reads_each_file_and_link_and_goes_on_past_a_bad_line(tmp_path: Path) -> None:
    _, made, _ = _run("sudoku", "generate", "--variant", "x", "-n", "2", "--seed", "1", "-q")
    lines = made.splitlines()
    file = tmp_path / "x.jsonl"
    file.write_text(f'# two X puzzles and a broken one\n{lines[0]}\n{{"format": 1\n{lines[1]}\n')
    link = write_link(read_variant(lines[0]))
    code, out, err = _run("sudoku", "solve", "--variant", str(file), "--variant", link)
    assert code == 2
    answers = out.splitlines()
    assert len(answers) == 4 and answers[1].startswith("# argument 2, column")
    del answers[1]
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
    code, out, _ = _run("sudoku", "solve", "--variant", str(empty), "--first", "--format", "grid")
    assert code == 0 and "|" in out
    first = next(solve(read_variant(empty.read_text())))
    assert str(first) in _run("sudoku", "solve", "--variant", str(empty), "--first")[1]


def test_variant_requests_that_cannot_run_are_refused() -> None:
    code, _, err = _run("sudoku", "solve", "--variant", "nowhere.json")
    assert code == 2 and "nowhere.json: no such file" in err
    code, _, err = _run("sudoku", "solve", "1" + "." * 15, "--variant", "x.json")
    assert code == 2 and "with --variant only" in err
    code, _, err = _run("sudoku", "generate", "--variant", "x", "--symmetry", "rot180")
    assert code == 2 and "drop --symmetry" in err
    code, _, err = _run("sudoku", "generate", "--variant", "windoku", "--size", "4")
    assert code == 2 and "windoku needs room" in err


def _one(kind: str, tmp_path: Path) -> tuple[str, Path]:
    line = (DATA / "variants" / f"{kind}.jsonl").read_text().splitlines()[0]
    file = tmp_path / f"{kind}.json"
    file.write_text(json.dumps(json.loads(line), indent=2))  # a pretty document, as people save
    return line, file


def test_explain_and_hint_take_a_variant_file_or_the_document_itself(tmp_path: Path) -> None:
    line, file = _one("killer", tmp_path)
    code, out, _ = _run("sudoku", "explain", "--variant", str(file))
    assert code == 0 and out.startswith("cage combination in cage at ")
    assert out == _run("sudoku", "explain", line)[1]
    code, out, _ = _run("sudoku", "hint", "--variant", str(file), "--format", "json")
    record = json.loads(out)
    assert code == 0 and record["technique"] == "cage combination" and record["rating"] is None


@pytest.mark.untraced
def test_explain_of_a_variant_ends_on_its_solution(tmp_path: Path) -> None:
    line, file = _one("thermo", tmp_path)
    variant = read_variant(line)
    code, out, _ = _run("sudoku", "explain", "--variant", str(file), "--format", "json")
    assert code == 0
    values = list(variant.grid.cells)
    for record in map(json.loads, out.splitlines()):
        for cell, value in record["placements"]:
            values[cell] = value
    assert is_solution(variant, Grid(tuple(values), 3))


def test_explain_refuses_two_puzzles_or_none_in_one_line(tmp_path: Path) -> None:
    line, file = _one("x", tmp_path)
    code, _, err = _run("sudoku", "explain", line, "--variant", str(file))
    assert code == 2 and "give the puzzle, or --variant FILE_OR_LINK: one of the two" in err
    assert len(err.strip().splitlines()) == 1
    many = tmp_path / "many.jsonl"
    many.write_text((DATA / "variants" / "x.jsonl").read_text())
    code, _, err = _run("sudoku", "hint", "--variant", str(many))
    assert code == 2 and "holds 100 puzzles: this command takes one" in err


@pytest.mark.untraced
def test_an_explanation_page_and_a_picture_draw_the_rules(tmp_path: Path) -> None:
    _, file = _one("killer", tmp_path)
    page = tmp_path / "killer.html"
    code, _, _ = _run(
        "sudoku", "explain", "--variant", str(file), "--format", "html", "-o", str(page)
    )
    html = page.read_text()
    assert code == 0 and 'class="rule cage sum"' in html
    assert "Not rated: a variant (killer): the Sudoku Explainer scale" in html
    code, svg, _ = _run("sudoku", "show", "--variant", str(file), "--solution", "--marks")
    assert code == 0 and svg.count('class="rule cage sum"') == len(
        read_variant(file.read_text()).rules
    )
    assert 'class="digit placed"' in svg


def test_rate_and_canon_refuse_a_variant_with_the_reason_and_go_on(tmp_path: Path) -> None:
    line, _ = _one("killer", tmp_path)
    puzzles = tmp_path / "mixed.txt"
    puzzles.write_text(f"{line}\n{NORVIG_GRID2}\n")
    code, out, err = _run("sudoku", "rate", "-f", str(puzzles))
    refused = "line 1: a variant (killer) has no rating: the Sudoku Explainer scale is defined"
    assert code == 2 and len(out.splitlines()) == 2 and out.startswith(f"# {refused}")
    assert refused in err
    code, out, err = _run("sudoku", "canon", "-f", str(puzzles))
    refused = "line 1: a variant (killer) has no minlex form: minlex is defined for the classic"
    assert code == 2 and len(out.splitlines()) == 2 and out.startswith(f"# {refused}")
    assert refused in err


def test_solve_takes_a_variant_document_among_classic_lines(tmp_path: Path) -> None:
    line, _ = _one("anti-king", tmp_path)
    puzzles = tmp_path / "mixed.txt"
    puzzles.write_text(f"{NORVIG_GRID2}\n{line}\n")
    code, out, _ = _run("sudoku", "solve", "-f", str(puzzles))
    assert code == 0
    classic, variant = out.splitlines()
    assert parse(classic).is_complete()
    assert is_solution(read_variant(line), parse(variant))
    code, _, err = _run("sudoku", "solve", line, "--method", "csp")
    assert code == 2 and "the csp method solves classic grids: a variant takes the engine" in err


def test_a_booklet_of_variants_prints_each_with_its_rules(tmp_path: Path) -> None:
    line, _ = _one("thermo", tmp_path)
    book = tmp_path / "thermo.html"
    file = tmp_path / "two.jsonl"
    file.write_text(f"{line}\n{line}\n")
    code, _, _ = _run("sudoku", "solve", "--variant", str(file), "--booklet", str(book), "-q")
    html = book.read_text()
    thermos = sum(r.name == "thermo" for r in read_variant(line).rules)
    assert code == 0 and html.count('class="rule thermo"') == 2 * 2 * 2 * thermos
    assert "&middot;" not in html  # a variant has no rating to print


# --- one reader: the command line reads what lazyfun.sudoku.read reads ------------------

KILLER_4X4 = Variant(parse("." * 16), (Cage(cells=(0, 1), total=3),))


def _texts() -> dict[str, str]:
    """One text of each form a puzzle comes in, a variant's among them."""
    line = (DATA / "variants" / "thermo.jsonl").read_text().splitlines()[0]
    marked = MarkedGrid.of(parse(NORVIG_GRID2), {1: [1, 2, 7]})
    return {
        "a line": NORVIG_GRID2,
        "a line after a byte-order mark": "\ufeff" + NORVIG_GRID2,
        "pencil marks": write(marked, "729"),
        "a grid without marks, in 729": write(parse(NORVIG_GRID2), "729"),
        "a classic link": write(parse(NORVIG_GRID2), "link"),
        "a killer link": write_link(KILLER_4X4),
        "a variant, one line": line,
        "a variant, pretty-printed": json.dumps(json.loads(line), indent=2),
        "a 4x4 killer, pretty-printed": json.dumps(to_json(KILLER_4X4), indent=2),
        "a document of the classic grid alone": dumps(to_json(Variant(parse(NORVIG_GRID2)))),
    }


@pytest.mark.parametrize("name", list(_texts()))
def test_the_command_line_solves_what_python_reads(name: str, tmp_path: Path) -> None:
    text = _texts()[name]
    expected = [str(g) for g in islice(sudoku.solve(sudoku.read(text)), 60)]
    path = tmp_path / "puzzle.txt"
    path.write_text(text + "\n", encoding="utf-8")
    for where in (["-f", str(path)], [text]):
        code, out, err = _run("sudoku", "solve", "--all", "--limit", "60", "-q", *where)
        assert (code, out.split()) == (0, expected), err


def test_solve_reads_a_pretty_variant_file_with_f(tmp_path: Path) -> None:
    lines = (DATA / "variants" / "killer.jsonl").read_text().splitlines()[:2]
    path = tmp_path / "two.json"
    path.write_text("\n".join(json.dumps(json.loads(x), indent=2) for x in lines) + "\n")
    code, out, err = _run("sudoku", "solve", "-f", str(path))
    assert (code, out.split()) == (0, [str(next(solve(read_variant(x)))) for x in lines]), err
    assert "lazyfun: 2 solved" in err


def test_read_of_a_document_no_longer_counts_its_characters() -> None:
    text = (DATA / "variants" / "killer.jsonl").read_text().splitlines()[0]
    code, out, err = _run("sudoku", "solve", text)
    assert code == 0 and "cells, got" not in err
    assert out.strip() == str(next(sudoku.solve(sudoku.read(text))))


def test_convert_writes_a_variant_as_a_link_and_refuses_to_drop_its_rules() -> None:
    text = dumps(to_json(KILLER_4X4))
    code, out, _ = _run("sudoku", "convert", text, "--to", "link")
    assert code == 0 and sudoku.read(out.strip()) == KILLER_4X4
    code, out, err = _run("sudoku", "convert", text, "--to", "81")
    refused = "argument 1: a variant (killer): --to 81 has no rules; --to link keeps them"
    assert (code, out) == (2, f"# {refused}\n")
    assert refused in err
    code, out, err = _run("sudoku", "convert", text, "--to", "sdk")  # no line a puzzle to keep
    assert (code, out) == (2, "") and refused.replace("81", "sdk") in err
