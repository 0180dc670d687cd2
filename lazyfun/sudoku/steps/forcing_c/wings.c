/* Sudoku Explainer's wings of its newer rules (the readable form is techniques.py's
 * _wings): `size` cells of a unit holding size + 1 values between them, and a cell of two
 * of those values (yz) that sees every one of them holding x. */
#include "rules.h"

static int
compare_ints(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}


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

int
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
