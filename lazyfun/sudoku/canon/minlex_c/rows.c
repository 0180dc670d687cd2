/* The row-by-row search (rows.py's start and extend): every surviving state takes each
 * source row that may come next, writes it as small as it can, and those that write the
 * smallest row become the next level, each way their open choices can go. */
#include <string.h>

#include "search.h"

enum { NEW = 15 }; /* a digit without a label yet: sorts after every label */

static const uint8_t PERM2[2][3] = {{0, 1, 2}, {1, 0, 2}};
static const uint8_t PERM3[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                    {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

/* What digit d writes under the state's labels: 0 blank, its label, or NEW. */
static inline uint8_t value_of(const State *s, uint8_t d)
{
    return d ? (s->label[d] ? s->label[d] : (uint8_t)NEW) : 0;
}

/* The first n (at most 3) of v in ascending order. */
static inline void sort_small(uint8_t *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            uint8_t x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
}

/* How a blank stack writes the row, smallest first, packed four bits a value. */
static inline int stack_key(const State *s, const uint8_t *row, int stack)
{
    uint8_t v[3] = {value_of(s, row[3 * stack]), value_of(s, row[3 * stack + 1]),
                    value_of(s, row[3 * stack + 2])};
    sort_small(v, 3);
    return v[0] << 8 | v[1] << 4 | v[2];
}

/* The smallest way state s writes `row`: blank stacks by their keys, then each placed
 * stack's blank columns written smallest first; new digits labelled left to right. */
static void write_row(const State *s, const uint8_t *row, uint8_t *vals)
{
    int keys[3], n = 0;
    for (int stack = 0; stack < 3; stack++)
        if (s->blank >> stack & 1) {
            int key = stack_key(s, row, stack), i = n++;
            for (; i > 0 && keys[i - 1] > key; i--)
                keys[i] = keys[i - 1];
            keys[i] = key;
        }
    for (int i = 0; i < n; i++) {
        vals[3 * i] = (uint8_t)(keys[i] >> 8);
        vals[3 * i + 1] = (uint8_t)(keys[i] >> 4 & 15);
        vals[3 * i + 2] = (uint8_t)(keys[i] & 15);
    }
    for (int k = s->nb; k < 3; k++) {
        for (int i = 0; i < 3; i++)
            vals[3 * k + i] = value_of(s, row[s->col[3 * k + i]]);
        sort_small(vals + 3 * k, s->zero[k]);
    }
    uint8_t next = s->next;
    for (int j = 0; j < 9; j++)
        if (vals[j] == NEW)
            vals[j] = next++;
}

/* The source rows state s may place next: the rest of its band, or any row of a band not
 * started; of the blank rows of one band only the first (they are interchangeable). */
static unsigned candidates(const Canon *canon, const State *s)
{
    unsigned rows = s->rows_left;
    if (!rows)
        for (int b = 0; b < 3; b++)
            if (s->bands_left >> b & 1)
                rows |= 7u << (3 * b);
    unsigned blank = rows & canon->blank_rows[s->t];
    for (int b = 0; b < 3; b++) {
        unsigned in_band = blank & 7u << (3 * b);
        rows &= ~(in_band & (in_band - 1));
    }
    return rows;
}

int minlex_start(Canon *canon)
{
    canon->now.len = 0;
    for (int t = 0; t < 2; t++) {
        State s;
        memset(&s, 0, sizeof s);
        s.t = (uint8_t)t;
        s.nb = 3;
        s.blank = 7;
        s.bands_left = 7;
        s.next = 1;
        int status = minlex_push(&canon->now, &s, canon->bound);
        if (status != MINLEX_OK)
            return status;
    }
    return MINLEX_OK;
}

/* Where a stack's new digits sit after refining, to be put in every order. */
typedef struct {
    uint8_t at[3], len[3]; /* per slot: offset of the new digits in the slot, and how many */
} NewDigits;

/* A finished choice: the new digits get their labels left to right. */
static int leaf(Canon *canon, State *s, const uint8_t *row)
{
    for (int j = 3 * s->nb; j < 9; j++) {
        uint8_t d = row[s->col[j]];
        if (d && !s->label[d])
            s->label[d] = s->next++;
    }
    return minlex_push(&canon->next, s, canon->bound);
}

/* Every order of the new digits of slots k.. (they write the row alike). */
static int spread(Canon *canon, const State *s, const uint8_t *row, const NewDigits *nd, int k)
{
    while (k < 3 && nd->len[k] < 2)
        k++;
    if (k == 3) {
        State done = *s;
        return leaf(canon, &done, row);
    }
    int n = nd->len[k], first = 3 * k + nd->at[k];
    const uint8_t(*perms)[3] = n == 2 ? PERM2 : PERM3;
    for (int p = 0; p < (n == 2 ? 2 : 6); p++) {
        State t = *s;
        for (int i = 0; i < n; i++)
            t.col[first + i] = s->col[first + perms[p][i]];
        int status = spread(canon, &t, row, nd, k + 1);
        if (status != MINLEX_OK)
            return status;
    }
    return MINLEX_OK;
}

/* Slot k's blank columns split by the row: its blanks (still one cell), then its known
 * labels ascending, then its new digits (their order open: recorded in nd). */
static void refine(State *s, const uint8_t *row, int k, NewDigits *nd)
{
    uint8_t blanks[3], known[3], fresh[3];
    int nb = 0, nk = 0, nf = 0, z = s->zero[k];
    uint8_t *cols = s->col + 3 * k;
    for (int i = 0; i < z; i++) {
        uint8_t d = row[cols[i]];
        if (!d)
            blanks[nb++] = cols[i];
        else if (s->label[d]) {
            int j = nk++;
            for (; j > 0 && s->label[row[known[j - 1]]] > s->label[d]; j--)
                known[j] = known[j - 1];
            known[j] = cols[i];
        } else
            fresh[nf++] = cols[i];
    }
    memcpy(cols, blanks, (size_t)nb);
    memcpy(cols + nb, known, (size_t)nk);
    memcpy(cols + nb + nk, fresh, (size_t)nf);
    s->zero[k] = (uint8_t)nb;
    nd->at[k] = (uint8_t)(nb + nk);
    nd->len[k] = (uint8_t)nf;
}

/* Every state that state s becomes by writing source row r as small as it can. */
static int expand(Canon *canon, const State *s, int r)
{
    const uint8_t *row = canon->src[s->t][r];
    State base = *s;
    if (s->rows_left)
        base.rows_left = (uint16_t)(s->rows_left & ~(1u << r));
    else {
        base.rows_left = (uint16_t)(7u << (3 * (r / 3)) & ~(1u << r));
        base.bands_left = (uint8_t)(s->bands_left & ~(1u << (r / 3)));
    }
    int keys[3], stacks[3], n = 0;
    for (int stack = 0; stack < 3; stack++)
        if (s->blank >> stack & 1) {
            int key = stack_key(s, row, stack), i = n++;
            for (; i > 0 && keys[i - 1] > key; i--) {
                keys[i] = keys[i - 1];
                stacks[i] = stacks[i - 1];
            }
            keys[i] = key;
            stacks[i] = stack;
        }
    int nz = 0;
    base.blank = 0;
    while (nz < n && keys[nz] == 0)
        base.blank |= (uint8_t)(1u << stacks[nz++]);
    base.nb = (uint8_t)nz;
    for (int k = 0; k < nz; k++) {
        base.stack[k] = base.zero[k] = 0;
        memset(base.col + 3 * k, 0, 3);
    }
    for (int k = nz; k < n; k++) {
        base.stack[k] = (uint8_t)stacks[k];
        base.zero[k] = 3;
        for (int i = 0; i < 3; i++)
            base.col[3 * k + i] = (uint8_t)(3 * stacks[k] + i);
    }
    NewDigits nd = {{0, 0, 0}, {0, 0, 0}};
    for (int k = nz; k < 3; k++)
        refine(&base, row, k, &nd);
    /* placed stacks that write the row alike (at most one run of them): every order */
    int run = nz, len = 0;
    for (int k = nz; k < n && !len; k++) {
        int j = k + 1;
        while (j < n && keys[j] == keys[k])
            j++;
        if (j - k > 1)
            run = k, len = j - k;
    }
    if (len < 2)
        return spread(canon, &base, row, &nd, nz);
    const uint8_t(*perms)[3] = len == 2 ? PERM2 : PERM3;
    for (int p = 0; p < (len == 2 ? 2 : 6); p++) {
        State t = base;
        NewDigits tn = nd;
        for (int i = 0; i < len; i++) {
            int from = run + perms[p][i], to = run + i;
            t.stack[to] = base.stack[from];
            t.zero[to] = base.zero[from];
            memcpy(t.col + 3 * to, base.col + 3 * from, 3);
            tn.at[to] = nd.at[from];
            tn.len[to] = nd.len[from];
        }
        int status = spread(canon, &t, row, &tn, nz);
        if (status != MINLEX_OK)
            return status;
    }
    return MINLEX_OK;
}

int minlex_extend(Canon *canon, int level)
{
    uint8_t best[9], vals[9];
    memset(best, 0xff, sizeof best);
    States *now = &canon->now;
    for (size_t i = 0; i < now->len; i++) {
        const State *s = &now->at[i];
        for (unsigned rows = candidates(canon, s); rows; rows &= rows - 1) {
            write_row(s, canon->src[s->t][__builtin_ctz(rows)], vals);
            if (memcmp(vals, best, 9) < 0)
                memcpy(best, vals, 9);
        }
    }
    memcpy(canon->out + 9 * level, best, 9);
    if (level == 8)
        return MINLEX_OK;
    canon->next.len = 0;
    for (size_t i = 0; i < now->len; i++) {
        const State *s = &now->at[i];
        for (unsigned rows = candidates(canon, s); rows; rows &= rows - 1) {
            int r = __builtin_ctz(rows);
            write_row(s, canon->src[s->t][r], vals);
            if (memcmp(vals, best, 9) == 0) {
                int status = expand(canon, s, r);
                if (status != MINLEX_OK)
                    return status;
            }
        }
    }
    minlex_merge(&canon->next);
    States swap = canon->now;
    canon->now = canon->next;
    canon->next = swap;
    return MINLEX_OK;
}
