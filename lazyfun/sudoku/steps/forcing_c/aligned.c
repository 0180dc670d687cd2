/* Sudoku Explainer's aligned pair and triple exclusion (the readable form is
 * lazyfun/sudoku/steps/aligned.py). */
#include "rules.h"

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
int
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
