"""The dask cluster that the test modules of lazyfun.parallel share: started once per module,
and closed within a bound, so that its teardown never hangs the suite."""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

CLOSE_SECONDS = 30
"""A local cluster closes in well under a second; the bound is for the case below."""


@contextmanager
def local_cluster() -> Iterator[str]:
    """A LocalCluster of 2 worker processes, one thread each; yields its address.

    It is closed within ``CLOSE_SECONDS`` on leaving, and the worker processes it left
    are killed if not.  The fault tests kill a worker; its nanny starts another and
    waits without a limit for the new worker's hello.  Once, on a loaded machine, that
    hello was lost: the close waited for that nanny for ever and the module's teardown
    failed only when pytest's timeout did (300 s), with every test of the module passed.
    """
    distributed = pytest.importorskip("distributed")
    psutil = pytest.importorskip("psutil")

    me = psutil.Process()
    before = {child.pid for child in me.children(recursive=True)}
    local = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        silence_logs=logging.ERROR,
    )
    try:
        yield local.scheduler_address
    finally:
        try:
            local.close(timeout=CLOSE_SECONDS)
        except TimeoutError:
            left = [child for child in me.children(recursive=True) if child.pid not in before]
            for child in left:
                child.kill()
            print(
                f"the module's dask cluster did not close in {CLOSE_SECONDS} s: "
                f"{len(left)} of its processes killed",
                file=sys.stderr,
            )
