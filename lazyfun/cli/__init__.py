"""The ``lazyfun`` command: one module per command; what they share in ``options``
(the options, written once) and ``output`` (input, the exit protocol, the progress
bar, the one renderer of answers).

- ``lazyfun sudoku solve|canon`` (:mod:`lazyfun.cli.sudoku`);
- ``lazyfun sudoku generate`` (:mod:`lazyfun.cli.generate`);
- ``lazyfun sudoku convert`` (:mod:`lazyfun.cli.convert`);
- ``lazyfun sudoku explain|hint|rate|show`` (:mod:`lazyfun.cli.explain`);
- ``lazyfun queens`` (:mod:`lazyfun.cli.queens`);
- ``lazyfun csp solve|install-solver`` (:mod:`lazyfun.cli.csp`);
- ``lazyfun study queens|sudoku|evaluation|learning|tree|report`` (:mod:`lazyfun.cli.study`);
- ``lazyfun demo`` (:mod:`lazyfun.cli.demo`).

User errors (a board that is not a board, a missing extra, a bad line)
print one line on stderr and exit with status 2, never a traceback.
"""

from __future__ import annotations

from typing import Annotated

import typer

import lazyfun
from lazyfun.cli.options import flag, group
from lazyfun.compiled import status

__all__ = ["app", "main"]

SOLVING, MAKING, EXPLAINING = "Solving", "Making", "Explaining"

# Each command: its module, its function, its panel in the help.  A command's module is
# imported when the command runs (or a help lists it): `lazyfun --version` imports none.
app = typer.Typer(
    help="Lazy functional search programs: Sudoku, N queens, constraint models.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=group(
        {
            "queens": ("lazyfun.cli.queens", "queens_command", None),
            "demo": ("lazyfun.cli.demo", "demo_command", None),
        }
    ),
)
sudoku_app = typer.Typer(
    help="Sudoku: solve, canonicalise, generate, convert, explain, hint and rate puzzles.",
    no_args_is_help=True,
    cls=group(
        {
            "solve": ("lazyfun.cli.sudoku", "solve_command", SOLVING),
            "canon": ("lazyfun.cli.sudoku", "canon_command", SOLVING),
            "convert": ("lazyfun.cli.convert", "convert_command", MAKING),
            "generate": ("lazyfun.cli.generate", "generate_command", MAKING),
            "explain": ("lazyfun.cli.explain", "explain_command", EXPLAINING),
            "hint": ("lazyfun.cli.explain", "hint_command", EXPLAINING),
            "rate": ("lazyfun.cli.explain", "rate_command", EXPLAINING),
            "show": ("lazyfun.cli.explain", "show_command", EXPLAINING),
        }
    ),
)
study_app = typer.Typer(
    help="Eager against lazy, and learning against none, measured: time, memory, work.",
    no_args_is_help=True,
    cls=group(
        {
            "queens": ("lazyfun.cli.study", "queens_command", None),
            "sudoku": ("lazyfun.cli.study", "sudoku_command", None),
            "evaluation": ("lazyfun.cli.study", "evaluation_command", None),
            "learning": ("lazyfun.cli.study", "learning_command", None),
            "tree": ("lazyfun.cli.study", "tree_command", None),
            "report": ("lazyfun.cli.study", "report_command", None),
        }
    ),
)
csp_app = typer.Typer(
    help="Constraint models in MiniZinc's languages: solve a .fzn or .mzn, install the solver.",
    no_args_is_help=True,
    cls=group(
        {
            "solve": ("lazyfun.cli.csp", "solve_command", None),
            "install-solver": ("lazyfun.cli.csp", "install_solver_command", None),
        }
    ),
)
app.add_typer(sudoku_app, name="sudoku")
app.add_typer(csp_app, name="csp")
app.add_typer(study_app, name="study")


def _version(shown: bool) -> None:
    """The version, and a line saying which engines run (``lazyfun.compiled.status``):
    an install without a C compiler runs from source, slower, and says so here."""
    if shown:
        typer.echo(f"lazyfun {lazyfun.__version__}\n{status().summary()}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        flag(
            "--version",
            help="Print the version, and which engines run compiled, and exit.",
            callback=_version,
            is_eager=True,
        ),
    ] = False,
) -> None:
    """Lazy functional search programs: Sudoku, N queens, constraint models."""


def main() -> None:
    """Console-script entry point."""
    app()
