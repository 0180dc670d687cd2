/* Propagation to a fixpoint over the bitsets, and the activity heap that orders
 * the decisions. */
#include "engine.h"

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

void heap_insert(Learner *s, int x)
{
    if (s->heap_at[x] >= 0)
        return;
    s->heap[s->heap_n] = x;
    s->heap_at[x] = s->heap_n++;
    heap_up(s, s->heap_n - 1);
}

void learner_order(Learner *s)
{
    for (int i = s->heap_n / 2 - 1; i >= 0; i--)
        heap_down(s, i);
}

int heap_pop(Learner *s)
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

void bump(Learner *s, int x)
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
int propagate(Learner *s)
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
