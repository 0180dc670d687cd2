"""The tour notebook: it runs with the ``plot`` extra alone, and its prose says what it computes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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

