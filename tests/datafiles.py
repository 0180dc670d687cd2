"""Where the tests' data lies: the files the repo made itself in tests/data, and the
samples of public puzzle sets (and what was derived from them) in the shared data folder.

The public sets came from fetched repositories, so the repo keeps none of them: they lie
in ``../shared/data/sudoku/tests-data/`` beside the checkout (tests/data/PROVENANCE.md
says what each one is), which CI and every developer machine have.  A test that reads
one where that folder is absent is skipped with one line whose reason starts with
:data:`NEEDS_SHARED`; the tests that must run anywhere use the repo's own data.

``LAZYFUN_SHARED_DATA`` moves the shared data folder (``../shared/data`` when it is not
set): set to a folder, that folder is read instead; set to an empty string, there is
none, and every test that needs it is skipped, as on a bare clone of the repo.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
NEEDS_SHARED = "needs ../shared"  # how every skip for want of the shared data starts


def _shared_data() -> Path | None:
    """The shared data folder: ``$LAZYFUN_SHARED_DATA`` where it is set (none where it
    is empty), else ``../shared/data`` beside the checkout."""
    folder = os.environ.get("LAZYFUN_SHARED_DATA")
    if folder is None:
        return ROOT.parent / "shared" / "data"
    return Path(folder) if folder else None


SHARED_DATA = _shared_data()


def shared_path(name: str) -> Path:
    """The file ``name`` (a path inside the shared data folder, as
    ``sudoku/royle17_49151.txt``); where it is not there, the test (or, read while
    collecting, its module) is skipped with a reason starting with :data:`NEEDS_SHARED`."""
    if SHARED_DATA is not None and (SHARED_DATA / name).exists():
        return SHARED_DATA / name
    where = SHARED_DATA if SHARED_DATA is not None else "LAZYFUN_SHARED_DATA, set empty"
    pytest.skip(f"{NEEDS_SHARED}: {name} is not here (none in {where})", allow_module_level=True)


def data_path(name: str) -> Path:
    """The file ``name``: the repo's own in tests/data, else the shared sample in the
    shared data folder's ``sudoku/tests-data``; where neither is here, skipped as by
    :func:`shared_path`."""
    if (DATA / name).exists():
        return DATA / name
    return shared_path(f"sudoku/tests-data/{name}")


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


def rows(name: str, fields: int) -> list[Any]:
    """The rows of the table ``name`` (its lines but the ``#`` header, each split at its
    first ``fields - 1`` spaces: the last field keeps its spaces) as a test's parameters;
    where it is absent, one row of ``None``, skipped with the reason."""
    try:
        lines = read_lines(name)
    except pytest.skip.Exception as absent:
        skip = pytest.mark.skip(reason=absent.msg or name)
        return [pytest.param(*([None] * fields), marks=skip)]
    return [tuple(line.split(" ", fields - 1)) for line in lines if not line.startswith("#")]
