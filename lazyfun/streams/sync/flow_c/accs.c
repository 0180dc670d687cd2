/* A keyed fold's states (see accs.h): Accs, a key's state as an object, and Table, the
 * states of integer keys inline in one table. */
#include "accs.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- Accs: a key's state as an object ------------------------------------------- */

Accs *
new_accs(const Spec *spec)
{
    Accs *accs = PyObject_GC_NewVar(Accs, spec->type, spec->n);
    if (accs == NULL) {
        return NULL;
    }
    memset(accs->slots, 0, sizeof(Slot) * (size_t)spec->n);
    return accs;
}

/* An Accs refers to nothing but its slots' objects, so it is left to the collector only
 * once it holds one (a state of counts and float sums is never in a cycle). */
int
hold(Accs *accs, Py_ssize_t i, PyObject *obj)
{
    if (obj == NULL) {
        return -1;
    }
    Py_XSETREF(accs->slots[i].obj, obj);
    if (!PyObject_GC_IsTracked((PyObject *)accs)) {
        PyObject_GC_Track((PyObject *)accs);
    }
    return 0;
}

PyObject *
exact_of(const Spec *spec, double hi, double lo)
{
    PyObject *exact = PyObject_CallNoArgs(spec->exact);
    if (exact == NULL) {
        return NULL;
    }
    PyObject *high = PyFloat_FromDouble(hi), *low = PyFloat_FromDouble(lo);
    if (high == NULL || low == NULL || PyList_Append(exact, high) < 0
        || PyList_Append(exact, low) < 0) {
        Py_CLEAR(exact);
    }
    Py_XDECREF(high);
    Py_XDECREF(low);
    return exact;
}

PyObject *
accs_list(const Spec *spec, const Accs *accs)
{
    PyObject *list = PyList_New(spec->n);
    for (Py_ssize_t i = 0; list != NULL && i < spec->n; i++) {
        const Slot *slot = &accs->slots[i];
        PyObject *acc = slot->obj != NULL                 ? Py_NewRef(slot->obj)
                        : spec->ops[i] == FOLD_COUNT ? PyLong_FromLongLong(slot->count)
                                                     : exact_of(spec, slot->hi, slot->lo);
        if (acc == NULL) {
            Py_CLEAR(list);
        } else {
            PyList_SET_ITEM(list, i, acc);
        }
    }
    return list;
}

/* A sum of floats' value from its two: hi + lo, hi alone where lo is zero (-0.0 kept). */
static PyObject *
float_sum(double hi, double lo)
{
    return PyFloat_FromDouble(lo == 0.0 ? hi : hi + lo);
}

PyObject *
accs_values(const Spec *spec, const Accs *accs, PyObject *names, PyObject *ends)
{
    PyObject *values = PyDict_New();
    for (Py_ssize_t i = 0; values != NULL && i < spec->n; i++) {
        const Slot *slot = &accs->slots[i];
        PyObject *end = PyTuple_GET_ITEM(ends, i), *value;
        if (slot->obj != NULL) {
            value = end == Py_None ? Py_NewRef(slot->obj) : PyObject_CallOneArg(end, slot->obj);
        } else if (spec->ops[i] == FOLD_COUNT) {
            value = PyLong_FromLongLong(slot->count);
        } else {
            value = float_sum(slot->hi, slot->lo);
        }
        if (value == NULL || PyDict_SetItem(values, PyTuple_GET_ITEM(names, i), value) < 0) {
            Py_CLEAR(values);
        }
        Py_XDECREF(value);
    }
    return values;
}

PyObject *
accs_sizeof(Accs *self, PyObject *Py_UNUSED(ignored))
{
    Py_ssize_t size = Py_TYPE(self)->tp_basicsize + Py_SIZE(self) * Py_TYPE(self)->tp_itemsize;
    for (Py_ssize_t i = 0; i < Py_SIZE(self); i++) {
        if (self->slots[i].obj == NULL) {
            continue;
        }
        PyObject *inner = PyObject_CallMethod(self->slots[i].obj, "__sizeof__", NULL);
        if (inner == NULL) {
            return NULL;
        }
        size += PyLong_AsSsize_t(inner);
        Py_DECREF(inner);
        if (PyErr_Occurred()) {
            return NULL;
        }
    }
    return PyLong_FromSsize_t(size);
}

int
accs_traverse(Accs *self, visitproc visit, void *arg)
{
    for (Py_ssize_t i = 0; i < Py_SIZE(self); i++) {
        Py_VISIT(self->slots[i].obj);
    }
    return 0;
}

int
accs_clear(Accs *self)
{
    for (Py_ssize_t i = 0; i < Py_SIZE(self); i++) {
        Py_CLEAR(self->slots[i].obj);
    }
    return 0;
}

void
accs_dealloc(Accs *self)
{
    PyObject_GC_UnTrack(self);
    accs_clear(self);
    PyObject_GC_Del(self);
}

/* ---- Table: integer keys' states inline ------------------------------------------ */

typedef struct {
    long long key;
    long long full;  /* 0: an empty entry */
    Cell cells[];
} Entry;

enum { TABLE_FIRST = 64 };  /* entries of a new table */

static Entry *
entry_at(const Table *table, Py_ssize_t i)
{
    return (Entry *)(table->entries + i * table->stride);
}

/* Where key's search starts: Fibonacci hashing, the product's high bits. */
static Py_ssize_t
home(const Table *table, long long key)
{
    uint64_t mixed = (uint64_t)key * UINT64_C(0x9E3779B97F4A7C15);
    return (Py_ssize_t)(mixed >> table->shift);
}

static int
allocate(Table *table, Py_ssize_t capacity)
{
    table->entries = PyMem_Calloc((size_t)capacity, (size_t)table->stride);
    if (table->entries == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    table->capacity = capacity;
    table->shift = 64 - __builtin_ctzll((unsigned long long)capacity);
    return 0;
}

int
table_init(Table *table, Py_ssize_t n)
{
    table->n = n;
    table->stride = (Py_ssize_t)(sizeof(Entry) + sizeof(Cell) * (size_t)n);
    table->used = 0;
    table->order = NULL;
    return allocate(table, TABLE_FIRST);
}

void
table_free(Table *table)
{
    PyMem_Free(table->entries);
    PyMem_Free(table->order);
    table->entries = NULL;
    table->order = NULL;
    table->capacity = table->used = 0;
}

void
table_touch(const Table *table, long long key)
{
    __builtin_prefetch(entry_at(table, home(table, key)), 1);
}

Cell *
table_find(const Table *table, long long key)
{
    for (Py_ssize_t i = home(table, key);; i = (i + 1) & (table->capacity - 1)) {
        Entry *entry = entry_at(table, i);
        if (!entry->full) {
            return NULL;
        }
        if (entry->key == key) {
            return entry->cells;
        }
    }
}

/* The table twice as large, its entries placed again. */
static int
table_grow(Table *table)
{
    Table old = *table;
    if (allocate(table, old.capacity * 2) < 0) {
        *table = old;
        return -1;
    }
    for (Py_ssize_t j = 0; j < old.capacity; j++) {
        Entry *entry = entry_at(&old, j);
        if (!entry->full) {
            continue;
        }
        Py_ssize_t i = home(table, entry->key);
        while (entry_at(table, i)->full) {
            i = (i + 1) & (table->capacity - 1);
        }
        memcpy(entry_at(table, i), entry, (size_t)table->stride);
    }
    PyMem_Free(old.entries);
    return 0;
}

Cell *
table_add(Table *table, long long key)
{
    if (2 * (table->used + 1) > table->capacity && table_grow(table) < 0) {
        return NULL;
    }
    if ((table->used & (table->used - 1)) == 0) {  /* 0, 1, 2, 4, ...: the order grows */
        size_t room = (size_t)(table->used ? 2 * table->used : 1);
        long long *order = PyMem_Realloc(table->order, room * sizeof(long long));
        if (order == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        table->order = order;
    }
    Py_ssize_t i = home(table, key);
    while (entry_at(table, i)->full) {
        i = (i + 1) & (table->capacity - 1);
    }
    Entry *entry = entry_at(table, i);
    entry->key = key;
    entry->full = 1;
    table->order[table->used++] = key;
    return entry->cells;
}

Py_ssize_t
table_bytes(const Table *table)
{
    return table->capacity * table->stride + table->used * (Py_ssize_t)sizeof(long long);
}

Accs *
table_accs(const Spec *spec, const Cell *cells)
{
    Accs *accs = new_accs(spec);
    for (Py_ssize_t i = 0; accs != NULL && i < spec->n; i++) {
        if (spec->ops[i] == FOLD_COUNT) {
            accs->slots[i].count = cells[i].a.count;
        } else {
            accs->slots[i].hi = cells[i].a.hi;
            accs->slots[i].lo = cells[i].lo;
        }
    }
    return accs;
}

PyObject *
table_dict(const Spec *spec, const Table *table)
{
    PyObject *dict = PyDict_New();
    for (Py_ssize_t j = 0; dict != NULL && j < table->used; j++) {
        PyObject *key = PyLong_FromLongLong(table->order[j]);
        PyObject *accs = (PyObject *)table_accs(spec, table_find(table, table->order[j]));
        if (key == NULL || accs == NULL || PyDict_SetItem(dict, key, accs) < 0) {
            Py_CLEAR(dict);
        }
        Py_XDECREF(key);
        Py_XDECREF(accs);
    }
    return dict;
}

PyObject *
table_values(const Spec *spec, const Table *table, PyObject *names)
{
    PyObject *made = PyDict_New();
    for (Py_ssize_t j = 0; made != NULL && j < table->used; j++) {
        const Cell *cells = table_find(table, table->order[j]);
        PyObject *key = PyLong_FromLongLong(table->order[j]), *values = PyDict_New();
        for (Py_ssize_t i = 0; values != NULL && i < spec->n; i++) {
            PyObject *value = spec->ops[i] == FOLD_COUNT ? PyLong_FromLongLong(cells[i].a.count)
                                                         : float_sum(cells[i].a.hi, cells[i].lo);
            if (value == NULL || PyDict_SetItem(values, PyTuple_GET_ITEM(names, i), value) < 0) {
                Py_CLEAR(values);
            }
            Py_XDECREF(value);
        }
        if (key == NULL || values == NULL || PyDict_SetItem(made, key, values) < 0) {
            Py_CLEAR(made);
        }
        Py_XDECREF(key);
        Py_XDECREF(values);
    }
    return made;
}
