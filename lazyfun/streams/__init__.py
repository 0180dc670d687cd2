"""The Stream: one fluent, typed, one-shot pipeline, read with ``for`` or ``async for``.

The folder shows the design, a room each:

- :mod:`lazyfun.streams.stream`: :class:`Stream`, :func:`stream` and :func:`astream`;
  :mod:`lazyfun.streams.modes`: ``Sync`` and ``Async``, a stream's mode as a type;
- :mod:`lazyfun.streams.facade`: each step, terminal and sink declared once, its
  arguments checked at the call;
- :mod:`lazyfun.streams.run`: the two runners that build the chain of each mode;
- :mod:`lazyfun.streams.sync`: the sync chain's step nodes (the steps, the C flow
  engine, threads, calls, the verbs' steps, ``observe``);
- :mod:`lazyfun.streams.aio`: the async chain's step nodes (the sequential steps, the
  concurrent ones, the verbs' steps, ``observe``);
- :mod:`lazyfun.streams.shared`: what the nodes of both chains share, and the only way
  one reaches the other;
- beside them, for both modes: the data verbs' work, :mod:`~lazyfun.streams.sorting`
  (sort, top), :mod:`~lazyfun.streams.joins` (join) and :mod:`~lazyfun.streams.verbs`
  (aggregate, unique; :func:`field`, a key by a field's name or path),
  :mod:`~lazyfun.streams.windows` (windows on event time:
  :class:`Window`, :class:`LateItem`), :mod:`~lazyfun.streams.explain` (the plan and its counts;
  :mod:`~lazyfun.streams.gauges`, what a verb holds) and
  :mod:`~lazyfun.streams.progress` (the bar).

Concurrent steps run through :mod:`lazyfun.parallel`, one layer down.

>>> stream(range(5)).map(lambda n: n * n).to_list()
[0, 1, 4, 9, 16]
"""

from typing import TYPE_CHECKING

# Each name is imported when first used (lazyfun.loading): importing the package loads
# no stream.
if TYPE_CHECKING:
    from lazyfun.streams.fields import field
    from lazyfun.streams.shared.calling import Rate
    from lazyfun.streams.shared.parts import StreamConsumedError
    from lazyfun.streams.stream import AsyncStream, Stream, astream, stream
    from lazyfun.streams.windows import LateItem, Window
else:
    from lazyfun.loading import lazily

    __getattr__, __dir__ = lazily(
        __name__,
        {
            "lazyfun.streams.stream": ("AsyncStream", "Stream", "astream", "stream"),
            "lazyfun.streams.shared.parts": ("StreamConsumedError",),
            "lazyfun.streams.shared.calling": ("Rate",),
            "lazyfun.streams.fields": ("field",),
            "lazyfun.streams.windows": ("LateItem", "Window"),
        },
    )

__all__ = [
    "AsyncStream",
    "LateItem",
    "Rate",
    "Stream",
    "StreamConsumedError",
    "Window",
    "astream",
    "field",
    "stream",
]
