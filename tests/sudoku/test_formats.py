"""The formats puzzles travel in: each read by content, written back, and refused clearly."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lzstring import LZString

from lazyfun.sudoku import (
    Grid,
    MarkedGrid,
    PuzzleError,
    count_solutions,
    hint,
    parse,
    rate,
    read,
    solve,
    steps,
    write,
)
from lazyfun.sudoku.board import formats
from lazyfun.sudoku.board.formats import TARGETS, Target, read_marks, split
from lazyfun.sudoku.board.links import FPUZZLES, read_link
from lazyfun.sudoku.steps.deduction import SINGLES
from tests.datafiles import DATA, read_lines
from tests.puzzles import NORVIG_GRID2, PUZZLES
from tests.sudoku.strategies import marked_grids, puzzles

pytestmark = pytest.mark.compiled  # solve keeps to the marks in the engine: run again from source

MSF = "006200080008970000004810500000060002070000030600050000002047100003028400050001200"
EMPTY4 = Grid((0,) * 16, 2)


def _fpuzzles(data: dict[str, object]) -> str:
    payload: str = LZString.compressToBase64(json.dumps(data))
    return FPUZZLES + payload


def _classic(size: int = 9, rules: dict[str, object] | None = None) -> dict[str, Any]:
    grid: list[list[dict[str, object]]] = [[{} for _ in range(size)] for _ in range(size)]
    grid[0][0] = {"value": 1, "given": True}
    return {"size": size, "grid": grid, **(rules or {})}


# --- each format, read by content ----------------------------------------------------


def test_an_sdk_file_reads_with_its_metadata() -> None:
    entries = list(split((DATA / "samples.sdk").read_text().splitlines()))
    assert [e.line for e in entries] == [3, 14]
    assert entries[0].meta == ("#A lazyfun", "#D Bird's example, from the 1990s MSF puzzle")
    assert read(entries[0].text) == parse(MSF)
    assert str(read(entries[1].text)) == NORVIG_GRID2.replace(".", "0")


def test_an_ss_file_of_two_puzzles_reads_both() -> None:
    entries = list(split((DATA / "samples.ss").read_text().splitlines()))
    assert [e.line for e in entries] == [2, 16]
    assert [read(e.text) for e in entries] == [
        parse(p) for p in read_lines("top95_first20.txt")[:2]
    ]


def test_an_sdm_file_is_one_puzzle_a_line() -> None:
    lines = PUZZLES[:5]
    assert [read(e.text) for e in split(lines)] == [parse(p) for p in lines]


def test_a_pretty_16x16_grid_is_not_read_as_sixteen_4x4_puzzles() -> None:
    grid = parse(read_lines("sudoku16_generated.txt")[1])
    (entry,) = split(grid.pretty().splitlines())
    assert entry.line == 1 and read(entry.text) == grid


def test_a_pencil_mark_line_gives_a_marked_grid_whose_singles_are_placed() -> None:
    marked = MarkedGrid.of(parse(MSF))
    text = write(marked, "729")
    assert len(text) == 729 and text[:9] == "1.3.5.7.9"  # r1c1: 1, 3, 5, 7 or 9
    back = read(text)
    assert isinstance(back, MarkedGrid)
    assert back.candidates == marked.candidates
    assert back.grid.givens == 27 + sum(1 for m in marked.marks().values() if len(m) == 1)


def test_a_malformed_pencil_mark_line_names_the_cell_and_column() -> None:
    text = write(MarkedGrid.of(parse(MSF)), "729")
    with pytest.raises(PuzzleError, match=r"r1c2: expected '2' or '\.' at its place") as bad:
        read(text[:10] + "x" + text[11:])
    assert bad.value.column == 11
    with pytest.raises(PuzzleError, match="r1c1 has no candidate"):
        read("." * 9 + text[9:])


def test_parse_points_a_pencil_mark_line_to_read() -> None:
    with pytest.raises(PuzzleError, match=r"pencil-mark grid \(729 characters, 9x9\)"):
        parse("1" * 729)


def test_a_bad_character_in_a_multi_line_grid_gives_its_line() -> None:
    rows = parse(MSF).pretty().splitlines()
    rows[6] = rows[6].replace("6", "x", 1)
    with pytest.raises(PuzzleError, match="unexpected character 'x'") as bad:
        parse("\n".join(rows))
    assert (bad.value.line, bad.value.column) == (7, 1)


def test_a_file_of_rows_and_lines_cuts_into_puzzles_and_keeps_bad_ones_in_place() -> None:
    lines = [
        "# header",
        MSF,
        "",
        "1 2 | . .",
        ". . | 1 .",
        "",
        "123",
        *parse(MSF).pretty().split("\n"),
    ]
    entries = list(split(lines))
    assert [(e.line, e.meta) for e in entries] == [(2, ("# header",)), (4, ()), (7, ()), (8, ())]
    with pytest.raises(PuzzleError, match=r"expected 16 cells \(4x4\), got 8"):
        read(entries[1].text)
    assert read(entries[3].text) == parse(MSF)


# --- links -------------------------------------------------------------------------


def test_an_f_puzzles_link_and_its_sudokupad_forms_read_as_the_grid() -> None:
    link = write(parse(MSF), "link")
    assert link.startswith("https://www.f-puzzles.com/?load=")
    payload = link.removeprefix(FPUZZLES)
    assert read(link) == parse(MSF)
    assert read("https://sudokupad.app/fpuzzles" + payload) == parse(MSF)
    assert read("https://sudokupad.app/?puzzleid=fpuzzles" + payload.replace("+", "%2B")) == parse(
        MSF
    )
    assert parse(link) == parse(MSF)  # parse reads links too


def test_a_link_whose_host_does_not_read_is_a_puzzle_error() -> None:
    """Found by make fuzz: urlsplit's own ValueError escaped the reader."""
    with pytest.raises(PuzzleError, match="a link that does not read: Invalid IPv6 URL"):
        read("https://www.@5.....p\xf6uz[")


def test_a_load_key_written_with_an_escape_still_finds_the_payload() -> None:
    """Found by make fuzz: ?lo%61d= is ?load= to parse_qs, not to the raw split."""
    link = write(parse(MSF), "link")
    assert read(link.replace("?load=", "?lo%61d=")) == parse(MSF)
    for empty in ("https://f-puzzles.com/?lo%61d=", "https://www.f-puzzles.com/?load&:"):
        with pytest.raises(PuzzleError, match="does not read as an f-puzzles puzzle"):
            read(empty)


def test_a_payload_that_trips_the_decompressor_or_nests_too_deep_is_a_puzzle_error() -> None:
    """Found by make fuzz: lzstring's UnboundLocalError escaped read_link; JSON nested past
    Python's recursion limit would have raised RecursionError."""
    tripping = (
        "fpuzzles4gNIzglgXgpiBcBOANCA9gJwgEwQ\x01\x181ADcBDAGwFc54AW"
        + "\ufffd" * 8
        + "VNCImAOwQBcMqBfZYHv3vyG8QpStQAc9Ri3acYfpuwz"
    )
    refused = "the link's puzzle data does not read as an f-puzzles puzzle"
    with pytest.raises(PuzzleError, match=refused):
        read_link("https://sudokupad.app/" + tripping)
    with pytest.raises(PuzzleError, match=refused):
        read_link(FPUZZLES + LZString.compressToBase64("[" * 5000))


def test_a_link_with_centre_marks_gives_a_marked_grid() -> None:
    data = _classic(4)
    data["grid"][0][1] = {"centerPencilMarks": ["2", 4]}  # f-puzzles writes either
    data["grid"][0][2] = {"value": "3", "region": None}  # a null region is the box's
    marked = read(_fpuzzles(data))
    assert isinstance(marked, MarkedGrid) and marked.candidates[1:3] == ((2, 4), (3,))
    with pytest.raises(PuzzleError, match=r"pencil marks: lazyfun\.sudoku\.read keeps them"):
        parse(_fpuzzles(data))


@pytest.mark.parametrize(
    ("rules", "named"),
    [
        ({"killercage": [{"cells": ["R1C1", "R1C2"], "value": "3"}]}, "killer cages"),
        ({"diagonal+": True, "antiknight": True}, "a positive diagonal, anti-knight"),
        ({"thermometer": [{"lines": [["R1C1", "R1C2"]]}]}, "thermometers"),
        ({"somethingnew": [1]}, "somethingnew"),
    ],
)
def test_a_link_with_other_rules_is_refused_by_name(rules: dict[str, object], named: str) -> None:
    """By the classic reader below the variants (lazyfun.sudoku.read reads a variant)."""
    refusal = f"a puzzle with {named}: a variant \\(solve it with --variant\\)"
    with pytest.raises(PuzzleError, match=refusal):
        formats.read(_fpuzzles(_classic(rules=rules)))


def test_a_link_cell_out_of_range_is_named() -> None:
    data = _classic(4)
    data["grid"][1][0] = {"value": "x"}
    with pytest.raises(PuzzleError, match="r2c1 holds a value out of range"):
        read(_fpuzzles(data))


def test_links_that_cannot_be_read_say_why() -> None:
    irregular = _classic()
    irregular["grid"][0][0] = {"region": 1}
    cases = {
        _fpuzzles(irregular): "irregular regions",
        _fpuzzles(_classic(6)): "6x6 puzzle: lazyfun's boxes are square",
        "https://sudokupad.app/sclN4IgzglgX": "SudokuPad's own format",
        "https://sudokupad.app/abcd1234": "short link",
        "https://example.com/?load=abc": "a link to example.com",
        FPUZZLES + "!!!not-lz!!!": "does not read as an f-puzzles puzzle",
        "https://www.f-puzzles.com/": "without \\?load=",
    }
    for link, reason in cases.items():
        with pytest.raises(PuzzleError, match=reason):
            formats.read(link)  # the classic reader (lazyfun.sudoku.read reads regions)


def test_a_25x25_grid_has_no_link() -> None:
    grid = parse(read_lines("sudoku25_set.txt")[0])
    with pytest.raises(PuzzleError, match="up to 16x16"):
        write(grid, "link")
    hexadoku = parse(read_lines("sudoku16_generated.txt")[2])
    assert read_link(write(hexadoku, "link")) == hexadoku


# --- what a marked grid changes --------------------------------------------------------


def test_solve_and_count_keep_to_the_marks() -> None:
    assert count_solutions(MarkedGrid.of(EMPTY4)) == 288
    assert count_solutions(MarkedGrid.of(EMPTY4, {0: [1]})) == 72
    assert count_solutions(MarkedGrid.of(EMPTY4, {0: [1, 2], 5: [3]})) == 48  # 2 x 72 / 3
    marked = MarkedGrid.of(EMPTY4, {0: [2], 15: [3]})
    assert all(s.cells[0] == 2 and s.cells[15] == 3 for s in solve(marked))


@pytest.mark.long_from_source  # every rung fails on the empty grid: seconds from source
def test_the_empty_grid_has_no_step_but_a_guess() -> None:
    first = hint(EMPTY4)
    assert first is not None and first.technique == "bifurcation"


def test_the_steps_start_from_the_marks() -> None:
    assert str(hint(MarkedGrid.of(EMPTY4, {0: [1]}))) == "naked single: r1c1=1"
    solution = next(solve(EMPTY4))
    marked = MarkedGrid.of(EMPTY4, {c: [v] for c, v in enumerate(solution.cells)})
    walk = list(steps(marked))
    assert len(walk) == 16 and all(s.technique in SINGLES for s in walk)
    assert sorted(p for s in walk for p in s.placements) == list(enumerate(solution.cells))
    grid = parse(MSF)
    assert rate(MarkedGrid.of(grid)) == rate(grid)
    with pytest.raises(ValueError, match="carries its own candidates"):
        next(steps(MarkedGrid.of(grid), {0: [1]}))


def test_a_marked_grid_checks_its_candidates() -> None:
    with pytest.raises(PuzzleError, match="r1c1 holds 1"):
        MarkedGrid(parse("1" + "." * 15), ((2,),) + ((1, 2),) * 15)
    with pytest.raises(PuzzleError, match="r1c2 has no candidate left"):
        MarkedGrid(EMPTY4, ((1,), ()) + ((1, 2),) * 14)
    with pytest.raises(PuzzleError, match=r"distinct values 1\.\.4 in order"):
        MarkedGrid(EMPTY4, ((2, 1),) + ((1, 2),) * 15)
    with pytest.raises(PuzzleError, match="expected candidates for 16 cells"):
        MarkedGrid(EMPTY4, ((1,),))


# --- a byte-order mark --------------------------------------------------------------------

BOM = "\ufeff"  # what a Windows editor starts a UTF-8 file with


@given(puzzles(3, 81), st.sampled_from(TARGETS))
def test_a_byte_order_mark_is_skipped_by_read(grid: Grid, to: Target) -> None:
    text = write(grid, to)
    assert read(BOM + text) == read(text)
    assert read(BOM + "\n" + text) == read(text)  # a file whose first line is blank


def test_a_byte_order_mark_is_skipped_by_parse_and_read_marks() -> None:
    assert parse(BOM + MSF) == parse(MSF)
    assert parse(BOM + parse(MSF).pretty()) == parse(MSF)
    line = write(MarkedGrid.of(parse(MSF), {2: [1, 5]}), "729")
    assert read_marks(BOM + line) == read_marks(line)


def test_a_byte_order_mark_is_skipped_by_split() -> None:
    top = PUZZLES
    sdk = write(parse(MSF), "sdk", ["#A someone"]).splitlines()
    joined = [BOM + sdk[0], *sdk[1:], "", BOM + top[0], top[1]]  # two files, each with a mark
    entries = list(split(joined))
    assert [e.meta for e in entries] == [("#A someone",), (), ()]
    assert [e.text for e in entries] == ["\n".join(sdk[1:]), top[0], top[1]]


# --- round trips -------------------------------------------------------------------------


BOXES = st.sampled_from([2, 3, 4, 5])


@given(BOXES.flatmap(lambda box: puzzles(box, box**4)), st.sampled_from(TARGETS))
def test_writing_a_puzzle_then_reading_it_gives_the_same_puzzle(grid: Grid, to: Target) -> None:
    if to == "link" and grid.box == 5:
        return  # f-puzzles draws grids up to 16x16
    assert read(write(grid, to)) == grid


@given(BOXES.flatmap(lambda box: marked_grids(box, box**4)), st.sampled_from(TARGETS))
def test_writing_a_marked_grid_then_reading_it_keeps_its_marks(
    marked: MarkedGrid, to: Target
) -> None:
    """``729`` and ``link`` carry the candidates; the other formats the placed cells."""
    if to == "link" and marked.grid.box == 5:
        return
    back = read(write(marked, to))
    if to in ("729", "link") and marked.ruled_out():
        assert back == marked
    else:  # no marks to carry, or a format without them
        assert back == marked.grid


def test_a_grid_is_written_to_729_with_every_candidate_in_its_blanks() -> None:
    """A blank that the givens leave one value stays blank: one candidate means a given."""
    grid = parse(read_lines("top95_first20.txt")[11])  # top95's line 12: r2c2 is a single
    text = write(grid, "729")
    assert text[:9] == "123456789" and text[9:18] == "." * 5 + "6..."  # r1c1 blank, r1c2 6
    assert MarkedGrid.of(grid).candidates[10] == (2,)  # r2c2: the givens leave only 2
    assert text[10 * 9 : 11 * 9] == "123456789"
    assert read(text) == grid


def test_a_blank_left_one_candidate_is_a_given_in_729_and_stays_blank_in_a_link() -> None:
    marked = MarkedGrid.of(parse(MSF), {0: [7]})  # r1c1: 7 is a candidate the marks keep alone
    in_729 = read(write(marked, "729"))
    assert isinstance(in_729, MarkedGrid) and in_729.grid.cells[0] == 7
    assert list(solve(in_729)) == list(solve(marked))
    assert read(write(marked, "link")) == marked


@pytest.mark.long_from_source  # from source it reaches no line the pure pass's other tests miss
@given(puzzles(3, 81), st.data())
def test_writing_then_reading_gives_the_candidates(grid: Grid, data: st.DataObject) -> None:
    marked = MarkedGrid.of(grid)
    narrowed = {
        cell: data.draw(st.sets(st.sampled_from(marks), min_size=1))
        for cell, marks in marked.marks().items()
        if data.draw(st.booleans())
    }
    marked = MarkedGrid.of(grid, narrowed)
    to: Target
    for to in ("729", "link"):
        back = read(write(marked, to))
        assert isinstance(back, Grid | MarkedGrid)
        back = back if isinstance(back, MarkedGrid) else MarkedGrid.of(back)  # a full grid
        assert back.candidates == marked.candidates


@given(st.lists(puzzles(3, 81), min_size=1, max_size=4), st.data())
def test_a_file_of_puzzles_in_mixed_formats_splits_into_them(
    grids: list[Grid], data: st.DataObject
) -> None:
    lines: list[str] = []
    for grid in grids:
        to: Target = data.draw(st.sampled_from(("81", "sdk", "ss", "link")))
        lines += [*write(grid, to).splitlines(), *([""] if to == "sdk" else [])]
    assert [read(e.text) for e in split(lines)] == grids
