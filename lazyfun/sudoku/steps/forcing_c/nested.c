/* Levels 2 and 3, chains nested in dynamic ones (the readable form is nested() in
 * lazyfun/sudoku/steps/inner.py): where a branch's links and inner rules run dry, every
 * cycle and forcing chain of the first chaining rule on the branch's grid strikes (level
 * 2), then every static cell and region forcing chain on it (level 3: search.c runs its
 * search, made ready here); each nested chain is kept once, by kind and nodes, and
 * counted once in a hint's complexity. */
#include "nested.h"

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
int
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
Search *
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

/* Level 3, its search m run on the branch's grid: the hints m kept, easiest first
 * (difficulty, complexity, cell before region), one of each set of strikes; each that
 * rests on what the branch struck (the causes of the on nodes its branches rest on, a
 * start standing on its cell's or unit's struck candidates) strikes, through `in`; 0, or
 * -2 out of memory. */
int
nested_offers(Search *s, Search *m, Inner *in)
{
    int n = s->n;
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

void
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
