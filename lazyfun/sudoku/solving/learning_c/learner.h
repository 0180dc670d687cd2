/* The learning engine for large Sudoku boards: conflict-driven clause learning
 * over the (cell, value) encoding, with the constraints the board gives kept
 * as bitsets rather than clauses.  lazyfun/sudoku/learning.py is the reader's
 * guide (the derivation, the encoding, the API).  The engine is three units:
 *
 *   state.c   the Learner: its arrays allocated, the board's geometry (received
 *             from lazyfun.sudoku.board.geometry, never recomputed here), the givens;
 *   search.c  propagation, learning, decisions, backjumps, restarts, reduction;
 *   module.c  the Python type around it.
 *
 * A variable x = cell << 5 | value (value counted from 0, below 32) says
 * "cell holds value".  A literal is 2x (x holds: the value is placed) or 2x+1 (x is
 * ruled out).  The board's clauses are never stored:
 *
 *   each cell holds a value       (cell ALO)   - the bitset cands[cell]
 *   each unit has each value      (unit ALO)   - the bitset place[unit, value]
 *   a cell holds one value, peers differ       - placing clears the bits
 *
 * so the value of a literal is read off the bitsets: (c, v) holds when
 * placed[c] == v, is ruled out when bit v of cands[c] is clear, and is open
 * otherwise.  Ruling out by a placed peer is never written on the trail; when
 * learning needs the reason for such a literal it asks which placement caused
 * it (cause()).  Only placements and the eliminations that learned clauses
 * force are trail entries.  Backjumping restores a copy of the state saved at
 * each decision (one memcpy), so nothing is undone bit by bit.
 *
 * Learned clauses are watched (two literals each); learning is first-UIP with
 * recursive minimisation; decisions place the open (cell, value) of highest
 * activity (VSIDS, a binary heap); restarts follow the Luby sequence; half of
 * the learned clauses of LBD above two go at each reduction.  Solutions are
 * enumerated by blocking the decisions of each one found.
 */
#ifndef LAZYFUN_LEARNER_H
#define LAZYFUN_LEARNER_H

#include <stddef.h>
#include <stdint.h>

#include "ivec.h"

typedef uint32_t mask_t;

/* the variable "cell holds value", and back: a shift, no division */
#define VAR(c, v) (((c) << 5) | (v))
#define CELL(x) ((x) >> 5)
#define VAL(x) ((x) & 31)

/* What one run of the search ends with: the one status of the engine's API. */
typedef enum {
    LEARN_NOMEM = -2,    /* memory ran out: nothing can be said, the learner is spent */
    LEARN_BUDGET = -1,   /* the budget of conflicts is spent: run again to go on */
    LEARN_EXHAUSTED = 0, /* no solution is left */
    LEARN_FOUND = 1,     /* a solution: learner_solution() holds it */
} learn_status;

/* Where a learner is between runs. */
typedef enum { PHASE_FRESH, PHASE_SEARCH, PHASE_FOUND, PHASE_DONE, PHASE_BROKEN } learn_phase;

/* Everything a learner is made from; the arrays are copied. */
typedef struct {
    int box;                  /* 2..5 */
    const int *givens;        /* cells: 0 blank, else 1..n */
    const int *unit_cells;    /* 3n units of n cells: rows, columns, boxes */
    const int *peers;         /* cells * npeers */
    int npeers;
    const int *ruled_out;     /* pairs (cell, value from 1) excluded from the start */
    int nruled;
    long long restart_base;   /* conflicts in a Luby unit */
    unsigned long long seed;  /* 0: none; else tiny random initial activities */
} LearnerSetup;

typedef struct {
    int box, n, cells, vars, units, npeers;
    int *unit_of;    /* cells * 3: the units of each cell */
    int *bit_in;     /* cells * 3: the cell's position in each of them */
    int *unit_cells; /* units * n */
    int *peers;      /* cells * npeers */
    int *givens;     /* cells: 0 blank, else 1..n */
    int *ruled, nruled; /* literals "cell is not value", true from the start */

    /* the state: one block, saved whole at each decision */
    char *state;
    size_t state_size;
    mask_t *cands; /* cells */
    mask_t *place; /* units * n */
    int *placed;   /* cells: value 0..n-1, or -1 */
    int *where;    /* units * n: the cell holding the value in the unit, or -1 */

    char *snaps;
    int snap_cap;
    int *snap_trail; /* trail length saved with each level */
    int *popped_mark;
    int level;

    int *trail;
    int trail_n;
    int *lvl, *pos, *rsn; /* per variable, for trail entries */
    int *why;             /* per variable: the trail entry that last ruled it out */

    ivec pending; /* pairs: literal, reason */
    int pend_head;

    ivec arena;
    ivec learnts;
    ivec *watches; /* 2 * vars */
    int clause_base;

    double *act;
    double inc;
    int *heap, heap_n, *heap_at;
    ivec popped;

    char *seen;
    ivec seen_list, learnt, stack;
    int *level_stamp;
    int stamp;

    learn_phase phase;
    long long conflicts, decisions, propagations, restarts, learnt_lits;
    long long next_restart, restart_base, luby_i, next_reduce, reduce_step, reduce_inc;
    int *solution; /* cells, values from 1: the last solution found */
} Learner;

/* state.c: a learner made whole, or NULL (memory ran out; nothing is left allocated).
 * The setup is assumed checked (module.c checks what comes from Python). */
Learner *learner_new(const LearnerSetup *setup);
void learner_free(Learner *s);

/* search.c */
void learner_order(Learner *s); /* the decision heap made from the initial activities */
learn_status learner_run(Learner *s, long long budget); /* budget < 0: no limit */

#endif
