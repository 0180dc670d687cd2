"""A FlatZinc text's items into a :class:`~lazyfun.csp.modelling.model.Model`: its
declarations as decisions (or numbers, sets, arrays), its constraints through the
builtins, its goal, its outputs and its search annotations."""

from __future__ import annotations

import lazyfun.csp.flatzinc.builtins
import lazyfun.csp.flatzinc.globals  # noqa: F401  (both register their builtins)
from lazyfun.csp.flatzinc.bounds import Bounds
from lazyfun.csp.flatzinc.builder import BUILTINS, Builder, FlatZinc, IntSet, Output
from lazyfun.csp.flatzinc.builtins import bounds_of, member
from lazyfun.csp.flatzinc.patterns import Bins, Machines, bins, machines
from lazyfun.csp.flatzinc.text import Ast, Call, Id, Item, Parser, Range, Type
from lazyfun.csp.modelling.constraints import Decision
from lazyfun.csp.modelling.domain import MAX_SPAN, Domain, ModelError
from lazyfun.csp.modelling.scheduling import no_overlap
from lazyfun.csp.search.strategy import VARIABLE_CHOICES

__all__ = ["parse", "read"]


def parse(text: str, *, free_search: bool = False) -> FlatZinc:
    """The model of a FlatZinc text (its ``.fzn`` form); with ``free_search`` its search
    annotations are left out."""
    items = Parser(text).items()
    b = Builder()
    bounds = Bounds(items)
    shop = machines(items)
    packing = bins(items, bounds)
    outputs: list[Output] = []
    goal = "satisfy"
    for k, item in enumerate(items):
        b.line = item.line
        if k in shop.replaced or (item.kind == "decl" and item.name in shop.dropped):
            continue
        if item.kind == "decl":
            _declare(b, item, bounds, outputs)
        elif item.kind == "constraint":
            builtin = BUILTINS.get(item.name)
            if builtin is None:
                raise b.fail(f"the builtin {item.name!r} is not supported")
            args = [b.value(a) for a in item.args]
            try:
                builtin(b, args)
            except (ModelError, IndexError, TypeError) as error:
                raise b.fail(f"{item.name}: {error}") from None
        elif item.kind == "solve":
            _post_machines(b, shop)
            _post_bins(b, packing)
            goal = item.goal
            if not free_search:
                _search(b, item.annotations, satisfy=goal == "satisfy")
            if item.value is not None:
                objective = b.var(b.value(item.value))
                if isinstance(objective, int):  # its first solution is the best
                    objective = b.fresh(objective, objective)
                if goal == "minimize":
                    b.model.minimize(objective)
                else:
                    b.model.maximize(objective)
    return FlatZinc(b.model, outputs, goal, b.unsatisfiable, frozenset(b.introduced))


def _post_machines(b: Builder, shop: Machines) -> None:
    """Each machine recognised in the reified disjunctions as one ``no_overlap``."""
    for tasks in shop.machines:
        intervals = []
        for name, duration in tasks:
            start = b.var(b.names[name])
            b.count += 1
            begin = start if isinstance(start, Decision) else b.fresh(start, start)
            intervals.append(b.model.interval(f"_task#{b.count}", begin, duration))
        b.post(no_overlap(intervals))


def _post_bins(b: Builder, packing: Bins) -> None:
    """Each bin packing recognised in the linear rows: at least as many bins used as its
    items need."""
    for uses, least in packing.counts:
        used = sum((b.var(b.names[u]) for u in uses), start=0)
        if not isinstance(used, int):
            b.post(used >= least)
        elif used < least:
            b.post(False)


def read(path: str, *, free_search: bool = False) -> FlatZinc:
    """The model of a ``.fzn`` file (see :func:`parse`)."""
    with open(path, encoding="utf-8") as f:
        return parse(f.read(), free_search=free_search)


def _domain(b: Builder, name: str, t: Type, bounds: Bounds) -> Domain:
    if t.base == "bool":
        return Domain.boolean()
    try:
        if t.domain is not None:
            s = IntSet.of(t.domain)
            if not s.ranges:
                raise b.fail(f"{name} has an empty domain")
            low, high = s.ranges[0][0], s.ranges[-1][1]
            if high - low >= MAX_SPAN:
                raise b.fail(
                    f"{name} spans {high - low + 1:,} values; "
                    f"a domain may span at most {MAX_SPAN:,}"
                )
            if len(s.ranges) == 1:
                return Domain.integer_range(low, high)
            return Domain.union(Domain.integer_range(lo, hi) for lo, hi in s.ranges)
        found = bounds.of_name(name)
        if found is None:
            raise b.fail(
                f"var int {name} has no bounds (none declared, none from a constraint "
                f"defining it or its linear constraints): a domain may span at most "
                f"{MAX_SPAN:,} values"
            )
        low, high = found
        if high - low >= MAX_SPAN:
            raise b.fail(
                f"var int {name} has no bounds declared and its constraints give "
                f"{low}..{high}, wider than a domain may span ({MAX_SPAN:,} values)"
            )
        return Domain.integer_range(low, high)
    except ModelError as error:
        raise b.fail(f"{name}: {error}") from None


INTRODUCED = (Id("var_is_introduced"), Id("is_defined_var"))


def _declare(b: Builder, item: Item, bounds: Bounds, outputs: list[Output]) -> None:
    t, name = item.type, item.name
    assert t is not None
    if name in b.names:
        raise b.fail(f"{name} is declared twice")
    if not t.var:
        if item.value is None:
            raise b.fail(f"the parameter {name} has no value")
        b.names[name] = b.value(item.value)
        return
    if t.dims:
        _declare_array(b, item, t, outputs)
        return
    source = item.value
    if source is None and isinstance(b.names.get(bounds.merged.get(name, "")), Decision):
        source = Id(bounds.merged[name])  # the 0/1 decision of bool2int, declared before
    if source is not None:
        value = b.var(b.value(source))
        low, high = bounds_of(value)
        domain = IntSet.of(t.domain) if t.domain is not None else IntSet(((low, high),))
        if not any(lo <= low and high <= hi for lo, hi in domain.ranges):
            b.post(member(value, domain))
        b.names[name] = value
    else:
        b.names[name] = decision = b.model.decision(name, _domain(b, name, t, bounds))
        if any(a in INTRODUCED for a in item.annotations):
            b.introduced.add(decision.index)
    if any(a == Id("output_var") for a in item.annotations):
        outputs.append(Output(name, [b.var(b.names[name])], t.base == "bool", []))


def _declare_array(b: Builder, item: Item, t: Type, outputs: list[Output]) -> None:
    if not isinstance(item.value, list):
        raise b.fail(f"the array of variables {item.name} needs its elements listed")
    elements = b.array(b.value(item.value))
    b.names[item.name] = list(elements)
    for a in item.annotations:
        if isinstance(a, Call) and a.name == "output_array" and a.args:
            dims = a.args[0]
            ranges = (
                [(r.low, r.high) for r in dims if isinstance(r, Range)]
                if isinstance(dims, list)
                else []
            )
            outputs.append(Output(item.name, elements, t.base == "bool", ranges))


# MiniZinc's value choices, as Model.branch_on's (one it does not know: the least first)
VALUES = {
    "indomain_min": "min",
    "indomain": "min",
    "indomain_max": "max",
    "indomain_median": "median",
    "indomain_middle": "median",
    "indomain_split": "split",
    "indomain_reverse_split": "reverse_split",
}


def _search(b: Builder, annotations: list[Ast], *, satisfy: bool) -> None:
    """Branch first on the variables of ``int_search``/``bool_search`` (in
    ``seq_search``'s order), as their variable and value choices say (one lazyfun does
    not know: input order, the least value first); then on the model's own variables
    before those FlatZinc introduced.  A satisfaction without annotations takes that
    as a guess (tentative: tried in short runs alternating with the solver's own
    branching, which takes the smallest domains first, often FlatZinc's booleans);
    an optimisation without them is left to the solver."""
    _annotated(b, annotations)
    annotated = bool(b.model.branching)
    named = {d.index for d in b.model.branching} | b.introduced
    own = [d for d in b.model.decisions if not d.hidden and d.index not in named]
    if own and (annotated or (satisfy and len(own) < len(b.model.decisions))):
        b.model.branch_on(own, variable="first_fail", tentative=not annotated)


def _annotated(b: Builder, annotations: list[Ast]) -> None:
    """Each ``int_search``/``bool_search`` of ``annotations`` as a branching strategy."""
    for a in annotations:
        if not isinstance(a, Call):
            continue
        if a.name == "seq_search" and a.args and isinstance(a.args[0], list):
            _annotated(b, a.args[0])
        elif a.name in ("int_search", "bool_search") and len(a.args) >= 3:
            named = {d.index for d in b.model.branching}
            chosen = {
                x.index: x
                for x in b.array(b.value(a.args[0]))
                if isinstance(x, Decision) and x.index not in named
            }
            variable, value = (x.name if isinstance(x, Id) else "" for x in a.args[1:3])
            b.model.branch_on(
                list(chosen.values()),
                variable=variable if variable in VARIABLE_CHOICES else "input_order",
                value=VALUES.get(value, "min"),
            )
