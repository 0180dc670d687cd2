"""The demo: lazy pipelines on built-in data, with the probe's counts as evidence."""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable
from importlib.resources import as_file, files
from pathlib import Path
from time import perf_counter, sleep
from typing import Any

import typer

from lazyfun import cp, first, many, search, take
from lazyfun.io import RecordError, read_jsonl
from lazyfun.pages import explanation_page
from lazyfun.queens import count_queens, is_placement, queens
from lazyfun.queens.lex import Partial, expand1
from lazyfun.study import study_evaluation, study_sudoku, sudoku_table_rows
from lazyfun.study.measure import seconds_cell
from lazyfun.sudoku import Grid, parse, solve
from lazyfun.sudoku.bird import choices, expand, prune, solve_search, valid
from lazyfun.sudoku.canon import automorphisms, minlex, random_transform
from lazyfun.trace import Probe

Say = Callable[[str], None]


def _queens_pipeline(say: Say) -> None:
    """Eight queens as an instance of the search skeleton, streamed; a big board; a count."""
    n = 8
    probe = Probe()
    placements = search(
        Partial(()),
        expand1=probe.counted("partial boards")(expand1(n)),
        complete=lambda p: len(p.rows) == n,
    )
    say("The first 3 of the 92 placements of 8 queens, streamed by lazyfun.search:")
    for p in take(3, probe.stage("placements", placements)):
        say(f"  {p.rows}")
    say("What the search built to find them (the rest was never computed):")
    say("  " + str(probe).replace("\n", "\n  "))
    start = perf_counter()
    big = first(queens(300, strategy="most-constrained"))
    say(
        f"A first placement of 300 queens, most-constrained column first: valid "
        f"{is_placement(big, 300)} ({1000 * (perf_counter() - start):.0f} ms)"
    )
    start = perf_counter()
    say(
        f"count_queens(11) = {count_queens(11):,}, counted through the board's symmetries "
        f"({1000 * (perf_counter() - start):.0f} ms)"
    )


def _cp_pipeline(say: Say) -> None:
    """cp over a Sudoku-sized product: the first hit without building the product."""
    probe = Probe(memory=True)
    with probe:
        candidates = probe.stage("candidates", cp([range(1, 10)] * 81))
        hits = probe.stage("hits", (g for g in candidates if sum(g[-3:]) == 20))
        hit = next(hits)
    say("The first of the 9^81 digit strings whose last three digits sum to 20:")
    say("  " + "".join(map(str, hit)))
    say("  " + str(probe).replace("\n", "\n  "))


PRICES = {"apples": 0.5, "bread": 2.25, "cheese": 4.0, "dates": 3.5, "eggs": 0.3, "figs": 1.2}


def _priced(order: dict[str, Any]) -> dict[str, Any]:
    """An order with its total, from a price list that answers slowly (as a web service
    would: 2 ms a call), so four calls at a time go four times as fast."""
    sleep(0.002)
    return {**order, "total": round(PRICES[order["item"]] * order["quantity"], 2)}


def _summary(batch: list[dict[str, Any]]) -> dict[str, Any]:
    """A batch of priced orders as one record: its first order, its size, its sum."""
    total = round(sum(order["total"] for order in batch), 2)
    return {"from": batch[0]["order"], "orders": len(batch), "total": total}


def _data_pipeline(say: Say, out: Path) -> None:
    """A real pipeline on a built-in JSON Lines file, and what each step did."""
    orders = files("lazyfun").joinpath("data/demo_orders.jsonl")
    with as_file(orders) as path:
        pipeline = (
            read_jsonl(path)
            .analyze()
            .catch(RecordError, do=lambda error: say(f"  skipped {error}"))
            .map(_priced, concurrency=4)
            .group(25)
            .map(_summary)
        )
        say("A pipeline (lazyfun.io and the Stream): orders read, a bad line caught, each priced")
        say("by a slow lookup four at a time, in batches of 25, written as JSON Lines:")
        written = pipeline.to_jsonl(out)
    say(f"  {written} batch records written to {out}; what each step did (explain):")
    say("  " + pipeline.explain(analyze=True).replace("\n", "\n  "))


def _demo_puzzles() -> list[str]:
    text = files("lazyfun").joinpath("data/demo_puzzles.txt").read_text()
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def _sudoku(say: Say) -> None:
    """The built-in puzzles, solved by the engine; one by Bird's final solver too."""
    say("Sudoku, solved by lazyfun.sudoku.solve (the 9x9 engine in C, where it is built):")
    for text in _demo_puzzles():
        start = perf_counter()
        solution = next(solve(parse(text)))
        say(f"  {text}\n  {solution}  {1000 * (perf_counter() - start):.1f} ms")
    msf = parse(_demo_puzzles()[0])
    start = perf_counter()
    bird_solution = next(solve_search(msf))
    say(
        "Bird's search . prune . choices finds the same solution for the first: "
        f"{bird_solution == next(solve(msf))} ({1000 * (perf_counter() - start):.1f} ms)"
    )


def _bird_stages(say: Say) -> None:
    """What pruning saves, counted: the specification against many prune, on 5 blanks."""
    full = next(solve(parse(_demo_puzzles()[0])))
    puzzle = Grid(full.cells[:76] + (0,) * 5, 3)
    say("Bird's specification on a grid with 5 blanks, with and without pruning:")
    for label, matrix in [
        ("filter valid . expand . choices", choices(puzzle.rows)),
        ("filter valid . expand . many prune . choices", many(prune, choices(puzzle.rows))),
    ]:
        probe = Probe()
        found = list(filter(valid, probe.stage("candidates", expand(matrix))))
        say(f"  {label:<46} {probe.counts['candidates']:>7,} candidates, {len(found)} solution")


def _canon(say: Say) -> None:
    """The minlex form of the first puzzle, and of a scrambled copy: the same."""
    puzzle = parse(_demo_puzzles()[0])
    scrambled = random_transform(puzzle, random.Random(2026))
    start = perf_counter()
    form = minlex(puzzle)
    took = seconds_cell(perf_counter() - start)
    say("Minlex canonical form (lazyfun.sudoku.canon): of the 3,359,232 ways to relabel the")
    say("digits and shuffle rows and columns, the arrangement whose 81 digits read smallest:")
    say(f"  puzzle     {puzzle}\n  scrambled  {scrambled}")
    say(f"  minlex     {form}  in {took}")
    say(
        f"  the scrambled copy has the same form: {minlex(scrambled) == form}; "
        f"arrangements that fix the puzzle: {automorphisms(puzzle)}"
    )


def _eager_lazy(say: Say) -> None:
    """A short eager-against-lazy table: Bird's specification on 4 blanks."""
    say("Eager against lazy, filter valid . expand on 4 blanks (lazyfun study sudoku):")
    say(f"  {'version':<13} {'time':>10} {'peak':>11}  {'candidates':>10}")
    for row in sudoku_table_rows(study_sudoku([4])):
        _, version, seconds, _, peak, candidates, _ = row
        say(f"  {version:<13} {seconds:>10} {peak:>11}  {candidates:>10}")
    say("  lazy holds one candidate at a time; eager is faster here but grows 9x per blank")
    by_name, by_need = (m for m in study_evaluation([4], []) if m.strategy != "strict")
    say("  A candidate grid is nine rows, each picked from the rows its blanks allow.")
    say("  Call-by-name (generators) builds a row's options again for every choice of the")
    say(f"  rows above it: {by_name.work:,} rows built.  Call-by-need (LazyList) builds them")
    say(
        f"  once and shares them: {by_need.work:,} rows built, in "
        f"{seconds_cell(by_need.seconds)} (lazyfun study evaluation)."
    )


PAGE = Path(tempfile.gettempdir()) / "lazyfun-demo-steps.html"
OUT = Path(tempfile.gettempdir()) / "lazyfun-demo-batches.jsonl"


def _page(say: Say, page: Path) -> None:
    """The first puzzle's steps as a page to open in a browser."""
    puzzle = parse(_demo_puzzles()[0])
    page.write_text(explanation_page(puzzle, title="lazyfun demo: the first puzzle, step by step"))
    say(f"Its steps, to step through with the arrow keys in a browser: {page}")


def run(say: Say, page: Path = PAGE, out: Path = OUT) -> None:
    """Run every part of the demo, printing through ``say``; the first part writes
    ``out``, the last ``page``."""
    _data_pipeline(say, out)
    say("")
    _sudoku(say)
    say("")
    _bird_stages(say)
    say("")
    _eager_lazy(say)
    say("")
    _canon(say)
    say("")
    _queens_pipeline(say)
    say("")
    _cp_pipeline(say)
    say("")
    _page(say, page)


def demo_command() -> None:
    """The main job on built-in data, explained as it runs (a few seconds)."""
    run(typer.echo)
