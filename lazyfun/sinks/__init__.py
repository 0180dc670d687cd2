"""The mechanics of the sinks, one layer below the Stream: the writers its terminals
(``to_jsonl``, ``to_sql``, ...) feed, where files are opened (``-``, globs, fsspec
URLs, compression by suffix), and :class:`RecordError`.

The public names are in :mod:`lazyfun.io`, which is above the Stream (its sources
return Streams); the Stream's terminals import this package, so no import goes up.

- :mod:`lazyfun.sinks.errors`: ``RecordError``, the one error of a record read or written;
- :mod:`lazyfun.sinks.paths`: opening paths to read and to write (``Target``, ``atomic``);
- :mod:`lazyfun.sinks.columns`: the named fields of a record, as columns;
- :mod:`lazyfun.sinks.files`: the writer that every sink's is, and those of lines, JSON Lines
  and CSV;
- :mod:`lazyfun.sinks.parquet`: Parquet's writers, of one file or of a resumable job's parts;
- :mod:`lazyfun.sinks.sql`: SQLite's writer;
- :mod:`lazyfun.sinks.writers`: the loops that feed the writers, and the writers' names.
"""

from lazyfun.sinks.errors import RecordError

__all__ = ["RecordError"]
