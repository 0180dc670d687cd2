"""Restarts for branch and bound: how many branchings each run of the search may take.

An optimisation model that is not a schedule (see :mod:`lazyfun.csp.search.ranking`)
is searched in runs.  Run ``k`` may take ``RESTART_NODES * luby(k)`` branchings
(Luby, Sinclair and Zuckerman's sequence 1, 1, 2, 1, 1, 2, 4, 1, ...: within a
factor of the best fixed budget, whatever it is).  The runs alternate:

- the odd ones are slices of one search by the model's branching (its search
  annotations, ``Model.branch_on``), the proof's: each slice goes on where the last
  stopped, so none of its work is lost, and it is the proof once the restarts end;
- the even ones restart from the root by the solver's own branching: the smallest
  domain per weighted degree (dom/wdeg: one more each time a constraint fails); with
  ``lns``, once a solution is known, they are rounds of large neighbourhood search
  instead (see :mod:`lazyfun.csp.search.lns`).

In both, each decision is tried first at its value in the best solution, where its
domain still holds it (solution-guided search, or phase saving), so a run explores
the neighbourhood of the best before straying.

Every run looks only for solutions better than the best so far (the goal's cut,
which also prunes the proof's search when its next slice comes).  A run or slice
that ends before its budget has searched everything better than the best, so the
best is optimal (or, with none found, the model has no solution).  After
:data:`IDLE_RUNS` of the solver's runs in a row find nothing better (the proof's
slices not counted: their work is kept), the restarts end and the proof's search
goes on to its end.

With ``learn`` (see :mod:`lazyfun.csp.search.learning`), the odd runs restart from the
root too, by the model's branching, and the runs go on until one ends within its budget:
each run's refuted branches are kept as nogoods that every later run propagates, so a
restart loses only the nodes on its current branch.  Without goals, a model learns the
same way until its first solution.

A satisfaction model whose branching is *tentative* (a guess: the FlatZinc reader's
for a model without search annotations) is searched the same way until the first
solution: its branching and the solver's in turn, so that a guess that leads nowhere
costs a run, not the search.  Asked for more, the proof's search goes on, leaving out
the one a restart found.

>>> [luby(k) for k in range(1, 16)]
[1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
"""

from __future__ import annotations

__all__ = ["IDLE_RUNS", "RESTART_NODES", "luby"]

RESTART_NODES = 250
"""The branchings of a run of budget 1 (run ``k`` takes ``luby(k)`` times as many)."""
IDLE_RUNS = 3
"""The solver's runs in a row that may find nothing better before the restarts end."""


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
