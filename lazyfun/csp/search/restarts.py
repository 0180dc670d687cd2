"""Restarts for branch and bound: how many branchings each run of the search may take.

An optimisation model that is not a schedule (see :mod:`lazyfun.csp.search.ranking`)
is searched in runs.  Run ``k`` may take ``RESTART_NODES * luby(k)`` branchings
(Luby, Sinclair and Zuckerman's sequence 1, 1, 2, 1, 1, 2, 4, 1, ...: within a
factor of the best fixed budget, whatever it is); then the search starts again from
the root, keeping what it learnt:

- the goal's cut: every run looks only for solutions better than the best so far;
- the weighted degrees (dom/wdeg's weights: one more each time a constraint fails);
- the best solution: each decision is tried first at its value there, where its
  domain still holds it (solution-guided search, or phase saving), so a run explores
  the neighbourhood of the best before straying;
- the runs alternate between the model's own branching (its search annotations,
  ``Model.branch_on``) and the solver's: the smallest domain per weighted degree,
  which the weights steer to where the failures are.

A run that ends before its budget has searched everything better than the best, so
the best is optimal (or, with none found, the model has no solution).  Restarts are
for finding better solutions; a proof is cheaper without them (each run would
search again what the last one did): after :data:`IDLE_RUNS` runs in a row find
nothing better, the search goes on as plain branch and bound by the model's branching
(the one its author chose for the proof), the best's values still tried first.

>>> [luby(k) for k in range(1, 16)]
[1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
"""

from __future__ import annotations

__all__ = ["IDLE_RUNS", "RESTART_NODES", "luby"]

RESTART_NODES = 250
"""The branchings of a run of budget 1 (run ``k`` takes ``luby(k)`` times as many)."""
IDLE_RUNS = 10
"""The runs in a row that may find nothing better before the restarts end."""


def luby(k: int) -> int:
    """The ``k``-th term (from 1) of the Luby sequence: ``2^(e-1)`` where ``k = 2^e - 1``,
    else the term ``k`` has within the repeated prefix (``k - 2^(e-1) + 1`` for
    ``2^(e-1) <= k < 2^e - 1``)."""
    while True:
        e = 1
        while (1 << e) - 1 < k:
            e += 1
        if k == (1 << e) - 1:
            return 1 << (e - 1)
        k -= (1 << (e - 1)) - 1
