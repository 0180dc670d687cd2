"""The mypyc-compiled modules: built, current, and interchangeable with their source."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from setuptools import Extension

from lazyfun.compiled import (
    C_EXTENSION,
    C_FLOW,
    C_FORCING,
    C_KERNELS,
    C_MINLEX,
    C_NINE,
    COMPILED,
    PURE_ENV,
    c_extension_built,
    c_flow_built,
    c_forcing_built,
    c_kernels_built,
    c_minlex_built,
    c_nine_built,
    describe,
    is_compiled,
    status,
)
from lazyfun.csp.examples import sudoku_model
from lazyfun.sudoku import count_solutions, parse, solve

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

ROOT = Path(__file__).resolve().parent.parent
HARD = "800000000003600000070090200050007000000045700000100030001000068008500010090000400"


def _setup() -> ModuleType:
    spec = importlib.util.spec_from_file_location("lazyfun_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_setup_compiles_exactly_the_modules_lazyfun_lists(monkeypatch: pytest.MonkeyPatch) -> None:
    import mypyc.build

    asked: list[list[str]] = []

    def mypycify(paths: list[str], **options: object) -> list[Extension]:
        asked.append(paths)
        return [Extension("compiled_by_mypyc", ["x.c"])]

    monkeypatch.delenv("LAZYFUN_PURE_BUILD", raising=False)
    monkeypatch.setattr(mypyc.build, "mypycify", mypycify)
    built = _setup().extensions()
    sources = [path for path in asked[0] if not path.startswith("--")]
    assert sources == [name.replace(".", "/") + ".py" for name in COMPILED]
    assert all((ROOT / path).is_file() for path in sources)
    engines = [C_EXTENSION, C_FLOW, C_FORCING, C_NINE, C_MINLEX, C_KERNELS]
    assert [e.name for e in built] == [*engines, "compiled_by_mypyc"]
    assert all(e.optional for e in built)


def test_the_compiled_modules_are_grouped_into_libraries_each_module_once() -> None:
    setup = _setup()
    sources = [name.replace(".", "/") + ".py" for name in COMPILED]
    grouped = setup.groups(sources)
    assert sorted(source for files, _ in grouped for source in files) == sorted(sources)
    names = [name for _, name in grouped]
    assert len(names) == len(set(names)) == 3 and all(
        n.startswith("lazyfun._native") for n in names
    )
    for files, name in grouped:
        assert all(f.startswith("lazyfun/csp/propagation/") for f in files) == (
            name == "lazyfun._native_propagation"
        )


# the engines of several files, and their folders
FOLDERS = {
    C_EXTENSION: ROOT / "lazyfun" / "sudoku" / "solving" / "learning_c",
    C_FORCING: ROOT / "lazyfun" / "sudoku" / "steps" / "forcing_c",
    C_NINE: ROOT / "lazyfun" / "sudoku" / "solving" / "nine_c",
    C_MINLEX: ROOT / "lazyfun" / "sudoku" / "canon" / "minlex_c",
}


@pytest.mark.parametrize("name", sorted(FOLDERS))
def test_setup_builds_a_c_engine_from_every_file_of_its_folder(name: str) -> None:
    folder = FOLDERS[name]
    engine = _setup().folder_extension(name, folder.relative_to(ROOT))
    assert sorted(ROOT / path for path in engine.sources) == sorted(folder.glob("*.c"))
    assert {Path(path).name for path in engine.depends} == {p.name for p in folder.glob("*.h")}
    assert "-Werror" in engine.extra_compile_args


def test_a_pure_build_compiles_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAZYFUN_PURE_BUILD", "1")
    assert _setup().extensions() == []


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


@pytest.mark.parametrize(
    ("engine", "is_built"),
    [
        (C_FLOW, c_flow_built),
        (C_FORCING, c_forcing_built),
        (C_NINE, c_nine_built),
        (C_MINLEX, c_minlex_built),
        (C_KERNELS, c_kernels_built),
    ],
)
def test_each_c_engine_is_reported_built_exactly_when_its_extension_is_there(
    engine: str, is_built: Callable[[], bool]
) -> None:
    source = ROOT / (engine.replace(".", "/") + ".c")
    built = list(source.parent.glob(source.stem + ".*.so"))
    assert is_built() == bool(built)
    assert f"{engine} {'built (C)' if built else 'not built'}" in describe()


def test_no_compiled_module_is_older_than_its_source() -> None:
    built = [
        (ROOT / (name.replace(".", "/") + ".py"), [ROOT / (name.replace(".", "/") + ".py")])
        for name in COMPILED
    ]
    for name, folder in FOLDERS.items():
        built.append((ROOT / (name.replace(".", "/") + ".c"), sorted(folder.glob("*.[ch]"))))
    source = ROOT / (C_FLOW.replace(".", "/") + ".c")
    built.append((source, [source]))
    for stem, sources in built:
        for extension in stem.parent.glob(stem.stem + ".*.so"):
            for source in sources:
                assert extension.stat().st_mtime >= source.stat().st_mtime, (
                    f"{extension.name} is older than {source.name}: rebuild (make)"
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
