"""The repo's set of 9x9 variant puzzles (tests/data/variants): every one unique, by the
engine and, where OR-Tools is installed, by CP-SAT; and read back as it was written."""

from __future__ import annotations

import importlib
import json

import pytest

from lazyfun.sudoku.making.variant_generation import KINDS
from lazyfun.sudoku.variants import count_solutions, is_solution, solve
from lazyfun.sudoku.variants.exchange import dumps, from_json, to_json
from tests.datafiles import DATA

pytestmark = pytest.mark.compiled
SAMPLE = 10  # puzzles of each kind checked here; the benchmark runs all 100
PEER_SAMPLE = 3  # of those, proved unique again by CP-SAT (seconds a puzzle for some kinds)


def _docs(kind: str) -> list[dict[str, object]]:
    lines = (DATA / "variants" / f"{kind}.jsonl").read_text().splitlines()
    assert len(lines) == 100
    return [json.loads(line) for line in lines]


@pytest.mark.untraced
@pytest.mark.parametrize(
    "kind",
    [
        pytest.param(k, marks=pytest.mark.long_from_source) if k == "non-consecutive" else k
        for k in KINDS
    ],
)
def test_the_set_is_unique_and_reads_back_as_written(kind: str) -> None:
    for doc in _docs(kind)[:SAMPLE]:
        variant = from_json(doc)
        assert kind in variant.names or (kind, variant.names) in (
            ("x", ("x",)),
            ("windoku", ("windoku",)),
        )
        assert count_solutions(variant, 2) == 1
        assert is_solution(variant, next(solve(variant)))
        assert dumps(to_json(variant)) == dumps(doc)


@pytest.mark.untraced  # CP-SAT's work: nothing of ours to trace, or to rerun from source
@pytest.mark.parametrize("kind", KINDS)
def test_cpsat_agrees_that_the_set_is_unique(kind: str) -> None:
    pytest.importorskip("ortools")
    peers = importlib.import_module("benchmarks.peers")  # not type-checked: OR-Tools' API
    for doc in _docs(kind)[:PEER_SAMPLE]:
        assert peers.cpsat_variant(from_json(doc), stop_at=2) == 1
