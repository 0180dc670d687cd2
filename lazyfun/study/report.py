r"""One page for the class: the study's tables, charts, search tree and a pipeline explained.

:func:`report_page` measures the queens and Sudoku studies, draws their charts,
the search tree of the lazy queens search, searches constraint models with the
solver's nogoods and without, and runs one pipeline twice, lazy
and with an eager step, each explained with its counts (``explain(analyze=True)``),
and lays them out as one self-contained HTML file: the charts are inline SVG,
the styles inline, nothing fetched from the network, so the page opens from a
USB stick in a classroom without a connection.

>>> page = report_page(
...     queens_sizes=range(4, 6), blanks=range(1, 3), runs=1, tree_n=4, learning=["queens 6"]
... )
>>> addresses = re.sub(r' xmlns(:\w+)?="[^"]*"', "", page)  # namespaces are names only
>>> page.startswith("<!doctype html>"), page.count("<svg"), "http" in addresses
(True, 3, False)
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence
from html import escape
from typing import TYPE_CHECKING

from lazyfun.streams.stream import Stream, stream
from lazyfun.study.learning import (
    LEARNING_HEADINGS,
    LEARNING_TITLE,
    learning_notes,
    learning_table_rows,
    study_learning,
)
from lazyfun.study.measure import RUNS
from lazyfun.study.queens import queens_figure, queens_notes, study_queens, table_rows
from lazyfun.study.sudoku import study_sudoku, sudoku_figure, sudoku_notes, sudoku_table_rows
from lazyfun.study.tree import queens_tree, tree_summary, tree_svg

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["PIPELINE", "report_page"]

_STYLE = """
body{font-family:Helvetica,Arial,sans-serif;margin:1.5em auto;max-width:1200px;color:#111}
h1{font-size:1.5em}
h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;font-size:.92em}
th,td{padding:.2em .7em;text-align:right;border-bottom:1px solid #eee}
th{border-bottom:1px solid #999}
td.text,th.text{text-align:left}
.notes{color:#444;font-size:.9em;white-space:pre-line}
.chart svg,.tree svg{max-width:100%;height:auto}
.side{display:flex;gap:2em;flex-wrap:wrap}
pre{background:#f6f6f6;padding:.6em;font-size:.85em}
"""

PIPELINE = "stream(range(10**5), analyze=True).map(square)%s.filter(even).take(3)"
"""The pipeline run twice on the page: lazy as written, and with ``.sort()`` in it."""


def _square(n: int) -> int:
    return n * n


def _even(n: int) -> bool:
    return n % 2 == 0


def _pipelines() -> tuple[Stream[int], Stream[int]]:
    """The page's pipeline, lazy, and with one eager step (``sort`` sees every item first)."""
    lazy = stream(range(10**5), analyze=True).map(_square).filter(_even).take(3)
    eager = stream(range(10**5), analyze=True).map(_square).sort().filter(_even).take(3)
    return lazy, eager


def _table(headings: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    text = {"version", "strategy", "program", "model", "learning", "found"}

    def cell(tag: str, heading: str, value: str) -> str:
        kind = ' class="text"' if heading in text else ""
        return f"<{tag}{kind}>{escape(value)}</{tag}>"

    head = "".join(cell("th", h, h) for h in headings)
    body = "".join(
        "<tr>" + "".join(cell("td", h, v) for h, v in zip(headings, row, strict=True)) + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _svg(figure: Figure) -> str:
    """A matplotlib figure as inline SVG: its XML prologue, doctype and metadata (RDF
    that names web addresses) left out."""
    out = io.StringIO()
    figure.savefig(out, format="svg")
    svg = out.getvalue()
    return re.sub(r"<metadata>.*?</metadata>", "", svg[svg.index("<svg") :], flags=re.DOTALL)


def _section(title: str, *parts: str) -> str:
    return f"<section><h2>{escape(title)}</h2>{''.join(parts)}</section>"


def report_page(
    *,
    queens_sizes: Iterable[int] = range(4, 10),
    run_limit: int = 7,
    blanks: Iterable[int] = range(1, 6),
    runs: int = RUNS,
    tree_n: int = 6,
    learning: Iterable[str] = ("random CSP 50", "golomb 9"),
) -> str:
    """The study as one self-contained HTML page (needs matplotlib, for the charts).

    Sections: the queens study (table, notes, chart), the Sudoku study (the same), the
    search tree of ``tree_n`` queens to its first solution (drawn, and depth by depth),
    the ``learning`` models searched without nogoods and with them (table, notes), and
    :data:`PIPELINE` lazy and with ``.sort()``, each ``explain(analyze=True)``.
    """
    queens = list(study_queens(queens_sizes, run_limit=run_limit, runs=runs))
    sudoku = list(study_sudoku(blanks, runs=runs))
    tree = queens_tree(tree_n, 1)
    learnt = list(study_learning(learning, runs=runs))
    lazy, eager = _pipelines()
    results = (lazy.to_list(), eager.to_list())
    explained = [
        (
            f"{name}: {PIPELINE % step}",
            f"{results[k]}\n{pipeline.explain(analyze=True, times=False)}",
        )
        for k, (name, step, pipeline) in enumerate(
            (("lazy", "", lazy), ("with one eager step", ".sort()", eager))
        )
    ]
    notes = '<p class="notes">{}</p>'.format
    sections = [
        _section(
            "N queens: eager comprehension, eager flatmap, lazy",
            _table(
                ("n", "version", "time", "spread", "peak memory", "placements built", "found"),
                table_rows(queens),
            ),
            notes(escape("\n".join(queens_notes(queens)))),
            f'<div class="chart">{_svg(queens_figure(queens))}</div>',
        ),
        _section(
            "Sudoku: filter valid . expand, eager and lazy",
            _table(
                ("blanks", "version", "time", "spread", "peak memory", "candidates", "found"),
                sudoku_table_rows(sudoku),
            ),
            notes(escape("\n".join(sudoku_notes(sudoku)))),
            f'<div class="chart">{_svg(sudoku_figure(sudoku))}</div>',
        ),
        _section(
            "What the lazy search built, inside the eager tree",
            f'<div class="tree">{tree_svg(tree)}</div>',
            f"<pre>{escape(tree_summary(tree))}</pre>",
        ),
        _section(
            LEARNING_TITLE,
            _table(LEARNING_HEADINGS, learning_table_rows(learnt)),
            notes(escape("\n".join(learning_notes(learnt)))),
        ),
        _section(
            "One pipeline, lazy and with one eager step: explain(analyze=True)",
            '<div class="side">',
            *(
                f"<div><h3>{escape(title)}</h3><pre>{escape(text)}</pre></div>"
                for title, text in explained
            ),
            "</div>",
        ),
    ]
    title = "Eager against lazy, measured"
    return (
        "<!doctype html>\n"
        f'<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f"<style>{_STYLE}</style></head><body><h1>{escape(title)}</h1>"
        + "".join(sections)
        + "</body></html>\n"
    )
