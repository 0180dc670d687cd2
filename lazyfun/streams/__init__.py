"""The Stream: fluent, typed, one-shot pipelines, sync and async.

- :mod:`lazyfun.streams.steps` and :mod:`lazyfun.streams.asteps`: each step a small
  resumable iterator (sync) or async iterator class;
- :mod:`lazyfun.streams.terminals`: the terminals shared by both façades;
- :mod:`lazyfun.streams.progress`: the progress bar a Stream can show;
- :mod:`lazyfun.streams.stream` and :mod:`lazyfun.streams.astream`: the thin façades
  :class:`Stream` and :class:`AsyncStream` over them.

Concurrent steps run through :mod:`lazyfun.parallel`, one layer down.

>>> stream(range(5)).map(lambda n: n * n).to_list()
[0, 1, 4, 9, 16]
"""

from typing import TYPE_CHECKING

# Each name is imported when first used (lazyfun.loading): the Stream loads without
# the async Stream and its task machinery.
if TYPE_CHECKING:
    from lazyfun.streams.astream import AsyncStream, astream
    from lazyfun.streams.stream import Stream, stream
    from lazyfun.streams.terminals import StreamConsumedError
    from lazyfun.streams.threaded import Rate
else:
    from lazyfun.loading import lazily

    __getattr__, __dir__ = lazily(
        __name__,
        {
            "lazyfun.streams.astream": ("AsyncStream", "astream"),
            "lazyfun.streams.stream": ("Stream", "stream"),
            "lazyfun.streams.terminals": ("StreamConsumedError",),
            "lazyfun.streams.threaded": ("Rate",),
        },
    )

__all__ = ["AsyncStream", "Rate", "Stream", "StreamConsumedError", "astream", "stream"]
