"""Settings shared by every test run.

- A compiled module's doctests are collected from its source only when the
  source is what runs (``LAZYFUN_PURE=1``, the second pass of ``make unit``):
  pytest refuses a ``.py`` file whose module was loaded from an extension.
- Tests of the compiled modules carry the ``compiled`` marker (``pytestmark`` in
  their files; here, the doctests of ``COMPILED``), so that ``make unit`` can run
  exactly them again from source: ``LAZYFUN_PURE=1 pytest -m compiled``.
- The examples of ``lazyfun.streams.terminals`` (the reading half of a Stream) use
  ``stream`` from its other half, given to every doctest here.
- Hypothesis runs without its per-example deadline: tests never assert on
  wall time, and a loaded machine must not turn a slow example into a failure.
"""

from pathlib import Path

import pytest
from hypothesis import settings

from lazyfun.compiled import COMPILED, is_compiled
from lazyfun.streams.stream import stream

HERE = Path(__file__).resolve().parent
COMPILED_SOURCES = {HERE / (name.replace(".", "/") + ".py") for name in COMPILED}

settings.register_profile("lazyfun", deadline=None)
settings.load_profile("lazyfun")

collect_ignore = [name.replace(".", "/") + ".py" for name in COMPILED if is_compiled(name)]


@pytest.fixture(autouse=True)
def _stream_in_doctests(doctest_namespace: dict[str, object]) -> None:
    doctest_namespace["stream"] = stream


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The doctests of the compiled modules are tests of compiled code too."""
    for item in items:
        if item.path in COMPILED_SOURCES:
            item.add_marker(pytest.mark.compiled)
