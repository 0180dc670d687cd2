"""Types of the C extension ``lazyfun.csp.propagation._kernels``.

See lazyfun.csp.propagation.kernels.
"""

from collections.abc import Callable, Sequence
from typing import final

WIDTH: int

@final
class Kernel:
    """One propagator in C: called with the list of domains, it narrows them in place and
    returns the decisions narrowed, or None when its constraint fails."""

    def __call__(self, doms: list[int], /) -> tuple[int, ...] | None: ...

def clause(literals: Sequence[tuple[int, int]], /) -> Kernel: ...
def reified_clause(truth: int, when: int, literals: Sequence[tuple[int, int]], /) -> Kernel: ...
def reified_shift(truth: int, x: int, y: int, shift: int, equal: int, /) -> Kernel: ...
def reified_unary(truth: int, x: int, meets: int, /) -> Kernel: ...
def linear(terms: Sequence[tuple[int, int, int]], constant: int, equal: bool, /) -> Kernel: ...
def element(
    result: int, index: int, base: int, width: int, items: Sequence[tuple[int, int]], /
) -> Kernel: ...

@final
class Loop:
    """Loop(propagators, watchers, idempotent, slow): the propagation loop in C."""

    def __init__(
        self,
        propagators: Sequence[Callable[[list[int]], Sequence[int] | None]],
        watchers: Sequence[Sequence[int]],
        idempotent: Sequence[bool],
        slow: Sequence[bool],
    ) -> None: ...
    def run(
        self,
        doms: list[int],
        touched: Sequence[int],
        seeds: Sequence[int],
        check: Callable[[], object] | None = None,
        /,
    ) -> bool: ...
    @property
    def runs(self) -> int: ...
    @property
    def failed(self) -> int: ...
