"""How many examples a hypothesis law tries: half of them on the compiled build (all with
``LAZYFUN_THOROUGH=1``, as ``make slow`` runs every law), a fifth from source.  The pure
pass of ``make unit`` reruns the compiled tests from source under the coverage tracer to
count their lines; the compiled pass is the one that hunts bugs, and ``make slow`` hunts
with the whole budget."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TypeVar

from lazyfun.compiled import PURE_ENV

T = TypeVar("T")


THOROUGH_ENV = "LAZYFUN_THOROUGH"


def _pure() -> bool:
    return bool(os.environ.get(PURE_ENV))


def thorough() -> bool:
    """Whether the laws try their whole budget (``make slow``), not half of it."""
    return bool(os.environ.get(THOROUGH_ENV))


def cheap(items: Sequence[T], slow: set[T]) -> Sequence[T]:
    """All of ``items`` on the compiled build; from source, those not in ``slow``."""
    return [item for item in items if item not in slow] if _pure() else items


def examples(n: int, least: int = 20) -> int:
    """``n // 2`` on the compiled build (``n`` when thorough); ``n // 5`` (at least
    ``least``) from source."""
    if _pure():
        return max(least, n // 5)
    return n if thorough() else max(least, n // 2)


def sample(items: Sequence[T], every: int = 3) -> Sequence[T]:
    """All of ``items`` on the compiled build; every ``every``-th from source."""
    return items[::every] if _pure() else items


def size(n: int, every: int = 5) -> int:
    """``n`` on the compiled build; ``n // every`` from source (a long stream's length)."""
    return n // every if _pure() else n
