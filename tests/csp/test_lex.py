"""lex_less and lex_less_equal: the solutions against brute force, the propagator's pruning
against the values that have a support (domain consistency), and the FlatZinc reader's
globals."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.csp import Domain, Model, ModelError
from lazyfun.csp.flatzinc import parse
from lazyfun.csp.modelling.constraints import Decision
from lazyfun.csp.modelling.relations import LexLess, lex_less, lex_less_equal
from lazyfun.csp.propagation.propagators import Propagators
from tests.budget import examples
from tests.csp.brute import brute_force

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

VALUES = st.lists(st.integers(-2, 3), min_size=1, max_size=3)


def _pair(draw: st.DrawFn, m: Model, distinct: bool) -> tuple[list[Decision], list[Decision]]:
    """Two lists of decisions, of 0 to 3 each (at least one in all); with ``distinct``
    each decision once, else drawn from a small pool, so the lists may share some."""
    sizes = draw(st.tuples(st.integers(0, 3), st.integers(0, 3)).filter(lambda s: sum(s) > 0))
    if distinct:
        made = [m.decision(f"v{k}", Domain.of(draw(VALUES))) for k in range(sum(sizes))]
        return made[: sizes[0]], made[sizes[0] :]
    pool = [m.decision(f"v{k}", Domain.of(draw(VALUES))) for k in range(draw(st.integers(1, 4)))]
    xs = [draw(st.sampled_from(pool)) for _ in range(sizes[0])]
    return xs, [draw(st.sampled_from(pool)) for _ in range(sizes[1])]


@st.composite
def lex_models(draw: st.DrawFn, distinct: bool = False) -> tuple[Model, LexLess]:
    m = Model()
    xs, ys = _pair(draw, m, distinct)
    c = (lex_less_equal if draw(st.booleans()) else lex_less)(xs, ys)
    m.add_constraint("order", c)
    return m, c


@settings(max_examples=examples(400), deadline=None)
@given(lex_models())
def test_the_solutions_are_exactly_the_brute_force_ones(model: tuple[Model, LexLess]) -> None:
    m, _ = model
    assert sorted(s.values for s in m.solutions()) == brute_force(m)  # type: ignore[type-var]


@settings(max_examples=examples(400), deadline=None)
@given(lex_models(distinct=True))
def test_each_value_left_has_a_support_and_each_value_struck_has_none(
    model: tuple[Model, LexLess],
) -> None:
    """Over distinct decisions the rule is domain consistent: after propagation a
    value stays exactly when some solution takes it (none left: a failure)."""
    m, _ = model
    compiled = Propagators(m.decisions, list(m.constraints.values()))
    doms = list(compiled.start)
    ok = compiled.propagate(doms, range(len(doms)))
    solutions = brute_force(m)
    if not solutions:
        assert not ok
        return
    assert ok
    for d in m.decisions:
        kept = {compiled.value(d.index, 1 << b) for b in range(doms[d.index].bit_length())}
        kept = {v for v in kept if doms[d.index] >> (v - compiled.offsets[d.index]) & 1}
        assert kept == {values[d.index] for values in solutions}


def test_lex_compares_as_python_tuples_and_refuses_numbers() -> None:
    m = Model()
    a, b, c = (m.decision(n, Domain.integer_range(0, 1)) for n in "abc")
    m.add_constraint("shorter first", lex_less([a, b], [a, b, c]))
    assert m.count() == 8  # a beginning of the other list comes first
    m.add_constraint("strict", lex_less([a, b], [b, a]))
    assert {(s["a"], s["b"]) for s in m.solutions()} == {(0, 1)}
    with pytest.raises(ModelError, match="lex_less takes decisions, got 3"):
        lex_less([a, 3], [b, c])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("name", "count"),
    [("lazyfun_lex_less_int", 6), ("lazyfun_lex_lesseq_int", 10), ("lazyfun_lex_less_bool", 6)],
)
def test_the_flatzinc_globals_post_the_order(name: str, count: int) -> None:
    kind = "bool" if name.endswith("bool") else "0..1"
    text = f"""var {kind}: a :: output_var;
var {kind}: b :: output_var;
var {kind}: c :: output_var;
var {kind}: d :: output_var;
constraint {name}([a, b], [c, d]);
solve satisfy;
"""
    assert parse(text).model.count() == count
