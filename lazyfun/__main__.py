"""``python -m lazyfun`` runs the command line."""

from lazyfun.cli import main

main()
