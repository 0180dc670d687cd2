"""The Parquet sink's columns built as Arrow buffers in C (:mod:`lazyfun.sinks.parquet`'s
``_arrays``): each the array ``pyarrow.array`` infers from the same values, or, where the
engine does not build a column, made by ``pyarrow.array`` itself."""

from __future__ import annotations

import struct
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lazyfun.sinks import parquet
from lazyfun.sinks.columns import Columns
from lazyfun.sinks.parquet import _arrays, _values

pa = pytest.importorskip("pyarrow")

needs_c = pytest.mark.skipif(parquet.BUFFERS is None, reason="the C columns were not built")

# the kinds of values a column holds, one or two of them mixed, with None among them
KINDS = [
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.integers(),  # past 64 bits too: pyarrow refuses them
    st.floats(),  # NaN, infinities, -0.0
    st.booleans(),
    st.text(),
    st.text(alphabet=st.characters(codec="utf-8")) | st.just("\ud800"),  # a lone surrogate
    st.binary(),
]


@st.composite
def _column(draw: st.DrawFn, rows: int) -> list[Any]:
    kinds = draw(st.lists(st.sampled_from(KINDS), min_size=1, max_size=2))
    values = st.one_of(*kinds)
    if draw(st.booleans()):
        values = st.none() | values
    return [draw(values) for _ in range(rows)]


def _same(value: object) -> object:
    """A value as it compares here: a float by its bits (NaN equals NaN, -0.0 not 0.0)."""
    return struct.pack("<d", value) if isinstance(value, float) else value


def _made(build: Any) -> tuple[str, object]:
    """What ``build()`` made, each array by its type, nulls and values; or what it raised."""
    try:
        arrays = build()
    except Exception as error:  # both ways must raise the same
        return ("raised", type(error))
    return ("made", [(str(a.type), a.null_count, list(map(_same, a.to_pylist()))) for a in arrays])


@given(
    st.integers(min_value=0, max_value=40).flatmap(
        lambda rows: st.lists(_column(rows), min_size=1, max_size=4)
    )
)
def test_law_the_c_columns_are_the_arrays_pyarrow_infers(columns: list[list[Any]]) -> None:
    rows = len(columns[0])
    records = [{f"c{f}": column[i] for f, column in enumerate(columns)} for i in range(rows)]
    if not records:
        return
    named = Columns(records[0])
    expected = _made(lambda: [pa.array(column) for column in _values(named, records)])
    assert _made(lambda: _arrays(named, records)) == expected


class _Event(msgspec.Struct, gc=False):
    ts: str
    kind: str | None
    user: int
    amount: float
    flag: bool
    raw: bytes


@dataclass(slots=True)
class _Slotted:
    user: int
    name: str | None


@needs_c
def test_the_c_engine_builds_the_columns_of_structs_slotted_classes_and_dicts() -> None:
    events = [
        _Event(f"t{i}", None if i % 3 else "é", i - 5, i / 7, i % 2 == 0, bytes([i]))
        for i in range(20)
    ]
    slotted = [_Slotted(i, None if i % 4 else str(i)) for i in range(20)]
    dicts = [{"a": i, "b": "x" * i} for i in range(20)]
    for records in (events, slotted, dicts):
        named = Columns(records[0])
        assert parquet.BUFFERS is not None
        built = parquet.BUFFERS(records, named.kind, named.names)
        assert built is not None and None not in built  # every column by the engine
        expected = [pa.array(column) for column in _values(named, records)]
        for made, wanted in zip(_arrays(named, records), expected, strict=True):
            assert made.type == wanted.type and made.to_pylist() == wanted.to_pylist()
            assert made.null_count == wanted.null_count


@needs_c
def test_the_c_engine_leaves_records_not_alike_and_columns_it_does_not_build() -> None:
    assert parquet.BUFFERS is not None
    named = Columns({"a": 1, "b": 2})
    # a record of other keys, of another type, with a key more: the Python path's to find
    for odd in ({"a": 1, "c": 2}, _Slotted(1, "x"), {"a": 1, "b": 2, "c": 3}):
        assert parquet.BUFFERS([{"a": 1, "b": 2}, odd], named.kind, named.names) is None

    # an int past 64 bits, ints among floats, a bool among ints, no value, a str subclass
    class Text(str):
        pass

    columns: list[list[Any]] = [[2**64, 1], [1, 2.5], [1, True], [None, None], [Text("a"), "b"]]
    records = [{f"c{f}": column[i] for f, column in enumerate(columns)} for i in range(2)]
    named = Columns(records[0])
    assert parquet.BUFFERS(records, named.kind, named.names) == [None] * len(columns)


@needs_c
def test_a_parquet_job_of_columns_the_engine_builds_never_imports_pandas(tmp_path: Any) -> None:
    # pyarrow.array imports pandas (0.45 s, 45 MB); the engine's buffers do not need it
    script = (
        "import sys\n"
        "from lazyfun import stream\n"
        f"stream({{'n': n, 's': str(n), 'x': n / 2}} for n in range(5000))"
        f".to_parquet({str(tmp_path / 'out.parquet')!r}, row_group=1000)\n"
        "print('pandas' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split() == ["False"]
