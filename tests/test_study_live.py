"""The study's live table on a terminal (``lazyfun.cli.study``): each row added as it is
measured, the progress line told what runs; and a number of runs out of range refused."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from typer.testing import CliRunner

from lazyfun.cli import app
from lazyfun.cli.study import _doing, _live


def test_the_live_table_holds_every_row_and_returns_them_in_order(
    capsys: pytest.CaptureFixture[str],
) -> None:
    told: list[str] = []

    def study(tell: Callable[[str], None]) -> Iterator[int]:
        for n in (4, 5, 6):
            tell(f"n = {n}")
            told.append(_doing(f"n = {n}"))
            yield n * n

    measured = _live("squares", ["n", "time"], study, lambda m: (str(m), f"{m} s"))
    assert measured == [16, 25, 36]
    out = capsys.readouterr().out
    assert "squares" in out and all(f"{m} s" in out for m in measured)
    assert all(line.startswith("measuring n = ") for line in told)


@pytest.mark.parametrize("runs", ["0", "101"])
def test_runs_out_of_range_are_refused_with_the_range(runs: str) -> None:
    result = CliRunner().invoke(
        app, ["study", "queens", "--from", "4", "--to", "4", "--runs", runs]
    )
    assert result.exit_code != 0
    assert "between 1 and 100" in result.output
