"""The mypyc-compiled modules: built, current, and interchangeable with their source."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from lazyfun.compiled import (
    C_EXTENSION,
    COMPILED,
    PURE_ENV,
    c_extension_built,
    describe,
    is_compiled,
    status,
)
from lazyfun.csp.examples import sudoku_model
from lazyfun.sudoku import count_solutions, parse, solve

ROOT = Path(__file__).resolve().parent.parent
HARD = "800000000003600000070090200050007000000045700000100030001000068008500010090000400"


def test_setup_and_make_compile_exactly_the_modules_lazyfun_lists() -> None:
    listed = subprocess.run(
        [sys.executable, "setup.py", "--compiled-sources"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert listed == [name.replace(".", "/") + ".py" for name in COMPILED]
    assert all((ROOT / path).is_file() for path in listed)
    assert "$(shell $(PYTHON) setup.py --compiled-sources)" in (ROOT / "Makefile").read_text()


def test_setup_and_make_build_the_c_extension_lazyfun_names() -> None:
    listed = subprocess.run(
        [sys.executable, "setup.py", "--c-sources"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert listed == [C_EXTENSION.replace(".", "/") + ".c"]
    assert (ROOT / listed[0]).is_file()
    makefile = (ROOT / "Makefile").read_text()
    assert "$(shell $(PYTHON) setup.py --c-sources)" in makefile
    assert "$(COMPILED) $(C_SOURCES)" in makefile


def _extensions(name: str) -> list[Path]:
    source = ROOT / (name.replace(".", "/") + ".py")
    return list(source.parent.glob(source.stem + ".*.so"))


def test_each_built_module_runs_compiled_unless_the_source_is_asked_for() -> None:
    built = [name for name in COMPILED if _extensions(name)]
    if not built:
        pytest.skip("no extension built here (LAZYFUN_PURE_BUILD, or no C compiler)")
    asked_for_source = bool(os.environ.get(PURE_ENV))
    assert status() == {name: name in built and not asked_for_source for name in COMPILED}


def test_the_c_learning_engine_is_reported_built_exactly_when_its_extension_is_there() -> None:
    source = ROOT / (C_EXTENSION.replace(".", "/") + ".c")
    built = list(source.parent.glob(source.stem + ".*.so"))
    assert c_extension_built() == bool(built)
    assert f"{C_EXTENSION} {'built (C)' if built else 'not built'}" in describe()


def test_no_compiled_module_is_older_than_its_source() -> None:
    sources = [(name, ".py") for name in COMPILED] + [(C_EXTENSION, ".c")]
    for name, suffix in sources:
        source = ROOT / (name.replace(".", "/") + suffix)
        extensions = list(source.parent.glob(source.stem + ".*.so"))
        for extension in extensions:
            assert extension.stat().st_mtime >= source.stat().st_mtime, (
                f"{extension.name} is older than {source.name}: reinstall (make)"
            )


def test_is_compiled_refuses_a_module_that_is_never_compiled() -> None:
    with pytest.raises(ValueError, match="not one of the compiled modules"):
        is_compiled("lazyfun.sudoku.bird")


def test_the_source_gives_the_same_answers_as_the_installed_modules() -> None:
    script = (
        "from lazyfun.compiled import status\n"
        "from lazyfun.csp.examples import sudoku_model\n"
        "from lazyfun.sudoku import count_solutions, parse, solve\n"
        f"p = parse({HARD!r})\n"
        "print(status())\n"
        "print(next(solve(p)))\n"
        "print(count_solutions(parse('.' * 16)))\n"
        f"print(sudoku_model({HARD!r}, 'all_different')[0].solve().as_dict()['grid00'])\n"
    )
    env = dict(os.environ, **{PURE_ENV: "1"})
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out[0] == str(dict.fromkeys(COMPILED, False))
    assert out[1] == str(next(solve(parse(HARD))))
    assert int(out[2]) == count_solutions(parse("." * 16)) == 288
    model, _ = sudoku_model(HARD, "all_different")
    assert int(out[3]) == model.solve().as_dict()["grid00"] == 8
