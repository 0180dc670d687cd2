"""``lazyfun sudoku explain|hint|rate``: the steps a person would take, and how hard they are."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from typing import Annotated, cast

import typer

from lazyfun.batch import numbered
from lazyfun.cli.output import Format, Report, Source, fail, silence_stdout
from lazyfun.cli.sudoku import FileOpt, PuzzlesArg, QuietOpt
from lazyfun.sudoku.grid import PuzzleError, parse
from lazyfun.sudoku.rate import Rating, rate
from lazyfun.sudoku.steps import Step, hint, steps

PuzzleArg = Annotated[str, typer.Argument(help="The puzzle, in one-line form.", show_default=False)]
FormatOpt = Annotated[str, typer.Option("--format", help="Output: line or json (JSON Lines).")]


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


def _show(step: Step, output: str) -> None:
    sys.stdout.write((str(step) if output == "line" else _record(step)) + "\n")
    sys.stdout.flush()


def _check_format(output: str) -> None:
    if output not in ("line", "json"):
        raise fail(f"unknown --format {output!r}: choose line, json")


def explain_command(puzzle: PuzzleArg, output: FormatOpt = "line") -> None:
    """Every step that solves the puzzle, simplest technique first, each printed as found.

    Cells are named rRcC (row R, column C, from 1); r2c5<>7 removes 7 from r2c5.
    """
    _check_format(output)
    try:
        for step in steps(parse(puzzle)):
            _show(step, output)
    except PuzzleError as error:
        raise fail(str(error)) from None
    except BrokenPipeError:
        silence_stdout()


def hint_command(puzzle: PuzzleArg, output: FormatOpt = "line") -> None:
    """The simplest next step from the puzzle as it stands (your placements included)."""
    _check_format(output)
    try:
        step = hint(parse(puzzle))
    except PuzzleError as error:
        raise fail(str(error)) from None
    if step is None:
        typer.echo("lazyfun: the grid is already full", err=True)
        return
    _show(step, output)


def _rating_line(rating: Rating, fmt: str, line: int, puzzle: str) -> str:
    score = f"{rating.score:.1f}" + ("+" if rating.floor else "")
    if fmt == "line":
        return f"{score} {rating.level} {rating.hardest}"
    fields = {"line": line, "puzzle": puzzle, **asdict(rating)}
    return json.dumps(fields)


def rate_command(
    puzzles: PuzzlesArg = None,
    file: FileOpt = None,
    output: FormatOpt = "line",
    quiet: QuietOpt = False,
) -> None:
    """The difficulty of each puzzle, in input order: score, level, hardest technique.

    A score with + is a floor: a guess was needed beyond the techniques lazyfun
    knows.  Exit status: 0 all rated, 1 some puzzle had no or several solutions,
    2 some line was invalid.
    """
    _check_format(output)
    source = Source(puzzles, file)
    report = Report(source, cast(Format, output), quiet, "rated")
    try:
        for number, text in numbered(source.lines(report.problem)):
            try:
                rating = rate(parse(text))
            except PuzzleError as error:
                unsolved = error.message.startswith(("no solution", "not unique"))
                report.warn(f"lazyfun: {source.place(number, error.column)}: {error.message}")
                report.tally("unsolved" if unsolved else "invalid")
                continue
            report.emit(_rating_line(rating, output, number, text))
            report.tally("done")
    except KeyboardInterrupt:
        raise typer.Exit(report.finish(interrupted=True)) from None
    except BrokenPipeError:
        silence_stdout()
        raise typer.Exit(0) from None
    raise typer.Exit(report.finish())
