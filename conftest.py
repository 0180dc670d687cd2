"""Collection settings shared by every test run.

A compiled module's doctests are collected from its source only when the
source is what runs (``LAZYFUN_PURE=1``, the second pass of ``make unit``):
pytest refuses a ``.py`` file whose module was loaded from an extension.
"""

from lazyfun.compiled import COMPILED, is_compiled

collect_ignore = [name.replace(".", "/") + ".py" for name in COMPILED if is_compiled(name)]
