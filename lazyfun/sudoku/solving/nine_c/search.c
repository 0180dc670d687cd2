/* The 9x9 engine's search: depth-first over copies of the board, one stack level per
 * guess.  A guess puts a value in a cell on a copy above, and takes it out of the cell
 * below; when everything above fails (or has been given out), the level below
 * propagates what it lost and goes on, so the search is binary and each failure is
 * learned by the board it returns to.  The state lives in the Search between calls,
 * so solutions come one at a time. */
#include <string.h>

#include "nine.h"

/* The bits set in `x`: one instruction in the clone of `choose` built for it (POPCNT), a
 * library call in the other. */
static inline __attribute__((always_inline)) int count_bits(uint32_t x)
{
    return __builtin_popcount(x);
}

/* How the cell at bit `p` of band `b` scores as a guess: the open cells it sees (in its
 * row, column and box) times 16, plus those of its band with two values (`pairs`). */
static inline __attribute__((always_inline)) int seen_score(const Board *board, int b, int p,
                                                            uint32_t pairs)
{
    uint32_t col = nine_column_in_band[p], seen = nine_seen_in_band[p];
    /* the column's cells in the other two bands, side by side in one word */
    uint32_t beyond = (board->open[(b + 1) % 3] & col) | (board->open[(b + 2) % 3] & col) << 1;
    return 16 * (count_bits(board->open[b] & seen) + count_bits(beyond)) +
           count_bits(pairs & seen);
}

/* The open cell to guess at: of those with two values, the one that sees the most open
 * cells, then the most with two values (measured: a fifth fewer instructions than the
 * first in reading order, 18% fewer than the one that sees the most cells with two);
 * with none, one with the fewest values.  And its lowest value. */
static inline __attribute__((always_inline)) void choose(const Board *board, int *value,
                                                        int *band, uint32_t *bit)
{
    int most = -1, best_band = 0;
    uint32_t best_cell = 0;
    for (int b = 0; b < 3; b++) {
        uint32_t once = 0, twice = 0, thrice = 0;
        for (int v = 0; v < 9; v++) {
            uint32_t x = board->cand[b][v];
            thrice |= twice & x;
            twice |= once & x;
            once |= x;
        }
        uint32_t pairs = twice & ~thrice & board->open[b];
        for (uint32_t two = pairs; two; two &= two - 1) {
            int seen = seen_score(board, b, __builtin_ctz(two), pairs);
            if (seen > most) {
                most = seen;
                best_band = b;
                best_cell = two & -two;
            }
        }
    }
    int fewest = 10;
    for (int b = 0; b < 3 && most < 0; b++)
        for (uint32_t open = board->open[b]; open; open &= open - 1) {
            uint32_t cell = open & -open;
            int count = 0;
            for (int v = 0; v < 9; v++)
                count += (board->cand[b][v] & cell) != 0;
            if (count < fewest) {
                fewest = count;
                best_band = b;
                best_cell = cell;
            }
        }
    int v = 0;
    while (!(board->cand[best_band][v] & best_cell))
        v++;
    *value = v;
    *band = best_band;
    *bit = best_cell;
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
/* `choose` compiled for the POPCNT instruction, taken where the processor has it. */
__attribute__((target("popcnt"))) static void choose_popcnt(const Board *board, int *value,
                                                             int *band, uint32_t *bit)
{
    choose(board, value, band, bit);
}

static void choose_plain(const Board *board, int *value, int *band, uint32_t *bit)
{
    choose(board, value, band, bit);
}

static void choose_here(const Board *board, int *value, int *band, uint32_t *bit)
{
    if (__builtin_cpu_supports("popcnt"))
        choose_popcnt(board, value, band, bit);
    else
        choose_plain(board, value, band, bit);
}
#else
#define choose_here choose
#endif

void nine_search_init(Search *search, const Board *root, uint32_t dirty)
{
    memset(&search->work, 0, sizeof search->work);
    search->stack[0] = *root;
    search->pending[0] = dirty;
    search->depth = 0;
    search->yielded = 0;
    search->done = 0;
}

/* Down one level: the top board guesses; its copy above takes the value. */
static void guess(Search *search)
{
    int v, band;
    uint32_t bit;
    Board *below = &search->stack[search->depth];
    choose_here(below, &v, &band, &bit);
    Board *above = below + 1;
    *above = *below;
    below->cand[band][v] &= ~bit;
    search->pending[search->depth] = 1u << v;
    search->depth++;
    search->pending[search->depth] = nine_place(above, v, band, bit);
    search->work.guesses++;
}

int nine_next(Search *search)
{
    int failed = search->yielded;
    search->yielded = 0;
    while (!search->done) {
        if (failed) {
            if (search->depth == 0) {
                search->done = 1;
                break;
            }
            search->depth--;
            failed = 0;
        }
        Board *top = &search->stack[search->depth];
        if (nine_propagate(top, search->pending[search->depth]) < 0) {
            search->work.failures++;
            failed = 1;
            continue;
        }
        search->pending[search->depth] = 0;
        if (!(top->open[0] | top->open[1] | top->open[2])) {
            search->yielded = 1;
            return 1;
        }
        guess(search);
    }
    return 0;
}

const Board *nine_top(const Search *search)
{
    return &search->stack[search->depth];
}
