"""How the Parquet sink reads a batch's columns (:mod:`lazyfun.sinks.parquet`): a slice
of records at a time, as the plain reference reads them whole."""

from __future__ import annotations

import operator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lazyfun import stream
from lazyfun.sinks import parquet
from lazyfun.sinks.parquet import SLICE, _gathered, _gathered_reference

pq = pytest.importorskip("pyarrow.parquet")


@given(
    size=st.sampled_from([0, 1, SLICE - 1, SLICE, SLICE + 1, 3 * SLICE + 7]),
    fields=st.lists(st.sampled_from("abcd"), min_size=1, max_size=4, unique=True),
)
def test_a_batchs_columns_read_a_slice_at_a_time_are_its_references(
    size: int, fields: list[str]
) -> None:
    # across the slices' edges, in the records' order, one column a getter
    records = [{name: (place, name) for name in fields} for place in range(size)]
    getters: list[Any] = list(map(operator.itemgetter, fields))
    expected = _gathered_reference(getters, records)
    assert expected == [[(place, name) for place in range(size)] for name in fields]
    assert _gathered(getters, records) == expected


@dataclass
class _Point:
    x: int
    y: str


def test_a_parquet_file_of_many_slices_has_every_row_in_its_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # dicts and dataclasses, batches of several slices (a small slice), a missing field
    # in a later slice still found as the record whose fields differ
    monkeypatch.setattr(parquet, "SLICE", 3)
    rows = [{"n": n, "s": str(n)} for n in range(20)]
    assert stream(rows).to_parquet(tmp_path / "d.parquet", row_group=8) == 20
    assert pq.read_table(tmp_path / "d.parquet").to_pylist() == rows
    points = [_Point(n, str(n)) for n in range(20)]
    assert stream(points).to_parquet(tmp_path / "p.parquet", row_group=8) == 20
    assert pq.read_table(tmp_path / "p.parquet").to_pylist() == [
        {"x": n, "y": str(n)} for n in range(20)
    ]
    broken = [*rows[:7], {"n": 7}, *rows[8:]]
    with pytest.raises(Exception, match="row 8"):
        stream(broken).to_parquet(tmp_path / "b.parquet", row_group=10)


def test_a_dictionary_is_written_for_a_column_of_few_values_only(tmp_path: Path) -> None:
    # a column of repeated values is dictionary-encoded, one of values mostly unique is
    # written plainly (pyarrow's default tries a dictionary on both); the rows are the same
    path = tmp_path / "kinds.parquet"
    rows = [{"kind": "ab"[n % 2], "ts": f"t{n:06d}", "n": n} for n in range(25_000)]
    stream(rows).to_parquet(path)
    meta = pq.ParquetFile(path).metadata
    for group in range(meta.num_row_groups):
        chunks = {meta.row_group(group).column(c).path_in_schema: c for c in range(3)}
        encodings = {name: meta.row_group(group).column(c).encodings for name, c in chunks.items()}
        assert any("DICTIONARY" in e for e in encodings["kind"])
        assert not any("DICTIONARY" in e for e in encodings["ts"] + encodings["n"])
    assert pq.read_table(path).to_pylist() == rows


def test_a_column_pyarrow_cannot_count_keeps_its_dictionary() -> None:
    pa = pytest.importorskip("pyarrow")
    table = pa.table({"k": pa.array(["a", "b"]).dictionary_encode(), "n": [1, 2]})
    assert parquet._repeating(table) == ["k"]
