"""The C engine of the solver's commonest propagators, ``_kernels`` (its C in the folder
``kernels_c``, in layers: the domains as words, the kernels, the loop, the module's entry
points): a clause, a reified clause, a reified ``x == y + k``, a reified
condition on one decision, linear bounds, element, and the propagation loop that calls
them directly and any other propagator through Python.  ``BUILT`` says whether it was built
and ``LAZYFUN_PURE`` is not set; ``c`` is the module then.

Each kernel keeps its readable Python beside it (:mod:`lazyfun.csp.propagation.nonlinear`,
:mod:`lazyfun.csp.propagation.filters`), with the same answers in the same order, and
the loop is :meth:`lazyfun.csp.propagation.propagators.Propagators.propagate`'s
(``tests/csp/test_kernels.py``).  A kernel is built over decisions whose first domain
fits in ``c.WIDTH`` bits (but an element's index, read as many words as its first
domain takes); over wider ones the Python closure runs."""

from __future__ import annotations

import os

from lazyfun.compiled import PURE_ENV

try:
    from lazyfun.csp.propagation import _kernels as c  # C: import-linter cannot read it
except ImportError:  # built without a C compiler
    BUILT = False
else:
    BUILT = not os.environ.get(PURE_ENV)

__all__ = ["BUILT", "INTERRUPT_EVERY", "c"]

# Propagator runs of one propagation between two calls of its ``interrupt`` (the search's
# limits), in the loop here and in Python: a propagation that creeps (bounds moved one
# value a run round a cycle over wide domains) may take minutes, and a limit must end it.
INTERRUPT_EVERY = 256
