/* The rules on one grid, over the search's data (state.h): the inner rules (inner.c),
 * the cycles and chains of one line (lines.c), the wings (wings.c) and the aligned
 * exclusions (aligned.c); none calls another. */
#ifndef LAZYFUN_FORCING_RULES_H
#define LAZYFUN_FORCING_RULES_H

#include "state.h"

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

/* inner.c */
INTERNAL void rests_on(const Search *s, Finding *f, int cell, int value);
INTERNAL void take(Inner *in, const Finding *f);
INTERNAL void inner_rules(Inner *in);

/* lines.c */
INTERNAL int chain_links(Chains *g, const Search *s);
INTERNAL int chain_search(Chains *g);
INTERNAL void free_chains(Chains *g);

/* wings.c */
INTERNAL int find_wings(Wings *g, const Search *s);

/* aligned.c */
INTERNAL int aligned_search(Aligned *a, int size);

#endif
