"""The two ways a Stream runs, as a type: ``Stream[T, Sync]`` is read with ``for`` and
its terminals return their values; ``Stream[T, Async]`` is read with ``async for`` and
its terminals are awaited.  ``Stream[T]`` means ``Stream[T, Sync]``.

A step is declared once on the façade, for both: its type says what it returns in
either mode (a step keeps the mode, ``M``), and a few declarations are for one mode only
(a coroutine function in ``map``, ``to_async``, ``close`` against ``aclose``).
"""

from __future__ import annotations

from typing import final

from typing_extensions import TypeVar

__all__ = ["Async", "M", "Mode", "Sync"]


class Mode:
    """How a stream runs: :class:`Sync` or :class:`Async` (a type, never made)."""


@final
class Sync(Mode):
    """Read with ``for``; steps on threads, processes or dask; terminals return values."""


@final
class Async(Mode):
    """Read with ``async for``; steps as tasks (plain functions on threads); terminals
    are awaited."""


M = TypeVar("M", bound=Mode, default=Sync)
