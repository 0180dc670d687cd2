"""The SQLite sink's writer: :class:`SqlWriter`, each batch in one transaction, and a
resumed job's progress kept in the database, in the batch's transaction.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

from lazyfun.sinks.columns import Columns
from lazyfun.sinks.errors import RecordError
from lazyfun.sinks.files import BATCH, Writer
from lazyfun.sinks.paths import PathLike
from lazyfun.sinks.resume import refuse_unrecorded

if TYPE_CHECKING:
    import sqlite3

__all__ = ["SqlWriter"]


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _database_name(db: sqlite3.Connection) -> str:
    for _, schema, filename in db.execute("PRAGMA database_list"):
        if schema == "main":
            return str(filename) or ":memory:"
    return ":memory:"


class SqlWriter(Writer):
    """Records into a SQLite table (created from the first record's fields when it does
    not exist), each batch in one transaction (a savepoint), or all in one with ``atomic``."""

    unit = "row"
    what = "not a row"
    _SAVEPOINT = "lazyfun_to_sql"

    def __init__(
        self,
        db: PathLike | sqlite3.Connection,
        table: str,
        *,
        batch: int = BATCH,
        within: float | None = None,
        atomic: bool = False,
    ) -> None:
        import sqlite3

        self.owned = not isinstance(db, sqlite3.Connection)
        if isinstance(db, sqlite3.Connection):
            self.db = db
            super().__init__(_database_name(db))
        else:
            self.db = sqlite3.connect(os.fspath(db), isolation_level=None)
            super().__init__(os.fspath(db))
        self.table, self.batch, self.within, self.atomic = table, batch, within, atomic
        self.columns: Columns | None = None
        self.insert = ""
        self.before = 0
        if atomic:
            self.db.execute(f"SAVEPOINT {self._SAVEPOINT}")

    _PROGRESS = "lazyfun_progress"

    job = ""  # the resumed job (:func:`~lazyfun.sinks.resume.job_of`) its progress rows name

    def _exists(self, table: str) -> bool:
        found = self.db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).fetchone()
        return found is not None

    def _marked(self) -> bool:
        """Whether the progress table has its ``mark`` column (a table an earlier release
        made has not)."""
        columns = self.db.execute(f"PRAGMA table_info({self._PROGRESS})").fetchall()
        return any(column[1] == "mark" for column in columns)

    def progress(self, job: str) -> dict[str, Any] | None:
        """The ``position``, whether ``job`` ended (``done``) and where the source stood
        (``mark``), as the last committed batch of this table said; None where there is
        nothing to go on from (no record, and no rows in the table); refused (a
        RecordError naming the table) where the table holds rows no record says this
        job wrote: no progress row for it, or one naming another job."""
        self.job = job
        row = None
        if self._exists(self._PROGRESS):
            marked = "mark" if self._marked() else "NULL"
            row = self.db.execute(
                f"SELECT position, done, job, {marked} FROM {self._PROGRESS} WHERE sink = ?",
                (self.table,),
            ).fetchone()
        where = f"{self.name}, table {self.table}"
        if row is None:
            held = (
                self._exists(self.table)
                and self.db.execute(f"SELECT 1 FROM {_quoted(self.table)} LIMIT 1").fetchone()
            )
            if held:
                raise refuse_unrecorded(where, "rows", f"no {self._PROGRESS} row for it")
            return None
        if row[2] != job:
            named_job = "no job" if row[2] is None else repr(row[2])
            raise refuse_unrecorded(
                where, "rows", f"its {self._PROGRESS} row naming {named_job}, not {job!r}"
            )
        mark = None if row[3] is None else json.loads(row[3])
        return {"position": int(row[0]), "done": bool(row[1]), "mark": mark}

    def begin(self) -> None:
        self.before = self.written
        self.db.execute("SAVEPOINT lazyfun_resume")

    def commit(self, position: int, done: bool, mark: dict[str, Any] | None = None) -> None:
        """The batch's progress row (with ``mark``, where the source stood, as JSON), in
        the batch's transaction, which ends here."""
        self.db.execute(
            f"CREATE TABLE IF NOT EXISTS {self._PROGRESS} "
            "(sink TEXT PRIMARY KEY, position INTEGER, done INTEGER, job TEXT, mark TEXT)"
        )
        if not self._marked():
            self.db.execute(f"ALTER TABLE {self._PROGRESS} ADD COLUMN mark TEXT")
        self.db.execute(
            f"INSERT OR REPLACE INTO {self._PROGRESS} (sink, position, done, job, mark) "
            "VALUES (?, ?, ?, ?, ?)",
            (self.table, position, int(done), self.job, None if mark is None else json.dumps(mark)),
        )
        self.db.execute("RELEASE lazyfun_resume")

    def abort(self) -> None:
        """Undo the batch (its rows and progress): the next run writes it again."""
        self.db.execute("ROLLBACK TO lazyfun_resume")
        self.db.execute("RELEASE lazyfun_resume")
        self.written = self.before

    def encode(self, records: list[Any]) -> list[tuple[Any, ...]]:
        columns = self.columns or Columns(records[0])
        rows = columns.rows(records)
        self.columns = columns
        return rows

    def put(self, encoded: list[tuple[Any, ...]], count: int) -> None:
        import sqlite3

        db, columns = self.db, self.columns
        assert columns is not None
        if not self.insert:
            names = ", ".join(map(_quoted, columns.names))
            db.execute(f"CREATE TABLE IF NOT EXISTS {_quoted(self.table)} ({names})")
            places = ", ".join("?" * len(columns.names))
            self.insert = f"INSERT INTO {_quoted(self.table)} ({names}) VALUES ({places})"
        if not self.atomic:
            db.execute(f"SAVEPOINT {self._SAVEPOINT}")
        before = db.total_changes
        try:
            db.executemany(self.insert, encoded)
        except sqlite3.Error as error:
            done = db.total_changes - before  # the rows before the one that failed
            if not self.atomic:
                db.execute(f"RELEASE {self._SAVEPOINT}")
            self.written += done
            where = self.written + 1
            raise RecordError(
                self.name, where, f"table {self.table}: {error}", unit=self.unit
            ) from error
        except BaseException:  # an interrupt: the rows in keep, the transaction ends
            if not self.atomic:
                db.execute(f"RELEASE {self._SAVEPOINT}")
            self.written += db.total_changes - before
            raise
        if not self.atomic:
            db.execute(f"RELEASE {self._SAVEPOINT}")

    def close(self, failed: bool) -> None:
        try:
            if self.atomic:
                if failed:
                    self.db.execute(f"ROLLBACK TO {self._SAVEPOINT}")
                self.db.execute(f"RELEASE {self._SAVEPOINT}")
        finally:
            if self.owned:
                self.db.close()
