"""The sudoku-puzzle JSON format and f-puzzles links for variants: round trips, strict
reading, and agreement with pencilmark, which publishes the format."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lzstring import LZString

import lazyfun.sudoku as sudoku
from lazyfun.sudoku import Grid, PuzzleError, parse
from lazyfun.sudoku.board.links import FPUZZLES
from lazyfun.sudoku.solving import engine as classic
from lazyfun.sudoku.variants import (
    ANTI_KING,
    ANTI_KNIGHT,
    DIAGONALS,
    NON_CONSECUTIVE,
    WINDOWS,
    Arrow,
    Cage,
    Dot,
    Extra,
    GreaterThan,
    Thermo,
    Variant,
    is_unique,
    solve,
)
from lazyfun.sudoku.variants.exchange import (
    dumps,
    from_json,
    read_puzzle,
    read_variant,
    to_json,
    write_link,
)
from tests.budget import examples
from tests.datafiles import DATA
from tests.puzzles import NORVIG_GRID2
from tests.sudoku.test_arithmetic import SOLVED4, rules_from
from tests.sudoku.test_variants import JIGSAW9

EVERY_RULE = (
    DIAGONALS,
    WINDOWS,
    ANTI_KNIGHT,
    Cage(cells=(0, 1, 9), total=6),
    Cage(cells=(30, 31)),
    Thermo(cells=(20, 21, 22, 23)),
    Arrow(circle=40, shaft=(41, 42)),
    Dot(cells=(60, 61), color="black"),
    Dot(cells=(70, 71), color="white"),
    Extra(cells=(2, 12, 22), kind="extra"),
)


def read_lines_of(path: Path) -> list[str]:
    return [line for line in path.read_text().splitlines() if line.strip()]


def _same(a: Variant, b: Variant) -> bool:
    """The same grid and rules (in any order: the order of rules means nothing)."""
    return a.grid == b.grid and sorted(map(repr, a.rules)) == sorted(map(repr, b.rules))


def _with_meta(variant: Variant) -> Variant:
    return Variant(variant.grid, variant.rules, {"title": "t", "author": "a", "id": 7})


def test_a_variant_with_every_rule_survives_json_and_a_link() -> None:
    variant = _with_meta(Variant(parse("." * 81), (*EVERY_RULE, GreaterThan(cells=(80, 79)))))
    again = from_json(json.loads(dumps(to_json(variant))))
    assert _same(again, variant) and again.meta == variant.meta
    linked = Variant(variant.grid, EVERY_RULE, {"title": "t"})
    assert _same(read_variant(write_link(linked)), linked)
    jigsaw = Variant(parse("." * 81), (JIGSAW9, NON_CONSECUTIVE, ANTI_KING))
    assert _same(read_variant(dumps(to_json(jigsaw))), jigsaw)
    assert _same(read_variant(write_link(jigsaw)), jigsaw)


@settings(max_examples=examples(100), deadline=None)
@given(st.data())
def test_random_4x4_variants_round_trip(data: st.DataObject) -> None:
    solution = data.draw(st.sampled_from(SOLVED4))
    rules = data.draw(rules_from(solution, 4))
    shown = data.draw(st.sets(st.integers(0, 15), max_size=6))
    grid = Grid(tuple(v if i in shown else 0 for i, v in enumerate(solution)), 2)
    try:
        variant = Variant(grid, rules)
    except PuzzleError:
        return
    assert _same(read_variant(dumps(to_json(variant))), variant)
    if not any(isinstance(r, GreaterThan) for r in rules):
        assert _same(read_variant(write_link(variant)), variant)
    else:
        with pytest.raises(PuzzleError, match="f-puzzles has no greater-than signs"):
            write_link(variant)


def _doc(**changes: Any) -> str:
    doc = to_json(Variant(parse("." * 16), (Cage(cells=(0, 1), total=3),)))
    doc.update(changes)
    return json.dumps({k: v for k, v in doc.items() if v is not None})


BOX = {"type": "box_grid", "origin": "r1c1", "box": [2, 2]}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": "sudoku-puzzle", ', "not JSON: Expecting property name"),
        ('{"rules": ' + "[" * 5000, "not JSON that reads: nested too deeply"),
        (_doc(format="other"), 'not a sudoku-puzzle: "format" must be "sudoku-puzzle"'),
        (_doc(format_version=2), "format_version 2 is newer than lazyfun reads"),
        (_doc(colour="red"), "unknown key 'colour'"),
        (_doc(candidates={"r1c1": [1]}), "field candidates: given pencil marks"),
        (_doc(givens=[0] * 15), "field givens: a list of 16 values"),
        (_doc(givens=[None] + [0] * 15), "field givens: r1c1 is not a cell"),
        (_doc(board={"rows": 4, "cols": 5}), "field board"),
        (_doc(rules=[]), 'no "grid" or "box_grid" rule'),
        (
            _doc(rules=[BOX, {"type": "cage", "cells": ["r1c1", "r5c1"], "sum": 3}]),
            r"rule 1 \(cage\): field cells: r5c1 is outside the 4x4 board",
        ),
        (
            _doc(rules=[BOX, {"type": "cage", "cells": ["r1c1", "r1c2"], "sum": 9}]),
            r"rule 1 \(cage\): killer: no 2 distinct values of 1..4 add up to 9",
        ),
        (
            _doc(rules=[BOX, {"type": "cage", "cells": ["r1c1"], "total": 3}]),
            r"rule 1 \(cage\): unknown key 'total'",
        ),
        (
            _doc(rules=[BOX, {"type": "sandwich", "sum": 3, "side": "left", "cells": ["r1c1"]}]),
            r"rule 1 \(sandwich\): lazyfun does not support this rule",
        ),
        (
            _doc(rules=[BOX, {"type": "line", "kind": "whisper", "cells": ["r1c1", "r1c2"]}]),
            r"rule 1 \(line\): field kind: the whisper line is not supported",
        ),
        (
            _doc(
                rules=[
                    BOX,
                    {"type": "edge", "kind": "xv", "letter": "X", "cells": ["r1c1", "r1c2"]},
                ]
            ),
            r"rule 1 \(edge\): unknown key 'letter'",
        ),
        (
            _doc(rules=[BOX, {"type": "neighbours", "kind": "antiknight", "except": []}]),
            r"rule 1 \(neighbours\): unknown key 'except'",
        ),
        (
            _doc(rules=[BOX, {"type": "line", "kind": "thermo", "cells": ["r1c1", "r3c1"]}]),
            r"rule 1 \(line\): thermo: r1c1 and r3c1 do not touch",
        ),
        (
            _doc(rules=[BOX, {"type": "arrow", "bulb": ["r1c1", "r1c2"], "lines": [["r2c1"]]}]),
            r"rule 1 \(arrow\): field bulb: arrows with a bulb of more than one cell",
        ),
        (_doc(rules=[BOX, BOX]), r"rule 1 \(box_grid\): a second grid"),
        (_doc(solution=[1] * 16), "field solution: not a solution of the puzzle"),
    ],
)
def test_a_bad_file_gets_one_line_naming_the_rule_and_field(text: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message) as error:
        read_variant(text)
    assert "\n" not in str(error.value)


def _link(data: dict[str, Any]) -> str:
    rows: list[list[dict[str, Any]]] = [[{} for _ in range(9)] for _ in range(9)]
    payload: str = LZString.compressToBase64(json.dumps({"size": 9, "grid": rows, **data}))
    return FPUZZLES + payload


def test_a_byte_order_mark_before_a_document_is_skipped() -> None:
    killer = Variant(parse("." * 16), (Cage(cells=(0, 1), total=3),))
    text = json.dumps(to_json(killer), indent=2)
    assert read_variant("\ufeff" + text) == killer
    assert read_puzzle("\ufeff" + text) == killer
    assert read_puzzle("\ufeff" + write_link(killer)) == killer


# --- lazyfun.sudoku.read: one reader, variants included ------------------------------------

SAMPLES = [
    line for path in sorted((DATA / "variants").glob("*.jsonl")) for line in read_lines_of(path)[:2]
]


@pytest.mark.untraced
def test_read_reads_a_sudoku_puzzle_document_and_solve_answers_it() -> None:
    for text in SAMPLES:
        puzzle = sudoku.read(text)
        assert isinstance(puzzle, Variant) and puzzle == read_variant(text)
        assert sudoku.read(json.dumps(json.loads(text), indent=2)) == puzzle  # pretty-printed
        assert list(sudoku.solve(puzzle)) == list(solve(puzzle))  # the variant's one solution
        assert sudoku.count_solutions(puzzle) == 1 and sudoku.is_unique(puzzle)


def test_solve_of_what_read_gives_keeps_the_rules() -> None:
    killer = Variant(parse("." * 16), (Cage(cells=(0, 1), total=3),))
    puzzle = sudoku.read(dumps(to_json(killer)))
    found = list(sudoku.solve(puzzle))
    assert found == list(solve(killer)) and len(found) == 48  # not the 288 of the empty grid
    assert all(set(g.cells[:2]) == {1, 2} for g in found)
    assert sudoku.count_solutions(puzzle, limit=10) == 10 and not sudoku.is_unique(puzzle)
    assert sudoku.read(write_link(killer)) == killer


def test_a_document_of_the_classic_grid_alone_reads_as_its_grid() -> None:
    empty = Variant(parse("1..." + "." * 12))
    assert sudoku.read(dumps(to_json(empty))) == empty.grid


def test_a_puzzle_with_its_own_tables_takes_no_others() -> None:
    killer = Variant(parse("." * 16), (Cage(cells=(0, 1), total=3),))
    with pytest.raises(ValueError, match="carries its own tables"):
        next(classic.solve(killer, killer.tables))


def test_the_public_reader_is_the_top_reader() -> None:
    assert sudoku.read is read_puzzle


def test_an_fpuzzles_link_with_rules_reads_as_a_variant() -> None:
    variant = read_variant(
        _link(
            {
                "title": "A test",
                "diagonal+": True,
                "antiknight": True,
                "killercage": [{"cells": ["R1C1", "R1C2"], "value": "3"}],
                "thermometer": [{"lines": [["R5C5", "R5C6", "R5C7"]]}],
                "arrow": [{"cells": ["R9C1"], "lines": [["R9C1", "R9C2", "R9C3"]]}],
                "difference": [{"cells": ["R7C7", "R7C8"]}],
                "ratio": [{"cells": ["R8C7", "R8C8"], "value": "2"}],
            }
        )
    )
    assert variant.rules == (
        Extra(cells=tuple(r * 9 + 8 - r for r in range(9)), kind="diagonal"),
        ANTI_KNIGHT,
        Cage(cells=(0, 1), total=3),
        Arrow(circle=72, shaft=(73, 74)),
        Thermo(cells=(40, 41, 42)),
        Dot(cells=(60, 61), color="white"),
        Dot(cells=(69, 70), color="black"),
    )
    assert variant.meta == {"title": "A test"}
    with pytest.raises(PuzzleError, match="a puzzle with sandwich sums: lazyfun does not support"):
        read_variant(_link({"sandwichsum": [{"cell": "R0C1", "value": "5"}]}))
    with pytest.raises(PuzzleError, match="difference: a dot with value 3 is not supported"):
        read_variant(_link({"difference": [{"cells": ["R1C1", "R1C2"], "value": "3"}]}))


def _unique_killer() -> Variant:
    """A classic puzzle (unique), a few givens traded for cages made from its solution."""
    puzzle = parse(NORVIG_GRID2)
    answer = next(classic.solve(puzzle)).cells
    cages = tuple(
        Cage(cells=(c, c + 1), total=answer[c] + answer[c + 1])
        for c in range(0, 81, 6)
        if c % 9 < 8
    )
    givens = tuple(0 if i in (0, 1) else v for i, v in enumerate(puzzle.cells))
    return Variant(
        Grid(givens, 3),
        (*cages, Thermo(cells=(30, 31)) if answer[30] < answer[31] else Thermo(cells=(31, 30))),
    )


def test_pencilmark_reads_what_lazyfun_writes_and_finds_the_same_solution() -> None:
    pencilmark = pytest.importorskip("pencilmark")
    variant = _unique_killer()
    assert is_unique(variant)
    (ours,) = list(solve(variant))
    assert list(pencilmark.solve(to_json(variant))) == list(ours.cells)


def test_lazyfun_reads_what_pencilmark_writes() -> None:
    pencilmark = pytest.importorskip("pencilmark")
    exchange = pytest.importorskip("pencilmark.exchange")
    variant = _unique_killer()
    theirs = exchange.write(pencilmark.load(to_json(variant)))
    assert _same(from_json(theirs), variant)
