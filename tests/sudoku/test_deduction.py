"""Human-style steps: sound on puzzles with one solution, simplest first, found lazily."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from itertools import islice, pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.sudoku import Grid, PuzzleError, generate, parse, solve
from lazyfun.sudoku.steps import deduction
from lazyfun.sudoku.steps.deduction import (
    LADDER,
    RATINGS,
    SE_FORCING,
    TECHNIQUES,
    Step,
    Technique,
    hint,
    steps,
)
from lazyfun.sudoku.steps.techniques import Found, State
from tests.budget import examples, sample
from tests.datafiles import read_lines
from tests.puzzles import NORVIG_GRID2

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

SE_CHAINS = {"chains and cycles", *SE_FORCING}  # their C and Python forms: test_forcing_c
SINGLES = {"full house", "hidden single (box)", "hidden single (line)", "naked single"}


def _hard() -> list[str]:
    """top95's first 20 and the forum's hardest 20 (public sets' samples)."""
    return read_lines("top95_first20.txt") + read_lines("forum_hardest_first20.txt")


def _past_ladder() -> str:
    """serate's 11.8 at SE's level 4 (serate_nested.txt): past the ladder."""
    return read_lines("serate_nested.txt")[34].split()[0]


def _checked(puzzle: str, used: Counter[str]) -> None:
    """Every step agrees with the solution, and the steps end on it."""
    grid = parse(puzzle)
    solution = next(solve(grid)).cells
    values = list(grid.cells)
    for step in steps(grid):
        used[step.technique] += 1
        assert step.placements or step.eliminations, step
        for cell, value in step.placements:
            assert solution[cell] == value, f"{puzzle}: {step} places a wrong value"
            values[cell] = value
        for cell, value in step.eliminations:
            assert solution[cell] != value, f"{puzzle}: {step} removes the solution"
    assert tuple(values) == solution


@pytest.mark.untraced
def test_steps_are_sound_on_hard_and_generated_puzzles() -> None:
    used: Counter[str] = Counter()
    # the forum's hardest need chains nested in chains (its second is enough: the first
    # meets no other rung, in two seconds more), and one past the ladder a guess (labelled,
    # and right)
    hard = _hard()
    puzzles = [*hard[:20], hard[21], _past_ladder()]
    puzzles += [str(g) for g in islice(generate(3, seed=4), 12)]
    for puzzle in puzzles:
        _checked(puzzle, used)
    met = {"pointing", "claiming", "naked pair", "hidden pair", "X-wing", "XY-wing"}
    met |= {"XYZ-wing", "naked triple", "hidden triple", "bifurcation"}
    met |= {"direct pointing", "direct hidden pair", "skyscraper", "turbot fish"}
    met |= {"Y-cycle", "XY-cycle", "forcing chain", "nishio forcing chain"}
    met |= {"cell forcing chains", "region forcing chains", "dynamic cell forcing chains"}
    met |= {"dynamic region forcing chains", "dynamic contradiction forcing chain"}
    met |= {"dynamic contradiction forcing chain (+ multiple forcing chains)"}
    assert met | SINGLES <= set(used), used


def test_strong_links_pair_up_peers_and_eliminate_what_sees_both_ends() -> None:
    """The strong links (skyscraper, kite, turbot fish, their forms of three and four
    links, grouped or not): cells (a group's first) pair up, strong then weak links, one
    value; what goes sees both ends (or, in a loop, both cells of one of its weak
    links)."""
    from lazyfun.sudoku.board.geometry import peer_sets

    peers = peer_sets(3)
    kinds = ("skyscraper", "kite", "turbot", "strong links", "X-loop")
    chains = [
        s
        for p in sample(_hard()[:10], every=4)  # from source: the kite's and a grouped one's
        for s in steps(parse(p))
        if any(kind in s.technique for kind in kinds)
    ]
    assert {"skyscraper", "2-string kite"} <= {c.technique for c in chains}
    for chain in chains:
        cells = chain.cells
        assert len(cells) >= 4 and len(cells) % 2 == 0  # starts and ends on a strong link
        assert all(b in peers[a] for a, b in pairwise(cells))
        values = {v for _, v in chain.eliminations}
        assert len(values) == 1  # one value
        weak = [(cells[0], cells[-1]), *zip(cells[1:-1:2], cells[2:-1:2], strict=True)]
        for cell, _ in chain.eliminations:
            assert any(cell in peers[a] and cell in peers[b] for a, b in weak)


def test_singles_finish_exactly_40_of_norvigs_easy_50() -> None:
    """Norvig's propagation (naked and hidden singles) finishes the same 40."""
    finished = [
        p
        for p in read_lines("norvig_easy50.txt")
        if {s.technique for s in steps(parse(p), techniques=SINGLES)} <= SINGLES
    ]
    assert len(finished) == 40


def test_the_ladder_is_read_off_one_table() -> None:
    assert set(deduction.SINGLES) == SINGLES
    assert [t for t in TECHNIQUES if t in SINGLES] == list(deduction.SINGLES)
    assert TECHNIQUES[:3] == deduction.SINGLES[:3] and len(TECHNIQUES) == 40
    table = deduction.ladder_table().splitlines()
    assert len(table) == 2 + len(LADDER) + 1  # header, rule, the rungs, the guess
    assert table[2].startswith("| full house | 1.0 | single | a unit has one empty cell")
    assert "| nested forcing chains | 9.5 | chain |" in table[-3]
    assert "| nested multiple forcing chains | 10.0 | chain |" in table[-2]


def test_the_simplest_technique_comes_first() -> None:
    # in the order of the ratings up to the hidden quad; after it SE tries the three
    # strong links (5.4 to 5.7) before the WXYZ-wing (5.5, 5.6), and so does the ladder
    ladder = list(TECHNIQUES[: TECHNIQUES.index("hidden quad") + 1])
    assert [RATINGS[name] for name in ladder] == sorted(RATINGS[name] for name in ladder)
    assert TECHNIQUES.index("strong links (3)") < TECHNIQUES.index("WXYZ-wing")
    grid = parse("....34...3.11..4")
    walk = list(steps(grid))
    assert walk[0] == Step(
        "hidden single (box)", placements=((1, 1),), cells=(1,), units=("box 1",), side=4
    )
    assert str(walk[1]) == "full house in column 2: r4c2=2"
    assert walk[1].rating == 1.0 and Step("bifurcation").rating is None


def test_steps_are_found_only_when_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = Counter[str]()

    def counted(technique: Technique) -> Technique:
        def find(state: Any) -> Found | None:
            calls[technique.name] += 1
            return technique.find(state)

        return replace(technique, find=find)

    monkeypatch.setattr(deduction, "LADDER", tuple(counted(t) for t in LADDER))
    walk = steps(parse(NORVIG_GRID2))
    assert not calls  # nothing searched yet
    next(walk)
    first = sum(calls.values())
    next(walk)
    assert sum(calls.values()) > first


@pytest.mark.long_from_source  # from source the readable chains nested run before a guess
def test_on_an_empty_grid_the_hint_is_a_guess() -> None:
    found = hint(parse("0" * 16))
    assert found is not None and found.technique == "bifurcation"


def test_a_hint_reads_the_users_pencil_marks() -> None:
    grid = parse("0" * 16)
    marked = hint(grid, {5: [3]})
    assert marked == Step("naked single", ((5, 3),), (), (5,), (), 4)
    assert hint(parse("1234341221434321")) is None  # solved: nothing to do


def test_conflicting_givens_are_refused_at_once() -> None:
    with pytest.raises(PuzzleError):
        steps(parse("11.." + "." * 12))


def test_cli_explain_and_hint() -> None:
    import json

    from typer.testing import CliRunner

    from lazyfun.cli import app

    runner = CliRunner()
    puzzle = "....34...3.11..4"
    shown = runner.invoke(app, ["sudoku", "explain", puzzle])
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.splitlines() == [str(s) for s in steps(parse(puzzle))]
    records = runner.invoke(app, ["sudoku", "explain", NORVIG_GRID2, "--format", "json"])
    first = json.loads(records.stdout.splitlines()[0])
    assert first["technique"] == next(steps(parse(NORVIG_GRID2))).technique
    assert set(first) == {"technique", "rating", "placements", "eliminations", "cells", "units"}
    one = runner.invoke(app, ["sudoku", "hint", puzzle])
    assert one.stdout == "hidden single (box) in box 1: r1c2=1\n"
    bad = runner.invoke(app, ["sudoku", "hint", "12"])
    assert bad.exit_code == 2
    assert "expected 81 cells (9x9), or 16 (4x4), 256 (16x16) or 625 (25x25), got 2" in bad.stderr
    full = runner.invoke(app, ["sudoku", "hint", "1234341221434321"])
    assert full.exit_code == 0 and "already full" in full.stderr
    wrong = runner.invoke(app, ["sudoku", "explain", puzzle, "--format", "grid"])
    assert wrong.exit_code == 2 and "Invalid value for '--format'" in wrong.stderr


@settings(max_examples=examples(15, least=5), deadline=None)
@given(st.integers(0, 9), st.integers(0, 2**32))
def test_what_the_ladder_keeps_between_steps_is_what_a_fresh_state_finds(
    index: int, seed: int
) -> None:
    """The finders keep findings on the state (by unit, by value's places, by candidates)
    and a fork shares them: on a state and a fork, each struck at random in turns, every
    rung below the chains finds what it finds on a new state with the same candidates."""
    rng = random.Random(seed)
    grid = parse(_hard()[index])
    solution = next(solve(grid)).cells
    state = State(grid, None)
    states = [state, state.fork()]
    chains = next(i for i, t in enumerate(LADDER) if t.name in SE_CHAINS)
    lower = [t for t in LADDER[:chains] if t.rating is not None]
    for turn in range(6):
        s = states[turn % 2]
        wrong = [
            (c, v)
            for c, bits in enumerate(s.cands)
            for v in range(1, 10)
            if bits >> (v - 1) & 1 and v != solution[c]
        ]
        s.apply((), rng.sample(wrong, min(len(wrong), rng.randint(1, 4))))
        marks = {
            c: [v for v in range(1, 10) if bits >> (v - 1) & 1] for c, bits in enumerate(s.cands)
        }
        fresh = State(Grid(tuple(s.values), 3), marks)
        for technique in lower:
            assert technique.find(s) == technique.find(fresh), technique.name
