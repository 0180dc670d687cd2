"""Types of the C extension ``lazyfun.streams._flow``.

See lazyfun.streams.flow.
"""

from collections.abc import Callable, Iterable, Iterator
from typing import Protocol, TypeVar, final

_T = TypeVar("_T")

class _Recovery(Protocol):
    @property
    def errors(self) -> tuple[type[BaseException], ...]: ...
    @property
    def stopped(self) -> bool: ...
    def recover(self, error: BaseException) -> object: ...

@final
class Guarded(Iterator[_T]):
    """The items of ``source``; an exception of ``recovery.errors`` is handed to
    ``recovery.recover``, whose result comes in its place (nothing if it is ``dropped``)."""

    def __new__(cls, source: Iterable[_T], recovery: _Recovery, dropped: object) -> Guarded[_T]: ...
    def __next__(self) -> _T: ...

@final
class Counted(Iterator[_T]):
    """At most ``n`` items of ``source``, exceptions passed on uncounted; ``on_last()`` is
    called once the nth is read; then, given ``refill``, the next read asks it for the
    next allowance (at least 1) and goes on."""

    @property
    def left(self) -> int: ...
    def __new__(
        cls,
        source: Iterable[_T],
        n: int,
        on_last: Callable[[], object] | None = None,
        refill: Callable[[], int] | None = None,
    ) -> Counted[_T]: ...
    def __next__(self) -> _T: ...
    def __length_hint__(self) -> int: ...
