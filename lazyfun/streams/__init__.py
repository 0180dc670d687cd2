"""The Stream: one fluent, typed, one-shot pipeline, read with ``for`` or ``async for``.

- :mod:`lazyfun.streams.stream`: :class:`Stream`, :func:`stream` and :func:`astream`;
- :mod:`lazyfun.streams.modes`: ``Sync`` and ``Async``, a stream's mode as a type;
- :mod:`lazyfun.streams.facade`: each step, terminal and sink declared once, its
  arguments checked at the call;
- :mod:`lazyfun.streams.run`: the two runners that build the chain of each mode;
- the step nodes: :mod:`~lazyfun.streams.steps`, :mod:`~lazyfun.streams.flow` (in C),
  :mod:`~lazyfun.streams.threaded` and :mod:`~lazyfun.streams.calls` for the sync
  chain; :mod:`~lazyfun.streams.asteps` and :mod:`~lazyfun.streams.aconcurrent` for
  the async one; :mod:`~lazyfun.streams.verbs` and :mod:`~lazyfun.streams.vsteps` for
  the data verbs (sort, join, aggregate) of both;
- around them: :mod:`~lazyfun.streams.explain` (the plan and its counts),
  the watching steps of :mod:`~lazyfun.streams.observing` (async:
  :mod:`~lazyfun.streams.aobserving`) and :mod:`~lazyfun.streams.progress`.

Concurrent steps run through :mod:`lazyfun.parallel`, one layer down.

>>> stream(range(5)).map(lambda n: n * n).to_list()
[0, 1, 4, 9, 16]
"""

from typing import TYPE_CHECKING

# Each name is imported when first used (lazyfun.loading): importing the package loads
# no stream.
if TYPE_CHECKING:
    from lazyfun.streams.steps import StreamConsumedError
    from lazyfun.streams.stream import AsyncStream, Stream, astream, stream
    from lazyfun.streams.threaded import Rate
else:
    from lazyfun.loading import lazily

    __getattr__, __dir__ = lazily(
        __name__,
        {
            "lazyfun.streams.stream": ("AsyncStream", "Stream", "astream", "stream"),
            "lazyfun.streams.steps": ("StreamConsumedError",),
            "lazyfun.streams.threaded": ("Rate",),
        },
    )

__all__ = ["AsyncStream", "Rate", "Stream", "StreamConsumedError", "astream", "stream"]
