"""Learning from failure, measured: one model searched with nogoods and without.

``learn=True`` (:mod:`lazyfun.csp.search.learning`) searches in restarts and keeps,
as nogoods, what each run refuted; every later run propagates them, so none searches a
refuted part again.  ``learn="clauses"`` (:mod:`lazyfun.csp.clauses.engine`) learns a
nogood from every failure, explained by the propagators, and branches on the decisions
the recent nogoods are about.  The answer cannot change (the same solutions, the same
optimum): what changes is the work, the nodes and failures, and learning costs work of
its own (restarts, explanations), so on a model whose search is already short it can
lose.  The study puts the three side by side, a row each, as they are measured.

>>> rows = list(study_learning(["queens 6"], runs=1))
>>> [(m.learn, m.found) for m in rows]
[(False, '4 solutions'), (True, '4 solutions'), ('clauses', '4 solutions')]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from functools import partial

from lazyfun.csp import Model
from lazyfun.csp.examples import golomb_model, knapsack_model, queens_model, random_csp_model
from lazyfun.csp.modelling.model import Learning
from lazyfun.study.measure import RUNS, seconds_cell, timed

__all__ = [
    "LEARNING_HEADINGS",
    "LEARNING_MODELS",
    "LEARNING_TITLE",
    "LearningMeasurement",
    "learning_notes",
    "learning_table_rows",
    "study_learning",
]

# The models the study can search, by name: all of n queens' solutions, Golomb rulers
# and the knapsack of the examples to their optimum, and a random binary CSP of fifty
# decisions over ten values (seed 1) that has no solution.
LEARNING_MODELS: dict[str, Callable[[], Model]] = {
    "random CSP 50": lambda: random_csp_model(50, 10, 0.2, 0.38, 1),
    "queens 6": lambda: queens_model(6)[0],
    "queens 9": lambda: queens_model(9)[0],
    "golomb 9": lambda: golomb_model(9)[0],
    "golomb 10": lambda: golomb_model(10)[0],
    "knapsack": lambda: knapsack_model()[0],
}
DEFAULT_MODELS = ("random CSP 50", "queens 9", "golomb 9", "knapsack")
LEARNING_TITLE = (
    "Learning from failure: the same model without nogoods, with restarts', with clauses"
)
LEARNINGS: tuple[Learning, ...] = (False, True, "clauses")
_TOLD = {False: "without nogoods", True: "with nogoods from restarts", "clauses": "with clauses"}
_CELL = {False: "off", True: "restarts", "clauses": "clauses"}
LEARNING_HEADINGS = ("model", "learning", "nodes", "failures", "nogoods", "time", "found")


@dataclass(frozen=True)
class LearningMeasurement:
    """One search of ``model``, without nogoods (``learn`` False), with those of restarts
    (True) or with clauses (``"clauses"``): its work, its best time of ``runs`` and what
    it found (the solutions, or the optimum)."""

    model: str
    learn: Learning
    nodes: int
    failures: int
    nogoods: int
    found: str
    seconds: float
    runs: int = 1


def study_learning(
    models: Iterable[str] = DEFAULT_MODELS,
    *,
    runs: int = RUNS,
    progress: Callable[[str], None] | None = None,
) -> Iterator[LearningMeasurement]:
    """Each model searched to the end without nogoods, with restarts' and with clauses
    (:data:`LEARNINGS`): one measurement at a time, lazily, each the best of ``runs``
    searches.  ``progress`` is told what is about to be measured.  A name not in
    :data:`LEARNING_MODELS` is refused (``ValueError``) before anything runs."""
    models = list(models)
    unknown = [name for name in models if name not in LEARNING_MODELS]
    if unknown:
        known = ", ".join(LEARNING_MODELS)
        raise ValueError(f"no model named {', '.join(map(repr, unknown))}: the study has {known}")
    tell = progress or (lambda what: None)
    for name in models:
        for learn in LEARNINGS:
            tell(f"{name} {_TOLD[learn]}")
            searched: list[LearningMeasurement] = []
            t = timed(partial(_search_into, searched, name, learn), runs)
            yield replace(searched[-1], seconds=t.best, runs=runs)


def _search_into(searched: list[LearningMeasurement], name: str, learn: Learning) -> None:
    """The model searched to the end (every solution, or the improving ones to the
    optimum), the search's counts and what it found added to ``searched``."""
    model = LEARNING_MODELS[name]()
    solutions = model.solutions(learn=learn)
    found = sum(1 for _ in solutions)
    best = solutions.best
    answer = f"{found} solution{'' if found == 1 else 's'}" if found else "no solution"
    if model.goals and best is not None:
        answer = f"optimum {best.objective[0]}"
    counts = (solutions.nodes, solutions.failures, solutions.nogoods)
    searched.append(LearningMeasurement(name, learn, *counts, answer, 0.0))


def learning_table_rows(measured: Iterable[LearningMeasurement]) -> Iterator[tuple[str, ...]]:
    """Cells for a table under :data:`LEARNING_HEADINGS`: model, learning (off,
    restarts or clauses), nodes, failures, nogoods, time, found."""
    for m in measured:
        counts = (f"{m.nodes:,}", f"{m.failures:,}", f"{m.nogoods:,}")
        yield (m.model, _CELL[m.learn], *counts, seconds_cell(m.seconds), m.found)


def learning_notes(measured: list[LearningMeasurement]) -> list[str]:
    """What the rows say: per model and way of learning, its nodes against those
    without nogoods, and whether the two found the same."""
    notes = []
    by_model: dict[str, dict[Learning, LearningMeasurement]] = {}
    for m in measured:
        by_model.setdefault(m.model, {})[m.learn] = m
    for name, searched in by_model.items():
        off = searched.get(False)
        for learn in LEARNINGS[1:]:
            on = searched.get(learn)
            if off is None or on is None:
                continue
            ratio = on.nodes / max(off.nodes, 1)
            same = "the same answer" if on.found == off.found else "DIFFERENT ANSWERS"
            notes.append(
                f"{name}: {_TOLD[learn]} {on.nodes:,} nodes, {ratio:.2f}x those without "
                f"({off.nodes:,}); {same}, {on.found}"
            )
    notes.append(
        "With restarts, the nogoods are what each run refuted: they prune the later runs, "
        "and the restarts cost nodes of their own.  With clauses, each failure gives one, "
        "explained by the propagators: fewer nodes, each dearer."
    )
    if measured:
        runs = measured[0].runs
        notes.append(f"time: the best of {runs} searches." if runs > 1 else "time: one search.")
    return notes
