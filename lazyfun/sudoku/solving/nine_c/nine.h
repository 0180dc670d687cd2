/* The 9x9 engine's board and its operations (see lazyfun/sudoku/solving/nine.py).
 *
 * A board is one fixed-size value, copied whole when the search guesses (no undo):
 * for each band of three rows and each value, a 27-bit word of where the value may
 * still go (bit 9*row + column, row within the band), and for each band the cells
 * not yet placed.  A band's nine words lie side by side, padded to twelve: three
 * 16-byte vectors, so a placement clears its cell from every value at once.  A
 * placed value keeps its one bit, so every row, column and box holds each value
 * exactly once in a consistent board. */
#ifndef LAZYFUN_NINE_H
#define LAZYFUN_NINE_H

#include <stdint.h>

typedef struct {
    /* band (0..2), value (0..8; 9..11 stay 0): where the value may go */
    uint32_t cand[3][12] __attribute__((aligned(16)));
    uint32_t open[3]; /* per band: the cells not yet placed */
} Board;

/* What a board's search counts, for the benchmarks and the curious. */
typedef struct {
    uint64_t guesses;
    uint64_t failures;
} Work;

/* One search, resumable: a stack of boards, one per guess still open. */
typedef struct {
    Board stack[82];
    uint32_t pending[82]; /* the values to propagate at each level when it is next run */
    int depth;
    int yielded; /* the top of the stack is a solution already given out */
    int done;
    Work work;
} Search;

enum { NINE_OK = 0, NINE_CONFLICT = -1, NINE_BAD = -2 };

/* The tables, built once: and for each cell of a band (bit 0..26), the cells of its
 * column, and those of its row, column and box (itself among them), within the band. */
void nine_init_tables(void);
extern uint32_t nine_column_in_band[27];
extern uint32_t nine_seen_in_band[27];

/* A board from 81 values (0 blank, 1..9), less the (cell, value) bits of `ruled_out`
 * (729 flags, cell * 9 + value - 1, nonzero: ruled out; NULL: none).  NINE_CONFLICT:
 * two givens clash (or a given's value is ruled out by a peer given). */
int nine_start(Board *board, const uint8_t *cells, const uint8_t *ruled_out);

/* Propagate `dirty` (a bit per value whose places changed) to a fixpoint: -1 blocked. */
int nine_propagate(Board *board, uint32_t dirty);

/* Place value `v` at cell `bit` of band `band`: the values whose places changed. */
uint32_t nine_place(Board *board, int v, int band, uint32_t bit);

/* The search from a started board; nine_next gives its solutions one at a time. */
void nine_search_init(Search *search, const Board *root, uint32_t dirty);
int nine_next(Search *search); /* 1: a solution on top of the stack; 0: no more */
const Board *nine_top(const Search *search);

/* A complete board's 81 values (1..9). */
void nine_values(const Board *board, uint8_t *out);

#endif
