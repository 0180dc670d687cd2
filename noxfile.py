"""The unit tests on every Python from 3.11 to 3.14 that this machine has (`make test-all`).

Each session installs lazyfun with its dev extra into its own environment, the way
a user's pip would (compiled where a compiler is at hand), and runs pytest; a
Python that is not on the machine is skipped, not failed.
"""

from __future__ import annotations

import nox

nox.options.error_on_missing_interpreters = False
nox.options.sessions = ["tests"]


@nox.session(python=["3.11", "3.12", "3.13", "3.14"])
def tests(session: nox.Session) -> None:
    """pytest, as `make unit`'s first pass runs it."""
    session.install("-e", ".[dev]")
    session.run("python", "-c", "from lazyfun.compiled import describe; print(describe())")
    session.run("pytest", *session.posargs)
