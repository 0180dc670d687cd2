"""lazyfun's benchmarks: peers measured side by side, figures printed as ratios.

Run them all with ``make bench``, or a few with ``make bench BENCH="cp sudoku"``.
"""
