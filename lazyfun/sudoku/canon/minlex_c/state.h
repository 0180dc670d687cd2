/* Minlex in C: the row-by-row search of lazyfun/sudoku/canon/rows.py and the full-grid
 * top rows of full.py, for 9x9 grids (the readable forms and the reasons are there), in
 * layers, each file calling only those below it:
 *
 *   state.h   state.c   the search's data, and a level of states: added up to a bound,
 *                       duplicates merged;
 *   search.h  rows.c    one row of the search, and the states before any row;
 *             full.c    for a full grid, the top two rows found together;
 *   minlex.h  minlex.c  one grid's search: set up, run from the first row to the last,
 *                       its levels freed;
 *             module.c  the Python face: the arguments read and checked, the answers built.
 *
 * A state is one partial arrangement.  Its stacks: slots 0..nb-1 hold the stacks still
 * blank in every row placed (any order: `blank` says which), each later slot one placed
 * stack whose first `zero` columns are blank so far (interchangeable, kept in ascending
 * order) and the others fixed.  Blanks sort first, so the blank stacks and the blank
 * columns of a stack always lead: the layout needs no more than that.  A state is 32
 * bytes with no padding, so equal states compare equal as bytes (merged at each row). */
#ifndef LAZYFUN_MINLEX_STATE_H
#define LAZYFUN_MINLEX_STATE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint16_t rows_left; /* rows of the band being placed still to come (bit per row) */
    uint8_t t;          /* 1: the grid is read transposed */
    uint8_t nb;         /* slots 0..nb-1 hold the blank stacks */
    uint8_t blank;      /* which source stacks are blank (bit per stack) */
    uint8_t bands_left; /* source bands not started (bit per band) */
    uint8_t next;       /* the next label to give */
    uint8_t stack[3];   /* the source stack at slot k (k >= nb) */
    uint8_t zero[3];    /* how many leading columns of slot k are blank so far */
    uint8_t col[9];     /* the source column at output position j (slots >= nb) */
    uint8_t label[10];  /* the label digit d got (0: none yet) */
} State;

/* Every state of one row of the search, growing as needed up to a bound. */
typedef struct {
    State *at;
    size_t len, cap;
} States;

/* One search: the grid both ways round, the rows found so far, two levels of states. */
typedef struct {
    uint8_t src[2][9][9];  /* src[t][row][column], 0 blank */
    uint16_t blank_rows[2]; /* which rows are blank (bit per row), by orientation */
    uint8_t out[81];       /* the canonical rows found so far */
    States now, next;
    size_t bound;          /* the most states one row may hold */
} Canon;

enum { MINLEX_OK = 0, MINLEX_TOO_BIG = -1, MINLEX_NO_MEMORY = -2, MINLEX_CONFLICT = -3 };

/* A state added to a level (MINLEX_TOO_BIG past the bound), and a level's duplicates
 * merged. */
int minlex_push(States *states, const State *state, size_t bound);
void minlex_merge(States *states);

#endif
