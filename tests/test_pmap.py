"""pmap and psearch on a 2-worker LocalCluster: map's and search's answers, lazily and safely."""

from __future__ import annotations

import builtins
import os
import signal
import threading
import time
import tracemalloc
import zlib
from collections import Counter
from collections.abc import Iterator
from itertools import count, islice
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lazyfun import search, stream
from lazyfun.parallel import ParallelError, cluster, pmap, psearch, runners
from lazyfun.parallel.window import MAX_CHUNK, TASK_SECONDS, next_size
from lazyfun.queens import count_queens
from tests.clusters import local_cluster
from tests.raising import FLATMAP_CASES, MAP_CASES, Plan, placed_agrees

distributed = pytest.importorskip("distributed")
psutil = pytest.importorskip("psutil")


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    """A 2-worker LocalCluster of processes for the whole module; yields its address."""
    with local_cluster() as address:
        yield address


# --- functions sent to the workers (module level, so any scheduler can pickle them)


def collatz_steps(n: int) -> int:
    """CPU-bound and different for every n."""
    steps = 0
    while n > 1:
        n = 3 * n + 1 if n % 2 else n // 2
        steps += 1
    return steps


def slow_square(n: int) -> int:
    time.sleep(0.02)
    return n * n


def fails_on_seven(n: int) -> int:
    if n == 7:
        raise KeyError(f"no key {n}")
    return n


def waits_for(item: tuple[int, str]) -> str:
    """Item 0 answers at once; the others wait (at most 30 s) for a flag file."""
    index, flag = item
    if index == 0:
        return "first"
    deadline = time.monotonic() + 30
    while not Path(flag).exists():
        if time.monotonic() > deadline:
            return "timed out"
        time.sleep(0.01)
    return "released"


def head_waits_for_a_later_item(item: tuple[int, str]) -> str:
    """Item 0 waits (at most 30 s) for item 6 to run; item 6 raises the flag."""
    index, flag = item
    if index == 6:
        Path(flag).touch()
    return waits_for((1, flag)) if index == 0 else "done"


# A random tree: a state is (seed, height, path); its shape is read off a checksum.
Node = tuple[int, int, tuple[int, ...]]


def _mix(node: Node) -> int:
    return zlib.crc32(repr(node).encode())


def tree_expand1(node: Node) -> list[Node]:
    seed, height, path = node
    if len(path) >= height:
        return []
    return [(seed, height, (*path, i)) for i in range(_mix(node) % 4)]


def tree_complete(node: Node) -> bool:
    return bool(node[2]) and _mix(node) % 3 == 0


def tree_blocked(node: Node) -> bool:
    return _mix(node) % 7 == 0


def tree_prune(node: Node) -> Node:
    seed, height, path = node
    return (seed, height, path) if _mix(node) % 2 else (seed, height, (*path, 9))


# A tree whose first subtree is slow: it waits for the consumer to hold a solution.
Race = tuple[str, str]


def race_expand1(node: Race) -> list[Race]:
    name, flag = node
    if name == "root":
        return [("slow", flag), ("fast", flag)]
    if name == "fast":
        return [("fast solution", flag)]
    outcome = waits_for((1, flag))
    return [(f"slow solution, {outcome}", flag)]


def race_complete(node: Race) -> bool:
    return "solution" in node[0]


# --- pmap ----------------------------------------------------------------------


def test_pmap_equals_map_on_ten_thousand_items(address: str) -> None:
    items = range(1, 10_001)
    assert list(pmap(collatz_steps, items, scheduler=address)) == list(map(collatz_steps, items))


def test_pmap_takes_from_an_infinite_input(address: str) -> None:
    assert list(islice(pmap(slow_square, count(), scheduler=address), 5)) == [0, 1, 4, 9, 16]


def test_each_result_comes_as_soon_as_it_and_the_earlier_ones_are_done(
    address: str, tmp_path: Path
) -> None:
    """Item 1 waits until the consumer has item 0: a pmap that held item 0 back would
    make item 1 time out."""
    flag = str(tmp_path / "got-first")
    results = pmap(waits_for, [(i, flag) for i in range(3)], scheduler=address, chunksize=1)
    assert next(results) == "first"
    Path(flag).touch()
    assert list(results) == ["released", "released"]


def test_a_slow_first_item_does_not_hold_up_the_workers(address: str, tmp_path: Path) -> None:
    """While item 0 runs, the other worker goes on with items 1, 2, ... up to item 6,
    which item 0 waits for: a pmap that sent out new items only when the first
    was done would leave item 0 to time out."""
    flag = str(tmp_path / "six-ran")
    items = [(i, flag) for i in range(8)]
    results = list(pmap(head_waits_for_a_later_item, items, scheduler=address, chunksize=1))
    assert results == ["released"] + ["done"] * 7


def test_reads_at_most_buffer_items_ahead(address: str) -> None:
    read = 0

    def numbers() -> Iterator[int]:
        nonlocal read
        for n in count():
            read += 1
            yield n

    results = pmap(slow_square, numbers(), scheduler=address, buffer=6)
    for taken, value in enumerate(results, 1):
        assert value == (taken - 1) ** 2
        assert read - taken <= 6 - 1  # the item just yielded is no longer ahead
        if taken == 20:
            break
    results.close()


def test_an_exception_keeps_its_type_position_and_the_items_before_it(address: str) -> None:
    got: list[int] = []
    results = pmap(fails_on_seven, range(20), scheduler=address, chunksize=3)
    with pytest.raises(KeyError, match="no key 7") as raised:
        for value in results:
            got.append(value)
    assert got == list(range(7))
    notes = "\n".join(raised.value.__notes__)
    assert "on item 7 of the input" in notes
    assert "fails_on_seven" in notes  # the worker's traceback
    assert list(results) == list(range(8, 20))  # the error travelled as a value: nothing lost


def test_stopping_early_leaves_no_task_behind(address: str) -> None:
    client = distributed.Client(address, set_as_default=False)
    try:
        results = pmap(slow_square, count(), scheduler=address, chunksize=1, buffer=8)
        assert list(islice(results, 3)) == [0, 1, 4]
        results.close()
        deadline = time.monotonic() + 10
        while client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)):
            assert time.monotonic() < deadline, "tasks still held after the stop"
            time.sleep(0.05)
    finally:
        client.close()


def test_stopping_early_shuts_down_the_cluster_pmap_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(runners.ENVIRONMENT, raising=False)
    me = psutil.Process()
    before = {p.pid for p in me.children(recursive=True)}
    results = pmap(slow_square, count(), jobs=2)
    assert next(results) == 0
    assert {p.pid for p in me.children(recursive=True)} - before  # workers were running
    results.close()
    deadline = time.monotonic() + 10
    while {p.pid for p in me.children(recursive=True)} - before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert {p.pid for p in me.children(recursive=True)} - before == set()


def test_a_killed_worker_loses_no_item(address: str) -> None:
    client = distributed.Client(address, set_as_default=False)
    try:
        pids = client.run(os.getpid)
        result: list[list[int]] = []
        mapping = threading.Thread(
            target=lambda: result.append(
                list(pmap(slow_square, range(200), scheduler=address, chunksize=4))
            )
        )
        mapping.start()
        deadline = time.monotonic() + 30
        busy: list[str] = []
        while not busy:
            assert time.monotonic() < deadline, "the map never started"
            busy = [worker for worker, tasks in client.processing().items() if tasks]
            time.sleep(0.005)
        os.kill(pids[busy[0]], signal.SIGKILL)
        mapping.join(timeout=120)
        assert result == [[n * n for n in range(200)]]
        # the nanny starts another worker: the module's later tests find the cluster whole
        client.wait_for_workers(2, timeout=60)
    finally:
        client.close()


def test_a_shared_cluster_serves_every_call_in_the_block(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(runners.ENVIRONMENT, raising=False)
    me = psutil.Process()
    with cluster(jobs=2) as shared:
        assert runners.shared() is shared
        workers = {p.pid for p in me.children(recursive=True)}
        assert list(pmap(abs, [-1, -2])) == [1, 2]
        assert list(pmap(slow_square, range(3))) == [0, 1, 4]
        assert {p.pid for p in me.children(recursive=True)} == workers  # nothing new started
        assert list(pmap(abs, [-3], scheduler="sync")) == [3]  # an explicit scheduler wins
    assert runners.shared() is None


def test_dask_takes_a_lambda_and_the_process_pool_refuses_it_at_the_call(
    address: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    k = 10
    assert list(pmap(lambda n: n + k, range(3), scheduler=address)) == [10, 11, 12]
    real_import = builtins.__import__

    def no_dask(name: str, *args: object, **kwargs: object) -> object:
        if name.startswith(("distributed", "dask", "cloudpickle")):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.delenv(runners.ENVIRONMENT, raising=False)
    monkeypatch.setattr(builtins, "__import__", no_dask)
    with pytest.raises(ParallelError, match=r"pmap's function .* cannot be pickled"):
        pmap(lambda n: n, range(3))
    with pytest.raises(ParallelError, match=r"psearch's expand1 .* cannot be pickled"):
        psearch(0, expand1=lambda n: [n + 1], complete=bool)
    assert list(pmap(lambda n: -n, range(3), scheduler="sync")) == [0, -1, -2]


def test_bad_arguments_are_refused_at_the_call() -> None:
    start: Node = (0, 1, ())
    with pytest.raises(ParallelError, match="buffer must be at least 1"):
        pmap(abs, [], buffer=0)
    with pytest.raises(ParallelError, match="chunksize must be at least 1"):
        pmap(abs, [], chunksize=0)
    with pytest.raises(ParallelError, match="jobs must be at least 1"):
        pmap(abs, [], jobs=0)
    with pytest.raises(TypeError, match="needs a function"):
        pmap(3, [])  # type: ignore[arg-type]
    with pytest.raises(ParallelError, match="depth must be at least 0"):
        psearch(start, expand1=tree_expand1, complete=tree_complete, depth=-1)


# The items read ahead, fixed: by default the window holds eight chunks, and an adaptive
# chunk follows the machine's speed, so on a loaded machine two runs held different windows.
BUFFER = 4 * MAX_CHUNK


def _traced_peak(n: int) -> int:
    tracemalloc.start()
    try:
        assert sum(pmap(abs, range(n), scheduler="sync", buffer=BUFFER)) == sum(range(n))
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.untraced
def test_client_memory_stays_flat_on_a_long_input() -> None:
    """Four times the items, about the same peak: only chunks in flight are held."""
    short, long = _traced_peak(100_000), _traced_peak(400_000)
    assert long < 1.2 * short, f"{short:,} -> {long:,} bytes: the input was held"


def test_the_chunk_size_adapts_to_the_time_an_item_takes() -> None:
    assert (
        next_size(1, 1, 0.0, TASK_SECONDS, MAX_CHUNK) == 4
    )  # instant items: grow, fourfold at most
    assert next_size(4096, 4096, 0.0, TASK_SECONDS, MAX_CHUNK) == MAX_CHUNK
    assert next_size(100, 100, 10.0, TASK_SECONDS, MAX_CHUNK) == 1  # 0.1 s an item: one item a task
    assert (
        next_size(8, 8, 0.008, TASK_SECONDS, MAX_CHUNK) == 32
    )  # 1 ms an item: grows toward 50 items


def test_stream_pmap(address: str) -> None:
    got = stream(range(-5, 5)).pmap(abs, scheduler=address).filter(lambda n: n > 2).to_list()
    assert got == [5, 4, 3, 3, 4]


@given(**FLATMAP_CASES, **{f"map_{name}": case for name, case in MAP_CASES.items()})
@settings(max_examples=5, deadline=None)
def test_a_flatmap_and_a_map_on_dask_give_what_the_sequential_ones_give(
    address: str,
    plans: list[Plan],
    in_source: set[int],
    in_f: set[int],
    ordered: bool,
    map_items: list[int],
    map_in_source: set[int],
    map_in_f: set[int],
    map_ordered: bool,
) -> None:
    """Errors of the source, of the function and of inner iterables part-way (read on
    after, as the chain reads them) all reach the consumer at their places."""
    assert placed_agrees(
        address, plans, in_source, in_f, ordered, map_items, map_in_source, map_in_f, map_ordered
    )


# --- psearch -------------------------------------------------------------------


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 10**6), height=st.integers(0, 5), depth=st.none() | st.integers(0, 3))
def test_psearch_finds_what_search_finds(
    address: str, seed: int, height: int, depth: int | None
) -> None:
    start: Node = (seed, height, ())
    functions = {
        "expand1": tree_expand1,
        "complete": tree_complete,
        "blocked": tree_blocked,
        "prune": tree_prune,
    }
    expected = list(search(start, **functions))  # type: ignore[arg-type]
    found = psearch(start, depth=depth, scheduler=address, **functions)  # type: ignore[arg-type]
    assert Counter(found) == Counter(expected)
    ordered = psearch(start, depth=depth, scheduler=address, ordered=True, **functions)  # type: ignore[arg-type]
    assert list(ordered) == expected


def test_psearch_on_queens_equals_the_count(address: str) -> None:
    from functools import partial

    from lazyfun.core import many
    from lazyfun.queens.constrained import blocked, complete, expand1, forced, start

    found = psearch(
        start(8, 8),
        expand1=expand1,
        complete=complete,
        blocked=blocked,
        prune=partial(many, forced),
        scheduler=address,
    )
    assert len({board.rows for board in found}) == count_queens(8)


def test_the_first_solution_does_not_wait_for_the_other_subtrees(
    address: str, tmp_path: Path
) -> None:
    """The slow subtree finishes only once the consumer holds a solution from the fast one."""
    flag = str(tmp_path / "got-first")
    found = psearch(
        ("root", flag), expand1=race_expand1, complete=race_complete, depth=1, scheduler=address
    )
    assert next(found) == ("fast solution", flag)
    Path(flag).touch()
    assert list(found) == [("slow solution, released", flag)]


def test_stopping_psearch_early_cancels_the_rest(address: str) -> None:
    client = distributed.Client(address, set_as_default=False)
    try:
        six: Node = (0, 6, ())
        found = psearch(
            six, expand1=tree_expand1, complete=lambda n: len(n[2]) == 6, scheduler=address
        )
        next(found, None)
        found.close()
        deadline = time.monotonic() + 10
        while client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)):
            assert time.monotonic() < deadline, "subtrees still held after the stop"
            time.sleep(0.05)
    finally:
        client.close()


def test_psearch_without_workers_and_with_a_solved_start() -> None:
    assert list(
        psearch(5, expand1=lambda n: [n + 1], complete=lambda n: True, scheduler="sync")
    ) == [5]
    assert (
        list(
            psearch(
                5,
                expand1=lambda n: [n + 1],
                complete=lambda n: False,
                blocked=lambda n: True,
                scheduler="sync",
            )
        )
        == []
    )


def test_without_dask_pmap_and_psearch_run_on_the_process_pool(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real_import = builtins.__import__

    def no_dask(name: str, *args: object, **kwargs: object) -> object:
        if name.startswith(("distributed", "dask", "cloudpickle")):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.delenv(runners.ENVIRONMENT, raising=False)
    monkeypatch.setattr(builtins, "__import__", no_dask)
    monkeypatch.setattr(runners, "_warned", True)  # said once per process, tested elsewhere
    assert list(pmap(slow_square, range(12), jobs=2)) == [n * n for n in range(12)]
    with pytest.raises(KeyError, match="no key 7"):
        list(pmap(fails_on_seven, range(9), jobs=2))
    start: Node = (3, 4, ())
    functions = {"expand1": tree_expand1, "complete": tree_complete, "blocked": tree_blocked}
    expected = list(search(start, **functions))  # type: ignore[arg-type]
    assert Counter(psearch(start, jobs=2, **functions)) == Counter(expected)  # type: ignore[arg-type]
