"""``lazyfun csp solve|install-solver``: constraint models in MiniZinc's languages.

``solve`` runs a FlatZinc file (``.fzn``) on :mod:`lazyfun.csp.flatzinc` and writes
its solutions in the FlatZinc protocol; a MiniZinc model (``.mzn``, with ``.dzn``
data files) goes through ``minizinc``, which compiles it against lazyfun's mznlib
and shows the solutions as the model's output says (without minizinc installed, one
line says so).  ``install-solver`` writes lazyfun's solver configuration for
MiniZinc, so that ``minizinc --solver lazyfun`` works anywhere.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from lazyfun.cli.options import flag, value
from lazyfun.cli.output import exit_protocol, fail, readable
from lazyfun.csp import ModelError
from lazyfun.csp.flatzinc import FlatZincError, read, solve
from lazyfun.csp.flatzinc.solver_config import USER_SOLVERS, install

__all__ = ["install_solver_command", "solve_command"]

AllOpt = Annotated[
    bool, flag("--all-solutions", "-a", help="Every solution (optimising: every better one).")
]
IntermediateOpt = Annotated[
    bool, flag("--intermediate", "-i", help="Optimising: every better solution as found.")
]
TimeOpt = Annotated[
    int | None, value("--time-limit", "-t", metavar="MS", help="Stop after MS milliseconds.")
]
FreeOpt = Annotated[bool, flag("--free-search", "-f", help="Leave out the search annotations.")]
StatsOpt = Annotated[
    bool, flag("--statistics", "-s", help="The search's nodes, failures and time at the end.")
]


def _flags(every: bool, intermediate: bool, ms: int | None, free: bool, stats: bool) -> list[str]:
    """The options as minizinc's flags."""
    chosen = [("-a", every), ("-i", intermediate), ("-f", free), ("-s", stats)]
    flags = [name for name, on in chosen if on]
    return flags if ms is None else [*flags, "-t", str(ms)]


def _minizinc(model: Path, data: list[Path], flags: list[str]) -> None:
    """Run ``minizinc`` with lazyfun as its solver (a configuration written for the
    run), its output passed on line by line as it comes; its error, if it fails, in one
    line."""
    if shutil.which("minizinc") is None:
        raise fail(
            f"{model}: a MiniZinc model needs minizinc to compile it, and it is not "
            "installed (apt install minizinc); a .fzn file runs without it"
        )
    with tempfile.TemporaryDirectory(prefix="lazyfun-csp-") as folder:
        config = install(Path(folder))
        command = ["minizinc", "--solver", str(config), *flags, str(model), *map(str, data)]
        with subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        ) as running:
            assert running.stdout is not None and running.stderr is not None
            for line in running.stdout:
                sys.stdout.write(line)
                sys.stdout.flush()
            said = running.stderr.read()
    if running.returncode != 0:
        lines = [x.strip() for x in said.splitlines() if x.strip()]
        errors = [x for x in lines if "error" in x.lower()] or lines or ["it failed"]
        raise fail(f"minizinc: {errors[0]}")
    sys.stderr.write(said)


def solve_command(
    model: Annotated[Path, typer.Argument(help="A .fzn file, or a .mzn model.", metavar="MODEL")],
    data: Annotated[
        list[Path] | None,
        typer.Argument(
            help="The .mzn model's data files (.dzn).", metavar="DATA", show_default=False
        ),
    ] = None,
    every: AllOpt = False,
    intermediate: IntermediateOpt = False,
    time_limit: TimeOpt = None,
    free_search: FreeOpt = False,
    statistics: StatsOpt = False,
) -> None:
    """Solve a FlatZinc file, or a MiniZinc model and its data through minizinc."""
    with exit_protocol(FlatZincError, ModelError, UnicodeDecodeError):
        path = readable(str(model))
        extra = [readable(str(d)) for d in data or []]
        if path.suffix == ".mzn":
            flags = _flags(every, intermediate, time_limit, free_search, statistics)
            _minizinc(path, extra, flags)
            return
        if path.suffix != ".fzn" or extra:
            raise fail(f"{model}: expected a .fzn file, or a .mzn model with its .dzn data")
        solve(
            read(str(path), free_search=free_search),
            all_solutions=every or intermediate,
            time_limit=None if time_limit is None else time_limit / 1000,
            statistics=statistics,
            lns=True if free_search else None,
        )


def install_solver_command(
    to: Annotated[
        Path | None,
        value("--to", metavar="DIR", help=f"The folder to write it in (default {USER_SOLVERS})."),
    ] = None,
) -> None:
    """Write lazyfun's solver configuration for MiniZinc.

    It is lazyfun.msc and the program it runs: then ``minizinc --solver lazyfun
    model.mzn data.dzn`` runs lazyfun."""
    try:
        config = install(to)
    except OSError as error:
        raise fail(f"cannot write the solver configuration: {error}") from None
    typer.echo(f"lazyfun's solver configuration written to {config}", err=True)
    typer.echo(str(config))
