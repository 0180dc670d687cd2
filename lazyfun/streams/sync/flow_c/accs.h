/* The layer below states.c and folded.c: a keyed fold's states (accs.c), with no
 * Python of their own to call.
 *
 * A key's state is one Slot a reduction.  A count is a C integer and an exact sum, while
 * only floats came, its two floats (hi, lo) as C doubles: no object at all (obj NULL);
 * any other state is the object the Python loop keeps (obj).  In an Accs, a key's state
 * in a dict of states, an object of its own; in a Table, while every key is an integer
 * of 64 bits and every reduction a count or a sum, a Cell a reduction, inline in the
 * table's entry for the key, so that a key's state is one place in memory (a dict of
 * 200,000 Accs is four: the dict's index, its entry, the key object and the Accs). */
#ifndef LAZYFUN_FLOW_ACCS_H
#define LAZYFUN_FLOW_ACCS_H

#include "base.h"

enum { FOLD_COUNT, FOLD_SUM, FOLD_MIN, FOLD_MAX, FOLD_FIRST, FOLD_LAST, FOLD_OTHER, FOLD_OPS };

/* What a key's state is: the type of its object (an Accs's, its methods the fold's),
 * its n reductions' operations, and the class of an exact sum's state as the Python
 * loop keeps it (an _Exact list: [hi, lo, *more]). */
typedef struct {
    PyTypeObject *type;
    Py_ssize_t n;
    int *ops;
    PyObject *exact;
} Spec;

typedef struct {
    PyObject *obj;
    double hi, lo;
    long long count;
} Slot;

typedef struct {
    PyObject_VAR_HEAD
    Slot slots[1];
} Accs;

/* The functions below are the extension's own, hidden outside it (as INTERNAL). */
#pragma GCC visibility push(hidden)

/* A new state of spec's n empty slots, untracked by the collector until one holds an
 * object. */
Accs *new_accs(const Spec *spec);
/* Slot i of accs holds obj from now (taking its reference); -1 if obj is NULL. */
int hold(Accs *accs, Py_ssize_t i, PyObject *obj);
/* An exact sum's two floats as the Python loop keeps them: an _Exact [hi, lo]. */
PyObject *exact_of(const Spec *spec, double hi, double lo);
/* The state as the Python loop keeps it: a list of each reduction's. */
PyObject *accs_list(const Spec *spec, const Accs *accs);
/* A dict of each reduction's name and value: a count's and a sum of floats' made here
 * (hi + lo: one rounding of their exact sum, as math.fsum gives it; hi alone where lo
 * is zero, -0.0 kept), any other state's by its end in ends (None: the state is the
 * value).  names and ends are tuples of n. */
PyObject *accs_values(const Spec *spec, const Accs *accs, PyObject *names,
                      PyObject *ends);
/* What the Accs type's slots do: its bytes and its objects' (one level down), and the
 * collector's visit, clear and dealloc. */
PyObject *accs_sizeof(Accs *self, PyObject *ignored);
int accs_traverse(Accs *self, visitproc visit, void *arg);
int accs_clear(Accs *self);
void accs_dealloc(Accs *self);

/* A reduction's state in a Table: a count, or a sum's two floats. */
typedef struct {
    union {
        long long count;
        double hi;
    } a;
    double lo;
} Cell;

/* Integer keys to their cells, by open addressing (linear probing, at most half full),
 * and the keys in the order they came. */
typedef struct {
    char *entries;      /* capacity entries of stride bytes: key, full, n cells */
    Py_ssize_t capacity, used, stride, n;
    int shift;          /* 64 less the capacity's bits: a hash's high bits place it */
    long long *order;   /* the keys, in the order they came */
} Table;

/* An empty table of n cells a key; -1 with a MemoryError. */
int table_init(Table *table, Py_ssize_t n);
/* Its memory given back (the table is empty after). */
void table_free(Table *table);
/* The cache line where key's search starts asked for ahead of its use (a hint: nothing
 * changes). */
void table_touch(const Table *table, long long key);
/* The cells of key, or NULL where it has none. */
Cell *table_find(const Table *table, long long key);
/* New cells for key, which has none (left for the caller to start); NULL with a
 * MemoryError. */
Cell *table_add(Table *table, long long key);
/* Its bytes. */
Py_ssize_t table_bytes(const Table *table);
/* The state of a table's key as an Accs of spec. */
Accs *table_accs(const Spec *spec, const Cell *cells);
/* The table's states as a dict of key to Accs, in the order the keys came. */
PyObject *table_dict(const Spec *spec, const Table *table);
/* The table's keys' values, a dict of each key's accs_values(names), in order. */
PyObject *table_values(const Spec *spec, const Table *table, PyObject *names);

#pragma GCC visibility pop

#endif
