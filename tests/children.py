"""Child processes for the tests that drive one (a Ctrl-C, a kill, a closed pipe).

``subprocess.Popen`` used as a context manager waits for its child on the way out; a
test that fails (or is stopped by pytest's timeout) while its child still runs would wait
for ever on a child that never ends.  ``running`` kills what is still running first, so a
failing test fails instead of hanging the suite.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any


@contextmanager
def running(args: Sequence[str], **options: Any) -> Iterator[subprocess.Popen[Any]]:
    """``subprocess.Popen(args, **options)`` for the block; killed if still alive at its end."""
    with subprocess.Popen(args, **options) as child:
        try:
            yield child
        finally:
            if child.poll() is None:
                child.kill()
