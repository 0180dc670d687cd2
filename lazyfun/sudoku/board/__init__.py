"""The board: its geometry (units and peers, :mod:`~lazyfun.sudoku.board.geometry`), the
grid types (:mod:`~lazyfun.sudoku.board.grid`) and the text forms puzzles travel in
(:mod:`~lazyfun.sudoku.board.formats`)."""
