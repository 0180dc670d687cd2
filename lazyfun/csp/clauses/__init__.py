"""Lazy clause generation: the search that learns from each failure a nogood over domain
literals, explained by the propagators only when a conflict asks (see
:mod:`lazyfun.csp.clauses.engine`, reached by ``Model.solutions(learn="clauses")``)."""
