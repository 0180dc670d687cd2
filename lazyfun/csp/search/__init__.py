"""Search: the solver's branch and bound over propagated domains
(:mod:`~lazyfun.csp.search.solver`, its state :mod:`~lazyfun.csp.search.node`), the
branching strategies (:mod:`~lazyfun.csp.search.strategy`), the scheduling searches
(rank-first, :mod:`~lazyfun.csp.search.ranking`; tabu, :mod:`~lazyfun.csp.search.tabu`)
and the progress shown as it goes (:mod:`~lazyfun.csp.search.progress`)."""
