"""The values a decision may take, and the error every mistake in a model raises."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["MAX_SPAN", "Domain", "ModelError", "check_int"]


class ModelError(ValueError):
    """A model that cannot be built as written; the message names the mistake."""


MAX_SPAN = 1 << 24
"""The most values a domain may span, from its lowest to its highest (a bit each)."""


@dataclass(frozen=True)
class Domain:
    """The values a decision may take: a finite set of integers, held as a bit set
    (bit ``i`` stands for ``offset + i``), so a range of any length up to ``MAX_SPAN``
    is made in time proportional to its bits, not its values.

    >>> Domain.integer_range(1, 4).values
    (1, 2, 3, 4)
    >>> Domain.of([5, 1, 5]).values, Domain.boolean().values
    ((1, 5), (0, 1))
    >>> d = Domain.integer_range(0, 300_000)
    >>> d.low, d.high, len(d), 150_000 in d
    (0, 300000, 300001, True)
    """

    offset: int
    bits: int

    def __post_init__(self) -> None:
        check_int(self.offset, "a domain value")
        if not isinstance(self.bits, int) or self.bits <= 0 or not self.bits & 1:
            raise ModelError("a domain needs at least one value")
        if self.bits.bit_length() > MAX_SPAN:
            raise ModelError(
                f"a domain may span at most {MAX_SPAN:,} values from its lowest to its "
                f"highest; this one spans {self.bits.bit_length():,}"
            )

    @staticmethod
    def integer_range(low: int, high: int) -> Domain:
        """``Domain.IntegerRange(low, high)``: every integer from ``low`` to ``high``."""
        check_int(low, "the low end of a range")
        check_int(high, "the high end of a range")
        if low > high:
            raise ModelError(f"empty domain: integer_range({low}, {high})")
        _check_span(low, high)
        return Domain(low, (1 << (high - low + 1)) - 1)

    @staticmethod
    def of(values: Iterable[int]) -> Domain:
        """The given values (sorted, duplicates dropped)."""
        vals = set()
        for v in values:
            vals.add(check_int(v, "a domain value"))
        if not vals:
            raise ModelError("a domain needs at least one value")
        low, high = min(vals), max(vals)
        _check_span(low, high)
        marks = bytearray((high - low) // 8 + 1)
        for v in vals:
            marks[(v - low) >> 3] |= 1 << ((v - low) & 7)
        return Domain(low, int.from_bytes(marks, "little"))

    @staticmethod
    def union(domains: Iterable[Domain]) -> Domain:
        """Every value of any of ``domains``."""
        parts = list(domains)
        if not parts:
            raise ModelError("a domain needs at least one value")
        base = min(d.offset for d in parts)
        _check_span(base, max(d.high for d in parts))
        bits = 0
        for d in parts:
            bits |= d.bits << (d.offset - base)
        return Domain(base, bits)

    @staticmethod
    def boolean() -> Domain:
        """0 or 1."""
        return Domain(0, 0b11)

    @property
    def values(self) -> tuple[int, ...]:
        """Every value, smallest first (made on each call: a long range is a long tuple)."""
        bits, offset = self.bits, self.offset
        if bits & (bits + 1) == 0:  # a range
            return tuple(range(offset, offset + bits.bit_length()))
        marks = bits.to_bytes((bits.bit_length() + 7) // 8, "little")
        return tuple(
            offset + 8 * k + b
            for k, byte in enumerate(marks)
            if byte
            for b in range(8)
            if byte >> b & 1
        )

    @property
    def low(self) -> int:
        """The smallest value."""
        return self.offset

    @property
    def high(self) -> int:
        """The largest value."""
        return self.offset + self.bits.bit_length() - 1

    def __len__(self) -> int:
        return self.bits.bit_count()

    def __contains__(self, value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, int):
            return False
        return value >= self.offset and bool(self.bits >> (value - self.offset) & 1)


def _check_span(low: int, high: int) -> None:
    if high - low >= MAX_SPAN:
        raise ModelError(
            f"a domain may span at most {MAX_SPAN:,} values from its lowest to its highest; "
            f"{low}..{high} spans {high - low + 1:,}"
        )


def check_int(value: object, what: str) -> int:
    """``value`` if it is an int (not a bool); a ``ModelError`` naming ``what`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ModelError(f"{what} must be an integer, got {value!r}")
    return value
