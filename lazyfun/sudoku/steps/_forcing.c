/* The slowest rules of Sudoku Explainer's ladder in C, each the fast engine beside its
 * readable Python with the same answers (lazyfun/sudoku/steps/engine.py says which runs):
 * the forcing chains from many starts (forcing.py's ``_Search``), the cycles and chains
 * of one line (chaining.py) and the wings of three to five cells (techniques.py).
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
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int
popcount(unsigned bits)
{
    return __builtin_popcount(bits);
}

static int
has(const Branch *b, int node)
{
    return (int)(b->present[node >> 6] >> (node & 63) & 1);
}

static int
place_of(int kind)
{
    switch (kind) {
    case DOUBLE: return 1;
    case CELL: return 5;
    case REGION: return 6;
    default: return 7;
    }
}

/* Sudoku Explainer's bonus for a chain of `complexity` nodes, summed as it sums it. */
static double
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
static int
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

static void
free_branch(Branch *b)
{
    if (b) {
        free(b->nested);
        free(b->pool);
        free(b);
    }
}

/* Turning on node p (cell, value): the cell's other candidates go (Y) and the value
 * leaves every peer through the cell's houses.  Returns the clash or -1; -2 out of
 * memory. */
static int
turn_off_from(Search *s, Branch *b, int p, short *pending, int *tail)
{
    int n = s->n, cell = p / 2 / n, value = p / 2 % n + 1;
    unsigned bit = 1u << (value - 1);
    short parent = (short)p;
    int targets[MAX_NODES / 2], count = 0;
    if (s->y) {
        unsigned bits = s->work[cell];
        for (int v = 1; v <= n; v++) {
            if (v != value && (bits >> (v - 1) & 1)) {
                targets[count++] = (cell * n + v - 1) * 2;
            }
        }
    }
    s->cell_now++;
    s->cell_stamp[cell] = s->cell_now;
    for (int h = 0; h < s->house_count[cell]; h++) {
        int unit = s->houses[cell][h];
        for (int i = 0; i < s->unit_len[unit]; i++) {
            int c = s->unit_cells[s->unit_start[unit] + i];
            if (s->cell_stamp[c] != s->cell_now && (s->work[c] & bit)) {
                s->cell_stamp[c] = s->cell_now;
                targets[count++] = (c * n + value - 1) * 2;
            }
        }
    }
    for (int i = 0; i < count; i++) {
        int q = targets[i];
        if (has(b, q + 1)) {
            return add(b, q, &parent, 1) < 0 ? -2 : q;
        }
        if (!has(b, q)) {
            if (add(b, q, &parent, 1) < 0) {
                return -2;
            }
            pending[(*tail)++] = (short)q;
        }
    }
    return -1;
}

/* One node turned on by the node p turned off, with its parents. */
static int
turn_on(Branch *b, int q, const short *parents, int count, short *pending, int *tail)
{
    if (has(b, q - 1)) {
        return add(b, q, parents, count) < 0 ? -2 : q - 1;
    }
    if (!has(b, q)) {
        if (add(b, q, parents, count) < 0) {
            return -2;
        }
        pending[(*tail)++] = (short)q;
    }
    return -1;
}

/* Turning off node p (cell, value): a cell left with one candidate (two, static) and a
 * house left with one place (two, static) turn it on.  Returns as turn_off_from. */
static int
turn_on_from(Search *s, Branch *b, int p, short *pending, int *tail)
{
    int n = s->n, cell = p / 2 / n, value = p / 2 % n + 1, clash;
    unsigned bit = 1u << (value - 1);
    short parents[MAX_N], own = (short)p;
    int count;
    int emitted[MAX_HOUSES + 1], emitted_count = 0;
    if (s->y) {
        if (s->dynamic) {
            unsigned left = s->work[cell];
            if (left && !(left & (left - 1))) {
                int v = __builtin_ctz(left) + 1;
                unsigned struck = s->cands[cell] & ~left;
                count = 0;
                for (int w = 1; w <= n; w++) {
                    int off = (cell * n + w - 1) * 2;
                    if ((struck >> (w - 1) & 1) && has(b, off)) {
                        parents[count++] = (short)off;
                    }
                }
                int q = (cell * n + v - 1) * 2 + 1;
                emitted[emitted_count++] = q;
                clash = count ? turn_on(b, q, parents, count, pending, tail)
                              : turn_on(b, q, &own, 1, pending, tail);
                if (clash != -1) {
                    return clash;
                }
            }
        }
        else if (popcount(s->cands[cell]) == 2) {
            int v = __builtin_ctz(s->cands[cell] & ~bit) + 1;
            int q = (cell * n + v - 1) * 2 + 1;
            emitted[emitted_count++] = q;
            clash = turn_on(b, q, &own, 1, pending, tail);
            if (clash != -1) {
                return clash;
            }
        }
    }
    for (int h = 0; h < s->house_count[cell]; h++) {
        int unit = s->houses[cell][h], q = -1, places = 0, held = 0, held_cell = -1;
        int first = -1, second = -1;
        const int *cells = s->unit_cells + s->unit_start[unit];
        count = 0;
        for (int i = 0; i < s->unit_len[unit]; i++) {
            int c = cells[i];
            if (!(s->cands[c] & bit)) {
                continue;
            }
            places++;
            if (first < 0) {
                first = c;
            }
            else if (second < 0) {
                second = c;
            }
            if (s->work[c] & bit) {
                held++;
                held_cell = c;
            }
        }
        if (s->dynamic) {
            if (held != 1) {
                continue;
            }
            for (int i = 0; i < s->unit_len[unit]; i++) {
                int c = cells[i], off = (c * n + value - 1) * 2;
                if (c != held_cell && (s->cands[c] & bit) && has(b, off)) {
                    parents[count++] = (short)off;
                }
            }
            q = (held_cell * n + value - 1) * 2 + 1;
        }
        else {
            if (places != 2) {
                continue;
            }
            q = ((second == cell ? first : second) * n + value - 1) * 2 + 1;
        }
        int again = 0;
        for (int i = 0; i < emitted_count; i++) {
            again |= emitted[i] == q;
        }
        if (again) {
            continue;
        }
        emitted[emitted_count++] = q;
        clash = count ? turn_on(b, q, parents, count, pending, tail)
                      : turn_on(b, q, &own, 1, pending, tail);
        if (clash != -1) {
            return clash;
        }
    }
    return -1;
}

/* ---- Dynamic forcing chains (+): the rules a chain runs on its grid when its links run
 * dry (the readable form is lazyfun/sudoku/steps/inner.py).  Rows are units 0..n-1,
 * columns n..2n-1, boxes 2n..3n-1. ---- */

enum { ROWS = 0, COLUMNS = 1, BOXES = 2 };

typedef struct {
    int cells[MAX_CELLS];      /* the cells struck from, in the order found */
    unsigned bits[MAX_CELLS];  /* the values struck from each */
    int count;
    short parents[MAX_CELLS * MAX_N];
    int parent_count;
    int nested;                /* the nested chain that found it, + 1 (0: an inner rule) */
} Finding;

static const int *
cells_of(const Search *s, int kind, int k)
{
    int unit = kind * s->n + k;
    return s->unit_cells + s->unit_start[unit];
}

static int
in_unit(const Search *s, int kind, int k, int cell)
{
    return (int)(s->unit_mask[kind * s->n + k][cell >> 6] >> (cell & 63) & 1);
}

static void
strike(Finding *f, int cell, int value)
{
    for (int i = 0; i < f->count; i++) {
        if (f->cells[i] == cell) {
            f->bits[i] |= 1u << (value - 1);
            return;
        }
    }
    f->cells[f->count] = cell;
    f->bits[f->count++] = 1u << (value - 1);
}

static void
rests_on(const Search *s, Finding *f, int cell, int value)
{
    f->parents[f->parent_count++] = (short)((cell * s->n + value - 1) * 2);
}

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

/* A finding's strikes turned off in the branch, in the order of SE's table of them (by
 * cell modulo the table's size, then as found), each resting on the finding's parents;
 * a finding without parents takes none. */
static void
take(Inner *in, const Finding *f)
{
    if (in->taken < 0 || !f->count || !f->parent_count) {
        return;
    }
    in->found = 1;
    int size = 16, order[MAX_CELLS];
    while (f->count > size * 3 / 4) {
        size *= 2;
    }
    for (int i = 0; i < f->count; i++) {
        int j = i;
        while (j > 0 && f->cells[order[j - 1]] % size > f->cells[i] % size) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    for (int i = 0; i < f->count; i++) {
        int cell = f->cells[order[i]];
        for (int v = 1; v <= in->s->n; v++) {
            int q = (cell * in->s->n + v - 1) * 2;
            if ((f->bits[order[i]] >> (v - 1) & 1) && !has(in->b, q)) {
                if (add(in->b, q, f->parents, f->parent_count) < 0) {
                    in->taken = -2;
                    return;
                }
                if (f->nested) {
                    if (!in->b->nested && !(in->b->nested = calloc(MAX_NODES, sizeof(int)))) {
                        in->taken = -2;
                        return;
                    }
                    in->b->nested[q] = f->nested;
                }
                in->pending[(*in->tail)++] = (short)q;
                in->taken++;
            }
        }
    }
}

/* Pointing and claiming: a value's places in a unit of one kind all in a unit of the
 * other leave the rest of the second. */
static void
locking(Inner *in)
{
    const Search *s = in->s;
    static const int kinds[4][2] = {{BOXES, COLUMNS}, {BOXES, ROWS}, {COLUMNS, BOXES},
                                    {ROWS, BOXES}};
    int n = s->n;
    for (int k = 0; k < 4; k++) {
        int one = kinds[k][0], two = kinds[k][1];
        for (int value = 1; value <= n; value++) {
            unsigned bit = 1u << (value - 1);
            for (int i1 = 0; i1 < n; i1++) {
                const int *first = cells_of(s, one, i1);
                int held[MAX_N], count = 0;
                for (int i = 0; i < n; i++) {
                    if (s->work[first[i]] & bit) {
                        held[count++] = first[i];
                    }
                }
                if (count < 2) {
                    continue;
                }
                for (int i2 = 0; i2 < n; i2++) {
                    int inside = 1;
                    for (int i = 0; i < count && inside; i++) {
                        inside = in_unit(s, two, i2, held[i]);
                    }
                    if (!inside) {
                        continue;
                    }
                    Finding f = {.count = 0, .parent_count = 0};
                    const int *second = cells_of(s, two, i2);
                    for (int i = 0; i < n; i++) {
                        int c = second[i];
                        if (!in_unit(s, one, i1, c) && (s->work[c] & bit)) {
                            strike(&f, c, value);
                        }
                    }
                    for (int i = 0; i < n && f.count; i++) {
                        int c = first[i];
                        if ((s->cands[c] & bit) && !(s->work[c] & bit)
                            && !in_unit(s, two, i2, c)) {
                            rests_on(s, &f, c, value);
                        }
                    }
                    take(in, &f);
                }
            }
        }
    }
}

static int
empty_cells(const Search *s, const int *unit)
{
    int count = 0;
    for (int i = 0; i < s->n; i++) {
        count += !s->values[unit[i]];
    }
    return count;
}

static const int SUBSET_KINDS[3] = {BOXES, COLUMNS, ROWS};

/* Hidden pairs: two values with two or more places each in a unit, two in all. */
static void
hidden_pairs(Inner *in)
{
    const Search *s = in->s;
    int n = s->n;
    for (int k = 0; k < 3; k++) {
        for (int u = 0; u < n; u++) {
            const int *unit = cells_of(s, SUBSET_KINDS[k], u);
            if (empty_cells(s, unit) <= 4) {
                continue;
            }
            unsigned at[MAX_N] = {0};
            for (int i = 0; i < n; i++) {
                for (int v = 0; v < n; v++) {
                    at[v] |= (s->work[unit[i]] >> v & 1u) << i;
                }
            }
            for (int vb = 1; vb < n; vb++) {
                for (int va = 0; va < vb; va++) {
                    unsigned both = at[va] | at[vb], pair = 1u << va | 1u << vb;
                    if (popcount(at[va]) < 2 || popcount(at[vb]) < 2 || popcount(both) != 2) {
                        continue;
                    }
                    Finding f = {.count = 0, .parent_count = 0};
                    for (int i = 0; i < n; i++) {
                        unsigned other = s->work[unit[i]] & ~pair;
                        for (int v = 1; v <= n && (both >> i & 1); v++) {
                            if (other >> (v - 1) & 1) {
                                strike(&f, unit[i], v);
                            }
                        }
                    }
                    for (int i = 0; i < n && f.count; i++) {
                        if (!(both >> i & 1)) {
                            if (s->cands[unit[i]] >> va & 1) {
                                rests_on(s, &f, unit[i], va + 1);
                            }
                            if (s->cands[unit[i]] >> vb & 1) {
                                rests_on(s, &f, unit[i], vb + 1);
                            }
                        }
                    }
                    take(in, &f);
                }
            }
        }
    }
}

/* Naked pairs: two cells of a unit with two or more candidates each, two in all. */
static void
naked_pairs(Inner *in)
{
    const Search *s = in->s;
    int n = s->n;
    for (int k = 0; k < 3; k++) {
        for (int u = 0; u < n; u++) {
            const int *unit = cells_of(s, SUBSET_KINDS[k], u);
            if (empty_cells(s, unit) < 4) {
                continue;
            }
            for (int j = 1; j < n; j++) {
                for (int i = 0; i < j; i++) {
                    unsigned one = s->work[unit[i]], two = s->work[unit[j]], pair = one | two;
                    if (popcount(one) < 2 || popcount(two) < 2 || popcount(pair) != 2) {
                        continue;
                    }
                    Finding f = {.count = 0, .parent_count = 0};
                    for (int t = 0; t < n; t++) {
                        unsigned gone = t == i || t == j ? 0 : s->work[unit[t]] & pair;
                        for (int v = 1; v <= n; v++) {
                            if (gone >> (v - 1) & 1) {
                                strike(&f, unit[t], v);
                            }
                        }
                    }
                    for (int side = 0; side < 2 && f.count; side++) {
                        int c = side ? unit[j] : unit[i];
                        for (int v = 1; v <= n; v++) {
                            if ((s->cands[c] & ~pair) >> (v - 1) & 1) {
                                rests_on(s, &f, c, v);
                            }
                        }
                    }
                    take(in, &f);
                }
            }
        }
    }
}

/* X-wings on columns, then rows: a value with two or more places in each of two base
 * lines, on two cover lines in all, leaves the rest of the cover lines. */
static void
x_wings(Inner *in)
{
    const Search *s = in->s;
    int n = s->n, placed[MAX_N + 1] = {0};
    for (int c = 0; c < s->cells; c++) {
        placed[s->values[c]]++;
    }
    for (int side = 0; side < 2; side++) {
        int bases = side ? ROWS : COLUMNS, covers = side ? COLUMNS : ROWS;
        for (int lb = 1; lb < n; lb++) {
            for (int la = 0; la < lb; la++) {
                const int *base_a = cells_of(s, bases, la), *base_b = cells_of(s, bases, lb);
                for (int value = 1; value <= n; value++) {
                    unsigned bit = 1u << (value - 1), at_a = 0, at_b = 0;
                    if (placed[value] + 4 > n) {
                        continue;
                    }
                    for (int t = 0; t < n; t++) {
                        at_a |= (unsigned)((s->work[base_a[t]] & bit) != 0) << t;
                        at_b |= (unsigned)((s->work[base_b[t]] & bit) != 0) << t;
                    }
                    unsigned lines = at_a | at_b;
                    if (popcount(at_a) < 2 || popcount(at_b) < 2 || popcount(lines) != 2) {
                        continue;
                    }
                    Finding f = {.count = 0, .parent_count = 0};
                    for (int k = 0; k < n; k++) {
                        const int *cover = cells_of(s, covers, k);
                        for (int t = 0; t < n && (lines >> k & 1); t++) {
                            if (t != la && t != lb && (s->work[cover[t]] & bit)) {
                                strike(&f, cover[t], value);
                            }
                        }
                    }
                    for (int t = 0; t < n && f.count; t++) {
                        const int *pair[2] = {base_a, base_b};
                        for (int e = 0; e < 2 && !(lines >> t & 1); e++) {
                            int c = pair[e][t];
                            if ((s->cands[c] & bit) && !(s->work[c] & bit)) {
                                rests_on(s, &f, c, value);
                            }
                        }
                    }
                    take(in, &f);
                }
            }
        }
    }
}

typedef void (*InnerRule)(Inner *);
static const InnerRule INNER_RULES[] = {locking, hidden_pairs, naked_pairs, x_wings};

static int nested_chains(Search *s, Inner *in);
static int nested_multiple(Search *s, Inner *in);

/* When the links run dry: what the first inner rule that finds anything resting on the
 * chain's strikes strikes; at level 2, failing them, what the cycles and forcing chains
 * of one line found on the branch's grid strike; at level 3, failing those, what its
 * static cell and region forcing chains strike.  How many nodes it turned off (0: the
 * chain ends), -2 out of memory. */
static int
infer(Search *s, Branch *b, short *pending, int *tail)
{
    for (size_t r = 0; r < sizeof INNER_RULES / sizeof INNER_RULES[0]; r++) {
        Inner in = {s, b, pending, tail, 0, 0};
        INNER_RULES[r](&in);
        if (in.taken < 0 || in.found) {
            return in.taken;
        }
    }
    Inner in = {s, b, pending, tail, 0, 0};
    if (s->level >= 2 && nested_chains(s, &in) < 0) {
        return -2;
    }
    if (in.taken >= 0 && !in.found && s->level >= 3 && nested_multiple(s, &in) < 0) {
        return -2;
    }
    return in.taken;
}

/* Everything `source` implies, breadth first (on nodes before off ones), stopping at a
 * node found both on and off; NULL out of memory. */
static Branch *
follow(Search *s, int source)
{
    if (s->followed[source]) {
        return s->followed[source];
    }
    Branch *b = calloc(1, sizeof(Branch));
    if (!b) {
        return NULL;
    }
    b->clash = -1;
    memcpy(s->work, s->cands, sizeof(unsigned) * (size_t)s->cells);
    int on_head = 0, on_tail = 0, off_head = 0, off_tail = 0, clash = -1;
    if (add(b, source, NULL, 0) < 0) {
        free_branch(b);
        return NULL;
    }
    if (source & 1) {
        s->queue_on[on_tail++] = (short)source;
    }
    else {
        s->queue_off[off_tail++] = (short)source;
    }
    while (clash == -1) {
        if (on_head < on_tail) {
            clash = turn_off_from(s, b, s->queue_on[on_head++], s->queue_off, &off_tail);
        }
        else if (off_head < off_tail) {
            int p = s->queue_off[off_head++];
            if (s->dynamic) {
                s->work[p / 2 / s->n] &= ~(1u << (p / 2 % s->n));
            }
            clash = turn_on_from(s, b, p, s->queue_on, &on_tail);
        }
        else if (!s->plus) {
            break;
        }
        else {
            int got = infer(s, b, s->queue_off, &off_tail);
            if (got <= 0) {
                clash = got < 0 ? -2 : -1;
                break;
            }
        }
    }
    if (clash == -2) {
        free_branch(b);
        return NULL;
    }
    b->clash = clash;
    s->followed[source] = b;
    return b;
}

/* How many distinct nodes `node` rests on in b, itself included, plus the complexity of
 * each chain nested in them that the hint being rated (s->hint_now) has not counted. */
static int
ancestors(Search *s, const Branch *b, int node)
{
    int top = 0, seen = 1;
    s->stamp_now++;
    s->stamp[node] = s->stamp_now;
    s->stack[top++] = (short)node;
    while (top) {
        int q = s->stack[--top];
        if (!has(b, q)) {
            continue;
        }
        int chain = b->nested ? b->nested[q] - 1 : -1;
        if (chain >= 0 && s->nested[chain].stamp != s->hint_now) {
            s->nested[chain].stamp = s->hint_now;
            seen += s->nested[chain].complexity;
        }
        for (int i = 0; i < b->len[q]; i++) {
            int parent = b->pool[b->start[q] + i];
            if (s->stamp[parent] != s->stamp_now) {
                s->stamp[parent] = s->stamp_now;
                seen++;
                s->stack[top++] = (short)parent;
            }
        }
    }
    return seen;
}

static int grow(void **items, int *room, int used, int more, size_t size);

/* A hint concluding `node`: kept when it is the easiest so far, or, keeping them all,
 * kept with where its branches start (cell, or unit and value); 0, or -1 out of memory. */
static int
offer(Search *s, int kind, int complexity, int node, int cell, int unit, int value)
{
    double difficulty = s->base + length_bonus(complexity);
    int place = place_of(kind);
    if (s->keep) {
        if (grow((void **)&s->offers, &s->offer_room, s->offer_count, 1, sizeof(Offer)) < 0) {
            return -1;
        }
        s->offers[s->offer_count] = (Offer){kind,  complexity, place, node, s->offer_count,
                                            cell,  unit,       value, difficulty};
        s->offer_count++;
        return 0;
    }
    if (s->have
        && !(difficulty < s->difficulty
             || (difficulty == s->difficulty
                 && (complexity < s->complexity
                     || (complexity == s->complexity && place < s->place))))) {
        return 0;
    }
    s->have = 1;
    s->difficulty = difficulty;
    s->complexity = complexity;
    s->place = place;
    s->kind = kind;
    s->node = node;
    return 0;
}

/* The nodes every branch implies that change the grid, offered as `kind` (starting at
 * cell, or at unit and value); 0, or -1 out of memory. */
static int
common(Search *s, Branch **branches, int count, int kind, int cell0, int unit, int value0)
{
    const Branch *first = branches[0];
    for (int pass = 1; pass >= 0; pass--) {
        for (int i = 0; i < first->count; i++) {
            int q = first->order[i];
            if ((q & 1) != pass) {
                continue;
            }
            int cell = q / 2 / s->n, value = q / 2 % s->n + 1;
            if (!(s->cands[cell] >> (value - 1) & 1)) {
                continue;
            }
            if ((q & 1) && popcount(s->cands[cell]) == 1) {
                continue;
            }
            int everywhere = 1;
            for (int k = 1; k < count && everywhere; k++) {
                everywhere = has(branches[k], q);
            }
            if (!everywhere) {
                continue;
            }
            int complexity = 0;
            s->hint_now++;
            for (int k = 0; k < count; k++) {
                complexity += ancestors(s, branches[k], q);
            }
            if (offer(s, kind, complexity, q, cell0, unit, value0) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

static int
contradictions(Search *s, int node_on, Branch *on_branch, int doubled)
{
    Branch *off_branch = follow(s, node_on - 1);
    if (!off_branch) {
        return -1;
    }
    int kind = (s->kinds & NISHIO) ? NISHIO : CONTRADICTION;
    int sources[2] = {node_on, node_on - 1};
    Branch *branches[2] = {on_branch, off_branch};
    for (int i = 0; i < 2; i++) {
        int clash = branches[i]->clash;
        if (clash >= 0) {
            s->hint_now++;
            int complexity = ancestors(s, branches[i], clash + 1)
                             + ancestors(s, branches[i], clash);
            if (offer(s, kind, complexity, sources[i] ^ 1, node_on / 2 / s->n, -1, 0) < 0) {
                return -1;
            }
        }
    }
    if ((s->kinds & DOUBLE) && doubled) {
        return common(s, branches, 2, DOUBLE, node_on / 2 / s->n, -1, 0);
    }
    return 0;
}

static int
regions(Search *s, int cell, int value, Branch *on_branch)
{
    int n = s->n;
    unsigned bit = 1u << (value - 1);
    for (int h = 0; h < s->house_count[cell]; h++) {
        int unit = s->houses[cell][h], places[MAX_CELLS], count = 0;
        const int *cells = s->unit_cells + s->unit_start[unit];
        for (int i = 0; i < s->unit_len[unit]; i++) {
            if (s->cands[cells[i]] & bit) {
                places[count++] = cells[i];
            }
        }
        if (count < 2 || places[0] != cell) {
            continue;
        }
        Branch *branches[MAX_CELLS];
        branches[0] = on_branch;
        for (int i = 1; i < count; i++) {
            branches[i] = follow(s, (places[i] * n + value - 1) * 2 + 1);
            if (!branches[i]) {
                return -1;
            }
        }
        if (common(s, branches, count, REGION, -1, unit, value) < 0) {
            return -1;
        }
    }
    return 0;
}

static int
search_cell(Search *s, int cell)
{
    unsigned bits = s->cands[cell];
    Branch *from_on[MAX_N];
    int count = 0;
    for (int value = 1; value <= s->n; value++) {
        if (!(bits >> (value - 1) & 1)) {
            continue;
        }
        int node_on = (cell * s->n + value - 1) * 2 + 1;
        Branch *on_branch = follow(s, node_on);
        if (!on_branch) {
            return -1;
        }
        from_on[count++] = on_branch;
        if ((s->kinds & CONTRADICTION)
            && contradictions(s, node_on, on_branch, popcount(bits) >= 3) < 0) {
            return -1;
        }
        if ((s->kinds & REGION) && regions(s, cell, value, on_branch) < 0) {
            return -1;
        }
    }
    if (s->kinds & CELL) {
        return common(s, from_on, count, CELL, cell, -1, 0);
    }
    return 0;
}

/* Reads a sequence of ints into out (at most room); the count, or -1 with an error set. */
static int
read_ints(PyObject *sequence, int *out, int room, const char *what)
{
    PyObject *fast = PySequence_Fast(sequence, what);
    if (!fast) {
        return -1;
    }
    Py_ssize_t size = PySequence_Fast_GET_SIZE(fast);
    if (size > room) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: more than %d", what, room);
        return -1;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        long value = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (value == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)value;
    }
    Py_DECREF(fast);
    return (int)size;
}

static int read_houses(Search *s, PyObject *houses);

/* The grid's candidates and units, and (unless houses is NULL) each cell's houses. */
static int
read_search(Search *s, PyObject *cands, PyObject *units, PyObject *houses)
{
    int values[MAX_CELLS];
    s->cells = read_ints(cands, values, MAX_CELLS, "cands");
    if (s->cells < 0) {
        return -1;
    }
    for (int c = 0; c < s->cells; c++) {
        if (values[c] < 0 || values[c] >= 1 << s->n) {
            PyErr_Format(PyExc_ValueError, "cell %d: candidates %d are not of %d values",
                         c, values[c], s->n);
            return -1;
        }
        s->cands[c] = (unsigned)values[c];
    }
    s->nodes = 2 * s->cells * s->n;
    PyObject *fast = PySequence_Fast(units, "units");
    if (!fast) {
        return -1;
    }
    s->unit_count = (int)PySequence_Fast_GET_SIZE(fast);
    s->unit_start = PyMem_Calloc((size_t)s->unit_count + 1, sizeof(int));
    s->unit_len = PyMem_Calloc((size_t)s->unit_count + 1, sizeof(int));
    s->unit_cells = PyMem_Calloc((size_t)s->unit_count * MAX_CELLS + 1, sizeof(int));
    if (!s->unit_start || !s->unit_len || !s->unit_cells) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    for (int u = 0; u < s->unit_count; u++) {
        s->unit_start[u] = u * MAX_CELLS;
        int got = read_ints(PySequence_Fast_GET_ITEM(fast, u), s->unit_cells + u * MAX_CELLS,
                            MAX_CELLS, "a unit");
        if (got < 0) {
            Py_DECREF(fast);
            return -1;
        }
        for (int i = 0; i < got; i++) {
            if (s->unit_cells[u * MAX_CELLS + i] < 0
                || s->unit_cells[u * MAX_CELLS + i] >= s->cells) {
                Py_DECREF(fast);
                PyErr_Format(PyExc_ValueError, "unit %d names a cell off the grid", u);
                return -1;
            }
        }
        s->unit_len[u] = got;
    }
    Py_DECREF(fast);
    return houses ? read_houses(s, houses) : 0;
}

/* Each cell's units in Sudoku Explainer's order, into s; 0, or -1 with an error set. */
static int
read_houses(Search *s, PyObject *houses)
{
    PyObject *fast = PySequence_Fast(houses, "houses");
    if (!fast) {
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(fast) != s->cells) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "houses: one list of units a cell");
        return -1;
    }
    for (int c = 0; c < s->cells; c++) {
        int got = read_ints(PySequence_Fast_GET_ITEM(fast, c), s->houses[c], MAX_HOUSES,
                            "a cell's houses");
        if (got < 0) {
            Py_DECREF(fast);
            return -1;
        }
        for (int i = 0; i < got; i++) {
            if (s->houses[c][i] < 0 || s->houses[c][i] >= s->unit_count) {
                Py_DECREF(fast);
                PyErr_Format(PyExc_ValueError, "cell %d's houses name a unit that is not", c);
                return -1;
            }
        }
        s->house_count[c] = got;
    }
    Py_DECREF(fast);
    return 0;
}

static void free_nested(Search *s);

static void
free_search(Search *s)
{
    free_nested(s);
    if (s->followed) {
        for (int i = 0; i < s->nodes; i++) {
            free_branch(s->followed[i]);
        }
        PyMem_Free(s->followed);
    }
    PyMem_Free(s->unit_start);
    PyMem_Free(s->unit_len);
    PyMem_Free(s->unit_cells);
    PyMem_Free(s);
}

/* A search of n values over the grid given, read (the followed branches not yet
 * allocated); NULL with an error set. */
static Search *
new_search(int n, PyObject *cands, PyObject *units, PyObject *houses)
{
    if (n < 1 || n > MAX_N) {
        PyErr_Format(PyExc_ValueError, "n = %d: the engine takes 1 to %d values", n, MAX_N);
        return NULL;
    }
    Search *s = PyMem_Calloc(1, sizeof(Search));
    if (!s) {
        PyErr_NoMemory();
        return NULL;
    }
    s->n = n;
    if (read_search(s, cands, units, houses) < 0) {
        free_search(s);
        return NULL;
    }
    return s;
}

/* The placed values, which turn on the inner rules (+): the grid must be the classic
 * one's rows, columns and boxes of n cells; 0, or -1 with an error set. */
static int
read_plus(Search *s, PyObject *values)
{
    int n = s->n, got = read_ints(values, s->values, MAX_CELLS, "values");
    if (got < 0) {
        return -1;
    }
    if (got != s->cells || s->unit_count < 3 * n || !s->dynamic) {
        PyErr_SetString(PyExc_ValueError,
                        "values (+): one a cell, a dynamic search, rows, columns and boxes");
        return -1;
    }
    for (int u = 0; u < 3 * n; u++) {
        if (s->unit_len[u] != n) {
            PyErr_Format(PyExc_ValueError, "unit %d: (+) reads units of %d cells", u, n);
            return -1;
        }
        for (int i = 0; i < n; i++) {
            int c = s->unit_cells[s->unit_start[u] + i];
            s->unit_mask[u][c >> 6] |= (uint64_t)1 << (c & 63);
        }
    }
    for (int c = 0; c < s->cells; c++) {
        if (s->values[c] < 0 || s->values[c] > n) {
            PyErr_Format(PyExc_ValueError, "cell %d: value %d is not of %d", c, s->values[c], n);
            return -1;
        }
    }
    s->plus = 1;
    return 0;
}

static PyObject *
search(PyObject *Py_UNUSED(module), PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"cands", "n", "units", "houses", "base", "dynamic", "y", "kinds",
                            "values", "level", NULL};
    PyObject *cands, *units, *houses, *values = Py_None;
    int n, dynamic, y, kinds, level = 1;
    double base;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OiOOdppi|Oi:search", names, &cands, &n,
                                     &units, &houses, &base, &dynamic, &y, &kinds, &values,
                                     &level)) {
        return NULL;
    }
    if (level < 1 || level > 3 || (level > 1 && values == Py_None)) {
        PyErr_Format(PyExc_ValueError,
                     "level %d: 1 (+), 2 (+ forcing chains) or 3 (+ multiple forcing chains), "
                     "the last two with values",
                     level);
        return NULL;
    }
    Search *s = new_search(n, cands, units, houses);
    if (!s) {
        return NULL;
    }
    s->base = base;
    s->dynamic = dynamic;
    s->y = y;
    s->kinds = kinds;
    s->level = level;
    if (values != Py_None && read_plus(s, values) < 0) {
        free_search(s);
        return NULL;
    }
    if (level > 1 && s->unit_count != 3 * n) {
        PyErr_Format(PyExc_ValueError, "level %d reads the classic grid's %d units, not %d",
                     level, 3 * n, s->unit_count);
        free_search(s);
        return NULL;
    }
    s->followed = PyMem_Calloc((size_t)s->nodes + 1, sizeof(Branch *));
    if (!s->followed) {
        free_search(s);
        return PyErr_NoMemory();
    }
    int least = dynamic ? 2 : 3, failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (int cell = 0; cell < s->cells && !failed; cell++) {
        if (popcount(s->cands[cell]) >= least) {
            failed = search_cell(s, cell) < 0;
        }
    }
    Py_END_ALLOW_THREADS
    if (failed) {
        free_search(s);
        return PyErr_NoMemory();
    }
    PyObject *out = s->have ? Py_BuildValue("(iii)", s->kind, s->complexity, s->node)
                            : Py_NewRef(Py_None);
    free_search(s);
    return out;
}

/* ---- Sudoku Explainer's first chaining rule: cycles and forcing chains, one line of
 * links each (the readable form is lazyfun/sudoku/steps/chaining.py). ---- */

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

static const double CHAIN_BASE[] = {6.5, 6.5, 6.6, 7.0, 7.0};
static const int CHAIN_PLACE[] = {2, 3, 2, 4, 4};

static int
turned_off(const Chains *g, int node, int y, const short **links)
{
    *links = y ? g->on_y[node] : g->on_x[node];
    return y ? g->on_y_count[node] : g->on_x_count[node];
}

static int
turned_on(const Chains *g, int node, int x, int y, short *out)
{
    int count = 0;
    if (y && g->off_y[node] >= 0) {
        out[count++] = g->off_y[node];
    }
    if (x) {
        for (int i = 0; i < g->off_x_count[node]; i++) {
            int again = 0;
            for (int k = 0; k < count; k++) {
                again |= out[k] == g->off_x[node][i];
            }
            if (!again) {
                out[count++] = g->off_x[node][i];
            }
        }
    }
    return count;
}

static int
chain_links(Chains *g, const Search *s)
{
    int n = g->n;
    memset(g->off_x_count, 0, sizeof g->off_x_count);
    for (int u = 0; u < s->unit_count; u++) {
        const int *cells = s->unit_cells + s->unit_start[u];
        for (int i = 0; i < s->unit_len[u]; i++) {
            for (int k = 0; k < s->unit_len[u]; k++) {
                if (cells[i] != cells[k]) {
                    g->peers[cells[i]][cells[k] >> 6] |= (uint64_t)1 << (cells[k] & 63);
                }
            }
        }
    }
    for (int cell = 0; cell < g->cells; cell++) {
        unsigned bits = g->cands[cell];
        for (int value = 1; value <= n; value++) {
            unsigned bit = 1u << (value - 1);
            if (!(bits & bit)) {
                continue;
            }
            int node = (cell * n + value - 1) * 2, same = 0;
            short *y = g->on_y[node + 1];
            int ys = 0;
            for (int v = 1; v <= n; v++) {
                if (v != value && (bits >> (v - 1) & 1)) {
                    y[ys++] = (short)((cell * n + v - 1) * 2);
                }
            }
            g->off_y[node] = -1;
            if (popcount(bits) == 2) {
                int v = __builtin_ctz(bits & ~bit) + 1;
                g->off_y[node] = (short)((cell * n + v - 1) * 2 + 1);
            }
            int seen_cells[MAX_CELLS] = {0};
            seen_cells[cell] = 1;
            for (int h = 0; h < s->house_count[cell]; h++) {
                int unit = s->houses[cell][h], places = 0, other = -1;
                const int *cells = s->unit_cells + s->unit_start[unit];
                for (int i = 0; i < s->unit_len[unit]; i++) {
                    int c = cells[i];
                    if (!(g->cands[c] & bit)) {
                        continue;
                    }
                    places++;
                    if (c != cell) {
                        other = c;
                    }
                    if (!seen_cells[c]) {
                        seen_cells[c] = 1;
                        if (same >= MAX_LINKS || ys >= MAX_LINKS) {
                            return -1;
                        }
                        g->on_x[node + 1][same++] = (short)((c * n + value - 1) * 2);
                        y[ys++] = (short)((c * n + value - 1) * 2);
                    }
                }
                if (places == 2) {
                    short q = (short)((other * n + value - 1) * 2 + 1);
                    int again = 0;
                    for (int i = 0; i < g->off_x_count[node]; i++) {
                        again |= g->off_x[node][i] == q;
                    }
                    if (!again) {
                        g->off_x[node][g->off_x_count[node]++] = q;
                    }
                }
            }
            g->on_x_count[node + 1] = (unsigned char)same;
            g->on_y_count[node + 1] = (unsigned char)ys;
        }
    }
    return 0;
}

/* A new path: `node` after path `back` (-1: it starts there); its index, or -1. */
static int
extend(Chains *g, int back, int node)
{
    if (g->paths == g->room) {
        int room = g->room ? g->room * 2 : 4096;
        int *nodes = PyMem_RawRealloc(g->path_node, (size_t)room * sizeof(int));
        if (nodes) {
            g->path_node = nodes;
        }
        int *backs = PyMem_RawRealloc(g->path_back, (size_t)room * sizeof(int));
        if (backs) {
            g->path_back = backs;
        }
        int *lengths = PyMem_RawRealloc(g->path_length, (size_t)room * sizeof(int));
        if (lengths) {
            g->path_length = lengths;
        }
        if (!nodes || !backs || !lengths) {
            return -1;
        }
        g->room = room;
    }
    g->path_node[g->paths] = node;
    g->path_back[g->paths] = back;
    g->path_length[g->paths] = back < 0 ? 1 : g->path_length[back] + 1;
    return g->paths++;
}

static int
on_path(const Chains *g, int path, int node)
{
    for (; path >= 0; path = g->path_back[path]) {
        if (g->path_node[path] == node) {
            return 1;
        }
    }
    return 0;
}

/* What a loop strikes, into gone (each cell's values): a value from a cell outside it
 * that sees one of its nodes of that value on and one off; whether anything. */
static int
cycle_strikes(const Chains *g, int path, unsigned *gone)
{
    uint64_t inside[2] = {0, 0}, on[MAX_N][2], off[MAX_N][2];
    memset(on, 0, sizeof on);
    memset(off, 0, sizeof off);
    for (int p = path; p >= 0; p = g->path_back[p]) {
        int q = g->path_node[p], cell = q / 2 / g->n, value = q / 2 % g->n;
        inside[cell >> 6] |= (uint64_t)1 << (cell & 63);
        uint64_t(*side)[2] = q & 1 ? on : off;
        side[value][cell >> 6] |= (uint64_t)1 << (cell & 63);
    }
    int any = 0;
    for (int c = 0; c < g->cells; c++) {
        gone[c] = 0;
        for (int value = 0; value < g->n && !(inside[c >> 6] >> (c & 63) & 1); value++) {
            const uint64_t *peers = g->peers[c];
            if ((g->cands[c] >> value & 1)
                && ((peers[0] & on[value][0]) | (peers[1] & on[value][1]))
                && ((peers[0] & off[value][0]) | (peers[1] & off[value][1]))) {
                gone[c] |= 1u << value;
                any = 1;
            }
        }
    }
    return any;
}

static void
offer_chain(Chains *g, int kind, int path)
{
    int length = g->path_length[path];
    double difficulty = CHAIN_BASE[kind] + length_bonus(length);
    int place = CHAIN_PLACE[kind];
    if (g->have
        && !(difficulty < g->difficulty
             || (difficulty == g->difficulty
                 && (length < g->length || (length == g->length && place < g->place))))) {
        return;
    }
    g->have = 1;
    g->kind = kind;
    g->length = length;
    g->place = place;
    g->difficulty = difficulty;
    for (int p = path, i = length - 1; p >= 0; p = g->path_back[p], i--) {
        g->best[i] = (short)g->path_node[p];
    }
}

/* Room for `more` items of `size` bytes in *items (holding *room); 0, or -1. */
static int
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

/* A chain kept with what it strikes (collecting): a loop strikes each value from the
 * cells outside it that see one of its nodes of that value on and one off, the cells
 * in the order its on nodes reach them, read from its end back; a forcing chain to off
 * strikes its candidate, to on the cell's other ones.  One that strikes nothing is not
 * kept.  0, or -1 out of memory. */
static int
keep_chain(Chains *g, int kind, int path)
{
    int length = g->path_length[path], n = g->n;
    if (grow((void **)&g->kept, &g->kept_room, g->kept_count, 1, sizeof(Kept)) < 0
        || grow((void **)&g->kept_nodes, &g->nodes_room, g->nodes_used, length, sizeof(short))
               < 0
        || grow((void **)&g->kept_strikes, &g->strikes_room, g->strikes_used, 2 * MAX_CELLS,
                sizeof(int)) < 0) {
        return -1;
    }
    short *nodes = g->kept_nodes + g->nodes_used;
    for (int p = path, i = length - 1; p >= 0; p = g->path_back[p], i--) {
        nodes[i] = (short)g->path_node[p];
    }
    int *strikes = g->kept_strikes + g->strikes_used, count = 0;
    if (kind == FORCING_CHAIN || kind == FORCING_X_CHAIN) {
        int target = nodes[length - 1], cell = target / 2 / n;
        unsigned bit = 1u << (target / 2 % n);
        strikes[0] = cell;
        strikes[1] = (int)(target & 1 ? g->cands[cell] & ~bit : bit);
        count = 1;
    }
    else {
        unsigned gone[MAX_CELLS];
        if (!cycle_strikes(g, path, gone)) {
            return 0;
        }
        for (int i = length; i > 0; i -= 2) {
            int q = nodes[i % length], cell = q / 2 / n;
            for (int c = 0; c < g->cells; c++) {
                if ((g->peers[cell][c >> 6] >> (c & 63) & 1) && (gone[c] >> (q / 2 % n) & 1)) {
                    int at = 0;
                    while (at < count && strikes[2 * at] != c) {
                        at++;
                    }
                    if (at == count) {
                        strikes[2 * count] = c;
                        strikes[2 * count + 1] = 0;
                        count++;
                    }
                    strikes[2 * at + 1] |= 1u << (q / 2 % n);
                }
            }
        }
    }
    Kept *k = &g->kept[g->kept_count];
    k->kind = kind;
    k->length = length;
    k->place = CHAIN_PLACE[kind];
    k->difficulty = CHAIN_BASE[kind] + length_bonus(length);
    k->seq = g->kept_count++;
    k->node_at = g->nodes_used;
    k->strike_at = g->strikes_used;
    k->strike_count = count;
    g->nodes_used += length;
    g->strikes_used += 2 * count;
    return 0;
}

/* The shortest loops from `start` (on) back to it, four links or more, offered. */
static int
cycles(Chains *g, int start, int x, int y)
{
    int kind = x && y ? XY_CYCLE : x ? X_CYCLE : Y_CYCLE;
    g->paths = 0;
    g->seen_now++;
    g->seen[start] = g->seen_now;
    int first = extend(g, -1, start);
    if (first < 0) {
        return -1;
    }
    int on_from = first, on_to = first + 1;
    while (on_to > on_from) {
        int off_from = g->paths;
        for (int path = on_from; path < on_to; path++) {
            const short *links;
            int count = turned_off(g, g->path_node[path], y, &links);
            for (int i = 0; i < count; i++) {
                if (!on_path(g, path, links[i]) && extend(g, path, links[i]) < 0) {
                    return -1;
                }
            }
        }
        int off_to = g->paths;
        on_from = g->paths;
        for (int path = off_from; path < off_to; path++) {
            short links[MAX_HOUSES + 1];
            int count = turned_on(g, g->path_node[path], x, y, links);
            for (int i = 0; i < count; i++) {
                int q = links[i];
                if (q == start && g->path_length[path] >= 4) {
                    if (g->collect) {
                        if (keep_chain(g, kind, path) < 0) {
                            return -1;
                        }
                    }
                    else {
                        unsigned gone[MAX_CELLS];
                        if (cycle_strikes(g, path, gone)) {
                            offer_chain(g, kind, path);
                        }
                    }
                }
                else if (g->seen[q] != g->seen_now) {
                    g->seen[q] = g->seen_now;
                    if (extend(g, path, q) < 0) {
                        return -1;
                    }
                }
            }
        }
        on_to = g->paths;
    }
    return 0;
}

/* The shortest chain from `start` to its opposite, offered. */
static int
forcing_chain(Chains *g, int start, int x, int y)
{
    int target = start ^ 1;
    g->paths = 0;
    g->seen_now++;
    g->seen[start] = g->seen_now;
    if (extend(g, -1, start) < 0) {
        return -1;
    }
    for (int path = 0; path < g->paths; path++) {
        int node = g->path_node[path], count;
        short buffer[MAX_HOUSES + 1];
        const short *links = buffer;
        if (node & 1) {
            count = turned_off(g, node, y, &links);
        }
        else {
            count = turned_on(g, node, x, y, buffer);
        }
        for (int i = 0; i < count; i++) {
            int q = links[i];
            if (g->seen[q] == g->seen_now) {
                continue;
            }
            g->seen[q] = g->seen_now;
            int next = extend(g, path, q);
            if (next < 0) {
                return -1;
            }
            if (q == target) {
                int kind = x && y ? FORCING_CHAIN : FORCING_X_CHAIN;
                if (g->collect) {
                    return keep_chain(g, kind, next);
                }
                offer_chain(g, kind, next);
                return 0;
            }
        }
    }
    return 0;
}

static int
chain_search(Chains *g)
{
    static const int searches[3][2] = {{1, 0}, {0, 1}, {1, 1}};
    for (int k = 0; k < 3; k++) {
        int x = searches[k][0], y = searches[k][1];
        if (!g->collect && g->have && g->difficulty < 7.0) {
            break; /* every chain of the XY search rates 7.0 at least */
        }
        for (int cell = 0; cell < g->cells; cell++) {
            unsigned bits = g->cands[cell];
            if (popcount(bits) < 2 || (y && !x && popcount(bits) != 2)) {
                continue;
            }
            for (int value = 1; value <= g->n; value++) {
                if (!(bits >> (value - 1) & 1)) {
                    continue;
                }
                int on = (cell * g->n + value - 1) * 2 + 1;
                if (cycles(g, on, x, y) < 0) {
                    return -1;
                }
                if (x && (forcing_chain(g, on, x, y) < 0 || forcing_chain(g, on - 1, x, y) < 0)) {
                    return -1;
                }
            }
        }
    }
    return 0;
}

static void
free_chains(Chains *g)
{
    PyMem_RawFree(g->path_node);
    PyMem_RawFree(g->path_back);
    PyMem_RawFree(g->path_length);
    PyMem_Free(g);
}

/* ---- Level 2, forcing chains nested in dynamic ones (the readable form is nested() in
 * lazyfun/sudoku/steps/inner.py): where a branch's links and inner rules run dry, every
 * cycle and forcing chain of the first chaining rule on the branch's grid strikes. ---- */

/* Which of two hints comes first: the easier, then the lower complexity (length), then
 * the kind's place among ties, then the first found. */
static int
by_rank(double d1, int c1, int p1, int s1, double d2, int c2, int p2, int s2)
{
    if (d1 != d2) {
        return d1 < d2 ? -1 : 1;
    }
    return c1 != c2 ? c1 - c2 : p1 != p2 ? p1 - p2 : s1 - s2;
}

static int
compare_kept(const void *a, const void *b)
{
    const Kept *x = a, *y = b;
    return by_rank(x->difficulty, x->length, x->place, x->seq, y->difficulty, y->length,
                   y->place, y->seq);
}

/* Whether two kept chains strike the same candidates. */
static int
same_strikes(const Chains *g, const Kept *a, const Kept *b)
{
    if (a->strike_count != b->strike_count) {
        return 0;
    }
    const int *x = g->kept_strikes + a->strike_at, *y = g->kept_strikes + b->strike_at;
    for (int i = 0; i < a->strike_count; i++) {
        int j = 0;
        while (j < b->strike_count && y[2 * j] != x[2 * i]) {
            j++;
        }
        if (j == b->strike_count || y[2 * j + 1] != x[2 * i + 1]) {
            return 0;
        }
    }
    return 1;
}

/* The candidate (cell, value) as a parent of f, once (stamped). */
static void
rests_once(Search *s, Finding *f, int cell, int value)
{
    int q = (cell * s->n + value - 1) * 2;
    if (s->stamp[q] != s->stamp_now) {
        s->stamp[q] = s->stamp_now;
        rests_on(s, f, cell, value);
    }
}

/* The cell's candidates the branch struck, as parents of f. */
static void
rests_on_cell(Search *s, Finding *f, int cell)
{
    unsigned struck = s->cands[cell] & ~s->work[cell];
    for (int v = 1; v <= s->n; v++) {
        if (struck >> (v - 1) & 1) {
            rests_once(s, f, cell, v);
        }
    }
}

/* The places of value in unit that the branch struck, as parents of f. */
static void
rests_on_places(Search *s, Finding *f, int unit, int value)
{
    unsigned bit = 1u << (value - 1);
    const int *cells = s->unit_cells + s->unit_start[unit];
    for (int i = 0; i < s->unit_len[unit]; i++) {
        if ((s->cands[cells[i]] & bit) && !(s->work[cells[i]] & bit)) {
            rests_once(s, f, cells[i], value);
        }
    }
}

/* What the link from p to q rests on in the branch's grid: the cell's struck candidates
 * when it runs within a cell; else, in the first house of p's cell holding q's (and, for
 * q on, just two places of its value), the value's struck places. */
static void
rests_on_link(Search *s, Finding *f, int p, int q)
{
    int n = s->n, from = p / 2 / n, cell = q / 2 / n, value = q / 2 % n + 1;
    unsigned bit = 1u << (value - 1);
    if (from == cell) {
        rests_on_cell(s, f, cell);
        return;
    }
    for (int h = 0; h < s->house_count[from]; h++) {
        int unit = s->houses[from][h], places = 0;
        if (!(s->unit_mask[unit][cell >> 6] >> (cell & 63) & 1)) {
            continue;
        }
        const int *cells = s->unit_cells + s->unit_start[unit];
        for (int i = 0; i < s->unit_len[unit]; i++) {
            places += (s->work[cells[i]] & bit) != 0;
        }
        if ((q & 1) && places != 2) {
            continue;
        }
        rests_on_places(s, f, unit, value);
        return;
    }
}

/* The kinds of nested chains, as interned. */
enum { NESTED_LOOP, NESTED_CHAIN, NESTED_CELL, NESTED_REGION };

static uint32_t
hash_chain(const short *nodes, int length, int kind)
{
    uint32_t hash = 2166136261u ^ (uint32_t)kind;
    for (int i = 0; i < length; i++) {
        hash = (hash ^ (uint32_t)nodes[i]) * 16777619u;
    }
    return hash;
}

/* The hash table of the nested chains, twice as big; 0, or -1 out of memory. */
static int
rehash(Search *s)
{
    int size = s->table_size ? s->table_size * 2 : 1024;
    int *table = malloc((size_t)size * sizeof(int));
    if (!table) {
        return -1;
    }
    memset(table, 0xff, (size_t)size * sizeof(int));
    for (int id = 0; id < s->nested_count; id++) {
        const Nested *c = &s->nested[id];
        uint32_t slot = hash_chain(s->pool + c->at, c->length, c->kind) & (uint32_t)(size - 1);
        while (table[slot] >= 0) {
            slot = (slot + 1) & (uint32_t)(size - 1);
        }
        table[slot] = id;
    }
    free(s->table);
    s->table = table;
    s->table_size = size;
    return 0;
}

/* A nested chain's number, + 1: the one kept with the same kind and nodes, or a new one
 * of that complexity; -1 out of memory. */
static int
intern_chain(Search *s, const short *nodes, int length, int kind, int complexity)
{
    if (s->nested_count * 2 >= s->table_size && rehash(s) < 0) {
        return -1;
    }
    uint32_t mask = (uint32_t)(s->table_size - 1), slot = hash_chain(nodes, length, kind) & mask;
    for (; s->table[slot] >= 0; slot = (slot + 1) & mask) {
        const Nested *c = &s->nested[s->table[slot]];
        if (c->kind == kind && c->length == length
            && !memcmp(s->pool + c->at, nodes, (size_t)length * sizeof(short))) {
            return s->table[slot] + 1;
        }
    }
    if (grow((void **)&s->pool, &s->pool_room, s->pool_used, length, sizeof(short)) < 0
        || grow((void **)&s->nested, &s->nested_room, s->nested_count, 1, sizeof(Nested)) < 0) {
        return -1;
    }
    int id = s->nested_count++;
    memcpy(s->pool + s->pool_used, nodes, (size_t)length * sizeof(short));
    s->nested[id] = (Nested){s->pool_used, length, 0, kind, complexity};
    s->pool_used += length;
    s->table[slot] = id;
    return id + 1;
}

/* Level 2, at a dry point: every cycle and forcing chain on the branch's grid (X links,
 * then Y, then both; cell by cell, value by value), easiest first (difficulty, length,
 * kind), one of each set of strikes; each that rests on what the branch struck (the
 * causes of its links, both ways round for a loop) strikes, its strikes keeping it as
 * their nested chain, through `in`; 0, or -2 out of memory. */
static int
nested_chains(Search *s, Inner *in)
{
    Chains *g = s->chains;
    if (!g) {
        g = s->chains = calloc(1, sizeof(Chains));
        if (!g) {
            return -2;
        }
        g->n = s->n;
        g->cells = s->cells;
        g->nodes = s->nodes;
        g->collect = 1;
    }
    memcpy(g->cands, s->work, sizeof(unsigned) * (size_t)s->cells);
    g->kept_count = g->nodes_used = g->strikes_used = 0;
    if (chain_links(g, s) < 0 || chain_search(g) < 0) {
        return -2;
    }
    if (g->kept_count > 1) {
        qsort(g->kept, (size_t)g->kept_count, sizeof(Kept), compare_kept);
    }
    Finding f;
    for (int k = 0; k < g->kept_count && in->taken >= 0; k++) {
        const Kept *kept = &g->kept[k];
        int again = 0;
        for (int e = 0; e < k && !again; e++) {
            again = same_strikes(g, &g->kept[e], kept);
        }
        if (again) {
            continue;
        }
        const short *nodes = g->kept_nodes + kept->node_at;
        int loop = kept->kind != FORCING_CHAIN && kept->kind != FORCING_X_CHAIN;
        f.count = f.parent_count = 0;
        s->stamp_now++;
        for (int i = 1; i <= kept->length; i++) {
            if (i == kept->length && !loop) {
                break;
            }
            int q = nodes[i % kept->length];
            if (loop || (q & 1)) {
                rests_on_link(s, &f, nodes[i - 1], q);
            }
        }
        if (!f.parent_count) {
            continue;
        }
        const int *strikes = g->kept_strikes + kept->strike_at;
        int fresh = 0;
        for (int i = 0; i < kept->strike_count; i++) {
            f.cells[f.count] = strikes[2 * i];
            f.bits[f.count++] = (unsigned)strikes[2 * i + 1];
            for (int v = 0; v < s->n; v++) {
                fresh |= (strikes[2 * i + 1] >> v & 1)
                         && !has(in->b, (strikes[2 * i] * s->n + v) * 2);
            }
        }
        int kind = loop ? NESTED_LOOP : NESTED_CHAIN;
        f.nested = fresh ? intern_chain(s, nodes, kept->length, kind, kept->length) : 0;
        if (f.nested < 0) {
            return -2;
        }
        take(in, &f);
    }
    return in->taken < 0 ? -2 : 0;
}

/* Level 3's search, static cell and region forcing chains keeping every hint, made
 * ready for a branch's grid (sharing s's units); NULL out of memory. */
static Search *
multiple_search(Search *s)
{
    Search *m = s->multiple;
    if (m) {
        for (int i = 0; i < m->nodes; i++) {
            free_branch(m->followed[i]);
            m->followed[i] = NULL;
        }
        m->offer_count = 0;
        return m;
    }
    m = calloc(1, sizeof(Search));
    if (!m) {
        return NULL;
    }
    m->followed = calloc((size_t)s->nodes + 1, sizeof(Branch *));
    if (!m->followed) {
        free(m);
        return NULL;
    }
    m->n = s->n;
    m->cells = s->cells;
    m->nodes = s->nodes;
    m->y = 1;
    m->kinds = CELL | REGION;
    m->base = 8.0;
    m->keep = 1;
    memcpy(m->house_count, s->house_count, sizeof s->house_count);
    memcpy(m->houses, s->houses, sizeof s->houses);
    m->unit_count = s->unit_count;
    m->unit_start = s->unit_start;
    m->unit_len = s->unit_len;
    m->unit_cells = s->unit_cells;
    s->multiple = m;
    return m;
}

static void
free_multiple(Search *m)
{
    if (m) {
        for (int i = 0; i < m->nodes; i++) {
            free_branch(m->followed[i]);
        }
        free(m->followed);
        free(m->offers);
        free(m);
    }
}

static int
compare_offers(const void *a, const void *b)
{
    const Offer *x = a, *y = b;
    return by_rank(x->difficulty, x->complexity, x->place, x->seq, y->difficulty,
                   y->complexity, y->place, y->seq);
}

static int
compare_shorts(const void *a, const void *b)
{
    return *(const short *)a - *(const short *)b;
}

/* The nodes `node` rests on in b, itself included, into out, rising; how many. */
static int
gather(Search *m, const Branch *b, int node, short *out)
{
    int top = 0, count = 0;
    m->stamp_now++;
    m->stamp[node] = m->stamp_now;
    m->stack[top++] = (short)node;
    while (top) {
        int q = m->stack[--top];
        out[count++] = (short)q;
        for (int i = 0; has(b, q) && i < b->len[q]; i++) {
            int parent = b->pool[b->start[q] + i];
            if (m->stamp[parent] != m->stamp_now) {
                m->stamp[parent] = m->stamp_now;
                m->stack[top++] = (short)parent;
            }
        }
    }
    qsort(out, (size_t)count, sizeof(short), compare_shorts);
    return count;
}

/* What a branch's start stands on in a nested hint from many starts: the cell's struck
 * candidates (a cell's chains), or the value's struck places in the unit (a region's). */
static void
rests_on_start(Search *s, Finding *f, const Offer *o)
{
    if (o->unit < 0) {
        rests_on_cell(s, f, o->cell);
    }
    else {
        rests_on_places(s, f, o->unit, o->value);
    }
}

/* Level 3, where the chains of one line find nothing: every static cell and region
 * forcing chain on the branch's grid (searched as a grid of its own), easiest first
 * (difficulty, complexity, cell before region), one of each set of strikes; each that
 * rests on what the branch struck (the causes of the on nodes its branches rest on, a
 * start standing on its cell's or unit's struck candidates) strikes, through `in`; 0, or
 * -2 out of memory. */
static int
nested_multiple(Search *s, Inner *in)
{
    int n = s->n;
    Search *m = multiple_search(s);
    if (!m) {
        return -2;
    }
    memcpy(m->cands, s->work, sizeof(unsigned) * (size_t)s->cells);
    for (int cell = 0; cell < m->cells; cell++) {
        if (popcount(m->cands[cell]) >= 3 && search_cell(m, cell) < 0) {
            return -2;
        }
    }
    if (m->offer_count > 1) {
        qsort(m->offers, (size_t)m->offer_count, sizeof(Offer), compare_offers);
    }
    Finding f;
    for (int k = 0; k < m->offer_count && in->taken >= 0; k++) {
        const Offer *o = &m->offers[k];
        int cell = o->node / 2 / n;
        unsigned bit = 1u << (o->node / 2 % n);
        unsigned gone = (o->node & 1) ? m->cands[cell] & ~bit : bit;
        int again = 0;
        for (int e = 0; e < k && !again; e++) {
            const Offer *before = &m->offers[e];
            int other = before->node / 2 / n;
            unsigned was = 1u << (before->node / 2 % n);
            again = other == cell && ((before->node & 1) ? m->cands[other] & ~was : was) == gone;
        }
        if (again) {
            continue;
        }
        Branch *branches[MAX_CELLS];
        int count = 0;
        for (int i = 0; o->unit < 0 && i < n; i++) {
            if (m->cands[o->cell] >> i & 1) {
                branches[count++] = m->followed[(o->cell * n + i) * 2 + 1];
            }
        }
        const int *cells = o->unit < 0 ? NULL : s->unit_cells + s->unit_start[o->unit];
        for (int i = 0; cells && i < s->unit_len[o->unit]; i++) {
            if (m->cands[cells[i]] >> (o->value - 1) & 1) {
                branches[count++] = m->followed[(cells[i] * n + o->value - 1) * 2 + 1];
            }
        }
        if (grow((void **)&s->key, &s->key_room, 0, 1 + count * (1 + s->nodes),
                 sizeof(short)) < 0) {
            return -2;
        }
        f.count = f.parent_count = 0;
        s->stamp_now++;
        int length = 1;
        s->key[0] = (short)o->node;
        for (int i = 0; i < count; i++) {
            short *nodes = s->key + length + 1;
            int reached = gather(m, branches[i], o->node, nodes);
            s->key[length] = (short)reached;
            length += 1 + reached;
            for (int j = 0; j < reached; j++) {
                int q = nodes[j];
                if (!(q & 1)) {
                    continue;
                }
                if (branches[i]->len[q]) {
                    rests_on_link(s, &f, branches[i]->pool[branches[i]->start[q]], q);
                }
                else {
                    rests_on_start(s, &f, o);
                }
            }
        }
        if (!f.parent_count) {
            continue;
        }
        f.cells[0] = cell;
        f.bits[0] = gone;
        f.count = 1;
        int fresh = 0;
        for (int v = 0; v < n; v++) {
            fresh |= (gone >> v & 1) && !has(in->b, (cell * n + v) * 2);
        }
        int kind = o->kind == REGION ? NESTED_REGION : NESTED_CELL;
        f.nested = fresh ? intern_chain(s, s->key, length, kind, o->complexity) : 0;
        if (f.nested < 0) {
            return -2;
        }
        take(in, &f);
    }
    return in->taken < 0 ? -2 : 0;
}

static void
free_nested(Search *s)
{
    if (s->chains) {
        PyMem_RawFree(s->chains->path_node);
        PyMem_RawFree(s->chains->path_back);
        PyMem_RawFree(s->chains->path_length);
        free(s->chains->kept);
        free(s->chains->kept_nodes);
        free(s->chains->kept_strikes);
        free(s->chains);
    }
    free_multiple(s->multiple);
    free(s->offers);
    free(s->key);
    free(s->nested);
    free(s->pool);
    free(s->table);
}

static PyObject *
chains(PyObject *Py_UNUSED(module), PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"cands", "n", "units", "houses", NULL};
    PyObject *cands, *units, *houses;
    int n;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OiOO:chains", names, &cands, &n, &units,
                                     &houses)) {
        return NULL;
    }
    Search *s = new_search(n, cands, units, houses);
    if (!s) {
        return NULL;
    }
    Chains *g = PyMem_Calloc(1, sizeof(Chains));
    if (!g) {
        free_search(s);
        return PyErr_NoMemory();
    }
    g->n = n;
    g->cells = s->cells;
    g->nodes = s->nodes;
    memcpy(g->cands, s->cands, sizeof g->cands);
    int failed = chain_links(g, s) < 0;
    free_search(s);
    if (failed) {
        PyMem_Free(g);
        PyErr_SetString(PyExc_ValueError, "a candidate has more links than the engine holds");
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    failed = chain_search(g) < 0;
    Py_END_ALLOW_THREADS
    if (failed) {
        free_chains(g);
        return PyErr_NoMemory();
    }
    PyObject *out = Py_None;
    if (g->have) {
        PyObject *nodes = PyTuple_New(g->length);
        for (int i = 0; nodes && i < g->length; i++) {
            PyObject *node = PyLong_FromLong(g->best[i]);
            if (!node) {
                Py_CLEAR(nodes);
                break;
            }
            PyTuple_SET_ITEM(nodes, i, node);
        }
        out = nodes ? Py_BuildValue("(iN)", g->kind, nodes) : NULL;
    }
    else {
        Py_INCREF(out);
    }
    free_chains(g);
    return out;
}

/* ---- Sudoku Explainer's wings of its newer rules (the readable form is techniques.py's
 * _wings): `size` cells of a unit holding size + 1 values between them, and a cell of two
 * of those values (yz) that sees every one of them holding x. ---- */

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

static int
compare_ints(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int
in_cells(const Cells *set, int cell)
{
    return (int)(set->w[cell >> 6] >> (cell & 63) & 1);
}

static void
put_cell(Cells *set, int cell)
{
    set->w[cell >> 6] |= (uint64_t)1 << (cell & 63);
}

/* Records the set cells[0 .. size) holding `values`; -1 out of memory. */
static int
keep_clique(Wings *g, const int *cells, unsigned values)
{
    int width = MAX_WING + 1;
    if (g->count == g->room) {
        int room = g->room ? g->room * 2 : 256;
        int *found = PyMem_RawRealloc(g->found, (size_t)room * (size_t)width * sizeof(int));
        if (!found) {
            return -1;
        }
        g->found = found;
        g->room = room;
    }
    int *set = g->found + g->count * width;
    for (int i = 0; i < MAX_WING; i++) {
        set[i] = i < g->size ? cells[i] : -1;
    }
    set[MAX_WING] = (int)values;
    g->count++;
    return 0;
}

/* The sets grown from cells[0 .. depth) with the cells of rest[0 .. left). */
static int
grow_clique(Wings *g, int *cells, int depth, unsigned values, const int *rest, int left)
{
    for (int i = 0; i < left; i++) {
        unsigned joined = values | g->cands[rest[i]];
        if (popcount(joined) > g->size + 1) {
            continue;
        }
        cells[depth] = rest[i];
        if (depth + 1 == g->size) {
            if (popcount(joined) == g->size + 1 && keep_clique(g, cells, joined) < 0) {
                return -1;
            }
        }
        else if (grow_clique(g, cells, depth + 1, joined, rest + i + 1, left - i - 1) < 0) {
            return -1;
        }
    }
    return 0;
}

static int
compare_cliques(const void *a, const void *b)
{
    const int *x = a, *y = b;
    for (int i = 0; i < MAX_WING; i++) {
        if (x[i] != y[i]) {
            return x[i] < y[i] ? -1 : 1;
        }
    }
    return 0;
}

/* The cells that see every cell of `seen`, but those of `skip`, holding `bit`, into gone
 * (a flag per node). */
static void
strike_seeing(Wings *g, const int *seen, int count, const Cells *skip, int value, char *gone)
{
    Cells common = g->peers[seen[0]];
    for (int i = 1; i < count; i++) {
        common.w[0] &= g->peers[seen[i]].w[0];
        common.w[1] &= g->peers[seen[i]].w[1];
    }
    for (int c = 0; c < g->cells; c++) {
        if (in_cells(&common, c) && !in_cells(skip, c) && (g->cands[c] >> (value - 1) & 1)) {
            gone[c * g->n + value - 1] = 1;
        }
    }
}

/* SE's order of wings: easier, then striking more, then the greater name. */
static int
wing_before(const Wing *a, const Wing *b)
{
    if (a->tenths != b->tenths) {
        return a->tenths < b->tenths;
    }
    if (a->struck != b->struck) {
        return a->struck > b->struck;
    }
    return strcmp(a->code, b->code) > 0;
}

static int
wing_tenths(int size, int big)
{
    int off = abs(3 - big);
    return size == 3 ? 55 + 1 - off : size == 4 ? 62 + 2 - off : size == 5 ? 66 : 75;
}

/* The wing of the set `cells` (holding `values`) and the pincer yz, if it strikes. */
static void
try_wing(Wings *g, const int *cells, unsigned values, int yz, int big, int held)
{
    int n = g->n, size = g->size, links[2], link_count = 0;
    int holding[MAX_N + 1][MAX_WING], held_by[MAX_N + 1];
    for (int v = 1; v <= n; v++) {
        held_by[v] = 0;
        for (int i = 0; i < size; i++) {
            if (g->cands[cells[i]] >> (v - 1) & 1) {
                holding[v][held_by[v]++] = cells[i];
            }
        }
    }
    for (int v = 1; v <= n; v++) {
        if (!(g->cands[yz] >> (v - 1) & 1)) {
            continue;
        }
        int all = 1;
        for (int i = 0; i < held_by[v]; i++) {
            all &= in_cells(&g->peers[yz], holding[v][i]);
        }
        if (all) {
            links[link_count++] = v;
        }
    }
    if (!link_count) {
        return;
    }
    Cells skip = {{0, 0}};
    for (int i = 0; i < size; i++) {
        put_cell(&skip, cells[i]);
    }
    put_cell(&skip, yz);
    char gone[MAX_CELLS * MAX_N];
    memset(gone, 0, (size_t)g->cells * (size_t)n);
    int twice = 0;
    for (int v = 1; v <= n; v++) {
        int linked = link_count == 2 && (v == links[0] || v == links[1]);
        int z = link_count == 1 && (g->cands[yz] >> (v - 1) & 1) && v != links[0];
        if (!(values >> (v - 1) & 1) || (link_count == 1 && !z)) {
            continue;
        }
        int seen[MAX_WING + 1], count = held_by[v];
        memcpy(seen, holding[v], (size_t)count * sizeof(int));
        if (linked || z) {
            seen[count++] = yz;
        }
        strike_seeing(g, seen, count, &skip, v, gone);
    }
    Wing *h = &g->hint;
    h->gone_count = 0;
    int others = 0, hit[2] = {0, 0};
    for (int node = 0; node < g->cells * n; node++) {
        if (gone[node]) {
            int v = node % n + 1;
            h->gone[h->gone_count++] = (short)node;
            if (link_count == 2) {
                others |= v != links[0] && v != links[1];
                hit[0] |= v == links[0];
                hit[1] |= v == links[1];
            }
        }
    }
    if (!h->gone_count) {
        return;
    }
    twice = link_count == 2 && (others || (hit[0] && hit[1]));
    h->tenths = wing_tenths(size, big);
    h->struck = h->gone_count;
    h->size = size + 1;
    snprintf(h->code, sizeof h->code, "%d%d%d", twice ? 2 : 1, big, held);
    memcpy(h->cells, cells, (size_t)size * sizeof(int));
    h->cells[size] = yz;
    int keys[2] = {ANY, big == 3 ? THREE : NOT_THREE};
    for (int k = 0; k < 2; k++) {
        if (!g->have[keys[k]] || wing_before(h, &g->best[keys[k]])) {
            g->best[keys[k]] = *h;
            g->have[keys[k]] = 1;
        }
    }
}

static int
find_wings(Wings *g, const Search *s)
{
    int cells[MAX_WING];
    for (int u = 0; u < s->unit_count; u++) {
        int open[MAX_CELLS], count = 0;
        for (int i = 0; i < s->unit_len[u]; i++) {
            int c = s->unit_cells[s->unit_start[u] + i];
            if (popcount(g->cands[c]) > 1) {
                open[count++] = c;
            }
        }
        qsort(open, (size_t)count, sizeof(int), compare_ints);
        for (int i = 0; i < count; i++) {
            cells[0] = open[i];
            if (popcount(g->cands[open[i]]) <= g->size + 1
                && grow_clique(g, cells, 1, g->cands[open[i]], open + i + 1, count - i - 1) < 0) {
                return -1;
            }
        }
    }
    int width = MAX_WING + 1;
    if (g->count) {
        qsort(g->found, (size_t)g->count, (size_t)width * sizeof(int), compare_cliques);
    }
    for (int k = 0; k < g->count; k++) {
        const int *set = g->found + k * width;
        if (k && compare_cliques(set, set - width) == 0) {
            continue;
        }
        unsigned values = (unsigned)set[MAX_WING];
        Cells mine = {{0, 0}};
        int big = 0, held = 0;
        for (int i = 0; i < g->size; i++) {
            put_cell(&mine, set[i]);
            big = popcount(g->cands[set[i]]) > big ? popcount(g->cands[set[i]]) : big;
            held += popcount(g->cands[set[i]]);
        }
        for (int yz = 0; yz < g->cells; yz++) {
            unsigned x = g->cands[yz];
            if (popcount(x) != 2 || (x & ~values) || in_cells(&mine, yz)
                || !((g->peers[yz].w[0] & mine.w[0]) | (g->peers[yz].w[1] & mine.w[1]))) {
                continue;
            }
            try_wing(g, set, values, yz, big, held);
        }
    }
    return 0;
}

static PyObject *
wing_out(const Wings *g, int key)
{
    if (!g->have[key]) {
        return Py_NewRef(Py_None);
    }
    const Wing *w = &g->best[key];
    PyObject *cells = PyTuple_New(w->size), *gone = PyTuple_New(w->gone_count);
    for (int i = 0; cells && gone && i < w->size; i++) {
        PyTuple_SET_ITEM(cells, i, PyLong_FromLong(w->cells[i]));
    }
    for (int i = 0; cells && gone && i < w->gone_count; i++) {
        PyTuple_SET_ITEM(gone, i,
                         Py_BuildValue("(ii)", w->gone[i] / g->n, w->gone[i] % g->n + 1));
    }
    if (!cells || !gone || PyErr_Occurred()) {
        Py_XDECREF(cells);
        Py_XDECREF(gone);
        return NULL;
    }
    return Py_BuildValue("(iNN)", w->tenths, cells, gone);
}

static PyObject *
wings(PyObject *Py_UNUSED(module), PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"cands", "n", "units", "size", NULL};
    PyObject *cands, *units;
    int n, size;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OiOi:wings", names, &cands, &n, &units,
                                     &size)) {
        return NULL;
    }
    if (size < 3 || size > MAX_WING) {
        PyErr_Format(PyExc_ValueError, "size = %d: the wings' sets are of 3 to %d cells", size,
                     MAX_WING);
        return NULL;
    }
    Search *s = new_search(n, cands, units, NULL);
    if (!s) {
        return NULL;
    }
    Wings *g = PyMem_Calloc(1, sizeof(Wings));
    if (!g) {
        free_search(s);
        return PyErr_NoMemory();
    }
    g->n = n;
    g->cells = s->cells;
    g->size = size;
    memcpy(g->cands, s->cands, sizeof g->cands);
    for (int u = 0; u < s->unit_count; u++) {
        Cells unit = {{0, 0}};
        for (int i = 0; i < s->unit_len[u]; i++) {
            put_cell(&unit, s->unit_cells[s->unit_start[u] + i]);
        }
        for (int i = 0; i < s->unit_len[u]; i++) {
            Cells *p = &g->peers[s->unit_cells[s->unit_start[u] + i]];
            p->w[0] |= unit.w[0];
            p->w[1] |= unit.w[1];
        }
    }
    for (int c = 0; c < g->cells; c++) {
        g->peers[c].w[c >> 6] &= ~((uint64_t)1 << (c & 63));
    }
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = find_wings(g, s) < 0;
    Py_END_ALLOW_THREADS
    free_search(s);
    PyObject *out = NULL;
    if (failed) {
        PyErr_NoMemory();
    }
    else {
        PyObject *any = wing_out(g, ANY), *other = any ? wing_out(g, NOT_THREE) : NULL;
        PyObject *three = other ? wing_out(g, THREE) : NULL;
        out = three ? Py_BuildValue("(NNN)", any, other, three) : NULL;
        if (!three) {
            Py_XDECREF(any);
            Py_XDECREF(other);
        }
    }
    PyMem_RawFree(g->found);
    PyMem_Free(g);
    return out;
}

/* ---- Sudoku Explainer's aligned pair and triple exclusion (the readable form is
 * lazyfun/sudoku/steps/aligned.py). ---- */

static int
count_cells(const Cells *set)
{
    return __builtin_popcountll(set->w[0]) + __builtin_popcountll(set->w[1]);
}

static Cells
both_cells(const Cells *a, const Cells *b)
{
    Cells out = {{a->w[0] & b->w[0], a->w[1] & b->w[1]}};
    return out;
}

/* The cells of a set, rising, into out; how many. */
static int
list_cells(const Cells *set, int *out)
{
    int count = 0;
    for (int k = 0; k < 2; k++) {
        for (uint64_t w = set->w[k]; w; w &= w - 1) {
            out[count++] = k * 64 + __builtin_ctzll(w);
        }
    }
    return count;
}

typedef struct {
    int n, cells;
    unsigned cands[MAX_CELLS];
    Cells peers[MAX_CELLS];
    /* the answer */
    int base[3], size, excluders[MAX_CELLS], excluder_count;
    unsigned gone[3];
} Aligned;

/* What the combinations of the cells' values that no two peers repeat and no excluder
 * empties leave out; whether anything goes (the answer is then kept in a). */
static int
exclude(Aligned *a, const int *cells, int size, const Cells *common)
{
    int excluders[MAX_CELLS], count = list_cells(common, excluders);
    unsigned locks[MAX_CELLS], left[3] = {0, 0, 0}, top[3] = {1, 1, 1};
    for (int e = 0; e < count; e++) {
        locks[e] = a->cands[excluders[e]];
    }
    int see01 = in_cells(&a->peers[cells[0]], cells[1]);
    int see02 = size == 3 && in_cells(&a->peers[cells[0]], cells[2]);
    int see12 = size == 3 && in_cells(&a->peers[cells[1]], cells[2]);
    for (int i = 0; i < size; i++) {
        top[i] = a->cands[cells[i]];
    }
    for (unsigned r0 = top[0]; r0; r0 &= r0 - 1) {
        unsigned b0 = r0 & -r0;
        for (unsigned r1 = top[1]; r1; r1 &= r1 - 1) {
            unsigned b1 = r1 & -r1;
            if (see01 && b0 == b1) {
                continue;
            }
            for (unsigned r2 = size == 3 ? top[2] : 1; r2; r2 &= r2 - 1) {
                unsigned b2 = size == 3 ? r2 & -r2 : 0, held = b0 | b1 | b2;
                if ((see02 && b0 == b2) || (see12 && b1 == b2)) {
                    continue;
                }
                int locked = 0;
                for (int e = 0; e < count && !locked; e++) {
                    locked = !(locks[e] & ~held);
                }
                if (!locked) {
                    left[0] |= b0;
                    left[1] |= b1;
                    left[2] |= b2;
                }
            }
        }
    }
    int any = 0;
    for (int i = 0; i < size; i++) {
        a->gone[i] = a->cands[cells[i]] & ~left[i];
        a->base[i] = cells[i];
        any |= a->gone[i] != 0;
    }
    if (any) {
        a->size = size;
        a->excluder_count = count;
        memcpy(a->excluders, excluders, sizeof(int) * (size_t)count);
    }
    return any;
}

/* SE's first aligned exclusion of `size` cells: bases by pairs (later, then earlier),
 * a third from the first's excluders, then the second's; whether one was found. */
static int
aligned_search(Aligned *a, int size)
{
    int most = size == 2 ? 2 : 3, bases[MAX_CELLS], count = 0;
    Cells singles = {{0, 0}}, excluding = {{0, 0}}, ex[MAX_CELLS], is_base = {{0, 0}};
    for (int c = 0; c < a->cells; c++) {
        int k = popcount(a->cands[c]);
        if (k == 1) {
            put_cell(&singles, c);
        }
        else if (k >= 2 && k <= most) {
            put_cell(&excluding, c);
        }
    }
    for (int c = 0; c < a->cells; c++) {
        ex[c] = both_cells(&a->peers[c], &excluding);
        Cells near_single = both_cells(&a->peers[c], &singles);
        if (popcount(a->cands[c]) >= 2 && count_cells(&ex[c]) && !count_cells(&near_single)) {
            bases[count++] = c;
            put_cell(&is_base, c);
        }
    }
    for (int j = 1; j < count; j++) {
        for (int i = 0; i < j; i++) {
            int one = bases[i], two = bases[j];
            Cells both = both_cells(&ex[one], &ex[two]);
            if (count_cells(&both) < 2) {
                continue;
            }
            if (size == 2) {
                int cells[2] = {one, two};
                if (exclude(a, cells, 2, &both)) {
                    return 1;
                }
                continue;
            }
            int around[2 * MAX_CELLS], near = list_cells(&ex[one], around);
            Cells more = {{ex[two].w[0] & ~ex[one].w[0], ex[two].w[1] & ~ex[one].w[1]}};
            near += list_cells(&more, around + near);
            for (int k = 0; k < near; k++) {
                int third = around[k];
                if (third == one || third == two || !in_cells(&is_base, third)) {
                    continue;
                }
                Cells common = both_cells(&both, &ex[third]);
                int cells[3] = {one, two, third};
                if (count_cells(&common) >= 2 && exclude(a, cells, 3, &common)) {
                    return 1;
                }
            }
        }
    }
    return 0;
}

static PyObject *
aligned(PyObject *Py_UNUSED(module), PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"cands", "n", "units", "size", NULL};
    PyObject *cands, *units;
    int n, size;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OiOi:aligned", names, &cands, &n, &units,
                                     &size)) {
        return NULL;
    }
    if (size < 2 || size > 3) {
        PyErr_Format(PyExc_ValueError, "size = %d: aligned exclusion takes 2 or 3 cells", size);
        return NULL;
    }
    Search *s = new_search(n, cands, units, NULL);
    if (!s) {
        return NULL;
    }
    Aligned *a = PyMem_Calloc(1, sizeof(Aligned));
    if (!a) {
        free_search(s);
        return PyErr_NoMemory();
    }
    a->n = n;
    a->cells = s->cells;
    memcpy(a->cands, s->cands, sizeof a->cands);
    for (int u = 0; u < s->unit_count; u++) {
        Cells unit = {{0, 0}};
        for (int i = 0; i < s->unit_len[u]; i++) {
            put_cell(&unit, s->unit_cells[s->unit_start[u] + i]);
        }
        for (int i = 0; i < s->unit_len[u]; i++) {
            Cells *p = &a->peers[s->unit_cells[s->unit_start[u] + i]];
            p->w[0] |= unit.w[0];
            p->w[1] |= unit.w[1];
        }
    }
    for (int c = 0; c < a->cells; c++) {
        a->peers[c].w[c >> 6] &= ~((uint64_t)1 << (c & 63));
    }
    free_search(s);
    int found;
    Py_BEGIN_ALLOW_THREADS
    found = aligned_search(a, size);
    Py_END_ALLOW_THREADS
    if (!found) {
        PyMem_Free(a);
        return Py_NewRef(Py_None);
    }
    PyObject *cells = PyTuple_New(a->size + a->excluder_count), *gone = PyList_New(0);
    for (int i = 0; cells && i < a->size + a->excluder_count; i++) {
        int c = i < a->size ? a->base[i] : a->excluders[i - a->size];
        PyTuple_SET_ITEM(cells, i, PyLong_FromLong(c));
    }
    for (int i = 0; gone && i < a->size; i++) {
        for (int v = 1; v <= n; v++) {
            if (a->gone[i] >> (v - 1) & 1) {
                PyObject *pair = Py_BuildValue("(ii)", a->base[i], v);
                if (!pair || PyList_Append(gone, pair) < 0) {
                    Py_XDECREF(pair);
                    Py_CLEAR(gone);
                    break;
                }
                Py_DECREF(pair);
            }
        }
    }
    PyObject *out = cells && gone ? Py_BuildValue("(OO)", cells, gone) : NULL;
    Py_XDECREF(cells);
    Py_XDECREF(gone);
    PyMem_Free(a);
    return out;
}

static PyMethodDef methods[] = {
    {"search", (PyCFunction)(void (*)(void))search, METH_VARARGS | METH_KEYWORDS,
     "search(cands, n, units, houses, base, dynamic, y, kinds) -> (kind, complexity, node) "
     "or None: the easiest forcing chain of the kinds asked for."},
    {"chains", (PyCFunction)(void (*)(void))chains, METH_VARARGS | METH_KEYWORDS,
     "chains(cands, n, units, houses) -> (kind, nodes) or None: the easiest cycle or "
     "forcing chain of Sudoku Explainer's first chaining rule."},
    {"wings", (PyCFunction)(void (*)(void))wings, METH_VARARGS | METH_KEYWORDS,
     "wings(cands, n, units, size) -> (any, not three, three): Sudoku Explainer's first wing "
     "of size + 1 cells, and the first whose biggest cell holds other than / three values; "
     "each (tenths, cells, eliminations) or None."},
    {"aligned", (PyCFunction)(void (*)(void))aligned, METH_VARARGS | METH_KEYWORDS,
     "aligned(cands, n, units, size) -> (cells, eliminations) or None: Sudoku Explainer's "
     "first aligned exclusion of size (2 or 3) cells; cells: the bases, then the excluders."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_forcing",
    "Sudoku Explainer's forcing chains from many starts in C (see forcing.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__forcing(void)
{
    PyObject *m = PyModule_Create(&module);
    if (!m) {
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "CONTRADICTION", CONTRADICTION) < 0
        || PyModule_AddIntConstant(m, "DOUBLE", DOUBLE) < 0
        || PyModule_AddIntConstant(m, "CELL", CELL) < 0
        || PyModule_AddIntConstant(m, "REGION", REGION) < 0
        || PyModule_AddIntConstant(m, "NISHIO", NISHIO) < 0
        || PyModule_AddIntConstant(m, "MAX_N", MAX_N) < 0
        || PyModule_AddIntConstant(m, "MAX_HOUSES", MAX_HOUSES) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
