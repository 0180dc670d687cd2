"""Structures recognised in FlatZinc: a job shop arrives as one from its reified
disjunctions, a bin packing as one from its linear rows."""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable
from functools import cache
from typing import TypeVar

from hypothesis import given, settings
from hypothesis import strategies as st

from lazyfun.csp.flatzinc import parse, solve
from lazyfun.csp.flatzinc.bounds import Bounds
from lazyfun.csp.flatzinc.patterns import bins, bins_needed
from lazyfun.csp.flatzinc.text import Parser

T = TypeVar("T")

ONE_MACHINE = """\
array [1..2] of int: X_INTRODUCED_9_ = [1,-1];
var 0..20: a:: output_var;
var 0..20: b:: output_var;
var 0..20: c:: output_var;
var 0..20: end:: output_var;
var bool: X_1 ::var_is_introduced :: is_defined_var;
var bool: X_2 ::var_is_introduced :: is_defined_var;
var bool: X_3 ::var_is_introduced :: is_defined_var;
var bool: X_4 ::var_is_introduced :: is_defined_var;
var bool: X_5 ::var_is_introduced :: is_defined_var;
var bool: X_6 ::var_is_introduced :: is_defined_var;
constraint array_bool_or([X_1,X_2],true);
constraint array_bool_or([X_3,X_4],true);
constraint array_bool_or([X_5,X_6],true);
constraint int_lin_le_reif(X_INTRODUCED_9_,[a,b],-3,X_1):: defines_var(X_1);
constraint int_lin_le_reif(X_INTRODUCED_9_,[b,a],-2,X_2):: defines_var(X_2);
constraint int_lin_le_reif([1,-1],[a,c],-3,X_3):: defines_var(X_3);
constraint int_lin_le_reif([1,-1],[c,a],-4,X_4):: defines_var(X_4);
constraint int_lin_le_reif(X_INTRODUCED_9_,[b,c],-2,X_5):: defines_var(X_5);
constraint int_lin_le_reif(X_INTRODUCED_9_,[c,b],-4,X_6):: defines_var(X_6);
constraint int_lin_le([1,-1],[a,end],-3);
constraint int_lin_le([1,-1],[b,end],-2);
constraint int_lin_le([1,-1],[c,end],-4);
constraint int_le(2,c);
solve minimize end;
"""


def kinds(text: str) -> Counter[str]:
    return Counter(type(c).__name__ for c in parse(text).model.constraints.values())


def best(text: str) -> str:
    out = io.StringIO()
    solve(parse(text), out=out)
    return out.getvalue()


def test_three_tasks_pairwise_apart_are_one_machine_and_its_optimum_holds() -> None:
    assert kinds(ONE_MACHINE) == Counter({"Linear": 4, "NoOverlap": 1})
    assert len(parse(ONE_MACHINE).model.decisions) == 4  # the six booleans are gone
    # c (4 long) starts at 2 at the earliest: a and b (5 in all) fit before or after it
    assert best(ONE_MACHINE).endswith("end = 9;\n----------\n==========\n")


def test_a_boolean_used_elsewhere_or_a_task_of_two_durations_keeps_the_disjunctions() -> None:
    used = ONE_MACHINE.replace(
        "constraint int_le(2,c);", "constraint int_le(2,c);\nconstraint bool_eq(X_1,true);"
    )
    assert kinds(used)["NoOverlap"] == 2  # the pair (a, b) stays as written, the rest a machine
    assert "a = 0;" in best(used) and best(used).endswith("end = 9;\n----------\n==========\n")
    twice = ONE_MACHINE.replace("[b,a],-2,X_2", "[b,a],-5,X_2")
    assert kinds(twice)["NoOverlap"] == 0 and kinds(twice)["Truth"] == 6


def fewest_bins(sizes: list[int], capacity: int) -> int:
    """The fewest bins holding ``sizes``, by trying every bin for every item."""

    @cache
    def fewest(left: tuple[int, ...], room: tuple[int, ...]) -> int:
        if not left:
            return len(room)
        w, rest = left[0], left[1:]
        options = [tuple(sorted((*room, capacity - w)))]
        options += [
            tuple(sorted((*room[:k], r - w, *room[k + 1 :]))) for k, r in enumerate(room) if r >= w
        ]
        return min(fewest(rest, option) for option in set(options))

    return fewest(tuple(sorted(sizes, reverse=True)), ())


def capacity_and(items: Callable[[int], st.SearchStrategy[T]]) -> st.SearchStrategy[tuple[int, T]]:
    """A capacity from 5 to 20 and what ``items`` draws for it."""
    return st.integers(5, 20).flatmap(lambda c: st.tuples(st.just(c), items(c)))


@given(capacity_and(lambda c: st.lists(st.integers(1, c), max_size=8)))
def test_bins_needed_is_a_bound_at_least_the_total_over_the_capacity(
    case: tuple[int, list[int]],
) -> None:
    capacity, sizes = case
    least = bins_needed(Counter(sizes), capacity)
    assert -(-sum(sizes) // capacity) <= least <= fewest_bins(sizes, capacity)


def test_bins_needed_on_a_cutting_stock_instance_is_its_optimum() -> None:
    # MiniZinc's cutstock type07_TEST8: 27 items over 500 take a bin each, 24 of 495 and
    # 8 of 452 go two to a bin (none fits beside the big ones): 43, the optimum; the
    # total fills 40.03 bins
    lengths = [741, 684, 571, 525, 495, 452, 271, 103, 97, 56]
    demands = [3, 6, 17, 1, 24, 9, 23, 1, 7, 9]
    assert bins_needed(Counter(dict(zip(lengths, demands, strict=True))), 1000) == 43
    assert bins_needed(Counter({501: 3}), 1000) == 3  # one each, where the total fills 2
    assert bins_needed(Counter(), 10) == 0


def cutstock(lengths: list[int], demands: list[int], capacity: int) -> str:
    """A cutting stock in FlatZinc as MiniZinc's ``cutstock.mzn`` flattens: counts
    ``x_k_i`` of item ``i`` in bin ``k``, bin ``k`` used when ``p_k``, their sum minimised."""
    items, bins_ = range(len(lengths)), range(sum(demands))
    lines = [f"var 0..1: p_{k};" for k in bins_]
    lines += [f"var 0..{max(demands)}: x_{k}_{i};" for k in bins_ for i in items]
    lines.append(f"var 0..{len(bins_)}: used:: output_var:: is_defined_var;")
    for i in items:
        xs = ",".join(f"x_{k}_{i}" for k in bins_)
        ones = ",".join(["-1"] * len(bins_))
        lines.append(f"constraint int_lin_le([{ones}],[{xs}],{-demands[i]});")
    for k in bins_:
        ks = ",".join(map(str, [*lengths, -capacity]))
        xs = ",".join([*(f"x_{k}_{i}" for i in items), f"p_{k}"])
        lines.append(f"constraint int_lin_le([{ks}],[{xs}],0);")
    ps = ",".join(f"p_{k}" for k in bins_)
    ones = ",".join(["1"] * len(bins_))
    lines.append(f"constraint int_lin_eq([{ones},-1],[{ps},used],0):: defines_var(used);")
    lines.append("solve minimize used;")
    return "\n".join(lines) + "\n"


def found(text: str) -> list[tuple[list[str], int]]:
    items = Parser(text).items()
    return bins(items, Bounds(items)).counts


def test_a_cutting_stock_is_read_as_a_bin_packing_and_its_objective_bounded() -> None:
    text = cutstock([6, 5], [3, 3], 10)  # 33 fills 4 bins; no 6 shares one, 5s go two a bin
    assert found(text) == [(["used"], 5)]
    assert best(text).endswith("used = 5;\n----------\n==========\n")
    assert found(text.replace(":: defines_var(used)", "")) == [(["used"], 5)]
    # the objective not their sum: the uses themselves are bounded
    other = text.replace("int_lin_eq([1,1,1,1,1,1,-1]", "int_lin_eq([1,1,1,1,1,2,-1]")
    assert found(other) == [([f"p_{k}" for k in range(6)], 5)]


def test_rows_that_are_not_a_bin_packing_give_no_bound() -> None:
    text = cutstock([6, 5], [3, 3], 10)
    # a count in a second demand, where one copy would count for both: that item left out
    twice = text.replace("solve", "constraint int_lin_le([-1],[x_0_0],-1);\nsolve")
    assert found(twice) == [(["used"], 2)]  # the three 5s alone
    # a count that may be negative frees room for the others
    negative = text.replace("var 0..3: x_0_1;", "var -3..3: x_0_1;")
    # one use for two bins: two bins counted as one
    shared = text.replace("x_1_1,p_1],0)", "x_1_1,p_0],0)")
    # a bin whose use is not 0..1
    wide = text.replace("var 0..1: p_2;", "var 0..2: p_2;")
    assert found(negative) == found(shared) == found(wide) == []


TWO = st.integers(1, 2)


@settings(max_examples=15, deadline=None)
@given(capacity_and(lambda c: st.lists(st.tuples(st.integers(1, c), TWO), min_size=1, max_size=3)))
def test_a_cutting_stock_s_proved_optimum_is_the_fewest_bins(
    case: tuple[int, list[tuple[int, int]]],
) -> None:
    capacity, kinds_ = case
    lengths, demands = [w for w, _ in kinds_], [d for _, d in kinds_]
    sizes = [w for w, d in kinds_ for _ in range(d)]
    text = cutstock(lengths, demands, capacity)
    assert best(text).endswith(f"used = {fewest_bins(sizes, capacity)};\n----------\n==========\n")
