"""One API, compiled or not: what a public function returns has the same public
attributes whether its modules run compiled (mypyc, the C engines) or from source
(``LAZYFUN_PURE=1``), and behaves the same under a generator's methods.

Each build runs the same probe in a fresh interpreter: the calls below, on small inputs,
each result's public names (``dir`` without ``_``) and, for an iterator, its first item's.
A generator's ``gi_*`` attributes are left out: they show the interpreter's frame of a
generator written in Python, which a compiled one has not (mypyc's generators have none).
"""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
from typing import Any

import pytest

import lazyfun
from lazyfun import csp, queens, sudoku
from lazyfun.compiled import PURE_ENV

# label -> a call on a small input, names from lazyfun, lazyfun.sudoku, lazyfun.queens,
# lazyfun.csp (the functions of their __all__ that return an iterator or an object)
CALLS = {
    "lazyfun.cp": "lazyfun.cp([[1, 2], [3]])",
    "lazyfun.fair_cp": "lazyfun.fair_cp([[1, 2], [3]])",
    "lazyfun.flatmap": "lazyfun.flatmap(lambda x: [x, x], [1, 2])",
    "lazyfun.iterate": "lazyfun.iterate(lambda x: x + 1, 0)",
    "lazyfun.search": (
        "lazyfun.search(0, expand1=lambda s: [s + 1, s + 2],"
        " complete=lambda s: s == 3, blocked=lambda s: s > 3)"
    ),
    "lazyfun.chunked": "lazyfun.chunked([1, 2, 3], 2)",
    "lazyfun.interleave": "lazyfun.interleave([[1], [2]])",
    "lazyfun.sliding_window": "lazyfun.sliding_window(2, [1, 2, 3])",
    "lazyfun.take": "lazyfun.take(2, [1, 2, 3])",
    "lazyfun.unique_everseen": "lazyfun.unique_everseen([1, 1, 2])",
    "lazyfun.concat": "lazyfun.concat([[1], [2]])",
    "lazyfun.drop": "lazyfun.drop(1, [1, 2])",
    "lazyfun.compose": "lazyfun.compose(str, abs)",
    "lazyfun.compose_left": "lazyfun.compose_left(abs, str)",
    "lazyfun.pipe": "lazyfun.pipe(-1, abs, str)",
    "lazyfun.identity": "lazyfun.identity(1)",
    "lazyfun.field": "lazyfun.field(1, 'a')((0, {'a': 2}))",
    "lazyfun.first": "lazyfun.first([1, 2])",
    "lazyfun.second": "lazyfun.second([1, 2])",
    "lazyfun.last": "lazyfun.last([1, 2])",
    "lazyfun.nth": "lazyfun.nth(1, [1, 2])",
    "lazyfun.ilen": "lazyfun.ilen([1, 2])",
    "lazyfun.many": "lazyfun.many(lambda x: x // 2, 8)",
    "lazyfun.stream": "lazyfun.stream([1, 2])",
    "lazyfun.astream": "lazyfun.astream([1, 2])",
    "lazyfun.LazyList": "lazyfun.LazyList.of([1, 2])",
    "lazyfun.reiterable": "lazyfun.reiterable(lambda: iter([1, 2]))",
    "sudoku.parse": "sudoku.parse(EMPTY)",
    "sudoku.solve 9x9": "sudoku.solve(sudoku.parse(EMPTY))",
    "sudoku.solve 9x9, clashing": "sudoku.solve(sudoku.parse('11' + EMPTY[2:]))",
    "sudoku.solve 4x4": "sudoku.solve(sudoku.parse(SMALL))",
    "sudoku.steps": "sudoku.steps(sudoku.parse(PUZZLE))",
    "sudoku.hint": "sudoku.hint(sudoku.parse(PUZZLE))",
    "sudoku.rate": "sudoku.rate(sudoku.parse(PUZZLE))",
    "sudoku.minlex": "sudoku.minlex(sudoku.parse(PUZZLE))",
    "sudoku.generate": "sudoku.generate(2, seed=1)",
    "sudoku.read": "sudoku.read(PUZZLE)",
    "queens.queens": "queens.queens(4)",
    "queens.solutions": "queens.solutions(4)",
    "queens.most_constrained": "queens.most_constrained(4)",
    "csp.Model.solutions": "model().solutions()",
    "csp.Model.solve": "model().solve()",
    "csp.all_different": "csp.all_different(model().decisions)",
    "csp.total": "csp.total(model().decisions)",
    "csp.maximum": "csp.maximum(model().decisions)",
    "csp.minimum": "csp.minimum(model().decisions)",
    "csp.circuit": "csp.circuit(model().decisions)",
    "csp.element": "csp.element([1, 2], model().decisions[0])",
    "csp.if_then": "csp.if_then(*[d == 1 for d in model().decisions])",
    "csp.table": "csp.table(model().decisions, [(0, 1)])",
    "csp.no_overlap": "csp.no_overlap(tasks())",
    "csp.cumulative": "csp.cumulative(tasks(), [1, 1], 1)",
}
# The public functions that return a plain value (bool, int, str, None): nothing to compare.
PLAIN = {
    "sudoku.check_givens",
    "sudoku.count_solutions",
    "sudoku.equivalent",
    "sudoku.is_solution",
    "sudoku.is_unique",
    "sudoku.write",
    "queens.count_queens",
    "queens.is_placement",
}

# What the stream of a 9x9 puzzle's solutions (one) does under a generator's methods: each
# step's outcome (the type of what it returned or raised), the same either way.
GENERATOR_STEPS = {
    "next, send, close, next": ["next(it)", "it.send(None)", "it.close()", "next(it)"],
    "close, close, next": ["it.close()", "it.close()", "next(it)"],
    "throw, next": ["it.throw(KeyError('thrown'))", "next(it)"],
    "next, throw a type, send": ["next(it)", "it.throw(KeyError)", "it.send(None)"],
    "send a value first, then next": ["it.send(1)", "next(it)"],
    "next, send a value": ["next(it)", "it.send(1)"],
    "exhausted, close, send": ["next(it)", "next(it)", "it.close()", "it.send(None)"],
}

PROBE = """
import json, sys
from collections.abc import Iterator
import lazyfun
from lazyfun import csp, queens, sudoku
from lazyfun.csp import Domain, Model

EMPTY = "." * 81
SMALL = "1..." "..1." ".1.." "...1"
PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
calls, steps = json.loads(sys.stdin.read())


def model():
    m = Model()
    x, y = m.decision("x", Domain.integer_range(0, 2)), m.decision("y", Domain.integer_range(0, 2))
    m.add_constraint("different", csp.all_different([x, y]))
    return m


def tasks():
    m = Model()
    return [m.interval(name, Domain.integer_range(0, 3), 2) for name in ("a", "b")]


def public(value):
    return sorted(n for n in dir(value) if not n.startswith(("_", "gi_")))


def outcome(value):
    return None if value is None else type(value).__name__


found = {}
for label, call in calls.items():
    result = eval(call)
    found[label] = {"result": public(result)}
    if isinstance(result, Iterator):
        try:
            found[label]["item"] = public(next(result))
        except Exception as error:  # the clashing puzzle's PuzzleError
            found[label]["item"] = type(error).__name__
for label, script in steps.items():
    it = sudoku.solve(sudoku.parse(PUZZLE))
    done = []
    for step in script:
        try:
            done.append(outcome(eval(step)))
        except Exception as error:
            done.append(type(error).__name__)
    found[label] = done
print(json.dumps(found))
"""


def _probe(pure: bool) -> dict[str, Any]:
    """What the probe finds in a fresh interpreter, from source or compiled."""
    env = {k: v for k, v in os.environ.items() if k != PURE_ENV}
    if pure:
        env[PURE_ENV] = "1"
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        input=json.dumps([CALLS, GENERATOR_STEPS]),
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def test_every_public_function_is_probed_or_returns_a_plain_value() -> None:
    probed = {label.split()[0] for label in CALLS}
    for alias, module in [
        ("lazyfun", lazyfun),
        ("sudoku", sudoku),
        ("queens", queens),
        ("csp", csp),
    ]:
        for name in module.__all__:
            value = getattr(module, name)
            if inspect.isroutine(value):
                assert f"{alias}.{name}" in probed | PLAIN, f"{alias}.{name}: add it to CALLS"


@pytest.fixture(scope="module")
def builds() -> tuple[dict[str, Any], dict[str, Any]]:
    """The probe's findings, compiled (as installed) and from source."""
    return _probe(pure=False), _probe(pure=True)


@pytest.mark.parametrize("label", sorted(CALLS))
def test_a_public_result_has_the_same_public_names_compiled_or_not(
    builds: tuple[dict[str, Any], dict[str, Any]], label: str
) -> None:
    compiled, pure = builds
    assert compiled[label] == pure[label]


@pytest.mark.parametrize("label", sorted(GENERATOR_STEPS))
def test_the_solutions_of_solve_behave_as_a_generator_compiled_or_not(
    builds: tuple[dict[str, Any], dict[str, Any]], label: str
) -> None:
    compiled, pure = builds
    assert compiled[label] == pure[label]
