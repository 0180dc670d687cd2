"""LazyList: call-by-need lists, against the facts and laws of Haskell's lists."""

from __future__ import annotations

import gc
import operator
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from itertools import count, islice
from typing import assert_type

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lazyfun import LazyList, LazyListLoop, take
from lazyfun.compiled import is_compiled
from lazyfun.lazylist import MAX_NESTING
from lazyfun.lazylist.sharing import shared_cp
from lazyfun.trace import Probe

pytestmark = pytest.mark.compiled  # run again from source by `make unit`

ints = st.lists(st.integers(-50, 50), max_size=30)

# The long-list checks run at full size on the compiled build; the source run
# (second pass of ``make unit``, under a coverage tracer) takes a hundredth.
LONG = 10**6 if is_compiled("lazyfun.lazylist.cells") else 10**4


def fibs_list() -> LazyList[int]:
    """``fibs = 0 : 1 : zipWith (+) fibs (tail fibs)``."""
    return LazyList.fix(
        lambda fibs: LazyList.cons(
            0, lambda: LazyList.cons(1, lambda: fibs.zip_with(operator.add, fibs.tail))
        )
    )


# --- known facts ---------------------------------------------------------------------


def test_fibs_by_self_reference_match_a_loop_with_linear_work() -> None:
    fibs = fibs_list()
    a, b = 0, 1
    for _ in range(1000):
        a, b = b, a + b
    assert fibs[1000] == a
    assert fibs.forced() == 1001  # each cell once: no exponential recomputation


def test_fibs_additions_are_counted_once_each() -> None:
    additions = 0

    def add(x: int, y: int) -> int:
        nonlocal additions
        additions += 1
        return x + y

    fibs: LazyList[int] = LazyList.fix(
        lambda fibs: LazyList.cons(
            0, lambda: LazyList.cons(1, lambda: fibs.zip_with(add, fibs.tail))
        )
    )
    assert fibs[300] == fibs[300]
    assert additions == 299


def primes_by_sieve() -> LazyList[int]:
    """``sieve (p:xs) = p : sieve [x | x <- xs, x mod p /= 0]``, as a self-feeding stream.

    Written with ``fix``: the primes so far filter the candidates, which is
    the sieve without its quadratic tower of filters.
    """

    def is_prime(n: int, primes: LazyList[int]) -> bool:
        return all(n % p for p in primes.takewhile(lambda p: p * p <= n))

    return LazyList.fix(
        lambda primes: LazyList.cons(
            2, lambda: LazyList.of(count(3, 2)).filter(lambda n: is_prime(n, primes))
        )
    )


def test_the_sieve_as_a_self_referential_stream() -> None:
    primes = list(islice(primes_by_sieve(), 1000))
    limit = primes[-1] + 1
    sieve = [True] * limit
    brute = []
    for n in range(2, limit):
        if sieve[n]:
            brute.append(n)
            sieve[n * n :: n] = [False] * len(range(n * n, limit, n))
    assert primes == brute
    assert primes[-1] == 7919


def merge(xs: LazyList[int], ys: LazyList[int]) -> LazyList[int]:
    """Merge two increasing infinite lists, dropping duplicates."""
    x, y = xs.head, ys.head
    if x < y:
        return LazyList.cons(x, lambda: merge(xs.tail, ys))
    if y < x:
        return LazyList.cons(y, lambda: merge(xs, ys.tail))
    return LazyList.cons(x, lambda: merge(xs.tail, ys.tail))


def test_hamming_numbers_by_self_reference() -> None:
    """``h = 1 : merge (map (2*) h) (merge (map (3*) h) (map (5*) h))``."""
    hamming: LazyList[int] = LazyList.fix(
        lambda h: LazyList.cons(
            1,
            lambda: merge(
                h.map(lambda n: 2 * n), merge(h.map(lambda n: 3 * n), h.map(lambda n: 5 * n))
            ),
        )
    )
    got = list(take(1000, hamming))
    brute = sorted(
        2**i * 3**j * 5**k
        for i in range(40)
        for j in range(26)
        for k in range(18)
        if 2**i * 3**j * 5**k <= got[-1]
    )
    assert got == brute
    assert got[-1] == 51_200_000


# --- laws ------------------------------------------------------------------------------


@given(ints)
def test_of_iterates_as_its_source(xs: list[int]) -> None:
    ll = LazyList.of(xs)
    assert list(ll) == xs
    assert list(ll) == xs  # and again, from the kept cells


@given(ints)
def test_map_fusion(xs: list[int]) -> None:
    f: Callable[[int], int] = lambda n: n * 3  # noqa: E731
    g: Callable[[int], int] = lambda n: n - 7  # noqa: E731
    assert list(LazyList.of(xs).map(f).map(g)) == list(LazyList.of(xs).map(lambda n: g(f(n))))


@given(ints)
def test_filter_fusion(xs: list[int]) -> None:
    p: Callable[[int], bool] = lambda n: n % 2 == 0  # noqa: E731
    q: Callable[[int], bool] = lambda n: n > 3  # noqa: E731
    fused = LazyList.of(xs).filter(lambda n: p(n) and q(n))
    assert list(LazyList.of(xs).filter(p).filter(q)) == list(fused)


@given(ints)
def test_filter_map_commute_through_the_function(xs: list[int]) -> None:
    """``filter p . map f = map f . filter (p . f)``."""
    f: Callable[[int], int] = lambda n: n * n  # noqa: E731
    p: Callable[[int], bool] = lambda n: n % 3 == 1  # noqa: E731
    left = LazyList.of(xs).map(f).filter(p)
    right = LazyList.of(xs).filter(lambda n: p(f(n))).map(f)
    assert list(left) == list(right)


@given(ints, st.integers(0, 40), st.integers(0, 40))
def test_take_drop_against_slicing(xs: list[int], n: int, m: int) -> None:
    ll = LazyList.of(xs)
    assert list(ll.drop(m).take(n)) == xs[m : m + n]
    assert list(ll[m : m + n]) == xs[m : m + n]


@given(ints, st.integers(0, 10), st.integers(0, 35), st.integers(1, 4))
def test_slices_against_list_slices(xs: list[int], i: int, j: int, k: int) -> None:
    assert list(LazyList.of(xs)[i:j:k]) == xs[i:j:k]
    assert list(LazyList.of(xs)[i::k]) == xs[i::k]


@given(ints, ints)
def test_append_and_zip_with(xs: list[int], ys: list[int]) -> None:
    assert list(LazyList.of(xs) + ys) == xs + ys
    assert list(LazyList.of(xs) + LazyList.of(ys)) == xs + ys
    assert list(LazyList.of(xs).zip_with(operator.sub, LazyList.of(ys))) == [
        x - y for x, y in zip(xs, ys, strict=False)
    ]


@given(ints, st.integers(-5, 5))
def test_takewhile_dropwhile_flatmap(xs: list[int], pivot: int) -> None:
    from itertools import dropwhile, takewhile

    below: Callable[[int], bool] = lambda n: n < pivot  # noqa: E731
    assert list(LazyList.of(xs).takewhile(below)) == list(takewhile(below, xs))
    assert list(LazyList.of(xs).dropwhile(below)) == list(dropwhile(below, xs))
    assert list(LazyList.of(xs).flatmap(lambda n: [n] * (n % 3))) == [
        n for n in xs for _ in range(n % 3)
    ]


@given(st.lists(st.lists(st.integers(0, 3), max_size=3), max_size=4))
def test_sharing_cp_is_birds_cp(xss: list[list[int]]) -> None:
    from itertools import product

    assert list(shared_cp(xss)) == list(product(*xss))


# --- call-by-need: computed once, shared ---------------------------------------------------


def test_two_consumers_of_one_tail_compute_each_element_once() -> None:
    computed: list[int] = []

    def square(n: int) -> int:
        computed.append(n)
        return n * n

    squares = LazyList.of(range(10)).map(square)
    shared = squares.tail
    first_reader = list(shared.take(5))
    second_reader = list(shared)
    assert first_reader == second_reader[:5]
    assert computed == list(range(10))  # each once, in order, though read 15 times


def test_cp_computes_the_tail_product_once() -> None:
    rows_read: list[int] = []

    def row(k: int) -> LazyList[int]:
        def note(n: int) -> int:
            rows_read.append(k)
            return n

        return LazyList.of(range(3)).map(note)

    assert sum(1 for _ in shared_cp([row(0), row(1), row(2)])) == 27
    assert sorted(rows_read) == [0, 0, 0, 1, 1, 1, 2, 2, 2]


def test_the_probe_counts_computed_apart_from_read() -> None:
    probe = Probe()
    xs = probe.lazylist("square", LazyList.of(range(6)).map(lambda n: n * n))
    assert list(xs) == list(xs) == [0, 1, 4, 9, 16, 25]
    assert probe.counts == {"square computed": 6, "square read": 12}


# --- laziness made visible ---------------------------------------------------------------


def test_forced_and_repr_force_nothing() -> None:
    xs = LazyList.of(count()).map(lambda n: n * 2)
    assert repr(xs) == "LazyList([...])"
    assert xs.forced() == 0
    assert xs[3] == 6
    assert repr(xs) == "LazyList([0, 2, 4, 6, ...])"
    assert xs.forced() == 4
    finite = LazyList.of("ab")
    list(finite)
    assert repr(finite) == "LazyList(['a', 'b'])"


def test_repr_abbreviates_a_long_forced_prefix() -> None:
    xs = LazyList.of(range(100))
    xs[49]
    assert repr(xs).endswith("19, <30 more forced>, ...])")


def test_bool_forces_one_cell() -> None:
    pulled: list[int] = []

    def pull(n: int) -> int:
        pulled.append(n)
        return n

    xs = LazyList.of(map(pull, range(5)))
    assert xs and not LazyList.empty()
    assert pulled == [0]


# --- errors ------------------------------------------------------------------------------


def test_index_errors_say_why() -> None:
    xs = LazyList.of(range(3))
    with pytest.raises(IndexError, match="index 5 out of range: the list has 3 elements"):
        xs[5]
    with pytest.raises(IndexError, match="negative indices would force the whole list"):
        xs[-1]
    with pytest.raises(ValueError, match="negative bounds"):
        xs[-2:]
    with pytest.raises(ValueError, match="step cannot be zero"):
        xs[::0]
    with pytest.raises(IndexError, match="head of an empty LazyList"):
        _ = LazyList.empty().head
    with pytest.raises(IndexError, match="tail of an empty LazyList"):
        _ = LazyList.empty().tail


def test_a_list_that_needs_itself_is_a_loop_not_a_hang() -> None:
    xs: LazyList[int] = LazyList.fix(lambda xs: xs.tail)
    with pytest.raises(LazyListLoop, match="depends on itself"):
        _ = xs.head


def test_a_thunk_that_returns_no_list_is_a_type_error() -> None:
    bad = LazyList.cons(1, lambda: [2])  # type: ignore[arg-type, return-value]
    with pytest.raises(TypeError, match="must return a LazyList, got list"):
        list(bad)
    with pytest.raises(TypeError, match="as its tail"):
        LazyList.cons(1, 2)  # type: ignore[arg-type]


def test_an_exception_while_forcing_leaves_the_cell_to_retry() -> None:
    attempts = 0

    def flaky(n: int) -> int:
        nonlocal attempts
        attempts += 1
        if attempts == 1:
            raise OSError("once")
        return n

    xs = LazyList.of([1, 2]).map(flaky)
    with pytest.raises(OSError):
        _ = xs.head
    assert xs.head == 1 and list(xs) == [1, 2]


# --- long lists -----------------------------------------------------------------------------


def test_a_million_cells_forced_and_dropped_without_recursion() -> None:
    xs = LazyList.of(range(LONG)).map(lambda n: n + 1)
    assert xs[LONG - 1] == LONG
    assert xs.forced() == LONG
    del xs
    gc.collect()  # freeing the chain must not overflow the C stack


# A cell kept takes some 120 bytes: 10^6 of them (10^5 from source) would hold 120 MB
# (13 MB), far over the 1 MB allowed; `make slow` iterates ten times as many.  Untraced
# (the tracer makes it five times longer; other tests reach its lines), so from source it
# is `make slow`'s.
@pytest.mark.parametrize(
    "n",
    [
        pytest.param(max(LONG, 10**5), marks=pytest.mark.untraced),
        pytest.param(10 * LONG, marks=pytest.mark.slow),
    ],
)
def test_iterating_a_long_list_keeps_none_of_its_cells(n: int) -> None:
    with Probe(memory=True) as probe:
        total = sum(iter(LazyList.of(range(n))))
    assert total == n * (n - 1) // 2
    assert probe.peak_bytes is not None and probe.peak_bytes < 1_000_000


def test_a_long_chain_of_indirections_is_a_loop() -> None:
    xs = LazyList.of(range(10))
    nothing: LazyList[int] = LazyList.empty()
    for _ in range(LONG // 10):
        xs = nothing + xs
    assert list(xs.take(3)) == [0, 1, 2]


def test_nesting_too_deep_is_a_clear_error_not_a_crash() -> None:
    xs = LazyList.of(range(10))
    for _ in range(MAX_NESTING + 1):
        xs = xs + LazyList.empty()
    with pytest.raises(RecursionError):
        _ = xs.head
    shallow = LazyList.of(range(3))
    for _ in range(300):
        shallow = shallow.map(lambda n: n + 1)
    assert list(shallow) == [300, 301, 302]


# --- types -----------------------------------------------------------------------------------


def test_types_are_inferred() -> None:
    xs = LazyList.of([1, 2])
    assert_type(xs, LazyList[int])
    assert_type(xs.map(str), LazyList[str])
    assert_type(xs.zip_with(lambda a, b: (a, b), LazyList.of("ab")), LazyList[tuple[int, str]])
    assert_type(xs[0], int)
    assert_type(xs[0:1], LazyList[int])
    assert_type(shared_cp([xs, xs]), LazyList[tuple[int, ...]])
    assert_type(xs.flatmap(lambda n: "x" * n), LazyList[str])


def test_fix_of_a_function_that_returns_no_list_is_a_type_error() -> None:
    xs: LazyList[int] = LazyList.fix(lambda xs: [1])  # type: ignore[arg-type, return-value]
    with pytest.raises(TypeError, match="must return a LazyList, got list"):
        list(xs)


# --- call-by-need under threads and failures -------------------------------------


def test_threads_reading_one_list_wait_for_each_other_and_each_cell_is_computed_once() -> None:
    calls = Counter[int]()
    lock = threading.Lock()

    def slow(n: int) -> int:
        with lock:
            calls[n] += 1
        time.sleep(0.001)
        return n * n

    xs = LazyList.of(range(100)).map(slow).take(20)
    start = threading.Barrier(8)
    results: list[list[int]] = []
    errors: list[BaseException] = []

    def read() -> None:
        start.wait()
        try:
            results.append(list(xs))
        except BaseException as error:
            errors.append(error)

    readers = [threading.Thread(target=read) for _ in range(8)]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join(10)
    assert errors == []
    assert results == [[n * n for n in range(20)]] * 8
    assert calls == Counter(range(20))  # each cell once, whoever forced it


def test_a_loop_through_two_threads_is_reported_never_a_deadlock() -> None:
    gate = threading.Barrier(2)
    opened = threading.Event()

    def meet(then: Callable[[], LazyList[int]]) -> LazyList[int]:
        if not opened.is_set():
            gate.wait(5)
            opened.set()
        time.sleep(0.05)
        return then()

    xs: LazyList[int] = LazyList.cons(0, lambda: meet(lambda: ys.tail))
    ys: LazyList[int] = LazyList.cons(0, lambda: meet(lambda: xs.tail))
    errors: list[BaseException] = []

    def read(zs: LazyList[int]) -> None:
        try:
            zs[1]
        except BaseException as error:
            errors.append(error)

    readers = [threading.Thread(target=read, args=(zs,)) for zs in (xs, ys)]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join(10)
    assert not any(reader.is_alive() for reader in readers), "deadlocked"
    assert len(errors) == 2
    assert all(isinstance(error, LazyListLoop) for error in errors)


def test_a_thread_that_ended_is_forgotten_as_the_recent_one_its_ident_may_be_reused() -> None:
    from lazyfun.lazylist import blackholes

    idents: list[int] = []

    def walk() -> None:
        idents.append(threading.get_ident())
        assert sum(iter(LazyList.of(range(10)))) == 45
        assert blackholes.RECENT.pair[0] == idents[0]  # it forced last

    worker = threading.Thread(target=walk)
    worker.start()
    worker.join(10)
    assert idents and blackholes.RECENT.pair[0] != idents[0]
    assert sum(iter(LazyList.of(range(10)))) == 45
    assert blackholes.RECENT.pair[0] == threading.get_ident()


def test_a_failed_source_fails_the_same_way_on_every_read() -> None:
    def source() -> Iterator[int]:
        yield 0
        yield 1
        raise ValueError("the source broke")

    xs = LazyList.of(source())
    for _ in range(3):
        with pytest.raises(ValueError, match="the source broke"):
            list(xs)
    assert xs[1] == 1
    with pytest.raises(ValueError):
        xs[2]

    def f(n: int) -> int:
        if n == 2:
            raise KeyError(n)
        return n

    ys = LazyList.of(map(f, range(5)))
    with pytest.raises(KeyError):
        list(ys)
    with pytest.raises(KeyError):
        ys[2]  # not 3: the cell keeps its failure
    with pytest.raises(KeyError):
        list(ys)


def test_an_interrupt_leaves_the_cell_to_be_forced_again() -> None:
    interrupted = [True]

    def thunk() -> LazyList[int]:
        if interrupted[0]:
            interrupted[0] = False
            raise KeyboardInterrupt
        return LazyList.of([2])

    xs = LazyList.cons(1, thunk)
    with pytest.raises(KeyboardInterrupt):
        list(xs)
    assert list(xs) == [1, 2]


def test_take_refuses_a_negative_count() -> None:
    with pytest.raises(ValueError, match="at least 0"):
        LazyList.of(range(3)).take(-1)
    with pytest.raises(ValueError, match="at least 0"):
        LazyList.of(range(3)).drop(-1)
