"""Large neighbourhood search keeps branch and bound's answers: every solution holds the
model, each strictly better than the last, and a run to its end proves the optimum the
plain search proves; a seed gives one run.  On a travelling salesman's tour it reaches
the optimum in fewer branchings; FlatZinc's runner takes one run in two for its rounds,
and every run with ``-f``; runs of rounds that find nothing come less and less often."""

from __future__ import annotations

import io
import random
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.csp import (
    Constraint,
    Decision,
    Domain,
    Model,
    Quality,
    Solution,
    all_different,
    circuit,
    cumulative,
    element,
    if_then,
    maximum,
    minimum,
    no_overlap,
    table,
    total,
)
from lazyfun.csp.flatzinc import parse, run, solve
from lazyfun.csp.flatzinc.protocol import ROUNDS_EVERY, _searched
from lazyfun.csp.search.lns import FARTHEST, LEAST, MOST, STALE_RUNS, START, Neighbourhoods
from lazyfun.csp.search.restarts import IDLE_RUNS
from tests.budget import examples

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

KINDS = [
    "linear",
    "abs",
    "alldiff",
    "predicate",
    "element",
    "table",
    "extreme",
    "if_then",
    "truth",
    "product",
    "or",
    "circuit",
    "no_overlap",
    "cumulative",
]


def _constrain(draw: st.DrawFn, m: Model, xs: list[Decision], kind: str, k: int) -> None:
    """One constraint of ``kind`` over some of ``xs``, named ``c{k}``."""
    picked = draw(st.lists(st.sampled_from(xs), min_size=2, max_size=4, unique=True))
    if kind in ("circuit", "no_overlap", "cumulative"):
        m.add_constraint(f"c{k}", _structure(draw, m, picked, kind, k))
        return
    a, b = picked[0], picked[-1]
    small = st.integers(-2, 4)
    if kind == "linear":
        weights = draw(st.lists(st.integers(-3, 3), min_size=len(picked), max_size=len(picked)))
        expr = total(w * x for w, x in zip(weights, picked, strict=True))
        m.add_constraint(f"c{k}", expr <= draw(st.integers(-2, 8)))
    elif kind == "abs":
        m.add_constraint(f"c{k}", abs(a - b) != draw(st.integers(0, 2)))
    elif kind == "alldiff":
        m.add_constraint(f"c{k}", all_different(picked))
    elif kind == "predicate":
        m.add_constraint(f"c{k}", lambda *v: sum(v) % 2 == 0, picked)
    elif kind == "element":
        items = draw(st.lists(small, min_size=3, max_size=3))
        m.add_constraint(f"c{k}", element(items, a) >= b - 1)
    elif kind == "table":
        rows = draw(st.lists(st.tuples(*(st.integers(0, 3) for _ in picked)), max_size=6))
        m.add_constraint(f"c{k}", table(picked, rows))
    elif kind == "extreme":
        m.add_constraint(f"c{k}", maximum(picked) - minimum(picked) <= draw(st.integers(1, 3)))
    elif kind == "if_then":
        m.add_constraint(f"c{k}", if_then(a >= draw(small), b <= draw(small)))
    elif kind == "truth":
        m.add_constraint(f"c{k}", m.truth(a > 1) + m.truth(b > 1) <= 1)
    elif kind == "product":
        m.add_constraint(f"c{k}", a * b <= draw(st.integers(0, 6)))
    else:
        m.add_constraint(f"c{k}", (a == b) | ~(a + b >= 4))


def _structure(draw: st.DrawFn, m: Model, picked: list[Decision], kind: str, k: int) -> Constraint:
    """A circuit of ``picked``, or tasks starting at them on one machine or sharing 2."""
    if kind == "circuit":
        return circuit(picked)
    sizes = draw(st.lists(st.integers(1, 2), min_size=len(picked), max_size=len(picked)))
    tasks = [
        m.interval(f"t{k}_{i}", x, size)
        for i, (x, size) in enumerate(zip(picked, sizes, strict=True))
    ]
    return no_overlap(tasks) if kind == "no_overlap" else cumulative(tasks, sizes, 2)


@st.composite
def goal_models(draw: st.DrawFn) -> Model:
    """Three to seven decisions over 0..4, up to three constraints of any kind, a weighted sum
    of some of them (less twice the largest of all, at times) to minimise or maximise, at
    times a second goal: the others are the rounds' to fix or set free; a branching of the
    model's, often poor."""
    m = Model()
    xs = [m.decision(f"x{i}", Domain.integer_range(0, 4)) for i in range(draw(st.integers(3, 7)))]
    for k in range(draw(st.integers(0, 3))):
        _constrain(draw, m, xs, draw(st.sampled_from(KINDS)), k)
    scored = draw(st.lists(st.sampled_from(xs), min_size=1, max_size=len(xs) - 1, unique=True))
    gains = draw(st.lists(st.integers(1, 4), min_size=len(scored), max_size=len(scored)))
    goal = total(g * x for g, x in zip(gains, scored, strict=True))
    if draw(st.booleans()):
        goal = goal - 2 * maximum(xs)
    (m.minimize if draw(st.booleans()) else m.maximize)(goal)
    if draw(st.booleans()):  # a second goal, breaking the first's ties
        m.minimize(xs[-1] - xs[0])
    order = draw(st.permutations(xs))  # a branching that is often poor: the first is bad
    m.branch_on(order, value=draw(st.sampled_from(["min", "max", "split", "reverse_split"])))
    return m


def _run(m: Model, *, lns: bool, nodes: int, seed: int = 0, every: int = 1) -> list[Solution]:
    stream = m.solutions(lns=lns, seed=seed)
    stream.restart_nodes = nodes  # short runs: many rounds on a small model
    if stream.lns is not None:
        stream.lns.every = every
    found = list(stream)
    assert lns is (stream.lns is not None)
    return found


def _held(m: Model, found: list[Solution]) -> None:
    """Each solution holds every constraint; each but the last (OPTIMAL, repeating the
    best) strictly better on the goals than the one before."""
    constraints = list(m.constraints.values())
    for s in found:
        assert s.values is not None
        assert all(c.holds(s.values) for c in constraints), s
    signs = [sign for _, sign in m.goals]
    scores = [tuple(v * k for v, k in zip(s.objective, signs, strict=True)) for s in found[:-1]]
    assert all(a > b for a, b in pairwise(scores))


@settings(max_examples=examples(200), deadline=None)
@given(goal_models(), st.sampled_from([1, 2, 5]), st.integers(0, 3), st.sampled_from([1, 2]))
def test_lns_keeps_branch_and_bounds_answers(m: Model, nodes: int, seed: int, every: int) -> None:
    plain = _run(m, lns=False, nodes=0)
    found = _run(m, lns=True, nodes=nodes, seed=seed, every=every)
    _held(m, plain)
    _held(m, found)
    if not plain:
        assert found == []
        return
    assert plain[-1].quality is found[-1].quality is Quality.OPTIMAL
    assert found[-1].objective == plain[-1].objective
    again = _run(m, lns=True, nodes=nodes, seed=seed, every=every)
    assert [s.values for s in again] == [s.values for s in found]  # a seed, one run


def test_a_round_keeps_all_but_a_fraction_of_the_best_and_adapts_it() -> None:
    n = Neighbourhoods(list(range(10)), seed=7)
    root, best = [0b1111] * 12, [1 << (i % 4) for i in range(12)]
    relaxed = n.relaxed(root, best)
    freed = [i for i in range(10) if relaxed[i] == root[i]]
    assert len(freed) == round(START * 10)
    assert all(relaxed[i] == best[i] for i in range(10) if i not in freed)
    assert relaxed[10:] == root[10:]  # not candidates: never fixed
    assert Neighbourhoods(list(range(10)), seed=7).relaxed(root, best) == relaxed
    for _ in range(9):
        n.ended(improved=False, exhausted=True)
    assert n.rate == MOST
    n.ended(improved=True, exhausted=True)
    assert n.rate == MOST and n.improved == 1
    for _ in range(9):
        n.ended(improved=False, exhausted=False)
    assert n.rate == LEAST
    assert sum(1 for b in n.relaxed(root, best)[:10] if b == 0b1111) == 1  # at least one


def _tour(n: int, seed: int) -> tuple[Model, list[list[int]]]:
    """A travelling salesman's shortest tour of ``n`` random cities (Manhattan distances)."""
    r = random.Random(seed)
    cities = [(r.randint(0, 100), r.randint(0, 100)) for _ in range(n)]
    far = [[abs(a[0] - b[0]) + abs(a[1] - b[1]) for b in cities] for a in cities]
    m = Model()
    after = [m.decision(f"after{i}", Domain.integer_range(0, n - 1)) for i in range(n)]
    m.add_constraint("tour", circuit(after))
    m.minimize(total(element(far[i], after[i]) for i in range(n)))
    return m, far


def _reached(m: Model, lns: bool) -> tuple[int, int]:
    """The optimum and the branchings taken when it was first found."""
    stream = m.solutions(lns=lns)
    seen = [(s.objective[0], stream.nodes, s.quality) for s in stream]
    assert seen[-1][2] is Quality.OPTIMAL
    return seen[-1][0], next(nodes for value, nodes, _ in seen if value == seen[-1][0])


def _runs_of_rounds(n: Neighbourhoods, found: list[bool]) -> str:
    """Which runs ``n`` makes runs of rounds (``R``) and which not (``.``), each run of rounds
    finding better or not as ``found`` says in turn."""
    taken, outcomes = "", iter(found)
    while True:
        if not n.takes_run():
            taken += "."
            continue
        taken += "R"
        try:
            n.ended(improved=next(outcomes), exhausted=True)
        except StopIteration:
            return taken


def test_runs_of_rounds_that_find_nothing_come_half_as_often() -> None:
    def spaced(*gaps: int) -> str:  # a run of rounds, then the gap to the next
        return "R" + "".join("." * (gap - 1) + "R" for gap in gaps)

    assert _runs_of_rounds(Neighbourhoods([0, 1], seed=0), [True] * 3) == spaced(1, 1, 1)
    assert _runs_of_rounds(Neighbourhoods([0, 1], seed=0), [False] * 6) == spaced(
        2, 4, 8, FARTHEST, FARTHEST, FARTHEST
    )
    one_in_two = Neighbourhoods([0, 1], seed=0, every=2)
    found = [True, False, True, False, False]
    assert _runs_of_rounds(one_in_two, found) == spaced(2, 4, 2, 4, 8)
    # sharing the runs, the rounds wait no longer for better than the runs without them
    assert Neighbourhoods([0], seed=0).stale_runs == STALE_RUNS
    assert one_in_two.stale_runs == IDLE_RUNS
    with pytest.raises(ValueError, match="at least 1"):
        Neighbourhoods([0], seed=0, every=0)


def test_a_tour_of_14_cities_is_found_optimal_sooner_by_neighbourhoods() -> None:
    """Branch and bound improves the tour 18 times, reaching 366 at its 3,360th branching;
    the rounds reach it at the 257th (and the proof ends at 2,775 against 4,402)."""
    m, _ = _tour(14, 0)
    plain, by_rounds = _reached(m, lns=False), _reached(m, lns=True)
    assert plain[0] == by_rounds[0] == 366
    assert by_rounds[1] * 5 < plain[1]


def _tour_fzn(n: int, seed: int) -> str:
    """The same tour in FlatZinc, stops from 1, without search annotations; the legs'
    lengths are variables FlatZinc introduced."""
    _, far = _tour(n, seed)
    lines = [f"var 1..{n}: s{i}:: output_var;" for i in range(n)]
    lines += [f"var 0..200: d{i}:: var_is_introduced:: is_defined_var;" for i in range(n)]
    lines.append("var 0..10000: length:: output_var;")
    stops = ",".join(f"s{i}" for i in range(n))
    lines.append(f"constraint lazyfun_circuit([{stops}],1);")
    for i in range(n):
        row = ",".join(str(d) for d in far[i])
        lines.append(f"constraint array_int_element(s{i},[{row}],d{i});")
    ones = ",".join(["1"] * n + ["-1"])
    legs = ",".join(f"d{i}" for i in range(n))
    lines.append(f"constraint int_lin_eq([{ones}],[{legs},length],0);")
    lines.append("solve minimize length;")
    return "\n".join(lines) + "\n"


def test_the_rounds_take_one_run_in_two_and_every_run_with_free_search(tmp_path: Path) -> None:
    text = _tour_fzn(14, 0)
    path = tmp_path / "tour.fzn"
    path.write_text(text)
    for free in (False, True):
        out = io.StringIO()
        run(str(path), out=out, free_search=free, statistics=True)
        shown = out.getvalue()
        rounds = [x for x in shown.splitlines() if x.startswith("%%%mzn-stat: lnsRounds=")]
        assert len(rounds) == 1 and int(rounds[0].split("=")[1]) > 0
        assert "length = 366;\n----------\n==========\n" in shown
        searched = _searched(parse(text, free_search=free), None, lns=True if free else None)
        assert searched.lns is not None and searched.lns.every == (1 if free else ROUNDS_EVERY)
    out = io.StringIO()
    solve(parse(text), out=out, statistics=True, lns=False)
    assert "length = 366;" in out.getvalue() and "lnsRounds" not in out.getvalue()
    fz = parse(text, free_search=True)
    stops = [fz.model[f"s{i}"].index for i in range(14)]
    chosen = _searched(fz, None, lns=True).lns
    assert chosen is not None and chosen.candidates == stops  # not the legs: they follow
    out = io.StringIO()
    solve(fz, out=out, lns=True, all_solutions=True)
    lengths = [int(x[9:-1]) for x in out.getvalue().splitlines() if x.startswith("length = ")]
    assert lengths == sorted(set(lengths), reverse=True) and lengths[-1] == 366
