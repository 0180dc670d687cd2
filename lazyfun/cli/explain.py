"""``lazyfun sudoku explain|hint|rate``: the steps a person would take, and how hard they are."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from typing import Annotated, Literal

import typer

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
    value,
)
from lazyfun.cli.output import Report, Source, exit_protocol, write_document
from lazyfun.cli.sudoku import variant_texts
from lazyfun.pages import explanation_page
from lazyfun.runs.batch import numbered
from lazyfun.sudoku import (
    Grid,
    MarkedGrid,
    PuzzleError,
    Rating,
    Step,
    UnsolvedError,
    check_givens,
    hint,
    rate,
    solve,
    steps,
    variants,
)
from lazyfun.sudoku.board.grid import grid_of
from lazyfun.sudoku.steps.deduction import LADDER, candidates_of
from lazyfun.sudoku.steps.rating import TOP
from lazyfun.sudoku.svg import grid_svg
from lazyfun.sudoku.variants import Variant
from lazyfun.sudoku.variants.exchange import read_puzzle, read_variant

PuzzleArg = Annotated[
    str | None,
    typer.Argument(
        help="The puzzle: one line, a pencil-mark line (its candidates are the start), a grid"
        " in quotes, an f-puzzles/SudokuPad link, or a sudoku-puzzle JSON document.",
        show_default=False,
        metavar="PUZZLE",
    ),
]
VariantOpt = Annotated[
    str | None,
    value(
        "--variant",
        metavar="FILE_OR_LINK",
        help="Instead of PUZZLE: a variant, as a sudoku-puzzle JSON file (one puzzle) or an"
        " f-puzzles/SudokuPad link.",
    ),
]
Puzzle = Grid | MarkedGrid | Variant


def _puzzle(puzzle: str | None, variant: str | None) -> Puzzle:
    """The one puzzle a command works on: PUZZLE, or the variant of --variant."""
    if (puzzle is None) == (variant is None):
        raise PuzzleError("give the puzzle, or --variant FILE_OR_LINK: one of the two")
    if variant is None:
        return read_puzzle(str(puzzle))
    texts = variant_texts(variant)
    if len(texts) != 1:
        raise PuzzleError(f"{variant} holds {len(texts)} puzzles: this command takes one")
    return read_variant(texts[0])


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
    puzzle: PuzzleArg = None,
    output: Annotated[
        ExplainFormat,
        choice(
            "--format",
            choices=ExplainFormat,
            help="One line per step, JSON Lines, or one HTML page to step through.",
        ),
    ] = "line",
    page: OutputOpt = None,
    variant: VariantOpt = None,
) -> None:
    """Every step that solves the puzzle, simplest technique first, each printed as found.

    Cells are named rRcC (row R, column C, from 1); r2c5<>7 removes 7 from r2c5.
    With --format html: one self-contained page (the grid at each step, the
    arrow keys to move), to --output FILE or stdout.  A variant's steps use its
    units and rules too (cage combinations, thermometers, ...).
    """
    with exit_protocol(PuzzleError):
        start = _puzzle(puzzle, variant)
        if output == "html":
            write_document(explanation_page(start), page, "the explanation page")
            return
        if page is not None:
            raise PuzzleError("--output goes with --format html")
        for step in steps(start):
            _show(step, output)


def show_command(
    puzzle: PuzzleArg = None,
    svg: SvgOpt = None,
    solution: Annotated[
        bool, flag("--solution", help="Draw the solution's digits too, in blue.")
    ] = False,
    marks: Annotated[bool, flag("--marks", help="Draw the candidates of the empty cells.")] = False,
    variant: VariantOpt = None,
) -> None:
    """The puzzle as a picture (SVG), to --svg FILE or stdout.

    A pencil-mark grid is drawn with its candidates; a variant with its rules
    (cages and their sums, thermometers, arrows, dots, signs, extra regions).
    """
    with exit_protocol(PuzzleError):
        start = _puzzle(puzzle, variant)
        grid = start.grid if isinstance(start, Variant) else grid_of(start)
        if not isinstance(start, Variant):
            check_givens(grid)
        state = None
        if solution:
            found = variants.solve(start) if isinstance(start, Variant) else solve(start)
            state = next(found, None)
            if state is None:
                raise UnsolvedError("no solution to draw")
        candidates = start.marks() if isinstance(start, MarkedGrid) else None
        if marks and candidates is None:
            candidates = candidates_of(start if isinstance(start, Variant) else grid)
        drawn = start if isinstance(start, Variant) else grid
        write_document(grid_svg(drawn, state, candidates=candidates), svg, "the picture")


def hint_command(
    puzzle: PuzzleArg = None, output: LineOrJsonOpt = "line", variant: VariantOpt = None
) -> None:
    """The simplest next step from the puzzle as it stands, your placements included.

    From a pencil-mark line the step starts from your candidates too.
    """
    with exit_protocol(PuzzleError):
        step = hint(_puzzle(puzzle, variant))
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

    In line format, one line per puzzle: one that has no rating (no solution, more
    than one, not a puzzle) gets '# line N: why' in its place, and the same on stderr.
    A score with + is a floor: a guess was needed beyond the techniques lazyfun
    knows.  A variant is refused with the reason (the scale is the classic
    grid's).  Exit status: 0 all rated, 1 some puzzle had no or several
    solutions, 2 some line was invalid.
    """
    source = Source(puzzles, file)
    report = Report(source, output, quiet, "rated")
    with exit_protocol(interrupted=report.interrupted):
        for number, text in numbered(source.lines(report.problem)):
            try:
                rating = rate(read_puzzle(text))
            except PuzzleError as error:
                line = number if error.line is None else number + error.line - 1
                report.failed(line, _unrated(error), error.message, error.column)
                continue
            report.result(number, _rating_line(rating, output, number, text))
            report.tally("done")
    raise typer.Exit(report.finish())


def _unrated(error: PuzzleError) -> str:
    """The tally of a puzzle that has no rating: no solution, several, or not a puzzle."""
    if not isinstance(error, UnsolvedError):
        return "invalid"
    return "multiple" if (error.solutions or 0) > 1 else "unsolved"


def _scale() -> str:
    """The ladder as the rating's help names it: each technique with its SE rating."""
    rungs = ", ".join(f"{t.name} {t.rating:.1f}" for t in LADDER if t.rating is not None)
    return (
        "\n\n    The techniques, simplest first, with Sudoku Explainer's rating (a chain"
        f" adds a bonus for its length): {rungs}; past them a guess, and a floor of {TOP:.1f}."
    )


rate_command.__doc__ = (rate_command.__doc__ or "").rstrip() + _scale()
