"""``lazyfun sudoku convert``: puzzles from any format lazyfun reads to the one asked for."""

from __future__ import annotations

from typing import Annotated

import typer

from lazyfun.cli.options import FileOpt, PuzzlesArg, QuietOpt, choice
from lazyfun.cli.output import Report, Source, exit_protocol
from lazyfun.sudoku import PuzzleError, read
from lazyfun.sudoku.board.formats import Entry, Target, split, write
from lazyfun.sudoku.variants import Variant
from lazyfun.sudoku.variants.exchange import write_link


def convert_command(
    puzzles: PuzzlesArg = None,
    file: FileOpt = None,
    to: Annotated[
        Target,
        choice(
            "--to",
            choices=Target,
            help="81 (one line), 729 (pencil marks), sdk, ss, or link (f-puzzles).",
        ),
    ] = "81",
    quiet: QuietOpt = False,
) -> None:
    """Each puzzle written in another format, in input order.

    Every format lazyfun reads goes in, told apart by content: lines, grids,
    .sdk (its # metadata is kept for --to sdk), .ss, pencil marks, links, and
    variants (sudoku-puzzle JSON: --to link keeps their rules, the other formats
    have none).  A puzzle written on several lines is followed by a blank line.
    To one line a puzzle (81, 729, link), a puzzle that cannot be written gets the
    line '# line N: why' in its place, and the same on stderr.  Exit status: 0 all
    converted, 2 some puzzle could not be read or written (the others still are).
    """
    source = Source(puzzles, file)
    report = Report(source, "line", quiet, "converted", to)
    with exit_protocol(interrupted=report.interrupted):
        for entry in split(source.lines(report.problem)):
            try:
                text = _converted(entry, to)
            except PuzzleError as error:
                line = entry.line if error.line is None else entry.line + error.line - 1
                report.failed(line, "invalid", error.message, error.column)
                continue
            report.result(entry.line, text + "\n" if "\n" in text else text)
            report.tally("done")
    raise typer.Exit(report.finish())


def _converted(entry: Entry, to: Target) -> str:
    """One puzzle of the input in the format ``to``: a variant only as a link, which
    keeps its rules (the other formats would silently drop them)."""
    puzzle = read(entry.text)
    if not isinstance(puzzle, Variant):
        return write(puzzle, to, entry.meta)
    if to != "link":
        raise PuzzleError(
            f"a variant ({puzzle.kind}): --to {to} has no rules; --to link keeps them"
        )
    return write_link(puzzle)
