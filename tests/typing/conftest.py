"""The ``check_*.py`` files are read by the type checkers, never run: pytest leaves them out."""

collect_ignore_glob = ["check_*.py"]
