"""What every command shares: reading input safely, the exit protocol, one progress
bar, one renderer for answers with the tally of a batch, and a live status line for
long searches.

Results go to stdout, one per line, flushed as they are found.  Problems,
progress and summaries go to stderr; in line format a puzzle that got no result
keeps its place on stdout too, with a line ``# line N: the problem`` (a comment
to every reader of puzzles), so that each output line belongs to one input puzzle.
The exit protocol (:func:`exit_protocol`) is the same for every command: a user
error is one line and exit status 2, never a traceback; Ctrl-C flushes what was
done and exits with 130; a closed pipe downstream ends the command quietly with 0.
"""

from __future__ import annotations

import bisect
import json
import os
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Literal

import typer

from lazyfun import RecordError
from lazyfun.runs.batch import MORE_THAN_ONE, Answer
from lazyfun.sudoku.board.formats import Target, split, write
from lazyfun.trace import Meter

if TYPE_CHECKING:
    from lazyfun.cli.bar import Bar

__all__ = [
    "EXIT_INTERRUPTED",
    "EXIT_INVALID",
    "EXIT_UNSOLVED",
    "LABELS",
    "MAX_LINE",
    "MULTI_LINE",
    "Format",
    "Report",
    "Source",
    "Status",
    "bar",
    "exit_protocol",
    "fail",
    "readable",
    "silence_stdout",
]

EXIT_INVALID, EXIT_UNSOLVED, EXIT_INTERRUPTED = 2, 1, 130
# The longest line read as a puzzle (a 25x25 grid is 625 characters); a longer
# one is skipped without being held in memory, and reported.
MAX_LINE = 65_536

Format = Literal["line", "grid", "json"]
# The formats --to writes on several lines a puzzle: no one line per puzzle to keep.
MULTI_LINE: tuple[Target, ...] = ("sdk", "ss")
# What a tally counts, as the summary names it and as each line's problem says it.
LABELS = {
    "unsolved": "without solution",
    "multiple": "with more than one solution",
    "refused": "refused",
    "invalid": "invalid",
}


def fail(message: str) -> typer.Exit:
    """Print ``lazyfun: message`` on stderr; the exit (status 2) for the caller to raise."""
    typer.echo(f"lazyfun: {message}", err=True)
    return typer.Exit(EXIT_INVALID)


@contextmanager
def exit_protocol(
    *user_errors: type[Exception], interrupted: Callable[[], int] | None = None
) -> Iterator[None]:
    """Run a command's body under the one exit protocol of every command.

    An exception of ``user_errors`` (a program's own error type: the input is
    at fault) prints one line and exits with status 2.  Ctrl-C flushes stdout
    and exits with ``interrupted()`` (a batch prints its summary there) or 130.
    A closed pipe downstream (``| head``) ends the command quietly, status 0.
    """
    try:
        yield
    except user_errors as error:
        raise fail(str(error)) from None
    except KeyboardInterrupt:
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            silence_stdout()
        raise typer.Exit(interrupted() if interrupted else EXIT_INTERRUPTED) from None
    except BrokenPipeError:
        silence_stdout()
        raise typer.Exit(0) from None


def write_document(text: str, path: Path | None, what: str) -> None:
    """A page or a picture to ``path`` (saying so on stderr), or to stdout without one.
    A file that cannot be written is a user error: one line, status 2."""
    if path is None or str(path) == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise fail(f"cannot write {what} to {path}: {error.strerror}") from None
    typer.echo(f"{what} written to {path}", err=True)


# --- input ---------------------------------------------------------------------------


class Source:
    """Where puzzles come from: arguments, a file, or stdin; and how to name a line of it."""

    def __init__(self, puzzles: list[str] | None, file: str | None) -> None:
        if file is not None and puzzles:
            raise fail("give puzzles as arguments or with --file, not both")
        self.arguments = bool(puzzles) and puzzles != ["-"]
        self.puzzles = puzzles or []
        self.path: Path | None = None
        self.stdin = file == "-" or puzzles == ["-"]
        if file is not None and not self.stdin:
            self.path = readable(file)
        if not (self.arguments or self.stdin or self.path):
            if sys.stdin.isatty():
                raise fail("no puzzles: give them as arguments, with --file FILE, or '-' for stdin")
            self.stdin = True

    def place(self, line: int, column: int | None = None) -> str:
        """``line 17`` (or ``argument 2``), with the column when known."""
        where = f"{'argument' if self.arguments else 'line'} {line}"
        return where + (f", column {column}" if column else "")

    def total(self) -> int | None:
        """How many puzzle lines there are, when it is cheap to know (not for stdin)."""
        if self.arguments:
            return len(self.puzzles)
        if self.path is None or not self.path.is_file():
            return None  # a pipe, a FIFO, /dev/stdin: read once, as it comes
        from lazyfun.io import read_lines  # the Stream, only when a file is read

        lines = read_lines(self.path, longest=MAX_LINE)
        return sum(1 for _ in split(lines.catch(RecordError, replace=lambda error: "?")))

    def lines(self, problem: Callable[[int, str], None]) -> Iterator[str]:
        """The lines, read one at a time; an unreadable line is reported and read as blank."""
        if self.arguments:
            yield from self.puzzles
            return
        if self.path is None and getattr(sys.stdin, "buffer", None) is None:
            yield from sys.stdin  # a text-only stdin (an embedding): nothing to decode
            return
        name = "-" if self.path is None else str(self.path)
        from lazyfun.io import read_lines  # the Stream, only when a file or stdin is read

        def report(error: RecordError) -> None:
            text = isinstance(error.__cause__, UnicodeDecodeError)
            problem(error.line or 0, "not UTF-8 text" if text else f"{error.reason}: not a puzzle")

        try:
            yield from read_lines(name, longest=MAX_LINE).catch(
                RecordError, do=report, replace=lambda error: ""
            )
        except OSError as error:
            raise fail(f"{name}: {error.strerror}") from None


def readable(file: str) -> Path:
    """The path of an input file, once it is known to be one that can be read: a regular
    file, or a stream such as a FIFO, ``<(command)`` or ``/dev/stdin`` (read as it
    comes, line by line: never sized, never sought).  Otherwise one line, status 2."""
    try:
        mode = os.stat(file).st_mode
    except FileNotFoundError:
        raise fail(f"{file}: no such file") from None
    except OSError as error:
        raise fail(f"{file}: {error.strerror}") from None
    if stat.S_ISDIR(mode):
        raise fail(f"{file}: a directory, not a file of puzzles")
    if not os.access(file, os.R_OK):
        raise fail(f"{file}: not readable (permission denied)")
    return Path(file)


# --- a batch: tally, progress, one renderer ------------------------------------------------


def bar(label: str, total: int | None, quiet: bool) -> Bar | None:
    """A progress bar, when stderr is a terminal and the user did not ask for quiet."""
    if quiet or not sys.stderr.isatty():
        return None
    from lazyfun.cli.bar import Bar  # rich, only when a bar is drawn

    return Bar(label, total)


class Report:
    """The bookkeeping of one batch: results to stdout, problems and a summary to stderr.

    In line format (one line a result) a puzzle that gets no result is marked in its
    place: ``# line N: problem``, the stderr line without ``lazyfun:``.  A line that
    cannot be read is met ahead of the answers before it (the reader looks a line ahead,
    workers a partition), so marks wait, in line order, for the answers to reach them.
    """

    def __init__(
        self,
        source: Source,
        fmt: Format,
        quiet: bool,
        verb: str,
        to: Target | None = None,
        limit: int | None = None,
    ) -> None:
        self.source, self.fmt, self.quiet, self.verb = source, fmt, quiet, verb
        self.to: Target | None = to
        self.limit = limit  # the cap on a count: a count that reaches it is "at least"
        self.counts = {"done": 0, "unsolved": 0, "multiple": 0, "refused": 0, "invalid": 0}
        self.marked = fmt == "line" and to not in MULTI_LINE
        self.marks: list[tuple[int, str]] = []  # (line, mark) not yet written, in line order
        self.start = time.perf_counter()
        self.bar = bar("puzzles", source.total() if not quiet else None, quiet)

    def emit(self, text: str) -> None:
        """Write one line of stdout and flush it, so a pipe downstream sees it at once."""
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    def result(self, line: int, text: str) -> None:
        """Write the result of the puzzle at ``line``, after the marks of the lines before."""
        self._marks_to(line)
        self.emit(text)

    def failed(
        self,
        line: int,
        kind: str,
        problem: str,
        column: int | None = None,
        *,
        shown: bool = False,
        ahead: bool = False,
    ) -> None:
        """A puzzle that got no result (``kind``: its tally): one line on stderr, its mark
        on stdout unless a result was ``shown`` for it (``none``, ``multiple``), and its
        tally.  ``ahead``: met while reading, ahead of the answers before it."""
        place = self.source.place(line, column)
        self.warn(f"lazyfun: {place}: {problem}")
        if self.marked and not shown:
            bisect.insort(self.marks, (line, f"# {place}: {problem}"))
            if not ahead:
                self._marks_to(line + 1)
        self.tally(kind)

    def _marks_to(self, line: int) -> None:
        """Write the marks of the lines before ``line``."""
        while self.marks and self.marks[0][0] < line:
            self.emit(self.marks.pop(0)[1])

    def warn(self, text: str) -> None:
        """One line on stderr, above the progress bar when there is one."""
        if self.bar is not None:
            self.bar.print(text)
        else:
            typer.echo(text, err=True)

    def tally(self, kind: str) -> None:
        self.counts[kind] += 1
        if self.bar is not None:
            self.bar.advance()

    def problem(self, line: int, message: str) -> None:
        """An input line that is not a puzzle at all (unreadable, too long)."""
        self.failed(line, "invalid", message, ahead=True)

    def answer(self, a: Answer) -> None:
        """Render one answer: its result on stdout (or its mark), what went wrong on
        stderr, its tally."""
        if a.kind == "invalid":
            self.failed(a.line, "invalid", a.problem or "not a puzzle", a.column)
            return
        if a.kind == "refused":
            self.failed(a.line, "refused", f"{a.problem}; use --force to try")
            return
        shown = self._shown(a)
        if shown is not None:
            self.result(a.line, shown)
        if a.index is not None and a.index > 1:
            return  # a further solution of a puzzle already tallied
        if a.solved:
            self.tally("done")
            return
        several = a.kind in ("solution", "unique") and (a.count or 0) > 1
        problem = a.problem or (MORE_THAN_ONE if several else "no solution")
        self.failed(a.line, "multiple" if several else "unsolved", problem, shown=bool(shown))

    def _shown(self, a: Answer) -> str | None:
        """The stdout text of an answer in this report's format (None: nothing to write).

        A count that reached the limit is a lower bound: ``≥ N`` (in JSON the count
        and ``"capped": true``)."""
        verdict: int | str | None = a.count
        if a.kind == "unique":
            verdict = {0: "none", 1: "unique"}.get(a.count or 0, "multiple")
        capped = a.kind == "count" and self.limit is not None and (a.count or 0) >= self.limit
        if self.fmt == "json":
            value: object = verdict if a.kind in ("count", "unique") else self._text(a)
            fields: dict[str, object] = {"line": a.line, "puzzle": a.text, a.kind: value}
            if capped:
                fields["capped"] = True
            if a.index is not None:
                fields["index"] = a.index
            if a.problem is not None:
                fields["problem"] = a.problem
            return json.dumps({**fields, "ms": round(a.ms, 3)})
        if capped:
            return f"≥ {verdict}"
        if a.kind in ("count", "unique"):
            return str(verdict)
        if a.grid is None:
            return None
        if self.fmt == "grid":
            return a.grid.pretty() + "\n"
        text = self._text(a)
        return text + "\n" if text is not None and "\n" in text else text

    def _text(self, a: Answer) -> str | None:
        """The answer's grid in the format asked for (``--to``), else its one-line form."""
        if a.grid is None:
            return None
        return str(a.grid) if self.to is None else write(a.grid, self.to)

    def finish(self, interrupted: bool = False) -> int:
        """Write the marks still waiting (not after Ctrl-C: the answers before them may
        not have come), stop the bar, print the summary line, and return the exit status."""
        if not interrupted:
            self._marks_to(sys.maxsize)
        self.stop()
        c = self.counts
        if not self.quiet:
            parts = [f"{c['done']} {self.verb}"] + [
                f"{c[kind]} {label}" for kind, label in LABELS.items() if c[kind]
            ]
            typer.echo(
                f"lazyfun: {', '.join(parts)} in {time.perf_counter() - self.start:.2f} s"
                + (" (interrupted)" if interrupted else ""),
                err=True,
            )
        if interrupted:
            return EXIT_INTERRUPTED
        if c["invalid"] or c["refused"]:
            return EXIT_INVALID
        return EXIT_UNSOLVED if c["unsolved"] or c["multiple"] else 0

    def stop(self) -> None:
        """Take the bar off the terminal (it may be stopped more than once)."""
        if self.bar is not None:
            self.bar.stop()
            self.bar = None

    def interrupted(self) -> int:
        """The summary of a run cut short by Ctrl-C, and its exit status (130)."""
        return self.finish(interrupted=True)

    def run(
        self, answers: Callable[[Iterable[str]], Iterable[Answer]], *errors: type[Exception]
    ) -> None:
        """Answer every input line, rendering as it goes; end with the summary's exit status,
        under the exit protocol (``errors``: the user errors that end the whole run)."""
        try:
            with exit_protocol(*errors, interrupted=self.interrupted):
                for a in answers(self.source.lines(self.problem)):
                    self.answer(a)
        finally:
            self.stop()
        if not sum(self.counts.values()):
            self.warn("lazyfun: no puzzles in the input (blank lines and # comments only)")
            self.finish()
            raise typer.Exit(EXIT_INVALID)
        raise typer.Exit(self.finish())


# --- a long search: a live status line ----------------------------------------------------


class Status:
    """A status line on stderr while one long search runs: work done, rate, elapsed time.

    On a terminal the line appears after ``after`` seconds and is redrawn in
    place four times a second; elsewhere (a log, a pipe) a plain line is
    written after ``quiet_for`` seconds and then every ``every`` seconds, so a
    run never looks hung.  The hint (what would finish sooner) follows the
    figures.  Results go through :meth:`emit`, which takes the line off the
    terminal before writing them to stdout.

    >>> meter = Meter("nodes")
    >>> with Status(meter, after=3600) as status:
    ...     meter.add(5)
    ...     status.emit("a result")
    a result
    >>> meter.done
    5
    """

    def __init__(
        self,
        meter: Meter,
        *,
        hint: str = "",
        after: float = 1.0,
        quiet_for: float = 10.0,
        every: float = 30.0,
    ) -> None:
        self.meter, self.hint, self.every = meter, hint, every
        self.live = sys.stderr.isatty()
        self.after = after if self.live else max(after, quiet_for)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._lock = threading.Lock()
        self._drawn = False

    def line(self) -> str:
        """The status as one line of text."""
        m = self.meter
        text = f"searching: {m.describe()}, {m.elapsed():.0f} s"
        return f"{text}; {self.hint}" if self.hint else text

    def _watch(self) -> None:
        if self._stop.wait(self.after):
            return
        period = 0.25 if self.live else self.every
        while True:
            with self._lock:
                if self.live:
                    sys.stderr.write("\r\x1b[K" + self.line())
                    self._drawn = True
                else:
                    sys.stderr.write("lazyfun: " + self.line() + "\n")
                sys.stderr.flush()
            if self._stop.wait(period):
                return

    def _clear(self) -> None:
        if self._drawn:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self._drawn = False

    def emit(self, text: str) -> None:
        """Write one result line to stdout (flushed), the status line out of its way."""
        with self._lock:
            self._clear()
            sys.stdout.write(text + "\n")
            sys.stdout.flush()

    def __enter__(self) -> Status:
        self.meter.restart()
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._thread.join()
        with self._lock:
            self._clear()


def silence_stdout() -> None:
    """After a closed pipe: send what is left of stdout nowhere, so exiting prints no error."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
