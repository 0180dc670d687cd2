"""``solutions(progress=...)``: a long search shows its nodes, best and bound as it goes."""

from __future__ import annotations

import io
import re

from lazyfun.csp import Domain, Model
from lazyfun.csp.examples import golomb_model


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_off_a_terminal_each_better_solution_and_the_end_get_a_line() -> None:
    model, _ = golomb_model(6)
    out = io.StringIO()
    stream = model.solutions(progress=out)
    found = [s.objective[0] for s in stream]
    lines = out.getvalue().splitlines()
    bests = [int(m.group(1)) for line in lines if (m := re.search(r"best (\d+)", line))]
    assert bests[-1] == found[-1] == 17
    assert lines[-1] == f"search: {stream.nodes:,} nodes, best 17, bound 17 (optimal)"
    assert bests == sorted(bests, reverse=True)  # strictly better each time, then the proof


def test_a_limit_is_said_at_the_end() -> None:
    model, _ = golomb_model(9)
    out = io.StringIO()
    stream = model.solutions(node_limit=50, progress=out)
    list(stream)
    assert out.getvalue().splitlines()[-1].endswith("(stopped by the node_limit)")


def test_on_a_terminal_the_status_is_drawn_in_place() -> None:
    m = Model()
    xs = [m.decision(f"x{i}", Domain.integer_range(0, 3)) for i in range(3)]
    m.add_constraint("sum", xs[0] + xs[1] == xs[2])
    out = Terminal()
    assert sum(1 for _ in m.solutions(progress=out)) == 10
    shown = re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", out.getvalue())  # rich's colours and cursor
    assert re.search(r"search: \d+ nodes \(searched to the end\)", shown), shown


def test_without_progress_nothing_is_written(capsys: object) -> None:
    model, _ = golomb_model(5)
    model.solve()
    assert capsys.readouterr().err == ""  # type: ignore[attr-defined]
