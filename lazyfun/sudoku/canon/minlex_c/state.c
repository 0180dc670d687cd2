/* The levels of the search: states added up to a bound, duplicates merged (see
 * state.h). */
#include <stdlib.h>
#include <string.h>

#include "state.h"

_Static_assert(sizeof(State) == 32, "a state is 32 bytes, no padding");

int minlex_push(States *states, const State *state, size_t bound)
{
    if (states->len >= bound)
        return MINLEX_TOO_BIG;
    if (states->len == states->cap) {
        size_t cap = states->cap ? 2 * states->cap : 64;
        State *at = realloc(states->at, cap * sizeof(State));
        if (!at)
            return MINLEX_NO_MEMORY;
        states->at = at;
        states->cap = cap;
    }
    states->at[states->len++] = *state;
    return MINLEX_OK;
}

static int by_bytes(const void *a, const void *b)
{
    return memcmp(a, b, sizeof(State));
}

void minlex_merge(States *states)
{
    if (states->len < 2)
        return;
    qsort(states->at, states->len, sizeof(State), by_bytes);
    size_t kept = 1;
    for (size_t i = 1; i < states->len; i++)
        if (memcmp(&states->at[i], &states->at[kept - 1], sizeof(State)) != 0)
            states->at[kept++] = states->at[i];
    states->len = kept;
}
