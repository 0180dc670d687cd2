"""Settings shared by every test run.

- A compiled module's doctests are collected from its source only when the
  source is what runs (``LAZYFUN_PURE=1``, the second pass of ``make unit``):
  pytest refuses a ``.py`` file whose module was loaded from an extension.
- Tests of the compiled modules carry the ``compiled`` marker (``pytestmark`` in
  their files; here, the doctests of ``COMPILED``), so that ``make unit`` can run
  exactly them again from source: ``LAZYFUN_PURE=1 pytest -m compiled``.
- The examples of the Stream's façade (``lazyfun.streams.facade``) use ``stream`` and
  ``astream``, given to every doctest here.
- The examples that write files (those of ``lazyfun.io``, ``lazyfun.sinks``, the
  Stream's terminals and ``docs/pipelines.md``) run in a fresh temporary folder, so
  they read and write files by plain names.
- Hypothesis runs without its per-example deadline: tests never assert on
  wall time, and a loaded machine must not turn a slow example into a failure.
  A law tries half its budget (``tests/budget.py``; 50 examples without one of its
  own); ``LAZYFUN_THOROUGH=1`` gives it all, and ``make slow`` runs every law (marked
  ``law`` here) so.
  Hypothesis is a dev tool: without it (``pip install 'lazyfun[plot]' pytest nbmake``,
  enough for ``pytest --nbmake docs/tour.ipynb``) this file still loads.
- ``make unit`` runs the tests on every core (pytest-xdist, ``--dist loadfile``): a
  file's tests run in one process, so a module's fixture (a dask cluster, a
  browser, a measured study) is built once.
- A test marked ``untraced`` (a long run: the engine on a big board, a memory test's
  long input, the demo) is left out of ``make coverage``, whose tracer slows Python
  that runs line by line up to eightfold; the other tests reach the same lines, so the
  floor holds without it.  From source, the pure pass leaves it to ``make slow``, as it
  does a test marked ``long_from_source`` (minutes from source: a non-consecutive 9x9,
  a 16x16 made and proved).
"""

import os
import signal
from pathlib import Path

import pytest

from lazyfun.compiled import COMPILED, is_compiled
from lazyfun.streams.stream import astream, stream

HERE = Path(__file__).resolve().parent
COMPILED_SOURCES = {HERE / (name.replace(".", "/") + ".py") for name in COMPILED}

try:
    from hypothesis import settings
except ImportError:  # the `plot` extra alone runs the tour notebook: no dev tools
    pass
else:
    # a law without its own budget tries 50 examples, 100 (hypothesis's own) when thorough
    settings.register_profile(
        "lazyfun", deadline=None, max_examples=100 if os.environ.get("LAZYFUN_THOROUGH") else 50
    )
    settings.load_profile("lazyfun")

# Ctrl-C is a KeyboardInterrupt in every test and in the children a test starts, also
# where the suite was started in the background of a shell without job control (a script's
# `cmd &`, as `make unit` starts its cross-checks), which starts it with SIGINT ignored:
# the children would inherit that and a test's Ctrl-C would go unheard.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

collect_ignore = [name.replace(".", "/") + ".py" for name in COMPILED if is_compiled(name)]
ENGINE_FROM_SOURCE = not is_compiled("lazyfun.sudoku.solving.engine")


WRITING_EXAMPLES = (
    HERE / "lazyfun" / "io",
    HERE / "lazyfun" / "sinks",
    HERE / "lazyfun" / "streams",
    HERE / "docs" / "pipelines.md",
)


@pytest.fixture(autouse=True)
def _stream_in_doctests(
    request: pytest.FixtureRequest, doctest_namespace: dict[str, object]
) -> None:
    doctest_namespace["stream"] = stream
    doctest_namespace["astream"] = astream
    path = request.node.path
    if isinstance(request.node, pytest.DoctestItem) and any(
        path == place or place in path.parents for place in WRITING_EXAMPLES
    ):
        request.getfixturevalue("monkeypatch").chdir(request.getfixturevalue("tmp_path"))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The doctests of the compiled modules are tests of compiled code too; from
    source the tests marked ``untraced`` or ``long_from_source`` are slow (the pure
    pass leaves them to ``make slow``)."""
    for item in items:
        if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
            item.add_marker(pytest.mark.law)
        if item.path in COMPILED_SOURCES:
            item.add_marker(pytest.mark.compiled)
        if ENGINE_FROM_SOURCE and (
            item.get_closest_marker("untraced") or item.get_closest_marker("long_from_source")
        ):
            item.add_marker(pytest.mark.slow)
