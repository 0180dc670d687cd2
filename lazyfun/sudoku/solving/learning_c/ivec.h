/* A growable vector of ints: every push is checked (0, or -1 when memory ran out). */
#ifndef LAZYFUN_IVEC_H
#define LAZYFUN_IVEC_H

#include <stdlib.h>

typedef struct {
    int *data;
    int n, cap;
} ivec;

static int ivec_grow(ivec *v, int x)
{
    int cap = v->cap ? 2 * v->cap : 8;
    int *d = realloc(v->data, (size_t)cap * sizeof(int));
    if (!d)
        return -1;
    v->data = d;
    v->cap = cap;
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

static inline void ivec_free(ivec *v)
{
    free(v->data);
    v->data = NULL;
    v->n = v->cap = 0;
}

#endif
