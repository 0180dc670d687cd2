/* The Learner's memory: every array allocated at once and checked, the board's
 * geometry copied from the setup (the units and peers of lazyfun.sudoku.board.geometry),
 * the state of an empty board.  A learner is whole or not made at all. */
#include <stdlib.h>
#include <string.h>

#include "learner.h"

/* Tuned on the 25x25 set (tests/data/sudoku25_set.txt), 12 puzzles x 3 seeds, by
 * conflicts: a clause database three times larger than the first one tried
 * (reduced at 6000 conflicts, then every 600 more each time) brought the mean
 * from 47k to 43k and the worst from 155k to 146k. */
#define REDUCE_FIRST 6000
#define REDUCE_INC 600

void learner_free(Learner *s)
{
    if (!s)
        return;
    free(s->unit_of);
    free(s->bit_in);
    free(s->unit_cells);
    free(s->peers);
    free(s->givens);
    free(s->ruled);
    free(s->state);
    free(s->snaps);
    free(s->snap_trail);
    free(s->popped_mark);
    free(s->trail);
    free(s->lvl);
    free(s->pos);
    free(s->rsn);
    free(s->why);
    ivec_free(&s->pending);
    ivec_free(&s->arena);
    ivec_free(&s->learnts);
    if (s->watches)
        for (int l = 0; l < 2 * s->vars; l++)
            ivec_free(&s->watches[l]);
    free(s->watches);
    free(s->act);
    free(s->heap);
    free(s->heap_at);
    ivec_free(&s->popped);
    free(s->seen);
    ivec_free(&s->seen_list);
    ivec_free(&s->learnt);
    ivec_free(&s->stack);
    free(s->level_stamp);
    free(s->solution);
    free(s);
}

static int *copy_ints(const int *from, size_t count)
{
    int *to = malloc((count ? count : 1) * sizeof(int));
    if (to && count)
        memcpy(to, from, count * sizeof(int));
    return to;
}

/* Every array, or 0 when one could not be had (those that were are freed by the caller). */
static int allocate(Learner *s, const LearnerSetup *setup)
{
    size_t cells = (size_t)s->cells, vars = (size_t)s->vars, units = (size_t)s->units;
    size_t n = (size_t)s->n;
    s->givens = copy_ints(setup->givens, cells);
    s->unit_cells = copy_ints(setup->unit_cells, units * n);
    s->peers = copy_ints(setup->peers, cells * (size_t)s->npeers);
    s->ruled = malloc(((size_t)setup->nruled + 1) * sizeof(int));
    s->unit_of = malloc(cells * 3 * sizeof(int));
    s->bit_in = malloc(cells * 3 * sizeof(int));
    s->state = malloc(s->state_size);
    s->trail = malloc((vars + 1) * sizeof(int));
    s->lvl = calloc(vars, sizeof(int));
    s->pos = malloc(vars * sizeof(int));
    s->rsn = calloc(vars, sizeof(int));
    s->why = calloc(vars, sizeof(int));
    s->watches = calloc(2 * vars, sizeof(ivec));
    s->act = calloc(vars, sizeof(double));
    s->heap = malloc(vars * sizeof(int));
    s->heap_at = malloc(vars * sizeof(int));
    s->seen = calloc(vars, 1);
    s->level_stamp = calloc(vars + 2, sizeof(int));
    s->solution = malloc(cells * sizeof(int));
    s->popped_mark = calloc(1, sizeof(int));
    return s->givens && s->unit_cells && s->peers && s->ruled && s->unit_of && s->bit_in &&
           s->state && s->trail && s->lvl && s->pos && s->rsn && s->why && s->watches &&
           s->act && s->heap && s->heap_at && s->seen && s->level_stamp && s->solution &&
           s->popped_mark;
}

/* For each cell, its row, column and box, and its place in each: the units inverted. */
static void invert_units(Learner *s)
{
    for (int u = 0; u < s->units; u++)
        for (int i = 0; i < s->n; i++) {
            int c = s->unit_cells[u * s->n + i], kind = u / s->n;
            s->unit_of[3 * c + kind] = u;
            s->bit_in[3 * c + kind] = i;
        }
}

/* Tiny random activities from the seed (splitmix64): the order of the first decisions. */
static void scatter(Learner *s, unsigned long long seed)
{
    for (int i = 0; i < s->heap_n; i++) {
        unsigned long long z = (seed += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        s->act[s->heap[i]] = (double)((z ^ (z >> 31)) >> 11) * 0x1p-53 * 1e-6;
    }
}

Learner *learner_new(const LearnerSetup *setup)
{
    Learner *s = calloc(1, sizeof(Learner));
    if (!s)
        return NULL;
    int box = setup->box, n = box * box, cells = n * n;
    s->box = box;
    s->n = n;
    s->cells = cells;
    s->vars = cells << 5;
    s->units = 3 * n;
    s->npeers = setup->npeers;
    s->restart_base = setup->restart_base;
    s->clause_base = cells + s->units * n;
    s->state_size = (size_t)(cells + s->units * n) * (sizeof(mask_t) + sizeof(int));
    if (!allocate(s, setup)) {
        learner_free(s);
        return NULL;
    }
    for (int i = 0; i < setup->nruled; i++) {
        int c = setup->ruled_out[2 * i], v = setup->ruled_out[2 * i + 1];
        s->ruled[s->nruled++] = 2 * VAR(c, v - 1) + 1;
    }
    s->cands = (mask_t *)s->state;
    s->place = s->cands + cells;
    s->placed = (int *)(s->place + s->units * n);
    s->where = s->placed + cells;
    invert_units(s);

    for (int x = 0; x < s->vars; x++) {
        s->pos[x] = 0x7fffffff;
        s->heap_at[x] = -1;
    }
    for (int c = 0; c < cells; c++)
        for (int v = 0; v < n; v++) {
            s->heap[s->heap_n] = VAR(c, v);
            s->heap_at[VAR(c, v)] = s->heap_n++;
        }
    if (setup->seed) {
        scatter(s, setup->seed);
        learner_order(s);
    }
    mask_t full = n == 32 ? ~(mask_t)0 : (((mask_t)1 << n) - 1);
    for (int c = 0; c < cells; c++) {
        s->cands[c] = full;
        s->placed[c] = -1;
    }
    for (int i = 0; i < s->units * n; i++) {
        s->place[i] = full;
        s->where[i] = -1;
    }
    s->inc = 1.0;
    s->next_restart = setup->restart_base;
    s->reduce_step = REDUCE_FIRST;
    s->reduce_inc = REDUCE_INC;
    s->next_reduce = s->reduce_step;
    s->phase = PHASE_FRESH;
    return s;
}
