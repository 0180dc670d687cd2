"""Sudoku variants: solve rate per variant against CP-SAT and pencilmark, and the
generation rate of minimal unique puzzles beside the classic rate.

The puzzles are the repo's set, tests/data/variants/KIND.jsonl: 100 unique
9x9 puzzles of each kind made by lazyfun's generator (see the PROVENANCE
file there).  Each peer gets the same puzzles in the same run:

- lazyfun: the first solution (``solve``), and the proof of uniqueness
  (``count_solutions(v, 2)``), which is what pencilmark's ``solve`` does;
- CP-SAT, one worker, the same model (``benchmarks.peers.cpsat_variant``):
  one solution;
- pencilmark's ``solve`` (C++ core) on the same sudoku-puzzle JSON, which
  solves and proves uniqueness.

Target: faster than CP-SAT on every variant.

:func:`walks` counts the puzzles whose explanation (``steps``) needs a guess
(``bifurcation``), with the variant ladder as it is and with only the ladder
the variants had before the 45 rule and the forcing chains (the singles, the
rules' own techniques and the classic ladder), on lazyfun's own set and on the
puzzles of four generators that are not ours (tests/data/variants_foreign).  Target
(issue 39): at most 1 in 6 needs a guess.  Run alone: ``python -m benchmarks.bench_variants walks``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from itertools import islice
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT, best_of, verdict
from benchmarks.peers import cpsat_variant
from lazyfun.sudoku.making import generate
from lazyfun.sudoku.making.variant_generation import KINDS
from lazyfun.sudoku.steps.deduction import (
    GUESS,
    VARIANT_CHAINS,
    VARIANT_TECHNIQUES,
    steps,
    variant_ladder,
)
from lazyfun.sudoku.variants import Variant, count_solutions, solve
from lazyfun.sudoku.variants.exchange import from_json, to_json

SET = ROOT / "tests" / "data" / "variants"
REPEATS = 3
WALKED = ("x", "windoku", "jigsaw", "anti-knight", "killer", "thermo")  # the kinds
# Puzzles of generators not ours: the kinds, and the anti-knights of one of them
# left minimal (its default)
FOREIGN = ROOT / "tests" / "data" / "variants_foreign"
FOREIGN_KINDS = (*WALKED, "anti-knight-minimal")
WALKS = 12  # puzzles a kind whose walk is counted
NEW = {t.name for t in VARIANT_TECHNIQUES + VARIANT_CHAINS}
OLD = [t.name for t in variant_ladder() if t.name not in NEW]  # the ladder before them
MADE = {"non-consecutive": 5, "jigsaw": 10}  # puzzles to time per kind (the rest: 30)


def _rate(puzzles: list[Any], run: Callable[[Any], object], repeats: int = REPEATS) -> float:
    """Puzzles a second, best of ``repeats`` passes over all of them."""
    return len(puzzles) / best_of(repeats, lambda: [run(p) for p in puzzles])


def _pencilmark() -> Callable[[dict[str, Any]], object] | None:
    try:
        import pencilmark
    except ImportError:
        return None
    solve_: Callable[[dict[str, Any]], object] = pencilmark.solve
    return solve_


def _generation_rate(kind: str | None, count: int) -> float:
    start = time.perf_counter()
    if kind is None:
        list(islice(generate(3, seed=7), count))
    else:
        list(islice(generate(3, seed=7, variant=kind), count))
    return count / (time.perf_counter() - start)


def main() -> list[str]:
    verdicts = []
    theirs = _pencilmark()
    print(
        f"  {'variant':16} {'lazyfun/s':>10} {'unique/s':>10} {'CP-SAT/s':>10} "
        f"{'ratio':>7} {'pencilmark/s':>13} {'ratio':>7}"
    )
    for kind in KINDS:
        path = SET / f"{kind}.jsonl"
        docs = [json.loads(line) for line in path.read_text().splitlines()]
        variants: list[Variant] = [from_json(d) for d in docs]
        for v in variants:  # tables are built once per puzzle, outside the timing
            _ = v.tables
        ours = _rate(variants, lambda v: next(solve(v)))
        unique = _rate(variants, lambda v: count_solutions(v, 2))
        cpsat = _rate(variants, cpsat_variant, 1)
        pm = _rate([to_json(v) for v in variants], theirs, 1) if theirs else 0.0
        pm_text = f"{pm:13.0f} {unique / pm:6.1f}x" if pm else f"{'(absent)':>13} {'':>7}"
        print(
            f"  {kind:16} {ours:10.0f} {unique:10.0f} {cpsat:10.0f} {ours / cpsat:6.1f}x {pm_text}"
        )
        verdicts.append(
            verdict(
                f"variants {kind}: faster than CP-SAT",
                ours > cpsat,
                f"{ours:.0f}/s against {cpsat:.0f}/s ({ours / cpsat:.1f}x), 100 puzzles",
            )
        )
    print("\n  generation of minimal unique 9x9 puzzles (one core):")
    classic = _generation_rate(None, 30)
    print(f"  {'classic':16} {classic:8.1f}/s")
    for kind in KINDS:
        made = _generation_rate(kind, MADE.get(kind, 30))
        print(f"  {kind:16} {made:8.1f}/s  ({made / classic:.2f} of the classic rate)")
    verdicts += walks()
    return verdicts


def _guesses(variant: Variant, techniques: list[str] | None) -> int:
    return sum(step.technique == GUESS for step in steps(variant, techniques=techniques))


def walks(count: int = WALKS) -> list[str]:
    """How many puzzles need a guess, before and now: the first ``count`` of each kind of
    lazyfun's own set, then those of the foreign generators (:data:`FOREIGN`)."""
    print(f"\n  explanations needing a guess, first {count} puzzles a kind (before -> now):")
    own = _walks(SET, WALKED, count)
    print("\n  the same, on puzzles of other generators (tests/data/PROVENANCE.md):")
    foreign = _walks(FOREIGN, FOREIGN_KINDS, count)
    return [
        verdict(
            f"variant walks: at most 1 in 6 needs a guess ({label})",
            6 * needing <= total,
            f"{needing} of {total}",
        )
        for label, (needing, total) in (
            (f"lazyfun's own generator: {', '.join(WALKED)}", own),
            (
                "other generators: sudoku-engine, sudoku_variants, killer-sudoku-generator, "
                "pencilmark",
                foreign,
            ),
        )
    ]


def _walks(folder: Path, kinds: tuple[str, ...], count: int) -> tuple[int, int]:
    """Prints each kind's walks of ``folder``; how many of how many needed a guess."""
    needing, total = 0, 0
    for kind in kinds:
        path = folder / f"{kind}.jsonl"
        variants = [from_json(json.loads(line)) for line in path.read_text().splitlines()[:count]]
        start = time.perf_counter()
        before = [_guesses(v, OLD) for v in variants]
        middle = time.perf_counter()
        now = [_guesses(v, None) for v in variants]
        end = time.perf_counter()
        guessed = [i for i, g in enumerate(now) if g]
        needing, total = needing + len(guessed), total + len(variants)
        print(
            f"  {kind:12} {sum(map(bool, before)):3} -> {len(guessed):3} of {len(variants)}"
            f"  guesses {sum(before):3} -> {sum(now):3}"
            f"  ({(middle - start) / len(variants):.2f} -> {(end - middle) / len(variants):.2f}"
            " s a puzzle)"
            f"  still guessing: {guessed}"
        )
    return needing, total


if __name__ == "__main__":
    import sys

    walks() if sys.argv[1:] == ["walks"] else main()
