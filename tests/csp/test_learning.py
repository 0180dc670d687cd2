"""Nogoods recorded from restarts: two watched literals infer what checking every nogood
infers; learning keeps the solutions and the proved optimum; no solution of a small model
breaks a learnt nogood (none better than the best when it was learnt, with goals); and
on a hard random binary CSP the runs search fewer nodes with learning than without."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.csp import (
    Decision,
    Domain,
    Model,
    Quality,
    Solution,
    all_different,
    element,
    maximum,
    table,
    total,
)
from lazyfun.csp.examples import random_csp_model
from lazyfun.csp.flatzinc import run
from lazyfun.csp.flatzinc.protocol import main
from lazyfun.csp.flatzinc.solver_config import configuration
from lazyfun.csp.propagation.nogoods import Literal, Nogoods
from lazyfun.csp.search.learning import Branch
from lazyfun.csp.search.solver import Solutions
from tests.budget import examples
from tests.csp.brute import brute_force
from tests.csp.test_lns import goal_models

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

KINDS = ["linear", "alldiff", "table", "element", "abs", "max", "clause"]


# --- the store: two watched literals against checking every nogood ---


def _naive(clauses: list[list[Literal]], doms: list[int]) -> list[int] | None:
    """The fixpoint of checking every nogood: all literals true fails; all but one
    true strikes that one's values."""
    doms = list(doms)
    changed = True
    while changed:
        changed = False
        for literals in clauses:
            open_ = [(i, mask) for i, mask in literals if doms[i] & ~mask]
            if not open_:
                return None
            if len(open_) == 1:
                i, mask = open_[0]
                if doms[i] & mask:
                    doms[i] &= ~mask
                    changed = True
                    if not doms[i]:
                        return None
    return doms


def _watched(store: Nogoods, doms: list[int]) -> list[int] | None:
    """The fixpoint of every decision's watcher, each run until none narrows."""
    doms = list(doms)
    watchers = [store.watcher(i) for i in range(len(doms))]
    changed = True
    while changed:
        changed = False
        for watcher in watchers:
            narrowed = watcher(doms)
            if narrowed is None:
                return None
            changed = changed or bool(narrowed)
    return doms


literals = st.tuples(st.integers(0, 2), st.integers(1, 14))


@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(st.lists(literals, min_size=1, max_size=4), min_size=1, max_size=6),
    st.lists(st.integers(1, 15), min_size=3, max_size=3),
    st.lists(st.integers(1, 15), min_size=3, max_size=3),
)
def test_watched_literals_infer_what_checking_every_nogood_infers(
    clauses: list[list[Literal]], before: list[int], after: list[int]
) -> None:
    """Watches chosen on some domains, then woken on narrower ones: the same fixpoint."""
    store = Nogoods(3)
    for literals_ in clauses:
        store.add(literals_, before)
    narrower = [b & a or b for b, a in zip(before, after, strict=True)]
    first = _watched(store, before)
    assert first == _naive(clauses, before)
    assert _watched(store, narrower) == _naive(clauses, narrower)  # watches moved above


def test_a_nogood_is_kept_once_and_a_unit_one_strikes_its_values() -> None:
    store = Nogoods(2)
    assert store.add([(0, 0b01)], [0b11, 0b11])
    assert not store.add([(0, 0b01)], [0b11, 0b11])
    doms = [0b11, 0b11]
    assert store.watcher(0)(doms) == [0] and doms == [0b10, 0b11]
    assert store.watcher(0)([0b01, 0b11]) is None
    assert len(store) == 1 and store.bounds == [None]


def test_a_branch_gives_the_reduced_nld_nogoods_of_its_refuted_parts() -> None:
    """x in {0} and {1} refuted, x = 2 now; below it y's lower half refuted: two nogoods,
    the negative decisions left out, the positive ones above kept."""
    branch = Branch()
    x = branch.open(0)
    for part in (0b001, 0b010, 0b100):
        x.enter(part)
    y = branch.open(1)
    y.enter(0b0011)
    y.enter(0b1100)
    z = branch.open(2)
    z.enter(0b1)
    assert branch.nogoods() == [[(0, 0b011)], [(0, 0b100), (1, 0b0011)]]
    branch.close()
    branch.close()
    assert branch.nogoods() == [[(0, 0b011)]]


# --- the solver: the same answers, nogoods that hold ---


def _constrain(draw: st.DrawFn, m: Model, xs: list[Decision], kind: str, k: int) -> None:
    """One constraint of ``kind`` over some of ``xs``, named ``c{k}``."""
    picked = draw(st.lists(st.sampled_from(xs), min_size=2, max_size=4, unique=True))
    a, b = picked[0], picked[-1]
    if kind == "linear":
        weights = draw(st.lists(st.integers(-3, 3), min_size=len(picked), max_size=len(picked)))
        expr = total(w * x for w, x in zip(weights, picked, strict=True))
        m.add_constraint(f"c{k}", expr <= draw(st.integers(-2, 8)))
    elif kind == "alldiff":
        m.add_constraint(f"c{k}", all_different(picked))
    elif kind == "table":
        rows = draw(st.lists(st.tuples(*(st.integers(0, 3) for _ in picked)), max_size=8))
        m.add_constraint(f"c{k}", table(picked, rows))
    elif kind == "element":
        item = st.one_of(st.integers(-1, 4), st.sampled_from(xs))  # numbers and decisions
        items: list[int | Decision] = draw(st.lists(item, min_size=4, max_size=4))
        m.add_constraint(f"c{k}", element(items, a) >= b - 1)
    elif kind == "abs":
        m.add_constraint(f"c{k}", abs(a - b) != draw(st.integers(0, 2)))
    elif kind == "max":
        m.add_constraint(f"c{k}", maximum(picked) <= draw(st.integers(1, 3)) + a)
    else:
        m.add_constraint(f"c{k}", (a == b) | ~(a + b >= 4))


@st.composite
def small_models(draw: st.DrawFn) -> Model:
    """Three to six decisions over 0..3 (brute force tries at most 4,096), up to five
    constraints of several kinds, at times a goal to minimise or maximise, at times a
    branching of the model's."""
    m = Model()
    xs = [m.decision(f"x{i}", Domain.integer_range(0, 3)) for i in range(draw(st.integers(3, 6)))]
    for k in range(draw(st.integers(1, 5))):
        _constrain(draw, m, xs, draw(st.sampled_from(KINDS)), k)
    if draw(st.booleans()):
        gains = draw(st.lists(st.integers(1, 3), min_size=len(xs), max_size=len(xs)))
        gains = [g * draw(st.sampled_from([-1, 1])) for g in gains]
        goal = total(g * x for g, x in zip(gains, xs, strict=True))
        (m.minimize if draw(st.booleans()) else m.maximize)(goal)
    if draw(st.booleans()):
        m.branch_on(draw(st.permutations(xs)), value=draw(st.sampled_from(["min", "split"])))
    return m


def _searched(m: Model, learn: bool, nodes: int) -> tuple[Solutions, list[Solution]]:
    stream = m.solutions(learn=learn)
    if learn:
        stream.restart_nodes = nodes  # short runs: many restarts, many nogoods
    return stream, list(stream)


def _score(m: Model, values: tuple[int, ...]) -> tuple[int, ...]:
    """The goals' values, minimised form (a maximised goal negated)."""
    return tuple(
        sign * (e.constant + sum(a * values[i] for i, a in e.terms.items())) for e, sign in m.goals
    )


@settings(max_examples=examples(200), deadline=None)
@given(small_models(), st.sampled_from([1, 2, 4]))
def test_learning_keeps_the_solutions_and_the_optimum(m: Model, nodes: int) -> None:
    _, plain = _searched(m, False, 0)
    stream, learnt = _searched(m, True, nodes)
    constraints = list(m.constraints.values())
    for s in learnt:
        assert s.values is not None and all(c.holds(s.values) for c in constraints)
    if not m.goals:
        assert sorted(s.values or () for s in learnt) == sorted(s.values or () for s in plain)
        assert len({s.values for s in learnt}) == len(learnt)
        return
    assert [s.quality for s in learnt[-1:]] == [s.quality for s in plain[-1:]]
    if plain:
        assert learnt[-1].quality is Quality.OPTIMAL
        assert learnt[-1].objective == plain[-1].objective
    assert stream.learnt is not None and stream.nogoods == len(stream.learnt)


@settings(max_examples=examples(200), deadline=None)
@given(small_models(), st.sampled_from([1, 2, 4]))
def test_no_solution_breaks_a_learnt_nogood(m: Model, nodes: int) -> None:
    """Each nogood's literals all hold in no solution, or, with goals, in none better than
    the best when it was learnt."""
    stream, _ = _searched(m, True, nodes)
    store = stream.learnt
    assert store is not None
    offsets = [d.domain.offset for d in m.decisions]
    solutions = brute_force(m)
    for literals_, bound in zip(store.clauses, store.bounds, strict=True):
        for values in solutions:
            if all(mask >> (values[i] - offsets[i]) & 1 for i, mask in literals_):
                assert bound is not None and _score(m, values) >= bound, (literals_, values)


@settings(max_examples=examples(100), deadline=None)
@given(goal_models(), st.sampled_from([1, 2, 5]), st.integers(0, 3))
def test_learning_beside_large_neighbourhoods_still_proves_the_optimum(
    m: Model, nodes: int, seed: int
) -> None:
    """The rounds take the solver's runs, the model's runs restart and learn: one of
    them ends, and the optimum is the one search's (scheduling models learn nothing)."""
    plain = list(m.solutions())
    stream = m.solutions(lns=True, learn=True, seed=seed, node_limit=50_000)
    stream.restart_nodes = nodes
    found = list(stream)
    assert stream.stopped_by is None
    constraints = list(m.constraints.values())
    assert all(s.values is not None and all(c.holds(s.values) for c in constraints) for s in found)
    assert [(s.quality, s.objective) for s in found[-1:]] == [
        (s.quality, s.objective) for s in plain[-1:]
    ]


# --- fewer nodes on a hard model ---


def test_learning_searches_a_hard_random_csp_in_fewer_nodes() -> None:
    """Fifty decisions over ten values, seed 1: no solution.  Searched once by the solver's
    branching, 1,230 nodes; with learning (restarts that keep their nogoods), 589."""
    plain = random_csp_model(50, 10, 0.2, 0.38, 1).solutions()
    assert list(plain) == []
    learnt = random_csp_model(50, 10, 0.2, 0.38, 1).solutions(learn=True)
    assert list(learnt) == []
    assert learnt.nogoods > 0
    assert learnt.nodes < plain.nodes * 3 // 4, (learnt.nodes, plain.nodes)


def test_flatzinc_learns_when_asked_and_reports_its_nogoods(tmp_path: Path) -> None:
    path = tmp_path / "pick.fzn"
    path.write_text(
        "var 0..3: x:: output_var;\nvar 0..3: y:: output_var;\n"
        "constraint int_lin_le([1,1],[x,y],4);\nconstraint int_ne(x,y);\n"
        "solve maximize x;\n"
    )
    shown = {}
    for learn in (False, True):
        out = io.StringIO()
        run(str(path), out=out, statistics=True, learn=learn)
        shown[learn] = out.getvalue()
    assert "%%%mzn-stat: nogoods=" not in shown[False]
    assert "%%%mzn-stat: nogoods=" in shown[True]
    for answer in shown.values():
        assert "x = 3;\n" in answer and "==========\n" in answer


def test_the_command_line_and_minizinc_pass_the_switch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--learn`` on the command line, and in the solver configuration as a flag of
    lazyfun's own (``minizinc --solver lazyfun --learn`` passes it on)."""
    path = tmp_path / "pick.fzn"
    path.write_text("var 0..3: x:: output_var;\nconstraint int_ne(x,2);\nsolve maximize x;\n")
    assert main([str(path), "--learn", "-s"]) == 0
    assert "%%%mzn-stat: nogoods=" in capsys.readouterr().out
    flags = configuration("lazyfun-fzn")["extraFlags"]
    assert flags == [
        ["--learn", "keep nogoods from the restarts", "bool", "false"],
        ["--clauses", "learn a nogood from every failure", "bool", "false"],
        ["--alone", "no clause learning in the last part of the time", "bool", "false"],
    ]
    assert main([str(path), "--clauses", "-s"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("x = 3;\n----------\n==========\n") and "nogoods=" in out
