/* The learning engine for large Sudoku boards: conflict-driven clause learning
 * over the (cell, value) encoding, with the constraints the board gives kept
 * as bitsets rather than clauses.  lazyfun/sudoku/learning.py is the reader's
 * guide (the derivation, the encoding, the API); this file is the engine.
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
 * local minimisation; decisions place the open (cell, value) of highest
 * activity (VSIDS, a binary heap); restarts follow the Luby sequence; half of
 * the learned clauses of LBD above two go at each reduction.  Solutions are
 * enumerated by blocking the decisions of each one found.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint32_t mask_t;

/* the variable "cell holds value", and back: a shift, no division */
#define VAR(c, v) (((c) << 5) | (v))
#define CELL(x) ((x) >> 5)
#define VAL(x) ((x) & 31)

typedef struct {
    int *data;
    int n, cap;
} ivec;

static int ivec_grow(ivec *v, int x)
{
    {
        int cap = v->cap ? 2 * v->cap : 8;
        int *d = realloc(v->data, (size_t)cap * sizeof(int));
        if (!d)
            return -1;
        v->data = d;
        v->cap = cap;
    }
    v->data[v->n++] = x;
    return 0;
}

static inline int ivec_push(ivec *v, int x)
{
    if (v->n < v->cap) {
        v->data[v->n++] = x;
        return 0;
    }
    return ivec_grow(v, x);
}

/* Tuned on the 25x25 set (tests/data/sudoku25_set.txt), 12 puzzles x 3 seeds, by
 * conflicts: activity decay 0.99 against 0.95 cut the mean from 66k to 47k and
 * the worst from 257k to 155k; a clause database three times larger (reduced
 * at 6000 conflicts, then every 600 more each time) brought them to 43k and
 * 146k.  Decisions on the fewest candidates, and decisions that rule a value
 * out rather than place it, did worse. */
#define DECAY 0.99
#define REDUCE_FIRST 6000
#define REDUCE_INC 600

#define R_DECISION (-1)
#define R_UNIT (-2)
#define NO_CONFLICT (-1)
#define UNSAT_CONFLICT (-3)
#define OOM_CONFLICT (-4)

/* clause header in the arena: size, lbd, flags; then the literals */
#define H_SIZE 0
#define H_LBD 1
#define H_FLAGS 2
#define H_LEN 3
#define F_DELETED 1
#define F_KEEP 2

enum { ST_FRESH, ST_SEARCH, ST_FOUND, ST_DONE };

typedef struct {
    PyObject_HEAD int box, n, cells, vars, units, npeers;
    int *unit_of;    /* cells * 3 */
    int *bit_in;     /* cells * 3 */
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

    int status, busy;
    long long conflicts, decisions, propagations, restarts, learnt_lits;
    long long next_restart, restart_base, luby_i, next_reduce, reduce_step, reduce_inc;
    int *solution;
} Learner;

/* ---- literals ---------------------------------------------------------------- */

static inline int value_in(const int *placed, const mask_t *cands, int lit);

static inline int lit_value(const Learner *s, int lit)
{
    return value_in(s->placed, s->cands, lit);
}

static inline int is_open_var(const Learner *s, int x)
{
    int c = CELL(x);
    return s->placed[c] < 0 && ((s->cands[c] >> VAL(x)) & 1u);
}

static inline int single(mask_t m) { return m && !(m & (m - 1)); }

/* ---- the activity heap ---------------------------------------------------------- */

static void heap_up(Learner *s, int i)
{
    int x = s->heap[i];
    double a = s->act[x];
    while (i > 0) {
        int p = (i - 1) >> 1;
        if (s->act[s->heap[p]] >= a)
            break;
        s->heap[i] = s->heap[p];
        s->heap_at[s->heap[i]] = i;
        i = p;
    }
    s->heap[i] = x;
    s->heap_at[x] = i;
}

static void heap_down(Learner *s, int i)
{
    int x = s->heap[i];
    double a = s->act[x];
    for (;;) {
        int l = 2 * i + 1, r = l + 1, b;
        if (l >= s->heap_n)
            break;
        b = (r < s->heap_n && s->act[s->heap[r]] > s->act[s->heap[l]]) ? r : l;
        if (s->act[s->heap[b]] <= a)
            break;
        s->heap[i] = s->heap[b];
        s->heap_at[s->heap[i]] = i;
        i = b;
    }
    s->heap[i] = x;
    s->heap_at[x] = i;
}

static void heap_insert(Learner *s, int x)
{
    if (s->heap_at[x] >= 0)
        return;
    s->heap[s->heap_n] = x;
    s->heap_at[x] = s->heap_n++;
    heap_up(s, s->heap_n - 1);
}

static int heap_pop(Learner *s)
{
    int x = s->heap[0];
    s->heap_at[x] = -1;
    if (--s->heap_n > 0) {
        s->heap[0] = s->heap[s->heap_n];
        s->heap_at[s->heap[0]] = 0;
        heap_down(s, 0);
    }
    return x;
}

static void bump(Learner *s, int x)
{
    if ((s->act[x] += s->inc) > 1e100) {
        for (int i = 0; i < s->vars; i++)
            s->act[i] *= 1e-100;
        s->inc *= 1e-100;
    }
    if (s->heap_at[x] >= 0)
        heap_up(s, s->heap_at[x]);
}

/* ---- propagation ------------------------------------------------------------------ */

static inline int enqueue(Learner *s, int lit, int reason)
{
    if (ivec_push(&s->pending, lit) || ivec_push(&s->pending, reason))
        return OOM_CONFLICT;
    return NO_CONFLICT;
}

/* The value of a literal read off a state's bitsets: 1 true, -1 false, 0 open. */
static inline int value_in(const int *placed, const mask_t *cands, int lit)
{
    int x = lit >> 1, c = CELL(x), v = VAL(x);
    int t = placed[c] == v ? 1 : ((cands[c] >> v) & 1u) ? 0 : -1;
    return (lit & 1) ? -t : t;
}

/* A watched literal became false: move the watch, or find the clause unit or false.
 * Each watch is a pair (clause, blocker): a true blocker means the clause is satisfied. */
static int visit(Learner *s, int lit)
{
    ivec *ws = &s->watches[lit];
    int i = 0, j = 0, nw = ws->n, conflict = NO_CONFLICT;
    int *a = s->arena.data, *w = ws->data;
    const int *placed = s->placed;
    const mask_t *cands = s->cands;
    while (i < nw) {
        int cr = w[i], blocker = w[i + 1];
        i += 2;
        if (value_in(placed, cands, blocker) == 1) {
            w[j++] = cr;
            w[j++] = blocker;
            continue;
        }
        if (i < nw)
            __builtin_prefetch(a + w[i]);
        int *h = a + cr, *lits = h + H_LEN, size = h[H_SIZE], k, v0;
        if (lits[0] == lit) {
            lits[0] = lits[1];
            lits[1] = lit;
        }
        v0 = value_in(placed, cands, lits[0]);
        if (v0 == 1) {
            w[j++] = cr;
            w[j++] = lits[0];
            continue;
        }
        for (k = 2; k < size; k++)
            if (value_in(placed, cands, lits[k]) != -1)
                break;
        if (k < size) {
            lits[1] = lits[k];
            lits[k] = lit;
            if (ivec_push(&s->watches[lits[1]], cr) || ivec_push(&s->watches[lits[1]], lits[0]))
                return OOM_CONFLICT;
            continue;
        }
        w[j++] = cr;
        w[j++] = lits[0];
        if (v0 == -1) {
            conflict = s->clause_base + cr;
            break;
        }
        if (enqueue(s, lits[0], s->clause_base + cr) == OOM_CONFLICT)
            return OOM_CONFLICT;
    }
    while (i < nw)
        w[j++] = w[i++];
    ws->n = j;
    return conflict;
}

/* Value v leaves the candidates of cell c (the literal 2x becomes false) because of
 * the trail entry of variable `by`, kept as the literal's cause for learning. */
static int clear_bit(Learner *s, int c, int v, int by)
{
    int n = s->n, x = VAR(c, v);
    s->why[x] = by;
    mask_t left = (s->cands[c] &= ~((mask_t)1 << v));
    if (!left)
        return c; /* cell ALO of c is false */
    if (single(left) && s->placed[c] < 0)
        if (enqueue(s, 2 * VAR(c, __builtin_ctz(left)), c) == OOM_CONFLICT)
            return OOM_CONFLICT;
    for (int k = 0; k < 3; k++) {
        int u = s->unit_of[3 * c + k], uv = u * n + v;
        mask_t m = (s->place[uv] &= ~((mask_t)1 << s->bit_in[3 * c + k]));
        if (!m)
            return s->cells + uv; /* unit ALO of (u, v) is false */
        if (single(m)) {
            int q = s->unit_cells[u * n + __builtin_ctz(m)];
            if (s->placed[q] != v && enqueue(s, 2 * VAR(q, v), s->cells + uv) == OOM_CONFLICT)
                return OOM_CONFLICT;
        }
    }
    if (s->watches[2 * x].n)
        return visit(s, 2 * x);
    return NO_CONFLICT;
}

static inline void record(Learner *s, int x, int lit, int reason)
{
    s->lvl[x] = s->level;
    s->pos[x] = s->trail_n;
    s->rsn[x] = reason;
    s->trail[s->trail_n++] = lit;
}

/* Place value v in cell c: the cell's other values and the peers' v go. */
static int place_value(Learner *s, int c, int v, int reason)
{
    int n = s->n, x = VAR(c, v), r;
    mask_t others = s->cands[c] & ~((mask_t)1 << v);
    record(s, x, 2 * x, reason);
    s->propagations++;
    s->placed[c] = v;
    for (int k = 0; k < 3; k++)
        s->where[s->unit_of[3 * c + k] * n + v] = c;
    while (others) {
        int w = __builtin_ctz(others);
        others &= others - 1;
        if ((r = clear_bit(s, c, w, x)) != NO_CONFLICT)
            return r;
    }
    if (s->watches[2 * x + 1].n && (r = visit(s, 2 * x + 1)) != NO_CONFLICT)
        return r;
    const int *p = s->peers + c * s->npeers;
    mask_t bit = (mask_t)1 << v;
    for (int k = 0; k < s->npeers; k++)
        if ((s->cands[p[k]] & bit) && (r = clear_bit(s, p[k], v, x)) != NO_CONFLICT)
            return r;
    return NO_CONFLICT;
}

/* Apply the pending literals to a fixpoint; the conflict's clause, or NO_CONFLICT. */
static int propagate(Learner *s)
{
    int r = NO_CONFLICT;
    while (s->pend_head < s->pending.n) {
        int lit = s->pending.data[s->pend_head], reason = s->pending.data[s->pend_head + 1];
        int x = lit >> 1, val = lit_value(s, lit);
        s->pend_head += 2;
        if (val == 1)
            continue;
        if (val == -1) {
            r = reason < 0 ? UNSAT_CONFLICT : reason;
            break;
        }
        if (lit & 1) {
            record(s, x, lit, reason);
            s->propagations++;
            r = clear_bit(s, CELL(x), VAL(x), x);
        } else {
            r = place_value(s, CELL(x), VAL(x), reason);
        }
        if (r != NO_CONFLICT)
            break;
    }
    if (r != NO_CONFLICT && s->level == 0 && r != OOM_CONFLICT)
        r = UNSAT_CONFLICT;
    s->pending.n = s->pend_head = 0;
    return r;
}

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
 * (recursive minimisation; `levels` is the set of the clause's levels mod 32). */
static int redundant(Learner *s, int y, unsigned levels)
{
    int top = s->seen_list.n;
    s->stack.n = 0;
    ivec_push(&s->stack, y);
    while (s->stack.n) {
        int t = s->stack.data[--s->stack.n], r = s->rsn[t], fail = 0;
        FOR_REASON_LITS(s, r, s->trail[s->pos[t]], {
            int z = cause(s, lit_);
            if (!s->seen[z] && s->lvl[z] > 0) {
                if (s->rsn[z] >= 0 && ((1u << (s->lvl[z] & 31)) & levels)) {
                    s->seen[z] = 1;
                    ivec_push(&s->stack, z);
                    ivec_push(&s->seen_list, z);
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

static void analyze_lit(Learner *s, int lit, int *paths)
{
    int y = cause(s, lit);
    if (y < 0 || s->seen[y] || s->lvl[y] == 0)
        return;
    s->seen[y] = 1;
    ivec_push(&s->seen_list, y);
    bump(s, y);
    if (s->lvl[y] == s->level)
        (*paths)++;
    else
        ivec_push(&s->learnt, s->trail[s->pos[y]] ^ 1);
}

/* First-UIP learning from the conflict clause; fills s->learnt, returns the backjump level. */
static int analyze(Learner *s, int conflict)
{
    int paths = 0, idx = s->trail_n - 1, uip = -1, r = conflict, implied = -1;
    s->learnt.n = 0;
    s->seen_list.n = 0;
    ivec_push(&s->learnt, 0);
    for (;;) {
        FOR_REASON_LITS(s, r, implied, analyze_lit(s, lit_, &paths));
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
        int y = s->learnt.data[i] >> 1;
        if (s->rsn[y] < 0 || !redundant(s, y, levels))
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

/* The open variable of highest activity, or -1 when every cell is placed. */
static int pick(Learner *s)
{
    s->popped_mark[s->level + 1] = s->popped.n;
    while (s->heap_n > 0) {
        int x = heap_pop(s);
        ivec_push(&s->popped, x);
        if (is_open_var(s, x))
            return x;
    }
    return -1;
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

/* Drop half of the learned clauses of LBD above two, the worst first. */
static void reduce(Learner *s)
{
    long long *keys = malloc((size_t)(s->learnts.n + 1) * sizeof(long long));
    int k = 0;
    if (!keys)
        return;
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
    int *d = s->arena.data, *moved = malloc((size_t)(s->arena.n + 1) * sizeof(int));
    int j = 0, top = 0;
    if (!moved)
        return;
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
}

/* Learn from a conflict and assert the clause's first literal after the backjump. */
static int learn(Learner *s, int conflict)
{
    int back = analyze(s, conflict), reason = R_UNIT;
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

/* After a solution: a clause ruling out its decisions, asserted at the level before the last. */
static int block_solution(Learner *s)
{
    int reason = R_UNIT;
    if (s->level == 0)
        return 1; /* the solution was forced: no other */
    s->learnt.n = 0;
    for (int d = s->level; d >= 1; d--) {
        /* the negation of the decision of level d, the first entry of its level */
        ivec_push(&s->learnt, s->trail[s->snap_trail[d - 1]] ^ 1);
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

/* Search until a solution (1), no solution left (0), or the conflict budget is spent (-1). */
static int search(Learner *s, long long budget)
{
    long long stop = s->conflicts + budget;
    for (;;) {
        int r = propagate(s);
        if (r == OOM_CONFLICT)
            return -2;
        if (r == UNSAT_CONFLICT)
            return 0;
        if (r != NO_CONFLICT) {
            if (learn(s, r) < 0)
                return -2;
            continue;
        }
        if (s->conflicts >= s->next_reduce) { /* here no pending literal names a clause */
            s->reduce_step += s->reduce_inc;
            s->next_reduce = s->conflicts + s->reduce_step;
            reduce(s);
        }
        if (s->conflicts >= s->next_restart && s->level > 0) {
            s->restarts++;
            s->next_restart = s->conflicts + s->restart_base * luby(++s->luby_i);
            backjump(s, 0);
            continue;
        }
        if (budget >= 0 && s->conflicts >= stop)
            return -1;
        if (save_level(s) < 0)
            return -2;
        int x = pick(s);
        if (x < 0)
            return 1;
        s->level++;
        s->decisions++;
        if (enqueue(s, 2 * x, R_DECISION) == OOM_CONFLICT)
            return -2;
    }
}

/* ---- the Python type ----------------------------------------------------------------- */

static void Learner_dealloc(Learner *s)
{
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
    free(s->pending.data);
    free(s->arena.data);
    free(s->learnts.data);
    if (s->watches)
        for (int l = 0; l < 2 * s->vars; l++)
            free(s->watches[l].data);
    free(s->watches);
    free(s->act);
    free(s->heap);
    free(s->heap_at);
    free(s->popped.data);
    free(s->seen);
    free(s->seen_list.data);
    free(s->learnt.data);
    free(s->stack.data);
    free(s->level_stamp);
    free(s->solution);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int Learner_init(Learner *s, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"box", "cells", "restart_base", "seed", "ruled_out", NULL};
    int box;
    PyObject *ruled_arg = NULL;
    unsigned long long seed = 0;
    long long restart_base = 100;
    PyObject *cells_arg, *seq;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iO|LKO", kwlist, &box, &cells_arg, &restart_base,
                                     &seed, &ruled_arg))
        return -1;
    if (s->state) {
        PyErr_SetString(PyExc_RuntimeError, "Learner is already initialised");
        return -1;
    }
    if (box < 2 || box > 5) {
        PyErr_Format(PyExc_ValueError, "box must be 2..5, not %d", box);
        return -1;
    }
    if (restart_base < 1) {
        PyErr_SetString(PyExc_ValueError, "restart_base must be at least 1");
        return -1;
    }
    int n = box * box, cells = n * n, vars = cells << 5, units = 3 * n;
    seq = PySequence_Fast(cells_arg, "cells must be a sequence of ints");
    if (!seq)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != cells) {
        PyErr_Format(PyExc_ValueError, "cells must have %d values for box %d, not %zd", cells,
                     box, PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return -1;
    }
    s->givens = malloc((size_t)cells * sizeof(int));
    if (!s->givens) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < cells; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (v < 0 || v > n) {
            PyErr_Format(PyExc_ValueError, "cell %d holds %ld: values are 0 (blank) to %d", i, v,
                         n);
            Py_DECREF(seq);
            return -1;
        }
        s->givens[i] = (int)v;
    }
    Py_DECREF(seq);
    if (ruled_arg && ruled_arg != Py_None) {
        seq = PySequence_Fast(ruled_arg, "ruled_out must be a sequence of (cell, value) pairs");
        if (!seq)
            return -1;
        Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
        s->ruled = malloc((size_t)(k + 1) * sizeof(int));
        if (!s->ruled) {
            Py_DECREF(seq);
            PyErr_NoMemory();
            return -1;
        }
        for (Py_ssize_t i = 0; i < k; i++) {
            int c, v;
            if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "ii", &c, &v)) {
                Py_DECREF(seq);
                return -1;
            }
            if (c < 0 || c >= cells || v < 1 || v > n) {
                PyErr_Format(PyExc_ValueError,
                             "ruled_out (%d, %d): cells are 0 to %d and values 1 to %d", c, v,
                             cells - 1, n);
                Py_DECREF(seq);
                return -1;
            }
            s->ruled[s->nruled++] = 2 * VAR(c, v - 1) + 1;
        }
        Py_DECREF(seq);
    }

    s->box = box;
    s->n = n;
    s->cells = cells;
    s->vars = vars;
    s->units = units;
    s->npeers = 3 * (n - 1) - 2 * (box - 1);
    s->restart_base = restart_base;
    s->clause_base = cells + units * n;
    s->state_size = (size_t)(cells + units * n) * (sizeof(mask_t) + sizeof(int));

    s->unit_of = malloc((size_t)cells * 3 * sizeof(int));
    s->bit_in = malloc((size_t)cells * 3 * sizeof(int));
    s->unit_cells = malloc((size_t)units * n * sizeof(int));
    s->peers = malloc((size_t)cells * s->npeers * sizeof(int));
    s->state = malloc(s->state_size);
    s->trail = malloc((size_t)(vars + 1) * sizeof(int));
    s->lvl = calloc((size_t)vars, sizeof(int));
    s->pos = malloc((size_t)vars * sizeof(int));
    s->rsn = calloc((size_t)vars, sizeof(int));
    s->why = calloc((size_t)vars, sizeof(int));
    s->watches = calloc((size_t)2 * vars, sizeof(ivec));
    s->act = calloc((size_t)vars, sizeof(double));
    s->heap = malloc((size_t)vars * sizeof(int));
    s->heap_at = malloc((size_t)vars * sizeof(int));
    s->seen = calloc((size_t)vars, 1);
    s->level_stamp = calloc((size_t)vars + 2, sizeof(int));
    s->solution = malloc((size_t)cells * sizeof(int));
    s->popped_mark = calloc(1, sizeof(int));
    if (!s->unit_of || !s->bit_in || !s->unit_cells || !s->peers ||
        !s->state || !s->trail || !s->lvl || !s->pos || !s->rsn || !s->why || !s->watches || !s->act ||
        !s->heap || !s->heap_at || !s->seen || !s->level_stamp || !s->solution ||
        !s->popped_mark) {
        PyErr_NoMemory();
        return -1;
    }
    s->cands = (mask_t *)s->state;
    s->place = s->cands + cells;
    s->placed = (int *)(s->place + units * n);
    s->where = s->placed + cells;

    for (int c = 0; c < cells; c++) {
        int r = c / n, col = c % n, b = (r / box) * box + col / box;
        s->unit_of[3 * c] = r;
        s->bit_in[3 * c] = col;
        s->unit_of[3 * c + 1] = n + col;
        s->bit_in[3 * c + 1] = r;
        s->unit_of[3 * c + 2] = 2 * n + b;
        s->bit_in[3 * c + 2] = (r % box) * box + col % box;
        for (int k = 0; k < 3; k++)
            s->unit_cells[s->unit_of[3 * c + k] * n + s->bit_in[3 * c + k]] = c;
    }
    for (int c = 0; c < cells; c++) {
        int k = 0, r = c / n, col = c % n;
        for (int d = 0; d < cells; d++) {
            int dr = d / n, dc = d % n;
            if (d != c && (dr == r || dc == col ||
                           (dr / box == r / box && dc / box == col / box)))
                s->peers[c * s->npeers + k++] = d;
        }
    }
    for (int x = 0; x < vars; x++) {
        s->pos[x] = 0x7fffffff;
        s->heap_at[x] = -1;
    }
    for (int c = 0; c < cells; c++)
        for (int v = 0; v < n; v++) {
            s->heap[s->heap_n] = VAR(c, v);
            s->heap_at[VAR(c, v)] = s->heap_n++;
        }
    if (seed) {
        /* tiny random activities: the order of the first decisions (splitmix64) */
        for (int i = 0; i < s->heap_n; i++) {
            unsigned long long z = (seed += 0x9e3779b97f4a7c15ULL);
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
            s->act[s->heap[i]] = (double)((z ^ (z >> 31)) >> 11) * 0x1p-53 * 1e-6;
        }
        for (int i = s->heap_n / 2 - 1; i >= 0; i--)
            heap_down(s, i);
    }
    mask_t full = n == 32 ? ~(mask_t)0 : (((mask_t)1 << n) - 1);
    for (int c = 0; c < cells; c++) {
        s->cands[c] = full;
        s->placed[c] = -1;
    }
    for (int i = 0; i < units * n; i++) {
        s->place[i] = full;
        s->where[i] = -1;
    }
    s->inc = 1.0;
    s->next_restart = restart_base;
    s->luby_i = 0;
    s->reduce_step = REDUCE_FIRST;
    s->reduce_inc = REDUCE_INC;
    s->next_reduce = s->reduce_step;
    s->status = ST_FRESH;
    return 0;
}

static PyObject *Learner_run(Learner *s, PyObject *args)
{
    long long budget = -1;
    int r;
    if (!PyArg_ParseTuple(args, "|L", &budget))
        return NULL;
    if (!s->state) {
        PyErr_SetString(PyExc_RuntimeError, "Learner is not initialised");
        return NULL;
    }
    if (s->busy) {
        PyErr_SetString(PyExc_RuntimeError, "Learner.run() is already running in another thread");
        return NULL;
    }
    if (s->status == ST_DONE)
        return PyLong_FromLong(0);
    if (s->status == ST_FRESH) {
        for (int c = 0; c < s->cells; c++)
            if (s->givens[c] && enqueue(s, 2 * VAR(c, s->givens[c] - 1), R_UNIT) < NO_CONFLICT)
                return PyErr_NoMemory();
        for (int i = 0; i < s->nruled; i++)
            if (enqueue(s, s->ruled[i], R_UNIT) < NO_CONFLICT)
                return PyErr_NoMemory();
        s->status = ST_SEARCH;
    } else if (s->status == ST_FOUND) {
        r = block_solution(s);
        if (r < 0)
            return PyErr_NoMemory();
        s->status = r == 1 ? ST_DONE : ST_SEARCH;
        if (r == 1)
            return PyLong_FromLong(0);
    }
    s->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    r = search(s, budget);
    Py_END_ALLOW_THREADS
    s->busy = 0;
    if (r == -2)
        return PyErr_NoMemory();
    if (r == 0)
        s->status = ST_DONE;
    if (r == 1) {
        for (int c = 0; c < s->cells; c++)
            s->solution[c] = s->placed[c] + 1;
        s->status = ST_FOUND;
    }
    return PyLong_FromLong(r);
}

static PyObject *Learner_solution(Learner *s, PyObject *Py_UNUSED(ignored))
{
    if (s->status != ST_FOUND) {
        PyErr_SetString(PyExc_RuntimeError, "no solution: run() has not just returned 1");
        return NULL;
    }
    PyObject *t = PyTuple_New(s->cells);
    if (!t)
        return NULL;
    for (int c = 0; c < s->cells; c++) {
        PyObject *v = PyLong_FromLong(s->solution[c]);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, c, v);
    }
    return t;
}

static PyObject *Learner_stats(Learner *s, PyObject *Py_UNUSED(ignored))
{
    return Py_BuildValue("{s:L,s:L,s:L,s:L,s:n,s:L}", "conflicts", s->conflicts, "decisions",
                         s->decisions, "propagations", s->propagations, "restarts", s->restarts,
                         "learnts", (Py_ssize_t)s->learnts.n, "learnt_literals", s->learnt_lits);
}

static PyMethodDef Learner_methods[] = {
    {"run", (PyCFunction)Learner_run, METH_VARARGS,
     "run(budget=-1) -> 1 (a solution: see solution()), 0 (no solution left) or -1 (budget of "
     "conflicts spent; call again to go on)."},
    {"solution", (PyCFunction)Learner_solution, METH_NOARGS,
     "The solution run() just found: the cells in reading order, values from 1."},
    {"stats", (PyCFunction)Learner_stats, METH_NOARGS,
     "Counters so far: conflicts, decisions, propagations, restarts, learnts."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject LearnerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "lazyfun.sudoku._learning.Learner",
    .tp_basicsize = sizeof(Learner),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Learner(box, cells, restart_base=100): clause learning over one Sudoku puzzle.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Learner_init,
    .tp_dealloc = (destructor)Learner_dealloc,
    .tp_methods = Learner_methods,
};

static struct PyModuleDef learning_module = {
    PyModuleDef_HEAD_INIT, "lazyfun.sudoku._learning",
    "The learning engine for large Sudoku boards (see lazyfun.sudoku.learning).", -1, NULL,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__learning(void)
{
    PyObject *m;
    if (PyType_Ready(&LearnerType) < 0)
        return NULL;
    m = PyModule_Create(&learning_module);
    if (!m)
        return NULL;
    Py_INCREF(&LearnerType);
    if (PyModule_AddObject(m, "Learner", (PyObject *)&LearnerType) < 0) {
        Py_DECREF(&LearnerType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
