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
    C_ARROW,
    C_EXTENSION,
    C_FLOW,
    C_FORCING,
    C_KERNELS,
    C_MINLEX,
    C_NINE,
    COMPILED,
    ENGINES,
    PURE_ENV,
    Status,
    c_arrow_built,
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


@pytest.mark.long_from_source
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
    engines = [C_EXTENSION, C_FLOW, C_FORCING, C_NINE, C_MINLEX, C_KERNELS, C_ARROW]
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
    C_KERNELS: ROOT / "lazyfun" / "csp" / "propagation" / "kernels_c",
    C_FLOW: ROOT / "lazyfun" / "streams" / "sync" / "flow_c",
    C_ARROW: ROOT / "lazyfun" / "sinks" / "arrow_c",
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
    assert status().modules == {name: name in built and not asked_for_source for name in COMPILED}


def _line(pure: bool) -> str:
    """The line ``lazyfun --version`` is expected to print after the version: what runs,
    told from the extensions found here (``pure``: with ``LAZYFUN_PURE`` set)."""
    modules = 0 if pure else sum(bool(_extensions(name)) for name in COMPILED)
    engines = sum(
        bool(_extensions(name)) and not (pure and name != C_EXTENSION) for name in ENGINES
    )
    return f"compiled: {modules} of {len(COMPILED)} modules, C engines: {engines} of {len(ENGINES)}"


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_the_version_says_which_engines_run_and_why_the_others_do_not(pure: bool) -> None:
    env = {k: v for k, v in os.environ.items() if k != PURE_ENV}
    if pure:
        env[PURE_ENV] = "1"
    out = subprocess.run(
        [sys.executable, "-m", "lazyfun", "--version"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert len(out) == 2 and out[0].startswith("lazyfun ")
    assert out[1].startswith(_line(pure))
    anything_built = any(_extensions(name) for name in (*COMPILED, *ENGINES))
    assert ("LAZYFUN_PURE is set" in out[1]) == (pure and anything_built)
    assert ("not built" in out[1] or "nothing was built" in out[1]) == (
        not all(_extensions(name) for name in (*COMPILED, *ENGINES))
    )


def test_status_tells_each_module_and_engine_as_it_runs() -> None:
    now = status()
    pure = bool(os.environ.get(PURE_ENV))
    assert now.pure == pure
    assert now.built == {name: bool(_extensions(name)) for name in (*COMPILED, *ENGINES)}
    assert now.modules == {name: is_compiled(name) for name in COMPILED}
    assert now.engines == {
        name: now.built[name] and (name == C_EXTENSION or not pure) for name in ENGINES
    }
    assert now.summary().startswith(_line(pure))


def _status(built: set[str], pure: bool = False) -> Status:
    """A status of the modules and engines ``built``, as an install would give it."""
    return Status(
        modules={name: name in built and not pure for name in COMPILED},
        engines={name: name in built and (name == C_EXTENSION or not pure) for name in ENGINES},
        built={name: name in built for name in (*COMPILED, *ENGINES)},
        pure=pure,
    )


def test_the_status_line_names_what_runs_from_source_and_why() -> None:
    everything = {*COMPILED, *ENGINES}
    assert _status(everything).summary() == "compiled: 26 of 26 modules, C engines: 7 of 7"
    assert _status(everything, pure=True).summary() == (
        "compiled: 0 of 26 modules, C engines: 1 of 7; from source: LAZYFUN_PURE is set"
    )
    assert _status(everything - {C_NINE}).summary() == (
        f"compiled: 26 of 26 modules, C engines: 6 of 7; from source: not built: {C_NINE}"
    )
    assert _status(set(ENGINES)).summary().endswith("not built: the mypyc modules")
    nothing = _status(set()).summary()
    assert nothing.startswith("compiled: 0 of 26 modules, C engines: 0 of 7; from source: ")
    assert "nothing was built" in nothing and "LAZYFUN_PURE is set" not in nothing
    assert "nothing was built" in _status(set(), pure=True).summary()
    assert "LAZYFUN_PURE is set" not in _status(set(), pure=True).summary()


def test_a_build_that_gives_an_extension_up_says_so_in_its_last_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    from setuptools import Distribution

    (tmp_path / "x.c").write_text("int x;\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path))  # no C compiler
    for name in ("CC", "LDSHARED"):
        monkeypatch.delenv(name, raising=False)
    extensions = [Extension(name, ["x.c"], optional=True) for name in ("one", "two")]
    dist = Distribution({"ext_modules": extensions, "cmdclass": {"build_ext": _setup().BuildExt}})
    command = dist.get_command_obj("build_ext")
    command.build_lib, command.build_temp = "lib", "temp"
    dist.run_command("build_ext")
    last = capfd.readouterr().err.strip().splitlines()[-1]
    assert last.startswith("lazyfun: built WITHOUT the compiled modules and the C engines (")
    assert "no C compiler found" in last and "2 of 2 extensions failed" in last
    assert "everything runs from source" in last


def test_the_build_line_names_what_it_left_out() -> None:
    without = _setup().without
    assert without([], [], 28, None) == ""
    one = without([], [C_NINE], 28, None)
    assert one.startswith(f"lazyfun: built WITHOUT {C_NINE} (1 of 28 extensions failed): that runs")
    skipped = without(["the mypyc modules (mypyc could not run)"], [], 6, None)
    assert skipped.startswith("lazyfun: built WITHOUT the mypyc modules (mypyc could not run):")


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
        (C_ARROW, c_arrow_built),
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
        "print(dict(status().modules))\n"
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
