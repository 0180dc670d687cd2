/* The slowest rules of Sudoku Explainer's ladder in C, each the fast engine beside its
 * readable Python with the same answers (lazyfun/sudoku/steps/engine.py says which runs):
 * the forcing chains from many starts (forcing.py's ``_Search``), the cycles and chains
 * of one line (chaining.py), the wings of three to five cells (techniques.py) and the
 * aligned exclusions (aligned.py).  One extension, lazyfun.sudoku.steps._forcing, of
 * these units, which share this header:
 *
 *   branches.c  what a start implies (its Branch), and the forcing chains from many
 *               starts found in the branches: contradictions, cells and regions;
 *   inner.c     the rules a dynamic chain runs when its links run dry (+);
 *   lines.c     the cycles and forcing chains of one line of links;
 *   nested.c    levels 2 and 3: the chains of one line, then the static cell and region
 *               forcing chains, nested in dynamic ones;
 *   wings.c     the wings of three to five cells and a pincer;
 *   aligned.c   the aligned pair and triple exclusions;
 *   module.c    the Python glue: the arguments read and checked, the answers built, the
 *               module's functions and constants.
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
 * What one unit calls in another is declared below, hidden outside the extension (so
 * link-time optimisation may inline it, as it did in one file).
 */
#ifndef LAZYFUN_FORCING_H
#define LAZYFUN_FORCING_H

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

/* The units of the classic grid that the inner rules (+) read: rows are units 0..n-1,
 * columns n..2n-1, boxes 2n..3n-1. */

enum { ROWS = 0, COLUMNS = 1, BOXES = 2 };

/* What an inner rule (or a nested chain) found: the candidates it strikes, and the
 * candidates the branch struck that it rests on. */
typedef struct {
    int cells[MAX_CELLS];      /* the cells struck from, in the order found */
    unsigned bits[MAX_CELLS];  /* the values struck from each */
    int count;
    short parents[MAX_CELLS * MAX_N];
    int parent_count;
    int nested;                /* the nested chain that found it, + 1 (0: an inner rule) */
} Finding;

/* What the inner rules of one dry point share: the branch they add to, its queue of off
 * nodes, whether some finding rested on the chain's strikes, and how many nodes they
 * turned off (-2: out of memory). */
typedef struct {
    const Search *s;
    Branch *b;
    short *pending;
    int *tail;
    int found, taken;
} Inner;

/* The chains of one line (lines.c), by kind. */
enum { X_CYCLE, Y_CYCLE, FORCING_X_CHAIN, XY_CYCLE, FORCING_CHAIN };
enum { MAX_LINKS = 32 };

/* A chain kept when collecting every one (nested, level 2): its kind, rating and place
 * among ties, the order found, its nodes and its strikes ((cell, values) pairs). */
typedef struct {
    int kind, length, place, seq, node_at, strike_at, strike_count;
    double difficulty;
} Kept;

typedef struct Chains {
    int n, cells, nodes;
    unsigned cands[MAX_CELLS];
    uint64_t peers[MAX_CELLS][2];
    /* each node's links: on -> off (X only, and with Y), off -> on (Y, X) */
    short on_x[MAX_NODES][MAX_LINKS], on_y[MAX_NODES][MAX_LINKS];
    short off_x[MAX_NODES][MAX_HOUSES], off_y[MAX_NODES];
    unsigned char on_x_count[MAX_NODES], on_y_count[MAX_NODES], off_x_count[MAX_NODES];
    /* the search's paths, as a tree: each step's node, the step before (-1) and length */
    int *path_node, *path_back, *path_length, paths, room;
    int seen[MAX_NODES], seen_now, back[MAX_NODES];
    /* the best chain so far */
    int have, kind, length, place;
    double difficulty;
    short best[MAX_NODES];
    /* collecting: every chain that strikes, from any cell of two candidates or more */
    int collect;
    Kept *kept;
    int kept_count, kept_room;
    short *kept_nodes;
    int nodes_used, nodes_room;
    int *kept_strikes;
    int strikes_used, strikes_room;
} Chains;

/* The wings (wings.c): a set of cells as bits, a wing, and the search. */
enum { MAX_WING = 6, ANY = 0, NOT_THREE = 1, THREE = 2 };

typedef struct {
    uint64_t w[2];
} Cells;

typedef struct {
    int tenths, struck, size, gone_count;
    char code[16];
    int cells[MAX_WING + 1];
    short gone[MAX_CELLS * MAX_N]; /* cell * n + value - 1, rising */
} Wing;

typedef struct {
    int n, cells, size;
    unsigned cands[MAX_CELLS];
    Cells peers[MAX_CELLS];
    /* the sets of `size` cells, each MAX_WING + 1 ints: its cells, -1 after them, and
     * its values last */
    int *found, count, room;
    int have[3];
    Wing best[3], hint;
} Wings;

static inline int
in_cells(const Cells *set, int cell)
{
    return (int)(set->w[cell >> 6] >> (cell & 63) & 1);
}

static inline void
put_cell(Cells *set, int cell)
{
    set->w[cell >> 6] |= (uint64_t)1 << (cell & 63);
}

/* The aligned exclusion's search (aligned.c) and its answer. */
typedef struct {
    int n, cells;
    unsigned cands[MAX_CELLS];
    Cells peers[MAX_CELLS];
    /* the answer */
    int base[3], size, excluders[MAX_CELLS], excluder_count;
    unsigned gone[3];
} Aligned;

/* branches.c */
INTERNAL double length_bonus(int complexity);
INTERNAL int add(Branch *b, int node, const short *parents, int count);
INTERNAL void free_branch(Branch *b);
INTERNAL int grow(void **items, int *room, int used, int more, size_t size);
INTERNAL int search_cell(Search *s, int cell);

/* inner.c */
INTERNAL void rests_on(const Search *s, Finding *f, int cell, int value);
INTERNAL void take(Inner *in, const Finding *f);
INTERNAL int infer(Search *s, Branch *b, short *pending, int *tail);

/* lines.c */
INTERNAL int chain_links(Chains *g, const Search *s);
INTERNAL int chain_search(Chains *g);
INTERNAL void free_chains(Chains *g);

/* nested.c */
INTERNAL int nested_chains(Search *s, Inner *in);
INTERNAL int nested_multiple(Search *s, Inner *in);
INTERNAL void free_nested(Search *s);

/* wings.c */
INTERNAL int find_wings(Wings *g, const Search *s);

/* aligned.c */
INTERNAL int aligned_search(Aligned *a, int size);

#endif
