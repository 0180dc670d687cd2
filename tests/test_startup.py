"""Start-up: ``import lazyfun`` loads a name's modules when the name is first used, and the
command line loads only the command it runs.

What is loaded is read from ``python -X importtime`` in a fresh interpreter; the
times themselves are measured by ``make bench BENCH=startup``, never asserted here.
The names a package loads lazily are the names its ``if TYPE_CHECKING:`` block
imports for the type checkers: the two lists are compared, name by name.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import typer.main
from typer._click import Context
from typer.testing import CliRunner

import lazyfun
from lazyfun.cli import app
from lazyfun.cli.values import _SLOW, _read

ROOT = Path(lazyfun.__file__).resolve().parent.parent
PUZZLE = "006200080008970000004810500000060002070000030600050000002047100003028400050001200"
# never loaded by `import lazyfun`: the async Stream and its tasks, the concurrency, the
# sources and sinks, the cluster, the command line and its terminal
NOT_AT_IMPORT = (
    "asyncio",
    "concurrent.futures",
    "lazyfun.io",
    "lazyfun.streams.stream",
    "dask",
    "distributed",
    "typer",
    "click",
    "rich",
)
LAZY_PACKAGES = ("lazyfun", "lazyfun.streams", "lazyfun.sudoku")


def _imported(program: str) -> set[str]:
    """The modules a fresh interpreter imports running ``program``, by -X importtime."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", program],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    rows = [line.split("|") for line in done.stderr.splitlines() if line.startswith("import time:")]
    return {row[-1].strip() for row in rows[1:]}  # the first row is the header


def _within(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


def test_importing_lazyfun_loads_no_async_concurrency_io_cluster_or_terminal_module() -> None:
    loaded = _imported("import lazyfun")
    assert "lazyfun" in loaded and "lazyfun.compiled" in loaded  # the probe sees lazyfun's
    assert _within(loaded, NOT_AT_IMPORT) == []


def test_the_probe_sees_what_a_name_loads_when_it_is_used() -> None:
    read = "import asyncio, lazyfun; asyncio.run(lazyfun.astream([1]).to_list())"
    loaded = _imported(read + "; lazyfun.io.read_jsonl")
    assert {"asyncio", "lazyfun.io", "lazyfun.streams.run.aio_steps"} <= loaded


def test_lazily_loaded_names_work_in_a_fresh_interpreter(tmp_path: Path) -> None:
    program = """
import asyncio, json, sys
import lazyfun
assert "lazyfun.streams" not in sys.modules
assert lazyfun.stream(range(4)).map(lambda n: n * n).to_list() == [0, 1, 4, 9]
assert asyncio.run(lazyfun.astream(range(3)).map(str).to_list()) == ["0", "1", "2"]
assert list(lazyfun.take(2, lazyfun.cp([[1, 2], [3]]))) == [(1, 3), (2, 3)]
assert lazyfun.compose(str, len)("abc") == "3" and lazyfun.pipe(2, str) == "2"
assert list(lazyfun.LazyList.of([1, 2]).map(str)) == ["1", "2"]
assert list(lazyfun.search(0, expand1=lambda n: [n + 1], complete=lambda n: n == 2)) == [2]
with open("numbers.jsonl", "w") as f:
    f.write('{"n": 1}\\n{"n": 2}\\n')
assert lazyfun.io.read_jsonl("numbers.jsonl").map(lambda r: r["n"]).to_list() == [1, 2]
assert issubclass(lazyfun.RecordError, ValueError)
assert lazyfun.RecordError is lazyfun.io.RecordError
import lazyfun.sudoku as sudoku
grid = sudoku.parse("{puzzle}")
assert str(next(sudoku.solve(grid))).startswith("716235984")
assert grid._repr_svg_().startswith("<svg")  # the first name read registered the pictures
from lazyfun import *  # every name of __all__ resolves
print(json.dumps(sorted(n for n in dir(lazyfun) if not n.startswith("_"))))
""".replace("{puzzle}", PUZZLE)
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert set(lazyfun.__all__) <= set(eval(done.stdout))


def _checked_imports(package: str) -> list[tuple[str, str, str]]:
    """(module, name, alias) of each import under the package's ``if TYPE_CHECKING:``."""
    module = importlib.import_module(package)
    tree = ast.parse(inspect.getsource(module))
    blocks = [
        node
        for node in tree.body
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
    ]
    assert len(blocks) == 1
    return [
        (node.module or "", alias.name, alias.asname or alias.name)
        for node in blocks[0].body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    ]


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_each_lazy_name_is_what_the_type_checkers_are_shown(package: str) -> None:
    module = importlib.import_module(package)
    checked = _checked_imports(package)
    assert sorted(alias for _, _, alias in checked) == sorted(module.__all__)
    for source, name, alias in checked:
        assert getattr(module, alias) is getattr(importlib.import_module(source), name), alias
    assert set(module.__all__) <= set(dir(module))


def test_a_name_that_is_also_a_submodule_stays_the_function() -> None:
    program = """
import lazyfun.search, lazyfun.compose, lazyfun.streams.stream, lazyfun.sudoku.steps.rating
import lazyfun, lazyfun.streams, lazyfun.sudoku
from types import ModuleType
names = [lazyfun.search, lazyfun.compose, lazyfun.streams.stream, lazyfun.streams.astream,
         lazyfun.sudoku.steps]
assert not any(isinstance(n, ModuleType) for n in names), names
assert lazyfun.sudoku.steps.__module__ == "lazyfun.sudoku.steps.deduction"
"""
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_name_that_is_not_there_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nonesuch'"):
        _ = lazyfun.nonesuch  # type: ignore[attr-defined]
    with pytest.raises(AttributeError, match="no attribute '_private'"):
        _ = lazyfun._private  # type: ignore[attr-defined]
    package = importlib.import_module("lazyfun")  # a ModuleType to the checkers
    assert isinstance(package.queens, ModuleType)  # a submodule, reached as an attribute


def _run_cli(*argv: str) -> set[str]:
    """The modules the command line imports running ``lazyfun argv``."""
    program = f"""
import sys
from lazyfun.cli import main
sys.argv = {["lazyfun", *argv]!r}
try:
    main()
except SystemExit:
    pass
"""
    return _imported(program)


COMMAND_MODULES = (
    "lazyfun.cli.sudoku",
    "lazyfun.cli.convert",
    "lazyfun.cli.generate",
    "lazyfun.cli.explain",
    "lazyfun.cli.queens",
    "lazyfun.cli.study",
    "lazyfun.cli.demo",
)


def test_the_version_loads_no_command_and_no_pydantic_rich_or_stream() -> None:
    loaded = _run_cli("--version")
    assert "lazyfun.cli" in loaded
    assert _within(loaded, (*COMMAND_MODULES, "pydantic", "rich", "lazyfun.streams")) == []


def test_solving_a_puzzle_loads_its_command_only_and_no_pydantic_rich_or_async() -> None:
    loaded = _run_cli("sudoku", "solve", "-q", PUZZLE)
    assert _within(loaded, COMMAND_MODULES) == ["lazyfun.cli.sudoku"]
    assert _within(loaded, ("pydantic", "rich", "asyncio", "lazyfun.sudoku.steps")) == []


def _commands(command: Any, path: str = "lazyfun") -> list[tuple[str, Any]]:
    found = [(path, command)]
    for name, sub in getattr(command, "commands", {}).items():
        found += _commands(sub, f"{path} {name}")
    return found


SAMPLES: list[Any] = [
    None,
    True,
    False,
    0,
    7,
    "7",
    "-3",
    "+12",
    " 4",
    "4.0",
    "1_000",
    "9" * 30,
    "x",
    "",
    "line",
    "LINE",
    "json",
    "81",
    "a4",
    ["1", "2"],
    ("a", "b"),
    ("3", "x"),
    [],
]


def test_the_quick_reader_reads_each_value_as_typer_would() -> None:
    """Every parameter of every command, on values plain and not: where the quick reader
    reads one, typer's own reader (pydantic) reads the same value of the same type."""
    from typer._coercion import build_runtime_param

    read = 0
    for path, command in _commands(typer.main.get_command(app)):
        context = Context(command)
        for param in command.params:
            descriptor = getattr(param, "type_descriptor", None)
            if descriptor is None:
                continue
            multiple = param.multiple or param.nargs == -1
            real = build_runtime_param(descriptor)
            choices = [c for c in getattr(descriptor.annotation, "__args__", ()) if type(c) is str]
            for value in [*SAMPLES, *choices, param.default]:
                quick = _read(descriptor.annotation, descriptor.parameter_info, value, multiple)
                if quick is _SLOW:
                    continue
                where = f"{path} {param.name} {value!r}"
                expected = real.coerce(value, param=param, ctx=context)  # raises: a bad quick read
                assert (quick, type(quick)) == (expected, type(expected)), where
                read += 1
    assert read > 200


def test_a_value_typer_refuses_is_refused_with_typers_message() -> None:
    bad = CliRunner().invoke(app, ["sudoku", "solve", "--limit", "x", PUZZLE])
    assert bad.exit_code == 2
    assert "--limit': Input should be a valid integer" in bad.stderr
