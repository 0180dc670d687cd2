/* The 9x9 generator's question: see unique9.h. */
#include <string.h>

#include "unique9.h"

#define ALL 0x1ff          /* the nine candidates */
#define EVERY_UNIT 0x7ffffff /* the 27 units, as bits */

typedef struct {
    /* candidates: bit v-1 set while value v is possible; once a cell's value has left its
     * peers (it is placed) the bit moves up by 9, so a unit scan sees only the open ones */
    uint32_t c[U9_CELLS];
} Board;

static uint8_t UNITS[27][9]; /* rows, columns, boxes */
static uint8_t PEERS[U9_CELLS][20];
static uint32_t UNITS_OF[U9_CELLS]; /* the three units of each cell, as bits */
static uint8_t UNIT_INDEX[U9_CELLS][3]; /* the same three, as indices */

void unique9_init(void)
{
    int filled[U9_CELLS] = {0};
    for (int u = 0; u < 9; u++)
        for (int i = 0; i < 9; i++) {
            UNITS[u][i] = (uint8_t)(u * 9 + i);
            UNITS[9 + u][i] = (uint8_t)(i * 9 + u);
            UNITS[18 + u][i] = (uint8_t)((u / 3 * 3 + i / 3) * 9 + u % 3 * 3 + i % 3);
        }
    for (int c = 0; c < U9_CELLS; c++)
        UNITS_OF[c] = 0;
    for (int u = 0; u < 27; u++)
        for (int i = 0; i < 9; i++) {
            int c = UNITS[u][i];
            UNIT_INDEX[c][u / 9] = (uint8_t)u;
            UNITS_OF[c] |= 1u << u;
        }
    for (int c = 0; c < U9_CELLS; c++)
        for (int p = 0; p < U9_CELLS; p++)
            if (p != c && (UNITS_OF[c] & UNITS_OF[p]))
                PEERS[c][filled[c]++] = (uint8_t)p;
}

/* Naked and hidden singles to a fixpoint.  ``queue`` holds the cells that became
 * single and are not yet placed (each cell enters it once, when it becomes single);
 * ``dirty`` the units to scan for hidden singles.  1: a fixpoint; 0: a cell or a unit
 * was left without a value. */
static int propagate(Board *b, uint8_t *queue, int queued, uint32_t dirty)
{
    for (;;) {
        while (queued) {
            int cell = queue[--queued];
            uint32_t v = b->c[cell];
            b->c[cell] = v << 9;
            for (int k = 0; k < 20; k++) {
                int p = PEERS[cell][k];
                uint32_t x = b->c[p];
                if (x & v) {
                    x ^= v;
                    if (!x)
                        return 0;
                    b->c[p] = x;
                    dirty |= UNITS_OF[p];
                    if (!(x & (x - 1)))
                        queue[queued++] = (uint8_t)p;
                }
            }
        }
        if (!dirty)
            return 1;
        uint32_t changed = dirty;
        dirty = 0;
        while (changed) {
            const uint8_t *unit = UNITS[__builtin_ctz(changed)];
            changed &= changed - 1;
            uint32_t once = 0, twice = 0;
            for (int i = 0; i < 9; i++) {
                uint32_t x = b->c[unit[i]];
                twice |= once & x;
                once |= x;
            }
            if (((once | once >> 9) & ALL) != ALL)
                return 0;
            uint32_t hidden = once & ALL & ~twice;
            if (!hidden)
                continue;
            for (int i = 0; i < 9; i++) {
                int cell = unit[i];
                uint32_t x = b->c[cell], h = x & hidden;
                if (h && h != x) {
                    if (h & (h - 1))
                        return 0;
                    b->c[cell] = h;
                    dirty |= UNITS_OF[cell];
                    queue[queued++] = (uint8_t)cell;
                }
            }
        }
        if (!queued && !dirty)
            return 1;
    }
}

/* Whether the propagated board ``b`` has a solution: depth-first, on a cell of fewest
 * candidates, stopping at the first. */
static int has_solution(const Board *b)
{
    int best = -1, fewest = 10;
    for (int cell = 0; cell < U9_CELLS && fewest > 2; cell++) {
        uint32_t x = b->c[cell];
        if (x <= ALL && (x & (x - 1))) {
            int k = __builtin_popcount(x);
            if (k < fewest) {
                best = cell;
                fewest = k;
            }
        }
    }
    if (best < 0)
        return 1; /* every cell placed, and propagation found no clash */
    uint32_t left = b->c[best];
    while (left) {
        uint32_t bit = left & -left;
        left ^= bit;
        Board child = *b;
        uint8_t queue[U9_CELLS];
        queue[0] = (uint8_t)best;
        child.c[best] = bit;
        if (propagate(&child, queue, 1, UNITS_OF[best]) && has_solution(&child))
            return 1;
    }
    return 0;
}

/* The values a blank may take: those no given of its units holds (``seen``: the values
 * of the givens of each unit). */
static uint32_t open_of(const uint32_t seen[27], int cell)
{
    const uint8_t *u = UNIT_INDEX[cell];
    return ALL & ~(seen[u[0]] | seen[u[1]] | seen[u[2]]);
}

/* The givens of each unit, as values. */
static void seen_of(const uint8_t cells[U9_CELLS], uint32_t seen[27])
{
    for (int u = 0; u < 27; u++)
        seen[u] = 0;
    for (int c = 0; c < U9_CELLS; c++)
        if (cells[c])
            for (int k = 0; k < 3; k++)
                seen[UNIT_INDEX[c][k]] |= 1u << (cells[c] - 1);
}

/* The givens of ``cells`` placed, and each blank's candidates: the values its units'
 * givens do not hold. */
static void board_of(const uint8_t cells[U9_CELLS], const uint32_t seen[27], Board *b)
{
    for (int c = 0; c < U9_CELLS; c++)
        b->c[c] = cells[c] ? 1u << (cells[c] + 8) : open_of(seen, c);
}

/* Whether the givens alone make the blank ``cell`` hold ``bit``: no other value is open
 * there, or no other blank of one of its units may take it (a naked or hidden single). */
static int single(const uint8_t cells[U9_CELLS], const uint32_t seen[27], int cell, uint32_t bit)
{
    if (open_of(seen, cell) == bit)
        return 1;
    for (int k = 0; k < 3; k++) {
        const uint8_t *unit = UNITS[UNIT_INDEX[cell][k]];
        uint32_t elsewhere = 0;
        for (int i = 0; i < 9; i++)
            if (unit[i] != cell && !cells[unit[i]])
                elsewhere |= open_of(seen, unit[i]);
        if (!(elsewhere & bit))
            return 1;
    }
    return 0;
}

/* The puzzle ``cells`` (unique, solved by ``solution``; ``seen`` its givens by unit)
 * with ``orbit`` blanked: whether it is still unique, i.e. no blanked cell can take
 * another value than the solution's.  A cell the givens fix by a single cannot; for the
 * others a search looks for a solution with the solution's value ruled out (propagation
 * alone usually finds there is none). */
static int stays9(const uint8_t cells[U9_CELLS], const uint32_t seen[27],
                  const uint8_t solution[U9_CELLS], const int *orbit, int size)
{
    Board givens;
    uint8_t open[U9_CELLS], queue[U9_CELLS];
    int singles = -1; /* the board is made at the first cell that needs a search */
    for (int k = 0; k < size; k++) {
        int cell = orbit[k];
        uint32_t bit = 1u << (solution[cell] - 1);
        if (single(cells, seen, cell, bit))
            continue;
        if (singles < 0) {
            board_of(cells, seen, &givens);
            singles = 0;
            for (int c = 0; c < U9_CELLS; c++)
                if (givens.c[c] <= ALL && !(givens.c[c] & (givens.c[c] - 1)))
                    open[singles++] = (uint8_t)c;
        }
        Board b = givens;
        int queued = 0;
        b.c[cell] &= ~bit;
        for (int i = 0; i < singles; i++)
            queue[queued++] = open[i];
        if (!(b.c[cell] & (b.c[cell] - 1)))
            queue[queued++] = (uint8_t)cell; /* not a single before: two values, one left */
        if (propagate(&b, queue, queued, EVERY_UNIT) && has_solution(&b))
            return 0;
    }
    return 1;
}

/* Pointing and claiming over the 54 box-line segments: a value of a box confined to one
 * of its rows (or columns) leaves the rest of that line, and a value of a line confined
 * to one box leaves the rest of the box.  Open candidates only.  1: something went (the
 * cells made single are queued), 0: nothing, -1: a cell was left without a value. */
static int locked(Board *b, uint8_t *queue, int *queued)
{
    int removed = 0;
    for (int bx = 0; bx < 9; bx++)
        for (int kind = 0; kind < 2; kind++) /* rows, then columns */
            for (int k = 0; k < 3; k++) {
                int line = kind == 0 ? bx / 3 * 3 + k : bx % 3 * 3 + k;
                const uint8_t *box = UNITS[18 + bx], *cells = UNITS[kind * 9 + line];
                uint32_t seg = 0, box_rest = 0, line_rest = 0;
                for (int i = 0; i < 9; i++) {
                    uint32_t x = b->c[box[i]] & ALL;
                    if (UNITS_OF[box[i]] & (1u << (kind * 9 + line)))
                        seg |= x;
                    else
                        box_rest |= x;
                    if (!(UNITS_OF[cells[i]] & (1u << (18 + bx))))
                        line_rest |= b->c[cells[i]] & ALL;
                }
                uint32_t pointing = seg & ~box_rest, claiming = seg & ~line_rest;
                for (int i = 0; i < 18; i++) {
                    int in_line = i < 9, cell = in_line ? cells[i] : box[i - 9];
                    uint32_t gone = in_line ? pointing : claiming;
                    int outside = in_line ? !(UNITS_OF[cell] & (1u << (18 + bx)))
                                          : !(UNITS_OF[cell] & (1u << (kind * 9 + line)));
                    uint32_t x = b->c[cell];
                    if (!outside || x > ALL || !(x & gone))
                        continue;
                    x &= ~gone;
                    if (!x)
                        return -1;
                    b->c[cell] = x;
                    removed = 1;
                    if (!(x & (x - 1)))
                        queue[(*queued)++] = (uint8_t)cell;
                }
            }
    return removed;
}

int consistent9(const uint8_t cells[U9_CELLS])
{
    for (int u = 0; u < 27; u++) {
        unsigned seen = 0;
        for (int i = 0; i < 9; i++) {
            int v = cells[UNITS[u][i]];
            if (v && (seen & (1u << (v - 1))))
                return 0;
            if (v)
                seen |= 1u << (v - 1);
        }
    }
    return 1;
}

int complete9(const uint8_t cells[U9_CELLS], uint8_t out[U9_CELLS])
{
    Board b;
    uint8_t queue[U9_CELLS];
    uint32_t seen[27];
    int queued = 0;
    seen_of(cells, seen);
    board_of(cells, seen, &b);
    for (int c = 0; c < U9_CELLS; c++) {
        if (!b.c[c])
            return 0;
        if (b.c[c] <= ALL && !(b.c[c] & (b.c[c] - 1)))
            queue[queued++] = (uint8_t)c;
    }
    uint32_t dirty = EVERY_UNIT;
    for (;;) { /* the root: singles and locked candidates to a fixpoint */
        if (!propagate(&b, queue, queued, dirty))
            return 0;
        queued = 0;
        int removed = locked(&b, queue, &queued);
        if (removed < 0)
            return 0;
        if (!removed)
            break;
    }
    for (;;) { /* below it, singles only, as the engine's children */
        int best = -1, fewest = 10;
        for (int cell = 0; cell < U9_CELLS && fewest > 2; cell++) {
            uint32_t x = b.c[cell];
            if (x <= ALL && (x & (x - 1)) && __builtin_popcount(x) < fewest) {
                best = cell;
                fewest = __builtin_popcount(x);
            }
        }
        if (best < 0)
            break;
        b.c[best] &= -b.c[best];
        queue[0] = (uint8_t)best;
        if (!propagate(&b, queue, 1, UNITS_OF[best]))
            return 0;
    }
    for (int c = 0; c < U9_CELLS; c++)
        out[c] = (uint8_t)__builtin_ctz(b.c[c] >> 9) + 1;
    return 1;
}

int valid9(const uint8_t grid[U9_CELLS])
{
    for (int u = 0; u < 27; u++) {
        unsigned seen = 0;
        for (int i = 0; i < 9; i++) {
            int v = grid[UNITS[u][i]];
            if (v < 1 || v > 9)
                return 0;
            seen |= 1u << (v - 1);
        }
        if (seen != ALL)
            return 0;
    }
    return 1;
}

void minimise9(const uint8_t solution[U9_CELLS], const int *cells, const int *starts, int orbits,
               int minimal, uint8_t out[U9_CELLS])
{
    uint32_t seen[27];
    memcpy(out, solution, U9_CELLS);
    seen_of(out, seen);
    for (int k = 0; k < orbits; k++) {
        const int *orbit = cells + starts[k];
        int size = starts[k + 1] - starts[k];
        for (int i = 0; i < size; i++) {
            out[orbit[i]] = 0;
            for (int u = 0; u < 3; u++)
                seen[UNIT_INDEX[orbit[i]][u]] &= ~(1u << (solution[orbit[i]] - 1));
        }
        if (stays9(out, seen, solution, orbit, size))
            continue;
        for (int i = 0; i < size; i++) {
            out[orbit[i]] = solution[orbit[i]];
            for (int u = 0; u < 3; u++)
                seen[UNIT_INDEX[orbit[i]][u]] |= 1u << (solution[orbit[i]] - 1);
        }
        if (!minimal)
            return;
    }
}
