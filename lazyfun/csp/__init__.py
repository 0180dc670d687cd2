"""A constraint model in the Solver Foundation style, solved lazily.

The layers, imports pointing one way: :mod:`~lazyfun.csp.domain` (domains
and ``ModelError``), :mod:`~lazyfun.csp.constraints` (decisions, expressions,
constraints and their combinations with ``&``, ``|``, ``~``),
:mod:`~lazyfun.csp.relations` and :mod:`~lazyfun.csp.arithmetic` (element,
table, minimum, maximum; ``x * y``, ``//``, ``%``, ``abs``),
:mod:`~lazyfun.csp.scheduling` (intervals, ``no_overlap``, ``cumulative``),
:mod:`~lazyfun.csp.results` (``Solution``, ``Quality``),
:mod:`~lazyfun.csp.propagators` (with :mod:`~lazyfun.csp.nonlinear` and
:mod:`~lazyfun.csp.disjunctive`) and :mod:`~lazyfun.csp.solver` (the search,
shown by :mod:`~lazyfun.csp.progress`),
and :mod:`~lazyfun.csp.model` (``Model``, which uses them all); above them,
:mod:`~lazyfun.csp.flatzinc` reads MiniZinc's FlatZinc into a ``Model`` and
writes its solutions in the FlatZinc protocol (imported only when used).

>>> from lazyfun.csp import Model, Domain, all_different
>>> m = Model()
>>> s, e, n, d = (m.decision(c, Domain.integer_range(0, 9)) for c in "SEND")
>>> m.add_constraint("distinct", all_different([s, e, n, d]))
>>> m.add_constraint("sum", s + e + n + d == 24)
>>> m.add_constraint("order", s > e)
>>> m.add_constraint("gap", abs(n - d) == 4)
>>> first = m.solve()
>>> first.quality, first.as_dict()
(<Quality.FEASIBLE: 'feasible'>, {'S': 6, 'E': 4, 'N': 5, 'D': 9})
>>> m.count()
16
>>> m.add_constraint("impossible", s + e > 17)
>>> m.solve().quality
<Quality.INFEASIBLE: 'infeasible'>
"""

from lazyfun.csp.constraints import Constraint, Decision, Expr, all_different, total
from lazyfun.csp.domain import Domain, ModelError
from lazyfun.csp.model import Model
from lazyfun.csp.relations import element, if_then, maximum, minimum, table
from lazyfun.csp.results import Quality, Solution
from lazyfun.csp.scheduling import Interval, cumulative, no_overlap
from lazyfun.csp.solver import Solutions

__all__ = [
    "Constraint",
    "Decision",
    "Domain",
    "Expr",
    "Interval",
    "Model",
    "ModelError",
    "Quality",
    "Solution",
    "Solutions",
    "all_different",
    "cumulative",
    "element",
    "if_then",
    "maximum",
    "minimum",
    "no_overlap",
    "table",
    "total",
]
