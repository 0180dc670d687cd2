"""What linear expressions cannot say: ``x * y``, ``x // k``, ``x % k`` and ``abs(x)``.

Each is a *function* constraint ``result == f(arguments)`` over decisions: the
model defines the result as a hidden decision (so it never shows in
``as_dict()`` and, being fixed by its arguments, never changes ``count()``),
with the domain :func:`image` gives, and the operator returns it as an
expression.  Python's own meaning is kept: ``//`` rounds down and ``%`` takes
the sign of the divisor.

>>> from lazyfun.csp import Model, Domain
>>> m = Model()
>>> x = m.decision("x", Domain.integer_range(-4, 4))
>>> y = m.decision("y", Domain.integer_range(0, 3))
>>> m.add_constraint("product", x * y == -6)
>>> m.add_constraint("odd", x % 2 == 1)
>>> [s.as_dict() for s in m.solutions()]
[{'x': -3, 'y': 2}]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import product

from lazyfun.csp.modelling.constraints import Constraint, Decision
from lazyfun.csp.modelling.domain import Domain

__all__ = ["ENUMERATED", "Function", "image"]

ENUMERATED = 1 << 12
"""At most this many argument combinations: a result's domain is the exact set of
values ``f`` takes on them (and propagation keeps exactly the supported values)."""


class Function(Constraint):
    """``result == f(*arguments)`` for one of ``*``, ``//``, ``%``, ``abs``; ``name``
    says which and ``k`` is the constant divisor of ``//`` and ``%``."""

    def __init__(
        self, name: str, result: Decision, arguments: Sequence[Decision], k: int = 0
    ) -> None:
        self.name = name
        self.result = result
        self.arguments = tuple(arguments)
        self.k = k
        self.model = result.model
        self.scope = tuple(sorted({result.index, *(a.index for a in arguments)}))
        self.f = _FUNCTIONS[name](k)

    def holds(self, values: Sequence[int]) -> bool:
        return values[self.result.index] == self.f(*(values[a.index] for a in self.arguments))

    def __repr__(self) -> str:
        shown = ", ".join([a.name for a in self.arguments] + ([str(self.k)] if self.k else []))
        return f"Function({self.result.name} == {self.name}({shown}))"


def _times(k: int) -> Callable[..., int]:
    return lambda x, y=None: x * (x if y is None else y)


def _floor_divided(k: int) -> Callable[..., int]:
    return lambda x: x // k


def _remainder(k: int) -> Callable[..., int]:
    return lambda x: x % k


def _absolute(k: int) -> Callable[..., int]:
    return _abs


def _abs(x: int) -> int:
    return abs(x)


_FUNCTIONS: dict[str, Callable[[int], Callable[..., int]]] = {
    "*": _times,
    "//": _floor_divided,
    "%": _remainder,
    "abs": _absolute,
}


def span(name: str, k: int, ranges: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """The smallest and largest value ``f`` can take with each argument in its range."""
    if name == "*":
        (a, b), (c, d) = ranges if len(ranges) == 2 else (ranges[0], ranges[0])
        if len(ranges) == 1 and a <= 0 <= b:  # a square over a range holding 0
            return 0, max(a * a, b * b)
        corners = (a * c, a * d, b * c, b * d)
        return min(corners), max(corners)
    ((a, b),) = ranges
    if name == "//":
        return (a // k, b // k) if k > 0 else (b // k, a // k)
    if name == "%":
        if b - a < abs(k) - 1 and a % k <= b % k:  # no wrap-around inside the range
            return a % k, b % k
        return (0, k - 1) if k > 0 else (k + 1, 0)
    if a >= 0:
        return a, b
    if b <= 0:
        return -b, -a
    return 0, max(-a, b)


def image(name: str, k: int, arguments: Sequence[Decision]) -> Domain:
    """The result's domain: the exact values of ``f`` when the arguments have at most
    ``ENUMERATED`` combinations, else the range :func:`span` gives."""
    f = _FUNCTIONS[name](k)
    domains = [a.domain for a in arguments]
    count = 1
    for d in domains:
        count *= len(d)
    if count <= ENUMERATED:
        return Domain.of(f(*combo) for combo in product(*(d.values for d in domains)))
    low, high = span(name, k, [(d.low, d.high) for d in domains])
    return Domain.integer_range(low, high)
