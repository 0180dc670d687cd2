"""The benchmarks run serate only where ``$SERATE`` names a build of it, and skip it with
one line otherwise; the repo holds no recipe to build it."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from benchmarks.common import ROOT, SERATE_CLASS, SERATE_ENV, run_serate, serate
from lazyfun.sudoku import parse

# A stand-in for serate: the figures it would give, and the arguments it was given.
FAKE = """#!{python}
import sys
args = dict(a[2:].split("=", 1) for a in sys.argv[1:])
puzzles = open(args["input"]).read().split()
with open(args["output"], "w") as out:
    for p in puzzles:
        out.write("%s %d\\n" % (args["format"], p.count(".")) if args["format"] != "%r"
                  else "%.1f\\n" % (1 + p.count(".") / 10))
"""


@pytest.fixture
def fake_serate(tmp_path: Path) -> Path:
    program = tmp_path / "serate"
    program.write_text(FAKE.format(python=sys.executable))
    program.chmod(0o755)
    return program


def test_without_serate_given_the_benchmark_skips_it_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(SERATE_ENV, raising=False)
    assert serate() is None
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 1 and "skipped" in printed[0] and SERATE_ENV in printed[0]


def test_a_serate_that_is_not_there_is_skipped_in_one_line_naming_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = tmp_path / "nowhere" / "serate.jar"
    monkeypatch.setenv(SERATE_ENV, str(missing))
    assert serate() is None
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 1 and str(missing) in printed[0]


def test_a_jar_or_classes_folder_is_run_by_java(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    jar = tmp_path / "serate.jar"
    jar.write_bytes(b"PK")
    monkeypatch.setenv(SERATE_ENV, str(jar))
    monkeypatch.setattr("shutil.which", lambda name: f"/opt/{name}")
    assert serate() == ["/opt/java", "-cp", str(jar), SERATE_CLASS]
    monkeypatch.setenv(SERATE_ENV, str(tmp_path))
    assert serate() == ["/opt/java", "-cp", str(tmp_path), SERATE_CLASS]
    monkeypatch.setattr("shutil.which", lambda name: None)
    assert serate() is None
    assert len(capsys.readouterr().out.splitlines()) == 1  # only the run without java


def test_a_program_is_run_as_it_is_and_its_figures_read(
    monkeypatch: pytest.MonkeyPatch, fake_serate: Path
) -> None:
    monkeypatch.setenv(SERATE_ENV, str(fake_serate))
    command = serate()
    assert command == [str(fake_serate)]
    out, seconds = run_serate(command, ["1.3.", "...."], "%r %R")
    assert out == ["%r %R 2", "%r %R 4"] and seconds > 0


def test_generation_s_benchmark_reads_serate_s_ratings_of_its_puzzles(fake_serate: Path) -> None:
    bench = importlib.import_module("benchmarks.bench_generate")  # not type-checked: peers
    grids = [parse("1.3...1..1.....4"), parse("1..............4")]
    assert bench._serate([str(fake_serate)], grids) == [2.1, 2.4]  # blanks written as '.'

    assert bench._serate(None, grids) is None


def test_no_file_of_the_repo_says_how_to_build_an_outside_program() -> None:
    """Where serate or another program from elsewhere comes from is a fact (its name, its
    version); how to build it is not the repo's to keep."""
    places = [ROOT / "Makefile", ROOT / "README.md", ROOT / "tests" / "data" / "PROVENANCE.md"]
    places += sorted((ROOT / "benchmarks").glob("*.py")) + sorted((ROOT / "docs").glob("*.md"))
    for path in places:
        text = path.read_text(encoding="utf-8")
        for recipe in ("shared/tools", "build_serate", "javac ", "git clone"):
            assert recipe not in text, f"{path.name} holds {recipe!r}"
