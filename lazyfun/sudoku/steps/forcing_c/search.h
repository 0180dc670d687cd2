/* The forcing chains from many starts (search.c), over the nested levels (nested.h): the
 * hints found in the branches of one cell's candidates. */
#ifndef LAZYFUN_FORCING_SEARCH_H
#define LAZYFUN_FORCING_SEARCH_H

#include "nested.h"

/* The hints from the cell's candidates (their branches, contradictions, the cell's and
 * its regions' chains), each offered to the search; 0, or -1 out of memory. */
INTERNAL int search_cell(Search *s, int cell);

#endif
