"""Solving: the fast engine with Bird's shape (:mod:`~lazyfun.sudoku.solving.engine`) and
the clause-learning search it hands 25x25 boards to
(:mod:`~lazyfun.sudoku.solving.learning`, C sources in ``learning_c``)."""
