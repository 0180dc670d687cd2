"""The laziness study: what it measures, what it estimates, and the chart."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from lazyfun.study import QueensMeasurement, plot_queens, study_queens, table_rows


@pytest.fixture(scope="module")
def measured() -> list[QueensMeasurement]:
    return list(study_queens(range(4, 10), run_limit=5))


def test_every_version_on_every_board(measured: list[QueensMeasurement]) -> None:
    assert [(m.n, m.version) for m in measured[:3]] == [
        (4, "eager comprehension"),
        (4, "eager flatmap"),
        (4, "lazy"),
    ]
    assert len(measured) == 18
    assert {m.solutions for m in measured if m.n == 8} == {92}


def test_beyond_the_run_limit_the_comprehension_is_estimated(
    measured: list[QueensMeasurement],
) -> None:
    comprehension = [m for m in measured if m.version == "eager comprehension"]
    assert [m.measured for m in comprehension] == [True, True, False, False, False, False]
    estimated = comprehension[-1]
    assert estimated.peak_bytes is None and math.isfinite(estimated.seconds)
    assert estimated.placements == 1_222_703_298


def test_the_lazy_stream_builds_fewer_partials_and_its_memory_stays_flat(
    measured: list[QueensMeasurement],
) -> None:
    by = {(m.n, m.version): m for m in measured}
    for n in range(4, 10):
        assert by[n, "lazy"].placements < by[n, "eager flatmap"].placements
    lazy = [by[n, "lazy"].peak_bytes or 0 for n in (8, 9)]
    eager = [by[n, "eager flatmap"].peak_bytes or 0 for n in (8, 9)]
    assert max(lazy) < 8_000
    assert eager[1] > 2 * eager[0] > 20 * max(lazy)


def test_table_cells_mark_estimates(measured: list[QueensMeasurement]) -> None:
    cells = list(table_rows(measured))
    assert cells[-3][2].endswith("(est.)") and cells[-3][3] == "-"
    assert cells[-1][5] == "352"


def test_the_chart_is_a_png(measured: list[QueensMeasurement], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "study.png"
    plot_queens(measured, target)
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
