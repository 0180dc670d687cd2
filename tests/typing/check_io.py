"""lazyfun.io: each source is a typed Stream; a sink gives the count of records written."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, assert_type

from lazyfun import Stream
from lazyfun.io import read_csv, read_jsonl, read_lines, read_parquet, read_sql, to_jsonl, to_lines


@dataclass
class Point:
    x: int
    y: int


assert_type(read_lines("notes.txt"), Stream[str])
assert_type(read_lines("notes.txt").map(str.upper).to_lines("upper.txt"), int)
assert_type(read_jsonl("points.jsonl"), Stream[Any])
assert_type(read_jsonl("points.jsonl", Point), Stream[Point])
assert_type(read_jsonl("points.jsonl", Point).map(lambda point: point.x), Stream[int])
assert_type(read_csv("points.csv"), Stream[dict[str, str]])
assert_type(read_csv("points.csv", Point, delimiter=";"), Stream[Point])
assert_type(read_sql("points.db", "select x from points"), Stream[dict[str, Any]])
assert_type(read_parquet("points.parquet", columns=["x"]), Stream[dict[str, Any]])
assert_type(to_lines(["a", "b"], "out.txt"), int)
assert_type(to_jsonl([Point(1, 2)], "out.jsonl", atomic=True), int)
