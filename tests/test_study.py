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
    # tracemalloc counts every thread's allocations: xdist's own thread once took one
    # lazy reading to 271 kB, so the smaller of the two stands for the lazy peak
    assert min(lazy) < 8_000
    assert eager[1] > 2 * eager[0] > 20 * min(lazy)


def test_table_cells_mark_estimates(measured: list[QueensMeasurement]) -> None:
    cells = list(table_rows(measured))
    assert cells[-3][2].endswith("(est.)") and cells[-3][3] == "-"
    assert cells[-1][5] == "352"


def test_the_chart_is_a_png(measured: list[QueensMeasurement], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "study.png"
    plot_queens(measured, target)
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# --- three evaluation strategies ------------------------------------------------------


def test_evaluation_strategies_find_the_same_and_name_recomputes() -> None:
    from lazyfun.study.evaluation import study_evaluation

    measured = list(study_evaluation([3], [12]))
    sudoku = {m.strategy: m for m in measured if m.program == "sudoku"}
    assert set(sudoku) == {"strict", "call-by-name", "call-by-need"}
    assert sudoku["strict"].work == sudoku["call-by-need"].work == 33
    assert sudoku["call-by-name"].work == 5202
    fib = {m.strategy: m.work for m in measured if m.program == "fibonacci"}
    assert fib == {"call-by-name": 465, "call-by-need": 13}


def test_row_tuples_counts_what_the_generators_really_recompute() -> None:
    """The call-by-name count is the number of row tuples the row products yield."""
    from lazyfun.core import cp, reiterable
    from lazyfun.study.evaluation import row_tuples
    from lazyfun.study.sudoku import blanked
    from lazyfun.sudoku.bird import choices
    from lazyfun.trace import Probe

    m = choices(blanked(3).rows)
    probe = Probe()

    def walk(row: tuple[tuple[int, ...], ...]) -> reiterable[tuple[int, ...]]:
        return reiterable(lambda: probe.stage("row tuples", cp(row)))

    rows = [walk(row) for row in m]
    assert sum(1 for _ in cp(rows)) == 9**3
    assert probe.counts["row tuples"] == row_tuples(m, "call-by-name")


def test_fibonacci_by_name_and_by_need_agree() -> None:
    from lazyfun.study.evaluation import fib_by_name, fib_by_need

    for k in range(15):
        assert fib_by_name(k)[0] == fib_by_need(k)[0]
        assert fib_by_need(k)[1] == k + 1


def test_evaluation_refuses_sizes_it_cannot_finish() -> None:
    from lazyfun.study.evaluation import study_evaluation

    with pytest.raises(ValueError, match="blanks"):
        next(study_evaluation([9]))
    with pytest.raises(ValueError, match="fibonacci"):
        next(study_evaluation([1], [40]))


def test_cli_study_evaluation(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from lazyfun.cli import app

    chart = tmp_path / "evaluation.png"
    result = CliRunner().invoke(
        app, ["study", "evaluation", "--to", "2", "--fib", "8", "--plot", str(chart)]
    )
    assert result.exit_code == 0, result.output
    assert "call-by-need" in result.output and "666" in result.output
    assert chart.stat().st_size > 10_000
    refused = CliRunner().invoke(app, ["study", "evaluation", "--fib", "30"])
    assert refused.exit_code == 2
