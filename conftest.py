"""Settings shared by every test run.

- A compiled module's doctests are collected from its source only when the
  source is what runs (``LAZYFUN_PURE=1``, the second pass of ``make unit``):
  pytest refuses a ``.py`` file whose module was loaded from an extension.
- Hypothesis runs without its per-example deadline: tests never assert on
  wall time, and a loaded machine must not turn a slow example into a failure.
"""

from hypothesis import settings

from lazyfun.compiled import COMPILED, is_compiled

settings.register_profile("lazyfun", deadline=None)
settings.load_profile("lazyfun")

collect_ignore = [name.replace(".", "/") + ".py" for name in COMPILED if is_compiled(name)]
