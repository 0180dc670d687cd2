"""The public names are the ones the API page documents, and each is there."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parent.parent / "docs" / "api.md"
PACKAGES = (
    "lazyfun",
    "lazyfun.sudoku",
    "lazyfun.queens",
    "lazyfun.csp",
    "lazyfun.parallel",
    "lazyfun.runs",
    "lazyfun.runs.batch",
    "lazyfun.eager",
    "lazyfun.trace",
    "lazyfun.io",
)


def _documented() -> dict[str, set[str]]:
    """Each module the page renders, with the names it renders (its ``__all__``)."""
    modules = re.findall(r"^::: ([\w.]+)$", PAGE.read_text(), flags=re.MULTILINE)
    return {name: set(getattr(importlib.import_module(name), "__all__", ())) for name in modules}


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_is_on_the_api_page(package: str) -> None:
    documented = _documented()
    names = set(importlib.import_module(package).__all__)
    shown = set().union(*documented.values()) | {m.rsplit(".", 1)[-1] for m in documented}
    assert sorted(names - shown) == []


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_exists(package: str) -> None:
    module = importlib.import_module(package)
    assert [name for name in module.__all__ if not hasattr(module, name)] == []


def test_the_sudoku_functions_are_functions_not_modules() -> None:
    from lazyfun.sudoku import generate, hint, rate, steps

    assert all(callable(f) for f in (generate, hint, rate, steps))
    assert next(generate(2, seed=1)).box == 2
