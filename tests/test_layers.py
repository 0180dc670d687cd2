"""The three layers as they load: the core and the programs pull in no front-end library.

`make lint` holds the import contract itself (import-linter, pyproject.toml);
these tests check what a user meets at run time: importing lazyfun or a
program starts no dask and loads no terminal or plotting library.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import lazyfun

HEAVY = ("dask", "distributed", "typer", "click", "rich", "matplotlib")
# lazyfun.io's libraries: imported by the function that reads or writes, never by `import lazyfun`
IO = ("msgspec", "fsspec", "pyarrow", "httpx", "aiohttp", "zstandard", "sqlite3")
ROOT = Path(lazyfun.__file__).parent


def _loaded_after(statement: str) -> list[str]:
    """The heavy libraries present in a fresh interpreter after ``statement``."""
    probe = f"import sys, json; {statement}; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", probe], check=True, capture_output=True, text=True
    ).stdout
    modules: list[str] = json.loads(out)
    return sorted({m.split(".")[0] for m in modules} & set(HEAVY + IO))


@pytest.mark.parametrize(
    "module",
    [
        "lazyfun",
        "lazyfun.sudoku",
        "lazyfun.sudoku.bird",
        "lazyfun.sudoku.canon",
        "lazyfun.queens",
        "lazyfun.queens.sicp",
        "lazyfun.csp",
        "lazyfun.parallel",
        "lazyfun.trace",
        "lazyfun.io",
    ],
)
def test_importing_the_core_or_a_program_loads_no_front_end_library(module: str) -> None:
    assert _loaded_after(f"import {module}") == []


def test_the_probe_really_sees_a_front_end_library() -> None:
    assert "typer" in _loaded_after("import lazyfun.cli")


def test_the_probe_really_sees_what_a_source_imports_when_read() -> None:
    reading = "import lazyfun.io; lazyfun.io.read_jsonl('-')"
    assert _loaded_after(reading) == ["msgspec"]


# the async chain's rooms: a sync stream's run never needs one
ASYNC_ROOMS = (
    "aio",
    "aio.asteps",
    "aio.aconcurrent",
    "aio.avsteps",
    "aio.aobserving",
    "run.aio_steps",
    "run.aio_reads",
)


def _streams_loaded_after(statement: str) -> set[str]:
    probe = f"import sys, json; {statement}; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", probe], check=True, capture_output=True, text=True
    ).stdout
    prefix = "lazyfun.streams."
    return {m.removeprefix(prefix) for m in json.loads(out) if m.startswith(prefix)}


def test_a_sync_stream_loads_none_of_the_async_chains_rooms() -> None:
    every_kind = (
        "from lazyfun import stream; from lazyfun.trace import Probe; "
        "stream(range(9)).map(str, concurrency=2).progress().observe('x').probe('p', Probe())"
        ".catch().group(2).sort().buffer(2).count_by(len, every=2).to_list()"
    )
    loaded = _streams_loaded_after(every_kind)
    watching = {"progress", "sync.observing", "shared.watching"}  # the bar, observe and probe
    assert {"run.sync_steps", "run.sync_reads", "sync.vsteps", "sync.threaded", *watching} <= loaded
    assert loaded.isdisjoint(ASYNC_ROOMS)


def test_the_probe_sees_the_async_rooms_an_async_stream_loads() -> None:
    reading = (
        "import asyncio; from lazyfun import astream; asyncio.run(astream([2, 1]).sort().to_list())"
    )
    assert set(ASYNC_ROOMS) <= _streams_loaded_after(reading)


def test_every_module_is_placed_on_the_architecture_page() -> None:
    page = (ROOT.parent / "docs" / "architecture.md").read_text()
    modules = {
        ".".join(path.relative_to(ROOT.parent).with_suffix("").parts).removesuffix(".__init__")
        for path in ROOT.rglob("*.py")
        if path.name != "__main__.py"
    }
    missing = sorted(m for m in modules if f"`{m}`" not in page)
    assert missing == []
