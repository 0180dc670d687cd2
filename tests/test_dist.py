"""The packages `make dist` builds, installed as a user would: the wheel into a fresh
environment runs `lazyfun demo`; the sdist installs on a machine with no C compiler
and runs from source, saying so in one line at the end of its build and in `lazyfun
--version`.  Run by `make dist` (marker `dist`)."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from lazyfun.compiled import COMPILED, ENGINES

pytestmark = pytest.mark.dist
N, M = len(COMPILED), len(ENGINES)  # the modules mypyc compiles, the C engines

DIST = Path(__file__).resolve().parent.parent / "dist"


def _one(pattern: str) -> Path:
    found = sorted(DIST.glob(pattern))
    if not found:
        pytest.fail(f"no {pattern} in {DIST}: run `make dist`")
    return found[-1]


def _environment(tmp_path: Path) -> Path:
    """A fresh virtual environment; its python."""
    venv.create(tmp_path / "env", with_pip=True)
    return tmp_path / "env" / "bin" / "python"


def _run(
    *args: str | Path, env: dict[str, str] | None = None, cwd: Path, errors: bool = False
) -> str:
    """What the command printed on stdout (and stderr, with ``errors``); it must succeed."""
    done = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, env=env, cwd=cwd, check=False
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    return done.stdout + done.stderr if errors else done.stdout


def test_the_wheel_installs_and_runs_the_demo(tmp_path: Path) -> None:
    python = _environment(tmp_path)
    _run(python, "-m", "pip", "install", "--quiet", _one("*.whl"), cwd=tmp_path)
    demo = _run(python.parent / "lazyfun", "demo", cwd=tmp_path)
    assert "8 queens" in demo and "lazyfun.search" in demo
    described = _run(
        python, "-c", "from lazyfun.compiled import describe; print(describe())", cwd=tmp_path
    )
    assert "lazyfun.sudoku.solving.engine compiled (mypyc)" in described
    assert "lazyfun.sudoku.solving._learning built (C)" in described
    assert "lazyfun.streams.sync._flow built (C)" in described
    version = _run(python.parent / "lazyfun", "--version", cwd=tmp_path).splitlines()
    assert version[1] == f"compiled: {N} of {N} modules, C engines: {M} of {M}"


def test_the_sdist_installs_without_a_compiler_and_runs_from_source(tmp_path: Path) -> None:
    python = _environment(tmp_path)
    nothing = tmp_path / "no-compiler"
    nothing.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("CC", "CXX", "LDSHARED")}
    env["PATH"] = str(nothing)  # no cc, no gcc: every extension has to be given up
    # pip shows what the build said only with -v: its last line says what it left out
    built = _run(
        python, "-m", "pip", "install", "-v", _one("*.tar.gz"), env=env, cwd=tmp_path, errors=True
    )
    assert "lazyfun: built WITHOUT the compiled modules and the C engines" in built
    described = _run(
        python, "-c", "from lazyfun.compiled import describe; print(describe())", cwd=tmp_path
    )
    assert described.count("\n") == 1
    assert "lazyfun.sudoku.solving.engine from source" in described
    assert "lazyfun.sudoku.solving._learning not built: 25x25 searches depth-first" in described
    assert "lazyfun.streams.sync._flow not built: the steps run their Python forms" in described
    version = _run(python, "-m", "lazyfun", "--version", cwd=tmp_path).splitlines()
    assert version[1].startswith(f"compiled: 0 of {N} modules, C engines: 0 of {M}; from source:")
    assert "nothing was built" in version[1]
    solved = _run(python, "-m", "lazyfun", "sudoku", "solve", "....34...3.11..4", cwd=tmp_path)
    assert solved.strip() == "2143341243211234"
    assert sys.version_info >= (3, 11)
