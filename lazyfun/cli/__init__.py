"""The ``lazyfun`` command: one module per command; what they share in ``options``
(the options, written once) and ``output`` (input, the exit protocol, the progress
bar, the one renderer of answers).

- ``lazyfun sudoku solve|canon`` (:mod:`lazyfun.cli.sudoku`);
- ``lazyfun sudoku generate`` (:mod:`lazyfun.cli.generate`);
- ``lazyfun sudoku convert`` (:mod:`lazyfun.cli.convert`);
- ``lazyfun sudoku explain|hint|rate|show`` (:mod:`lazyfun.cli.explain`);
- ``lazyfun queens`` (:mod:`lazyfun.cli.queens`);
- ``lazyfun study queens|sudoku|evaluation|tree`` (:mod:`lazyfun.cli.study`);
- ``lazyfun demo`` (:mod:`lazyfun.cli.demo`).

User errors (a board that is not a board, a missing extra, a bad line)
print one line on stderr and exit with status 2, never a traceback.
"""

from __future__ import annotations

from typing import Annotated

import typer

import lazyfun
from lazyfun.cli import convert, explain, generate, queens, study, sudoku
from lazyfun.cli import demo as demo_module
from lazyfun.cli.options import Command, Group, flag

__all__ = ["app", "main"]

SOLVING, MAKING, EXPLAINING = "Solving", "Making", "Explaining"


def _group(help: str) -> typer.Typer:
    return typer.Typer(help=help, no_args_is_help=True, cls=Group)


app = typer.Typer(
    help="Lazy functional search programs: Sudoku, N queens, constraint models.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=Group,
)

sudoku_app = _group(
    "Sudoku: solve, canonicalise, generate, convert, explain, hint and rate puzzles."
)
for name, command, panel in (
    ("solve", sudoku.solve_command, SOLVING),
    ("canon", sudoku.canon_command, SOLVING),
    ("convert", convert.convert_command, MAKING),
    ("generate", generate.generate_command, MAKING),
    ("explain", explain.explain_command, EXPLAINING),
    ("hint", explain.hint_command, EXPLAINING),
    ("rate", explain.rate_command, EXPLAINING),
    ("show", explain.show_command, EXPLAINING),
):
    sudoku_app.command(name, cls=Command, rich_help_panel=panel)(command)

study_app = _group("Eager against lazy, measured: time, memory, work.")
study_app.command("queens", cls=Command)(study.queens_command)
study_app.command("sudoku", cls=Command)(study.sudoku_command)
study_app.command("evaluation", cls=Command)(study.evaluation_command)
study_app.command("tree", cls=Command)(study.tree_command)

app.add_typer(sudoku_app, name="sudoku")
app.add_typer(study_app, name="study")
app.command("queens", cls=Command)(queens.queens_command)


def _version(shown: bool) -> None:
    if shown:
        typer.echo(f"lazyfun {lazyfun.__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        flag("--version", help="Print the version and exit.", callback=_version, is_eager=True),
    ] = False,
) -> None:
    """Lazy functional search programs: Sudoku, N queens, constraint models."""


@app.command(cls=Command)
def demo() -> None:
    """The main job on built-in data, explained as it runs (a few seconds)."""
    demo_module.run(typer.echo)


def main() -> None:
    """Console-script entry point."""
    app()
