"""The named fields of a record, for the sinks that write columns (CSV, Parquet, SQL).

A record is a dict with string keys, a dataclass instance or a msgspec Struct; the
first record names the columns, and every later one must have the same fields (a
dict's in any order).

>>> columns = Columns({"a": 1, "b": 2})
>>> columns.names, columns.rows([{"b": 4, "a": 3}])
(('a', 'b'), [(3, 4)])
>>> columns.rows([{"a": 5}])
Traceback (most recent call last):
...
lazyfun.sinks.columns.Misfit: fields (a) differ from the first record's (a, b)
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from itertools import repeat
from typing import Any

__all__ = ["Columns", "Misfit", "field_names"]


class Misfit(Exception):
    """A record whose fields are not the columns (the sink turns it into a RecordError)."""


def field_names(record: object) -> tuple[str, ...]:
    """The field names of a record, in order; Misfit if it has none.

    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Point:
    ...     x: int
    ...     y: int
    >>> field_names(Point(1, 2)), field_names({"k": 0})
    (('x', 'y'), ('k',))
    """
    if isinstance(record, dict):
        names = tuple(record)
        if not all(isinstance(name, str) for name in names):
            raise Misfit("a record's keys must be strings (they name the columns)")
        return names
    struct_fields = getattr(type(record), "__struct_fields__", None)  # a msgspec Struct
    if struct_fields is not None:
        return tuple(struct_fields)
    if dataclasses.is_dataclass(record) and not isinstance(record, type):
        return tuple(field.name for field in dataclasses.fields(record))
    raise Misfit(
        "a record has named fields (a dict, a dataclass or a msgspec Struct), "
        f"got {type(record).__name__}"
    )


def _getter(kind: type, names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    get: Callable[[Any], Any] = (
        operator.itemgetter(*names) if issubclass(kind, dict) else operator.attrgetter(*names)
    )
    if len(names) == 1:
        one = get
        return lambda record: (one(record),)
    return get


class Columns:
    """The columns named by a first record, and the rows (tuples in column order) of the
    records that have exactly those fields."""

    __slots__ = ("get", "keys", "kind", "names")

    def __init__(self, first: object) -> None:
        self.names = field_names(first)
        self.keys = frozenset(self.names)
        self.kind = type(first)
        self.get = _getter(self.kind, self.names)

    def rows(self, records: list[Any]) -> list[tuple[Any, ...]]:
        """The rows of ``records``; Misfit at the first record whose fields differ
        (raised only when the fast path over the whole list fails, so no row is lost:
        the caller finds the first misfit by trying each record alone)."""
        if issubclass(self.kind, dict):
            # every name found and no other key: the same fields (in C, no set built)
            try:
                rows = list(map(self.get, records))
            except (KeyError, TypeError):
                rows = None
            if rows is not None and all(
                map(operator.eq, map(len, records), repeat(len(self.names)))
            ):
                return rows
        elif all(map(operator.is_, map(type, records), repeat(self.kind))):
            return list(map(self.get, records))
        return [self._row(record) for record in records]

    def _row(self, record: object) -> tuple[Any, ...]:
        names = field_names(record)
        if names != self.names and (not isinstance(record, dict) or set(names) != self.keys):
            raise Misfit(
                f"fields ({', '.join(names)}) differ from the first record's "
                f"({', '.join(self.names)})"
            )
        return _getter(type(record), self.names)(record)
