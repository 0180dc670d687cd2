"""How many examples a hypothesis law tries: all of them on the compiled build, a fifth
from source.  The pure pass of ``make unit`` reruns the compiled tests from source under
the coverage tracer to count their lines; the compiled pass is the one that hunts bugs."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TypeVar

from lazyfun.compiled import PURE_ENV

T = TypeVar("T")


def _pure() -> bool:
    return bool(os.environ.get(PURE_ENV))


def cheap(items: Sequence[T], slow: set[T]) -> Sequence[T]:
    """All of ``items`` on the compiled build; from source, those not in ``slow``."""
    return [item for item in items if item not in slow] if _pure() else items


def examples(n: int, least: int = 20) -> int:
    """``n`` on the compiled build; ``n // 5`` (at least ``least``) from source."""
    return max(least, n // 5) if _pure() else n


def sample(items: Sequence[T], every: int = 3) -> Sequence[T]:
    """All of ``items`` on the compiled build; every ``every``-th from source."""
    return items[::every] if _pure() else items


def size(n: int, every: int = 5) -> int:
    """``n`` on the compiled build; ``n // every`` from source (a long stream's length)."""
    return n // every if _pure() else n
