/* The search's data and its basic operations (see state.h): a node recorded in a branch
 * with its parents, a branch freed, room grown for more items, and Sudoku Explainer's
 * length bonus. */
#include "state.h"

/* Sudoku Explainer's bonus for a chain of `complexity` nodes, summed as it sums it. */
double
length_bonus(int complexity)
{
    double added = 0.0;
    int ceiling = 4, odd = 0, length = complexity - 2;
    while (length > ceiling) {
        added += 0.1;
        ceiling = odd ? ceiling * 4 / 3 : ceiling * 3 / 2;
        odd = !odd;
    }
    return added;
}

/* Records `node` with its parents (none when count is 0); 0, or -1 out of memory. */
int
add(Branch *b, int node, const short *parents, int count)
{
    if (b->used + count > b->room) {
        int room = (b->room ? b->room * 2 : 1024) + count;
        short *pool = realloc(b->pool, (size_t)room * sizeof(short));
        if (!pool) {
            return -1;
        }
        b->pool = pool;
        b->room = room;
    }
    b->present[node >> 6] |= (uint64_t)1 << (node & 63);
    b->start[node] = b->used;
    b->len[node] = (unsigned short)count;
    if (count) {
        memcpy(b->pool + b->used, parents, (size_t)count * sizeof(short));
    }
    b->used += count;
    b->order[b->count++] = (short)node;
    return 0;
}

void
free_branch(Branch *b)
{
    if (b) {
        free(b->nested);
        free(b->pool);
        free(b);
    }
}

/* Room for `more` items of `size` bytes in *items (holding *room); 0, or -1. */
int
grow(void **items, int *room, int used, int more, size_t size)
{
    if (used + more <= *room) {
        return 0;
    }
    int wanted = (*room ? *room * 2 : 256) + more;
    void *bigger = realloc(*items, (size_t)wanted * size);
    if (!bigger) {
        return -1;
    }
    *items = bigger;
    *room = wanted;
    return 0;
}
