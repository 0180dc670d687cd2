"""``lazyfun sudoku explain|hint|rate``: the steps a person would take, and how hard they are."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from typing import Annotated, Literal

import typer

from lazyfun.batch import numbered
from lazyfun.cli.options import (
    FileOpt,
    LineOrJson,
    LineOrJsonOpt,
    OutputOpt,
    PuzzlesArg,
    QuietOpt,
    SvgOpt,
    choice,
    flag,
)
from lazyfun.cli.output import Report, Source, exit_protocol, write_document
from lazyfun.pages import explanation_page
from lazyfun.sudoku import (
    MarkedGrid,
    PuzzleError,
    Rating,
    Step,
    UnsolvedError,
    check_givens,
    hint,
    rate,
    read,
    solve,
    steps,
)
from lazyfun.sudoku.deduction import candidates_of
from lazyfun.sudoku.grid import grid_of
from lazyfun.sudoku.svg import grid_svg

PuzzleArg = Annotated[
    str,
    typer.Argument(
        help="The puzzle: one line, a pencil-mark line (its candidates are the start), a grid"
        " in quotes, or an f-puzzles/SudokuPad link.",
        show_default=False,
        metavar="PUZZLE",
    ),
]


def _record(step: Step) -> str:
    return json.dumps(
        {
            "technique": step.technique,
            "rating": step.rating,
            "placements": [list(p) for p in step.placements],
            "eliminations": [list(e) for e in step.eliminations],
            "cells": list(step.cells),
            "units": list(step.units),
        }
    )


def _show(step: Step, output: LineOrJson) -> None:
    sys.stdout.write((str(step) if output == "line" else _record(step)) + "\n")
    sys.stdout.flush()


ExplainFormat = Literal["line", "json", "html"]


def explain_command(
    puzzle: PuzzleArg,
    output: Annotated[
        ExplainFormat,
        choice(
            "--format",
            choices=ExplainFormat,
            help="One line per step, JSON Lines, or one HTML page to step through.",
        ),
    ] = "line",
    page: OutputOpt = None,
) -> None:
    """Every step that solves the puzzle, simplest technique first, each printed as found.

    Cells are named rRcC (row R, column C, from 1); r2c5<>7 removes 7 from r2c5.
    With --format html: one self-contained page (the grid at each step, the
    arrow keys to move), to --output FILE or stdout.
    """
    with exit_protocol(PuzzleError):
        start = read(puzzle)
        if output == "html":
            write_document(explanation_page(start), page, "the explanation page")
            return
        if page is not None:
            raise PuzzleError("--output goes with --format html")
        for step in steps(start):
            _show(step, output)


def show_command(
    puzzle: PuzzleArg,
    svg: SvgOpt = None,
    solution: Annotated[
        bool, flag("--solution", help="Draw the solution's digits too, in blue.")
    ] = False,
    marks: Annotated[bool, flag("--marks", help="Draw the candidates of the empty cells.")] = False,
) -> None:
    """The puzzle as a picture (SVG), to --svg FILE or stdout.

    A pencil-mark grid is drawn with its candidates.
    """
    with exit_protocol(PuzzleError):
        start = read(puzzle)
        grid = grid_of(start)
        check_givens(grid)
        state = None
        if solution:
            state = next(solve(start), None)
            if state is None:
                raise UnsolvedError("no solution to draw")
        candidates = start.marks() if isinstance(start, MarkedGrid) else None
        if marks and candidates is None:
            candidates = candidates_of(grid)
        write_document(grid_svg(grid, state, candidates=candidates), svg, "the picture")


def hint_command(puzzle: PuzzleArg, output: LineOrJsonOpt = "line") -> None:
    """The simplest next step from the puzzle as it stands, your placements included.

    From a pencil-mark line the step starts from your candidates too.
    """
    with exit_protocol(PuzzleError):
        step = hint(read(puzzle))
        if step is None:
            typer.echo("lazyfun: the grid is already full", err=True)
            return
        _show(step, output)


def _rating_line(rating: Rating, fmt: LineOrJson, line: int, puzzle: str) -> str:
    score = f"{rating.score:.1f}" + ("+" if rating.floor else "")
    if fmt == "line":
        return f"{score} {rating.level} {rating.hardest}"
    fields = {"line": line, "puzzle": puzzle, **asdict(rating)}
    return json.dumps(fields)


def rate_command(
    puzzles: PuzzlesArg = None,
    file: FileOpt = None,
    output: LineOrJsonOpt = "line",
    quiet: QuietOpt = False,
) -> None:
    """The difficulty of each puzzle, in input order: score, level, hardest technique.

    A score with + is a floor: a guess was needed beyond the techniques lazyfun
    knows.  Exit status: 0 all rated, 1 some puzzle had no or several solutions,
    2 some line was invalid.
    """
    source = Source(puzzles, file)
    report = Report(source, output, quiet, "rated")
    with exit_protocol(interrupted=report.interrupted):
        for number, text in numbered(source.lines(report.problem)):
            try:
                rating = rate(read(text))
            except PuzzleError as error:
                line = number if error.line is None else number + error.line - 1
                report.warn(f"lazyfun: {source.place(line, error.column)}: {error.message}")
                report.tally("unsolved" if isinstance(error, UnsolvedError) else "invalid")
                continue
            report.emit(_rating_line(rating, output, number, text))
            report.tally("done")
    raise typer.Exit(report.finish())
