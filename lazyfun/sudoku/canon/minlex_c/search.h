/* The searches over the states (state.h): the row-by-row search (rows.c) and, for a full
 * grid, its top two rows found together (full.c). */
#ifndef LAZYFUN_MINLEX_SEARCH_H
#define LAZYFUN_MINLEX_SEARCH_H

#include "state.h"

/* rows.c: the states before any row, and one row of the search (`level`: its index). */
int minlex_start(Canon *canon);
int minlex_extend(Canon *canon, int level);

/* full.c: for a full grid, the top two rows found together, and their states. */
int minlex_full_top(Canon *canon);

#endif
