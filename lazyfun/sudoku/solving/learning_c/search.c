/* Learning from conflicts, decisions, backjumps, restarts and the reduction of the
 * learned clauses: the search loop, and the run from one solution to the next. */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

/* Tuned on the 25x25 set (tests/data/sudoku25_set.txt), 12 puzzles x 3 seeds, by
 * conflicts: activity decay 0.99 against 0.95 cut the mean from 66k to 47k and
 * the worst from 257k to 155k.  Decisions on the fewest candidates, and decisions
 * that rule a value out rather than place it, did worse. */
#define DECAY 0.99

/* ---- learning ---------------------------------------------------------------------- */

/* The trail entry that made the literal false (its variable). */
static inline int cause(const Learner *s, int lit)
{
    int x = lit >> 1;
    return (lit & 1) ? x : s->why[x]; /* "x is ruled out" is false: x was placed */
}

/* Calls f(s, lit, arg) for each literal of reason r but the trail literal it implied. */
#define FOR_REASON_LITS(s, r, implied, BODY)                                                  \
    do {                                                                                       \
        int n_ = (s)->n;                                                                       \
        if ((r) < (s)->cells) {                                                                \
            int c_ = (r);                                                                      \
            for (int w_ = 0; w_ < n_; w_++) {                                                  \
                int lit_ = 2 * VAR(c_, w_);                                                 \
                if (lit_ != (implied)) {                                                       \
                    BODY;                                                                      \
                }                                                                              \
            }                                                                                  \
        } else if ((r) < (s)->clause_base) {                                                   \
            int uv_ = (r) - (s)->cells, u_ = uv_ / n_, v_ = uv_ - u_ * n_;                     \
            for (int i_ = 0; i_ < n_; i_++) {                                                  \
                int lit_ = 2 * VAR((s)->unit_cells[u_ * n_ + i_], v_);                      \
                if (lit_ != (implied)) {                                                       \
                    BODY;                                                                      \
                }                                                                              \
            }                                                                                  \
        } else {                                                                               \
            int *h_ = (s)->arena.data + ((r) - (s)->clause_base);                              \
            for (int i_ = 0; i_ < h_[H_SIZE]; i_++) {                                          \
                int lit_ = h_[H_LEN + i_];                                                     \
                if (lit_ != (implied)) {                                                       \
                    BODY;                                                                      \
                }                                                                              \
            }                                                                                  \
        }                                                                                      \
    } while (0)

/* Whether the trail entry y follows from the entries already in the clause: every
 * entry its reason rests on is in the clause, at level 0, or follows in turn
 * (recursive minimisation; `levels` is the set of the clause's levels mod 32); -1 when
 * memory ran out. */
static int redundant(Learner *s, int y, unsigned levels)
{
    int top = s->seen_list.n;
    s->stack.n = 0;
    if (ivec_push(&s->stack, y))
        return -1;
    while (s->stack.n) {
        int t = s->stack.data[--s->stack.n], r = s->rsn[t], fail = 0;
        FOR_REASON_LITS(s, r, s->trail[s->pos[t]], {
            int z = cause(s, lit_);
            if (!s->seen[z] && s->lvl[z] > 0) {
                if (s->rsn[z] >= 0 && ((1u << (s->lvl[z] & 31)) & levels)) {
                    s->seen[z] = 1;
                    if (ivec_push(&s->stack, z) || ivec_push(&s->seen_list, z))
                        return -1;
                } else {
                    fail = 1;
                    break;
                }
            }
        });
        if (fail) {
            for (int j = top; j < s->seen_list.n; j++)
                s->seen[s->seen_list.data[j]] = 0;
            s->seen_list.n = top;
            return 0;
        }
    }
    return 1;
}

static int analyze_lit(Learner *s, int lit, int *paths)
{
    int y = cause(s, lit);
    if (y < 0 || s->seen[y] || s->lvl[y] == 0)
        return 0;
    s->seen[y] = 1;
    if (ivec_push(&s->seen_list, y))
        return -1;
    bump(s, y);
    if (s->lvl[y] == s->level) {
        (*paths)++;
        return 0;
    }
    return ivec_push(&s->learnt, s->trail[s->pos[y]] ^ 1);
}

/* First-UIP learning from the conflict clause; fills s->learnt, returns the backjump
 * level (-1: memory ran out). */
static int analyze(Learner *s, int conflict)
{
    int paths = 0, idx = s->trail_n - 1, uip = -1, r = conflict, implied = -1;
    s->learnt.n = 0;
    s->seen_list.n = 0;
    if (ivec_push(&s->learnt, 0))
        return -1;
    for (;;) {
        FOR_REASON_LITS(s, r, implied, {
            if (analyze_lit(s, lit_, &paths))
                return -1;
        });
        while (!s->seen[s->trail[idx] >> 1])
            idx--;
        implied = s->trail[idx];
        idx--;
        if (--paths == 0) {
            uip = implied;
            break;
        }
        r = s->rsn[implied >> 1];
    }
    s->learnt.data[0] = uip ^ 1;
    /* minimisation: drop a literal that the rest of the clause implies */
    unsigned levels = 0;
    for (int i = 1; i < s->learnt.n; i++)
        levels |= 1u << (s->lvl[s->learnt.data[i] >> 1] & 31);
    int j = 1;
    for (int i = 1; i < s->learnt.n; i++) {
        int y = s->learnt.data[i] >> 1, implied = s->rsn[y] >= 0 ? redundant(s, y, levels) : 0;
        if (implied < 0)
            return -1;
        if (!implied)
            s->learnt.data[j++] = s->learnt.data[i];
    }
    s->learnt.n = j;
    for (int i = 0; i < s->seen_list.n; i++)
        s->seen[s->seen_list.data[i]] = 0;
    /* the highest level among the rest goes second: the backjump level */
    int back = 0;
    for (int i = 1; i < s->learnt.n; i++) {
        int l = s->lvl[s->learnt.data[i] >> 1];
        if (l > back) {
            back = l;
            int t = s->learnt.data[1];
            s->learnt.data[1] = s->learnt.data[i];
            s->learnt.data[i] = t;
        }
    }
    return back;
}

static int lbd(Learner *s, const int *lits, int size)
{
    int count = 0;
    s->stamp++;
    for (int i = 0; i < size; i++) {
        int l = s->lvl[lits[i] >> 1];
        if (s->level_stamp[l] != s->stamp) {
            s->level_stamp[l] = s->stamp;
            count++;
        }
    }
    return count;
}

/* Store a clause of two or more literals, watching its first two; its arena offset. */
static int add_clause(Learner *s, const int *lits, int size, int flags)
{
    int cr = s->arena.n;
    if (ivec_push(&s->arena, size) || ivec_push(&s->arena, lbd(s, lits, size)) ||
        ivec_push(&s->arena, flags))
        return -1;
    for (int i = 0; i < size; i++)
        if (ivec_push(&s->arena, lits[i]))
            return -1;
    if (ivec_push(&s->learnts, cr) || ivec_push(&s->watches[lits[0]], cr) ||
        ivec_push(&s->watches[lits[0]], lits[1]) || ivec_push(&s->watches[lits[1]], cr) ||
        ivec_push(&s->watches[lits[1]], lits[0]))
        return -1;
    return cr;
}

/* ---- decisions, backjumps, restarts -------------------------------------------------- */

static int save_level(Learner *s)
{
    if (s->level >= s->snap_cap) {
        int cap = s->snap_cap ? 2 * s->snap_cap : 64;
        char *snaps = realloc(s->snaps, (size_t)cap * s->state_size);
        int *trail = realloc(s->snap_trail, (size_t)cap * sizeof(int));
        if (trail)
            s->snap_trail = trail;
        if (snaps)
            s->snaps = snaps;
        if (!snaps || !trail)
            return -1;
        int *marks = realloc(s->popped_mark, (size_t)(cap + 1) * sizeof(int));
        if (!marks)
            return -1;
        s->popped_mark = marks;
        s->snap_cap = cap;
    }
    memcpy(s->snaps + (size_t)s->level * s->state_size, s->state, s->state_size);
    s->snap_trail[s->level] = s->trail_n;
    return 0;
}

static void backjump(Learner *s, int level)
{
    if (level >= s->level)
        return;
    memcpy(s->state, s->snaps + (size_t)level * s->state_size, s->state_size);
    s->trail_n = s->snap_trail[level];
    for (int i = s->popped_mark[level + 1]; i < s->popped.n; i++)
        heap_insert(s, s->popped.data[i]);
    s->popped.n = s->popped_mark[level + 1];
    s->level = level;
    s->pending.n = s->pend_head = 0;
}

#define PICK_NONE (-1)
#define PICK_NOMEM (-2)

/* The open variable of highest activity, PICK_NONE when every cell is placed. */
static int pick(Learner *s)
{
    s->popped_mark[s->level + 1] = s->popped.n;
    while (s->heap_n > 0) {
        int x = heap_pop(s);
        if (ivec_push(&s->popped, x))
            return PICK_NOMEM;
        if (is_open_var(s, x))
            return x;
    }
    return PICK_NONE;
}

static long long luby(long long i)
{
    long long size = 1, seq = 0;
    while (size < i + 1) {
        seq++;
        size = 2 * size + 1;
    }
    while (size - 1 != i) {
        size = (size - 1) >> 1;
        seq--;
        i = i % size;
    }
    return 1LL << seq;
}

static int locked(Learner *s, int cr)
{
    int lit = s->arena.data[cr + H_LEN], x = lit >> 1;
    return lit_value(s, lit) == 1 && s->pos[x] < s->trail_n && s->trail[s->pos[x]] == lit &&
           s->rsn[x] == s->clause_base + cr;
}

/* Worst first: higher LBD, then longer. */
static int cmp_keys(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* Drop half of the learned clauses of LBD above two, the worst first; -1 (and nothing
 * changed) when the memory for it could not be had. */
static int reduce(Learner *s)
{
    long long *keys = malloc((size_t)(s->learnts.n + 1) * sizeof(long long));
    int *moved = malloc((size_t)(s->arena.n + 1) * sizeof(int));
    int k = 0;
    if (!keys || !moved) {
        free(keys);
        free(moved);
        return -1;
    }
    for (int i = 0; i < s->learnts.n; i++) {
        int cr = s->learnts.data[i], *h = s->arena.data + cr;
        if (!(h[H_FLAGS] & (F_DELETED | F_KEEP)) && h[H_LBD] > 2 && !locked(s, cr))
            keys[k++] = ((long long)h[H_LBD] << 52) | ((long long)h[H_SIZE] << 32) | cr;
    }
    qsort(keys, (size_t)k, sizeof(long long), cmp_keys);
    for (int i = 0; i < k / 2; i++)
        s->arena.data[(int)(keys[i] & 0xffffffff) + H_FLAGS] |= F_DELETED;
    free(keys);
    /* compact: the clauses left move down in the order they were learned;
     * `moved` maps each old offset to the new one for the watches and reasons */
    int *d = s->arena.data, j = 0, top = 0;
    for (int i = 0; i < s->learnts.n; i++) {
        int cr = s->learnts.data[i], len = H_LEN + d[cr + H_SIZE];
        moved[cr] = -1;
        if (d[cr + H_FLAGS] & F_DELETED)
            continue;
        memmove(d + top, d + cr, (size_t)len * sizeof(int));
        moved[cr] = top;
        s->learnts.data[j++] = top;
        top += len;
    }
    s->learnts.n = j;
    s->arena.n = top;
    for (int l = 0; l < 2 * s->vars; l++) {
        ivec *ws = &s->watches[l];
        int m = 0;
        for (int i = 0; i < ws->n; i += 2)
            if (moved[ws->data[i]] >= 0) {
                ws->data[m++] = moved[ws->data[i]];
                ws->data[m++] = ws->data[i + 1];
            }
        ws->n = m;
    }
    for (int t = 0; t < s->trail_n; t++) {
        int x = s->trail[t] >> 1;
        if (s->rsn[x] >= s->clause_base)
            s->rsn[x] = s->clause_base + moved[s->rsn[x] - s->clause_base];
    }
    free(moved);
    return 0;
}

/* Learn from a conflict and assert the clause's first literal after the backjump. */
static int learn(Learner *s, int conflict)
{
    int back = analyze(s, conflict), reason = R_UNIT;
    if (back < 0)
        return -1;
    s->conflicts++;
    s->inc *= 1.0 / DECAY;
    s->learnt_lits += s->learnt.n;
    backjump(s, back);
    if (s->learnt.n > 1) {
        int cr = add_clause(s, s->learnt.data, s->learnt.n, 0);
        if (cr < 0)
            return -1;
        reason = s->clause_base + cr;
    }
    return enqueue(s, s->learnt.data[0], reason) == OOM_CONFLICT ? -1 : 0;
}

/* After a solution: a clause ruling out its decisions, asserted at the level before the
 * last.  1: the solution was forced (no other); 0: go on searching; -1: out of memory. */
static int block_solution(Learner *s)
{
    int reason = R_UNIT;
    if (s->level == 0)
        return 1;
    s->learnt.n = 0;
    for (int d = s->level; d >= 1; d--) {
        /* the negation of the decision of level d, the first entry of its level */
        if (ivec_push(&s->learnt, s->trail[s->snap_trail[d - 1]] ^ 1))
            return -1;
    }
    backjump(s, s->level - 1);
    if (s->learnt.n > 1) {
        int cr = add_clause(s, s->learnt.data, s->learnt.n, F_KEEP);
        if (cr < 0)
            return -1;
        reason = s->clause_base + cr;
    }
    return enqueue(s, s->learnt.data[0], reason) == OOM_CONFLICT ? -1 : 0;
}

/* Search until a solution, no solution left, or the conflict budget is spent. */
static learn_status search(Learner *s, long long budget)
{
    long long stop = s->conflicts + budget;
    for (;;) {
        int r = propagate(s);
        if (r == OOM_CONFLICT)
            return LEARN_NOMEM;
        if (r == UNSAT_CONFLICT)
            return LEARN_EXHAUSTED;
        if (r != NO_CONFLICT) {
            if (learn(s, r) < 0)
                return LEARN_NOMEM;
            continue;
        }
        if (s->conflicts >= s->next_reduce) { /* here no pending literal names a clause */
            s->reduce_step += s->reduce_inc;
            s->next_reduce = s->conflicts + s->reduce_step;
            if (reduce(s) < 0)
                return LEARN_NOMEM;
        }
        if (s->conflicts >= s->next_restart && s->level > 0) {
            s->restarts++;
            s->next_restart = s->conflicts + s->restart_base * luby(++s->luby_i);
            backjump(s, 0);
            continue;
        }
        if (budget >= 0 && s->conflicts >= stop)
            return LEARN_BUDGET;
        if (save_level(s) < 0)
            return LEARN_NOMEM;
        int x = pick(s);
        if (x == PICK_NOMEM)
            return LEARN_NOMEM;
        if (x == PICK_NONE)
            return LEARN_FOUND;
        s->level++;
        s->decisions++;
        if (enqueue(s, 2 * x, R_DECISION) == OOM_CONFLICT)
            return LEARN_NOMEM;
    }
}

/* ---- the run: from one solution to the next -------------------------------------------- */

/* The givens and the values ruled out, enqueued at level 0. */
static int start(Learner *s)
{
    for (int c = 0; c < s->cells; c++)
        if (s->givens[c] && enqueue(s, 2 * VAR(c, s->givens[c] - 1), R_UNIT) == OOM_CONFLICT)
            return -1;
    for (int i = 0; i < s->nruled; i++)
        if (enqueue(s, s->ruled[i], R_UNIT) == OOM_CONFLICT)
            return -1;
    return 0;
}

/* The next step of the enumeration; a learner whose memory ran out says so ever after. */
static learn_status step(Learner *s, long long budget)
{
    switch (s->phase) {
    case PHASE_BROKEN:
        return LEARN_NOMEM;
    case PHASE_DONE:
        return LEARN_EXHAUSTED;
    case PHASE_FRESH:
        if (start(s) < 0)
            return LEARN_NOMEM;
        break;
    case PHASE_FOUND: {
        int r = block_solution(s);
        if (r < 0)
            return LEARN_NOMEM;
        if (r == 1)
            return LEARN_EXHAUSTED;
        break;
    }
    case PHASE_SEARCH:
        break;
    }
    s->phase = PHASE_SEARCH;
    return search(s, budget);
}

learn_status learner_run(Learner *s, long long budget)
{
    learn_status r = step(s, budget);
    if (r == LEARN_NOMEM)
        s->phase = PHASE_BROKEN;
    else if (r == LEARN_EXHAUSTED)
        s->phase = PHASE_DONE;
    else if (r == LEARN_FOUND) {
        for (int c = 0; c < s->cells; c++)
            s->solution[c] = s->placed[c] + 1;
        s->phase = PHASE_FOUND;
    }
    return r;
}
