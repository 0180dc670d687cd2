"""The portfolio: the depth-first search stopped early hands its best to lazy clause
generation, which proves the same optimum as the depth-first search alone; a clause search
started from a solution finds only better ones."""

from __future__ import annotations

import io
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings

from lazyfun.csp import Domain, Model, ModelError, Quality, all_different
from lazyfun.csp.clauses.engine import LearningSolutions
from lazyfun.csp.clauses.portfolio import FIRST_SHARE, SATISFACTION_SHARE, STALE_SHARE, Portfolio
from lazyfun.csp.examples import golomb_model
from lazyfun.csp.flatzinc import protocol
from tests.budget import examples
from tests.csp.test_learning import _score, small_models

pytestmark = pytest.mark.compiled  # run again from source by `make unit`


def _clauses(m: Model, time_limit: float) -> LearningSolutions:
    stream = m.solutions(time_limit=time_limit, learn="clauses")
    assert isinstance(stream, LearningSolutions)
    return stream


@settings(max_examples=examples(150), deadline=None)
@given(small_models())
def test_a_clause_search_from_a_solution_finds_better_and_proves_the_optimum(m: Model) -> None:
    assume(bool(m.goals))
    plain = list(m.solutions())
    assume(bool(plain))
    first = plain[0]
    stream = _clauses(m, 60.0)
    stream.start_from(first)
    found = list(stream)
    assert found[-1].quality is Quality.OPTIMAL
    assert found[-1].objective == plain[-1].objective
    constraints = list(m.constraints.values())
    scores = [_score(m, first.values or ())] + [_score(m, s.values or ()) for s in found[:-1]]
    assert all(a > b for a, b in pairwise(scores))  # each better than the last, from first's
    for s in found:
        assert s.values is not None and all(c.holds(s.values) for c in constraints)


def test_the_first_search_stopped_hands_over_and_the_second_proves_golomb_7() -> None:
    m, _ = golomb_model(7)
    first = m.solutions(node_limit=10)  # stopped with rulers of 30, 28 and 27 found
    portfolio = Portfolio(first, lambda left: _clauses(m, left), 600.0)
    found = list(portfolio)
    assert first.stopped_by == "node_limit" and portfolio.second is not None
    assert found[-1].quality is Quality.OPTIMAL and found[-1].objective == (25,)
    lengths = [s.objective[0] for s in found[:-1] if s.objective]
    assert lengths[:3] == [30, 28, 27] and lengths[3:] in ([25], [26, 25])
    assert portfolio.stopped_by is None
    assert portfolio.nodes == first.nodes + portfolio.second.nodes > 10
    assert portfolio.nogoods == portfolio.second.nogoods > 0


def test_with_nothing_found_first_the_second_searches_from_scratch() -> None:
    m, _ = golomb_model(6)
    first = m.solutions(node_limit=1)
    found = list(Portfolio(first, lambda left: _clauses(m, left), 600.0))
    assert first.best is None and found[-1].objective == (17,)


def test_a_search_that_settles_the_model_in_its_share_is_the_whole_stream() -> None:
    m, _ = golomb_model(5)
    portfolio = Portfolio(m.solutions(), lambda left: _clauses(m, left), 600.0)
    found = list(portfolio)
    assert found[-1].quality is Quality.OPTIMAL and found[-1].objective == (11,)
    assert portfolio.second is None and portfolio.nogoods == 0


def test_the_time_is_shared_and_the_second_stops_at_the_end() -> None:
    m, _ = golomb_model(11)  # neither proves it in a fraction of a second
    first = m.solutions()
    portfolio = Portfolio(first, lambda left: _clauses(m, left), 0.4)
    assert first.time_limit == 0.2
    list(portfolio)
    assert first.stopped_by == "time_limit" and portfolio.second is not None
    assert portfolio.second.time_limit is not None and portfolio.second.time_limit <= 0.4
    assert portfolio.stopped_by == "time_limit"


def test_an_optimisation_s_first_search_has_a_stale_share_after_each_solution() -> None:
    m, _ = golomb_model(11)
    first = m.solutions()
    portfolio = Portfolio(first, lambda left: _clauses(m, left), 600.0)
    assert first.time_limit == FIRST_SHARE * 600
    next(portfolio)
    assert first.time_limit is not None and first.time_limit <= STALE_SHARE * 600 + 60
    assert portfolio.second is None  # still the first's
    # a satisfaction keeps its (smaller) share: no solution to better
    queens = Model()
    xs = [queens.decision(f"q{i}", Domain.integer_range(0, 7)) for i in range(8)]
    queens.add_constraint("rows", all_different(xs))
    sat = queens.solutions()
    next(Portfolio(sat, lambda left: _clauses(queens, left), 600.0, optimising=False))
    assert sat.time_limit == SATISFACTION_SHARE * 600


def test_start_from_needs_a_goal() -> None:
    m = Model()
    x = m.decision("x", Domain.integer_range(0, 3))
    m.add_constraint("two", x == 2)
    (found,) = m.solutions()
    with pytest.raises(ModelError, match="goals"):
        _clauses(m, 1.0).start_from(found)


@pytest.mark.parametrize(
    ("solve", "share"), [("solve satisfy;", SATISFACTION_SHARE), ("solve minimize x;", FIRST_SHARE)]
)
def test_the_runner_gives_a_satisfaction_s_restarts_a_third_and_an_optimisation_s_half(
    solve: str, share: float, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shares: list[float | None] = []  # the first search's time limit as the portfolio is made

    class Noted(Portfolio):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            shares.append(self.first.time_limit)

    monkeypatch.setattr(protocol, "Portfolio", Noted)
    path = tmp_path / "one.fzn"
    path.write_text(f"var 1..3: x :: output_var;\nconstraint int_le(2, x);\n{solve}\n")
    protocol.run(str(path), time_limit=60.0, out=io.StringIO())
    (first,) = shares
    assert first is not None and 0.95 * share * 60 <= first <= share * 60
