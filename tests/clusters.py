"""The dask cluster that the test modules of lazyfun.parallel share: started once per module,
and closed within a bound, so that its teardown never hangs the suite."""

from __future__ import annotations

import logging
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from lazyfun.parallel import runners


@contextmanager
def local_cluster() -> Iterator[str]:
    """A LocalCluster of 2 worker processes, one thread each; yields its address.

    It is closed as lazyfun closes its own (``runners._close_cluster``): within
    ``CLUSTER_CLOSE_SECONDS``, the worker processes it started killed if not.  The fault
    tests kill a worker; its nanny starts another and waits without a limit for the new
    worker's hello.  Once, on a loaded machine, that hello was lost: the close waited
    for ever and the module's teardown failed only when pytest's timeout did (300 s),
    with every test of the module passed.  The warning of such a close is printed, not
    raised: the module's tests are over by then.
    """
    distributed = pytest.importorskip("distributed")
    before = runners._worker_processes()
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
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            runners._close_cluster(local, before)
        for warning in said:
            print(f"the module's dask cluster: {warning.message}", file=sys.stderr)
