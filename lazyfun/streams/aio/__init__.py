"""The async chain's step nodes: each an async iterator, resumable after an error, that the
async runner (:mod:`lazyfun.streams.run`) builds for a stream read with ``async for``;
they reach the sync side only through :mod:`lazyfun.streams.shared`.  :mod:`.asteps`
holds the sequential steps, :mod:`.aconcurrent` the steps that start work of their own
(tasks, threads), :mod:`.abranches` those of several streams at once (``merge``,
``tee``), :mod:`.avsteps` the data verbs' steps and :mod:`.aobserving` ``observe`` and an
analysed stage's count.
"""
