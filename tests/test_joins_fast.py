"""The hash join's fast paths held to a dict-of-lists join: a key's first row found in
one lookup and the rows after it in order, the table of ids (ints from 0) read by
index, a field's key read inline; and what they must not change: a row that is None,
a row given twice, keys that only a dict finds (a bool, a float, a negative or large
int), the join lazy item by item, the rows explain counts, the memory budget."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun import astream, stream
from lazyfun.streams.joins import MISSING, HashTable
from tests.budget import examples

# this side's keys: ints in and around the ids' range, and what a dict matches to them
# by equality (a bool, a float) or not at all (a negative int, one past any index)
this_keys = st.one_of(
    st.integers(-3, 12),
    st.booleans(),
    st.sampled_from([0.0, 2.0, 2.5, -1.0, 2**70, -(2**70)]),
)
# the other side's keys: ids from 0 (often dense enough to index), or sparse ones
other_keys = st.one_of(st.integers(0, 8), st.sampled_from([40, 2**70]))


def _expected(left: list[Any], right: list[Any], how: str) -> list[tuple[Any, Any]]:
    table: dict[Any, list[Any]] = {}
    for row in right:
        table.setdefault(row["id"], []).append(row)
    pairs: list[tuple[Any, Any]] = []
    for item in left:
        rows = table.get(item["user"], [])
        pairs += [(item, row) for row in rows] or ([(item, None)] if how == "left" else [])
    return pairs


def _same(got: list[tuple[Any, Any]], expected: list[tuple[Any, Any]]) -> bool:
    """The same pairs, each of the same objects (not only equal ones)."""
    return len(got) == len(expected) and all(
        a is c and b is d for (a, b), (c, d) in zip(got, expected, strict=True)
    )


@settings(max_examples=examples(200), deadline=None)
@given(
    keys=st.lists(this_keys, max_size=40),
    ids=st.lists(other_keys, max_size=20),
    again=st.lists(st.integers(0, 19), max_size=4),
    how=st.sampled_from(["inner", "left"]),
)
def test_the_hash_join_is_the_dict_of_lists_join_whatever_its_keys(
    keys: list[Any], ids: list[int], again: list[int], how: str
) -> None:
    left = [{"user": k, "i": i} for i, k in enumerate(keys)]
    right: list[dict[str, Any]] = [{"id": k, "j": j} for j, k in enumerate(ids)]
    right += [right[j] for j in again if j < len(right)]  # a row given twice: held twice
    expected = _expected(left, right, how)
    assert _same(stream(left).join(right, "user", other_on="id", how=how).to_list(), expected)  # type: ignore[call-overload]
    by_call = stream(left).join(right, lambda e: e["user"], other_on="id", how=how)  # type: ignore[call-overload]
    assert _same(by_call.to_list(), expected)
    joined = astream(left).join(right, "user", other_on="id", how=how)  # type: ignore[call-overload]
    assert _same(asyncio.run(joined.to_list()), expected)


def test_the_ids_table_is_indexed_only_when_dense_ints_within_the_budget() -> None:
    def table(keys: list[Any], memory: int | None = None) -> HashTable[Any]:
        made: HashTable[Any] = HashTable(lambda k: k, memory)
        assert list(made.filled(iter(keys))) == []
        return made

    dense = table([3, 0, 1, 2, 1])
    assert dense.index == [0, 1, 2, 3] and dense.more == {1: [1]} and dense.count == 5
    assert table([0, 2, 4, 6]).index == [0, MISSING, 2, MISSING, 4, MISSING, 6]
    for keys in ([0, 8], [0, 1, -1], [0, True, 2], [0, 1.0, 2], ["0", "1"], []):
        assert table(keys).index == []  # too sparse, not all ints from 0, or empty
    held = table(list(range(0, 2000, 2))).held  # no budget: nothing held counted
    assert held == 0
    fits = HashTable(lambda k: k, 10**6)
    list(fits.filled(iter(range(0, 2000, 2))))
    assert len(fits.index) == 1999
    tight = table(list(range(0, 2000, 2)), fits.held + 8 * 1999 - 1)  # rows fit, the index not
    assert tight.index == [] and tight.count == 1000


def test_a_row_that_is_none_is_a_match_not_a_miss() -> None:
    other: list[int | None] = [None, 5, 5]

    def other_key(row: int | None) -> int:
        return 0 if row is None else row

    got = stream([0, 5, 7]).join(other, lambda n: n, other_on=other_key).to_list()
    assert got == [(0, None), (5, 5), (5, 5)]
    sparse = stream([100, 7]).join([None], lambda n: n, other_on=lambda _: 100).to_list()
    assert sparse == [(100, None)]
    assert (
        asyncio.run(astream([0, 5, 7]).join(other, lambda n: n, other_on=other_key).to_list())
        == got
    )


def test_the_join_reads_its_source_an_item_at_a_time() -> None:
    read: list[int] = []

    def source() -> Iterator[dict[str, int]]:
        for n in (1, 2, 3):
            read.append(n)
            yield {"user": n}

    other = [{"id": 1, "n": 0}, {"id": 1, "n": 1}, {"id": 3, "n": 2}]
    joined = iter(stream(source()).join(other, "user", other_on="id"))
    assert next(joined)[1]["n"] == 0 and read == [1]
    assert next(joined)[1]["n"] == 1 and read == [1]  # the key's second row, nothing read
    assert next(joined)[1]["n"] == 2 and read == [1, 2, 3]


@dataclass
class Event:
    user: int


def test_a_fields_key_is_read_from_a_mapping_or_an_attribute_its_error_at_its_place() -> None:
    errors: list[BaseException] = []
    items: list[Any] = [{"user": 1}, {"who": 1}, Event(2), 7, {"user": 2}]
    got = (
        stream(items)
        .join([{"id": 1}, {"id": 2}], "user", other_on="id")
        .catch(KeyError, AttributeError, do=errors.append)
        .map(lambda pair: pair[0])
        .to_list()
    )
    assert got == [{"user": 1}, Event(2), {"user": 2}]
    assert [type(e) for e in errors] == [KeyError, AttributeError]


def test_explain_counts_the_rows_held_not_the_keys() -> None:
    other: list[dict[str, Any]] = [{"id": n % 3} for n in range(10)] + [{"no": 1}]
    joined = stream(range(6), analyze=True).join(other, lambda n: n, other_on="id")
    assert joined.catch(KeyError).count() == 10  # keys 0, 1, 2: four rows, three, three
    join = joined.explain(analyze=True, format="dict")[2]
    assert str(join["step"]).startswith(".join(") and join["held"] == 10


def test_the_budget_refusal_counts_the_rows_read() -> None:
    big = [{"k": n % 50, "pad": "x" * 100} for n in range(10_000)]
    with pytest.raises(ValueError, match=r"passed memory=100,000 bytes after 4,096 items"):
        stream([{"k": 1}]).join(big, "k", memory=100_000).to_list()
