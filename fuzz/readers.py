"""The readers' fuzz targets: each takes the bytes a user might hand in, reads them as
the reader does, and lets through only the errors it promises (``PuzzleError`` for a
puzzle, ``RecordError`` for a record); anything else escapes, and atheris reports it.

Run one: ``python -m fuzz.readers TARGET fuzz/corpus/TARGET -max_total_time=60``.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from lzstring import LZString

from lazyfun.io import read_csv, read_jsonl
from lazyfun.sinks.errors import RecordError
from lazyfun.sudoku.board.formats import parse, read, read_marks, split
from lazyfun.sudoku.board.grid import PuzzleError
from lazyfun.sudoku.board.links import read_link
from lazyfun.sudoku.variants.exchange import read_puzzle, read_variant

ALLOWED: tuple[type[Exception], ...] = (PuzzleError, RecordError)
_SCRATCH = Path(tempfile.gettempdir()) / f"lazyfun-fuzz-{os.getpid()}"


def _text(data: bytes) -> str:
    """The bytes as a reader's text (what does not decode replaced, as a line of a file
    is read only once it decodes)."""
    return data.decode("utf-8", "replace")


def _allowed(read_one: Callable[[], object]) -> None:
    """``read_one()``, its promised errors let through."""
    with contextlib.suppress(*ALLOWED):
        read_one()


def puzzle_line(data: bytes) -> None:
    """One line of digits and blanks: ``parse``."""
    _allowed(lambda: parse(_text(data)))


def puzzle(data: bytes) -> None:
    """Any one puzzle text (a line, a pretty grid, 729 marks, a link): ``read``."""
    _allowed(lambda: read(_text(data)))


def puzzle_file(data: bytes) -> None:
    """A file of puzzles (.sdk, .ss, lines, grids): ``split``, then each entry read."""
    for entry in split(_text(data).splitlines()):
        _allowed(lambda text=entry.text: read(text))  # type: ignore[misc]


def marks(data: bytes) -> None:
    """A pencil-mark line (729 characters): ``read_marks``."""
    _allowed(lambda: read_marks(_text(data)))


def fpuzzles(data: bytes) -> None:
    """An f-puzzles link whose payload is the bytes as JSON text, compressed as the site
    does: ``read_link`` past the decompression, into the grid's reading."""
    payload = LZString.compressToBase64(_text(data))
    _allowed(lambda: read_link(f"https://www.f-puzzles.com/?load={payload}"))


def sudokupad(data: bytes) -> None:
    """A SudokuPad link ending in the bytes: ``read_link`` on the link itself."""
    _allowed(lambda: read_link("https://sudokupad.app/" + _text(data)))


def variant_json(data: bytes) -> None:
    """A variant's sudoku-puzzle JSON (or whatever the text is): ``read_variant``, and
    ``read_puzzle``, which takes either."""
    _allowed(lambda: read_variant(_text(data)))
    _allowed(lambda: read_puzzle(_text(data)))


def variant_link(data: bytes) -> None:
    """An f-puzzles link to a variant, its JSON the bytes: ``read_variant``."""
    payload = LZString.compressToBase64(_text(data))
    _allowed(lambda: read_variant(f"https://www.f-puzzles.com/?load={payload}"))


def _file(data: bytes, suffix: str) -> Path:
    """The bytes as a file of the scratch folder (the readers read paths)."""
    _SCRATCH.mkdir(exist_ok=True)
    path = _SCRATCH / f"input{suffix}"
    path.write_bytes(data)
    return path


def jsonl(data: bytes) -> None:
    """A JSON Lines file: ``read_jsonl``, each bad line a ``RecordError`` passed over."""
    read_jsonl(_file(data, ".jsonl")).catch(RecordError).to_list()


def csv(data: bytes) -> None:
    """A CSV file with its header: ``read_csv``, each bad row a ``RecordError`` passed
    over (a file without a header is refused at once, as one)."""
    _allowed(lambda: read_csv(_file(data, ".csv")).catch(RecordError).to_list())


TARGETS: dict[str, Callable[[bytes], None]] = {
    "puzzle_line": puzzle_line,
    "puzzle": puzzle,
    "sdk": puzzle_file,
    "ss": puzzle_file,
    "marks": marks,
    "fpuzzles": fpuzzles,
    "sudokupad": sudokupad,
    "variant_json": variant_json,
    "variant_link": variant_link,
    "jsonl": jsonl,
    "csv": csv,
}


def main(argv: list[str]) -> None:
    """Fuzz the target named first; the rest of ``argv`` goes to libFuzzer."""
    import atheris  # type: ignore[import-untyped, import-not-found, unused-ignore]  # the fuzz extra

    target = TARGETS[argv[1]]
    atheris.instrument_all()
    atheris.Setup([argv[0], *argv[2:]], target)
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
