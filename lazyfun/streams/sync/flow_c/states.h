/* The layer between accs.h and folded.c: a fold's states as one object (states.c).
 *
 * States: while every key is an integer of 64 bits, and where the fold allows it (a
 * key function, and only counts and sums), a Table; from the first item the table
 * cannot hold, a dict of key to Accs, the table's states moved into it in order, and
 * the fold goes on there as it would have from the start.  For Python: len(states),
 * states[k] (an Accs), states.list(k) (the state as the Python loop keeps it) and
 * states.ended(names, ends) (each key's values, in order, the states emptied). */
#ifndef LAZYFUN_FLOW_STATES_H
#define LAZYFUN_FLOW_STATES_H

#include "accs.h"

typedef struct {
    PyObject_HEAD
    PyObject *folder; /* whose states they are: it keeps spec's parts alive */
    Spec spec;
    PyObject *dict;   /* NULL while the table holds them */
    Table table;
} States;

INTERNAL extern PyTypeObject StatesType;

#pragma GCC visibility push(hidden)

/* New empty states of folder's fold, of spec's reductions; in a table if tabled. */
PyObject *new_states(PyObject *folder, const Spec *spec, int tabled);
/* 1 where the table holds k's state (the table in use, k an integer of 64 bits, its
 * value *key, each sum's value a float), else 0 (-1 with an error); nothing changes. */
int table_key(const States *states, PyObject *k, PyObject **values, long long *key);
/* An item's values into the table's state for k: 1 for a new key, 2 for a known one, 0
 * where the table cannot hold them (k no integer of 64 bits, a sum's value no float, a
 * sum that needs more than two floats), nothing changed; -1 with an error. */
int table_fold(States *states, PyObject *k, PyObject **values);
/* The states from the table into a dict, for good; -1 with an error. */
int to_dict(States *states);

#pragma GCC visibility pop

/* TwoSum twice: the exact sum of hi + lo and x as s + t, and the part f left over
 * (0.0 where none is, nan past the floats' range; the Python loop's `if f:`). */
static inline double
two_sums(double hi, double lo, double x, double *s, double *t)
{
    double sum = hi + x, z = sum - hi;
    double e = (hi - (sum - z)) + (x - z);
    double low = lo + e;
    z = low - lo;
    double f = (lo - (low - z)) + (e - z);
    *s = sum;
    *t = low;
    return f;
}

#endif
