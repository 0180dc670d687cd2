"""The search skeleton against brute force on small random trees."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lazyfun import ilen, search, take
from lazyfun.trace import Probe

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

Path = tuple[int, ...]


@st.composite
def trees(draw: st.DrawFn) -> tuple[int, int, frozenset[Path], frozenset[Path]]:
    """A complete tree of given depth and branching, with blocked nodes and goal leaves."""
    depth = draw(st.integers(0, 4))
    branching = draw(st.integers(0, 3))
    nodes = [p for d in range(depth + 1) for p in itertools.product(range(branching), repeat=d)]
    leaves = [p for p in nodes if len(p) == depth]
    blocked = draw(st.frozensets(st.sampled_from(nodes))) if nodes else frozenset()
    goals = draw(st.frozensets(st.sampled_from(leaves))) if leaves else frozenset()
    return depth, branching, blocked, goals


@given(trees())
def test_search_yields_exactly_the_reachable_complete_states_in_order(
    tree: tuple[int, int, frozenset[Path], frozenset[Path]],
) -> None:
    depth, branching, blocked, goals = tree

    def expand1(p: Path) -> list[Path]:
        return [(*p, i) for i in range(branching)]

    start: Path = ()
    found = list(
        search(
            start,
            expand1=expand1,
            complete=lambda p: len(p) == depth,
            blocked=lambda p: p in blocked or (len(p) == depth and p not in goals),
        )
    )
    brute = [
        leaf
        for leaf in itertools.product(range(branching), repeat=depth)
        if leaf in goals and not any(leaf[:k] in blocked for k in range(depth + 1))
    ]
    assert found == brute


def test_search_prunes_children_not_the_start() -> None:
    seen: list[int] = []

    def prune(n: int) -> int:
        seen.append(n)
        return n + 100

    result = list(
        search(1, expand1=lambda n: [n * 2, n * 2 + 1], complete=lambda n: n > 100, prune=prune)
    )
    assert seen == [2, 3]
    assert result == [102, 103]


def test_search_is_lazy_and_depth_first() -> None:
    probe = Probe()
    expand1 = probe.counted("children")(lambda p: [(*p, 0), (*p, 1)])
    start: Path = ()
    sols = search(start, expand1=expand1, complete=lambda p: len(p) == 20)
    assert list(take(2, sols)) == [(0,) * 20, (0,) * 19 + (1,)]
    assert probe.counts["children"] == 21


def test_search_has_no_recursion_limit() -> None:
    deep = search(0, expand1=lambda n: [n + 1], complete=lambda n: n == 50_000)
    assert list(deep) == [50_000]


def _succ(n: int) -> list[int]:
    return [n + 1]


def _positive(n: int) -> bool:
    return n > 0


def _always(n: int) -> bool:
    return True


def test_search_of_a_blocked_or_complete_start() -> None:
    assert list(search(0, expand1=_succ, complete=_always)) == [0]
    assert ilen(search(0, expand1=_succ, complete=_always, blocked=_positive)) == 1
    nothing = search(1, expand1=_succ, complete=_always, blocked=_positive)
    assert next(nothing, None) is None
