/* The 9x9 generator's question, in C: which givens of a unique puzzle can go.
 *
 * lazyfun.sudoku.making.generation.minimise blanks the givens of a full grid orbit by
 * orbit, keeping a blank when the puzzle stays unique.  unique9.c answers the same
 * questions for 9x9 boards, with the same answers (so the same puzzles), without a
 * call into Python per question:
 *
 *   minimise9   the whole loop over the orbits;
 *   stays9      one orbit: with it blanked, can a blanked cell take another value
 *               than the solution's?  The givens are propagated once (naked and
 *               hidden singles); a blanked cell that this fixes cannot.  For each
 *               other one, a depth-first search (singles at each node, the cell of
 *               fewest candidates branched on) looks for a solution with the
 *               solution's value ruled out there, and stops at the first.
 *
 * Candidates are 9-bit masks, one per cell; the board's geometry (rows, columns,
 * boxes and each cell's 20 peers) is the fixed 9x9 one, made once by unique9_init.
 */
#ifndef LAZYFUN_UNIQUE9_H
#define LAZYFUN_UNIQUE9_H

#include <stdint.h>

#define U9_CELLS 81

/* Fill the 9x9 tables; call once before minimise9. */
void unique9_init(void);

/* Whether ``grid`` is a full valid 9x9 grid: each unit holds 1..9. */
int valid9(const uint8_t grid[U9_CELLS]);

/* Blank the cells of ``solution`` (a full valid 9x9 grid, values 1..9) orbit by
 * orbit in the order given (orbit k is cells[starts[k] .. starts[k+1]-1]), keeping
 * each blank that leaves the puzzle unique; with ``minimal`` 0, stop at the first
 * orbit that has to stay.  The puzzle is written to ``out`` (0 blank). */
void minimise9(const uint8_t solution[U9_CELLS], const int *cells, const int *starts, int orbits,
               int minimal, uint8_t out[U9_CELLS]);

#endif
