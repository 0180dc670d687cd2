"""Input as users give it: a FIFO, ``<(command)``, ``/dev/stdin``, a file a Windows editor
wrote (with a byte-order mark): every readable path is read as a stream, line by line."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lazyfun.cli import app
from lazyfun.cli.output import Source
from tests.children import running
from tests.datafiles import DATA
from tests.puzzles import PUZZLES, SOLUTIONS

LAZYFUN = [sys.executable, "-m", "lazyfun"]


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def _open_for_writing(fifo: Path, seconds: float = 30) -> int:
    """The FIFO opened for writing once a reader has opened it (at most ``seconds``: a
    reader that never opens it fails the test instead of hanging it)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as error:  # ENXIO: no reader yet
            if error.errno != errno.ENXIO or time.monotonic() > deadline:
                raise
            time.sleep(0.02)
            continue
        os.set_blocking(fd, True)
        return fd


def _writer(path: Path, text: str) -> threading.Thread:
    """A thread that writes to the FIFO once it is opened for reading."""

    def write() -> None:
        try:
            fd = _open_for_writing(path, seconds=10)
        except OSError:
            return  # no reader came: the test's assertions say what the command did
        with open(fd, "w") as f:
            f.write(text)

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


# --- a FIFO, a pipe, /dev/stdin -------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_read_as_a_stream(tmp_path: Path) -> None:
    fifo = tmp_path / "puzzles"
    os.mkfifo(fifo)
    writer = _writer(fifo, "".join(line + "\n" for line in PUZZLES[:3]))
    code, out, err = run("sudoku", "solve", "-f", str(fifo))  # not quiet: no count of its lines
    writer.join(timeout=10)
    assert (code, out.splitlines()) == (0, SOLUTIONS[:3]), err
    assert "lazyfun: 3 solved in " in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_convert_reads_a_fifo_too(tmp_path: Path) -> None:
    fifo = tmp_path / "puzzles"
    os.mkfifo(fifo)
    writer = _writer(fifo, PUZZLES[0] + "\n")
    code, out, err = run("sudoku", "convert", "-q", "-f", str(fifo), "--to", "81")
    writer.join(timeout=10)
    assert (code, out.strip()) == (0, PUZZLES[0].replace(".", "0")), err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_answered_line_by_line_before_it_ends(tmp_path: Path) -> None:
    """The second line is written only once the first is answered: a reader that waited
    for the end (or sized the file) would never answer."""
    fifo = tmp_path / "puzzles"
    os.mkfifo(fifo)
    command = [*LAZYFUN, "sudoku", "solve", "-q", "-f", str(fifo)]
    with running(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as p:
        assert p.stdout is not None
        try:
            with open(_open_for_writing(fifo), "w") as f:
                f.write(PUZZLES[0] + "\n")
                f.flush()
                first = p.stdout.readline().strip()
                f.write(PUZZLES[1] + "\n")
            rest, err = p.communicate(timeout=60)
        finally:
            p.kill()
    assert first == SOLUTIONS[0], err
    assert (p.returncode, rest.split()) == (0, [SOLUTIONS[1]])


def test_dev_stdin_is_read_as_a_stream() -> None:
    text = "".join(line + "\n" for line in PUZZLES[:2])
    for name in ("/dev/stdin", "-"):
        done = subprocess.run(
            [*LAZYFUN, "sudoku", "solve", "-f", name],
            input=text,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert (done.returncode, done.stdout.split()) == (0, SOLUTIONS[:2]), done.stderr
        assert "no such file" not in done.stderr


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash for <(...)")
def test_process_substitution_is_read(tmp_path: Path) -> None:
    data = tmp_path / "puzzles.txt"
    data.write_text("".join(line + "\n" for line in PUZZLES))
    script = 'exec "$@" -f <(head -3 "$DATA")'
    done = subprocess.run(
        ["bash", "-c", script, "bash", *LAZYFUN, "sudoku", "solve", "-q"],
        env={**os.environ, "DATA": str(data)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stdout.split()) == (0, SOLUTIONS[:3]), done.stderr


def test_what_cannot_be_read_is_one_line(tmp_path: Path) -> None:
    code, out, err = run("sudoku", "solve", "-f", str(tmp_path / "missing.txt"))
    assert (code, out) == (2, "")
    assert err.strip() == f"lazyfun: {tmp_path / 'missing.txt'}: no such file"
    code, out, err = run("sudoku", "solve", "-f", str(tmp_path))
    assert (code, out) == (2, "")
    assert err.strip() == f"lazyfun: {tmp_path}: a directory, not a file of puzzles"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_variant_file_may_be_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "variants.jsonl"
    os.mkfifo(fifo)
    lines = (DATA / "variants" / "x.jsonl").read_text().splitlines()[:2]
    writer = _writer(fifo, "\n".join(lines) + "\n")
    code, out, err = run("sudoku", "solve", "-q", "--variant", str(fifo))
    writer.join(timeout=10)
    assert (code, len(out.split())) == (0, 2), err


# --- a byte-order mark -------------------------------------------------------------------

BOM = "\ufeff".encode()


def test_a_file_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = tmp_path / "windows.txt"
    path.write_bytes(BOM + "".join(line + "\r\n" for line in PUZZLES[:2]).encode())
    code, out, err = run("sudoku", "solve", "-f", str(path))
    assert (code, out.split()) == (0, SOLUTIONS[:2]), err
    assert "line 1" not in err
    code, out, err = run("sudoku", "solve", "-", stdin=(BOM + path.read_bytes()[3:]).decode())
    assert (code, out.split()) == (0, SOLUTIONS[:2]), err
    code, out, err = run("sudoku", "convert", "-f", str(path))
    assert (code, out.split()) == (0, [p.replace(".", "0") for p in PUZZLES[:2]]), err


def test_a_grid_file_with_a_byte_order_mark_keeps_its_metadata(tmp_path: Path) -> None:
    sdk = DATA / "samples.sdk"
    path = tmp_path / "windows.sdk"
    path.write_bytes(BOM + sdk.read_bytes())
    code, out, err = run("sudoku", "convert", "-f", str(path), "--to", "sdk")
    assert (code, out) == run("sudoku", "convert", "-f", str(sdk), "--to", "sdk")[:2], err


def test_a_variant_file_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    lines = (DATA / "variants" / "killer.jsonl").read_text().splitlines()[:2]
    pretty = tmp_path / "one.json"
    pretty.write_bytes(BOM + json.dumps(json.loads(lines[0]), indent=2).encode())
    several = tmp_path / "two.jsonl"
    several.write_bytes(BOM + "\n".join(lines).encode())
    code, out, err = run(
        "sudoku", "solve", "-q", "--variant", str(pretty), "--variant", str(several)
    )
    assert (code, len(out.split())) == (0, 3), err
    code, out, err = run("sudoku", "solve", "-q", "-f", str(several))
    assert (code, len(out.split())) == (0, 2), err


def test_the_source_reads_its_first_line_without_the_mark(tmp_path: Path) -> None:
    marked = tmp_path / "marked.txt"
    marked.write_bytes(BOM + b"1...\n" + BOM + b"2...\n")
    problems: list[tuple[int, str]] = []
    lines = Source(None, str(marked)).lines(lambda n, m: problems.append((n, m)))
    assert list(lines) == ["1...", "\ufeff2..."]  # only a file's start is its mark
    assert problems == []


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".xz"])
def test_a_compressed_file_is_read_as_it_is_decompressed(tmp_path: Path, suffix: str) -> None:
    """-f reads through lazyfun.io's read_lines: compression by the file's suffix."""
    import bz2
    import gzip
    import lzma

    packers: dict[str, Callable[[bytes], bytes]] = {
        ".gz": gzip.compress,
        ".bz2": bz2.compress,
        ".xz": lzma.compress,
    }
    packed = packers[suffix]
    puzzles = tmp_path / f"top95{suffix}"
    puzzles.write_bytes(packed(("\n".join(PUZZLES[:3]) + "\n").encode()))
    code, out, err = run("sudoku", "solve", "-q", "-f", str(puzzles))
    assert code == 0, err
    assert out.split() == SOLUTIONS[:3]
