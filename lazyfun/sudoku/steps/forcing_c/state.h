/* The slowest rules of Sudoku Explainer's ladder in C, each the fast engine beside its
 * readable Python with the same answers (lazyfun/sudoku/steps/engine.py says which runs):
 * the forcing chains from many starts (forcing.py's ``_Search``), the cycles and chains
 * of one line (chaining.py), the wings of three to five cells (techniques.py) and the
 * aligned exclusions (aligned.py).  One extension, lazyfun.sudoku.steps._forcing, of
 * these units in layers, each calling only those below it (one header a layer):
 *
 *   state.h   state.c    the search's data: the grid, each start's Branch; a node recorded
 *                        in a branch, a branch freed, room grown, SE's length bonus;
 *   rules.h   inner.c    the rules a dynamic chain runs when its links run dry (+);
 *             lines.c    the cycles and forcing chains of one line of links;
 *             wings.c    the wings of three to five cells and a pincer;
 *             aligned.c  the aligned pair and triple exclusions;
 *   nested.h  nested.c   levels 2 and 3: the chains of one line, then the static cell and
 *                        region forcing chains, found on a branch's grid and nested in it;
 *   search.h  search.c   what a start implies (its Branch: its links followed, then where
 *                        they run dry the inner rules and the nested levels), and the
 *                        forcing chains from many starts found in the branches:
 *                        contradictions, cells and regions;
 *             module.c   the Python glue: the arguments read and checked, the answers
 *                        built, the module's functions and constants.
 *
 * search(cands, n, units, houses, base, dynamic, y, kinds, values=None, level=1) ->
 * (kind, complexity, node) or None.  cands: each cell's candidates (bit v-1 for value v); units: the cells of
 * each unit; houses: each cell's units in Sudoku Explainer's order (box first); kinds:
 * the flags below.  The answer is the easiest hint, as forcing.py's module docstring
 * says: the least (base + length bonus, complexity, kind's place), the first found
 * among equals.  A node is (cell * n + value - 1) * 2 + 1 when on, + 0 when off.
 *
 * values (the placed values) turns on the inner rules of the dynamic chains (+); level 2
 * nests the cycles and forcing chains of one line in them too, level 3 the static cell
 * and region forcing chains (the classic grid's rows, columns and boxes only).
 *
 * Each followed source keeps a Branch: the nodes it turned on and off, in the order
 * they were reached, each with its parents.  Sources are followed once per search.
 *
 * What one unit calls in another is declared in its layer's header, hidden outside the
 * extension (so link-time optimisation may inline it, as it did in one file).
 */
#ifndef LAZYFUN_FORCING_STATE_H
#define LAZYFUN_FORCING_STATE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INTERNAL __attribute__((visibility("hidden")))

enum { CONTRADICTION = 1, DOUBLE = 2, CELL = 4, REGION = 8, NISHIO = 16 };
enum { MAX_N = 9, MAX_CELLS = 81, MAX_NODES = 2 * MAX_CELLS * MAX_N, MAX_HOUSES = 8 };

typedef struct {
    int clash;                    /* the node both on and off, or -1 */
    int count;                    /* nodes reached */
    short order[MAX_NODES];       /* nodes in the order reached */
    uint64_t present[(MAX_NODES + 63) / 64];
    int start[MAX_NODES];         /* each node's parents: pool[start .. start + len) */
    unsigned short len[MAX_NODES];
    int *nested;                  /* the nested chain each node was struck by, + 1 (0:
                                   * none); NULL until one is */
    short *pool;
    int used, room;
} Branch;

struct Chains;

/* A chain nested in branches (levels 2, 3): what tells it from another (its kind and
 * pool[at .. at + length): its nodes, or its conclusion and each branch's nodes), its
 * complexity, and the hint last to count it. */
typedef struct {
    int at, length, stamp, kind, complexity;
} Nested;

/* A hint kept when a search keeps them all (level 3's nested one): its kind, rating and
 * conclusion, the order found, and where its branches start (a cell, or a unit and a
 * value). */
typedef struct {
    int kind, complexity, place, node, seq, cell, unit, value;
    double difficulty;
} Offer;

typedef struct Search {
    int n, cells, nodes;
    int dynamic, y, kinds, plus, level;
    double base;
    int values[MAX_CELLS];        /* placed values (plus: the inner rules read them) */
    uint64_t unit_mask[3 * MAX_N][2]; /* plus: the cells of each row, column and box */
    unsigned cands[MAX_CELLS];
    int house_count[MAX_CELLS];
    int houses[MAX_CELLS][MAX_HOUSES];
    int unit_count;
    int *unit_start, *unit_len, *unit_cells;
    Branch **followed;            /* by source node; NULL until followed */
    /* the best hint so far */
    int have;
    double difficulty;
    int complexity, place, kind, node;
    /* scratch */
    unsigned work[MAX_CELLS];
    short queue_on[MAX_NODES], queue_off[MAX_NODES];
    int stamp[MAX_NODES], stamp_now;
    short stack[MAX_NODES];
    int cell_stamp[MAX_CELLS], cell_now;
    /* level 2: the chains searched on a branch's grid, and those nested in branches, each
     * kept once (by kind and nodes), found again through a hash table */
    struct Chains *chains;
    struct Search *multiple;      /* level 3: the static search run on a branch's grid */
    Offer *offers;                /* a search that keeps every hint: them, in order */
    int keep, offer_count, offer_room;
    short *key;                   /* level 3: a nested hint's conclusion and branches */
    int key_room;
    Nested *nested;
    short *pool;
    int *table;
    int nested_count, nested_room, pool_used, pool_room, table_size, hint_now;
} Search;

static inline int
popcount(unsigned bits)
{
    return __builtin_popcount(bits);
}

static inline int
has(const Branch *b, int node)
{
    return (int)(b->present[node >> 6] >> (node & 63) & 1);
}

/* SE's bonus for a chain of `complexity` nodes; a node recorded in a branch with its
 * parents (0, or -1 out of memory); a branch freed; room for `more` items in *items (0,
 * or -1 out of memory). */
INTERNAL double length_bonus(int complexity);
INTERNAL int add(Branch *b, int node, const short *parents, int count);
INTERNAL void free_branch(Branch *b);
INTERNAL int grow(void **items, int *room, int used, int more, size_t size);

#endif
