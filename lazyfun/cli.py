"""The ``lazyfun`` command: ``lazyfun demo`` and the program front ends."""

from __future__ import annotations

import typer

from lazyfun import demo as demo_module

app = typer.Typer(
    help="Lazy functional search programs: Sudoku, N queens, constraint models.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


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
