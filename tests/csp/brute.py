"""The oracle of the solver's laws: every assignment of a small model's domains that
holds every constraint, found by trying them all (``itertools.product``)."""

from __future__ import annotations

from itertools import product

from lazyfun.csp import Model


def brute_force(m: Model) -> list[tuple[int, ...]]:
    """Each assignment of ``m``'s decisions, in the order of their domains' product,
    that every constraint of ``m`` holds of."""
    constraints = list(m.constraints.values())
    spaces = [d.domain.values for d in m.decisions]
    return [values for values in product(*spaces) if all(c.holds(values) for c in constraints)]
