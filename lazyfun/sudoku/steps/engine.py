"""The C engine of the ladder's slowest rules, ``_forcing`` (its C in ``forcing_c/``):
the forcing chains from many starts, the cycles and chains of one line, and the wings
of Sudoku Explainer's newer rules.  ``BUILT`` says whether it was built and
``LAZYFUN_PURE`` is not set; ``c`` is the module then.  Each rule keeps its readable
Python beside it, with the same answers (``tests/sudoku/test_forcing_c.py``)."""

from __future__ import annotations

import os

from lazyfun.compiled import PURE_ENV

try:
    from lazyfun.sudoku.steps import _forcing as c  # C: import-linter cannot read it
except ImportError:  # built without a C compiler
    BUILT = False
else:
    BUILT = not os.environ.get(PURE_ENV)

__all__ = ["BUILT", "c"]
