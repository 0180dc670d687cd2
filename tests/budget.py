"""How many examples a hypothesis law tries: all of them on the compiled build, a fifth
from source.  The pure pass of ``make unit`` reruns the compiled tests from source under
the coverage tracer to count their lines; the compiled pass is the one that hunts bugs."""

from __future__ import annotations

import os

from lazyfun.compiled import PURE_ENV


def examples(n: int) -> int:
    """``n`` on the compiled build; ``n // 5`` (at least 20) from source."""
    return max(20, n // 5) if os.environ.get(PURE_ENV) else n
