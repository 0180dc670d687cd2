"""A constraint model in the Solver Foundation style, solved lazily.

Its folders, by what their parts do, imports pointing one way:
:mod:`~lazyfun.csp.modelling` (domains, decisions, expressions, constraints and
their combinations with ``&``, ``|``, ``~``, relations, arithmetic, intervals,
results, and ``Model``, which uses the rest), :mod:`~lazyfun.csp.propagation`
(each constraint's filter, run to a fixpoint), :mod:`~lazyfun.csp.search` (the
branch and bound over them, its branching strategies, the scheduling searches);
above them, :mod:`~lazyfun.csp.flatzinc` reads MiniZinc's FlatZinc into a
``Model`` and writes its solutions in the FlatZinc protocol (imported only when
used).  :mod:`~lazyfun.csp.examples` and :mod:`~lazyfun.csp.jobshop` hold the
classic models.

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

from lazyfun.csp.modelling.constraints import Constraint, Decision, Expr, all_different, total
from lazyfun.csp.modelling.domain import Domain, ModelError
from lazyfun.csp.modelling.model import Model
from lazyfun.csp.modelling.relations import circuit, element, if_then, maximum, minimum, table
from lazyfun.csp.modelling.results import Quality, Solution
from lazyfun.csp.modelling.scheduling import Interval, cumulative, no_overlap
from lazyfun.csp.search.solver import Solutions

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
    "circuit",
    "cumulative",
    "element",
    "if_then",
    "maximum",
    "minimum",
    "no_overlap",
    "table",
    "total",
]
