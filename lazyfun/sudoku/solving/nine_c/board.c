/* The 9x9 engine's propagation: a board to a fixpoint of its rules, each an AND on
 * the words of one value (see nine.h for the board).
 *
 * For one value, the three boxes of a band and its three rows form a 3x3 matrix of
 * triads (a row's three cells in one box): the value fills exactly one triad per row
 * and one per box, a permutation.  Only the triads some permutation of the ones still
 * open uses can hold it (a table of the 512 matrices): that is locked candidates,
 * pointing and claiming both, in three ANDs a band.  A matrix is gathered from the
 * word by shifts and one multiply (no table, no loop over cells).  The same holds down a stack
 * (its bands and its columns).  A row or a column left with one place places the
 * value (hidden singles; a box with one place leaves its row with one once its
 * triads are kept); a cell left with one value places it (naked singles). */
#include "nine.h"

/* Four words at once (GCC's and Clang's vector extensions: SSE2 on x86-64, NEON on ARM). */
typedef uint32_t Lanes __attribute__((vector_size(16)));

/* For each 3x3 matrix of open triads (bit 3 * row + box) or of a stack's open columns
 * (bit 3 * band + column): the cells the triads some permutation uses keep, and the
 * columns it keeps (at 9 * band + column); all 0 when no permutation is left. */
static uint32_t triads_kept[512];
static uint32_t stack_kept[512];
static uint32_t peers_in_band[27]; /* a cell's row, box and column within its band, less it */
uint32_t nine_column_in_band[27];
uint32_t nine_seen_in_band[27];
static const uint32_t ROWS_OF_COLUMN = 1u | 1u << 9 | 1u << 18; /* a column's cells in a band */

void nine_init_tables(void)
{
    static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                    {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (int m = 0; m < 512; m++) {
        int kept = 0;
        for (int p = 0; p < 6; p++) {
            int cells = 1 << perms[p][0] | 1 << (3 + perms[p][1]) | 1 << (6 + perms[p][2]);
            if ((m & cells) == cells)
                kept |= cells;
        }
        stack_kept[m] = (uint32_t)(kept & 7) | (uint32_t)(kept >> 3 & 7) << 9 |
                        (uint32_t)(kept >> 6) << 18;
        uint32_t cells = 0;
        for (int t = 0; t < 9; t++)
            if (kept >> t & 1)
                cells |= 7u << (9 * (t / 3) + 3 * (t % 3));
        triads_kept[m] = cells;
    }
    for (int p = 0; p < 27; p++) {
        int row = p / 9, col = p % 9, box = col / 3;
        uint32_t peers = 0;
        for (int q = 0; q < 27; q++)
            if (q / 9 == row || q % 9 == col || (q % 9) / 3 == box)
                peers |= 1u << q;
        peers_in_band[p] = peers & ~(1u << p);
        nine_column_in_band[p] = ROWS_OF_COLUMN << col;
        nine_seen_in_band[p] = peers;
    }
}

uint32_t nine_place(Board *board, int v, int band, uint32_t bit)
{
    int p = __builtin_ctz(bit);
    uint32_t column = nine_column_in_band[p];
    for (int b = 0; b < 3; b++)
        board->cand[b][v] &= b == band ? ~peers_in_band[p] : ~column;
    board->open[band] &= ~bit;
    uint32_t dirty = 1u << v;
    /* the band's 12 words as three vectors: which values had the cell, and all cleared */
    Lanes *cand = (Lanes *)board->cand[band];
    Lanes at = {bit, bit, bit, bit}, had = {0, 0, 0, 0};
    for (int k = 0; k < 3; k++) {
        Lanes values = {1u << 4 * k, 2u << 4 * k, 4u << 4 * k, 8u << 4 * k};
        had |= (Lanes)((cand[k] & at) == at) & values;
        cand[k] &= ~at;
    }
    board->cand[band][v] |= bit;
    return dirty | had[0] | had[1] | had[2] | had[3];
}

static uint32_t triads(uint32_t w)
{
    uint32_t any = (w | w >> 1 | w >> 2) & 01111111111u; /* each triad's first bit: open */
    uint32_t rows = any * 21u >> 4 & (7u * ROWS_OF_COLUMN); /* a row's three at 9*row */
    return rows * 0x1041u >> 12 & 511;
}

static uint32_t columns(uint32_t w)
{
    return (w | w >> 9 | w >> 18) & 511;
}

/* Triads both ways for one value, to their fixpoint: its open columns at the end (9
 * bits a band, at 9 * band), or 0 when a band or a stack has no permutation left. */
static uint32_t keep_triads(uint32_t *w)
{
    for (;;) {
        for (int b = 0; b < 3; b++) {
            w[b] &= triads_kept[triads(w[b])];
            if (!w[b])
                return 0;
        }
        uint32_t open_columns = columns(w[0]) | columns(w[1]) << 9 | columns(w[2]) << 18;
        uint32_t keep = 0;
        for (int s = 0; s < 9; s += 3) {
            /* the stack's three columns of each band, gathered into 9 bits by one multiply */
            uint32_t matrix = (open_columns >> s & (7u * ROWS_OF_COLUMN)) * 0x1041u >> 12 & 511;
            uint32_t kept = stack_kept[matrix];
            if (!kept)
                return 0;
            keep |= kept << s;
        }
        int changed = 0;
        for (int b = 0; b < 3; b++) {
            uint32_t narrowed = w[b] & (keep >> 9 * b & 511) * ROWS_OF_COLUMN;
            changed |= narrowed != w[b];
            w[b] = narrowed;
        }
        if (!changed)
            return open_columns;
    }
}

/* The cells of band word `x` alone in their row, when each row has one at least (as
 * keep_triads leaves it): taking each row's lowest cell off borrows from no other row,
 * and a row left empty had one. */
static uint32_t rows_of_one(uint32_t x)
{
    static const uint32_t LOW8 = 0xffu * ROWS_OF_COLUMN, HIGH = 0x100u * ROWS_OF_COLUMN;
    uint32_t rest = x & (x - ROWS_OF_COLUMN);
    uint32_t some = (((rest & LOW8) + LOW8) | rest) & HIGH; /* a row's top bit: some left */
    return x & ((~some & HIGH) >> 8) * 511;
}

/* The columns (9 bits) where two or more of a word's three rows of nine have a bit. */
static uint32_t more_than_once(uint32_t x)
{
    return ((x & x >> 9) | ((x | x >> 9) & x >> 18)) & 511;
}

/* The open cells of band words `w` that are the value's one place in their row or column. */
static void hidden_singles(const uint32_t *w, const uint32_t *open, uint32_t open_columns,
                           uint32_t *found)
{
    uint32_t twice = more_than_once(open_columns); /* in two bands */
    for (int b = 0; b < 3; b++)
        twice |= more_than_once(w[b]); /* twice in one band */
    uint32_t lone = ((open_columns | open_columns >> 9 | open_columns >> 18) & 511 & ~twice) *
                    ROWS_OF_COLUMN;
    for (int b = 0; b < 3; b++)
        found[b] = (rows_of_one(w[b]) | (w[b] & lone)) & open[b];
}

/* One value's rules: its triads kept, its hidden singles placed.  -1: blocked. */
static int value_pass(Board *board, int v, uint32_t *dirty)
{
    uint32_t w[3] = {board->cand[0][v], board->cand[1][v], board->cand[2][v]};
    if (!(w[0] & board->open[0]) && !(w[1] & board->open[1]) && !(w[2] & board->open[2]))
        return 0; /* no open place left: its placements have cleared their peers already
                   * (were a row still without it, the row's open cells would run out of
                   * values soon: measured, skipping it is 3% fewer instructions) */
    uint32_t open_columns = keep_triads(w);
    if (!open_columns)
        return -1;
    uint32_t found[3];
    hidden_singles(w, board->open, open_columns, found);
    for (int b = 0; b < 3; b++)
        board->cand[b][v] = w[b];
    for (int b = 0; b < 3; b++)
        while (found[b]) {
            uint32_t bit = found[b] & -found[b];
            found[b] ^= bit;
            if (!(board->cand[b][v] & bit))
                return -1; /* two places forced for the value see each other */
            *dirty |= nine_place(board, v, b, bit);
        }
    return 0;
}

/* Cells left with one value take it; -1 when an open cell has none. */
static int naked_singles(Board *board, uint32_t *dirty)
{
    for (int b = 0; b < 3; b++) {
        uint32_t once = 0, twice = 0;
        for (int v = 0; v < 9; v++) {
            twice |= once & board->cand[b][v];
            once |= board->cand[b][v];
        }
        uint32_t open = board->open[b];
        if (open & ~once)
            return -1;
        uint32_t single = open & ~twice;
        while (single) {
            uint32_t bit = single & -single;
            single ^= bit;
            int v = 0;
            while (v < 9 && !(board->cand[b][v] & bit))
                v++;
            if (v == 9)
                return -1; /* its value went to a peer placed just now */
            *dirty |= nine_place(board, v, b, bit);
        }
    }
    return 0;
}

int nine_propagate(Board *board, uint32_t dirty)
{
    for (;;) {
        if (naked_singles(board, &dirty) < 0)
            return -1;
        if (!dirty)
            return 0;
        while (dirty) {
            int v = __builtin_ctz(dirty);
            dirty &= dirty - 1;
            if (value_pass(board, v, &dirty) < 0)
                return -1;
        }
    }
}

int nine_start(Board *board, const uint8_t *cells, const uint8_t *ruled_out)
{
    for (int v = 0; v < 9; v++)
        for (int b = 0; b < 3; b++)
            board->cand[b][v] = (1u << 27) - 1;
    for (int b = 0; b < 3; b++)
        board->open[b] = (1u << 27) - 1;
    for (int b = 0; b < 3; b++)
        for (int v = 9; v < 12; v++)
            board->cand[b][v] = 0;
    for (int c = 0; c < 81 && ruled_out; c++)
        for (int v = 0; v < 9; v++)
            if (ruled_out[c * 9 + v])
                board->cand[c / 27][v] &= ~(1u << c % 27);
    for (int c = 0; c < 81; c++) {
        if (!cells[c])
            continue;
        int v = cells[c] - 1, b = c / 27;
        uint32_t bit = 1u << c % 27;
        if (!(board->cand[b][v] & bit) || !(board->open[b] & bit))
            return NINE_CONFLICT;
        nine_place(board, v, b, bit);
    }
    return NINE_OK;
}

void nine_values(const Board *board, uint8_t *out)
{
    for (int v = 0; v < 9; v++)
        for (int b = 0; b < 3; b++)
            for (uint32_t left = board->cand[b][v]; left; left &= left - 1)
                out[27 * b + __builtin_ctz(left)] = (uint8_t)(v + 1);
}
