/* Full grids: the top two canonical rows found together (full.py's full_second_rows).
 *
 * The top row reads 1..9 under any column order, so the labels are the output positions
 * of its columns, and the second row at output position j reads 1 + pos(pi(sigma j)),
 * pi(c) being the top-row column holding the second row's digit of column c.  Positions
 * are filled left to right; a target column not placed yet goes to the earliest free
 * position its stack allows, and only the choice of sigma j branches. */
#include <stdlib.h>
#include <string.h>

#include "search.h"

/* A partial column order for one orientation, its top row and its second row. */
typedef struct {
    uint8_t t, top, second;
    int8_t pi[9];
    int8_t sigma[9];    /* the source column at output position j (-1: open) */
    int8_t inv[9];      /* the output position of source column c (-1: open) */
    int8_t stack_at[3]; /* the source stack at slot k (-1: open) */
    int8_t slot_of[3];  /* the slot of source stack s (-1: open) */
    uint8_t fill[3];    /* how many columns slot k holds */
} Order;

typedef struct {
    Order *at;
    size_t len, cap;
} Orders;

static int push(Orders *orders, const Order *order, size_t bound)
{
    if (orders->len >= bound)
        return MINLEX_TOO_BIG;
    if (orders->len == orders->cap) {
        size_t cap = orders->cap ? 2 * orders->cap : 64;
        Order *at = realloc(orders->at, cap * sizeof(Order));
        if (!at)
            return MINLEX_NO_MEMORY;
        orders->at = at;
        orders->cap = cap;
    }
    orders->at[orders->len++] = *order;
    return MINLEX_OK;
}

/* Every top row, second row of its band and orientation, nothing placed. */
static int first_orders(const Canon *canon, Orders *orders)
{
    Order o;
    memset(&o, -1, sizeof o);
    memset(o.fill, 0, sizeof o.fill);
    for (int t = 0; t < 2; t++)
        for (int r0 = 0; r0 < 9; r0++) {
            int8_t pos0[10];
            for (int c = 0; c < 9; c++)
                pos0[canon->src[t][r0][c]] = (int8_t)c;
            for (int r1 = r0 / 3 * 3; r1 < r0 / 3 * 3 + 3; r1++) {
                if (r1 == r0)
                    continue;
                o.t = (uint8_t)t, o.top = (uint8_t)r0, o.second = (uint8_t)r1;
                for (int c = 0; c < 9; c++)
                    o.pi[c] = pos0[canon->src[t][r1][c]];
                int status = push(orders, &o, canon->bound);
                if (status != MINLEX_OK)
                    return status;
            }
        }
    return MINLEX_OK;
}

/* Order o with sigma j = c, the second row's target placed as early as it may go: the
 * value it writes at position j. */
static int place(Order *o, int j, int c)
{
    int k = j / 3;
    if (o->sigma[j] < 0) {
        if (o->stack_at[k] < 0) {
            o->stack_at[k] = (int8_t)(c / 3);
            o->slot_of[c / 3] = (int8_t)k;
        }
        o->sigma[j] = (int8_t)c;
        o->inv[c] = (int8_t)j;
        o->fill[k]++;
    }
    int target = o->pi[c];
    if (o->inv[target] < 0) {
        int stack = target / 3;
        if (o->slot_of[stack] < 0) {
            int slot = 0;
            while (o->stack_at[slot] >= 0)
                slot++;
            o->stack_at[slot] = (int8_t)stack;
            o->slot_of[stack] = (int8_t)slot;
        }
        int slot = o->slot_of[stack], p = slot * 3 + o->fill[slot]++;
        o->sigma[p] = (int8_t)target;
        o->inv[target] = (int8_t)p;
    }
    return o->inv[target] + 1;
}

/* The columns sigma j may take: its own, the open ones of its slot's stack, or those of
 * any stack not placed. */
static unsigned choices(const Order *o, int j)
{
    if (o->sigma[j] >= 0)
        return 1u << o->sigma[j];
    unsigned open = 0;
    for (int c = 0; c < 9; c++)
        if (o->stack_at[j / 3] >= 0 ? c / 3 == o->stack_at[j / 3] && o->inv[c] < 0
                                    : o->slot_of[c / 3] < 0)
            open |= 1u << c;
    return open;
}

/* The second row position by position: the frontier keeps the orders writing the least. */
static int second_row(Canon *canon, Orders *frontier, Orders *survivors)
{
    for (int j = 0; j < 9; j++) {
        int best = 10;
        survivors->len = 0;
        for (size_t i = 0; i < frontier->len; i++) {
            const Order *o = &frontier->at[i];
            for (unsigned open = choices(o, j); open; open &= open - 1) {
                Order next = *o;
                int value = place(&next, j, __builtin_ctz(open));
                if (value < best) {
                    best = value;
                    survivors->len = 0;
                }
                if (value == best) {
                    int status = push(survivors, &next, canon->bound);
                    if (status != MINLEX_OK)
                        return status;
                }
            }
        }
        canon->out[9 + j] = (uint8_t)best;
        Orders swap = *frontier;
        *frontier = *survivors;
        *survivors = swap;
    }
    return MINLEX_OK;
}

/* The search state of a finished order: two rows placed, labels from the top row. */
static int to_states(Canon *canon, const Orders *orders)
{
    canon->now.len = 0;
    for (size_t i = 0; i < orders->len; i++) {
        const Order *o = &orders->at[i];
        State s;
        memset(&s, 0, sizeof s);
        s.t = o->t;
        int band = o->top / 3;
        s.rows_left = (uint16_t)(7u << (3 * band) & ~(1u << o->top) & ~(1u << o->second));
        s.bands_left = (uint8_t)(7u & ~(1u << band));
        s.next = 10;
        for (int j = 0; j < 9; j++) {
            s.col[j] = (uint8_t)o->sigma[j];
            s.label[canon->src[o->t][o->top][o->sigma[j]]] = (uint8_t)(j + 1);
        }
        for (int k = 0; k < 3; k++)
            s.stack[k] = (uint8_t)o->stack_at[k];
        int status = minlex_push(&canon->now, &s, canon->bound);
        if (status != MINLEX_OK)
            return status;
    }
    minlex_merge(&canon->now);
    return MINLEX_OK;
}

int minlex_full_top(Canon *canon)
{
    Orders frontier = {NULL, 0, 0}, survivors = {NULL, 0, 0};
    for (int j = 0; j < 9; j++)
        canon->out[j] = (uint8_t)(j + 1);
    int status = first_orders(canon, &frontier);
    if (status == MINLEX_OK)
        status = second_row(canon, &frontier, &survivors);
    if (status == MINLEX_OK)
        status = to_states(canon, &frontier);
    free(frontier.at);
    free(survivors.at);
    return status;
}
