"""Propagation: each constraint kind's filter over bit-set domains, run to a fixpoint
(:mod:`~lazyfun.csp.propagation.propagators`): linear bounds and relations
(:mod:`~lazyfun.csp.propagation.filters`), functions and combinations
(:mod:`~lazyfun.csp.propagation.nonlinear`), scheduling
(:mod:`~lazyfun.csp.propagation.disjunctive`), all_different
(:mod:`~lazyfun.csp.propagation.distinct`, its values and bounds,
:mod:`~lazyfun.csp.propagation.distances`)
and the goal's linear relaxation (:mod:`~lazyfun.csp.propagation.relaxation`).
Installed from source, most of these are compiled with mypyc."""
