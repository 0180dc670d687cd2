/* What the units of the search share: the reasons, the clause layout, and the
 * literal helpers that the hot loops inline (learner.h says how the encoding reads). */
#ifndef LAZYFUN_ENGINE_H
#define LAZYFUN_ENGINE_H

#include "learner.h"

/* reasons of trail entries besides cells (< cells), units and clauses */
#define R_DECISION (-1)
#define R_UNIT (-2)
/* what propagation ends with besides a conflict's reason */
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

/* The value of a literal read off a state's bitsets: 1 true, -1 false, 0 open. */
static inline int value_in(const int *placed, const mask_t *cands, int lit)
{
    int x = lit >> 1, c = CELL(x), v = VAL(x);
    int t = placed[c] == v ? 1 : ((cands[c] >> v) & 1u) ? 0 : -1;
    return (lit & 1) ? -t : t;
}

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

/* A literal to make true, with its reason; OOM_CONFLICT when memory ran out. */
static inline int enqueue(Learner *s, int lit, int reason)
{
    if (ivec_push(&s->pending, lit) || ivec_push(&s->pending, reason))
        return OOM_CONFLICT;
    return NO_CONFLICT;
}

/* propagate.c */
void heap_insert(Learner *s, int x);
int heap_pop(Learner *s);
void bump(Learner *s, int x);
int propagate(Learner *s); /* the conflict's reason, UNSAT_CONFLICT, OOM_CONFLICT or NO_CONFLICT */

#endif
