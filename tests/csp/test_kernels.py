"""The solver's C kernels (``lazyfun.csp.propagation._kernels``) against the readable
propagators they stand for: on random domains each kernel narrows the same domains and
names the same decisions in the same order, or fails where its Python closure fails;
the C loop reaches the same fixpoints, counts the same runs and blames the same
propagator, so whole searches take the same nodes and find the same solutions; and what
a kernel cannot hold (a domain wider than a word, sums that overflow one) is refused at
once, the Python closure then running in its place."""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.csp import Decision, Domain, Model, all_different, element, total
from lazyfun.csp.examples import golomb_model, knapsack_model, sudoku_model
from lazyfun.csp.propagation import kernels
from lazyfun.csp.propagation.filters import Changes, bounds, element_filter
from lazyfun.csp.propagation.nonlinear import (
    clause_filter,
    reified_clause_filter,
    reified_shift_filter,
    reified_unary_filter,
)
from lazyfun.csp.propagation.propagators import Propagators
from tests.budget import examples

# the engine, also where LAZYFUN_PURE runs the rest from source: the tests say when it runs
try:
    from lazyfun.csp.propagation import _kernels as c
except ImportError:  # built without a C compiler
    pytest.skip("the C kernels are not built here", allow_module_level=True)
loose: Any = c  # the refusals' calls, which the stubs rightly refuse to type
pytestmark = pytest.mark.compiled  # run again from source by `make unit`: the source's C paths
Literal = tuple[int, int]
Changes_fn = Callable[[list[int]], Changes]


def _same(c_kernel: Callable[[list[int]], Changes], python: Changes_fn, doms: list[int]) -> None:
    """Both propagators on copies of ``doms``: the same answer and the same domains after."""
    mine, theirs = list(doms), list(doms)
    got, expected = c_kernel(mine), python(theirs)
    assert (None if got is None else list(got)) == (None if expected is None else list(expected))
    if expected is not None:
        assert mine == theirs


BOOL = st.sampled_from([0b01, 0b10, 0b11])


@st.composite
def clauses(draw: st.DrawFn) -> tuple[list[int], list[Literal]]:
    """Domains of 0/1 decisions (fixed or open) and literals over some of them."""
    doms = draw(st.lists(BOOL, min_size=1, max_size=8))
    picked = draw(st.lists(st.integers(0, len(doms) - 1), min_size=1, max_size=6, unique=True))
    return doms, [(i, draw(st.sampled_from([0b01, 0b10]))) for i in picked]


@settings(max_examples=examples(500), deadline=None)
@given(clauses())
def test_a_clause_in_c_is_the_python_clause(case: tuple[list[int], list[Literal]]) -> None:
    doms, literals = case
    _same(c.clause(literals), clause_filter(literals), doms)


@settings(max_examples=examples(500), deadline=None)
@given(clauses(), st.sampled_from([0b01, 0b10]), st.data())
def test_a_reified_clause_in_c_is_the_python_one(
    case: tuple[list[int], list[Literal]], when: int, data: st.DataObject
) -> None:
    doms, literals = case
    used = {i for i, _ in literals}
    free = [i for i in range(len(doms)) if i not in used]
    if not free:
        doms, free = [*doms, 0b11], [len(doms)]
    truth = data.draw(st.sampled_from(free))
    doms[truth] = data.draw(BOOL)
    _same(
        c.reified_clause(truth, when, literals), reified_clause_filter(truth, when, literals), doms
    )


def _bits(width: int) -> st.SearchStrategy[int]:
    return st.integers(1, 2**width - 1)


@settings(max_examples=examples(800), deadline=None)
@given(
    st.tuples(BOOL, _bits(10), _bits(10)),
    st.tuples(st.integers(-70, 70), st.integers(-70, 70)),
    st.integers(-80, 80),
    st.sampled_from([0b01, 0b10]),
)
def test_a_reified_shift_in_c_is_the_python_one(
    doms: tuple[int, int, int], offsets: tuple[int, int], k: int, equal: int
) -> None:
    """``t <-> x == y + k``, the shifts reaching past a word's 64 bits both ways."""
    offs = [0, *offsets]
    shift = offs[2] + k - offs[1]
    _same(
        c.reified_shift(0, 1, 2, shift, equal),
        reified_shift_filter(0, 1, 2, k, equal, offs),
        list(doms),
    )


@settings(max_examples=examples(500), deadline=None)
@given(BOOL, _bits(62), _bits(62))
def test_a_reified_condition_on_one_decision_in_c_is_the_python_one(
    truth: int, held: int, meets: int
) -> None:
    _same(c.reified_unary(0, 1, meets), reified_unary_filter(0, 1, meets), [truth, held])


@st.composite
def linears(draw: st.DrawFn) -> tuple[list[int], list[tuple[int, int, int]], int, bool]:
    """Domains, terms ``(decision, coefficient, offset)`` over distinct decisions, a
    constant and whether the sum is ``== 0`` rather than ``<= 0``."""
    doms = draw(st.lists(_bits(12), min_size=1, max_size=6))
    picked = draw(st.lists(st.integers(0, len(doms) - 1), min_size=1, max_size=5, unique=True))
    coefficient = st.integers(-9, 9).filter(bool)
    terms = [(i, draw(coefficient), draw(st.integers(-20, 20))) for i in picked]
    return doms, terms, draw(st.integers(-60, 60)), draw(st.booleans())


@pytest.mark.long_from_source
@settings(max_examples=examples(1500), deadline=None)
@given(linears())
def test_linear_bounds_in_c_are_the_python_bounds(
    case: tuple[list[int], list[tuple[int, int, int]], int, bool],
) -> None:
    doms, terms, constant, equal = case
    _same(c.linear(terms, constant, equal), bounds(terms, constant, equal), doms)


@st.composite
def elements(draw: st.DrawFn) -> tuple[list[int], list[tuple[int, int]], list[int]]:
    """Domains and offsets (the result 0, the index 1 up to 200 bits wide, items' decisions
    after), and the items: decisions (the result among them) or numbers below, within and
    past the result's word."""
    held = draw(st.integers(1, 4))
    offsets = [draw(st.integers(-70, 70)), draw(st.integers(-10, 80))]
    offsets += [draw(st.integers(-70, 70)) for _ in range(held)]
    index = draw(st.randoms(use_true_random=False)).getrandbits(200) >> draw(st.integers(0, 199))
    doms = [draw(_bits(12)), index | 1, *(draw(_bits(12)) for _ in range(held))]
    item = st.one_of(
        st.tuples(st.sampled_from([0, *range(2, 2 + held)]), st.just(0)),
        st.tuples(st.just(-1), st.integers(-150, 150)),
    )
    size = draw(st.integers(1, 150))
    return doms, draw(st.lists(item, min_size=size, max_size=size)), offsets


@settings(max_examples=examples(400), deadline=None)
@given(elements())
def test_an_element_in_c_is_the_python_element(
    case: tuple[list[int], list[tuple[int, int]], list[int]],
) -> None:
    """The index read and written across words, positions outside the list, an index
    fixed to an item that narrows (the result itself, or another decision)."""
    doms, items, offsets = case
    off = offsets[0]
    moves = [(j, offsets[j] - off if j >= 0 else v - off) for j, v in items]
    kernel = c.element(0, 1, offsets[1], doms[1].bit_length(), moves)
    _same(kernel, element_filter(0, 1, items, offsets), doms)
    fixed = list(doms)  # the index on the middle item, where its offset lets it
    fixed[1] = 1 << max(0, len(items) // 2 - offsets[1])
    _same(c.element(0, 1, offsets[1], 200, moves), element_filter(0, 1, items, offsets), fixed)


# ---- the loop: whole searches -----------------------------------------------------------


def _grid_colouring(n: int, m: int) -> Model:
    """The challenge's grid colouring: no rectangle's four corners of one colour, the
    fewest colours: reified ``!=`` (shifts), clauses of them and ``x <= colours``; the
    cells branched on first, as the challenge's model asks."""
    model = Model()
    most = min(n, m)
    x = [
        [model.decision(f"x{i}_{k}", Domain.integer_range(1, most)) for k in range(m)]
        for i in range(n)
    ]
    colours = model.decision("colours", Domain.integer_range(1, most))
    for row in x:
        for cell in row:
            model.add_constraint(f"{cell.name} used", cell <= colours)
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(m):
                for ell in range(k + 1, m):
                    corners = [
                        (x[i][k], x[i][ell]),
                        (x[i][ell], x[j][ell]),
                        (x[j][k], x[j][ell]),
                        (x[i][k], x[j][k]),
                    ]
                    differ = [model.truth(a != b) == 1 for a, b in corners]
                    model.add_constraint(
                        f"r{i}{j}{k}{ell}", differ[0] | differ[1] | differ[2] | differ[3]
                    )
    model.branch_on([cell for row in x for cell in row], variable="first_fail")
    model.minimize(colours)
    return model


def _unary_model() -> Model:
    """Reified conditions on one decision and sums over their truths (fillomino's kind)."""
    model = Model()
    xs = [model.decision(f"x{i}", Domain.integer_range(0, 5)) for i in range(6)]
    model.add_constraint("distinct", all_different(xs[:4]))
    model.add_constraint("two big", total(model.truth(x >= 3) for x in xs) == 2)
    model.add_constraint("sum", total(xs) == 14)
    model.add_constraint("ends", xs[0] + 2 * xs[5] <= 9)
    return model


def _element_model() -> Model:
    """Golfers' kind of element: a pair's cell, picked by an index over 70 positions (six
    decisions, then numbers), must hold a given value."""
    model = Model()
    xs = [model.decision(f"x{i}", Domain.integer_range(0, 3)) for i in range(6)]
    a = model.decision("a", Domain.integer_range(0, 6))
    b = model.decision("b", Domain.integer_range(0, 9))
    items: list[int | Decision] = [*xs, *((5 * v + v // 6) % 4 for v in range(64))]
    model.add_constraint("ab", element(items, 10 * a + b) == 2)
    model.add_constraint("ba", element(items, 7 * b + a) == 1)
    model.add_constraint("sum", total(xs) == 9)
    model.add_constraint("distinct", all_different(xs[:4]))
    return model


MODELS: dict[str, Callable[[], Model]] = {
    "element": _element_model,
    "grid colouring 4x6": lambda: _grid_colouring(4, 6),
    "reified conditions": _unary_model,
    "golomb 6": lambda: golomb_model(6)[0],
    "knapsack": lambda: knapsack_model()[0],
    "sudoku": lambda: sudoku_model(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    )[0],
}


def _searched(
    build: Callable[[], Model], in_c: bool, monkeypatch: pytest.MonkeyPatch
) -> tuple[object, ...]:
    monkeypatch.setattr(kernels, "BUILT", in_c)
    stream = build().solutions()
    found = [(s.values, s.objective) for s in stream]
    return found, stream.nodes, stream.propagations, stream.failures


@pytest.mark.parametrize("name", sorted(MODELS))
def test_a_search_propagated_in_c_takes_the_nodes_of_the_python_loop(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    in_c = _searched(MODELS[name], True, monkeypatch)
    in_python = _searched(MODELS[name], False, monkeypatch)
    assert in_c == in_python
    assert in_c[0], "each model has a solution"


def test_the_loop_runs_in_c_when_built_and_kernels_hold_the_commonest_constraints(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(kernels, "BUILT", True)
    model = _grid_colouring(2, 3)
    compiled = Propagators(model.decisions, list(model.constraints.values()), [])
    assert compiled._loop is not None
    kinds = {type(p).__name__ for p in compiled.propagators}
    assert kinds == {"Kernel"}, kinds


# ---- the loop, by hand ------------------------------------------------------------------


def _x_le_y_loop(
    extra: Sequence[Callable[[list[int]], Changes]] = (),
) -> tuple[c.Loop, list[int]]:
    """x <= y and y <= x - 1 over 0..3: no solution, found by running the two in turn."""
    le = c.linear([(0, 1, 0), (1, -1, 0)], 0, False)
    lt = c.linear([(1, 1, 0), (0, -1, 0)], 1, False)
    props: list[Changes_fn] = [le, lt, *extra]
    watchers = [[0, 1, *range(2, 2 + len(extra))], [0, 1]]
    loop = c.Loop(props, watchers, [False] * len(props), [False] * len(props))
    return loop, [0b1111, 0b1111]


def test_the_loop_runs_to_a_failure_and_names_the_propagator_that_failed() -> None:
    loop, doms = _x_le_y_loop()
    assert loop.run(doms, [0, 1], []) is False
    assert loop.failed in (0, 1) and loop.runs > 2
    ok_loop, ok = _x_le_y_loop()
    assert ok_loop.run(ok, [], []) is True and ok_loop.runs == 0 and ok_loop.failed == -1


def test_a_python_propagator_that_raises_leaves_the_loop_ready_for_the_next_run() -> None:
    calls: list[int] = []

    def boom(doms: list[int]) -> Changes:
        calls.append(1)
        raise ZeroDivisionError("inside a propagator")

    loop, doms = _x_le_y_loop([boom])
    with pytest.raises(ZeroDivisionError, match="inside a propagator"):
        loop.run(doms, [0], [])
    # nothing is left marked queued: the next run queues and runs them all again
    calls.clear()
    with pytest.raises(ZeroDivisionError):
        loop.run([0b1111, 0b1111], [0], [])
    assert calls == [1]


def _creeping(width: int) -> Propagators:
    """x + 1 <= y and y + 1 <= x over 0..width: no solution, found by the two bounds
    moving down one value a run, in turn, some 2 * width runs."""
    m = Model()
    x = m.decision("x", Domain.integer_range(0, width))
    y = m.decision("y", Domain.integer_range(0, width))
    m.add_constraint("x before y", x + 1 <= y)
    m.add_constraint("y before x", y + 1 <= x)
    return Propagators(m.decisions, list(m.constraints.values()), [])


@pytest.mark.parametrize("in_c", [True, False], ids=["C loop", "Python loop"])
def test_a_creeping_propagation_calls_its_interrupt_and_ends_where_it_raises(
    in_c: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loop calls ``interrupt`` every ``INTERRUPT_EVERY`` runs of one propagation;
    what it raises ends the propagation there, and the next starts at rest."""
    monkeypatch.setattr(kernels, "BUILT", in_c)
    compiled = _creeping(3000)
    assert (compiled._loop is not None) is in_c
    calls: list[int] = []
    compiled.interrupt = lambda: calls.append(compiled.propagations)
    assert compiled.propagate(list(compiled.start), range(2)) is False
    runs = compiled.propagations
    assert runs > 5 * kernels.INTERRUPT_EVERY and len(calls) == runs // kernels.INTERRUPT_EVERY

    def stop() -> None:
        calls.append(-1)
        if len(calls) > 3:
            raise TimeoutError("the limit")

    calls.clear()
    compiled.interrupt = stop
    with pytest.raises(TimeoutError, match="the limit"):
        compiled.propagate(list(compiled.start), range(2))
    assert len(calls) == 4  # ended at the fourth call: 4 * INTERRUPT_EVERY runs in
    compiled.interrupt = None
    compiled.propagations = 0
    assert compiled.propagate(list(compiled.start), range(2)) is False
    assert compiled.propagations == runs  # the whole run again, from rest


def test_a_python_propagator_may_return_any_sequence_and_is_told_apart_from_a_failure() -> None:
    seen: list[list[int]] = []

    def strike_top(doms: list[int]) -> Changes:
        seen.append(list(doms))
        if doms[0] & 0b1000:
            doms[0] &= 0b0111
            return [0]
        return ()

    loop = c.Loop(
        [strike_top, c.linear([(0, 1, 0), (1, -1, 0)], 0, False)],
        [[0, 1], [1]],
        [False, False],
        [False, True],
    )
    doms = [0b1111, 0b0111]
    assert loop.run(doms, [0], []) is True
    assert doms == [0b0111, 0b0111]
    assert loop.runs == 3  # strike_top, then the (slow) linear, then strike_top again


def test_a_propagator_that_names_a_decision_out_of_range_is_an_error() -> None:
    loop = c.Loop([lambda doms: (5,)], [[0]], [False], [False])
    with pytest.raises(IndexError, match="narrowed decision 5"):
        loop.run([0b11], [0], [])


def test_a_propagator_that_shortens_the_domains_is_an_error_before_a_kernel_reads_them() -> None:
    def shorten(doms: list[int]) -> Changes:
        del doms[1:]
        return ()

    loop = c.Loop([shorten, c.clause([(1, 0b10)])], [[0], [1]], [False, False], [False, False])
    with pytest.raises(RuntimeError, match="left 1 domains of 2"):
        loop.run([0b11, 0b11], [0, 1], [])


def test_a_propagator_may_not_run_the_loop_that_runs_it() -> None:
    holder: list[c.Loop] = []

    def again(doms: list[int]) -> Changes:
        holder[0].run(doms, [], [])
        return ()

    holder.append(c.Loop([again], [[0]], [False], [False]))
    with pytest.raises(RuntimeError, match="ran the loop that runs it"):
        holder[0].run([0b11], [0], [])
    holder.clear()
    gc.collect()


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: loose.clause([(0, 0b01)])((0b11,)), TypeError, "must be a list"),
        (lambda: loose.clause([(3, 0b01)])([0b11]), IndexError, "reads decision 3"),
        (lambda: loose.clause([(0, 0b01)])([1 << 63]), ValueError, "wider than 62 bits"),
        (lambda: loose.clause([(0, 0b01)])([1 << 70]), OverflowError, "too big"),
        (lambda: loose.clause([(0, 0b01)])([-1]), OverflowError, "negative"),
        (lambda: loose.clause([(0, 0b01)])(["x"]), TypeError, "integer"),
        (lambda: loose.clause([(0, 0b100)]), ValueError, "0b01"),
        (lambda: loose.clause([(-1, 0b01)]), ValueError, "counted from 0"),
        (lambda: loose.reified_clause(0, 3, []), ValueError, "when is"),
        (lambda: loose.reified_shift(0, 1, 2, 0, 0), ValueError, "equal is"),
        (lambda: loose.reified_unary(0, 1, 1 << 63), OverflowError, "wider than 62 bits"),
        (lambda: loose.linear([(0, 0, 0)], 0, False), ValueError, "not 0"),
        (lambda: loose.linear([(0, 1 << 61, 0)], 0, False), OverflowError, "coefficient wider"),
        (
            lambda: loose.linear([(0, 1, 1 << 60), (1, 1, 1 << 60)], 0, False),
            OverflowError,
            "61 bits",
        ),
        (lambda: loose.Loop([1], [[0]], [False], [False]), TypeError, "not callable"),
        (
            lambda: loose.Loop([loose.clause([(4, 1)])], [[0]], [False], [False]),
            ValueError,
            "reads decision 4",
        ),
        (lambda: loose.Loop([print], [[1]], [False], [False]), ValueError, "watches propagator 1"),
        (lambda: loose.Loop([print], [[0]], [False, True], [False]), ValueError, "2 flags for 1"),
        (
            lambda: loose.Loop([print], [[0]], [False], [False]).run([1], [0], [3]),
            IndexError,
            "seed 3",
        ),
        (
            lambda: loose.Loop([print], [[0]], [False], [False]).run([1], [0]),
            TypeError,
            "run\\(doms",
        ),
        (lambda: loose.clause([(0, 0b01)])([1], []), TypeError, "alone"),
        (lambda: loose.element(0, 1, 0, 3, [(-1, 0)])([1, 1 << 70]), ValueError, "its first"),
        (lambda: loose.element(0, 1, 0, 3, [(-1, 0)])([1, -1]), ValueError, "0 or more"),
        (lambda: loose.element(0, 1, 0, 3, [(1, 0)]), ValueError, "an item is the index"),
        (lambda: loose.element(0, 1, 0, -1, [(-1, 0)]), ValueError, "width"),
    ],
)
def test_what_a_kernel_or_the_loop_cannot_hold_is_refused_with_the_reason(
    call: Callable[[], object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        call()


def test_a_sum_too_wide_for_a_word_runs_the_python_bounds_and_still_solves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(kernels, "BUILT", True)
    model = Model()
    x = model.decision("x", Domain.integer_range(0, 3))
    y = model.decision("y", Domain.integer_range(0, 3))
    model.add_constraint("wide", (1 << 62) * x - (1 << 62) * y <= -(1 << 62))
    compiled = Propagators(model.decisions, list(model.constraints.values()), [])
    assert type(compiled.propagators[0]).__name__ != "Kernel"
    assert sorted((s[x], s[y]) for s in model.solutions()) == [
        (a, b) for a in range(4) for b in range(4) if a < b
    ]


def test_a_domain_wider_than_a_word_keeps_the_python_propagator(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(kernels, "BUILT", True)
    model = Model()
    x = model.decision("x", Domain.integer_range(0, 100))
    t = model.truth(x == 70)
    model.add_constraint("set", t == 1)
    compiled = Propagators(model.decisions, list(model.constraints.values()), [])
    assert "Kernel" not in {type(p).__name__ for p in compiled.propagators[:1]}
    assert [s[x] for s in model.solutions()] == [70]


def test_a_kernel_says_what_it_is() -> None:
    assert repr(c.clause([(0, 1), (4, 2)])) == "<lazyfun C kernel clause over 5 decisions>"
