"""Puzzles every test may use, wherever it runs: famous ones, written here as facts with
their solutions, and the puzzles lazyfun's own generator made (tests/data).

The samples of public puzzle sets lie outside the repo (:mod:`tests.datafiles`); the
tests of the engine, the canon and the rating read those, and the rest read these.
``tests/sudoku/test_famous.py`` holds each to its one solution.
"""

from __future__ import annotations

from tests.datafiles import read_lines

# Peter Norvig's grid2 ("Solving Every Sudoku Puzzle"), the first of his top95.
NORVIG_GRID2 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
NORVIG_GRID2_SOLUTION = (
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
)
# Project Euler's problem 96, its Grid 01 (Norvig's grid1).
EULER_GRID1 = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
EULER_GRID1_SOLUTION = (
    "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
)
# Arto Inkala's puzzle of 2012, sold as the world's hardest.
INKALA_2012 = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
INKALA_2012_SOLUTION = (
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
)
# Arto Inkala's AI Escargot (2006).
AI_ESCARGOT = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."
AI_ESCARGOT_SOLUTION = (
    "162857493534129678789643521475312986913586742628794135356478219241935867897261354"
)
# The Easter Monster (the Sudoku Players' Forum, 2007), among the hardest known.
EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
EASTER_MONSTER_SOLUTION = (
    "174385962293467158586192734451923876928674315367851249719548623635219487842736591"
)

# The hardest of them, for runs that must take a while.
HARD = (EASTER_MONSTER, AI_ESCARGOT, INKALA_2012)
# Euler's Grid 01 with r1c1 = 5: no given rules it out, but its one solution has 4 there.
NO_SOLUTION = "5" + EULER_GRID1[1:]

# Twenty puzzles with their solutions: Norvig's grid2 and Euler's Grid 01, the first 15
# of lazyfun.sudoku.generate(3, seed=2026) (tests/data/generated_first15.txt), then the
# three hard ones (slow to rate: kept last).
PUZZLES = [
    NORVIG_GRID2,
    EULER_GRID1,
    *read_lines("generated_first15.txt"),
    INKALA_2012,
    AI_ESCARGOT,
    EASTER_MONSTER,
]
SOLUTIONS = [
    NORVIG_GRID2_SOLUTION,
    EULER_GRID1_SOLUTION,
    *read_lines("generated_first15.solutions.txt"),
    INKALA_2012_SOLUTION,
    AI_ESCARGOT_SOLUTION,
    EASTER_MONSTER_SOLUTION,
]
