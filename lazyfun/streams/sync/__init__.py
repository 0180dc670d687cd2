"""The sync chain's step nodes: each a small iterator, resumable after an error, that the
sync runner (:mod:`lazyfun.streams.run`) builds for a stream read with ``for``; they reach
the async side only through :mod:`lazyfun.streams.shared`.  :mod:`.steps` holds the steps
that keep state or time, :mod:`.flow` runs ``take``, ``catch``, ``throttle`` and
``flatmap`` through the C flow engine (``flow_c/``) when it is built, :mod:`.threaded` the
steps on threads of their own, :mod:`.calls` how a step calls its function,
:mod:`.vsteps` the data verbs' steps and :mod:`.observing` ``observe``.
"""
