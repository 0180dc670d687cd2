"""The C flow engine (``lazyfun/streams/sync/flow_c/``) against the Python forms of the
steps it stands for: the same items, and the same errors at the same places, from
sources that raise anywhere; and what a C iterator owes the collector."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable, Iterable, Iterator
from types import SimpleNamespace
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lazyfun.streams.sync import flow, steps
from lazyfun.streams.sync.steps import DROPPED, Recovery
from tests import raising
from tests.test_flow import FakeClock

try:
    from lazyfun.streams.sync._flow import Calls, Counted, FlatMapped, Guarded, Tally
except ImportError:
    pytest.skip("the C flow engine is not built here", allow_module_level=True)

Kind = type[Exception]
failures = st.dictionaries(st.integers(0, 24), st.sampled_from([ValueError, KeyError]))


class Flaky(Iterator[int]):
    """0, 1, ... n - 1, raising ``failing[i]`` in place of ``i`` and going on after it."""

    def __init__(self, n: int, failing: dict[int, Kind]) -> None:
        self.n, self.failing, self.at = n, failing, 0

    def __next__(self) -> int:
        at = self.at
        if at >= self.n:
            raise StopIteration
        self.at += 1
        if at in self.failing:
            raise self.failing[at](at)
        return at


def _generated(n: int, failing: dict[int, Kind]) -> Iterator[int]:
    """As :class:`Flaky`, but a generator: it ends at its first error."""
    for at in range(n):
        if at in failing:
            raise failing[at](at)
        yield at


def sources(n: int, failing: dict[int, Kind], generator: bool) -> Iterator[int]:
    return _generated(n, failing) if generator else Flaky(n, failing)


def outcomes(items: Iterator[object], reads: int = 40) -> list[object]:
    """What each of ``reads`` reads gives: an item, an error (its type, arguments and
    context's type), or the end."""
    seen: list[object] = []
    for _ in range(reads):
        try:
            seen.append(next(items))
        except StopIteration:
            seen.append("end")
        except Exception as error:  # the error itself is compared by what it says
            seen.append((type(error), error.args, type(error.__context__)))
    return seen


def _odd(error: BaseException) -> bool:
    return bool(error.args[0] % 2)


def _negated(error: BaseException) -> int:
    return -1 - int(error.args[0])


def _fails_on_fives(error: BaseException) -> None:
    if error.args[0] % 5 == 0:
        raise RuntimeError(f"do failed on {error.args[0]}")


recoveries = st.fixed_dictionaries(
    {
        "errors": st.sampled_from([(), (ValueError,), (KeyError, ValueError), (LookupError,)]),
        "where": st.sampled_from([None, _odd]),
        "replace": st.sampled_from([None, _negated]),
        "do": st.sampled_from([None, _fails_on_fives]),
        "stop": st.booleans(),
    }
)


@given(st.integers(0, 24), failures, st.booleans(), recoveries)
def test_law_the_c_catch_is_the_python_catch(
    n: int, failing: dict[int, Kind], generator: bool, recovery: dict[str, object]
) -> None:
    def made() -> Recovery:
        return Recovery(**recovery)  # type: ignore[arg-type]

    python = steps.catch(sources(n, failing, generator), made())
    c = Guarded(sources(n, failing, generator), made(), DROPPED)
    assert outcomes(c) == outcomes(python)


def _inner(x: int) -> Any:
    """What a flatmap's function makes of ``x``: it fails on a multiple of 7, gives a
    non-iterable on 9, an iterator that fails half way (and goes on) on multiples of 3,
    a generator that fails half way (and ends) on multiples of 4, else a list."""
    if x % 7 == 6:
        raise ValueError(f"f failed on {x}")
    if x == 9:
        return x
    if x % 3 == 2:
        return Flaky(x % 5, {1: KeyError})
    if x % 4 == 3:
        return _generated(x % 5, {2: LookupError})
    return [x] * (x % 3)


@given(st.integers(0, 24), failures, st.booleans())
def test_law_the_c_flatmap_is_the_python_flatmap(
    n: int, failing: dict[int, Kind], generator: bool
) -> None:
    python = steps.flat_map(sources(n, failing, generator), _inner)
    c = FlatMapped(sources(n, failing, generator), _inner)
    assert outcomes(c, 80) == outcomes(python, 80)


def test_the_stream_flatmap_runs_on_the_c_engine() -> None:
    assert type(flow.flat_map(iter([1]), lambda n: [n])).__name__ == (
        "FlatMapped" if flow.BUILT else "chain"
    )


@given(st.integers(0, 24), failures, st.booleans(), st.integers(0, 30))
def test_law_the_c_take_is_the_python_take(
    n: int, failing: dict[int, Kind], generator: bool, k: int
) -> None:
    python = steps.take(sources(n, failing, generator), k)
    assert outcomes(Counted(sources(n, failing, generator), k)) == outcomes(python)


@pytest.mark.untraced
@given(st.integers(0, 24), failures, st.booleans(), st.integers(1, 5))
def test_law_the_c_throttle_is_the_python_throttle(
    n: int, failing: dict[int, Kind], generator: bool, count: int
) -> None:
    def throttled(form: Callable[..., Iterator[int]]) -> tuple[list[object], list[float]]:
        clock = FakeClock()
        items = form(sources(n, failing, generator), count, 1.0, clock, clock.sleep)
        return outcomes(items), clock.slept

    assert throttled(flow.counted_throttle) == throttled(steps.throttle)


def test_take_closes_nothing_before_its_last_item_and_calls_on_last_once() -> None:
    calls: list[int] = []
    counted = Counted(iter(range(5)), 3, lambda: calls.append(len(calls)))
    assert [next(counted), next(counted)] == [0, 1] and calls == []
    assert next(counted) == 2 and calls == [0]
    assert list(counted) == [] and calls == [0]
    assert counted.__length_hint__() == 0
    with pytest.raises(ValueError, match="at least 0"):
        Counted(iter(()), -1)


def test_a_refilled_count_reads_on_by_each_allowance() -> None:
    allowances = iter([2, 1, 0])
    stretches: list[int] = []
    counted = Counted(iter(range(9)), 0, lambda: stretches.append(0), lambda: next(allowances))
    assert [next(counted), next(counted), next(counted)] == [0, 1, 2]
    assert len(stretches) == 2 and counted.left == 0
    with pytest.raises(ValueError, match="at least 1, got 0"):
        next(counted)


def test_a_cycle_through_a_c_iterator_is_collected() -> None:
    class Box:
        error: BaseException | None = None

        def note(self, error: BaseException) -> None:
            self.error = error

        def last(self) -> None:
            self.error = None

        def two(self) -> int:
            return 2

    box = Box()
    guarded = Guarded(Flaky(3, {1: ValueError}), Recovery((ValueError,), do=box.note), DROPPED)
    counted = Counted(Flaky(3, {}), 0, box.last, box.two)
    box.guarded, box.counted = guarded, counted  # type: ignore[attr-defined]
    assert list(guarded) == [0, 2] and list(counted) == [0, 1, 2]
    watched = weakref.ref(box)
    del box, guarded, counted
    gc.collect()
    assert watched() is None


def test_a_c_iterator_read_again_from_inside_its_own_read_refuses() -> None:
    items: list[Iterator[int]] = []

    def again(error: BaseException) -> None:
        next(items[0])

    items.append(Guarded(Flaky(3, {1: ValueError}), Recovery((ValueError,), do=again), DROPPED))
    assert next(items[0]) == 0
    with pytest.raises(ValueError, match="already executing"):
        next(items[0])


@given(n=st.integers(0, 30), failing=failures)
def test_law_a_tally_passes_every_item_and_error_and_counts_them(
    n: int, failing: dict[int, Kind]
) -> None:
    """``Tally`` changes nothing that passes (items, and errors at their places, the
    reading going on after them) and counts each, as a hand count does."""
    tally: Tally[int] = Tally(Flaky(n, failing))
    got = _read_through(tally)
    assert got == _read_through(Flaky(n, failing))
    errors = sum(1 for at in failing if at < n)
    assert (tally.items, tally.errors, tally.held) == (n - errors, errors, 0)
    assert tally.seconds >= 0.0
    assert next(tally, "ended") == "ended"


def test_a_tally_holds_the_longest_list_and_the_most_hold_said() -> None:
    lists = Tally(iter([[1, 2], [3], [4, 5, 6], 7]), lists=True)
    assert list(lists) == [[1, 2], [3], [4, 5, 6], 7]
    assert lists.held == 3
    said = iter([2, None, 5, 1])
    sampled = Tally(iter("abcd"), hold=lambda: next(said))
    assert "".join(sampled) == "abcd" and sampled.held == 5
    broken = Tally(iter("ab"), hold=lambda: 1 // 0)
    with pytest.raises(ZeroDivisionError):
        next(broken)


def test_calls_counts_each_call_from_every_thread() -> None:
    from concurrent.futures import ThreadPoolExecutor

    double = Calls(lambda n, *, by=2: n * by)
    assert double(3) == 6 and double(3, by=3) == 9 and double.made == 2
    with ThreadPoolExecutor(4) as pool:
        assert sum(pool.map(lambda n: int(str(double(n))), range(1000))) == 999 * 1000
    assert double.made == 1002
    with pytest.raises(TypeError, match="needs a function"):
        Calls(3)  # type: ignore[arg-type]


def _read_through(items: Iterator[int]) -> list[object]:
    """The items and the errors' types, in order, reading on after each error."""
    seen: list[object] = []
    while True:
        try:
            seen.append(next(items))
        except StopIteration:
            return seen
        except (ValueError, KeyError) as error:
            seen.append(type(error))


# --- Folder: aggregate's loop, against the Python loop it stands for -------------------

_NUMBERS = st.one_of(st.integers(-(2**70), 2**70), st.floats(width=64))
_VALUES = st.one_of(_NUMBERS, _NUMBERS, st.sampled_from([None, "x", 1e308, -1e308, 0.1]))
_VALUED = st.fixed_dictionaries({"k": st.integers(0, 3), "v": _VALUES})
_ITEMS = st.one_of(
    _VALUED,
    _VALUED,
    _VALUED,
    st.fixed_dictionaries({"k": st.integers(0, 3)}),  # no value: a KeyError
    st.tuples(st.integers(0, 3), _VALUES),  # no mapping of names: an AttributeError
    st.builds(SimpleNamespace, k=st.integers(0, 3), v=_VALUES),  # no mapping: attributes
)
_NAMED = st.sampled_from(["count", "sum", "min", "max", "first", "last", "mean", "var"])


def _value(item: Any) -> Any:
    if isinstance(item, SimpleNamespace):
        return item.v
    return item["v"] if isinstance(item, dict) else item[1]


@given(
    items=st.lists(_ITEMS, max_size=40),
    named=st.lists(st.tuples(_NAMED, st.booleans()), min_size=1, max_size=4),
    by=st.sampled_from(["name", "function", "one"]),
    budget=st.booleans(),
)
def test_a_folder_gives_the_python_loops_states_and_errors_at_the_same_items(
    items: list[Any], named: list[tuple[str, bool]], by: str, budget: bool
) -> None:
    """Each item into its key's state: the C ``Folder`` and the loop ``_written`` writes
    give the same states and raise the same errors at the same items, going on after.
    (The C loop's states are smaller, so a budget is passed later: a test of its own.)"""
    from lazyfun.streams import verbs

    if verbs.FOLDER is None:
        pytest.skip("the C flow engine is not in use")
    spec = {
        f"r{i}": name if name == "count" else (name, "v" if inline else _value)
        for i, (name, inline) in enumerate(named)
    }
    key = {"name": verbs.field("k"), "function": lambda i: _value(i) is None, "one": verbs.one_key}
    # a budget's grown(key) called for each new key (the C states are the smaller)
    memory = 10**6 if budget else None
    assert _folded(key[by], spec, items, True, memory) == _folded(
        key[by], spec, items, False, memory
    )


_SIDES = st.one_of(
    st.fixed_dictionaries({"k": st.integers(0, 3), "v": _VALUES}),
    st.fixed_dictionaries({"v": _VALUES}),  # no k: a KeyError
    st.builds(SimpleNamespace, k=st.integers(0, 3), v=_VALUES),  # attributes
    st.tuples(st.integers(0, 3), _VALUES),  # places, and no names: an AttributeError
    st.lists(st.integers(0, 3), max_size=2),  # a list: a place read, or an IndexError
    st.integers(0, 3),  # nothing to read: a TypeError or an AttributeError
)
_PATHS = st.sampled_from([("k",), (1, "k"), (1, 0), (0, "v"), (0, 1), (-1, "v"), (2,), (0, 5)])


@given(
    pairs=st.lists(st.one_of(st.tuples(_SIDES, _SIDES), _SIDES), max_size=30),
    by=_PATHS,
    reads=st.lists(
        st.tuples(st.sampled_from(["count", "sum", "min", "last"]), _PATHS), min_size=1, max_size=3
    ),
)
def test_law_a_folder_reads_a_fields_path_as_the_python_getter_does(
    pairs: list[Any], by: tuple[str | int, ...], reads: list[tuple[str, tuple[str | int, ...]]]
) -> None:
    """A key and values read by a path (``field(1, "k")``: a join's pair's field), inline
    in C, give the states and errors, at the same items, of the Python loop calling the
    path's getter: each step a place (``x[i]``) or a name (a key, else an attribute)."""
    from lazyfun.streams import verbs

    if verbs.FOLDER is None:
        pytest.skip("the C flow engine is not in use")
    spec: dict[str, Any] = {
        f"r{i}": name if name == "count" else (name, verbs.field(*path))
        for i, (name, path) in enumerate(reads)
    }
    key: Any = verbs.field(*by)
    assert _folded(key, spec, pairs, True) == _folded(key, spec, pairs, False)


def _folded(
    key: Any, spec: dict[str, Any], items: Iterable[Any], engine: bool, memory: int | None = None
) -> tuple[list[tuple[str, int | None]], str]:
    """Each error of folding ``items`` by ``spec`` (in order: the fold goes on after
    each), with the reads a :class:`Flaky` source had made by then, and the output, by
    the C ``Folder`` (``engine``) or the Python loop."""
    from lazyfun.streams import verbs

    acc = verbs.Accumulators(key, verbs.reductions(spec), memory=memory)
    acc._add_all = verbs._adder(key, acc.named or [], engine=engine)
    acc.state = verbs._states(acc._add_all)
    errors, source = [], iter(items)
    while True:
        try:
            acc.add_all(source)
            break
        except Exception as error:
            errors.append((f"{type(error).__name__}: {error}", getattr(source, "at", None)))
    try:
        return errors, repr(list(acc.output().items()))
    except TypeError as error:  # a sum of numbers and None ends in a TypeError, in both
        return errors, repr(error)


_KEYS = st.one_of(
    st.integers(-3, 3),
    st.integers(-(2**64), 2**64),  # past 64 bits: the table moves into a dict
    st.sampled_from([True, False, 1.0, 2.0, 0.5, "a", None]),  # equal to ints, or not ints
)


@given(
    keyed=st.lists(
        st.tuples(st.one_of(st.integers(0, 300), _KEYS), st.one_of(st.floats(width=64), _VALUES)),
        max_size=300,
    ),
    named=st.lists(st.sampled_from(["count", "sum"]), min_size=1, max_size=3),
)
def test_law_a_folders_table_of_integer_keys_is_the_python_loops_dict(
    keyed: list[tuple[Any, Any]], named: list[str]
) -> None:
    """Counts and sums by integer keys are folded in a table of their own (one place in
    memory a key) until a key or a value it cannot hold comes (a key past 64 bits, not an
    int, a bool; a value not a float; a sum needing more than two floats); then in the
    dict the Python loop keeps, from where the table left off: the same states, in the
    same order of keys (1.0 and True are the key 1, as in a dict), and the same errors."""
    from lazyfun.streams import verbs

    if verbs.FOLDER is None:
        pytest.skip("the C flow engine is not in use")
    spec = {f"r{i}": name if name == "count" else (name, "v") for i, name in enumerate(named)}
    items = [{"k": k, "v": v} for k, v in keyed]
    by: Any = verbs.field("k")
    assert _folded(by, spec, items, True) == _folded(by, spec, items, False)


_RINGED = st.one_of(
    st.fixed_dictionaries({"k": st.integers(0, 2**20), "v": st.floats(width=64)}),
    st.fixed_dictionaries({"k": st.integers(0, 30), "v": st.floats(-1e6, 1e6)}),
    st.fixed_dictionaries({"k": st.integers(0, 30)}),  # no value: a KeyError in reading it
    st.fixed_dictionaries({"k": st.just(-1), "v": st.just(1.0)}),  # the key function fails
    st.fixed_dictionaries({"k": _KEYS, "v": _VALUES}),  # one the table cannot hold
)


def _key_or_fail(item: dict[str, Any]) -> Any:
    if item["k"] == -1:
        raise KeyError("the key function failed")
    return item["k"]


@given(
    items=st.lists(_RINGED, max_size=120),
    failing=st.sets(st.integers(0, 130)),
    named=st.lists(st.sampled_from(["count", "sum"]), min_size=1, max_size=3),
    by=st.sampled_from(["name", "function"]),
)
def test_law_a_folder_reading_ahead_folds_every_item_it_takes_before_an_error_passes(
    items: list[Any], failing: set[int], named: list[str], by: str
) -> None:
    """While the table holds the states, the C fold reads a few items ahead of folding
    them (to fetch their keys' places in memory); an error in reading an item (the
    source's, the key function's, a missing value) still passes on with every item
    before it folded and none after it taken: the same errors, taken at the same item,
    the same states as the Python loop, reading on after each error."""
    from lazyfun.streams import verbs

    if verbs.FOLDER is None:
        pytest.skip("the C flow engine is not in use")
    spec = {f"r{i}": name if name == "count" else (name, "v") for i, name in enumerate(named)}
    key: Any = verbs.field("k") if by == "name" else _key_or_fail
    folded = [_folded(key, spec, raising.Flaky(items, failing), engine) for engine in (True, False)]
    assert folded[0] == folded[1]


def test_a_folders_table_holds_many_keys_and_says_each_state() -> None:
    """Past its first size the table grows (every key found again after), and ``len``,
    ``states[k]`` and ``list(k)`` read it as a dict of Accs would be read."""
    from lazyfun.streams import verbs

    if verbs.FOLDER is None:
        pytest.skip("the C flow engine is not in use")
    acc = verbs.Accumulators(verbs.field("k"), verbs.reductions({"n": "count", "s": ("sum", "v")}))
    keys = [(i * 7919) % 10_007 - 5_000 for i in range(10_007)]
    acc.add_all({"k": k, "v": 0.5} for k in keys + keys[:100])
    state = acc.state
    assert len(state) == 10_007
    assert state.list(keys[0]) == [2, [1.0, 0.0]] and state.list(keys[-1]) == [1, [0.5, 0.0]]
    assert type(state[keys[5]]).__name__ == "Accs"
    with pytest.raises(KeyError):
        state[10**30]
    out = acc.output()
    assert list(out) == keys and out[keys[0]] == {"n": 2, "s": 1.0}
    assert len(acc.state) == 0


def test_a_folders_exact_sum_spills_and_folds_as_the_python_loop_does() -> None:
    from lazyfun.streams import verbs

    if verbs.FOLDER is None:
        pytest.skip("the C flow engine is not in use")
    values = [1e16, 1.0, -1e16, 0.1] * 50 + [1e308, 1e308, -1e308, float("inf"), 2.5]
    states: list[Any] = []
    for engine in (True, False):
        acc = verbs.Accumulators(verbs.one_key, verbs.reductions({"s": ("sum", lambda v: v)}))
        acc._add_all = verbs._adder(verbs.one_key, acc.named or [], engine=engine)
        acc.state = verbs._states(acc._add_all)
        acc.add_all(values[:-2])
        held = acc.state[None]
        listed = held.list(acc._add_all) if engine else held
        states.append(list(listed[0]))  # the floats kept beside hi and lo too
        acc.add_all(values[-2:])
        states.append(acc.output())
    assert states[0] == states[2] and states[1] == states[3]
    assert len(states[0]) > 2  # the rare case was taken


# --- Runs: a source's records handed on from lists, against its Python form -------------


@given(runs=st.lists(st.one_of(st.lists(st.integers(), max_size=4), st.none()), max_size=12))
def test_runs_hand_on_the_lists_items_and_the_errors_of_refill_as_the_python_form(
    runs: list[list[int] | None],
) -> None:
    """Each ``_refill`` sets the next list (or raises in place of a None), and the
    reading goes on after an error; ``given`` counts each list's items given."""
    from lazyfun.io.sources import _Runs
    from lazyfun.streams.sync._flow import Runs

    def read(base: type[Any]) -> list[object]:
        class Listed(base):  # type: ignore[misc]
            def __init__(self) -> None:
                self.left = iter(runs)

            def _refill(self) -> None:
                run = next(self.left)  # StopIteration: the end
                if run is None:
                    raise KeyError("a failed record")
                self.run = run

        listed = Listed()
        seen: list[object] = []
        while True:
            try:
                seen.append((next(listed), listed.given))
            except StopIteration:
                return seen
            except KeyError as error:
                seen.append(repr(error))

    assert read(Runs) == read(_Runs)


def test_a_runs_subclass_in_a_cycle_is_collected() -> None:
    from lazyfun.streams.sync._flow import Runs

    class Cyclic(Runs):
        def _refill(self) -> None:
            raise StopIteration

    cyclic = Cyclic()
    cyclic.me = cyclic  # type: ignore[attr-defined]
    cyclic.run = [cyclic]
    gone = weakref.ref(cyclic)
    del cyclic
    gc.collect()
    assert gone() is None


def test_a_fold_in_a_cycle_through_its_key_function_is_collected() -> None:
    """A key's state of counts and float sums holds no reference (left to no collector),
    so a job whose key is its own method is freed with its states."""
    from lazyfun.streams.verbs import Accumulators, reductions

    class Job:
        def __init__(self) -> None:
            self.acc = Accumulators(self.key, reductions({"n": "count", "s": ("sum", "x")}))

        def key(self, item: dict[str, Any]) -> Any:
            return item["k"]

    job = Job()
    job.acc.add_all([{"k": i % 3, "x": float(i)} for i in range(10)])
    gone = weakref.ref(job)
    del job
    gc.collect()
    assert gone() is None


def test_a_min_whose_comparison_folds_into_its_own_key_again_reads_no_freed_state() -> None:
    from lazyfun.streams.verbs import Accumulators, reductions

    acc = Accumulators(lambda item: 0, reductions({"m": ("min", lambda item: item)}))
    compared: list[object] = []

    class Old:
        def __gt__(self, other: object) -> bool:
            compared.append(other)
            return other == -1

    class Folding:
        def __lt__(self, other: object) -> Any:
            acc.add(-1)  # replaces the state's Old, its last reference but the step's
            return NotImplemented

    acc.add(Old())
    acc.add(Folding())  # then Old.__gt__, reflected: on a live Old
    assert [type(other) for other in compared] == [int, Folding]
    assert acc.output() == {0: {"m": -1}}


@pytest.mark.parametrize(
    "args",
    [
        (None, None, (None,), (1,), (None,), (None,), None, list),  # a sum that reads nothing
        (None, None, ("x",), (6,), (None,), (None,), len, list),  # a step not a function
        (None, None, ("x",), (9,), (len,), (len,), len, list),  # no such reduction
        (None, 3, ("x",), (2,), (len,), (len,), len, list),  # a name not a str
    ],
)
def test_a_folder_refuses_reductions_it_could_not_run(args: tuple[Any, ...]) -> None:
    from lazyfun.streams.sync._flow import Folder

    with pytest.raises((TypeError, ValueError), match=r"^Folder: "):
        Folder(*args)


def _rows(n: int, failing: dict[int, Kind], generator: bool, kinds: int) -> Iterator[Any]:
    """This side's items: a dict of an ``id`` (an int, a str now and then where ``kinds``
    says, a float for 5), from a source that raises anywhere."""

    def row(at: int) -> Any:
        k: Any = at % 7
        if kinds and at % kinds == 0:
            k = str(k)
        return {"id": 5.0 if k == 5 else k, "at": at}

    return map(row, sources(n, failing, generator))


def _failing_id(row: dict[str, Any]) -> Any:
    if row["at"] % 9 == 8:
        raise KeyError(f"no id in {row['at']}")
    return row["id"]


@given(
    st.integers(0, 24),
    failures,
    st.booleans(),
    st.sampled_from([0, 4, 11]),
    st.lists(st.integers(0, 9), max_size=12),
    st.booleans(),
    st.booleans(),
)
def test_law_the_c_probe_is_the_python_probe(
    n: int,
    failing: dict[int, Kind],
    generator: bool,
    kinds: int,
    ids: list[int],
    by_field: bool,
    left: bool,
) -> None:
    # a table of int ids (dense ones indexed, repeats in `more`), probed by items whose
    # ids are ints, floats, or strs (a KeyMismatch at its place), read by their field or
    # by a function that fails: the same pairs and errors at the same reads
    from lazyfun.streams.joins import HashTable
    from lazyfun.streams.sync import vsteps
    from lazyfun.streams.verbs import field

    key = field("id") if by_field else _failing_id

    def joined(built: bool) -> list[object]:
        table: HashTable[Any] = HashTable(lambda row: row["id"], None)
        other = iter([{"id": k, "row": place} for place, k in enumerate(ids)])
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(flow, "BUILT", built)
            pairs = vsteps.hash_join(_rows(n, failing, generator, kinds), key, other, table, left)
            return outcomes(pairs, 60)

    assert joined(True) == joined(False)


class _Slotted(msgspec.Struct):
    """An item whose ``id`` is a slot: the probe may see it ahead in a run."""

    id: Any
    at: int


class _Watched:
    """An item whose ``id`` runs code to read: each read counted (never seen ahead)."""

    reads = 0

    def __init__(self, id: Any, at: int) -> None:
        self._id, self.at = id, at

    @property
    def id(self) -> Any:
        _Watched.reads += 1
        return self._id

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Watched) and (self._id, self.at) == (other._id, other.at)

    def __repr__(self) -> str:
        return f"_Watched({self._id!r}, {self.at})"


@given(
    st.lists(st.one_of(st.lists(st.integers(-2, 12), max_size=20), st.none()), max_size=8),
    st.lists(st.integers(0, 9), max_size=12),
    st.sampled_from([_Slotted, _Watched]),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
def test_law_a_probe_looking_ahead_in_a_run_gives_the_pairs_and_reads_of_the_python_probe(
    runs: list[list[int] | None],
    ids: list[int],
    kind: Callable[[Any, int], Any],
    caught: bool,
    counted: bool,
    left: bool,
) -> None:
    # A run's items (decoded ahead, as read_jsonl's), through a catch or not, probed by
    # their field: the C probe asks the cache for the rows of the items it sees ahead,
    # and still gives the Python probe's pairs and errors, each after the same reads of
    # the source, and reads a field that runs code as often (never ahead)
    from lazyfun.streams.joins import HashTable
    from lazyfun.streams.sync import _flow, vsteps
    from lazyfun.streams.sync._flow import Runs
    from lazyfun.streams.verbs import field

    class Listed(Runs):
        def __init__(self) -> None:
            self.left, self.before = iter(runs), 0

        def _refill(self) -> None:
            self.before += len(self.run or [])
            run = next(self.left)  # StopIteration: the end
            self.run = None
            if run is None:
                raise KeyError("a failed record")
            self.run = [kind(k if k != 11 else str(k), at) for at, k in enumerate(run)]

        def read(self) -> int:
            return self.before + self.given

    def joined(built: bool) -> list[object]:
        _Watched.reads = 0
        table: HashTable[Any] = HashTable(lambda row: row["id"], None)
        other = iter([{"id": k, "row": place} for place, k in enumerate(ids)])
        listed = Listed()
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(flow, "BUILT", built)
            source: Iterator[Any] = flow.catch(listed, Recovery((KeyError,))) if caught else listed
            if counted and built:  # explain's counts between: items given on unchanged
                source = _flow.Tally(source)
            pairs = vsteps.hash_join(source, field("id"), other, table, left)
            seen: list[object] = []
            for outcome in outcomes(pairs, 90):
                seen.append((outcome, listed.read(), _Watched.reads))
            return seen

    assert joined(True) == joined(False)


def test_a_probe_in_a_cycle_through_its_key_is_collected() -> None:
    from lazyfun.streams.joins import MISSING
    from lazyfun.streams.sync._flow import Probe

    class Keyed:
        probe: Iterator[Any] | None = None

        def key(self, item: int) -> int:
            return item

    keyed = Keyed()
    probe = Probe(
        iter([1, 2, 3]),
        keyed.key,
        None,
        {1: "a", 3: "c"},
        [],
        {3: ["d"]},
        {int},
        print,
        MISSING,
        False,
    )
    keyed.probe = probe
    assert list(probe) == [(1, "a"), (3, "c"), (3, "d")]
    watched = weakref.ref(keyed)
    del keyed, probe
    gc.collect()
    assert watched() is None


def test_a_field_read_by_its_slot_follows_its_class_as_getattr_does() -> None:
    # the C engine notes where a class's field is a slot and reads it there after; a
    # change to the class (a property put in the slot's place) is seen at the next read,
    # and a slot never set is getattr's AttributeError, as in the Python forms
    from dataclasses import dataclass
    from operator import attrgetter

    from lazyfun import stream

    @dataclass(slots=True)
    class Row:
        k: str
        v: int

    rows = [Row("a", 1), Row("b", 2), Row("a", 3)]
    by_k = attrgetter("k")
    assert stream(rows).aggregate(by_k, total=("sum", "v")) == {
        "a": {"total": 4},
        "b": {"total": 2},
    }
    assert stream(rows).aggregate(by_k, total=("sum", "v")) == {
        "a": {"total": 4},
        "b": {"total": 2},
    }
    Row.v = property(lambda self: 10)  # type: ignore[assignment,misc]
    assert stream(rows).aggregate(by_k, total=("sum", "v")) == {
        "a": {"total": 20},
        "b": {"total": 10},
    }
    unset = Row.__new__(Row)
    with pytest.raises(AttributeError):
        stream([unset]).aggregate(by_k, n="count")


# str keys of one length and of every kind of str, decoded afresh for each record as a
# source decodes them: equal keys fold together, unequal ones never do
_KEYS = st.sampled_from(["view", "cart", "buy", "b\u00e9y", "\u4e2d\u6587", "\U0001f600a", ""])


@given(keys=st.lists(_KEYS, max_size=80))
def test_law_str_keys_decoded_afresh_fold_and_window_as_a_count_by_value(keys: list[str]) -> None:
    from collections import Counter
    from operator import attrgetter

    from lazyfun import stream

    class Event(msgspec.Struct, gc=False):
        kind: str
        t: int

    decode = msgspec.json.Decoder(Event).decode
    events = [decode(msgspec.json.encode({"kind": k, "t": i})) for i, k in enumerate(keys)]
    counted = stream(events).aggregate(attrgetter("kind"), n="count")
    assert {k: v["n"] for k, v in counted.items()} == dict(Counter(keys))
    windows = stream(events).tumbling(1000, on="t", by=attrgetter("kind"), n="count")
    assert {w.key: w.values["n"] for w in windows} == dict(Counter(keys))


def test_a_fields_name_of_a_str_class_is_read_from_a_dict_as_a_plain_name() -> None:
    # the engine reads a name of a str subclass as an attribute only (an attrgetter's):
    # a field's name given as a StrEnum's member is still read item[name] first
    import enum

    from lazyfun import field, stream

    class Column(enum.StrEnum):
        KIND = "kind"
        T = "t"

    rows = [{"kind": "a", "t": 1}, {"kind": "b", "t": 2}, {"kind": "a", "t": 3}]
    counted = stream(rows).aggregate(field(Column.KIND), n="count")
    assert counted == {"a": {"n": 2}, "b": {"n": 1}}
    windows = stream(rows).tumbling(10, on=Column.T, by=field(Column.KIND), n="count")
    assert {w.key: w.values["n"] for w in windows} == {"a": 2, "b": 1}


def test_a_name_made_afresh_each_time_reads_its_own_slot() -> None:
    # names made at run time die with their step, and a new name may take the address
    # of an old one: the engine's note of a slot holds its name, so it never reads one
    # field for another
    from dataclasses import dataclass

    from lazyfun import field, stream

    @dataclass(slots=True)
    class Row:
        alpha: int
        gamma: int

    rows = [Row(1, 100), Row(2, 200)]
    for turn in range(300):
        made = ("alpha!" if turn % 2 else "gamma!")[:-1]  # a new str object each turn
        total = stream(rows).aggregate(field("alpha"), total=("sum", field(made)))
        assert total == (
            {1: {"total": 1}, 2: {"total": 2}}
            if turn % 2
            else {1: {"total": 100}, 2: {"total": 200}}
        ), (turn, made)
