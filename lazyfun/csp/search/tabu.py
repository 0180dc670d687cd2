"""A tabu search over machine orders: good schedules fast, for the bound a proof needs.

Branch and bound proves a job shop's optimum only as fast as it finds it: every
schedule better than the best is searched for until the search shows there is
none.  Local search finds the optimum of Fisher and Thompson's 10x10 in seconds
where a tree search takes minutes, so the solver runs one first.

A schedule is read as a graph (Roy and Sussmann's disjunctive graph): a node per
task, the model's precedences as arcs ``a -> b`` of a lag (``start_b >= start_a +
lag``), and one order per machine, each task an arc of its size before the next.
Its earliest schedule starts each task at its *head*, the longest path to it:

    head_t = max(release_t, max over arcs a -> t of head_a + lag)

and a task's *tail* is the longest path from its start to the end:

    tail_t = max(p_t, max over arcs t -> b of lag + tail_b)

The makespan is the most of ``head_t + p_t``; a task is critical when ``head_t +
tail_t`` equals it.  A critical path splits into *blocks*: runs of tasks one after
the other on one machine.  Nowicki and Smutnicki's neighbourhood (N5) swaps the
first two and the last two tasks of each block (not the first two of the first
block, nor the last two of the last): no other swap of two neighbours can shorten
the path.  Each swap is judged by Taillard's estimate (the new heads and tails of
the two tasks, from their neighbours' old ones), the best taken unless it undoes
a recent one (the tabu list; a new best always goes), and after too many steps
without a new best the search jumps back to the best with a random shake.

A heuristic: it proposes orders; :class:`~lazyfun.csp.search.solver.Solutions` checks each
against the whole model before it counts.  It runs when every task is on one
machine and the goal is the makespan's kind (see ``Solutions``).

Installed from source, this module is compiled with mypyc (see
:mod:`lazyfun.compiled`); the code here is what runs either way.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

__all__ = ["Arc", "Shop"]

# start_b >= start_a + lag, as (a, b, lag) over the model's decisions.
Arc = tuple[int, int, int]

# The steps without a new best before a jump back (per task, and at least), the
# jumps in a row that may find nothing, the random swaps of a jump's shake, and
# the tabu tenure's range.
STALL_PER_TASK = 30
STALL_LEAST = 500
JUMPS = 30
SHAKE = 6
TENURE = (8, 14)


class Shop:
    """The tasks of ``machines`` (per machine, ``(start decision, size)``), the
    precedences ``arcs`` between them, and each task's ``release`` (its earliest
    start in the model: a mapping from start decision).

    Tasks are renumbered ``0 .. n - 1`` in the order the machines list them.
    """

    def __init__(
        self,
        machines: Sequence[Sequence[tuple[int, int]]],
        arcs: Sequence[Arc],
        release: dict[int, int],
        *,
        seed: int = 0,
    ) -> None:
        self.decision: list[int] = []
        self.p: list[int] = []
        self.machine: list[int] = []
        local: dict[int, int] = {}
        for m, tasks in enumerate(machines):
            for i, p in tasks:
                local[i] = len(self.decision)
                self.decision.append(i)
                self.p.append(p)
                self.machine.append(m)
        n = len(self.decision)
        self.n = n
        self.machines = len(machines)
        self.release = [release[i] for i in self.decision]
        self.preds: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        self.succs: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for a, b, lag in arcs:
            if a in local and b in local:
                self.preds[local[b]].append((local[a], lag))
                self.succs[local[a]].append((local[b], lag))
        self.random = random.Random(seed)
        # The current orders and the graph's values for them.
        self.start: list[list[int]] = [[] for _ in range(self.machines)]
        self.order: list[list[int]] = [[] for _ in range(self.machines)]
        self.before = [-1] * n
        self.after = [-1] * n
        self.head = [0] * n
        self.tail = [0] * n
        self.makespan = 0

    def orders(self, values: Sequence[int]) -> list[list[int]]:
        """Each machine's tasks (start decisions) in the order a schedule's ``values``
        (indexed by decision) runs them."""
        out: list[list[int]] = [[] for _ in range(self.machines)]
        for k in sorted(range(self.n), key=lambda k: values[self.decision[k]]):
            out[self.machine[k]].append(self.decision[k])
        return out

    def _link(self) -> None:
        before, after = self.before, self.after
        for seq in self.order:
            previous = -1
            for k in seq:
                before[k] = previous
                if previous >= 0:
                    after[previous] = k
                previous = k
            if previous >= 0:
                after[previous] = -1

    def evaluate(self) -> bool:
        """Heads, tails and the makespan of the current orders; False when they and the
        precedences make a cycle (no schedule)."""
        topo = self._heads()
        if len(topo) < self.n:
            return False
        self._tails(topo)
        return True

    def _heads(self) -> list[int]:
        """Each task's head, in a topological order of the graph, which it returns
        (short of the tasks on a cycle)."""
        n = self.n
        p, succs, after, head = self.p, self.succs, self.after, self.head
        waiting = [len(self.preds[k]) + (1 if self.before[k] >= 0 else 0) for k in range(n)]
        ready = [k for k in range(n) if not waiting[k]]
        topo: list[int] = []
        for k in range(n):
            head[k] = self.release[k]
        while ready:
            k = ready.pop()
            topo.append(k)
            h = head[k]
            arcs = succs[k] if after[k] < 0 else [*succs[k], (after[k], p[k])]
            for b, lag in arcs:
                if h + lag > head[b]:
                    head[b] = h + lag
                waiting[b] -= 1
                if not waiting[b]:
                    ready.append(b)
        return topo

    def _tails(self, topo: list[int]) -> None:
        """Each task's tail, and the makespan, backwards along ``topo``."""
        p, succs, after, head, tail = self.p, self.succs, self.after, self.head, self.tail
        makespan = 0
        for j in range(len(topo) - 1, -1, -1):
            k = topo[j]
            t = p[k]
            for b, lag in succs[k]:
                if lag + tail[b] > t:
                    t = lag + tail[b]
            b = after[k]
            if b >= 0 and p[k] + tail[b] > t:
                t = p[k] + tail[b]
            tail[k] = t
            if head[k] + t > makespan:
                makespan = head[k] + t
        self.makespan = makespan

    def critical_blocks(self) -> list[list[int]]:
        """The blocks of one critical path, first to last: runs of tasks one right after
        the other on one machine."""
        p, head, before = self.p, self.head, self.before
        end = -1
        for k in range(self.n):
            if head[k] + p[k] == self.makespan and (end < 0 or head[k] < head[end]):
                end = k
        path = [end]
        same = [False]  # whether the next task on the path follows this one on its machine
        k = end
        while True:
            b = before[k]
            if b >= 0 and head[b] + p[b] == head[k]:
                path.append(b)
                same.append(True)
                k = b
                continue
            tight = -1
            for a, lag in self.preds[k]:
                if head[a] + lag == head[k]:
                    tight = a
                    break
            if tight < 0:
                break
            path.append(tight)
            same.append(False)
            k = tight
        path.reverse()
        same.reverse()
        blocks: list[list[int]] = []
        for j, k in enumerate(path):
            if j and same[j - 1]:
                blocks[-1].append(k)
            else:
                blocks.append([k])
        return blocks

    def moves(self, blocks: list[list[int]]) -> list[tuple[int, int]]:
        """N5: the pairs ``(u, v)``, ``u`` right before ``v`` on a machine, to swap."""
        out: list[tuple[int, int]] = []
        last = len(blocks) - 1
        for j, block in enumerate(blocks):
            if len(block) < 2:
                continue
            if j > 0:
                out.append((block[0], block[1]))
            if j < last and (j == 0 or len(block) > 2):
                out.append((block[-2], block[-1]))
        return out

    def estimate(self, u: int, v: int) -> int:
        """Taillard's estimate of the makespan once ``v`` runs before ``u``."""
        p, head, tail = self.p, self.head, self.tail
        a, b = self.before[u], self.after[v]
        head_v = self.release[v]
        for j, lag in self.preds[v]:
            if j != u and head[j] + lag > head_v:
                head_v = head[j] + lag
        if a >= 0 and head[a] + p[a] > head_v:
            head_v = head[a] + p[a]
        head_u = head_v + p[v]
        for j, lag in self.preds[u]:
            if head[j] + lag > head_u:
                head_u = head[j] + lag
        tail_u = p[u]
        for j, lag in self.succs[u]:
            if j != v and lag + tail[j] > tail_u:
                tail_u = lag + tail[j]
        if b >= 0 and p[u] + tail[b] > tail_u:
            tail_u = p[u] + tail[b]
        tail_v = p[v] + tail_u
        for j, lag in self.succs[v]:
            if lag + tail[j] > tail_v:
                tail_v = lag + tail[j]
        return max(head_v + tail_v, head_u + tail_u)

    def _swap(self, u: int, v: int) -> None:
        seq = self.order[self.machine[u]]
        at = seq.index(u)
        seq[at], seq[at + 1] = v, u
        a, b = self.before[u], self.after[v]
        self.before[v], self.after[v] = a, u
        self.before[u], self.after[u] = v, b
        if a >= 0:
            self.after[a] = v
        if b >= 0:
            self.before[b] = u

    def _shake(self) -> None:
        """A few random swaps of critical neighbours that keep a schedule."""
        for _ in range(SHAKE):
            pairs = [
                (block[j], block[j + 1])
                for block in self.critical_blocks()
                for j in range(len(block) - 1)
            ]
            if not pairs:
                return
            u, v = self.random.choice(pairs)
            self._swap(u, v)
            if not self.evaluate():
                self._swap(v, u)
                self.evaluate()

    def begin(self, orders: Sequence[Sequence[int]]) -> bool:
        """Start the searches from ``orders`` (per machine, its start decisions in
        order); False when they make a cycle with the precedences."""
        local = {i: k for k, i in enumerate(self.decision)}
        self.start = [[local[i] for i in seq] for seq in orders]
        self.order = [list(seq) for seq in self.start]
        self._link()
        return self.evaluate()

    def walk(
        self, stop: Callable[[], bool] = lambda: False
    ) -> Iterator[tuple[int, list[list[int]]]]:
        """One tabu search from the orders :meth:`begin` was given: each better schedule's
        makespan and orders (start decisions) as it finds them, until :data:`JUMPS` jumps
        back in a row find nothing better; ``stop`` is asked every so often whether to
        end early.  Each search draws its own moves: one that misses the optimum tends
        to miss it for good, and the next may not."""
        self.order = [list(seq) for seq in self.start]
        self._link()
        self.evaluate()
        for makespan, better in self._walk(stop):
            yield makespan, [[self.decision[k] for k in seq] for seq in better]

    def _walk(self, stop: Callable[[], bool]) -> Iterator[tuple[int, list[list[int]]]]:
        """One tabu search from the current orders: each better schedule it finds (tasks
        renumbered), until :data:`JUMPS` jumps back in a row find nothing better."""
        stall = max(STALL_LEAST, STALL_PER_TASK * self.n)
        best = self.makespan
        best_order = [list(seq) for seq in self.order]
        tabu: dict[tuple[int, int], int] = {}
        step = 0
        since = 0
        jumps = 0
        while jumps < JUMPS:
            step += 1
            if not step & 255 and stop():
                return
            since += 1
            if since > stall:
                jumps += 1
                since = 0
                tabu.clear()
                self.order = [list(seq) for seq in best_order]
                self._link()
                self.evaluate()
                self._shake()
                continue
            chosen = (-1, -1)
            chosen_at = 0
            for u, v in self.moves(self.critical_blocks()):
                at = self.estimate(u, v)
                if tabu.get((u, v), 0) > step and at >= best:
                    continue
                if chosen[0] < 0 or at < chosen_at:
                    chosen, chosen_at = (u, v), at
            if chosen[0] < 0:
                tabu.clear()
                continue
            u, v = chosen
            self._swap(u, v)
            if not self.evaluate():
                self._swap(v, u)
                self.evaluate()
                tabu[(u, v)] = step + TENURE[1]
                continue
            tabu[(v, u)] = step + self.random.randint(TENURE[0], TENURE[1])
            if self.makespan < best:
                best = self.makespan
                best_order = [list(seq) for seq in self.order]
                since = 0
                jumps = 0
                yield best, best_order
