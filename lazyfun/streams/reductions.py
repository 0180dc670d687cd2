"""The named reductions of ``aggregate`` and the windows: count, the exact sum, min, max,
mean, var, std (Welford's moments), first and last, each a start, a step and an end over
the values of a key (:data:`REDUCTIONS`); :func:`reductions` checks a call's names.

The sum is exact: its floats are kept as two (Knuth's TwoSum twice, rarely a few more)
and rounded once at the end, as ``math.fsum`` rounds them.

>>> total = REDUCTIONS["sum"]
>>> acc = total.start(0.1)
>>> for value in (0.2, 0.3):
...     acc = total.step(acc, value)
>>> total.end(acc), sum((0.1, 0.2, 0.3))
(0.6, 0.6000000000000001)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

from lazyfun.streams.fields import key_of

__all__ = [
    "END",
    "REDUCTIONS",
    "Count",
    "Exact",
    "First",
    "Last",
    "Max",
    "Min",
    "Named",
    "Reduction",
    "Sum",
    "one_key",
    "reductions",
    "spill_float",
]

T = TypeVar("T")

END: Any = object()  # not there yet: a key's state (reduce_by), a sum's values other than numbers


class Reduction:
    """A named reduction: a start, a step and an end over the values of a key."""

    __slots__ = ()

    def start(self, value: Any) -> Any:
        return value

    def step(self, acc: Any, value: Any) -> Any:
        raise NotImplementedError

    def end(self, acc: Any) -> Any:
        return acc


class Count(Reduction):
    def start(self, value: Any) -> Any:
        return 1

    def step(self, acc: Any, value: Any) -> Any:
        return acc + 1


class Exact(list[float]):
    """A running sum, exact: its floats as ``[hi, lo, *more]``, floats whose sum is exactly
    theirs (empty until the first float): each float ``x`` is added by Knuth's TwoSum,
    ``hi + x == s + e`` and ``lo + e == t + f`` exactly, so ``hi, lo = s, t`` and ``f`` joins
    ``more`` only when it is not zero (rare: ``lo`` holds what ``hi`` lost, at most a few
    dozen bits; ``more`` folded into partials past ``SPARE``), two floats a key in practice;
    its ints added as ints, anything else (a Decimal, a Fraction, a timedelta) with ``+``."""

    __slots__ = ("ints", "other")

    def __init__(self) -> None:
        super().__init__()
        self.ints: int | None = None
        self.other: Any = END


SPARE = 32  # floats a sum gathers beyond its two before it folds them into its partials


def _partials(values: list[float]) -> list[float]:
    """Floats whose sum is exactly the sum of ``values`` (which it takes for its own),
    largest first: the sum correctly rounded (``math.fsum``), then what it left out,
    rounded, until nothing is (each left-out part is below half an ulp of the last:
    two or three steps).  Past the floats' range, the plain sum (inf, or nan for -inf and
    inf, as ``sum``)."""
    parts: list[float] = []
    try:
        while True:
            part = math.fsum(values)
            if not part or not math.isfinite(part):
                return parts or [part]
            parts.append(part)
            values.append(-part)
    except (OverflowError, ValueError):  # a sum past the range, or -inf and inf (nan)
        return [sum(values[: len(values) - len(parts)])]


def _rounded(values: list[float]) -> float:
    """The sum of ``values`` correctly rounded (``math.fsum``); past the floats' range on
    the way, the plain sum (inf, as ``sum``)."""
    try:
        return math.fsum(values)
    except (OverflowError, ValueError):  # past the range, or -inf and inf (nan, as sum)
        return sum(values)


def _int_floats(n: int) -> list[float]:
    """Floats whose sum is exactly ``n``."""
    parts: list[float] = []
    while n:
        part = float(n)
        parts.append(part)
        n -= int(part)
    return parts


def _add_float(acc: Exact, x: float) -> None:
    """``acc`` plus the float ``x``, exactly (TwoSum twice; see :class:`Exact`)."""
    if not acc:
        acc += (x, 0.0)
        return
    hi, lo = acc[0], acc[1]
    s = hi + x
    z = s - hi
    e = (hi - (s - z)) + (x - z)  # hi + x == s + e
    t = lo + e
    z = t - lo
    f = (lo - (t - z)) + (e - z)  # lo + e == t + f
    if f:  # a part left over, or inf or nan past the floats' range
        spill_float(acc, x, s, t, f)
    else:
        acc[0], acc[1] = s, t


def spill_float(acc: Exact, x: float, s: float, t: float, f: float) -> None:
    """The rare case of :func:`_add_float`: ``f``, the part ``hi, lo = s, t`` leave out,
    kept beside them; ``x`` itself when the TwoSums left the floats' range (``f`` inf or
    nan), for :func:`math.fsum` to judge at the end; past ``SPARE`` of them, all folded."""
    if math.isfinite(f):
        acc[0], acc[1] = s, t
        acc.append(f)
    else:
        acc.append(x)
    if len(acc) > SPARE:
        parts = _partials(list(acc))
        acc[:] = parts if len(parts) > 1 else [parts[0], 0.0]


class Sum(Reduction):
    """The sum, exact: ints stay ints; floats (and ints among them) give the exact sum
    rounded once, as ``math.fsum``; other values are added with ``+``, then to that.
    A value that could not be added to what came before (a None, a str or a timedelta
    among numbers) is a TypeError at its item, before it changes anything, not at the
    end: where numbers and other values meet, their sum's last ``+`` is tried then."""

    def start(self, value: Any) -> Any:
        return self.step(Exact(), value)

    def step(self, acc: Any, value: Any) -> Any:
        if type(value) is float:  # the common case first
            _add_float(acc, _mixed(acc, value))
        elif isinstance(value, float):
            _add_float(acc, float(_mixed(acc, value)))
        elif isinstance(value, int):
            acc.ints = _mixed(acc, value) if acc.ints is None else acc.ints + value
        elif acc.other is END:
            if acc or acc.ints is not None:
                _ = value + (0.0 if acc else 0)  # as end() will add them: may raise
            acc.other = value
        else:
            acc.other += value
        return acc

    def end(self, acc: Any) -> Any:
        total: Any = acc.ints
        if acc:  # floats: two at least, once one came
            if len(acc) == 2 and not acc[1] and total is None:
                total = acc[0]  # as fsum([x]) is x, -0.0 too
            else:
                total = _rounded([*acc, *_int_floats(acc.ints or 0)])
        if acc.other is END:
            return total
        return acc.other if total is None else acc.other + total


def _mixed(acc: Exact, number: T) -> T:
    """``number``, once tried against the sum's other values, where there are some and
    no number of its kind came before (end() adds them): a TypeError if they cannot."""
    if acc.other is not END and not acc and (acc.ints is None or type(number) is float):
        _ = acc.other + (0.0 if type(number) is float else 0)  # as end() will: may raise
    return number


class Min(Reduction):
    def step(self, acc: Any, value: Any) -> Any:
        return value if value < acc else acc


class Max(Reduction):
    def step(self, acc: Any, value: Any) -> Any:
        return value if acc < value else acc


class First(Reduction):
    def step(self, acc: Any, value: Any) -> Any:
        return acc


class Last(Reduction):
    def step(self, acc: Any, value: Any) -> Any:
        return value


class Moments(Reduction):
    """Welford's running count, mean and sum of squared deviations: numerically stable
    (no sum of squares that cancels)."""

    def start(self, value: Any) -> Any:
        return [1, float(value), 0.0]

    def step(self, acc: Any, value: Any) -> Any:
        acc[0] += 1
        delta = value - acc[1]
        acc[1] += delta / acc[0]
        acc[2] += delta * (value - acc[1])
        return acc


class Mean(Moments):
    def end(self, acc: Any) -> Any:
        return acc[1]


class Var(Moments):
    """The sample variance (n - 1), as ``statistics.variance``; None below two values."""

    def end(self, acc: Any) -> Any:
        return acc[2] / (acc[0] - 1) if acc[0] > 1 else None


class Std(Var):
    def end(self, acc: Any) -> Any:
        variance = super().end(acc)
        return None if variance is None else math.sqrt(variance)


REDUCTIONS: dict[str, Reduction] = {
    "count": Count(),
    "sum": Sum(),
    "min": Min(),
    "max": Max(),
    "mean": Mean(),
    "var": Var(),
    "std": Std(),
    "first": First(),
    "last": Last(),
}

Named = str | tuple[str, "str | Callable[[Any], Any]"]


def reductions(named: dict[str, Any]) -> list[tuple[str, Reduction, Callable[[Any], Any]]]:
    """``aggregate``'s named reductions, checked at the call: each ``"count"`` or a pair of
    a reduction's name and what it reduces (a field name or a function of the item)."""
    if not named:
        raise ValueError("aggregate needs at least one named reduction, e.g. n='count'")
    made: list[tuple[str, Reduction, Callable[[Any], Any]]] = []
    for name, spec in named.items():
        if spec == "count":
            made.append((name, REDUCTIONS["count"], _itself))
            continue
        if not (isinstance(spec, tuple) and len(spec) == 2 and spec[0] in REDUCTIONS):
            raise ValueError(
                f"aggregate's {name}= must be 'count' or (reduction, field or function) with "
                f"a reduction of {', '.join(REDUCTIONS)}; got {spec!r}"
            )
        made.append((name, REDUCTIONS[spec[0]], key_of(spec[1])))
    return made


def _itself(item: T) -> T:
    return item


def one_key(item: object) -> None:
    """The one key of reductions over a whole group (a window's): None, for any item."""
    return None
