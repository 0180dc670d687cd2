"""The toolz and more-itertools pieces a pipeline needs, re-exported with types.

The functions are the libraries' own (no wrapper, no overhead); ``vocab.pyi``
beside this file gives mypy their signatures, so a pipeline built from them
keeps precise types.  Lazy ones return iterators: ``take``, ``drop``,
``concat``, ``interleave``, ``sliding_window``, ``unique_everseen``,
``chunked``.  ``first``, ``second``, ``nth``, ``last`` and ``ilen`` consume
as much of the stream as they must and return one value.
"""

from more_itertools import chunked, first, ilen, unique_everseen
from toolz import concat, drop, identity, interleave, last, nth, second, sliding_window, take

__all__ = [
    "chunked",
    "concat",
    "drop",
    "first",
    "identity",
    "ilen",
    "interleave",
    "last",
    "nth",
    "second",
    "sliding_window",
    "take",
    "unique_everseen",
]
