"""element, table, if_then, minimum and maximum: each propagator against brute force."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.csp import (
    Domain,
    Model,
    ModelError,
    element,
    if_then,
    maximum,
    minimum,
    table,
)
from lazyfun.csp.modelling.constraints import Decision
from lazyfun.csp.propagation.propagators import Propagators
from tests.budget import examples
from tests.csp.brute import brute_force

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

KINDS = ("element", "table", "if_then", "minimum", "maximum", "linear")


def _decisions(draw: st.DrawFn, m: Model) -> list[Decision]:
    n = draw(st.integers(1, 4))
    return [
        m.decision(f"x{i}", Domain.of(draw(st.lists(st.integers(-2, 4), min_size=1, max_size=4))))
        for i in range(n)
    ]


def _add(draw: st.DrawFn, m: Model, xs: list[Decision], k: int, kind: str) -> None:
    picked = draw(st.lists(st.sampled_from(xs), min_size=1, max_size=3, unique=True))
    other = draw(st.sampled_from(xs))
    bound = draw(st.integers(-2, 4))
    if kind == "element":
        items = draw(
            st.lists(st.one_of(st.integers(-2, 4), st.sampled_from(xs)), min_size=1, max_size=4)
        )
        try:
            chosen = element(items, other)
        except ModelError:
            return  # the index can reach no position: refused at once (tested below)
        m.add_constraint(f"c{k}", chosen == draw(st.sampled_from(xs)) + bound)
    elif kind == "table":
        rows = draw(
            st.lists(
                st.lists(st.integers(-2, 4), min_size=len(picked), max_size=len(picked)),
                max_size=6,
            )
        )
        m.add_constraint(f"c{k}", table(picked, rows))
    elif kind == "if_then":
        m.add_constraint(f"c{k}", if_then(picked[0] >= bound, other != picked[-1]))
    elif kind in ("minimum", "maximum"):
        extreme = minimum if kind == "minimum" else maximum
        numbers = draw(st.lists(st.integers(-2, 4), max_size=2))
        m.add_constraint(f"c{k}", extreme([*picked, *numbers]) == other + bound)
    else:
        m.add_constraint(f"c{k}", picked[0] - other <= bound)


@st.composite
def models(draw: st.DrawFn, kinds: tuple[str, ...] = KINDS, most: int = 3) -> Model:
    m = Model()
    xs = _decisions(draw, m)
    for k in range(draw(st.integers(1, most))):
        _add(draw, m, xs, k, draw(st.sampled_from(kinds)))
    return m


@settings(max_examples=examples(400), deadline=None)
@given(models())
def test_the_solutions_are_exactly_the_brute_force_ones(m: Model) -> None:
    ours = [s.values for s in m.solutions()]
    assert len(ours) == len(set(ours))
    assert sorted(ours) == brute_force(m)  # type: ignore[type-var]


@pytest.mark.parametrize("kind", KINDS[:-1])
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_each_relation_alone_against_brute_force(kind: str, data: st.DataObject) -> None:
    m = data.draw(models((kind,), most=1))
    assert sorted(s.values for s in m.solutions()) == brute_force(m)  # type: ignore[type-var]


def test_expressions_are_hidden_decisions_left_out_of_as_dict() -> None:
    m = Model()
    xs = [m.decision(f"x{i}", Domain.integer_range(1, 5)) for i in range(3)]
    low, high = minimum(xs), maximum([*xs, 2])
    m.add_constraint("spread", high - low == 4)
    m.add_constraint("sum", xs[0] + xs[1] + xs[2] == 8)
    found = [s for s in m.solutions()]
    assert {tuple(s.as_dict().values()) for s in found} == {
        p for p in product(range(1, 6), repeat=3) if max(p) - min(p) == 4 and sum(p) == 8
    }
    assert all(set(s.as_dict()) == {"x0", "x1", "x2"} for s in found)
    assert (found[0][low], found[0][high]) == (1, 5)
    assert low.name == "minimum#1" and low.hidden


def test_element_reads_the_list_from_zero_and_narrows_the_index() -> None:
    m = Model()
    i = m.decision("i", Domain.integer_range(-3, 9))
    y = m.decision("y", Domain.integer_range(0, 9))
    m.add_constraint("pick", element([4, y, 6], i) == 6)
    got = sorted((s["i"], s["y"]) for s in m.solutions())
    assert got == [(1, 6)] + [(2, v) for v in range(10)]
    compiled = Propagators(m.decisions, list(m.constraints.values()))
    doms = list(compiled.start)
    assert compiled.propagate(doms, range(len(doms)))
    assert [compiled.offsets[0] + b for b in range(13) if doms[0] >> b & 1] == [1, 2]


@settings(max_examples=examples(100), deadline=None)
@given(
    st.lists(st.integers(0, 3), min_size=70, max_size=200),
    st.sets(st.integers(-5, 205), min_size=1),
    st.integers(0, 3),
)
def test_element_over_a_wide_index_keeps_the_positions_that_can_equal_the_result(
    numbers: list[int], positions: set[int], wanted: int
) -> None:
    """An index wider than the words its bit set is read in (with holes, and places
    outside the list), the items numbers and two decisions, the result fixed."""
    m = Model()
    i = m.decision("i", Domain.of(sorted(positions)))
    y = m.decision("y", Domain.of([0, 2]))
    z = m.decision("z", Domain.of([1, 3]))
    items: list[int | Decision] = [*numbers]
    items[len(items) // 2], items[-1] = y, z
    try:
        chosen = element(items, i)
    except ModelError:
        return  # the index reaches no position
    m.add_constraint("pick", chosen == wanted)
    ours = sorted(s.values or () for s in m.solutions())
    assert ours == brute_force(m)
    compiled = Propagators(m.decisions, list(m.constraints.values()))
    doms = list(compiled.start)
    if compiled.propagate(doms, range(len(doms))):
        kept = {compiled.offsets[0] + b for b in range(doms[0].bit_length()) if doms[0] >> b & 1}
        assert kept == {v[0] for v in ours}
    else:
        assert ours == []


def test_table_with_no_rows_has_no_solution_and_if_then_only_binds_when_it_holds() -> None:
    m = Model()
    x = m.decision("x", Domain.integer_range(0, 3))
    y = m.decision("y", Domain.integer_range(0, 3))
    m.add_constraint("rule", if_then(x >= 2, y == x))
    assert sorted((s["x"], s["y"]) for s in m.solutions()) == [
        (a, b) for a in range(4) for b in range(4) if a < 2 or a == b
    ]
    m.add_constraint("none", table([x, y], []))
    assert m.solve().quality.value == "infeasible"


def test_relations_refuse_what_they_cannot_mean() -> None:
    m = Model()
    x = m.decision("x", Domain.integer_range(5, 7))
    y = m.decision("y", Domain.integer_range(0, 2))
    with pytest.raises(ModelError, match="index 'x' can take no position of a list of 3"):
        element([1, 2, 3], x)
    with pytest.raises(ModelError, match="index must be a decision"):
        element([1, 2], 0)
    with pytest.raises(ModelError, match="at least one item"):
        element([], y)
    with pytest.raises(ModelError, match="an item of element must be an integer"):
        element([1.5], y)  # type: ignore[list-item]
    with pytest.raises(ModelError, match=r"table row 1 has 1 values for 2 decisions: \(3,\)"):
        table([x, y], [(5, 0), (3,)])
    with pytest.raises(ModelError, match="if_then takes constraints"):
        if_then(x == 5, True)  # type: ignore[arg-type]
    with pytest.raises(ModelError, match=r"minimum needs at least one decision \(.*use min\)"):
        minimum([1, 2])
    other = Model().decision("z", Domain.boolean())
    with pytest.raises(ModelError, match="maximum over decisions of two models"):
        maximum([x, other])
    with pytest.raises(ModelError, match="if_then over decisions of two models"):
        if_then(x == 5, other == 1)
