"""The model and its expressions: domains (:mod:`~lazyfun.csp.modelling.domain`),
decisions, expressions and constraints (:mod:`~lazyfun.csp.modelling.constraints`),
relations and arithmetic (:mod:`~lazyfun.csp.modelling.relations`,
:mod:`~lazyfun.csp.modelling.arithmetic`), intervals
(:mod:`~lazyfun.csp.modelling.scheduling`), results
(:mod:`~lazyfun.csp.modelling.results`) and the ``Model`` that holds them
(:mod:`~lazyfun.csp.modelling.model`)."""
