"""The typing suite, as typeshed's test cases: each ``check_*.py`` file pins the types the
public API gives (``assert_type``), and ``check_rejected.py`` holds calls both checkers
must refuse, each under an ignore comment that the checkers themselves check: mypy's
``warn_unused_ignores`` (``--strict``) and pyright's ``reportUnnecessaryTypeIgnoreComment``
(``pyrightconfig.json`` here), so a call that stops failing fails the suite.

``make mypy`` checks these files with ``mypy --strict`` and ``pyright --strict``; they are
never run (``conftest.py`` leaves them out of pytest's collection).  The test beside them,
``test_installed.py``, runs both checkers on a user's file outside the repository.
"""
