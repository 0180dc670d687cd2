"""The façade of the Stream: each step, terminal and sink declared once for both modes,
with its overloads, its checks (refused at the call, with the reason) and its docstring.

- :mod:`.base`: what every stream is: one-shot items, what its steps hold, closing,
  ``for`` and ``async for``, ``to_async`` and ``lazylist``;
- :mod:`.steps`: the steps that call your functions (``map``, ``filter``, ``catch``...);
- :mod:`.shapes`: the steps that shape the items (``take``, ``group``, ``buffer``,
  ``zip``, ``merge``...);
- :mod:`.verbs`: the data verbs (``sort``, ``top``, ``join``, ``count_by``...);
- :mod:`.terminals` and :mod:`.sinks`: what reads a stream, its value for a sync stream
  and an awaitable of it for an async one.

Each class adds its part to the one before; :class:`lazyfun.streams.stream.Stream` is
the last.  The building is the runner's (:mod:`lazyfun.streams.run`).
"""
