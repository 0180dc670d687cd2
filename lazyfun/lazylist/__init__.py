"""Call-by-need lists: ``LazyList``, memoised and shareable, as Haskell's lists are.

Python offers two evaluation strategies out of the box: strict lists (every
element computed at once, and kept) and generators (call-by-name: computed
on demand, but either one-shot or recomputed each time they are walked, as
:class:`lazyfun.reiterable` does).  Haskell's lists are the third strategy,
*call-by-need*: each cell is computed at most once, on first demand, then
shared by everyone who holds it.  ``LazyList`` is that third strategy.

A ``LazyList`` is a reference to a cell that may not have been computed
yet.  Forcing it (asking for its head, its tail, or whether it is empty)
computes the cell once; from then on it is an ordinary immutable cons cell.
Nothing is computed that nobody asked for, and ``repr`` shows how far
evaluation has gone without forcing anything (GHCi's ``:sprint``):

>>> from itertools import count
>>> naturals = LazyList.of(count())
>>> evens = naturals.filter(lambda n: n % 2 == 0)
>>> evens
LazyList([...])
>>> evens[3]
6
>>> evens
LazyList([0, 2, 4, 6, ...])
>>> naturals.forced()
7

Self-reference goes through ``fix``: ``LazyList.fix(f)`` is the list ``xs``
with ``xs == f(xs)``.  The Fibonacci numbers, each computed once and shared
by the two readers of the list, so ``fibs[k]`` costs about k additions:

>>> import operator
>>> fibs = LazyList.fix(
...     lambda fibs: LazyList.cons(
...         0, lambda: LazyList.cons(1, lambda: fibs.zip_with(operator.add, fibs.tail))
...     )
... )
>>> fibs[90]
2880067194370816120
>>> fibs.forced()
91

The rules, spelled out with their reasons in ``docs/evaluation.md``: a list
bound to a name keeps every cell forced through it, an iterator only the
cell it is at (``sum(iter(xs))``, not ``sum(xs)``, for constant memory);
indexing and iterating are loops, so ``xs[10**6]`` is fine, while cells
computed inside one another (a ``map`` of a ``map`` of ...) stop at
``MAX_NESTING`` with a ``RecursionError`` that says why; a list that needs
its own cell, in one thread or through threads waiting for each other,
raises :class:`LazyListLoop` (GHC's ``<<loop>>``) instead of hanging; threads
share cells, each computed once (:mod:`lazyfun.lazylist.blackholes`); negative
indices are refused, since they would force a list that may be infinite.

The cells and their transformations are :mod:`lazyfun.lazylist.cells`, compiled
with mypyc when installed from source (:mod:`lazyfun.compiled`).
"""

from lazyfun.lazylist.blackholes import MAX_NESTING, LazyListLoop
from lazyfun.lazylist.cells import LazyList

__all__ = ["MAX_NESTING", "LazyList", "LazyListLoop"]
