"""What a verb that holds items before it gives any (``sort``, ``top``, a hash ``join``)
offers :mod:`lazyfun.streams.explain` of what it holds, read only when the plan is shown:
its core watched for the most items it held at once (:class:`Gauge`), a sort's for the
runs and bytes it spilled too (:class:`Spilling`), and a hash join's table for its rows
(:class:`Rows`).  Each is what :class:`Gauged` says; a gauge reads through to its core.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

__all__ = ["Gauge", "Gauged", "Rows", "Spilling"]


@runtime_checkable
class Gauged(Protocol):
    """What a verb offers ``explain`` of what it holds: the most items at once."""

    def most_held(self) -> int: ...


class Gauge:
    """A verb's core watched for ``explain``: the most items it held at once (what it
    held with each chunk it took, before it let go of any).  Everything else is the
    core's, read through (``room``, ``errors``, ``output``, ...)."""

    def __init__(self, core: Any) -> None:
        self.core, self.most = core, 0
        self.kept = "items" if hasattr(core, "items") else "kept"  # a Sorter's, a Top's

    def __getattr__(self, name: str) -> Any:
        return getattr(self.core, name)

    def add(self, chunk: list[Any]) -> None:
        """The core takes ``chunk``; what it held with it counted."""
        self.most = max(self.most, len(getattr(self.core, self.kept)) + len(chunk))
        self.core.add(chunk)

    def most_held(self) -> int:
        """The most items held at once, so far."""
        return self.most

    def close(self) -> None:
        """Close the core (a sort's removes its runs)."""
        close = getattr(self.core, "close", None)
        if close is not None:
            close()


class Spilling(Gauge):
    """A :class:`Gauge` of a core that spills runs to files (a sort): the runs it has
    written and their bytes, as it counts them (a merge pass's runs, removed once merged
    into a longer one, included)."""

    def spilled(self) -> tuple[int, int]:
        """The runs written so far, and their bytes."""
        return self.core.made, self.core.spilled


class Rows:
    """A hash join's table watched for ``explain``: the rows it holds."""

    def __init__(self, table: Any) -> None:
        self.table = table

    def most_held(self) -> int:
        """The rows the table holds (it only grows)."""
        count: int = self.table.count
        return count

    def close(self) -> None:
        """Nothing to let go of: the table is the join's."""
