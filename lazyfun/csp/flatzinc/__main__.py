"""``python -m lazyfun.csp.flatzinc FILE.fzn [-a] [-i] [-t MS] [-f] [-s] [-p N]``."""

import sys

from lazyfun.csp.flatzinc.protocol import main

sys.exit(main())
