"""``lazyfun sudoku solve|canon``: streaming, formats, errors that lose nothing, exit codes."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lazyfun.cli import app
from lazyfun.sudoku import parse, solve
from lazyfun.sudoku.canon import minlex, random_transform
from tests.children import running
from tests.puzzles import HARD, NO_SOLUTION, PUZZLES, SOLUTIONS

EMPTY_4X4 = "0" * 16
ALL_SIZES = "expected 81 cells (9x9), or 16 (4x4), 256 (16x16) or 625 (25x25)"
LAZYFUN = [sys.executable, "-m", "lazyfun"]


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def mixed_file(tmp_path: Path) -> Path:
    """Two good puzzles, a comment, a blank line, a short line and an impossible puzzle."""
    path = tmp_path / "mixed.txt"
    path.write_text(
        f"# a comment\n{PUZZLES[0]}\n\n{PUZZLES[1]}\n{PUZZLES[2][:80]}\n"
        f"{NO_SOLUTION}\n{PUZZLES[2]}\n"
    )
    return path


# --- solve -------------------------------------------------------------------------


def test_solve_arguments_one_line_each() -> None:
    code, out, err = run("sudoku", "solve", PUZZLES[0], PUZZLES[1])
    assert code == 0
    assert out.splitlines() == SOLUTIONS[:2]
    assert err.startswith("lazyfun: 2 solved in ")


def test_a_bad_line_is_reported_and_the_good_ones_still_solved(mixed_file: Path) -> None:
    code, out, err = run("sudoku", "solve", "-f", str(mixed_file))
    assert out.splitlines() == [
        SOLUTIONS[0],
        SOLUTIONS[1],
        "# line 5: expected 81 cells (9x9), got 80",
        "# line 6: no solution",
        SOLUTIONS[2],
    ]
    assert "lazyfun: line 5: expected 81 cells (9x9), got 80" in err
    assert "lazyfun: line 6: no solution" in err
    assert "3 solved, 1 without solution, 1 invalid" in err
    assert code == 2
    assert "Traceback" not in err


def test_a_line_of_no_size_is_told_the_sizes_9x9_first() -> None:
    """Not "expected 16 cells" (the nearest count) for what a reader of 9x9 typed."""
    code, _, err = run("sudoku", "solve", "-", stdin="hello world\n" + PUZZLES[0][:79] + "\n")
    assert err.splitlines()[:2] == [
        "lazyfun: line 1: expected 81 cells (9x9), or 16 (4x4), 256 (16x16) or 625 (25x25), got 11",
        "lazyfun: line 2: expected 81 cells (9x9), got 79",
    ]
    assert code == 2


def test_no_solution_exits_1_and_json_says_null() -> None:
    code, out, err = run("sudoku", "solve", "--format", "json", PUZZLES[0], NO_SOLUTION)
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["line"] for r in records] == [1, 2]
    assert records[0]["solution"] == SOLUTIONS[0]
    assert records[0]["puzzle"] == PUZZLES[0]
    assert records[1]["solution"] is None
    assert all(r["ms"] >= 0 for r in records)
    assert code == 1
    assert "argument 2: no solution" in err


def test_all_with_limit_streams_solutions_in_order() -> None:
    code, out, _ = run("sudoku", "solve", "--all", "--limit", "5", EMPTY_4X4)
    assert code == 0
    expected = [str(g) for _, g in zip(range(5), solve(parse(EMPTY_4X4)), strict=False)]
    assert out.splitlines() == expected


def test_count_with_limit_as_a_cap() -> None:
    assert run("sudoku", "solve", "--count", EMPTY_4X4)[1] == "288\n"
    assert run("sudoku", "solve", "--count", "--limit", "100", EMPTY_4X4)[1] == "≥ 100\n"
    assert run("sudoku", "solve", "--count", "--limit", "300", EMPTY_4X4)[1] == "288\n"
    capped = run("sudoku", "solve", "--count", "--limit", "100", "--format", "json", EMPTY_4X4)
    assert (json.loads(capped[1])["count"], json.loads(capped[1])["capped"]) == (100, True)
    code, out, _ = run("sudoku", "solve", "--count", "--format", "json", NO_SOLUTION)
    assert json.loads(out)["count"] == 0
    assert code == 0


def test_unique() -> None:
    code, out, err = run("sudoku", "solve", "--unique", PUZZLES[0], EMPTY_4X4, NO_SOLUTION, "12")
    assert out.splitlines() == ["unique", "multiple", "none", f"# argument 4: {ALL_SIZES}, got 2"]
    assert "lazyfun: argument 2: more than one solution" in err.splitlines()
    assert "lazyfun: argument 3: no solution" in err.splitlines()
    assert "1 solved, 1 without solution, 1 with more than one solution, 1 invalid" in err
    assert code == 2


def test_grid_format_draws_boxes() -> None:
    _, out, _ = run("sudoku", "solve", "--first", "--format", "grid", "1.....1..1.....1")
    assert out.splitlines()[:3] == ["1 2 | 3 4", "3 4 | 1 2", "----+----"]


@pytest.mark.parametrize("method", ["engine", "search", "pruned", "naive", "csp"])
def test_every_method_gives_the_same_solutions(method: str) -> None:
    puzzle = "12343412" + "." * 8  # the bottom band blank: 4^8 candidates, several solutions
    code, out, _ = run("sudoku", "solve", "--all", "--method", method, puzzle)
    assert code == 0
    assert sorted(out.splitlines()) == sorted(str(g) for g in solve(parse(puzzle)))


def test_birds_specification_refuses_big_inputs_unless_forced() -> None:
    code, out, err = run("sudoku", "solve", "--method", "naive", PUZZLES[0])
    assert code == 2
    assert out.startswith("# argument 1: naive would stream 9^64") and out.count("\n") == 1
    assert "naive would stream 9^64" in err
    assert "use --force" in err
    three_blanks = "0" * 3 + SOLUTIONS[0][3:]
    code, out, _ = run("sudoku", "solve", "--method", "naive", three_blanks)
    assert (code, out.strip()) == (0, SOLUTIONS[0])


def test_force_runs_what_would_be_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("lazyfun.runs.batch.CANDIDATE_LIMIT", 10)
    puzzle = "0" * 3 + SOLUTIONS[0][3:]
    assert run("sudoku", "solve", "--method", "naive", puzzle)[0] == 2
    code, out, _ = run("sudoku", "solve", "--method", "naive", "--force", puzzle)
    assert (code, out.strip()) == (0, SOLUTIONS[0])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--format", "xml", EMPTY_4X4], "'xml' is not one of 'line', 'grid', 'json'"),
        (["--method", "magic", EMPTY_4X4], "Invalid value for '--method'"),
        (["--limit", "0", EMPTY_4X4], "--limit must be at least 1"),
        (["--all", "--count", EMPTY_4X4], "at most one of"),
        (["-f", "/no/such/file"], "no such file"),
    ],
)
def test_usage_errors_are_one_line(args: list[str], message: str) -> None:
    code, out, err = run("sudoku", "solve", *args)
    assert code == 2
    assert out == ""
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_quiet_prints_no_summary() -> None:
    code, _, err = run("sudoku", "solve", "-q", PUZZLES[0])
    assert (code, err) == (0, "")


def test_stdin_with_dash() -> None:
    code, out, _ = run("sudoku", "solve", "-", stdin=f"{PUZZLES[0]}\n{PUZZLES[1]}\n")
    assert code == 0
    assert out.splitlines() == SOLUTIONS[:2]


# --- canon -------------------------------------------------------------------------


def test_canon_keeps_input_order_and_reports_bad_lines(mixed_file: Path) -> None:
    code, out, err = run("sudoku", "canon", "-f", str(mixed_file))
    expected = [str(minlex(parse(p))) for p in (PUZZLES[0], PUZZLES[1], NO_SOLUTION, PUZZLES[2])]
    expected.insert(2, "# line 5: expected 81 cells (9x9), got 80")
    assert out.splitlines() == expected
    assert "line 5: expected 81 cells (9x9), got 80" in err
    assert code == 2


def test_canon_json_and_equivalent_inputs() -> None:
    moved = str(random_transform(parse(PUZZLES[0]), random.Random(2)))
    assert moved != PUZZLES[0]
    code, out, _ = run("sudoku", "canon", "--format", "json", PUZZLES[0], moved)
    a, b = (json.loads(line) for line in out.splitlines())
    assert a["minlex"] == b["minlex"] == str(minlex(parse(PUZZLES[0])))
    assert code == 0


def test_canon_conflicting_givens_are_invalid() -> None:
    code, out, err = run("sudoku", "canon", "55" + "0" * 79)
    assert (code, out) == (2, "# argument 1: givens conflict: r1c1 and r1c2 are both 5\n")
    assert "lazyfun: argument 1: givens conflict: r1c1 and r1c2 are both 5" in err


# --- one line a puzzle: rate, canon, solve and convert keep a failed line's place -----

MIXED = [  # each input line, and whether it gets a result
    ("# a comment", None),
    (PUZZLES[0], True),
    ("", None),
    ("hello world", False),
    (PUZZLES[1], True),
    ("?" + "0" * 80, False),
    (PUZZLES[2], True),
]


@pytest.mark.parametrize(
    ("command", "args"),
    [("solve", []), ("solve", ["--first"]), ("canon", []), ("rate", []), ("convert", [])],
)
def test_each_puzzle_gets_its_line_and_a_failed_one_is_marked_in_its_place(
    tmp_path: Path, command: str, args: list[str]
) -> None:
    path = tmp_path / "mixed.txt"
    path.write_text("".join(line + "\n" for line, _ in MIXED))
    code, out, err = run("sudoku", command, "-f", str(path), *args)
    puzzles = [(n, done) for n, (_, done) in enumerate(MIXED, 1) if done is not None]
    lines = out.splitlines()
    assert len(lines) == len(puzzles)  # one output line a puzzle, none for blanks and comments
    problems = [e.removeprefix("lazyfun: ") for e in err.splitlines()[:-1]]
    assert [x for x in lines if x.startswith("#")] == [f"# {e}" for e in problems]
    for line, (number, done) in zip(lines, puzzles, strict=True):
        assert line.startswith((f"# line {number}: ", f"# line {number}, ")) != done, line
    assert code == 2 and "3 " in err.splitlines()[-1] and "2 invalid" in err.splitlines()[-1]


def test_the_marks_are_comments_that_a_second_command_skips_keeping_the_numbering(
    tmp_path: Path,
) -> None:
    path = tmp_path / "mixed.txt"
    path.write_text("".join(line + "\n" for line, _ in MIXED))
    _, canonical, _ = run("sudoku", "canon", "-f", str(path), "-q")
    code, out, err = run("sudoku", "solve", "-", "-q", stdin=canonical)
    assert code == 0 and err == ""  # the marks are read as comments
    assert [x.startswith("#") for x in out.splitlines()] == [False, False, False]


def test_a_mark_waits_for_the_answers_before_it_on_workers(tmp_path: Path) -> None:
    """Workers read a partition ahead: an unreadable line is met before the answers to the
    lines above it, and its mark still comes after them."""
    path = tmp_path / "mixed.bin"
    text = f"{PUZZLES[0]}\n{PUZZLES[1]}\n".encode() + b"\xff\n" + f"{PUZZLES[2]}\n".encode()
    path.write_bytes(text)
    expected = [*SOLUTIONS[:2], "# line 3: not UTF-8 text", SOLUTIONS[2]]
    for args in ([], ["--scheduler", "sync"]):
        code, out, _ = run("sudoku", "solve", "-f", str(path), "-q", *args)
        assert (code, out.splitlines()) == (2, expected), args


@pytest.mark.parametrize("fmt", ["json", "grid"])
def test_only_the_line_format_is_marked(fmt: str) -> None:
    code, out, err = run("sudoku", "solve", "--format", fmt, PUZZLES[0], "12")
    assert code == 2 and "argument 2" in err
    assert "#" not in out


def test_sdk_and_ss_write_no_mark_for_they_take_lines_a_puzzle() -> None:
    code, out, _ = run("sudoku", "solve", "--to", "sdk", PUZZLES[0], "12")
    assert code == 2 and "#" not in out and parse(out) == parse(SOLUTIONS[0])


def test_rate_says_the_same_on_the_line_and_in_the_summary() -> None:
    """A grid with several solutions is not "without solution" in the summary."""
    code, out, err = run("sudoku", "rate", "0" * 81)
    assert out == "# argument 1: more than one solution: no rating\n"
    problem, summary = err.splitlines()
    assert problem == "lazyfun: argument 1: more than one solution: no rating"
    assert summary.startswith("lazyfun: 0 rated, 1 with more than one solution in ")
    assert code == 1
    code, out, err = run("sudoku", "rate", NO_SOLUTION)
    assert out == "# argument 1: no solution: nothing to rate\n"
    problem, summary = err.splitlines()
    assert problem == "lazyfun: argument 1: no solution: nothing to rate"
    assert summary.startswith("lazyfun: 0 rated, 1 without solution in ")
    assert code == 1


# --- real processes: pipes, stdin, signals, memory ----------------------------------


def test_results_reach_a_pipe_before_the_input_ends() -> None:
    with running(
        [*LAZYFUN, "sudoku", "solve", "-", "-q"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(PUZZLES[0] + "\n")
        proc.stdin.flush()
        assert proc.stdout.readline().strip() == SOLUTIONS[0]  # stdin still open
        proc.stdin.write(PUZZLES[1] + "\n")
        proc.stdin.close()
        assert proc.stdout.read().strip() == SOLUTIONS[1]
        assert proc.wait(timeout=30) == 0


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    path = tmp_path / "many.txt"
    path.write_text((PUZZLES[0] + "\n") * 2000)
    shell = f"{sys.executable} -m lazyfun sudoku solve -q -f {path} | head -1"
    proc = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == SOLUTIONS[0]
    assert proc.stderr == ""


def test_ctrl_c_flushes_what_was_done_and_exits_130(tmp_path: Path) -> None:
    path = tmp_path / "hard.txt"
    path.write_text("\n".join(HARD * 1400) + "\n")
    with running(
        [*LAZYFUN, "sudoku", "solve", "-f", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        first = proc.stdout.readline()
        proc.send_signal(signal.SIGINT)
        rest = proc.stdout.read()
        err = proc.stderr.read()
        assert proc.wait(timeout=30) == 130
    assert len(first.strip()) == 81
    assert all(len(line) == 81 for line in rest.splitlines())
    assert "(interrupted)" in err
    assert "Traceback" not in err


def _max_rss_kib(path: Path) -> int:
    code = (
        "import resource, subprocess, sys;"
        f"subprocess.run({[*LAZYFUN, 'sudoku', 'solve', '--first', '-q', '-f', str(path)]!r},"
        " stdout=subprocess.DEVNULL, check=True);"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(out.stdout)


def test_a_40000_line_file_streams_in_constant_memory(tmp_path: Path) -> None:
    """Held whole, the 40,000 lines alone would take some 2.9 MiB; the peak grows by
    less than half that over a 1,000-line file (it moves by a few hundred KiB)."""
    rng = random.Random(1)
    solution = "1234341221434321"
    lines = []
    for _ in range(40_000):
        cells = list(solution)
        for k in rng.sample(range(16), 10):
            cells[k] = "."
        lines.append("".join(cells))
    big, small = tmp_path / "big.txt", tmp_path / "small.txt"
    big.write_text("\n".join(lines) + "\n")
    small.write_text("\n".join(lines[:1000]) + "\n")
    assert _max_rss_kib(big) < _max_rss_kib(small) + 1536


def test_python_dash_m_runs_the_same_command() -> None:
    proc = subprocess.run([*LAZYFUN, "sudoku", "canon", PUZZLES[0]], capture_output=True, text=True)
    assert proc.returncode == 0
    assert proc.stdout.strip() == str(minlex(parse(PUZZLES[0])))


# --- one solution, checked ----------------------------------------------------------


@pytest.fixture
def several_file(tmp_path: Path) -> Path:
    """A good puzzle, one with 288 solutions, and another good one."""
    path = tmp_path / "several.txt"
    path.write_text(f"{PUZZLES[0]}\n{EMPTY_4X4}\n{PUZZLES[1]}\n")
    return path


def test_solve_says_when_a_puzzle_has_more_than_one_solution(several_file: Path) -> None:
    code, out, err = run("sudoku", "solve", "-f", str(several_file))
    # none of the 288 is printed: the line says why in its place
    assert out.splitlines() == [
        SOLUTIONS[0],
        "# line 2: more than one solution",
        SOLUTIONS[1],
    ]
    assert "lazyfun: line 2: more than one solution" in err.splitlines()
    assert "2 solved, 1 with more than one solution" in err
    assert code == 1


def test_json_says_why_a_puzzle_has_no_solution_printed(several_file: Path) -> None:
    code, out, _ = run("sudoku", "solve", "-f", str(several_file), "--format", "json")
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["solution"] for r in records] == [SOLUTIONS[0], None, SOLUTIONS[1]]
    assert [r.get("problem") for r in records] == [None, "more than one solution", None]
    assert code == 1


def test_first_prints_the_first_solution_without_the_check(several_file: Path) -> None:
    code, out, err = run("sudoku", "solve", "-f", str(several_file), "--first")
    first = str(next(solve(parse(EMPTY_4X4))))
    assert (code, out.split()) == (0, [SOLUTIONS[0], first, SOLUTIONS[1]])
    assert "more than one" not in err and "3 solved" in err


def test_all_and_count_are_as_they_were(several_file: Path) -> None:
    assert run("sudoku", "solve", "--count", EMPTY_4X4)[:2] == (0, "288\n")
    code, out, _ = run("sudoku", "solve", "--all", "-f", str(several_file))
    assert (code, len(out.split())) == (0, 290)
    code, _, err = run("sudoku", "solve", "--first", "--all", EMPTY_4X4)
    assert code == 2 and "choose at most one of --all, --count, --unique and --first" in err


@pytest.mark.parametrize("args", [[], ["--first"], ["--format", "json"]])
def test_the_check_is_the_same_on_workers(several_file: Path, args: list[str]) -> None:
    sequential = run("sudoku", "solve", "-q", "-f", str(several_file), *args)
    synced = run("sudoku", "solve", "-q", "-f", str(several_file), *args, "--scheduler", "sync")
    strip = [
        {k: v for k, v in json.loads(x).items() if k != "ms"} if x.startswith("{") else x
        for x in sequential[1].splitlines()
    ]
    assert [
        {k: v for k, v in json.loads(x).items() if k != "ms"} if x.startswith("{") else x
        for x in synced[1].splitlines()
    ] == strip
    assert synced[0] == sequential[0] == (0 if args == ["--first"] else 1)
    assert synced[2] == sequential[2]


# --- --jobs and --scheduler: the same output from dask -------------------------------


def test_parallel_solve_writes_what_the_sequential_run_writes(mixed_file: Path) -> None:
    pytest.importorskip("distributed")
    sequential = run("sudoku", "solve", "-f", str(mixed_file), "--format", "json")
    parallel = run("sudoku", "solve", "-f", str(mixed_file), "--format", "json", "--jobs", "2")
    strip = [
        {k: v for k, v in json.loads(x).items() if k != "ms"} for x in sequential[1].splitlines()
    ]
    assert [
        {k: v for k, v in json.loads(x).items() if k != "ms"} for x in parallel[1].splitlines()
    ] == strip
    assert parallel[0] == sequential[0] == 2
    assert "line 5: expected 81 cells (9x9), got 80" in parallel[2]


@pytest.mark.parametrize(
    "args",
    [["--count"], ["--unique"], ["--format", "grid"], []],
)
def test_sync_scheduler_matches_one_process(mixed_file: Path, args: list[str]) -> None:
    sequential = run("sudoku", "solve", "-f", str(mixed_file), *args)
    synced = run("sudoku", "solve", "-f", str(mixed_file), *args, "--scheduler", "sync")
    assert synced[:2] == sequential[:2]


def test_parallel_canon_and_queens_count() -> None:
    code, out, _ = run("sudoku", "canon", PUZZLES[0], PUZZLES[1], "--scheduler", "sync")
    assert out.split() == [str(minlex(parse(p))) for p in PUZZLES[:2]]
    assert code == 0
    assert run("queens", "10", "--count", "--scheduler", "sync")[1] == "724\n"


def test_parallel_refusals() -> None:
    code, _, err = run("sudoku", "solve", "--all", "--jobs", "2", EMPTY_4X4)
    assert code == 2
    assert "--all streams from one process" in err
    code, _, err = run("queens", "8", "--jobs", "2")
    assert (code, err.strip()) == (2, "lazyfun: --jobs and --scheduler go with --count")


def test_with_a_terminal_on_stderr_results_still_go_to_stdout(tmp_path: Path) -> None:
    """The progress bar draws on a terminal; the results must not be drawn through it."""
    import pty

    path = tmp_path / "twenty.txt"
    path.write_text("\n".join(PUZZLES) + "\n")
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [*LAZYFUN, "sudoku", "solve", "-f", str(path)],
        stdout=subprocess.PIPE,
        stderr=slave,
        text=True,
    )
    os.close(slave)
    out, _ = proc.communicate(timeout=60)
    terminal = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        terminal += chunk
    os.close(master)
    assert proc.returncode == 0
    assert out.splitlines() == SOLUTIONS
    assert b"20 solved" in terminal
    assert SOLUTIONS[0].encode() not in terminal
