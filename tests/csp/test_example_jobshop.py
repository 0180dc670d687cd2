"""examples/jobshop.py on ft06: improving makespans streamed, the schedule, the optimum 55."""

from __future__ import annotations

import importlib.util
import itertools
from pathlib import Path
from types import ModuleType

import pytest

from lazyfun.csp import Quality
from lazyfun.csp.jobshop import FT06

EXAMPLE = Path(__file__).parent.parent.parent / "examples" / "jobshop.py"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("jobshop_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ft06_is_solved_to_its_optimum_55(capsys: pytest.CaptureFixture[str]) -> None:
    assert load_example().main("ft06") == 55
    out = capsys.readouterr().out
    assert "ft06: makespan 55 proved optimal" in out
    assert out.count("machine ") == 6
    assert "makespan 55  (" in out  # the optimum was streamed when found


def test_the_schedule_keeps_the_jobs_order_and_the_machines_apart() -> None:
    model, tasks = load_example().schedule(FT06)
    best = model.solve()
    assert best.quality is Quality.OPTIMAL
    runs: dict[int, list[tuple[int, int]]] = {}
    for job, row in zip(FT06, tasks, strict=True):
        end = 0
        for (machine, duration), task in zip(job, row, strict=True):
            start = best[task.start]
            assert start >= end
            end = start + duration
            runs.setdefault(machine, []).append((start, end))
        assert end <= 55
    for spans in runs.values():
        spans.sort()
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))
