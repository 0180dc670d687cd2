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
  long input, the demo) runs without the coverage tracer, which slows Python that
  runs line by line up to eightfold; the other tests reach the same lines, so the
  coverage of both passes together holds without it.  From source, the pure pass
  leaves it to ``make slow``, as it does a test marked ``long_from_source``
  (minutes from source: a non-consecutive 9x9, a 16x16 made and proved).
- In the compiled pass the tests marked ``compiled`` run untraced too: the tracer
  cannot see into compiled code, and the pure pass runs the same tests on the
  source under it, so their coverage is counted there, once.
- ``LAZYFUN_SHARED_SKIPS=FILE``: each test (or module) skipped for want of the shared
  data (its reason starts with ``tests.datafiles.NEEDS_SHARED``) is written to FILE, a
  node id a line, so that ``make unit`` can run exactly those again where the shared
  data is: its coverage passes run as a bare clone (``LAZYFUN_SHARED_DATA=``), the
  floor counting only what runs anywhere, then the cross-checks on the public sets.
- Untraced means no tracer at all: in a pytest-xdist worker a second coverage
  instance traces beside the one pytest-cov pauses for ``no_cover``, so the hook
  below pauses whatever still traces, and resumes it after the test.
"""

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from lazyfun.compiled import COMPILED, is_compiled
from lazyfun.streams.stream import astream, stream
from tests.datafiles import NEEDS_SHARED

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
    """The doctests of the compiled modules are tests of compiled code too; the tests
    marked ``untraced``, and on the compiled build those marked ``compiled``, run
    without the coverage tracer; from source the tests marked ``untraced`` or
    ``long_from_source`` are slow (the pure pass leaves them to ``make slow``)."""
    for item in items:
        if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
            item.add_marker(pytest.mark.law)
        if item.path in COMPILED_SOURCES:
            item.add_marker(pytest.mark.compiled)
        untraced = item.get_closest_marker("untraced")
        if untraced or (not ENGINE_FROM_SOURCE and item.get_closest_marker("compiled")):
            item.add_marker(pytest.mark.no_cover)
        if ENGINE_FROM_SOURCE and (untraced or item.get_closest_marker("long_from_source")):
            item.add_marker(pytest.mark.slow)


@pytest.hookimpl(hookwrapper=True, trylast=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """A test marked ``no_cover`` runs with every coverage instance still tracing
    paused (inside pytest-cov's own pause, which reaches only the instance it made)."""
    paused = []
    if item.get_closest_marker("no_cover"):
        import coverage

        while (running := coverage.Coverage.current()) is not None:
            running.stop()
            paused.append(running)
    try:
        yield
    finally:
        for running in reversed(paused):
            running.start()


SHARED_SKIPS = os.environ.get("LAZYFUN_SHARED_SKIPS")


def pytest_configure(config: pytest.Config) -> None:
    """The list of tests skipped for want of the shared data starts empty (in the
    controlling process: pytest-xdist's workers append to it)."""
    if SHARED_SKIPS and not hasattr(config, "workerinput"):
        Path(SHARED_SKIPS).parent.mkdir(parents=True, exist_ok=True)
        Path(SHARED_SKIPS).write_text("")


def _note_shared_skip(report: pytest.CollectReport | pytest.TestReport) -> None:
    """Append ``report``'s node id to the list when it was skipped for want of the
    shared data (a line each; a module skipped while collecting is named by each
    worker that collects it, so a reader takes the lines once each)."""
    if SHARED_SKIPS and report.skipped and NEEDS_SHARED in str(report.longrepr):
        with open(SHARED_SKIPS, "a") as skips:
            skips.write(report.nodeid + "\n")


pytest_collectreport = _note_shared_skip
pytest_runtest_logreport = _note_shared_skip
