"""Lazy clause generation: the trail, the store against checking every nogood, analysis on
a worked conflict, and the laws: the same solutions and optimum as the depth-first
search, and no solution breaks a learnt nogood (with goals, none better than the best
when it was learnt), over small models of every constraint kind, with restarts and cuts
of the store made frequent."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.csp import (
    Decision,
    Domain,
    Model,
    ModelError,
    Quality,
    all_different,
    cumulative,
    element,
    if_then,
    maximum,
    no_overlap,
)
from lazyfun.csp.clauses import analysis, engine
from lazyfun.csp.clauses.analysis import analyse
from lazyfun.csp.clauses.engine import LearningSolutions
from lazyfun.csp.clauses.explanations import (
    Explainer,
    Literal,
    by_bounds,
    by_element,
    by_guards,
    by_others,
    by_ranges,
    by_scope,
    by_time_table,
    by_values,
)
from lazyfun.csp.clauses.store import Learnt
from lazyfun.csp.clauses.trail import Trail, clause_cause
from lazyfun.csp.examples import golomb_model, queens_model, random_csp_model
from lazyfun.csp.modelling.relations import Element
from lazyfun.csp.propagation.disjunctive import Task, cumulative_filter, no_overlap_filter
from lazyfun.csp.propagation.propagators import Propagators
from tests.budget import examples
from tests.csp.brute import brute_force
from tests.csp.test_learning import _score, small_models

pytestmark = pytest.mark.compiled  # run again from source by `make unit`


# --- the parts ---


def test_the_trail_undoes_a_level_and_answers_for_the_past() -> None:
    trail = Trail([0b1111, 0b1111, 0b1111])
    trail.narrow(2, 0b0111, 5, 0)  # level 0
    trail.decide(0, 0b0001)
    trail.narrow(1, 0b1110, 7, 1)
    trail.decide(1, 0b0010)
    assert trail.depth == 2 and trail.level == [0, 1, 1, 2]
    assert trail.first_true(1, 0b1110) == 2 and trail.first_true(1, 0b0010) == 3
    assert trail.first_true(1, 0b0001) == len(trail)  # not true now
    assert trail.first_true(0, 0b1111) == -1  # true at the start
    assert trail.dom_at(1, 2) == 0b1111 and trail.dom_at(1, 3) == 0b1110
    trail.backjump(1)
    assert trail.doms == [0b0001, 0b1110, 0b0111] and len(trail) == 3
    trail.backjump(0)
    assert trail.doms == [0b1111, 0b1111, 0b0111] and trail.depth == 0


def _naive(clauses: list[list[Literal]], doms: list[int]) -> list[int] | None:
    """Checking every nogood to a fixpoint."""
    doms = list(doms)
    changed = True
    while changed:
        changed = False
        for literals in clauses:
            open_ = [(i, m) for i, m in literals if doms[i] & ~m]
            if not open_:
                return None
            if len(open_) == 1 and doms[open_[0][0]] & open_[0][1]:
                i, m = open_[0]
                doms[i] &= ~m
                if not doms[i]:
                    return None
                changed = True
    return doms


literal_lists = st.lists(
    st.lists(
        st.tuples(st.integers(0, 3), st.integers(1, 14)),
        min_size=2,
        max_size=3,
        unique_by=lambda literal: literal[0],  # one literal per decision
    ),
    max_size=6,
)


@settings(max_examples=examples(300), deadline=None)
@given(
    literal_lists,
    st.lists(st.tuples(st.integers(0, 3), st.integers(1, 15)), max_size=6),
    st.integers(0, 6),
    st.integers(0, 6),
)
def test_watched_nogoods_infer_what_checking_every_one_infers(
    clauses: list[list[Literal]], narrowings: list[tuple[int, int]], cut_at: int, keep: int
) -> None:
    """Nogoods of two or three literals, none true at the start (nothing to infer
    there); narrowed one decision at a time, the store's fixpoint is the naive one's (a
    conflict where it has one), before and after a cut down to ``keep`` nogoods (its
    watch lists made again) at narrowing ``cut_at``."""
    store = Learnt(4)
    doms = [0b1111] * 4
    for n, literals in enumerate(clauses):
        store.add(literals, 3 + n % 3)
    woken: list[int] = []

    def imply(c: int, k: int, narrowed: int) -> None:
        doms[k] = narrowed
        woken.append(k)

    for step, (i, bits) in enumerate(narrowings):
        if step == cut_at:
            store.reduce(keep)
        if not doms[i] & bits or doms[i] & bits == doms[i]:
            continue
        doms[i] &= bits
        expected = _naive([literals for literals in store.literals if literals], doms)
        woken[:] = [i]
        conflict = False
        while woken and not conflict:
            conflict = store.wake(woken.pop(), doms, imply) >= 0
        if conflict:
            assert expected is None
            break
        assert doms == expected


def test_the_store_cuts_the_worse_half_by_lbd() -> None:
    store = Learnt(2)
    for lbd in (2, 5, 3, 4, 1):
        store.add([(0, 1), (1, 1)], lbd)
    store.reduce(3)
    assert [lbd for lbd, lits in zip(store.lbd, store.literals, strict=True) if lits] == [2, 3, 1]
    assert store.alive == 3


def test_explanations_by_scope_others_and_bounds() -> None:
    start = [0b1111, 0b1111, 0b1111]
    before = [0b0110, 0b1100, 0b1111]
    assert by_scope((0, 1, 2), start)(before, 0, 1) == [(0, 0b0110), (1, 0b1100)]
    assert by_others((0, 1, 2), start)(before, 0, 1) == [(1, 0b1100)]
    # x - y <= 0: x's cut rests on y's upper bound, y's on x's lower one
    terms = [(0, 1, 0), (1, -1, 0)]
    explain = by_bounds(terms, False, (0, 1), start)
    assert explain(before, 0, 0) == []  # y's upper bound is its start's
    assert explain(before, 1, 0) == [(0, 0b1110)]
    assert by_bounds(terms, True, (0, 1), start)(before, 1, 0) == [(0, 0b0110)]
    # all_different: x loses 1 to y = 1 and 2 to z = 2; w's domain does not matter
    values = by_values((0, 1, 2, 3), [0b111] * 4, [0] * 4)
    fixed = [0b111, 0b010, 0b100, 0b011]
    assert values(fixed, 0, 0b110) == [(1, 0b010), (2, 0b100)]
    assert values(fixed, 0, 0b001) == [(1, 0b010), (2, 0b100), (3, 0b011)]  # not by a value


def test_a_time_table_explains_by_the_tasks_sure_to_run_then() -> None:
    # capacity 2: a (demand 2, start 3..4) runs at 4 for sure, b (demand 1) may start
    # anywhere; c (demand 1, size 2) cannot start at 3 or 4, and b does not say why
    tasks = [(0, -1, 2, -1, -1, 2), (1, -1, 3, -1, -1, 1), (2, -1, 2, -1, -1, 1)]
    start = [0b11111111] * 3
    explain = by_time_table(tasks, 2, (0, 1, 2), start, [0] * 3)
    before = [0b00011000, 0b11111111, 0b11111111]
    assert explain(before, 2, 0b00011000) == [(0, 0b00011000)]
    assert by_ranges((0, 1, 2), start)(before, 2, 0b00011000) == [(0, 0b00011000)]
    # with b sure to run at 4 too (start 3..4), a failure is a and b there, not c
    assert explain([0b00011000, 0b00011000, 0b11111111], -1, 0) == [
        (0, 0b00011000),
        (1, 0b00011100),
    ]
    # a struck start the time-table does not explain falls back to the scope's bounds
    assert explain(before, 2, 0b1) == [(0, 0b00011000)]
    assert explain(before, 1, 0b1) == [(0, 0b00011000)]


_START, _SIZE, _DEMAND, _PRESENT = 0b11111, 0b1110, 0b0110, 0b11


def _holds(tasks: list[Task], capacity: int, values: list[int]) -> bool:
    """The cumulative over ``values``, each decision's own value (offsets 0)."""
    load: dict[int, int] = {}
    for s, size_at, size, present, demand_at, demand in tasks:
        if present >= 0 and values[present] == 0:
            continue
        for t in range(values[s], values[s] + (values[size_at] if size_at >= 0 else size)):
            load[t] = load.get(t, 0) + (values[demand_at] if demand_at >= 0 else demand)
    return all(h <= capacity for h in load.values())


def test_a_start_whose_values_are_all_struck_is_explained_with_its_holes() -> None:
    """On one machine, a task at 0 of size 1, one at 2 of size 2, and a third of size 1
    in {0, 2}: each of its starts meets a sure part, so the machine fails; the
    explanation keeps the third start's domain whole (the law below found {0, 1, 2},
    the bounds, which the schedule starting it at 1 holds)."""
    tasks: list[Task] = [(0, 3, 0, 5, -1, 1), (1, -1, 2, -1, -1, 1), (2, -1, 1, -1, -1, 1)]
    before = [0b1, 0b100, 0b101, 0b10, 0b10, 0b10]
    assert no_overlap_filter(tasks, [0] * 6)(list(before)) is None
    start = [_START] * 3 + [_SIZE, _DEMAND, _PRESENT]
    literals = by_time_table(tasks, 1, tuple(range(6)), start, [0] * 6)(before, -1, 0)
    assert (2, 0b101) in literals
    assert _holds(tasks, 1, [0, 2, 1, 1, 1, 1])


@settings(max_examples=examples(150), deadline=None)
@given(st.data(), st.integers(1, 3), st.booleans())
def test_time_table_explanations_are_sound(data: st.DataObject, capacity: int, one: bool) -> None:
    """Whatever the propagator did, its explanation with the constraint rules out every
    value it struck (each failure: everything), on the first domains: brute force over
    three tasks, starts in 0..4, the first of variable size, demand and presence."""
    start = [_START] * 3 + [_SIZE, _DEMAND, _PRESENT]
    tasks: list[Task] = [(0, 3, 0, 5, 4, 0), (1, -1, 2, -1, -1, 1), (2, -1, 1, -1, -1, 2)]
    if one:  # a machine: demands of 1, capacity 1
        tasks = [(s, z, n, o, -1, 1) for s, z, n, o, _, _ in tasks]
        capacity = 1
    bits = [[1 << v for v in range(6) if whole >> v & 1] for whole in start]
    doms = [sum(data.draw(st.sets(st.sampled_from(these), min_size=1))) for these in bits]
    before = list(doms)
    offsets = [0] * 6
    prop = no_overlap_filter(tasks, offsets) if one else cumulative_filter(tasks, capacity, offsets)
    changes = prop(doms)
    scope = tuple(range(6))
    explain = by_time_table(tasks, capacity, scope, start, offsets)
    asked = (
        [(-1, 0)]
        if changes is None
        else [(i, before[i] & ~doms[i]) for i in range(6) if doms[i] != before[i]]
    )
    values = [[v for v in range(6) if whole >> v & 1] for whole in start]
    for i, removed in asked:
        literals = explain(before, i, removed)
        assert all(before[j] & ~mask == 0 for j, mask in literals)  # true then
        allowed = [sum(1 << v for v in vs) for vs in values]
        for j, mask in literals:
            allowed[j] &= mask
        if i >= 0:
            allowed[i] &= removed
        left = [[v for v in vs if allowed[j] >> v & 1] for j, vs in enumerate(values)]
        for point in product(*left):
            assert not _holds(tasks, capacity, list(point)), (i, removed, literals, point)


@settings(max_examples=examples(150), deadline=None)
@given(
    st.data(),
    st.lists(st.integers(-2, 2), min_size=3, max_size=3).filter(lambda cs: sum(map(bool, cs)) > 1),
    st.integers(-4, 4),
    st.sampled_from(["<=", ">=", "<"]),
    st.booleans(),
)
def test_guarded_row_explanations_are_sound(
    data: st.DataObject, coefficients: list[int], constant: int, op: str, reified: bool
) -> None:
    """``if_then(b == 1, row)`` and ``b == truth(row)``: whatever their propagator did,
    its explanation with the constraint rules out what it struck (brute force)."""
    m = Model()
    xs = [m.decision(f"x{k}", Domain.integer_range(0, 3)) for k in range(3)]
    expr = sum((a * x for a, x in zip(coefficients, xs, strict=True)), start=xs[0] * 0) + constant
    row = {"<=": expr <= 0, ">=": expr >= 0, "<": expr < 0}[op]
    if reified:
        m.truth(row)
    else:
        b = m.decision("b", Domain.integer_range(0, 1))
        m.add_constraint("guarded", if_then(b == 1, row))
    compiled = Propagators(m.decisions, list(m.constraints.values()))
    ((k, guards),) = compiled.guarded.items()
    _rules_out(data, m, compiled, k, lambda scope: by_guards(guards, scope, compiled.start))


def _rules_out(
    data: st.DataObject,
    m: Model,
    compiled: Propagators,
    k: int,
    explainer: Callable[[tuple[int, ...]], Explainer],
) -> None:
    """Propagator ``k`` run on domains drawn within the first ones: each explanation
    ``explainer(scope)`` gives of what it did, with ``m``'s constraints, rules out what it
    struck (all, for a failure) on the first domains (brute force), and is true then."""
    scope = tuple(dict.fromkeys(compiled.scopes[k]))
    start, offsets = list(compiled.start), compiled.offsets
    explain = explainer(scope)
    bits = [[1 << v for v in range(w.bit_length()) if w >> v & 1] for w in start]
    doms = [sum(data.draw(st.sets(st.sampled_from(these), min_size=1))) for these in bits]
    before = list(doms)
    changes = compiled.propagators[k](doms)
    asked = [(j, before[j] & ~doms[j]) for j in scope if doms[j] != before[j]]
    if changes is None:
        asked = [(-1, 0)]
    for j, removed in asked:
        literals = explain([before[n] for n in scope], j, removed)
        assert all(before[n] & ~mask == 0 for n, mask in literals)  # true then
        allowed = list(start)
        for n, mask in literals:
            allowed[n] &= mask
        if j >= 0:
            allowed[j] &= removed
        left = [
            [offsets[n] + v for v in range(w.bit_length()) if w >> v & 1]
            for n, w in enumerate(allowed)
        ]
        for point in product(*left):
            assert not all(c.holds(point) for c in m.constraints.values()), (j, literals, point)


@settings(max_examples=examples(200), deadline=None)
@given(st.data())
def test_element_explanations_are_sound(data: st.DataObject) -> None:
    """``r == [y0, y1, 2, y2][i]`` (``i`` may name no position, ``r`` has an offset):
    whatever its propagator did, its explanation with the constraint rules out what it
    struck (brute force)."""
    m = Model()
    r = m.decision("r", Domain.integer_range(1, 4))
    i = m.decision("i", Domain.integer_range(0, 4))
    ys = [m.decision(f"y{k}", Domain.integer_range(0, 3)) for k in range(3)]
    m.add_constraint("element", Element(r, [ys[0], ys[1], 2, ys[2]], i))
    compiled = Propagators(m.decisions, list(m.constraints.values()))
    ((k, (result, index, items)),) = compiled.elements.items()
    start, offsets = compiled.start, compiled.offsets
    _rules_out(
        data,
        m,
        compiled,
        k,
        lambda scope: by_element(result, index, items, scope, start, offsets),
    )


@settings(max_examples=examples(100), deadline=None)
@given(st.data())
def test_an_element_whose_result_is_its_index_keeps_the_solutions(data: st.DataObject) -> None:
    """``x == [y0, y1, 2, y2, 1][x]`` (FlatZinc's ``array_var_int_element(x, ys, x)``): its
    propagator narrows ``x`` as index and as result at once, so it is explained by the
    scope's domains (explained as an index, a nogood once held a literal not yet true);
    learning from every failure finds the solutions brute force finds."""
    m = Model()
    x = m.decision("x", Domain.integer_range(0, 4))
    ys = [m.decision(f"y{k}", Domain.integer_range(0, 4)) for k in range(3)]
    m.add_constraint("element", Element(x, [ys[0], ys[1], 2, ys[2], 1], x))
    for k in range(data.draw(st.integers(0, 3))):
        a, b = data.draw(st.permutations([x, *ys]))[:2]
        m.add_constraint(f"c{k}", a != b if data.draw(st.booleans()) else a + b <= 5)
    assert not Propagators(m.decisions, list(m.constraints.values())).elements
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "RESTART_CONFLICTS", 1)
        found = sorted(s.values or () for s in m.solutions(learn="clauses"))
    assert found == sorted(brute_force(m))


@pytest.mark.parametrize("place", [0, 2])
def test_an_element_whose_index_or_result_is_an_item_keeps_the_solutions(place: int) -> None:
    """``[x, 4, y, 0][x] >= y - 1`` and ``r == [r, 1, y][y]``: an item that is the index or
    the result is narrowed as both, so the element is explained by its scope's domains
    (explained as an element, analysis once met a literal the trail never made true)."""
    m = Model()
    x, y, r = (m.decision(n, Domain.integer_range(0, 3)) for n in "xyr")
    items: list[int | Decision] = [x, 4, y, 0]
    m.add_constraint("index", element(items, x) >= y - 1)
    picked: list[int | Decision] = [r, 1, y]
    m.add_constraint("result", Element(r, picked[: place + 1], y))
    assert not Propagators(m.decisions, list(m.constraints.values())).elements
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "RESTART_CONFLICTS", 1)
        found = sorted(s.values or () for s in m.solutions(learn="clauses"))
    assert found == sorted(brute_force(m))


def test_an_item_wakes_its_element_only_while_the_index_can_point_at_it() -> None:
    """``1 == [x0, x1, x2, 3][i]`` with ``i != 2``: fixing x2 (where the index no longer
    points) runs no propagator; fixing x1 off 1 strikes its place from the index, which
    then fixes x0 to 1."""
    m = Model()
    i = m.decision("i", Domain.integer_range(0, 3))
    xs = [m.decision(f"x{k}", Domain.integer_range(0, 2)) for k in range(3)]
    one = m.decision("one", Domain.integer_range(1, 1))
    m.add_constraint("pick", Element(one, [*xs, 3], i))
    m.add_constraint("not 2", i != 2)
    stream = m.solutions(learn="clauses")
    assert isinstance(stream, LearningSolutions)
    compiled, doms = stream._compiled, stream.trail.doms
    for k in range(len(compiled.propagators)):
        stream._enqueue(k)
    assert stream._propagate() is None and doms[i.index] == 0b0011
    runs = compiled.propagations
    stream.trail.decide(xs[2].index, 0b001)
    stream._wake(xs[2].index, -1)
    assert stream._propagate() is None and compiled.propagations == runs
    stream.trail.decide(xs[1].index, 0b001)
    stream._wake(xs[1].index, -1)
    assert stream._propagate() is None
    assert (doms[i.index], doms[xs[0].index]) == (0b0001, 0b010)


def test_analysis_finds_the_first_uip_and_the_level_to_back_up_to() -> None:
    """x0 = 0 at level 1; x1 = 0 at level 2 makes x2 in {1} (a propagator over x1) and
    x3 in {1} (over x1 and x2); a failure over x2, x3 and x0.  The first UIP is x1's
    decision; the nogood [x0 = 0, x1 = 0] backs up to level 1."""
    trail = Trail([0b11] * 4)
    trail.decide(0, 0b01)
    trail.decide(1, 0b01)
    trail.narrow(2, 0b10, 0, 2)
    trail.narrow(3, 0b10, 1, 3)
    reasons = {2: [(1, 0b01)], 3: [(1, 0b01), (2, 0b10)]}
    learnt = analyse(trail, [(2, 0b10), (3, 0b10), (0, 0b01)], reasons.__getitem__)
    assert learnt is not None
    literals, back, lbd = learnt
    assert literals == [(1, 0b01), (0, 0b01)] and back == 1 and lbd == 2
    # x3's literal rests on x1 and x2, x2's on x1: the UIP is x1's, not x3's
    assert analyse(trail, [(0, 0b11)], reasons.__getitem__) is None  # true at the start


def test_analysis_keeps_what_a_narrowed_decision_had_lost_before() -> None:
    """x2's domain loses 2 and 3 at level 1 (because of x0) and 1 at level 2 (because of
    x1): ``x2 = 0`` rests on both, so the nogood of a conflict over ``x2 = 0`` keeps
    ``x2 in {0, 1}`` beside x1's decision, and backs up to level 1, not the root."""
    trail = Trail([0b1111] * 3)
    trail.decide(0, 0b0001)
    trail.narrow(2, 0b0011, 0, 1)
    trail.decide(1, 0b0001)
    trail.narrow(2, 0b0001, 1, 3)
    reasons = {1: [(0, 0b0001)], 3: [(1, 0b0001)]}
    learnt = analyse(trail, [(2, 0b0001), (1, 0b0001)], reasons.__getitem__)
    assert learnt == ([(1, 0b0001), (2, 0b0011)], 1, 2)


def test_a_nogood_asserts_after_the_backjump() -> None:
    """The learnt nogood's UIP is made false by the nogood itself, as a cause."""
    m = Model()
    xs = [m.decision(f"x{i}", Domain.integer_range(0, 2)) for i in range(4)]
    m.add_constraint("d", all_different(xs))  # 4 decisions, 3 values: no solution
    stream = m.solutions(learn="clauses")
    assert isinstance(stream, LearningSolutions)
    assert list(stream) == []
    assert stream.conflicts >= 1
    causes = set(stream.trail.cause)
    assert all(c >= -1 or -2 - c < len(stream.store.literals) for c in causes)
    assert clause_cause(0) == -2


def test_learn_takes_true_false_or_clauses() -> None:
    m = Model()
    m.decision("x", Domain.integer_range(0, 1))
    with pytest.raises(ModelError, match="clauses"):
        m.solutions(learn="yes")  # type: ignore[arg-type]


# --- the laws ---


@settings(max_examples=examples(300), deadline=None)
@given(small_models(), st.sampled_from([1, 3, 100]), st.sampled_from([2, 6, 2000]))
def test_learning_clauses_keeps_the_solutions_and_the_optimum(
    m: Model, restart: int, kept: int
) -> None:
    """Against the depth-first search: the same solutions, each once (without goals), or
    the same optimum, proved; every solution holds every constraint."""
    plain = list(m.solutions())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "RESTART_CONFLICTS", restart)
        patch.setattr(engine, "KEPT", kept)
        stream = m.solutions(learn="clauses")
        found = list(stream)
    constraints = list(m.constraints.values())
    for s in found:
        assert s.values is not None and all(c.holds(s.values) for c in constraints)
    if not m.goals:
        assert sorted(s.values or () for s in found) == sorted(s.values or () for s in plain)
        assert len({s.values for s in found}) == len(found)
        return
    assert [s.quality for s in found[-1:]] == [s.quality for s in plain[-1:]]
    if plain:
        assert found[-1].objective == plain[-1].objective
        scores = [_score(m, s.values or ()) for s in found[:-1]]
        assert all(a > b for a, b in pairwise(scores))


@settings(max_examples=examples(300), deadline=None)
@given(small_models(), st.sampled_from([1, 3, 100]), st.sampled_from([0, 256]))
def test_no_solution_breaks_a_learnt_clause(m: Model, restart: int, minimised: int) -> None:
    """Each nogood learnt from a conflict has its literals all hold in no solution but
    those found already (without goals: a nogood may rest on a solution's own, which
    leaves it out), or, with goals, in none better than the best when it was learnt.  (A
    solution's own nogood, its decisions, kept with LBD 0, is the other law's: each
    solution found once.)  Nogoods kept as analysed (``MINIMISED_UP_TO`` 0) or minimised."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "RESTART_CONFLICTS", restart)
        patch.setattr(analysis, "MINIMISED_UP_TO", minimised)
        stream = m.solutions(learn="clauses")
        assert isinstance(stream, LearningSolutions)
        found = [s.values for s in stream]
    offsets = [d.domain.offset for d in m.decisions]
    solutions = brute_force(m)
    store = stream.store
    learnt = zip(store.literals, store.lbd, stream.bounds, stream.after, strict=True)
    for literals, lbd, bound, after in learnt:
        if not lbd or not literals:  # a solution's own, or cut
            continue
        for values in solutions:
            if all(mask >> (values[i] - offsets[i]) & 1 for i, mask in literals):
                if bound is None:
                    assert values in found[:after], (literals, values)
                else:
                    assert _score(m, values) >= bound, (literals, values)


def _schedule(sizes: list[int], machine: bool, demands: list[int], goal: bool) -> Model:
    """Tasks of ``sizes`` steps (0: a size of 1 or 2, a decision) starting in 0..3, the
    first optional, on one machine or sharing a capacity of 2, at times the latest end
    of the others minimised."""
    m = Model()
    tasks = []
    for k, steps in enumerate(sizes):
        size: int | Decision = steps or m.decision(f"p{k}", Domain.integer_range(1, 2))
        present = m.decision(f"o{k}", Domain.integer_range(0, 1)) if k == 0 else None
        tasks.append(m.interval(f"s{k}", Domain.integer_range(0, 3), size, present))
    if machine:
        m.add_constraint("machine", no_overlap(tasks))
    else:
        m.add_constraint("capacity", cumulative(tasks, demands, 2))
    if goal:
        m.minimize(maximum([t.end for t in tasks[1:]]))
    return m


@settings(max_examples=examples(100), deadline=None)
@given(
    st.lists(st.integers(0, 3), min_size=3, max_size=3),
    st.booleans(),
    st.lists(st.integers(1, 2), min_size=3, max_size=3),
    st.booleans(),
    st.sampled_from([1, 100]),
)
def test_schedules_learning_clauses_keep_the_solutions_and_the_optimum(
    sizes: list[int], machine: bool, demands: list[int], goal: bool, restart: int
) -> None:
    """Scheduling's propagators, explained by their scopes' bounds, against the
    depth-first search: the same solutions, or the same optimum; without goals, no learnt
    nogood breaks a solution but those found before it was learnt."""
    m = _schedule(sizes, machine, demands, goal)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "RESTART_CONFLICTS", restart)
        stream = m.solutions(learn="clauses")
        assert isinstance(stream, LearningSolutions)
        found = list(stream)
    plain = list(m.solutions())
    if goal:
        assert [(s.quality, s.objective) for s in found[-1:]] == [
            (s.quality, s.objective) for s in plain[-1:]
        ]
        return
    assert sorted(s.values or () for s in found) == sorted(s.values or () for s in plain)
    offsets = [d.domain.offset for d in m.decisions]
    values_found = [s.values for s in found]
    for literals, after in zip(stream.store.literals, stream.after, strict=True):
        for values in values_found:
            assert values is not None
            if literals and all(mask >> (values[i] - offsets[i]) & 1 for i, mask in literals):
                assert values in values_found[:after]


# --- known answers ---


@pytest.mark.parametrize(("n", "count"), [(6, 4), (8, 92)])
def test_queens_counts_with_clauses(n: int, count: int) -> None:
    """OEIS A000170."""
    assert len(list(queens_model(n)[0].solutions(learn="clauses"))) == count


def test_golomb_optimum_with_clauses() -> None:
    """The shortest Golomb ruler of 7 marks is 25 long (OEIS A003022)."""
    best = golomb_model(7)[0].solve(learn="clauses")
    assert best.quality is Quality.OPTIMAL and best.objective == (25,)


def test_a_hard_random_csp_is_refuted_learning() -> None:
    stream = random_csp_model(50, 10, 0.2, 0.38, 1).solutions(learn="clauses")
    assert list(stream) == [] and stream.stopped_by is None and stream.nogoods > 0
