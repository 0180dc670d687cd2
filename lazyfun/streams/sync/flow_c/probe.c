/* Probe: a hash join's probe (see steps.h), the loop of lazyfun.streams.sync.vsteps'
 * _pairs with no generator between the items and their pairs. */
#include "steps.h"

#include <structmember.h>

/* How many reads on the items are that look_ahead asks the cache for: an index entry's
 * load takes a few of the loop's turns, then its row's, each out of the cache in a
 * large join (the two loads that held each pair up). */
enum { ROW_AHEAD = 4, INDEX_AHEAD = 12 };

typedef struct {
    PyObject_HEAD
    PyObject *source;    /* the iterator of this side's items */
    PyObject *key;       /* an item's key, called where name is NULL */
    PyObject *name;      /* the field the key reads, or NULL */
    PyObject *first;     /* dict: a key's first row */
    PyObject *index;     /* list: first rows at their int keys (possibly empty) */
    PyObject *more;      /* dict: a key's rows after its first */
    PyObject *matching;  /* set: the key types a key that finds no row may have */
    PyObject *check;     /* check(k, item): a KeyMismatch for a key that can match none */
    PyObject *missing;   /* what index holds where no key is */
    PyObject *item;      /* the item whose later rows are being paired, or NULL */
    PyObject *rows;      /* its later rows (a list), or NULL */
    Py_ssize_t next;     /* the next of rows to pair */
    Py_ssize_t taken;    /* items taken from source */
    int left;            /* pair an item of no rows with None */
    int running;
} Probe;

static PyObject *
pair(PyObject *item, PyObject *row)
{
    return PyTuple_Pack(2, item, row);
}

/* The first row of key k (borrowed), NULL for none; -1 with an error set. */
static int
first_row(Probe *self, PyObject *k, PyObject **row)
{
    *row = NULL;
    if (PyLong_CheckExact(k) && PyList_GET_SIZE(self->index) > 0) {
        int overflow = 0;
        long long at = PyLong_AsLongLongAndOverflow(k, &overflow);
        if (!overflow && at >= 0 && at < PyList_GET_SIZE(self->index)) {
            PyObject *found = PyList_GET_ITEM(self->index, (Py_ssize_t)at);
            *row = found == self->missing ? NULL : found;
            return 0;
        }
    }
    *row = PyDict_GetItemWithError(self->first, k);
    return *row == NULL && PyErr_Occurred() ? -1 : 0;
}

/* An item of no rows: its key's type checked, where it is not known to match. */
static int
unmatched(Probe *self, PyObject *k)
{
    int known = PySet_Contains(self->matching, (PyObject *)Py_TYPE(k));
    if (known < 0) {
        return -1;
    }
    if (known) {
        return 0;
    }
    PyObject *taken = PyLong_FromSsize_t(self->taken);
    if (taken == NULL) {
        return -1;
    }
    PyObject *done = PyObject_CallFunctionObjArgs(self->check, k, taken, NULL);
    Py_DECREF(taken);
    if (done == NULL) {
        return -1;
    }
    Py_DECREF(done);
    return 0;
}

/* The item source gives `ahead` reads after its next, where it is in hand already: in a
 * Runs' run (its next is Runs' own), read through the catches (Guarded) and explain's
 * counts (Tally) that give its items on unchanged; NULL else.  Borrowed; nothing read,
 * no code run. */
static PyObject *
seen_ahead(PyObject *source, Py_ssize_t ahead)
{
    for (;;) {
        if (source != NULL && Py_IS_TYPE(source, &GuardedType)) {
            source = guarded_source(source);
        }
        else if (source != NULL && Py_IS_TYPE(source, &TallyType)) {
            source = tally_source(source);
        }
        else {
            break;
        }
    }
    if (source == NULL || Py_TYPE(source)->tp_iternext != RunsType.tp_iternext) {
        return NULL;
    }
    return runs_ahead(source, ahead);
}

/* Where the key of `item`, an item seen ahead, lies in index; -1 for none or not known. */
static Py_ssize_t
seen_place(Probe *self, PyObject *item)
{
    PyObject *k = item == NULL ? NULL : seen_field(item, self->name);
    if (k == NULL || !PyLong_CheckExact(k)) {
        return -1;
    }
    int overflow = 0;
    long long at = PyLong_AsLongLongAndOverflow(k, &overflow);
    return !overflow && at >= 0 && at < PyList_GET_SIZE(self->index) ? (Py_ssize_t)at : -1;
}

/* Ask the cache for what the items a few reads on will need, where they can be seen
 * without reading them (seen_ahead, seen_field): the index entry of the one INDEX_AHEAD
 * reads on, the row of the one ROW_AHEAD on (whose count its pair raises).  A hint and
 * nothing more: nothing is read from the source and no code runs, so the pairs, the
 * errors and when each item is read are the loop's own. */
static void
look_ahead(Probe *self)
{
    if (self->name == NULL || PyList_GET_SIZE(self->index) == 0) {
        return;
    }
    PyObject **entries = ((PyListObject *)self->index)->ob_item;
    Py_ssize_t at = seen_place(self, seen_ahead(self->source, INDEX_AHEAD));
    if (at >= 0) {
        __builtin_prefetch(&entries[at]);
    }
    at = seen_place(self, seen_ahead(self->source, ROW_AHEAD));
    if (at >= 0 && entries[at] != self->missing) {
        __builtin_prefetch(entries[at], 1);
    }
}

static PyObject *
Probe_step(Probe *self)
{
    if (self->rows != NULL) {  /* the later rows of the item in hand */
        if (self->next < PyList_GET_SIZE(self->rows)) {
            return pair(self->item, PyList_GET_ITEM(self->rows, self->next++));
        }
        Py_CLEAR(self->rows);
        Py_CLEAR(self->item);
    }
    for (;;) {
        PyObject *item = Py_TYPE(self->source)->tp_iternext(self->source);
        if (item == NULL) {
            ended();  /* the end, or the source's error passed on, no item counted */
            return NULL;
        }
        self->taken++;
        look_ahead(self);
        PyObject *k = self->name != NULL ? read_field(item, self->name)
                                         : PyObject_CallOneArg(self->key, item);
        if (k == NULL) {
            Py_DECREF(item);
            return NULL;
        }
        PyObject *row;
        if (first_row(self, k, &row) < 0) {
            Py_DECREF(k);
            Py_DECREF(item);
            return NULL;
        }
        if (row == NULL) {
            int failed = unmatched(self, k);
            Py_DECREF(k);
            if (failed < 0 || !self->left) {
                Py_DECREF(item);
                if (failed < 0) {
                    return NULL;
                }
                continue;
            }
            PyObject *alone = pair(item, Py_None);
            Py_DECREF(item);
            return alone;
        }
        PyObject *result = pair(item, row);
        if (result != NULL && PyDict_GET_SIZE(self->more) > 0) {
            PyObject *rows = PyDict_GetItemWithError(self->more, k);
            if (rows != NULL && PyList_CheckExact(rows)) {
                self->rows = Py_NewRef(rows);
                self->item = Py_NewRef(item);
                self->next = 0;
            }
            else if (PyErr_Occurred()) {
                Py_CLEAR(result);
            }
        }
        Py_DECREF(k);
        Py_DECREF(item);
        return result;
    }
}

static PyObject *
Probe_next(Probe *self)
{
    if (enter(&self->running) < 0) {
        return NULL;
    }
    PyObject *result = Probe_step(self);
    self->running = 0;
    return result;
}

static PyObject *
Probe_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *keywords[] = {"source", "key", "name", "first", "index", "more",
                               "matching", "check", "missing", "left", NULL};
    PyObject *source, *key, *name, *first, *index, *more, *matching, *check, *missing;
    int left;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOO!O!O!O!OOp:Probe", keywords, &source,
                                     &key, &name, &PyDict_Type, &first, &PyList_Type, &index,
                                     &PyDict_Type, &more, &PySet_Type, &matching, &check,
                                     &missing, &left)) {
        return NULL;
    }
    PyObject *iterator = PyObject_GetIter(source);
    if (iterator == NULL) {
        return NULL;
    }
    Probe *self = (Probe *)type->tp_alloc(type, 0);
    if (self == NULL) {
        Py_DECREF(iterator);
        return NULL;
    }
    self->source = iterator;
    self->key = Py_NewRef(key);
    self->name = name == Py_None ? NULL : Py_NewRef(name);
    self->first = Py_NewRef(first);
    self->index = Py_NewRef(index);
    self->more = Py_NewRef(more);
    self->matching = Py_NewRef(matching);
    self->check = Py_NewRef(check);
    self->missing = Py_NewRef(missing);
    self->left = left;
    return (PyObject *)self;
}

static int
Probe_traverse(Probe *self, visitproc visit, void *arg)
{
    Py_VISIT(self->source);
    Py_VISIT(self->key);
    Py_VISIT(self->name);
    Py_VISIT(self->first);
    Py_VISIT(self->index);
    Py_VISIT(self->more);
    Py_VISIT(self->matching);
    Py_VISIT(self->check);
    Py_VISIT(self->missing);
    Py_VISIT(self->item);
    Py_VISIT(self->rows);
    return 0;
}

static int
Probe_clear(Probe *self)
{
    Py_CLEAR(self->source);
    Py_CLEAR(self->key);
    Py_CLEAR(self->name);
    Py_CLEAR(self->first);
    Py_CLEAR(self->index);
    Py_CLEAR(self->more);
    Py_CLEAR(self->matching);
    Py_CLEAR(self->check);
    Py_CLEAR(self->missing);
    Py_CLEAR(self->item);
    Py_CLEAR(self->rows);
    return 0;
}

static void
Probe_dealloc(Probe *self)
{
    PyObject_GC_UnTrack(self);
    Probe_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

PyTypeObject ProbeType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lazyfun.streams.sync._flow.Probe",
    .tp_doc = PyDoc_STR("A hash join's pairs: each item of source with each row of its key."),
    .tp_basicsize = sizeof(Probe),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = Probe_new,
    .tp_traverse = (traverseproc)Probe_traverse,
    .tp_clear = (inquiry)Probe_clear,
    .tp_dealloc = (destructor)Probe_dealloc,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)Probe_next,
};
