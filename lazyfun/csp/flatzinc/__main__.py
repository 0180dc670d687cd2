"""``python -m lazyfun.csp.flatzinc FILE.fzn [-a] [-i] [-t MS] [-f] [-s] [-p N]``.

Once the answer is written and flushed, the process ends at once: tearing down a large
model's objects took half a second, past a time limit MiniZinc enforces by killing the
solver (which loses the statistics it wrote)."""

import os
import sys

from lazyfun.csp.flatzinc.protocol import main

code = main()
sys.stdout.flush()
sys.stderr.flush()
os._exit(code)
