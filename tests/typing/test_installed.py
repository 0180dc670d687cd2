"""The installed package as a user's checkers see it: mypy and pyright run on a file in a
folder outside the repository find lazyfun (an editable install is a plain path entry,
``package-dir`` in pyproject.toml, not an import hook they cannot follow), read its types
and report the user's mistake at its line, and nothing else; and what each says of a wrong
function given to a sync stream's map and of a join of mismatched keys (its first words).

mypy keeps its cache in ``build/typing-outside`` so that a second run takes a second; the
first reads the package's modules once (some ten seconds), so that check is ``make slow``'s.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / "build" / "typing-outside"
PYRIGHT = shutil.which("pyright", path=str(Path(sys.executable).parent)) or shutil.which("pyright")

pytestmark = pytest.mark.skipif(
    PYRIGHT is None or importlib.util.find_spec("mypy") is None,
    reason="mypy or pyright is not installed here",
)

# Line 7 is the one mistake: a Stream[int] is no Stream[str].
USER_FILE = """\
import lazyfun
from lazyfun import LazyList, Stream, stream

doubled: Stream[int] = stream([1, 2]).map(lambda n: 2 * n)
words: LazyList[str] = LazyList.of(["a"]).map(str.upper)
shown = lazyfun.compose(str, len)("abc")
wrong: Stream[str] = stream([1, 2])
"""


def _check(command: list[str], folder: Path) -> str:
    """The checker's report on ``user.py`` in ``folder``, run with no path of the repo's."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MYPYPATH")}
    done = subprocess.run(
        command, cwd=folder, env=env, capture_output=True, text=True, check=False, timeout=300
    )
    return done.stdout + done.stderr


def _mypy(folder: Path) -> tuple[str, list[str]]:
    """What ``mypy --strict`` says of ``folder``'s user.py, and its error lines."""
    command = [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(CACHE / "mypy")]
    report = _check([*command, "user.py"], folder)
    return report, [line for line in report.splitlines() if ": error:" in line]


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder outside the repository holding the user's file."""
    assert not tmp_path.resolve().is_relative_to(ROOT)
    (tmp_path / "user.py").write_text(USER_FILE)
    return tmp_path


# Some ten seconds cold (it reads every module the package imports): `make slow` runs it; the
# pyright check below holds the same install shape in `make test`.
@pytest.mark.slow
def test_mypy_finds_the_installed_package_and_its_types(outside: Path) -> None:
    report, errors = _mypy(outside)
    assert errors, report
    assert all(line.startswith("user.py:7: error:") for line in errors), report


def test_pyright_finds_the_installed_package_and_its_types(outside: Path) -> None:
    assert PYRIGHT is not None
    report = _check([PYRIGHT, "--outputjson", "--pythonpath", sys.executable, "user.py"], outside)
    found = json.loads(report)["generalDiagnostics"]
    errors = [(d["range"]["start"]["line"] + 1, d.get("rule")) for d in found]
    assert errors == [(7, "reportAssignmentType")], report


# What each checker says of two mistakes, its first words pinned (issue 69): a wrong function
# given to a sync stream's map (line 15), and a join of an int key against a str one, the
# ids of a JSON log against a CSV's (line 16).
MISTAKES_FILE = """\
from typing import TypedDict
from lazyfun import stream

class Event(TypedDict):
    user: int

class User(TypedDict):
    id: str

def size(text: str) -> int:
    return len(text)

events: list[Event] = []
users: list[User] = []
stream(events).map(size)
stream(events).join(users, lambda e: e["user"], other_on=lambda u: u["id"])
"""


@pytest.fixture
def mistakes(tmp_path: Path) -> Path:
    """A folder outside the repository holding the user's two mistakes."""
    (tmp_path / "user.py").write_text(MISTAKES_FILE)
    return tmp_path


@pytest.mark.slow
def test_mypy_says_what_is_wrong_with_a_map_and_a_join(mistakes: Path) -> None:
    report, errors = _mypy(mistakes)
    # mypy names the first overload a call could match by its shape: for map in a sync
    # stream that is the one refusing a coroutine function (it must come before the plain
    # one to catch it), so only the words up to the function given are pinned.
    assert errors[0].startswith(
        'user.py:15: error: Argument 1 to "map" of "Steps" has incompatible type '
        '"Callable[[str], int]"; expected "Callable[[Event], '
    ), report
    assert errors[1:] == [
        'user.py:16: error: Value of type variable "Key" of "join" of "Verbs" cannot be '
        '"object"  [type-var]'
    ], report


def test_pyright_says_what_is_wrong_with_a_map_and_a_join(mistakes: Path) -> None:
    assert PYRIGHT is not None
    report = _check([PYRIGHT, "--outputjson", "--pythonpath", sys.executable, "user.py"], mistakes)
    found = json.loads(report)["generalDiagnostics"]
    said = {
        (d["range"]["start"]["line"] + 1, d["message"].splitlines()[0])
        for d in found
        if d.get("rule") == "reportArgumentType"
    }
    # the map's message names the plain overload (a function of the item), not the one
    # refusing a coroutine function; the join's, the typed overload of two key functions
    assert said == {
        (
            15,
            'Argument of type "(text: str) -> int" cannot be assigned to parameter "f" of type '
            '"(Event) -> U@map" in function "map"',
        ),
        (
            16,
            'Argument of type "(u: User) -> str" cannot be assigned to parameter "other_on" of '
            'type "(R@join) -> Key@join" in function "join"',
        ),
    }, report
    assert {d["range"]["start"]["line"] + 1 for d in found} == {15, 16}, report
