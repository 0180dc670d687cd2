"""lazyfun.parallel: pmap gives a public type, an iterator of f's results that close() stops."""

from __future__ import annotations

from typing import assert_type

from lazyfun.parallel import Holding, pmap


def double(n: int) -> int:
    return 2 * n


results = pmap(double, range(10), scheduler="sync", buffer=4)
assert_type(results, Holding[int])  # not the window that runs it (it was Window[int])
assert_type(next(results), int)
assert_type(pmap(str, [1, 2], jobs=2, chunksize=1), Holding[str])
for result in results:
    assert_type(result, int)
results.close()
