"""Where the tests' data lies: the files the repo made itself in tests/data, and the
samples of public puzzle sets (and what was derived from them) in the shared data folder.

The public sets came from fetched repositories, so the repo keeps none of them: they lie
in ``../shared/data/sudoku/tests-data/`` beside the checkout (tests/data/PROVENANCE.md
says what each one is), which CI and every developer machine have.  A test that reads
one where that folder is absent is skipped with one line saying so; the tests that must
run anywhere use the puzzles of :mod:`tests.puzzles` instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
SHARED = ROOT.parent / "shared" / "data" / "sudoku" / "tests-data"


def data_path(name: str) -> Path:
    """The file ``name``: the repo's own in tests/data, else the shared sample; where
    neither is here, the test (or, read while collecting, its module) is skipped."""
    for folder in (DATA, SHARED):
        if (folder / name).exists():
            return folder / name
    pytest.skip(f"{name}: not here (a public set's sample, in {SHARED})", allow_module_level=True)


def read_lines(name: str) -> list[str]:
    """The non-blank lines of the data file ``name`` (see :func:`data_path`)."""
    lines = data_path(name).read_text().splitlines()
    return [line.strip() for line in lines if line.strip()]


def params(name: str) -> list[Any]:
    """The lines of ``name`` as a test's parameters; where it is absent, one parameter,
    skipped with the reason (so the module's other tests still run)."""
    try:
        return list(read_lines(name))
    except pytest.skip.Exception as absent:
        return [pytest.param(None, marks=pytest.mark.skip(reason=absent.msg or name))]
