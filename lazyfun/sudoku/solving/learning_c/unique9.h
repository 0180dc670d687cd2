/* The 9x9 generator's questions, in C: which givens of a unique puzzle can go, and
 * (complete9) the grid the engine completes a random start to.
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

/* Whether no two givens of ``cells`` (0 blank) share a unit and a value. */
int consistent9(const uint8_t cells[U9_CELLS]);

/* The first solution of the depth-first engine (lazyfun.sudoku.solving.engine) for the
 * consistent puzzle ``cells``, in ``out``, when its search reaches it without meeting a
 * failure: 1.  0 when a failure is met (the engine's failure weights, which break ties
 * between branching cells, would then no longer be all zero: let the engine search).
 *
 * Without failures the engine's path is fixed by the propagated states alone: at the
 * root singles and locked candidates to their fixpoint (which is the same in whatever
 * order the rules run), below it singles; it branches on the lowest cell of fewest
 * candidates and takes its lowest value first.  So does this. */
int complete9(const uint8_t cells[U9_CELLS], uint8_t out[U9_CELLS]);

/* Whether ``grid`` is a full valid 9x9 grid: each unit holds 1..9. */
int valid9(const uint8_t grid[U9_CELLS]);

/* Blank the cells of ``solution`` (a full valid 9x9 grid, values 1..9) orbit by
 * orbit in the order given (orbit k is cells[starts[k] .. starts[k+1]-1]), keeping
 * each blank that leaves the puzzle unique; with ``minimal`` 0, stop at the first
 * orbit that has to stay.  The puzzle is written to ``out`` (0 blank). */
void minimise9(const uint8_t solution[U9_CELLS], const int *cells, const int *starts, int orbits,
               int minimal, uint8_t out[U9_CELLS]);

#endif
