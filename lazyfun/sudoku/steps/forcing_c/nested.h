/* Levels 2 and 3 (nested.c), over the rules of one grid (rules.h): what the chains found
 * on a branch's grid strike in the branch, and level 3's search made ready for it. */
#ifndef LAZYFUN_FORCING_NESTED_H
#define LAZYFUN_FORCING_NESTED_H

#include "rules.h"

INTERNAL int nested_chains(Search *s, Inner *in);
INTERNAL Search *multiple_search(Search *s);
INTERNAL int nested_offers(Search *s, Search *m, Inner *in);
INTERNAL void free_nested(Search *s);

#endif
