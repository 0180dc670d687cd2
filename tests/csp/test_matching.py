"""Domain consistency for all_different (Régin's rule), the table's bit-set rows, and the
boolean propagators FlatZinc's reified constraints and clauses arrive as: each against the
definition, value by value or by brute force."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.csp import Domain, Model, total
from lazyfun.csp.modelling.constraints import AllDifferent, Constraint
from lazyfun.csp.propagation.filters import table_filter
from lazyfun.csp.propagation.matching import (
    matching_distinct,
    maximum_matching,
    regin_filter,
    supported_naive,
)
from lazyfun.csp.propagation.nonlinear import (
    abs_filter,
    clause_filter,
    reified_clause_filter,
    reified_unary_filter,
)
from tests.budget import examples

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

domains = st.lists(st.integers(1, 255), min_size=1, max_size=6)


@settings(max_examples=examples(400), deadline=None)
@given(domains, st.lists(st.integers(0, 7), max_size=6))
def test_regin_keeps_exactly_the_values_some_distinct_assignment_uses(
    doms: list[int], start: list[int]
) -> None:
    """Whatever matching it starts from, the rule keeps a value exactly when some
    assignment of distinct values gives it (and fails when none exists)."""
    want = supported_naive(doms)
    got = list(doms)
    mate = regin_filter(got, [1 << k for k in start])
    if not any(want):
        assert mate is None
    else:
        assert got == want
        assert mate is not None and len(set(mate)) == len(mate)


def test_a_hall_set_inside_the_domains_is_found_that_bounds_miss() -> None:
    """x, y in {1, 3}: they take both, so z (1..3) is 2; bounds reasoning sees no
    interval of two values there."""
    doms = [0b101, 0b101, 0b111]
    assert regin_filter(doms) is not None
    assert doms == [0b101, 0b101, 0b010]
    assert regin_filter([0b1, 0b1]) is None
    assert maximum_matching([0b11, 0b01]) == [0b10, 0b01]


def test_the_propagator_lifts_domains_of_different_offsets() -> None:
    m = Model()
    xs = [m.decision("a", Domain.integer_range(1, 2)), m.decision("b", Domain.integer_range(1, 2))]
    xs.append(m.decision("c", Domain.integer_range(0, 3)))
    offsets = [x.domain.offset for x in xs]
    doms = [x.domain.bits for x in xs]
    assert matching_distinct((0, 1, 2), offsets)(doms) == [2]
    assert {offsets[2] + k for k in range(4) if doms[2] >> k & 1} == {0, 3}


def test_inverse_as_minizinc_hands_it_narrows_as_gecode_does() -> None:
    """A permutation and its inverse with both all_different by domain: all 6
    permutations of 3, and x = [2, ?, ?] with y[3] = 2 leaves one: [2, 3, 1]."""
    m = Model()
    x = [m.decision(f"x{i}", Domain.integer_range(1, 3)) for i in range(3)]
    y = [m.decision(f"y{i}", Domain.integer_range(1, 3)) for i in range(3)]
    for i in range(3):
        for j in range(3):
            m.add_constraint(f"c{i}{j}", m.truth(x[i] == j + 1) == m.truth(y[j] == i + 1))
    m.add_constraint("dx", AllDifferent(x, domain=True))
    m.add_constraint("dy", AllDifferent(y, domain=True))
    assert len(list(m.solutions())) == 6
    m.add_constraint("x0", x[0] == 2)
    m.add_constraint("y2", y[2] == 2)
    (only,) = m.solutions()
    assert only.values is not None and only.values[:3] == (2, 3, 1)


@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)), max_size=12),
    st.lists(st.integers(1, 15), min_size=3, max_size=3),
)
def test_the_table_keeps_the_values_of_the_rows_the_domains_allow(
    rows: list[tuple[int, int, int]], doms: list[int]
) -> None:
    allowed = [r for r in rows if all(doms[k] >> r[k] & 1 for k in range(3))]
    got = list(doms)
    changes = table_filter((0, 1, 2), rows, [0, 0, 0])(got)
    if not allowed:
        assert changes is None
        return
    assert got == [sum({1 << r[k] for r in allowed}) for k in range(3)]
    assert sorted(changes or ()) == [k for k in range(3) if got[k] != doms[k]]


booleans = st.sampled_from([0b01, 0b10, 0b11])
literals = st.lists(st.tuples(st.integers(0, 3), st.sampled_from([0b01, 0b10])), max_size=4)


def _assignments(doms: list[int]) -> list[tuple[int, ...]]:
    return [v for v in product(*[[b for b in (0b01, 0b10) if d & b] for d in doms]) if all(v)]


def _narrowest(kept: Sequence[tuple[int, ...]], n: int) -> list[int]:
    return [sum({v[k] for v in kept}) for k in range(n)]


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(booleans, min_size=5, max_size=5), literals, st.sampled_from([0b01, 0b10]))
def test_clauses_and_their_reified_forms_against_brute_force(
    doms: list[int], lits: list[tuple[int, int]], when: int
) -> None:
    """Unit propagation never removes a value a solution uses, and on fixed decisions
    fails exactly when they are not a solution."""

    def holds(v: tuple[int, ...]) -> bool:
        return any(v[i] == bit for i, bit in lits)

    for prop, test in (
        (clause_filter(lits), holds),
        (reified_clause_filter(4, when, lits), lambda v: (v[4] == when) == holds(v)),
    ):
        kept = [v for v in _assignments(doms) if test(v)]
        got = list(doms)
        failed = prop(got) is None
        if failed:
            assert not kept
        else:
            assert all(all(g & b for g, b in zip(got, v, strict=True)) for v in kept)
        if all(not d & (d - 1) for d in doms):
            assert failed == (not kept)


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(1, 255), st.integers(0, 255), booleans)
def test_a_reified_condition_on_one_decision_is_domain_consistent(
    held: int, meets: int, truth: int
) -> None:
    doms = [truth, held]
    kept = [
        (t, 1 << k)
        for t in (0b01, 0b10)
        if truth & t
        for k in range(8)
        if held >> k & 1 and (t == 0b10) == bool(meets >> k & 1)
    ]
    changes = reified_unary_filter(0, 1, meets)(doms)
    if not kept:
        assert changes is None
    else:
        assert doms == _narrowest(kept, 2)


@pytest.mark.parametrize("n", [3, 4])
def test_reified_clauses_in_a_model_count_as_brute_force_does(n: int) -> None:
    """r <-> (b0 | b1 | ...), s <-> (b0 & not b1), x == 2 reified, and a clause, solved
    whole: the solutions are exactly brute force's."""
    m = Model()
    bs = [m.decision(f"b{i}", Domain.boolean()) for i in range(n)]
    x = m.decision("x", Domain.integer_range(0, 3))
    either: Constraint = bs[0] == 1
    for b in bs[1:]:
        either = either | (b == 1)
    r = m.truth(either)
    s = m.truth((bs[0] == 1) & (bs[1] == 0))
    t = m.truth(x == 2)
    m.add_constraint("clause", (bs[0] == 0) | (bs[-1] == 1) | (x <= 1))
    m.add_constraint("tie", r + s + t >= 1)
    ours = sorted(v.values for v in m.solutions() if v.values is not None)
    everything = product(*(d.domain.values for d in m.decisions))
    theirs = [v for v in everything if all(c.holds(v) for c in m.constraints.values())]
    assert ours == theirs
    assert len(ours) > 1


# a domain of up to 44 values: any set of them, or one run (a range)
_X_WIDTH = 44
x_domains = st.integers(1, 2**_X_WIDTH - 1) | st.integers(1, _X_WIDTH).flatmap(
    lambda size: st.integers(0, _X_WIDTH - size).map(lambda at: ((1 << size) - 1) << at)
)


@settings(max_examples=examples(400), deadline=None)
@given(st.integers(-40, 4), x_domains, st.integers(-3, 6), x_domains)
def test_abs_keeps_exactly_the_supported_values(
    off_x: int, x_bits: int, off_z: int, z_bits: int
) -> None:
    """result == abs(x) by bit sets (negative values mirrored, over several bytes, as
    one run or any set): each keeps the values the other supports, against the pairs
    tried one by one."""
    xs = [off_x + k for k in range(_X_WIDTH) if x_bits >> k & 1]
    zs = [off_z + k for k in range(_X_WIDTH) if z_bits >> k & 1]
    pairs = [(x, z) for x in xs for z in zs if abs(x) == z]
    doms = [x_bits, z_bits]
    changes = abs_filter(1, 0, [off_x, off_z])(doms)
    if not pairs:
        assert changes is None
        return
    assert doms[0] == sum({1 << (x - off_x) for x, _ in pairs})
    assert doms[1] == sum({1 << (z - off_z) for _, z in pairs})


@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(st.integers(-3, 3), min_size=1, max_size=3),
    st.integers(-5, 5),
    st.sampled_from(["==", "!=", "<=", "<", ">=", ">"]),
    st.lists(st.lists(st.integers(-2, 3), min_size=1, max_size=4), min_size=3, max_size=3),
)
def test_a_reified_linear_condition_has_brute_forces_solutions(
    coefficients: list[int], k: int, op: str, values: list[list[int]]
) -> None:
    """r <-> (sum a_i x_i op k), decided from the expression's range while r is open."""
    m = Model()
    xs = [m.decision(f"x{i}", Domain.of(v)) for i, v in enumerate(values)]
    expr = total(a * x for a, x in zip(coefficients, xs, strict=False))
    condition = {
        "==": expr == k,
        "!=": expr != k,
        "<=": expr <= k,
        "<": expr < k,
        ">=": expr >= k,
        ">": expr > k,
    }[op]
    if isinstance(condition, bool):
        return
    r = m.truth(condition)
    m.add_constraint("some", r + xs[0] >= 1)
    ours = sorted(s.values for s in m.solutions() if s.values is not None)
    everything = product(*(d.domain.values for d in m.decisions))
    assert ours == [v for v in everything if all(c.holds(v) for c in m.constraints.values())]
