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

/* For each 3x3 matrix of open triads (bit 3 * row + box) or of a stack's open columns
 * (bit 3 * band + column): the cells the triads some permutation uses keep, and the
 * columns it keeps (at 9 * band + column); all 0 when no permutation is left. */
static uint32_t triads_kept[512];
static uint32_t stack_kept[512];
static uint32_t peers_in_band[27]; /* a cell's row, box and column within its band, less it */
static uint16_t alone[512]; /* a row's 9 cells: themselves when just one is open, else 0 */
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
        alone[m] = (uint16_t)(m && !(m & (m - 1)) ? m : 0);
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
    }
}

uint32_t nine_place(Board *board, int v, int band, uint32_t bit)
{
    int p = __builtin_ctz(bit);
    uint32_t column = ROWS_OF_COLUMN << (p % 9);
    for (int b = 0; b < 3; b++)
        board->cand[v][b] &= b == band ? ~peers_in_band[p] : ~column;
    board->open[band] &= ~bit;
    uint32_t dirty = 1u << v;
    for (int u = 0; u < 9; u++)
        if (u != v && board->cand[u][band] & bit) {
            board->cand[u][band] &= ~bit;
            dirty |= 1u << u;
        }
    return dirty;
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

/* Triads both ways for one value, to their fixpoint: 0 when a band or a stack has no
 * permutation left. */
static int keep_triads(uint32_t *w)
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
            return 1;
    }
}

/* The open cells of band words `w` that are the value's one place in their row or column. */
static void hidden_singles(const uint32_t *w, const uint32_t *open, uint32_t *found)
{
    uint32_t once[3], twice_all = 0, once_all = 0;
    for (int b = 0; b < 3; b++) {
        uint32_t x = w[b];
        once[b] = (x | x >> 9 | x >> 18) & 511;
        twice_all |= ((x & x >> 9) | ((x | x >> 9) & x >> 18) | (once_all & once[b])) & 511;
        once_all |= once[b];
        found[b] =
            alone[x & 511] | (uint32_t)alone[x >> 9 & 511] << 9 | (uint32_t)alone[x >> 18] << 18;
    }
    uint32_t lone = once_all & ~twice_all;
    for (int b = 0; b < 3; b++)
        found[b] = (found[b] | (w[b] & (lone & once[b]) * ROWS_OF_COLUMN)) & open[b];
}

/* One value's rules: its triads kept, its hidden singles placed.  -1: blocked. */
static int value_pass(Board *board, int v, uint32_t *dirty)
{
    uint32_t *w = board->cand[v];
    if (!(w[0] & board->open[0]) && !(w[1] & board->open[1]) && !(w[2] & board->open[2]))
        return 0; /* no open place left: its placements have cleared their peers already
                   * (were a row still without it, the row's open cells would run out of
                   * values soon: measured, skipping it is 3% fewer instructions) */
    if (!keep_triads(w))
        return -1;
    uint32_t found[3];
    hidden_singles(w, board->open, found);
    for (int b = 0; b < 3; b++)
        while (found[b]) {
            uint32_t bit = found[b] & -found[b];
            found[b] ^= bit;
            if (!(w[b] & bit))
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
            twice |= once & board->cand[v][b];
            once |= board->cand[v][b];
        }
        uint32_t open = board->open[b];
        if (open & ~once)
            return -1;
        uint32_t single = open & ~twice;
        while (single) {
            uint32_t bit = single & -single;
            single ^= bit;
            int v = 0;
            while (v < 9 && !(board->cand[v][b] & bit))
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
            board->cand[v][b] = (1u << 27) - 1;
    for (int b = 0; b < 3; b++)
        board->open[b] = (1u << 27) - 1;
    for (int c = 0; c < 81 && ruled_out; c++)
        for (int v = 0; v < 9; v++)
            if (ruled_out[c * 9 + v])
                board->cand[v][c / 27] &= ~(1u << c % 27);
    for (int c = 0; c < 81; c++) {
        if (!cells[c])
            continue;
        int v = cells[c] - 1, b = c / 27;
        uint32_t bit = 1u << c % 27;
        if (!(board->cand[v][b] & bit) || !(board->open[b] & bit))
            return NINE_CONFLICT;
        nine_place(board, v, b, bit);
    }
    return NINE_OK;
}

void nine_values(const Board *board, uint8_t *out)
{
    for (int v = 0; v < 9; v++)
        for (int b = 0; b < 3; b++)
            for (uint32_t left = board->cand[v][b]; left; left &= left - 1)
                out[27 * b + __builtin_ctz(left)] = (uint8_t)(v + 1);
}
