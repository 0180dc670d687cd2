from collections.abc import Sequence

CONTRADICTION: int
DOUBLE: int
CELL: int
REGION: int
NISHIO: int
MAX_N: int

def search(
    cands: Sequence[int],
    n: int,
    units: Sequence[Sequence[int]],
    houses: Sequence[Sequence[int]],
    base: float,
    dynamic: bool,
    y: bool,
    kinds: int,
    values: Sequence[int] | None = None,
    level: int = 1,
) -> tuple[int, int, int] | None: ...

MAX_HOUSES: int

def chains(
    cands: Sequence[int], n: int, units: Sequence[Sequence[int]], houses: Sequence[Sequence[int]]
) -> tuple[int, tuple[int, ...]] | None: ...
def wings(
    cands: Sequence[int], n: int, units: Sequence[Sequence[int]], size: int
) -> tuple[
    tuple[int, tuple[int, ...], tuple[tuple[int, int], ...]] | None,
    tuple[int, tuple[int, ...], tuple[tuple[int, int], ...]] | None,
    tuple[int, tuple[int, ...], tuple[tuple[int, int], ...]] | None,
]: ...
def aligned(
    cands: Sequence[int], n: int, units: Sequence[Sequence[int]], size: int
) -> tuple[tuple[int, ...], list[tuple[int, int]]] | None: ...
