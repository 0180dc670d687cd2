"""The sort's fast paths against their plain references (:mod:`lazyfun.streams.sorting`)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from lazyfun.streams.sorting import _by_keys, _by_keys_reference


@given(keys=st.lists(st.integers(0, 4), max_size=300), reverse=st.booleans())
def test_a_block_sorted_by_its_keys_is_its_references_order(keys: list[int], reverse: bool) -> None:
    # few keys, many items: equal keys keep the items' order (stable), either way
    items = [(key, place) for place, key in enumerate(keys)]
    expected = _by_keys_reference(items, keys, reverse)
    assert expected == sorted(items, key=lambda item: item[0], reverse=reverse)
    assert _by_keys(list(items), list(keys), reverse) == expected


def test_a_block_sorted_by_its_keys_reads_them_not_the_items() -> None:
    # the keys given, not the items' own order, decide (the items do not even compare)
    items = [object(), object(), object()]
    assert _by_keys(list(items), [2, 0, 1], False) == [items[1], items[2], items[0]]
