"""The ``lazyfun`` command: one module per command, the output they share in ``output``.

- ``lazyfun sudoku solve|canon`` (:mod:`lazyfun.cli.sudoku`);
- ``lazyfun sudoku generate`` (:mod:`lazyfun.cli.generate`);
- ``lazyfun sudoku explain|hint|rate`` (:mod:`lazyfun.cli.explain`);
- ``lazyfun queens`` (:mod:`lazyfun.cli.queens`);
- ``lazyfun study queens|sudoku`` (:mod:`lazyfun.cli.study`);
- ``lazyfun demo`` (:mod:`lazyfun.cli.demo`).

User errors (a board that is not a board, a missing extra, a bad line)
print one line on stderr and exit with status 2, never a traceback.
"""

from __future__ import annotations

import typer

from lazyfun.cli import demo as demo_module
from lazyfun.cli import study, sudoku
from lazyfun.cli.explain import explain_command, hint_command, rate_command
from lazyfun.cli.generate import generate_command
from lazyfun.cli.queens import queens_command

__all__ = ["app", "main"]

app = typer.Typer(
    help="Lazy functional search programs: Sudoku, N queens, constraint models.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
sudoku.app.command("generate")(generate_command)
sudoku.app.command("explain")(explain_command)
sudoku.app.command("hint")(hint_command)
sudoku.app.command("rate")(rate_command)
app.add_typer(sudoku.app, name="sudoku")
app.add_typer(study.app, name="study")
app.command("queens")(queens_command)


@app.callback()
def root() -> None:
    """Lazy functional search programs: Sudoku, N queens, constraint models."""


@app.command()
def demo() -> None:
    """The main job on built-in data, explained as it runs (a few seconds)."""
    demo_module.run(typer.echo)


def main() -> None:
    """Console-script entry point."""
    app()
