"""The file a sink writes (:class:`lazyfun.sinks.paths.Target`): standard output,
a failed open, an abandoned or failed atomic write, and what is left beside the target."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lazyfun.sinks.paths import Target, beside, sweep


def test_standard_output_is_written_and_flushed_and_cannot_be_atomic(
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    target = Target("-")
    assert target.plain is None
    target.file.write(b"line\n")
    target.close(failed=False)
    assert capsysbinary.readouterr().out == b"line\n"
    with pytest.raises(ValueError, match="standard output"):
        Target("-", atomic=True)


def test_a_target_that_cannot_be_opened_raises_and_leaves_nothing(tmp_path: Path) -> None:
    where = tmp_path / "missing-folder" / "out.parquet"
    with pytest.raises(FileNotFoundError):
        Target(where, whole=True)
    assert not (tmp_path / "missing-folder").exists()


def test_plain_is_the_temporary_file_while_writing_and_none_when_compressed(
    tmp_path: Path,
) -> None:
    target = Target(tmp_path / "a.txt", atomic=True)
    assert target.plain is not None and target.plain != str(tmp_path / "a.txt")
    assert Path(target.plain).parent == tmp_path
    target.close(failed=False)
    compressed = Target(tmp_path / "a.txt.gz")
    assert compressed.plain is None
    compressed.close(failed=False)


def test_a_failed_atomic_write_keeps_the_old_file_and_removes_its_temporary(
    tmp_path: Path,
) -> None:
    where = tmp_path / "a.txt"
    where.write_bytes(b"old\n")
    target = Target(where, atomic=True)
    target.file.write(b"new\n")
    target.close(failed=True)
    assert where.read_bytes() == b"old\n"
    assert sorted(os.listdir(tmp_path)) == ["a.txt"]


def test_an_abandoned_whole_file_is_removed_and_the_old_one_stays(tmp_path: Path) -> None:
    where = tmp_path / "t.parquet"
    where.write_bytes(b"old")
    target = Target(where, whole=True)
    target.file.write(b"torn")
    target.abandon()
    assert where.read_bytes() == b"old"
    assert sorted(os.listdir(tmp_path)) == ["t.parquet"]


def test_a_live_writers_temporary_file_is_kept_and_one_of_another_shape_too(
    tmp_path: Path,
) -> None:
    name = str(tmp_path / "t.jsonl")
    mine = beside(name)
    Path(mine).write_bytes(b"")
    other = tmp_path / ".t.jsonl.notours"
    other.write_bytes(b"")
    assert sweep(name) == []
    assert Path(mine).exists() and other.exists()
    assert sweep("-") == [] and sweep(str(tmp_path / "no-such-folder" / "x")) == []
