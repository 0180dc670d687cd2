"""FlatZinc, MiniZinc's solver language, read into a :class:`~lazyfun.csp.modelling.model.Model`.

:func:`read` turns the text form (``.fzn``) into a :class:`FlatZinc`: the model,
with what its ``output_var`` and ``output_array`` annotations ask to be shown.
:func:`run` solves a file and writes its solutions in the FlatZinc protocol
(``x = 3;`` lines, then ``----------``; ``==========`` once the search is
complete, ``=====UNSATISFIABLE=====``, ``=====UNKNOWN=====``), as does
``python -m lazyfun.csp.flatzinc FILE.fzn [-a] [-i] [-t MS] [-f] [-s] [-p N]`` (see
:func:`main`).

The package's modules: :mod:`~lazyfun.csp.flatzinc.text` (tokens and items),
:mod:`~lazyfun.csp.flatzinc.builder` (the values and the posting of constraints),
:mod:`~lazyfun.csp.flatzinc.builtins` (the standard builtins),
:mod:`~lazyfun.csp.flatzinc.globals` (the globals lazyfun's mznlib hands over whole),
:mod:`~lazyfun.csp.flatzinc.bounds` (bounds of unbounded variables),
:mod:`~lazyfun.csp.flatzinc.patterns` (machines in reified disjunctions),
:mod:`~lazyfun.csp.flatzinc.reader` (items into the model, ``parse`` and ``read``),
:mod:`~lazyfun.csp.flatzinc.protocol` (``solve``, ``run``, ``main``) and
:mod:`~lazyfun.csp.flatzinc.solver_config` (lazyfun as a MiniZinc solver).

Integers, sets of integers as domains and constants, booleans and arrays of
them are read; floats and set variables are refused with the reason (through
MiniZinc with lazyfun's mznlib, set variables arrive as booleans).  A ``var
int`` without bounds takes the bounds its defining constraint gives (``::
defines_var``); a variable with none, or wider than a domain may span
(:data:`~lazyfun.csp.modelling.domain.MAX_SPAN`), is refused by name.  Every mistake is a
:class:`FlatZincError` with the line it is on.

>>> text = '''
... var 1..3: x :: output_var;
... var 1..3: y :: output_var;
... constraint int_lt(x, y);
... constraint int_lin_eq([1, 1], [x, y], 4);
... solve satisfy;
... '''
>>> fz = parse(text)
>>> import io
>>> out = io.StringIO()
>>> solve(fz, out=out, all_solutions=True)
>>> print(out.getvalue(), end="")
x = 1;
y = 3;
----------
==========
"""

from lazyfun.csp.flatzinc.builder import BUILTINS, FlatZinc, IntSet, Output
from lazyfun.csp.flatzinc.protocol import main, run, solve
from lazyfun.csp.flatzinc.reader import parse, read
from lazyfun.csp.flatzinc.text import FlatZincError

__all__ = [
    "BUILTINS",
    "FlatZinc",
    "FlatZincError",
    "IntSet",
    "Output",
    "main",
    "parse",
    "read",
    "run",
    "solve",
]
