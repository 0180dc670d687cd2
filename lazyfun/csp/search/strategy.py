"""Branching strategies: which open decision to branch on, and which of its values first.

A :class:`Strategy` is a group of decisions (``Model.branch_on``), a way to choose
among those still open, and a way to split the chosen one's domain; the solver
takes the first group with an open decision, in the order they were given (as
MiniZinc's ``seq_search``), and once every group's decisions are fixed goes on
with its own choice.  The names are MiniZinc's:

- choosing the decision (:data:`VARIABLE_CHOICES`): ``input_order`` (the first
  open), ``first_fail`` (the smallest domain), ``anti_first_fail`` (the largest),
  ``smallest`` (the smallest least value), ``largest`` (the largest greatest
  value), ``occurrence`` (the most constraints, and failures so far) and
  ``dom_w_deg`` (the smallest domain per weighted degree: Boussemart et al.'s
  dom/wdeg); ties go to the first in the group;
- splitting its domain (:data:`VALUE_CHOICES`), two branches each, as Gecode
  does: ``min`` (the least value, then the rest), ``max``, ``median`` (the middle
  value of the domain, then the rest), ``split`` (the lower half, then the
  upper), ``reverse_split`` (the upper half, then the lower); ``default`` tries
  each value in turn, in the solver's order (smallest first, or largest where
  that lowers the first goal).

A domain is a bit set: bit ``i`` of decision ``d`` stands for ``offsets[d] + i``.

>>> [bin(b) for b in branches(0b10110, "split")]
['0b110', '0b10000']
>>> [bin(b) for b in branches(0b10110, "median")]
['0b100', '0b10010']

Installed from source, this module is compiled with mypyc (see
:mod:`lazyfun.compiled`); the code here is what runs either way.
"""

from __future__ import annotations

from collections.abc import Sequence

from lazyfun.csp.propagation.relaxation import Relaxation

__all__ = [
    "VALUE_CHOICES",
    "VARIABLE_CHOICES",
    "Strategy",
    "branches",
    "by_weighted_degree",
    "choice",
    "chosen",
    "solvers_choice",
]

VARIABLE_CHOICES = (
    "input_order",
    "first_fail",
    "anti_first_fail",
    "smallest",
    "largest",
    "occurrence",
    "dom_w_deg",
)
VALUE_CHOICES = ("default", "min", "max", "median", "split", "reverse_split")


class Strategy:
    """Decisions (their indices) to branch on first, how to choose the next among them
    (one of :data:`VARIABLE_CHOICES`) and how to split its domain (one of
    :data:`VALUE_CHOICES`); ``tentative``: a guess (a front end's, not the model's
    author's), which a search without goals tries in short runs that alternate with
    the solver's own branching (see :mod:`lazyfun.csp.search.restarts`)."""

    def __init__(
        self, decisions: Sequence[int], variable: str, value: str, tentative: bool = False
    ) -> None:
        self.decisions = list(decisions)
        self.variable = variable
        self.value = value
        self.tentative = tentative

    def __repr__(self) -> str:
        guess = ", tentative=True" if self.tentative else ""
        return f"Strategy({self.decisions}, {self.variable!r}, {self.value!r}{guess})"


def _key(variable: str, bits: int, offset: int, weight: int) -> float:
    """What ``variable`` ranks an open decision by: the least key is chosen."""
    if variable == "first_fail":
        return float(bits.bit_count())
    if variable == "anti_first_fail":
        return float(-bits.bit_count())
    if variable == "smallest":
        return float(offset + (bits & -bits).bit_length() - 1)
    if variable == "largest":
        return float(-(offset + bits.bit_length() - 1))
    if variable == "occurrence":
        return float(-weight)
    return bits.bit_count() / max(1, weight)  # dom_w_deg


def chosen(
    strategy: Strategy, doms: Sequence[int], offsets: Sequence[int], weight: Sequence[int]
) -> int:
    """The decision of ``strategy`` to branch on in ``doms``: -1 when its decisions are
    all fixed."""
    variable = strategy.variable
    best = -1
    best_key = 0.0
    for i in strategy.decisions:
        bits = doms[i]
        if not bits & (bits - 1):
            continue
        if variable == "input_order":
            return i
        key = _key(variable, bits, offsets[i], weight[i])
        if best < 0 or key < best_key:
            best, best_key = i, key
    return best


def by_weighted_degree(doms: Sequence[int], weight: Sequence[int]) -> int:
    """The open decision of the smallest domain per weighted degree (dom/wdeg), of all
    in ``doms``: the solver's own choice in a restart's run; -1 when all are fixed."""
    best = -1
    best_key = 0.0
    for i, bits in enumerate(doms):
        if bits & (bits - 1):
            key = bits.bit_count() / max(1, weight[i])
            if best < 0 or key < best_key:
                best, best_key = i, key
    return best


def choice(
    strategies: Sequence[Strategy],
    doms: Sequence[int],
    offsets: Sequence[int],
    weight: Sequence[int],
    relaxed: Relaxation | None,
    free: bool,
) -> tuple[int, str]:
    """The decision to branch on and how to split its domain: the first strategy's with an
    open decision (none when ``free``: a restart's run by the solver's branching), else
    :func:`solvers_choice`'s, each value in turn (``default``)."""
    for strategy in () if free else strategies:
        i = chosen(strategy, doms, offsets, weight)
        if i >= 0:
            return i, strategy.value
    return solvers_choice(doms, weight, relaxed, free), "default"


def solvers_choice(
    doms: Sequence[int], weight: Sequence[int], relaxed: Relaxation | None, free: bool
) -> int:
    """The solver's own choice: the decision the relaxation takes a fraction of, else
    the smallest domain, ties to the highest weighted degree (``free``, in a restart's
    run: the smallest domain per weighted degree); -1 when all are fixed."""
    if relaxed is not None:
        critical = relaxed.critical(doms)
        if critical >= 0:
            return critical
    if free:
        return by_weighted_degree(doms, weight)
    best = -1
    best_key = (0, 0)
    for i, bits in enumerate(doms):
        if bits & (bits - 1):
            key = (bits.bit_count(), -weight[i])
            if best < 0 or key < best_key:
                best, best_key = i, key
    return best


def branches(bits: int, value: str) -> list[int]:
    """The two domains a decision's domain ``bits`` (two values or more) is split into,
    in the order ``value`` tries them (``default`` is the solver's, not split here)."""
    if value == "max":
        top = 1 << (bits.bit_length() - 1)
        return [top, bits ^ top]
    if value == "median":
        values = [i for i in range(bits.bit_length()) if bits >> i & 1]
        middle = 1 << values[(len(values) - 1) // 2]
        return [middle, bits ^ middle]
    if value in ("split", "reverse_split"):
        lowest = (bits & -bits).bit_length() - 1
        middle = (lowest + bits.bit_length() - 1) // 2
        lower = bits & ((1 << (middle + 1)) - 1)
        halves = [lower, bits ^ lower]
        return halves if value == "split" else halves[::-1]
    least = bits & -bits
    return [least, bits ^ least]
