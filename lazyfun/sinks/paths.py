"""Where records are read from and written to: a local path, ``-`` (standard input or
output), a glob, or any URL fsspec understands (``file://``, ``http://``, ``s3://``,
...); compressed by the name's suffix (``.gz``, ``.bz2``, ``.xz``, ``.zst``).

Local files are opened with the standard library, URLs with fsspec (imported only
then), ``.zst`` with zstandard.  A :class:`Target` written with ``atomic=True`` (or
``whole=True``, a whole-or-nothing format such as Parquet) is a temporary file beside
the target, renamed over it at the end; its name carries the writer's pid
(:func:`beside`), and the next write to the target removes those of processes that are
gone (:func:`sweep`).

>>> for name in ("b.txt", "a.txt", "c.log"):
...     target = Target(name)
...     _ = target.file.write(b"x\\n")
...     target.close(failed=False)
>>> expand("*.txt"), expand("c.log")
(['a.txt', 'b.txt'], ['c.log'])
"""

from __future__ import annotations

import errno
import glob
import io
import os
import re
import sys
import uuid
from collections.abc import Iterable
from contextlib import ExitStack
from typing import IO, Any, Protocol, cast, runtime_checkable

__all__ = [
    "COMPRESSED",
    "PathLike",
    "ReadsFiles",
    "Target",
    "beside",
    "expand",
    "is_url",
    "open_read",
    "refuse_writing_what_is_read",
    "sweep",
    "synced",
]

PathLike = str | os.PathLike[str]

_BUFFER = 1 << 16


def is_url(name: str) -> bool:
    """Whether ``name`` is a URL for fsspec rather than a local path.

    >>> is_url("s3://bucket/a.jsonl"), is_url("data/a.jsonl")
    (True, False)
    """
    return "://" in name


def _is_glob(name: str) -> bool:
    # in a URL a ``?`` starts the query, not a pattern
    magic = "*[" if is_url(name) else "*?["
    return any(c in name for c in magic) and not (not is_url(name) and os.path.exists(name))


def _suffix(name: str) -> str:
    """The suffix that says the compression (a URL's query left out).

    >>> _suffix("a.jsonl.gz"), _suffix("http://host/a.csv.zst?version=2")
    ('.gz', '.zst')
    """
    return os.path.splitext(name.split("?", 1)[0] if is_url(name) else name)[1]


def expand(path: PathLike) -> list[str]:
    """The files ``path`` names: itself, or the matches of a glob (``**`` too), sorted by
    plain string order; FileNotFoundError when a glob matches nothing.

    >>> expand("-")
    ['-']
    """
    name = os.fspath(path)
    if not _is_glob(name):
        return [name]
    if is_url(name):
        from fsspec.core import url_to_fs

        fs, pattern = url_to_fs(name)
        found = [fs.unstrip_protocol(match) for match in fs.glob(pattern)]
    else:
        found = glob.glob(name, recursive=True)
    if not found:
        raise FileNotFoundError(errno.ENOENT, "no file matches the glob", name)
    return sorted(found)


def _decompressed(raw: IO[bytes], name: str, stack: ExitStack) -> IO[bytes]:
    suffix = _suffix(name)
    decompressed: Any
    if suffix == ".gz":
        import gzip

        decompressed = gzip.GzipFile(fileobj=raw, mode="rb")
    elif suffix == ".bz2":
        import bz2

        decompressed = bz2.BZ2File(raw, "rb")
    elif suffix == ".xz":
        import lzma

        decompressed = lzma.LZMAFile(raw, "rb")  # noqa: SIM115  (closed by the stack)
    elif suffix == ".zst":
        import zstandard

        decompressed = zstandard.ZstdDecompressor().stream_reader(raw, closefd=False)
    else:
        return raw
    # read through a buffer of our own: its lines are split in C, not by the
    # decompressors' own readline (twice as fast for gzip)
    buffered = io.BufferedReader(decompressed, _BUFFER)
    stack.callback(buffered.close)
    return buffered


def open_read(name: str) -> tuple[IO[bytes], ExitStack]:
    """``name`` open for reading bytes, decompressed by its suffix, and what closes it
    (standard input, ``-``, is read but never closed).

    >>> target = Target("hello.txt.xz")
    >>> target.file.write(b"hello\\n")
    6
    >>> target.close(failed=False)
    >>> file, opened = open_read("hello.txt.xz")
    >>> with opened:
    ...     file.readline()
    b'hello\\n'
    """
    stack = ExitStack()
    try:
        raw: IO[bytes]
        if name == "-":
            raw = sys.stdin.buffer
        elif is_url(name):
            import fsspec

            raw = cast("IO[bytes]", stack.enter_context(fsspec.open(name, "rb")))
        else:
            raw = stack.enter_context(open(name, "rb"))  # noqa: SIM115  (closed by the stack)
        return _decompressed(raw, name, stack), stack
    except BaseException:
        stack.close()
        raise


def _compressed(raw: IO[bytes], name: str, stack: ExitStack) -> IO[bytes]:
    suffix = _suffix(name)
    wrapped: Any
    if suffix == ".gz":
        import gzip

        wrapped = gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6)
    elif suffix == ".bz2":
        import bz2

        wrapped = bz2.BZ2File(raw, "wb")
    elif suffix == ".xz":
        import lzma

        wrapped = lzma.LZMAFile(raw, "wb")  # noqa: SIM115  (closed by the stack)
    elif suffix == ".zst":
        import zstandard

        wrapped = zstandard.ZstdCompressor().stream_writer(raw, closefd=False)
    else:
        return raw
    stack.callback(wrapped.close)
    return cast("IO[bytes]", wrapped)


COMPRESSED = (".gz", ".bz2", ".xz", ".zst")  # the suffixes of compressed files


@runtime_checkable
class ReadsFiles(Protocol):
    """A source that reads files: ``files()`` names the local ones."""

    def files(self) -> list[str]: ...


def refuse_writing_what_is_read(path: PathLike, sources: Iterable[object], atomic: bool) -> None:
    """Refuse, at the call, to write over a file the pipeline reads (``sources`` are what
    it holds): opening the file to write empties it before its first record is read.
    The same file through another name (a link, another relative path) counts.  With
    ``atomic`` the old file is read to the end while the new one is written beside it,
    so that is allowed.

    >>> refuse_writing_what_is_read("a.txt", [], atomic=False)  # nothing read: allowed
    """
    name = os.fspath(path)
    if atomic or name == "-" or is_url(name) or not os.path.exists(name):
        return
    for source in sources:
        if not isinstance(source, ReadsFiles):
            continue
        for read in source.files():
            if os.path.exists(read) and os.path.samefile(read, name):
                raise ValueError(
                    f"{name} is read by this pipeline (as {read}): writing it would empty it "
                    f"before it is read. Write to another file, or pass atomic=True (the new "
                    f"file replaces the old one when the pipeline ends)"
                )


def beside(name: str, kind: str = "tmp") -> str:
    """A fresh name for a temporary file beside the local file ``name``, carrying this
    process's pid: ``.NAME.PID.RANDOM.KIND``, so :func:`sweep` can tell a dead writer's
    leftover from a live one's.

    >>> beside("out/a.parquet").startswith(f"out/.a.parquet.{os.getpid()}.")
    True
    """
    head, tail = os.path.split(name)
    return os.path.join(head, f".{tail}.{os.getpid()}.{uuid.uuid4().hex[:12]}.{kind}")


_LEFTOVER = re.compile(r"(?P<pid>[0-9]+)\.[0-9a-f]{12}\.(?:tmp|widen)")


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists (``os.kill(pid, 0)``); one of another user counts."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's, or a pid the system refuses to say: kept
        return True
    return True


def sweep(name: str) -> list[str]:
    """Remove the temporary files :func:`beside` named for the local file ``name`` whose
    writer has died (killed mid-write: ``kill -9``, an OOM); a live process's, or a file
    of another shape, is left alone.  The paths removed.  Not on Windows, where
    ``os.kill`` would end the process it asks about.

    >>> sweep("nothing-here.parquet")
    []
    """
    if os.name == "nt" or name == "-" or is_url(name):
        return []
    head, tail = os.path.split(name)
    prefix = f".{tail}."
    try:
        entries = [entry for entry in os.listdir(head or ".") if entry.startswith(prefix)]
    except OSError:
        return []
    removed = []
    for entry in entries:
        found = _LEFTOVER.fullmatch(entry[len(prefix) :])
        if found is None or _alive(int(found["pid"])):
            continue
        path = os.path.join(head, entry)
        try:
            os.unlink(path)
        except FileNotFoundError:  # swept by another writer meanwhile
            continue
        removed.append(path)
    return removed


def synced(path: str) -> None:
    """``path`` (a file, or a folder's entries) made durable: fsynced."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Target:
    """A file being written: ``-`` (standard output, flushed, never closed), a local path
    or a URL, compressed by its suffix; ``keep`` bytes of a local file kept and written
    after (a resumed job).  With ``atomic``, the bytes go to a temporary
    file beside the target, renamed over it by ``close(failed=False)`` and removed by
    ``close(failed=True)``; without, ``close`` keeps what was written either way.  With
    ``whole`` (a format that is whole or useless, Parquet), a local file is written
    beside the target too and renamed over it by ``close`` either way (``failed`` keeps
    what was written, as a whole file): a kill at any moment leaves the old file or the
    new one, never a torn one.  ``abandon()`` removes it instead (its writer could not
    end it).  Opening a local target first sweeps the temporary files beside it that
    dead processes left (:func:`sweep`).

    >>> import pathlib
    >>> where = pathlib.Path("a.txt.gz")
    >>> target = Target(where, atomic=True)
    >>> target.file.write(b"hello\\n")
    6
    >>> where.exists()
    False
    >>> target.close(failed=False)
    >>> import gzip; gzip.decompress(where.read_bytes())
    b'hello\\n'
    """

    def __init__(
        self,
        path: PathLike,
        *,
        atomic: bool = False,
        keep: int | None = None,
        whole: bool = False,
    ) -> None:
        self.name = os.fspath(path)
        self.atomic = atomic
        self.stack = ExitStack()
        self.temporary: str | None = None
        self.fs: Any = None
        if self.name == "-":
            if atomic:
                raise ValueError("atomic=True needs a file to rename: standard output (-) has none")
            self.file: IO[bytes] = sys.stdout.buffer
            self.stack.callback(self.file.flush)
            return
        sweep(self.name)
        where = self.name
        if atomic or (whole and not is_url(self.name)):
            where = self.temporary = beside(self.name)
        try:
            raw: IO[bytes]
            if is_url(where):
                import fsspec

                opened = fsspec.open(where, "wb")
                self.fs = opened.fs
                raw = cast("IO[bytes]", self.stack.enter_context(opened))
            elif keep is not None:  # a resumed job: the first ``keep`` bytes stay
                raw = self.stack.enter_context(open(where, "r+b"))  # noqa: SIM115
                raw.truncate(keep)
                raw.seek(keep)
            else:
                raw = self.stack.enter_context(open(where, "wb"))  # noqa: SIM115
            self.file = _compressed(raw, self.name, self.stack)
        except BaseException:
            self.stack.close()
            raise

    @property
    def plain(self) -> str | None:
        """The local file the bytes go to as they are (the temporary one with ``atomic``),
        which can be read back and replaced while writing; None for standard output, a
        URL or a compressed file."""
        if self.name == "-" or self.fs is not None or _suffix(self.name) in COMPRESSED:
            return None
        return self.temporary or self.name

    def close(self, failed: bool) -> None:
        """Flush and close; with ``atomic``, rename into place, or (``failed``) discard."""
        try:
            self.stack.close()
        except BaseException:
            self._discard()
            raise
        if self.temporary is None:
            return
        if failed and self.atomic:
            self._discard()
        elif self.fs is not None:
            self.fs.mv(self.temporary, self.name)
        else:
            synced(self.temporary)  # on disk before its name is: a crash leaves one whole
            os.replace(self.temporary, self.name)

    def abandon(self) -> None:
        """Close, and remove the temporary file (a torn one its writer could not end)."""
        try:
            self.stack.close()
        finally:
            self._discard()

    def _discard(self) -> None:
        if self.temporary is None:
            return
        if self.fs is not None:
            self.fs.rm(self.temporary)
        elif os.path.exists(self.temporary):
            os.unlink(self.temporary)
