"""The values a decision may take, and the error every mistake in a model raises."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Domain", "ModelError", "check_int"]


class ModelError(ValueError):
    """A model that cannot be built as written; the message names the mistake."""


@dataclass(frozen=True)
class Domain:
    """The values a decision may take: a finite set of integers.

    >>> Domain.integer_range(1, 4).values
    (1, 2, 3, 4)
    >>> Domain.of([5, 1, 5]).values, Domain.boolean().values
    ((1, 5), (0, 1))
    """

    values: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.values:
            raise ModelError("a domain needs at least one value")
        for v in self.values:
            check_int(v, "a domain value")

    @staticmethod
    def integer_range(low: int, high: int) -> Domain:
        """``Domain.IntegerRange(low, high)``: every integer from ``low`` to ``high``."""
        check_int(low, "the low end of a range")
        check_int(high, "the high end of a range")
        if low > high:
            raise ModelError(f"empty domain: integer_range({low}, {high})")
        return Domain(tuple(range(low, high + 1)))

    @staticmethod
    def of(values: Iterable[int]) -> Domain:
        """The given values (sorted, duplicates dropped)."""
        vals = list(values)
        for v in vals:
            check_int(v, "a domain value")
        return Domain(tuple(sorted(set(vals))))

    @staticmethod
    def boolean() -> Domain:
        """0 or 1."""
        return Domain((0, 1))

    @property
    def offset(self) -> int:
        return self.values[0]

    @property
    def bits(self) -> int:
        """The values as a bit set over ``offset``."""
        bits = 0
        for v in self.values:
            bits |= 1 << (v - self.offset)
        return bits


def check_int(value: object, what: str) -> int:
    """``value`` if it is an int (not a bool); a ``ModelError`` naming ``what`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ModelError(f"{what} must be an integer, got {value!r}")
    return value
