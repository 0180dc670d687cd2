/* One grid's search (minlex.c): set up, run with the searches of search.h, freed; what
 * module.c calls. */
#ifndef LAZYFUN_MINLEX_H
#define LAZYFUN_MINLEX_H

#include "state.h"

/* Set up a search of the 81 values `cells` (0 blank, 1..9); MINLEX_CONFLICT when two
 * givens share a unit (the caller checks first and names them). */
int minlex_begin(Canon *canon, const uint8_t *cells, size_t bound);
void minlex_end(Canon *canon);

/* The canonical form of the grid begun into `out`: MINLEX_OK, or MINLEX_TOO_BIG when one
 * row would keep more than `bound` states (the caller falls back), MINLEX_NO_MEMORY. */
int minlex_run(Canon *canon, uint8_t *out);

#endif
