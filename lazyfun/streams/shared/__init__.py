"""What the two chains' step nodes share: the base that both the sync nodes
(:mod:`lazyfun.streams.sync`, and the sync runner) and the async nodes
(:mod:`lazyfun.streams.aio`, and the async runner) import, and the only way one side
reaches the other (import-linter holds it):

- :mod:`.parts`: the sentinels, the argument checks, an error held by a batching step,
  ``catch``'s :class:`~.parts.Recovery`, ``unique``'s memory, an async node's base;
- :mod:`.calling`: how a step calls its function under a retry, a rate, a timeout;
- :mod:`.reading`: a plain source read ahead on a thread (the shelf both runners take
  from), and what a ``tee`` keeps;
- :mod:`.watching`: the watching steps' count (``observe``, ``progress``, ``probe``).
"""
