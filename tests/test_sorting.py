"""The sort's fast paths against their plain references (:mod:`lazyfun.streams.sorting`)."""

from __future__ import annotations

import enum
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from fractions import Fraction
from operator import attrgetter
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lazyfun.streams import frames, sorting
from lazyfun.streams.frames import calls, pickled, unpickled
from lazyfun.streams.sorting import Sorter, _by_fields, _by_keys, _by_keys_reference, size_of


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


class _Text(str):
    """A str of its own kind: a spill that writes it as a plain str loses it."""


class _Level(enum.IntEnum):
    LOW = 1


def _shape(value: object) -> object:
    """``value`` as its types and reprs all the way down: equal only for the same types,
    tuples and lists told apart, bool from int, -0.0 from 0.0, nan equal to itself."""
    if isinstance(value, dict):
        return (type(value), [(_shape(k), _shape(v)) for k, v in value.items()])
    if isinstance(value, list | tuple | set | frozenset):
        inner = sorted(map(repr, value)) if isinstance(value, set | frozenset) else value
        return (type(value), [_shape(item) for item in inner])
    return (type(value), repr(value))


# every kind of value a JSON-like fast path could get wrong, and some it should refuse
_VALUES: list[object] = [
    None, True, False, 0, 1, -(2**63), 2**64, 10**30, 0.0, -0.0, 1.5, math.inf, math.nan,
    "", "é", "a\ud800b", _Text("t"), b"\x00b", bytearray(b"ba"), (1, 2), [1, 2], (), [],
    {"a": (1,)}, {1: "int key"}, {(1, 2): "tuple key"}, {"x": [1, {"y": (2,)}]},
    {1, 2}, frozenset({3}), Decimal("1.10"), Fraction(1, 3), complex(1, -0.0),
    datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=UTC), date(2026, 1, 2), _Level.LOW,
]  # fmt: skip


@pytest.mark.parametrize("memory", [1, 2_000, 50_000])
def test_a_spilled_sorts_items_come_back_as_they_went_in(memory: int) -> None:
    # dicts of plain values, dicts of the rest, and items that are no dicts at all, on
    # few keys (equal keys keep their order across the runs), through runs on disk
    items: list[Any] = []
    for place, value in enumerate(_VALUES * 20):
        key = place % 3
        items.append({"k": key, "v": value} if place % 4 else (key, value))
    sorter: Sorter[Any] = Sorter(_key_of, False, memory)
    for start in range(0, len(items), 7):
        sorter.add(items[start : start + 7])
    got = list(sorter.output())
    assert sorter.runs  # spilled
    assert list(map(_shape, got)) == list(map(_shape, sorted(items, key=_key_of)))
    sorter.close()


class _Event(msgspec.Struct):
    user: int
    ts: str
    extra: Any = None


class _Named(msgspec.Struct, kw_only=True):
    user: int
    ts: str = ""


class _Checked(msgspec.Struct):
    user: int

    def __post_init__(self) -> None:
        _MADE.append(self.user)


_MADE: list[int] = []


@dataclass
class _Row:
    user: int


class _Either:
    """Rebuilt by one of two calls: no one call makes a frame of them."""

    def __init__(self, user: int) -> None:
        self.user = user

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return (_Either if self.user % 2 else _either), (self.user,)

    def __eq__(self, other: object) -> bool:
        return type(other) is _Either and other.user == self.user

    def __hash__(self) -> int:
        return self.user


def _either(user: int) -> _Either:
    return _Either(user)


_SHARED = [1, 2]
_OBJECTS: list[Callable[[int], Any]] = [
    lambda n: _Event(n % 5, f"t{n}", (_SHARED, _Level.LOW, {"n": n})),
    lambda n: _Named(user=n % 5, ts=f"t{n}"),
    lambda n: _Checked(n % 5),
    lambda n: _Row(n % 5),
    lambda n: _Either(n),
    lambda n: _Level.LOW,
]


@pytest.mark.parametrize("made", range(len(_OBJECTS)))
def test_a_spilled_frame_of_one_class_comes_back_as_pickle_makes_it(made: int) -> None:
    # a frame of objects pickle rebuilds by one call (msgspec Structs, an enum's members)
    # is written as the call and each one's arguments; the others as pickle writes them
    items = [_OBJECTS[made](n) for n in range(300)]
    if made < 3 or made == 5:
        assert calls(items) is not None
    else:
        assert calls(items) is None
    _MADE.clear()
    sorter: Sorter[Any] = Sorter(_user, False, 1)
    for start in range(0, len(items), 7):
        sorter.add(items[start : start + 7])
    got = list(sorter.output())
    assert sorter.runs
    want = sorted(items, key=_user)
    assert got == want and list(map(type, got)) == list(map(type, want))
    assert all(a is b for a, b in zip(got, want, strict=True)) == (made == 5)  # members
    if made == 0:
        assert got[0].extra[0] == _SHARED and got[0].extra[0] is not got[1].extra[0]
    if made == 2:  # made again each time it is read back, as pickle makes them
        assert set(_MADE) == {item.user for item in items} and len(_MADE) >= len(items)
    sorter.close()


def test_a_frame_of_mixed_classes_or_a_cycle_is_pickled_as_it_is() -> None:
    mixed: list[Any] = [_Event(1, "a"), _Named(user=1), _Event(2, "b")]
    assert calls(mixed) is None
    looped = _Event(1, "a", [])
    looped.extra.append(looped)
    back = unpickled(pickled([looped, _Event(2, "b")]))
    assert back[0].extra[0] is back[0] and back[1] == _Event(2, "b")


def test_a_structs_or_a_slotted_objects_fields_count_in_its_size() -> None:
    # the budget of a sort of Structs counts what they hold, as a dict's values count
    text = "x" * 1000

    @dataclass(slots=True)
    class Slotted:
        text: str

    class Plain:
        def __init__(self) -> None:
            self.text = text

    assert size_of(_Event(1, text)) > sys.getsizeof(text) < size_of(Slotted(text))
    assert size_of(Plain()) < sys.getsizeof(text)  # its __dict__ is not read (nor made)


def _user(item: Any) -> int:
    return int(item.user) if not isinstance(item, enum.Enum) else 0


def _key_of(item: Any) -> int:
    """A dict's ``k``, a tuple's first."""
    return int(item["k"] if isinstance(item, dict) else item[0])


_FIELD_KINDS = [
    st.integers(-3, 3),
    st.sampled_from(["", "a", "b", "é"]),
    st.sampled_from([b"", b"a", b"b"]),
    st.floats(allow_nan=False) | st.sampled_from([0.0, -0.0, 1.5]),
]


@st.composite
def _keys(draw: st.DrawFn) -> list[tuple[Any, ...]]:
    """Tuples of one width, each field of one kind mostly (few distinct values, so the
    later fields decide), now and then a field of two kinds or a NaN."""
    width = draw(st.integers(0, 3))
    kinds = [draw(st.sampled_from(_FIELD_KINDS)) for _ in range(width)]
    if width and draw(st.integers(0, 4)) == 0:
        kinds[-1] = st.one_of(kinds[-1], st.integers(0, 1), st.just(math.nan))
    return draw(st.lists(st.tuples(*kinds), max_size=60))


@given(keys=_keys(), reverse=st.booleans())
def test_keys_sorted_a_field_at_a_time_are_sorteds_order(
    keys: list[tuple[Any, ...]], reverse: bool
) -> None:
    # keys whose each field holds one ordered type are sorted a field at a time, the last
    # first, to sorted's order; the others (a field of two types, a NaN) are refused
    items = [object() for _ in keys]
    got = _by_fields(items, keys, reverse)
    mixed = keys and any(len({type(k[f]) for k in keys}) > 1 for f in range(len(keys[0])))
    nan = any(isinstance(v, float) and math.isnan(v) for k in keys for v in k)
    assert (got is None) == (not keys or bool(mixed) or nan)
    if got is not None:
        order = sorted(range(len(keys)), key=keys.__getitem__, reverse=reverse)
        assert got == [items[i] for i in order]


_NAMED_VALUES = st.one_of(
    st.integers(0, 3), st.integers(0, 3), st.sampled_from(["a", "b", 1.5, math.nan])
)


@given(
    rows=st.lists(
        st.one_of(
            st.fixed_dictionaries({"a": _NAMED_VALUES, "b": _NAMED_VALUES}),
            st.fixed_dictionaries({"a": _NAMED_VALUES}),  # no b: a KeyError at its item
        ),
        max_size=40,
    ),
    by_attribute=st.booleans(),
    reverse=st.booleans(),
    memory=st.sampled_from([2**28, 600]),
)
def test_law_a_getter_of_several_fields_sorts_as_the_function_giving_their_tuple(
    rows: list[dict[str, Any]], by_attribute: bool, reverse: bool, memory: int
) -> None:
    # an attrgetter's or itemgetter's fields are read a field at a time, with no tuple
    # made: the same order, the same errors at the same items, as a lambda making the tuple
    from operator import attrgetter, itemgetter
    from types import SimpleNamespace

    from lazyfun import stream

    marked = [{**row, "at": at} for at, row in enumerate(rows)]  # each item told by its place
    items: list[Any] = [SimpleNamespace(**row) for row in marked] if by_attribute else marked
    getter: Any = attrgetter("a", "b") if by_attribute else itemgetter("a", "b")
    by_hand: Any = (lambda x: (x.a, x.b)) if by_attribute else (lambda x: (x["a"], x["b"]))

    def sorted_by(key: Any) -> list[object]:
        ordered = iter(stream(items).sort(key=key, reverse=reverse, memory=memory))
        seen: list[object] = []
        for _ in range(len(items) + 3):
            try:
                item = next(ordered)  # a spilled one comes back a copy: its place tells it
                seen.append(item.at if by_attribute else item["at"])
            except StopIteration:
                break
            except Exception as error:  # the error itself is compared by what it says
                seen.append((type(error), str(error)))
        return seen

    assert sorted_by(getter) == sorted_by(by_hand)


def test_a_frame_holding_a_cycle_or_one_object_twice_comes_back_equal() -> None:
    cyclic: list[Any] = [1]
    cyclic.append(cyclic)
    shared = {"a": [1, 2]}
    frame: list[Any] = [{"k": 0, "v": cyclic}, shared, shared, (_Text("t"), _Level.LOW)]
    back = unpickled(pickled(frame))
    assert back[0]["v"][1] is back[0]["v"]  # the cycle kept one, by pickle's memo
    assert back[1] == back[2] == shared
    assert [_shape(v) for v in back[3]] == [_shape(v) for v in frame[3]]


_COLUMN_KINDS = [
    st.integers(-3, 3) | st.sampled_from([2**63 - 1, -(2**63)]),
    st.integers(-(2**63), 2**63 - 1),  # a span of every bit: six radix passes
    st.integers(-3, 3) | st.just(2**64),  # past 64 bits: the C sort gives it back
    st.sampled_from(["", "a", "ab", "b", "é", "ée", "中", "\U0001f600", "a\U0001f600"]),
    st.sampled_from([b"", b"a", b"ab", b"\x00", b"\xff"]),
    st.floats(allow_nan=False) | st.sampled_from([0.0, -0.0, 1.5]),
]


@st.composite
def _columns(draw: st.DrawFn) -> list[list[Any]]:
    """A run's fields, a list a field, each of one kind, few values (ties go on); now
    and then enough of them for the C sort's radix passes over a first field of ints."""
    size = draw(st.integers(1, 80) | st.integers(256, 700))
    kinds = draw(st.lists(st.sampled_from(_COLUMN_KINDS), min_size=1, max_size=3))
    return [draw(st.lists(kind, min_size=size, max_size=size)) for kind in kinds]


@pytest.mark.skipif(sorting.BY_FIELDS is None, reason="the C flow engine is not built")
@given(columns=_columns(), reverse=st.booleans())
def test_law_the_c_sort_of_a_runs_fields_is_the_python_sorts_order(
    columns: list[list[Any]], reverse: bool
) -> None:
    items = [object() for _ in columns[0]]
    assert sorting.BY_FIELDS is not None
    fast = sorting.BY_FIELDS(items, [list(c) for c in columns], reverse)
    wide = any(type(v) is int and not -(2**63) <= v < 2**63 for c in columns for v in c)
    assert (fast is None) == wide
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(sorting, "BY_FIELDS", None)
        plain = sorting._by_each_field(items, [list(c) for c in columns], reverse)
    order = sorted(range(len(items)), key=lambda i: tuple(c[i] for c in columns), reverse=reverse)
    assert plain == [items[i] for i in order]
    if fast is not None:
        assert fast == plain


@pytest.mark.skipif(sorting.BY_FIELDS is None, reason="the C flow engine is not built")
@given(columns=_columns(), cuts=st.lists(st.integers(0, 700), max_size=6), reverse=st.booleans())
def test_law_the_c_merge_of_a_blocks_runs_is_the_python_sorts_order(
    columns: list[list[Any]], cuts: list[int], reverse: bool
) -> None:
    # a merge's block: runs (some empty), each in order, one after another; merged, they
    # are in the order a stable sort of the whole gives, the earlier run first on ties
    size = len(columns[0])
    ends = [*sorted(min(cut, size) for cut in cuts), size]
    starts = [0, *ends[:-1]]

    def key(i: int) -> tuple[Any, ...]:
        return tuple(c[i] for c in columns)

    places = [
        i for start, end in zip(starts, ends, strict=True)
        for i in sorted(range(start, end), key=key, reverse=reverse)
    ]  # fmt: skip
    items = [object() for _ in places]
    fields = [[c[i] for i in places] for c in columns]
    assert sorting.BY_FIELDS is not None
    merged = sorting.BY_FIELDS(items, fields, reverse, ends)
    wide = any(type(v) is int and not -(2**63) <= v < 2**63 for c in columns for v in c)
    assert (merged is None) == wide
    if merged is not None:
        order = sorted(range(size), key=lambda at: key(places[at]), reverse=reverse)
        assert merged == [items[at] for at in order]


@pytest.mark.skipif(sorting.FIELDS_OF is None, reason="the C flow engine is not built")
def test_the_c_fields_of_slots_are_the_getters_lists() -> None:
    assert sorting.FIELDS_OF is not None

    @dataclass(slots=True)
    class Slotted:
        a: int
        b: str

    made: list[list[Any]] = [[_Plainly(i, i / 2, str(i)) for i in range(5)], [Slotted(1, "x")]]
    for items in made:
        names: tuple[str, ...] = ("user", "name") if isinstance(items[0], _Plainly) else ("b", "a")
        assert sorting.FIELDS_OF(items, names) == [
            [getattr(item, name) for item in items] for name in names
        ]
    unset = Slotted.__new__(Slotted)
    unset.a = 1
    odds: list[tuple[list[Any], tuple[str, ...]]] = [
        ([{"a": 1}], ("a",)),  # a dict: no slots
        ([Slotted(1, "x"), _Plainly(1, 1.0, None)], ("a",)),  # two classes
        ([_Plainly(1, 1.0, None)], ("user", "nothing")),  # no such slot
        ([Slotted(1, "x"), unset], ("a", "b")),  # a slot never set: the getter's error
        ([], ("a",)),
    ]
    for odd, names in odds:
        assert sorting.FIELDS_OF(odd, names) is None


class _Pair(msgspec.Struct, gc=False):
    a: Any
    b: Any
    at: int


@pytest.mark.parametrize("engine", ["c", "python"])
@given(
    values=st.lists(st.tuples(_NAMED_VALUES, _NAMED_VALUES), max_size=60),
    reverse=st.booleans(),
    memory=st.sampled_from([2**28, 600, 3_000]),
)
def test_law_a_spilled_sort_of_structs_by_a_getter_is_the_lambdas_order(
    engine: str, values: list[tuple[Any, Any]], reverse: bool, memory: int
) -> None:
    # Structs read from their slots, runs spilled and merged in blocks (several runs a
    # block, several passes): the order of the lambda making the tuple, and its errors
    from lazyfun import stream

    items = [_Pair(a, b, at) for at, (a, b) in enumerate(values)]

    def sorted_by(key: Any) -> list[object]:
        try:
            return [item.at for item in stream(items).sort(key=key, reverse=reverse, memory=memory)]
        except TypeError as error:  # values that do not compare: the same error either way
            return [type(error)]

    with pytest.MonkeyPatch.context() as patched:
        if engine == "python":
            patched.setattr(sorting, "BY_FIELDS", None)
            patched.setattr(sorting, "FIELDS_OF", None)
        assert sorted_by(attrgetter("a", "b")) == sorted_by(lambda x: (x.a, x.b))


class _Plainly(msgspec.Struct, gc=False):
    user: int
    amount: float
    name: str | None
    flag: bool = False


# values of each field's annotation, and now and then one that msgpack would change
_PLAINLY = st.builds(
    _Plainly,
    user=st.integers(-2, 2) | st.sampled_from([True, _Level.LOW, 2**70, 1.0]),
    amount=st.floats(allow_nan=False) | st.sampled_from([1, -0.0]),
    name=st.sampled_from([None, "", "a", "中"]) | st.just(_Text("t")),
    flag=st.booleans() | st.just(0),
)


@pytest.mark.parametrize("engine", ["c", "python"])
@given(items=st.lists(_PLAINLY, max_size=60))
def test_law_a_spill_by_msgspec_gives_back_every_value_with_its_type(
    engine: str, items: list[_Plainly]
) -> None:
    # frames of a Struct of plain fields go to disk by msgpack where each value is of its
    # annotation's type itself; a frame holding another (an int in a float field, a bool
    # in an int one, an IntEnum, a str subclass, an int past 64 bits) is pickled: either
    # way each item comes back with the same values of the same types
    if engine == "c" and frames.HOLDS is None:
        pytest.skip("the C flow engine is not built")
    with pytest.MonkeyPatch.context() as patched:
        if engine == "python":  # msgspec's msgpack, checked by holds in Python
            for engine_s in ("HOLDS", "PACK", "UNPACK"):
                patched.setattr(frames, engine_s, None)
        sorter: Sorter[_Plainly] = Sorter(_amount, False, 1)
        for start in range(0, len(items), 5):
            sorter.add(items[start : start + 5])
        got = list(sorter.output())
        written = sorter.frames.plain[0].encode if sorter.frames.plain else None
        sorter.close()
    want = sorted(items, key=_amount)
    fields = [tuple(msgspec.structs.astuple(item)) for item in got]
    assert list(map(_shape, fields)) == [_shape(msgspec.structs.astuple(x)) for x in want]
    assert all(type(item) is _Plainly for item in got)
    most = 2**63 if engine == "c" else 2**64  # the C engine's ints are signed
    plain = [x for x in items if _right(x) and -(2**63) <= x.user < most]
    if plain and written is not None:  # a frame of right values is not pickled
        assert written(plain) is not None


def _right(item: _Plainly) -> bool:
    """Whether each of ``item``'s values is of its annotation's type itself."""
    kinds = (int, float, str, bool)
    values = msgspec.structs.astuple(item)
    return all(type(v) is t or (v is None and t is str) for v, t in zip(values, kinds, strict=True))


def _amount(item: _Plainly) -> float:
    return float(item.amount)


def test_only_a_struct_of_plain_fields_has_a_codec() -> None:
    assert frames.Plain.of(_Plainly) is not None
    assert frames.Plain.of(_Event) is None  # extra: Any
    assert frames.Plain.of(_Row) is None  # a dataclass

    class Omitting(msgspec.Struct, omit_defaults=True):
        n: float = 0.0

    assert frames.Plain.of(Omitting) is None  # an int 0 would come back 0.0


@pytest.mark.skipif(frames.HOLDS is None, reason="the C flow engine is not built")
@given(items=st.lists(_PLAINLY | st.builds(_Named, user=st.integers(0, 2)), max_size=20))
def test_law_the_c_check_of_a_frames_fields_is_the_python_checks(items: list[Any]) -> None:
    names, allowed = ("user", "amount", "name"), ((int,), (float,), (str, type(None)))
    assert frames.HOLDS is not None
    held = frames.holds(items, _Plainly, names, allowed)
    assert frames.HOLDS(items, _Plainly, names, allowed) == held
    # the C codec writes a frame exactly where it holds (and its ints fit in 64 bits),
    # and reads back the same values of the same types
    assert frames.PACK is not None and frames.UNPACK is not None
    every, kinds = (*names, "flag"), (*allowed, (bool,))
    packed = frames.PACK(items, _Plainly, every, kinds)
    wide = any(type(x.user) is int and not -(2**63) <= x.user < 2**63 for x in items)
    assert (packed is not None) == (frames.holds(items, _Plainly, every, kinds) and not wide)
    if packed is not None:
        back = frames.UNPACK(packed, _Plainly, every)
        shapes = [_shape(msgspec.structs.astuple(x)) for x in items]
        assert [_shape(msgspec.structs.astuple(x)) for x in back] == shapes
        assert all(type(x) is _Plainly for x in back)


class _Nothing(msgspec.Struct, gc=False):
    """A Struct of no fields: a frame of them is only how many there are."""


class _Only(msgspec.Struct, gc=False):
    n: int


@pytest.mark.parametrize("engine", ["c", "python"])
@pytest.mark.parametrize("kind", [_Nothing, _Only])
def test_a_spilled_sort_of_structs_of_no_field_or_one_gives_every_item_back(
    engine: str, kind: type
) -> None:
    # a frame of Structs of no field holds no value: it still comes back with each item
    # (the C codec writes how many there are)
    from lazyfun import stream

    made = [kind() if kind is _Nothing else kind(n % 7) for n in range(3_000)]
    with pytest.MonkeyPatch.context() as patched:
        if engine == "python":
            for engine_s in ("HOLDS", "PACK", "UNPACK"):
                patched.setattr(frames, engine_s, None)
        back = stream(made).sort(key=lambda x: getattr(x, "n", 0), memory=2_000).to_list()
    assert back == sorted(made, key=lambda x: getattr(x, "n", 0))
    assert len(back) == 3_000 and all(type(x) is kind for x in back)


@pytest.mark.skipif(frames.PACK is None, reason="the C flow engine is not built")
def test_the_c_codec_refuses_what_it_cannot_give_back_and_a_torn_frame() -> None:
    assert frames.PACK is not None and frames.UNPACK is not None
    names, allowed = ("user", "amount", "name"), ((int,), (float,), (str, type(None)))
    for odd in (_Plainly(2**63, 1.0, None), _Plainly(1, 1.0, "a\ud800")):
        assert frames.PACK([odd], _Plainly, names, allowed) is None  # pickled instead
    packed = frames.PACK(
        [_Plainly(1, 2.0, "中"), _Plainly(-1, -0.0, None)], _Plainly, names, allowed
    )
    assert packed is not None and packed[0] == frames.PACKED
    for torn in (packed[:-1], packed[:5], b"\x90", b""):
        with pytest.raises(ValueError, match="not a frame pack wrote"):
            frames.UNPACK(torn, _Plainly, names)


class _Tagged(msgspec.Struct, tag=True, frozen=True):
    n: int
    s: str


class _Listed(msgspec.Struct, array_like=True, rename="camel"):
    n_items: int
    some_text: str | None = None


class _Keyed(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    s: str = ""
    n: int


@pytest.mark.parametrize(
    "make",
    [
        lambda n: _Tagged(n % 7, f"s{n}"),
        lambda n: _Listed(n % 7, None if n % 3 else f"s{n}"),
        lambda n: _Keyed(n=n % 7, s=f"s{n}"),
    ],
)
def test_a_struct_of_any_config_spilled_by_msgspec_comes_back_the_same(
    make: Callable[[int], Any],
) -> None:
    # tags, frozen, array-like, renamed and keyword-only fields all come back as they went
    items = [make(n) for n in range(500)]
    codec = frames.Plain.of(type(items[0]))
    assert codec is not None and codec.encode(items) is not None
    key = attrgetter("n") if hasattr(items[0], "n") else attrgetter("n_items")
    sorter: Sorter[Any] = Sorter(key, False, 1)
    for start in range(0, len(items), 50):
        sorter.add(items[start : start + 50])
    got = list(sorter.output())
    assert sorter.frames.plain and sorter.runs  # spilled, by msgspec
    sorter.close()
    want = sorted(items, key=key)
    assert got == want and all(type(a) is type(b) for a, b in zip(got, want, strict=True))
