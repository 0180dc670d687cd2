"""The tour notebook: it runs with the ``plot`` extra alone, and its prose says what it computes."""

from __future__ import annotations

import ast
import contextlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Importing the root conftest with the dev tools hidden: a finder first on the meta path
# refuses hypothesis, as an environment with the `plot` extra alone (and pytest, nbmake) would.
WITHOUT_HYPOTHESIS = """
import sys
from importlib.abc import MetaPathFinder


class Hidden(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "hypothesis" or name.startswith("hypothesis."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, Hidden())
try:
    import hypothesis  # noqa: F401
except ModuleNotFoundError:
    pass
else:
    raise SystemExit("hypothesis was not hidden")
import conftest

print("loaded", conftest.__name__)
"""


def test_the_conftest_loads_without_hypothesis() -> None:
    """``pytest --nbmake docs/tour.ipynb`` loads the root conftest: it needs no dev tool."""
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_HYPOTHESIS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "loaded conftest"


def _run_cells(path: Path) -> list[tuple[str, str]]:
    """The notebook's cells in order, ``(kind, text)``: a markdown cell's prose (its code
    spans left out), a code cell's output as run here (what it prints, and the text of
    its last expression's value, as a notebook would show it)."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    namespace: dict[str, Any] = {"__name__": "__tour__"}
    cells = []
    for cell in notebook["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            cells.append(("markdown", re.sub(r"`[^`]*`", "", source)))
            continue
        tree = ast.parse(source)
        final = tree.body[-1] if tree.body else None
        last = final.value if isinstance(final, ast.Expr) else None  # shown, as Jupyter does
        if last is not None:
            tree.body.pop()
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(tree, "<cell>", "exec"), namespace)
            value = None
            if last is not None:
                value = eval(compile(ast.Expression(last), "<cell>", "eval"), namespace)
        shown = [printed.getvalue()]
        if value is not None:
            shown.append(repr(value))
            for method in ("_repr_html_", "_repr_svg_"):
                if hasattr(value, method):
                    shown.append(str(getattr(value, method)()))
        cells.append(("code", "\n".join(shown)))
    return cells


@pytest.fixture(scope="module")
def tour() -> list[tuple[str, str]]:
    pytest.importorskip("IPython")
    return _run_cells(ROOT / "docs" / "tour.ipynb")


def test_every_number_in_the_tours_prose_is_in_the_output_of_its_section(
    tour: list[tuple[str, str]],
) -> None:
    """A number written in a markdown cell (outside code) is one the code cells after it,
    up to the next markdown cell, print or show."""
    for i, (kind, prose) in enumerate(tour):
        if kind != "markdown":
            continue
        section = []
        for other, text in tour[i + 1 :]:
            if other == "markdown":
                break
            section.append(text)
        outputs = "\n".join(section)
        for number in re.findall(r"(?<![\w.])\d[\d,]*(?:\.\d+)?", prose):
            assert number.rstrip(",") in outputs, f"{number!r} in {prose!r} is not computed"


def test_the_tours_node_count_is_computed_by_the_fast_search(
    tour: list[tuple[str, str]],
) -> None:
    """The issue's sentence: 113 nodes for the first placement of 8 queens, printed by a
    cell from the meter of the default (fast) search, against the eager flatmap's 15,720."""
    outputs = "\n".join(text for kind, text in tour if kind == "code")
    assert "the first placement of 8 queens took 113 nodes" in outputs
    assert "the eager flatmap builds 15,720" in outputs
    prose = "\n".join(text for kind, text in tour if kind == "markdown")
    assert "113" not in prose and "15,720" not in prose
