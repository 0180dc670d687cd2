"""Coverage-guided fuzzing of what users hand lazyfun: every reader (``fuzz.readers``)
and the C engines' entry points (``fuzz.engines``).  ``make fuzz`` runs each target
under atheris (libFuzzer) for ``FUZZ_SECONDS`` from its seed corpus in
``fuzz/corpus/<target>``; ``tests/test_fuzz_corpus.py`` runs each over its corpus once.
A target takes bytes and returns quietly, or raises what it is allowed to raise (a
reader's ``PuzzleError`` or ``RecordError``, an engine's ``ValueError`` for arguments
it refuses); anything else, or a sanitizer's report, is a finding."""
