"""The operators users of the peers ask for: ``any`` and ``all`` that stop at the answer."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

from lazyfun import stream


def _counted(read: list[int]) -> Iterator[int]:
    for n in range(10**9):
        read.append(n)
        yield n


def test_any_and_all_read_only_up_to_the_answer() -> None:
    read: list[int] = []
    assert stream(_counted(read)).any(lambda n: n == 7)
    assert read == list(range(8))
    read.clear()
    assert not stream(_counted(read)).all(lambda n: n < 3)
    assert read == list(range(4))
    assert stream([]).all() and not stream([]).any()
    assert stream([0, 0, 1]).any() and not stream([1, 0]).all()


def test_any_lets_go_of_a_concurrent_pipeline() -> None:
    def slow(n: int) -> int:
        time.sleep(0.005)
        return n

    def lazyfun_threads() -> int:
        return sum(t.name.startswith("lazyfun") and t.is_alive() for t in threading.enumerate())

    before = lazyfun_threads()
    assert stream(range(10**6)).map(slow, concurrency=4).any(lambda n: n == 20)
    for _ in range(100):
        if lazyfun_threads() <= before:
            break
        time.sleep(0.02)
    assert lazyfun_threads() <= before
