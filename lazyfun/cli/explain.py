"""``lazyfun sudoku explain|hint|rate``: the steps a person would take, and how hard they are."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from typing import Annotated

import typer

from lazyfun.batch import numbered
from lazyfun.cli.options import FileOpt, LineOrJson, LineOrJsonOpt, PuzzlesArg, QuietOpt
from lazyfun.cli.output import Report, Source, exit_protocol
from lazyfun.sudoku import PuzzleError, Rating, Step, UnsolvedError, hint, parse, rate, steps

PuzzleArg = Annotated[
    str, typer.Argument(help="The puzzle, in one-line form.", show_default=False, metavar="PUZZLE")
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


def explain_command(puzzle: PuzzleArg, output: LineOrJsonOpt = "line") -> None:
    """Every step that solves the puzzle, simplest technique first, each printed as found.

    Cells are named rRcC (row R, column C, from 1); r2c5<>7 removes 7 from r2c5.
    """
    with exit_protocol(PuzzleError):
        for step in steps(parse(puzzle)):
            _show(step, output)


def hint_command(puzzle: PuzzleArg, output: LineOrJsonOpt = "line") -> None:
    """The simplest next step from the puzzle as it stands (your placements included)."""
    with exit_protocol(PuzzleError):
        step = hint(parse(puzzle))
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
                rating = rate(parse(text))
            except PuzzleError as error:
                report.warn(f"lazyfun: {source.place(number, error.column)}: {error.message}")
                report.tally("unsolved" if isinstance(error, UnsolvedError) else "invalid")
                continue
            report.emit(_rating_line(rating, output, number, text))
            report.tally("done")
    raise typer.Exit(report.finish())
