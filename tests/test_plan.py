"""A stream is a plan: declaring steps reads nothing and starts nothing; the first read
builds the chain, once; a plan's node read by several streams (``tee``'s) is built once."""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun import Stream, stream
from lazyfun.streams.plan import Node, build, runner
from lazyfun.streams.shared.parts import StreamConsumedError
from tests.budget import examples


class Counted:
    """A source that counts how often it is iterated and how many items were pulled."""

    def __init__(self, n: int) -> None:
        self.n, self.iterated, self.pulled = n, 0, 0

    def __repr__(self) -> str:
        return f"Counted({self.n})"

    def __iter__(self) -> Iterator[int]:
        self.iterated += 1
        for k in range(self.n):
            self.pulled += 1
            yield k


class SlowToStart(Counted):
    """A source whose iterator takes a while to make (a file opened over a network, say)."""

    def __iter__(self) -> Iterator[int]:
        self.iterated += 1
        time.sleep(0.02)
        return iter(range(self.n))


def test_declaring_steps_reads_nothing_and_starts_no_thread() -> None:
    source = Counted(20)
    before = threading.active_count()
    declared = (
        stream(source).map(lambda n: n * 2, concurrency=4).buffer(3).filter(lambda n: n % 3 == 0)
    )
    assert declared.explain().splitlines()[1:] == [
        ".map(<lambda>, concurrency=4)",
        ".buffer(3)",
        ".filter(<lambda>)",
    ]
    assert (source.iterated, source.pulled, threading.active_count()) == (0, 0, before)
    assert declared.to_list() == [0, 6, 12, 18, 24, 30, 36]
    assert source.iterated == 1 and source.pulled == 20


def test_explain_before_a_read_shows_crossing_to_async_as_a_row() -> None:
    source = Counted(3)
    declared = stream(source).map(str).to_async().map(len)
    assert declared.explain().splitlines()[1:] == [".map(str)", ".to_async()", ".map(len)"]
    assert source.iterated == 0
    assert asyncio.run(declared.to_list()) == [1, 1, 1]


def test_a_stream_is_built_once_at_its_first_read() -> None:
    source = Counted(5)
    declared = stream(source).map(str)
    items = iter(declared)
    assert next(items) == "0"
    assert list(items) == ["1", "2", "3", "4"]  # the same chain, read on
    assert source.iterated == 1
    with pytest.raises(StreamConsumedError):
        iter(declared)  # one-shot: not built again


@pytest.mark.parametrize("rounds", [20])
def test_tee_branches_read_from_two_threads_share_one_chain(rounds: int) -> None:
    for _ in range(rounds):
        source = Counted(500)
        left, right = stream(source).tee(2)
        assert source.iterated == 0
        got: dict[str, list[int]] = {}

        def read(name: str, branch: Stream[int], got: dict[str, list[int]] = got) -> None:
            got[name] = branch.to_list()

        readers = [
            threading.Thread(target=read, args=("left", left)),
            threading.Thread(target=read, args=("right", right)),
        ]
        for reader in readers:
            reader.start()
        for reader in readers:
            reader.join(timeout=30)
        assert got == {"left": list(range(500)), "right": list(range(500))}
        assert source.iterated == 1 and source.pulled == 500


@given(
    items=st.lists(st.integers(-50, 50), max_size=30),
    steps=st.lists(st.sampled_from(["map", "filter", "take", "drop", "enumerate"]), max_size=6),
)
@settings(max_examples=examples(100), deadline=None)
def test_reading_a_stream_is_reading_build_of_its_plan(items: list[int], steps: list[str]) -> None:
    """build(Node(step, args, parent)) = runner.step(build(parent), *args): a plan built by
    hand, node by node, reads as the stream the façade declares."""
    arguments = {
        "map": (lambda item: (item,),),
        "filter": (lambda item: len(repr(item)) % 2 == 0,),
        "take": (7,),
        "drop": (2,),
        "enumerate": (0,),
    }
    declared = stream(items)
    node = declared._node
    for step in steps:
        declared = getattr(declared, step)(*arguments[step])
        node = Node(step, declared._node.args, node, declared._stage)
    assert declared._node.step == (steps[-1] if steps else "source")
    by_hand = build(node)
    assert by_hand._run is runner("sync")
    assert list(by_hand._take_items()) == declared.to_list()


def test_every_step_the_facade_declares_is_in_both_runners_tables() -> None:
    """A step's name in the façade (``self._step("map", ...)``, ``self._run.count(...)``)
    is one of ``BUILDS``, so both runners have a function of that name."""
    from lazyfun.streams import facade
    from lazyfun.streams.run import ASYNC, ASYNC_BUILDS, BUILDS, SYNC

    folder = Path(facade.__file__).parent
    declared = {
        name
        for path in folder.glob("*.py")
        for name in re.findall(r'(?:_step|_then|Node)\(\s*"(\w+)"|_run\.(\w+)\(', path.read_text())
        for name in name
        if name
    }
    assert {"map", "take", "tee", "branch", "to_async", "count", "to_jsonl"} <= declared
    assert sorted(declared - set(BUILDS) - set(ASYNC_BUILDS)) == []
    for name in BUILDS:
        assert callable(getattr(SYNC, name)) and callable(getattr(ASYNC(), name))


def test_explain_before_a_read_shows_a_joins_other_side_as_rows_above_it() -> None:
    users = Counted(3)
    other = stream(users).map(lambda n: {"id": n, "name": f"u{n}"})
    joined = stream([2, 0, 5]).join(other, lambda n: n, other_on="id")
    assert joined.explain().splitlines() == [
        "stream([2, 0, 5])",
        "  stream(Counted(3))",
        "  .map(<lambda>)",
        ".join(stream(Counted(3))….map(<lambda>), <lambda>, other_on='id')",
    ]
    assert users.iterated == 0
    assert joined.to_list() == [(2, {"id": 2, "name": "u2"}), (0, {"id": 0, "name": "u0"})]


def _race(declared: Stream[str], start: threading.Barrier, outcomes: list[int]) -> None:
    """Read ``declared`` when every racer is ready: how many items, or -1 when refused."""
    start.wait()
    try:
        outcomes.append(len(declared.to_list()))
    except StreamConsumedError:
        outcomes.append(-1)


def test_threads_racing_to_read_one_stream_build_it_once_and_one_reads_it() -> None:
    for _ in range(5):
        source = SlowToStart(200)
        declared = stream(source).map(str)
        start, outcomes = threading.Barrier(4), list[int]()
        readers = [
            threading.Thread(target=_race, args=(declared, start, outcomes)) for _ in range(4)
        ]
        for reader in readers:
            reader.start()
        for reader in readers:
            reader.join(timeout=30)
        assert sorted(outcomes) == [-1, -1, -1, 200]
        assert source.iterated == 1
