"""lazyfun as a MiniZinc solver: its solver configuration (a ``.msc`` file) and its
``mznlib``, the library of globals it takes whole.

``minizinc --solver lazyfun model.mzn data.dzn`` compiles the model against the
standard library, with the ``fzn_*`` predicates of ``mznlib`` in place of the
standard decompositions (``all_different``, ``circuit``, ``table``, ``disjunctive``,
``cumulative``: see :mod:`~lazyfun.csp.flatzinc.globals`), and runs
``python -m lazyfun.csp.flatzinc`` on the FlatZinc it writes, with the standard
flags ``-a``, ``-i``, ``-f``, ``-p``, ``-s`` and ``-t`` (see
:func:`~lazyfun.csp.flatzinc.protocol.main`), and two of its own, ``--learn`` (nogoods
recorded from the restarts: see :mod:`lazyfun.csp.search.learning`) and ``--clauses``
(lazy clause generation: see :mod:`lazyfun.csp.clauses.engine`).  :func:`install` writes the
configuration, and beside it the small program MiniZinc starts (it runs this Python
with lazyfun), into MiniZinc's folder of user solvers, ``~/.minizinc/solvers``, or
a folder given; ``lazyfun csp install-solver`` calls it.

>>> config = configuration("/usr/local/bin/lazyfun-fzn")
>>> config["id"], config["stdFlags"]
('org.lazyfun.lazyfun', ['-a', '-i', '-f', '-p', '-s', '-t'])
>>> Path(str(config["mznlib"])).name, sorted(p.name for p in MZNLIB.iterdir())[:2]
('mznlib', ['fzn_all_different_int.mzn', 'fzn_circuit.mzn'])
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import lazyfun

__all__ = ["MZNLIB", "SOLVER_ID", "USER_SOLVERS", "configuration", "install"]

SOLVER_ID = "org.lazyfun.lazyfun"
MZNLIB = Path(__file__).resolve().parent / "mznlib"
USER_SOLVERS = Path.home() / ".minizinc" / "solvers"
"""Where MiniZinc looks for a user's solver configurations."""


def configuration(executable: str) -> dict[str, object]:
    """The solver configuration MiniZinc reads, running ``executable`` on FlatZinc."""
    return {
        "id": SOLVER_ID,
        "name": "lazyfun",
        "description": "lazyfun.csp: a lazy constraint solver in Python",
        "version": lazyfun.__version__,
        "mznlib": str(MZNLIB),
        "executable": executable,
        "tags": ["cp", "int"],
        "stdFlags": ["-a", "-i", "-f", "-p", "-s", "-t"],
        "extraFlags": [
            ["--learn", "keep nogoods from the restarts", "bool", "false"],
            ["--clauses", "learn a nogood from every failure", "bool", "false"],
            ["--alone", "no clause learning in the last part of the time", "bool", "false"],
        ],
        "supportsMzn": False,
        "supportsFzn": True,
        "needsSolns2Out": True,
        "needsMznExecutable": False,
        "needsStdlibDir": False,
        "isGUIApplication": False,
    }


def install(folder: Path | None = None, python: str = sys.executable) -> Path:
    """Write ``lazyfun.msc`` and the program it names, ``lazyfun-fzn`` (which runs
    ``python -m lazyfun.csp.flatzinc``), into ``folder`` (MiniZinc's
    :data:`USER_SOLVERS` by default, made if missing); the configuration's path."""
    target = USER_SOLVERS if folder is None else folder
    target.mkdir(parents=True, exist_ok=True)
    program = target / "lazyfun-fzn"
    program.write_text(
        f'#!/bin/sh\nexec {shlex.quote(python)} -m lazyfun.csp.flatzinc "$@"\n', encoding="utf-8"
    )
    program.chmod(0o755)
    config = target / "lazyfun.msc"
    text = json.dumps(configuration(str(program.resolve())), indent=2)
    config.write_text(text + "\n", encoding="utf-8")
    return config
