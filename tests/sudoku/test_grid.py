"""Reading and writing grids, and the errors bad input gets."""

from __future__ import annotations

import pytest

from lazyfun.sudoku import Grid, PuzzleError, check_givens, parse
from tests.datafiles import read_lines

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

MSF = "006200080008970000004810500000060002070000030600050000002047100003028400050001200"


def test_one_line_form_round_trips_with_either_blank() -> None:
    g = parse(MSF)
    assert str(g) == MSF
    assert parse(MSF.replace("0", ".")) == g
    assert g.givens == 27 and g.size == 9 and g.box == 3


def test_multi_line_form_with_separators() -> None:
    g = parse(MSF)
    assert parse(g.pretty()) == g
    text = "\n".join(
        "|".join(MSF[r * 9 + c * 3 : r * 9 + c * 3 + 3] for c in range(3)) for r in range(9)
    )
    assert parse("+---+---+---+\n" + text + "\n") == g


def test_pretty_form() -> None:
    assert parse(MSF).pretty().splitlines()[:4] == [
        ". . 6 | 2 . . | . 8 .",
        ". . 8 | 9 7 . | . . .",
        ". . 4 | 8 1 . | 5 . .",
        "------+-------+------",
    ]


def test_sixteen_by_sixteen_in_both_alphabets() -> None:
    letters = parse("1" + "." * 254 + "G")
    assert letters.cells[0] == 1 and letters.cells[-1] == 16
    hexadecimal = read_lines("sudoku16_generated.txt")[2]  # 0-F, . blank
    g = parse(hexadecimal)
    assert g.size == 16
    assert str(g) == hexadecimal
    assert g.cells[hexadecimal.index("0")] == 1


def test_twenty_five_by_twenty_five() -> None:
    g = parse("P" + "0" * 624)
    assert g.size == 25 and g.cells[0] == 25


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (MSF[:-1], "expected 81 cells (9x9), got 80"),
        (MSF + "1", "expected 81 cells (9x9), got 82"),
        (MSF[:72], "expected 81 cells (9x9), got 72"),  # a row short
        ("1" * 15, "expected 16 cells (4x4), got 15"),
        ("1" * 250, "expected 256 cells (16x16), got 250"),
        ("1" * 624, "expected 625 cells (25x25), got 624"),
        # near no size: 9x9 first, then the others (never "16 cells" for a 9x9 reader)
        ("hello world", "expected 81 cells (9x9), or 16 (4x4), 256 (16x16) or 625 (25x25), got 11"),
        ("", "expected 81 cells (9x9), or 16 (4x4), 256 (16x16) or 625 (25x25), got 0"),
        (MSF[:40], "expected 81 cells (9x9), or 16 (4x4), 256 (16x16) or 625 (25x25), got 40"),
        # in rows, the first row's cells say the size
        ("1 2 | . .\n. . | 1 .", "expected 16 cells (4x4), got 8"),
        ("\n".join(MSF[i : i + 9] for i in range(0, 45, 9)), "expected 81 cells (9x9), got 45"),
        ("1" * 36, "unsupported size 6x6 (36 cells); supported: 4x4, 9x9, 16x16, 25x25"),
        (MSF[:11] + "x" + MSF[12:], "column 12: unexpected character 'x' for a 9x9 grid"),
        ("5" + "." * 15, "column 1: unexpected character '5' for a 4x4 grid"),
    ],
)
def test_bad_text_names_the_fault(text: str, message: str) -> None:
    with pytest.raises(PuzzleError) as caught:
        parse(text)
    assert str(caught.value) == message


def test_error_on_a_line_of_a_file() -> None:
    try:
        parse(MSF[:-1])
    except PuzzleError as error:
        assert str(error.at_line(17)) == "line 17: expected 81 cells (9x9), got 80"
        assert error.at_line(17).line == 17


def test_givens_conflict_names_both_cells() -> None:
    bad = list(MSF)
    bad[2 * 9 + 7] = "4"  # r3c8 = 4; r3c3 is already 4
    with pytest.raises(PuzzleError, match="givens conflict: r3c3 and r3c8 are both 4"):
        check_givens(parse("".join(bad)))
    column = "1" + "0" * 8 + "1" + "0" * 71
    with pytest.raises(PuzzleError, match="r1c1 and r2c1 are both 1"):
        check_givens(parse(column))


def test_grid_is_immutable_and_checked() -> None:
    g = parse(MSF)
    with pytest.raises(AttributeError):
        g.cells = ()  # type: ignore[misc]
    with pytest.raises(PuzzleError):
        Grid((0,) * 80, 3)
    with pytest.raises(PuzzleError):
        Grid((10,) + (0,) * 80, 3)
    with pytest.raises(PuzzleError):
        Grid((0,) * 36, 6)
