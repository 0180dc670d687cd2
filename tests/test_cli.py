"""The command line: ``lazyfun demo`` runs the main job on built-in data."""

from __future__ import annotations

import subprocess
import sys

from typer.testing import CliRunner

from lazyfun.cli import app


def test_demo_solves_the_built_in_puzzles_and_shows_the_counts() -> None:
    result = CliRunner().invoke(app, ["demo"])
    assert result.exit_code == 0, result.output
    assert "716235984528974316394816527845163792271489635639752841982647153163528479457391268" in (
        result.output
    )
    assert "59,049 candidates" in result.output
    assert "(0, 4, 7, 5, 2, 6, 1, 3)" in result.output
    assert "finds the same solution for the first: True" in result.output


def test_python_dash_m_lazyfun_without_arguments_shows_help() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "lazyfun"], capture_output=True, text=True, check=False
    )
    assert "demo" in proc.stdout + proc.stderr
