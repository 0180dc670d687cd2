/* The sort's two helpers in C (lazyfun.streams.sorting): by_fields, a run in the order
 * of its key's fields, and holds, the check that lets a run be spilled by msgspec.
 *
 * by_fields(items, fields, reverse): the fast engine beside
 * lazyfun.streams.sorting._by_each_field, with the same answers.
 *
 * fields is a list a field, each field a list of the items' values at its place, all
 * of one type: int (in 64 bits), float (none NaN), str or bytes.  The items come back in
 * a new list, sorted stably by the tuples of their fields (reverse: greatest first, the
 * equal ones still in the order given), as Python's sort by those tuples gives them.
 * None where a field is not such (the caller sorts in Python).
 *
 * One merge sort of entries (the first field's value, the item's place): the first
 * field decides most comparisons from the entries themselves, in order in memory; the
 * later fields are read, by place, only on its ties.  A first field of ints (from
 * RADIX_LEAST entries) is sorted by radix instead, in passes over its span, and each
 * run of its equal values then by the later fields.  No Python code runs: a str or
 * bytes is compared by its data, as Python compares them.
 *
 * by_fields(items, fields, reverse, ends): the same order, where items already holds
 * runs in it, each ending at the next of ends (a merge's parts): the runs merged in
 * pairs, stably, the earlier first on equal fields.
 *
 * fields_of(items, names): the lists by_fields takes, a list a name of each item's
 * value of the slot of that name (a Struct's field, a slotted class's: read by offset,
 * no code runs), all items of the class of the first; None where they are not such.
 *
 * holds(items, kind, names, allowed): whether every item is of the class kind itself
 * and its field names[f], a slot (seen_field: no code runs), holds a value whose type is
 * one of the tuple allowed[f] itself (no subclass).  False where a field is no slot. */
#include <stdint.h>
#include <string.h>

#include "steps.h"

enum kind { INT, FLOAT, TEXT, BYTES };

typedef union {
    int64_t i;
    double f;
    PyObject *o;  /* borrowed from the field's list */
} Value;

typedef struct {
    Value first;
    Py_ssize_t at;
} Entry;

typedef struct {
    enum kind kind;
    Value *values;
} Field;

typedef struct {
    Field *fields;
    Py_ssize_t count;
    int sign;  /* 1, or -1 for reverse */
} Order;

static int
compare_text(PyObject *a, PyObject *b)
{
    if (a == b) {
        return 0;
    }
    Py_ssize_t la = PyUnicode_GET_LENGTH(a), lb = PyUnicode_GET_LENGTH(b);
    Py_ssize_t n = la < lb ? la : lb;
    int ka = PyUnicode_KIND(a), kb = PyUnicode_KIND(b);
    const void *da = PyUnicode_DATA(a), *db = PyUnicode_DATA(b);
    if (ka == PyUnicode_1BYTE_KIND && kb == PyUnicode_1BYTE_KIND) {
        int c = memcmp(da, db, (size_t)n);
        if (c != 0) {
            return c;
        }
    }
    else {
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_UCS4 ca = PyUnicode_READ(ka, da, i), cb = PyUnicode_READ(kb, db, i);
            if (ca != cb) {
                return ca < cb ? -1 : 1;
            }
        }
    }
    return (la > lb) - (la < lb);
}

static int
compare_bytes(PyObject *a, PyObject *b)
{
    Py_ssize_t la = PyBytes_GET_SIZE(a), lb = PyBytes_GET_SIZE(b);
    int c = memcmp(PyBytes_AS_STRING(a), PyBytes_AS_STRING(b), (size_t)(la < lb ? la : lb));
    return c != 0 ? c : (la > lb) - (la < lb);
}

static int
compare_value(enum kind kind, Value a, Value b)
{
    switch (kind) {
    case INT:
        return (a.i > b.i) - (a.i < b.i);
    case FLOAT:
        return (a.f > b.f) - (a.f < b.f);
    case TEXT:
        return compare_text(a.o, b.o);
    default:
        return compare_bytes(a.o, b.o);
    }
}

/* Whether entry b goes before entry a: its tuple of fields less (greater for reverse). */
static inline int
before(const Order *order, const Entry *b, const Entry *a)
{
    int c = compare_value(order->fields[0].kind, b->first, a->first);
    for (Py_ssize_t f = 1; c == 0 && f < order->count; f++) {
        const Field *field = &order->fields[f];
        c = compare_value(field->kind, field->values[b->at], field->values[a->at]);
    }
    return c * order->sign < 0;
}

#define SMALL 24  /* entries sorted by insertion before the merges */

static void
insertion(const Order *order, Entry *entries, Py_ssize_t n)
{
    for (Py_ssize_t i = 1; i < n; i++) {
        Entry moved = entries[i];
        Py_ssize_t j = i;
        while (j > 0 && before(order, &moved, &entries[j - 1])) {
            entries[j] = entries[j - 1];
            j--;
        }
        entries[j] = moved;
    }
}

/* Merge the sorted halves [0, middle) and [middle, n) of entries, stably, through
 * scratch; nothing moves where they are in order already. */
static void
merge(const Order *order, Entry *entries, Py_ssize_t middle, Py_ssize_t n, Entry *scratch)
{
    if (!before(order, &entries[middle], &entries[middle - 1])) {
        return;
    }
    memcpy(scratch, entries, (size_t)middle * sizeof(Entry));
    Py_ssize_t i = 0, j = middle, k = 0;
    while (i < middle && j < n) {
        entries[k++] = before(order, &entries[j], &scratch[i]) ? entries[j++] : scratch[i++];
    }
    memcpy(&entries[k], &scratch[i], (size_t)(middle - i) * sizeof(Entry));
}

static void
merge_sort(const Order *order, Entry *entries, Py_ssize_t n, Entry *scratch)
{
    if (n <= SMALL) {
        insertion(order, entries, n);
        return;
    }
    Py_ssize_t middle = n / 2;
    merge_sort(order, entries, middle, scratch);
    merge_sort(order, entries + middle, n - middle, scratch);
    merge(order, entries, middle, n, scratch);
}

#define DIGIT 11  /* bits of a radix sort's pass */
#define RADIX_LEAST 256  /* entries from which a first field of ints is sorted by radix */

/* The radix key of an entry: its first field's distance from the least (from the most
 * for reverse), an order of unsigned ints that is the field's (reversed). */
static inline uint64_t
radix_key(const Entry *entry, int64_t least, int64_t most, int reverse)
{
    return reverse ? (uint64_t)most - (uint64_t)entry->first.i
                   : (uint64_t)entry->first.i - (uint64_t)least;
}

/* Sort entries, whose first field holds ints, stably: by the first field a digit of
 * DIGIT bits a pass, the least significant first, over the span of its values (two
 * passes for ids under four million), then each run of equal firsts by the later
 * fields (merge_sort).  spare holds n entries. */
static void
radix_sort(const Order *order, Entry *entries, Py_ssize_t n, Entry *spare)
{
    int64_t least = entries[0].first.i, most = least;
    for (Py_ssize_t i = 1; i < n; i++) {
        int64_t value = entries[i].first.i;
        least = value < least ? value : least;
        most = value > most ? value : most;
    }
    int reverse = order->sign < 0;
    uint64_t span = (uint64_t)most - (uint64_t)least;
    Entry *from = entries, *to = spare;
    static Py_ssize_t starts[1 << DIGIT];  /* under the GIL: one sort at a time */
    for (int shift = 0; shift < 64 && (span >> shift) != 0; shift += DIGIT) {
        memset(starts, 0, sizeof starts);
        for (Py_ssize_t i = 0; i < n; i++) {
            starts[(radix_key(&from[i], least, most, reverse) >> shift) & ((1 << DIGIT) - 1)]++;
        }
        Py_ssize_t total = 0;
        for (int d = 0; d < (1 << DIGIT); d++) {
            Py_ssize_t count = starts[d];
            starts[d] = total;
            total += count;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            uint64_t d = (radix_key(&from[i], least, most, reverse) >> shift) & ((1 << DIGIT) - 1);
            to[starts[d]++] = from[i];
        }
        Entry *swapped = from;
        from = to;
        to = swapped;
    }
    if (from != entries) {
        memcpy(entries, from, (size_t)n * sizeof(Entry));
    }
    for (Py_ssize_t start = 0; order->count > 1 && start < n;) {
        Py_ssize_t end = start + 1;
        while (end < n && entries[end].first.i == entries[start].first.i) {
            end++;
        }
        if (end - start > 1) {
            merge_sort(order, entries + start, end - start, spare);
        }
        start = end;
    }
}

/* The kind of a field's values and the values, into field; 0 where the field is not of
 * one kind by_fields sorts (no error set), -1 on an error. */
static int
read_values(PyObject *values, Py_ssize_t n, Field *field)
{
    if (!PyList_CheckExact(values) || PyList_GET_SIZE(values) != n) {
        PyErr_SetString(PyExc_ValueError, "by_fields: each field a list of one value an item");
        return -1;
    }
    PyTypeObject *type = Py_TYPE(PyList_GET_ITEM(values, 0));
    if (type == &PyLong_Type) {
        field->kind = INT;
    }
    else if (type == &PyFloat_Type) {
        field->kind = FLOAT;
    }
    else if (type == &PyUnicode_Type) {
        field->kind = TEXT;
    }
    else if (type == &PyBytes_Type) {
        field->kind = BYTES;
    }
    else {
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *value = PyList_GET_ITEM(values, i);
        if (Py_TYPE(value) != type) {
            return 0;
        }
        Value *into = &field->values[i];
        if (field->kind == INT) {
            int overflow;
            into->i = PyLong_AsLongLongAndOverflow(value, &overflow);
            if (overflow) {
                return 0;
            }
        }
        else if (field->kind == FLOAT) {
            into->f = PyFloat_AS_DOUBLE(value);
            if (into->f != into->f) {
                return 0;  /* NaN: no order holds */
            }
        }
        else {
            into->o = value;
        }
    }
    return 1;
}

/* Merge the sorted runs of entries that end at ends[0], ..., ends[runs - 1] (== n), two
 * neighbours at a time, stably, until one is left; scratch holds n entries. */
static void
merge_runs(const Order *order, Entry *entries, Py_ssize_t *ends, Py_ssize_t runs, Entry *scratch)
{
    while (runs > 1) {
        Py_ssize_t kept = 0, start = 0;
        for (Py_ssize_t r = 0; r < runs; r += 2) {
            Py_ssize_t end = ends[r + (r + 1 < runs)];
            if (r + 1 < runs && ends[r] > start && end > ends[r]) {
                merge(order, entries + start, ends[r] - start, end - start, scratch);
            }
            ends[kept++] = start = end;
        }
        runs = kept;
    }
}

/* items in a new list in order: sorted, or, given ends (runs of them), their runs merged */
static PyObject *
sorted_items(PyObject *items, const Order *order, Py_ssize_t n, Py_ssize_t *ends, Py_ssize_t runs)
{
    int radix = ends == NULL && order->fields[0].kind == INT && n >= RADIX_LEAST;
    Entry *entries = PyMem_Malloc((size_t)n * sizeof(Entry));
    Entry *scratch = PyMem_Malloc((size_t)(radix || ends ? n : n / 2 + 1) * sizeof(Entry));
    if (entries == NULL || scratch == NULL) {
        PyMem_Free(entries);
        PyMem_Free(scratch);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        entries[i].first = order->fields[0].values[i];
        entries[i].at = i;
    }
    if (ends != NULL) {
        merge_runs(order, entries, ends, runs, scratch);
    }
    else if (radix) {
        radix_sort(order, entries, n, scratch);
    }
    else {
        merge_sort(order, entries, n, scratch);
    }
    PyMem_Free(scratch);
    PyObject *sorted = PyList_New(n);
    if (sorted != NULL) {
        for (Py_ssize_t i = 0; i < n; i++) {
            PyList_SET_ITEM(sorted, i, Py_NewRef(PyList_GET_ITEM(items, entries[i].at)));
        }
    }
    PyMem_Free(entries);
    return sorted;
}

/* The ends of the runs, from the list given, into a new array *ends; how many, or -1
 * with an error where they do not rise to n. */
static Py_ssize_t
run_ends(PyObject *given, Py_ssize_t n, Py_ssize_t **ends)
{
    Py_ssize_t runs = PyList_GET_SIZE(given), last = 0;
    *ends = PyMem_Malloc((size_t)(runs + 1) * sizeof(Py_ssize_t));
    if (*ends == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t r = 0; r < runs; r++) {
        Py_ssize_t end = PyLong_AsSsize_t(PyList_GET_ITEM(given, r));
        if (end == -1 && PyErr_Occurred()) {
            break;
        }
        if (end < last || end > n) {
            PyErr_SetString(PyExc_ValueError, "by_fields: ends rise from 0 to the items' count");
            break;
        }
        (*ends)[r] = last = end;
    }
    if (!PyErr_Occurred() && last != n) {
        PyErr_SetString(PyExc_ValueError, "by_fields: the last end is the items' count");
    }
    if (PyErr_Occurred()) {
        PyMem_Free(*ends);
        *ends = NULL;
        return -1;
    }
    return runs;
}

INTERNAL PyObject *
by_fields(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 3 || nargs > 4 || !PyList_CheckExact(args[0]) || !PyList_CheckExact(args[1])
        || (nargs == 4 && args[3] != Py_None && !PyList_CheckExact(args[3]))) {
        PyErr_SetString(PyExc_TypeError,
                        "by_fields(items: list, fields: list, reverse, ends: list | None = None)");
        return NULL;
    }
    PyObject *items = args[0], *lists = args[1];
    int reverse = PyObject_IsTrue(args[2]);
    if (reverse < 0) {
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(items), count = PyList_GET_SIZE(lists);
    Py_ssize_t *ends = NULL, runs = 0;
    if (nargs == 4 && args[3] != Py_None && (runs = run_ends(args[3], n, &ends)) < 0) {
        return NULL;
    }
    if (n == 0 || count == 0) {
        PyMem_Free(ends);
        return PyList_GetSlice(items, 0, n);
    }
    Order order = {PyMem_Calloc((size_t)count, sizeof(Field)), count, reverse ? -1 : 1};
    PyObject *result = NULL;
    if (order.fields == NULL) {
        PyMem_Free(ends);
        return PyErr_NoMemory();
    }
    int readable = 1;
    for (Py_ssize_t f = 0; readable == 1 && f < count; f++) {
        order.fields[f].values = PyMem_Malloc((size_t)n * sizeof(Value));
        if (order.fields[f].values == NULL) {
            PyErr_NoMemory();
            readable = -1;
        }
        else {
            readable = read_values(PyList_GET_ITEM(lists, f), n, &order.fields[f]);
        }
    }
    if (readable == 1) {
        result = sorted_items(items, &order, n, ends, runs);
    }
    else if (readable == 0) {
        result = Py_NewRef(Py_None);
    }
    for (Py_ssize_t f = 0; f < count; f++) {
        PyMem_Free(order.fields[f].values);
    }
    PyMem_Free(order.fields);
    PyMem_Free(ends);
    return result;
}

INTERNAL PyObject *
holds(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (frame_arguments("holds", args, nargs) < 0) {
        return NULL;
    }
    Py_ssize_t count = PyTuple_GET_SIZE(args[2]);
    Py_ssize_t *offsets = PyMem_Malloc((size_t)(count + 1) * sizeof(Py_ssize_t));
    if (offsets == NULL) {
        return PyErr_NoMemory();
    }
    int held = held_values(args[0], (PyTypeObject *)args[1], args[2], args[3], offsets, NULL);
    PyMem_Free(offsets);
    return PyBool_FromLong(held);
}

INTERNAL PyObject *
fields_of(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyList_CheckExact(args[0]) || !PyTuple_CheckExact(args[1])) {
        PyErr_SetString(PyExc_TypeError, "fields_of(items: list, names: tuple)");
        return NULL;
    }
    PyObject *items = args[0], *names = args[1];
    Py_ssize_t n = PyList_GET_SIZE(items), count = PyTuple_GET_SIZE(names);
    if (n == 0) {
        return Py_NewRef(Py_None);
    }
    PyTypeObject *kind = Py_TYPE(PyList_GET_ITEM(items, 0));
    Py_ssize_t *offsets = PyMem_Malloc((size_t)(count + 1) * sizeof(Py_ssize_t));
    if (offsets == NULL) {
        return PyErr_NoMemory();
    }
    int found = slot_offsets(kind, names, offsets);
    for (Py_ssize_t i = 0; found && i < n; i++) {
        PyObject *item = PyList_GET_ITEM(items, i);
        found = Py_TYPE(item) == kind;
        for (Py_ssize_t f = 0; found && f < count; f++) {
            found = *(PyObject **)((char *)item + offsets[f]) != NULL;
        }
    }
    PyObject *lists = found ? PyList_New(count) : Py_NewRef(Py_None);
    for (Py_ssize_t f = 0; found && lists != NULL && f < count; f++) {
        PyObject *values = PyList_New(n);
        if (values == NULL) {
            Py_CLEAR(lists);
            break;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *item = PyList_GET_ITEM(items, i);
            PyList_SET_ITEM(values, i, Py_NewRef(*(PyObject **)((char *)item + offsets[f])));
        }
        PyList_SET_ITEM(lists, f, values);
    }
    PyMem_Free(offsets);
    return lists;
}
