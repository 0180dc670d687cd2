"""Every command on hostile input: an answer or one clear line, never a traceback or a hang.

Sizes out of range, empty files, binary and non-UTF-8 input, a line far
longer than any puzzle, and searches long enough to need a status line.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import lazyfun.cli.queens as cli_queens
from lazyfun.cli import app
from lazyfun.cli.output import MAX_LINE, Source, Status
from lazyfun.trace import Meter
from tests.puzzles import NORVIG_GRID2 as PUZZLE
from tests.puzzles import NORVIG_GRID2_SOLUTION as SOLUTION


def run(*args: str, stdin: str | bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def one_line_error(stderr: str) -> str:
    """The one ``lazyfun:`` line a user error prints; fails on a traceback or more lines."""
    assert "Traceback" not in stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("lazyfun: ")
    return lines[0]


# --- reading input --------------------------------------------------------------------


def _read(path: Path, data: bytes) -> tuple[list[str], list[tuple[int, str]]]:
    """The lines of a file as the commands read them (lazyfun.io's read_lines), and the
    problems reported on the way."""
    path.write_bytes(data)
    problems: list[tuple[int, str]] = []
    lines = list(Source(None, str(path)).lines(lambda n, m: problems.append((n, m))))
    return lines, problems


def test_reading_reports_bad_lines_and_keeps_the_numbering(tmp_path: Path) -> None:
    data = b"good\n\xff\xfe not utf-8\n" + b"9" * (3 * MAX_LINE) + b"\nlast\n"
    lines, problems = _read(tmp_path / "in.txt", data)
    assert lines == ["good", "", "", "last"]
    assert problems == [
        (2, "not UTF-8 text"),
        (3, f"longer than {MAX_LINE:,} characters: not a puzzle"),
    ]


def test_a_line_exactly_at_the_limit_is_still_read(tmp_path: Path) -> None:
    line = b"x" * (MAX_LINE - 1) + b"\n"
    assert _read(tmp_path / "in.txt", line) == ([line.decode().strip()], [])


def test_a_huge_line_is_skipped_in_bounded_memory(tmp_path: Path) -> None:
    """A 64 MB line (no newline) is reported and skipped; the puzzle after it is solved."""
    path = tmp_path / "huge.txt"
    with path.open("wb") as f:
        chunk = b"1" * (1 << 20)
        for _ in range(64):
            f.write(chunk)
        f.write(f"\n{PUZZLE}\n".encode())
    status, out, err = run("sudoku", "solve", "-f", str(path), "-q")
    assert status == 2
    assert out.splitlines() == ["# line 1: longer than 65,536 characters: not a puzzle", SOLUTION]
    assert one_line_error(err) == "lazyfun: line 1: longer than 65,536 characters: not a puzzle"


def test_binary_input_is_reported_line_by_line_and_good_lines_still_answered(
    tmp_path: Path,
) -> None:
    path = tmp_path / "mixed.bin"
    path.write_bytes(b"\x00\x01\x02\xff\n" + PUZZLE.encode() + b"\n\x89PNG\r\n\x1a\n")
    status, out, err = run("sudoku", "solve", "-f", str(path), "-q")
    assert status == 2
    assert out.splitlines() == [  # each line in its place, read ahead or not
        "# line 1: not UTF-8 text",
        SOLUTION,
        "# line 3: not UTF-8 text",
        "# line 4: unsupported size 1x1 (1 cells); supported: 4x4, 9x9, 16x16, 25x25",
    ]
    assert "Traceback" not in err
    assert "lazyfun: line 1: not UTF-8 text" in err.splitlines()


@pytest.mark.parametrize("command", ["solve", "canon"])
def test_an_empty_file_is_an_error_not_a_silent_success(tmp_path: Path, command: str) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("\n# only a comment\n\n")
    status, out, err = run("sudoku", command, "-f", str(path))
    assert status == 2
    assert out == ""
    assert "no puzzles in the input" in err


def test_a_missing_file_is_one_line() -> None:
    status, _, err = run("sudoku", "solve", "-f", "/no/such/file.txt")
    assert status == 2
    assert one_line_error(err) == "lazyfun: /no/such/file.txt: no such file"


# --- sizes out of range -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["queens", "--", "-3"], "rows must be a whole number >= 0, got -3"),
        (["queens", "8", "--", "-1"], "cols must be a whole number >= 0, got -1"),
        (["queens", "8", "--limit", "-1"], "--limit must be >= 0"),
        (["queens", "5000", "--strategy", "mrv", "-n", "1"], "2,000"),
        (["queens", "40", "--count"], "--force to try"),
        (["queens", "8", "--jobs", "2"], "--jobs and --scheduler go with --count"),
        (["study", "queens", "--to", "40"], "--to"),
        (["study", "sudoku", "--to", "60"], "--to <= 6"),
        (["study", "learning", "--model", "golomb 99"], "no model 'golomb 99': --model takes"),
        (["sudoku", "generate", "--size", "36"], "'36' is not one of '4', '9', '16', '25'"),
        (["sudoku", "generate", "-n", "-5"], "--number must be at least 1"),
    ],
)
def test_sizes_out_of_range_are_refused_at_once(args: list[str], message: str) -> None:
    status, _, err = run(*args)
    assert status == 2
    assert message in one_line_error(err)  # the refusal, said before any work starts


def test_zero_sized_boards_answer() -> None:
    assert run("queens", "0") == (0, "\n", "")
    assert run("queens", "3", "0", "--count") == (0, "1\n", "")
    assert run("queens", "3", "--count") == (0, "0\n", "")


# --- long searches show that they are working -------------------------------------------


def test_status_line_off_a_terminal_is_a_plain_line_every_period(
    capsys: pytest.CaptureFixture[str],
) -> None:
    meter = Meter("queens placed")
    with Status(meter, hint="--strategy mrv finds one at once", after=0, quiet_for=0, every=0.05):
        meter.add(4096)
        time.sleep(0.3)
    err = capsys.readouterr().err.splitlines()
    assert len(err) >= 2
    assert all(line.startswith("lazyfun: searching: ") for line in err)
    assert all(line.endswith("; --strategy mrv finds one at once") for line in err)
    assert err[-1].startswith("lazyfun: searching: 4,096 queens placed (")


def test_status_line_stays_quiet_for_a_short_search(capsys: pytest.CaptureFixture[str]) -> None:
    with Status(Meter(), quiet_for=5) as status:
        status.emit("done")
    out, err = capsys.readouterr()
    assert (out, err) == ("done\n", "")


def test_a_big_lexicographic_search_points_to_the_strategy_that_finishes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hints: list[str] = []

    class Spy(Status):
        def __init__(self, meter: Meter, *, hint: str = "") -> None:
            hints.append(hint)
            super().__init__(meter, hint=hint)

    monkeypatch.setattr(cli_queens, "Status", Spy)
    assert run("queens", str(cli_queens.WANDERS_FROM), "-n", "0")[0] == 0
    assert run("queens", "8", "-n", "0")[0] == 0
    assert run("queens", "3000", "-n", "0")[0] == 0
    assert "--strategy mrv finds a first placement at once" in hints[0]
    assert hints[1] == ""
    assert hints[2] == "no search here finishes soon on a board this big"
