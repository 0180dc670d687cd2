/* Dynamic forcing chains (+): the rules a chain runs on its grid when its links run
 * dry (the readable form is lazyfun/sudoku/steps/inner.py). */
#include "rules.h"

/* The units of the classic grid that the inner rules read: rows are units 0..n-1,
 * columns n..2n-1, boxes 2n..3n-1. */
enum { ROWS = 0, COLUMNS = 1, BOXES = 2 };

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

void
rests_on(const Search *s, Finding *f, int cell, int value)
{
    f->parents[f->parent_count++] = (short)((cell * s->n + value - 1) * 2);
}

/* A finding's strikes turned off in the branch, in the order of SE's table of them (by
 * cell modulo the table's size, then as found), each resting on the finding's parents;
 * a finding without parents takes none. */
void
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

/* When the links run dry: the inner rules in turn, until one finds anything resting on
 * the chain's strikes (in->found) or runs out of memory (in->taken -2); what it struck
 * is turned off in the branch, in->taken counting the nodes. */
void
inner_rules(Inner *in)
{
    for (size_t r = 0; r < sizeof INNER_RULES / sizeof INNER_RULES[0]; r++) {
        INNER_RULES[r](in);
        if (in->taken < 0 || in->found) {
            return;
        }
    }
}
