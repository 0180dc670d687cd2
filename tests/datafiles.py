"""Shared fixtures for the Sudoku tests: the data samples kept in tests/data."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"


def read_lines(name: str) -> list[str]:
    """The non-blank lines of a file in tests/data."""
    return [line.strip() for line in (DATA / name).read_text().splitlines() if line.strip()]
