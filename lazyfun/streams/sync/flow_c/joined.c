/* Joined: a hash join's pairs, each item of a source with each row of its key in a
 * table read before (see steps.h and lazyfun.streams.sync.vsteps._pairs, its Python). */
#include "steps.h"

typedef struct {
    PyObject_HEAD
    PyObject *source;   /* an iterator; NULL once it ended */
    PyObject *by;       /* the key function, or NULL: by_name */
    PyObject *by_name;  /* the field the key is read by, inline; or NULL */
    PyObject *first;    /* a dict: each key's first row */
    PyObject *more;     /* a dict: a key's rows after its first (a list) */
    PyObject *index;    /* a list: the first row at an int key's place, missing where none */
    PyObject *missing;  /* what index holds where no key is */
    PyObject *matching; /* a set: the key types a key of no rows may have */
    PyObject *check;    /* check(k, n): a KeyMismatch where k can match no key */
    PyObject *item;     /* the item whose rows after the first are being given */
    PyObject *rows;     /* those rows (a list), or NULL */
    Py_ssize_t at;      /* the next of rows */
    Py_ssize_t read;    /* the items read (an error from the source counts none) */
    int left;           /* an item of no rows paired with None */
    int running;
} Joined;

static PyObject *
Joined_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"source", "by", "by_name", "first", "more", "index", "missing",
                            "matching", "check", "left", NULL};
    PyObject *source, *by, *by_name, *first, *more, *index, *missing, *matching, *check;
    int left;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOO!O!O!OO!Op:Joined", names, &source, &by,
                                     &by_name, &PyDict_Type, &first, &PyDict_Type, &more,
                                     &PyList_Type, &index, &missing, &PySet_Type, &matching,
                                     &check, &left)) {
        return NULL;
    }
    if ((by_name == Py_None ? !PyCallable_Check(by) : !PyUnicode_Check(by_name))
        || !PyCallable_Check(check)) {
        PyErr_SetString(PyExc_TypeError, "Joined: a key function or a field's name, and a check");
        return NULL;
    }
    PyObject *items = PyObject_GetIter(source);
    if (items == NULL) {
        return NULL;
    }
    Joined *self = (Joined *)type->tp_alloc(type, 0);
    if (self == NULL) {
        Py_DECREF(items);
        return NULL;
    }
    self->source = items;
    self->by = by_name == Py_None ? Py_NewRef(by) : NULL;
    self->by_name = by_name == Py_None ? NULL : Py_NewRef(by_name);
    self->first = Py_NewRef(first);
    self->more = Py_NewRef(more);
    self->index = Py_NewRef(index);
    self->missing = Py_NewRef(missing);
    self->matching = Py_NewRef(matching);
    self->check = Py_NewRef(check);
    self->left = left;
    return (PyObject *)self;
}

static int
Joined_traverse(Joined *self, visitproc visit, void *arg)
{
    Py_VISIT(self->source);
    Py_VISIT(self->by);
    Py_VISIT(self->by_name);
    Py_VISIT(self->first);
    Py_VISIT(self->more);
    Py_VISIT(self->index);
    Py_VISIT(self->missing);
    Py_VISIT(self->matching);
    Py_VISIT(self->check);
    Py_VISIT(self->item);
    Py_VISIT(self->rows);
    return 0;
}

static int
Joined_clear(Joined *self)
{
    Py_CLEAR(self->source);
    Py_CLEAR(self->by);
    Py_CLEAR(self->by_name);
    Py_CLEAR(self->first);
    Py_CLEAR(self->more);
    Py_CLEAR(self->index);
    Py_CLEAR(self->missing);
    Py_CLEAR(self->matching);
    Py_CLEAR(self->check);
    Py_CLEAR(self->item);
    Py_CLEAR(self->rows);
    return 0;
}

static void
Joined_dealloc(Joined *self)
{
    PyObject_GC_UnTrack(self);
    Joined_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The first row of k (borrowed): at its place in index for an int in its range, else
 * first's; missing where it has none; NULL with an error. */
static PyObject *
first_row(Joined *self, PyObject *k)
{
    if (PyLong_CheckExact(k)) {
        int overflow;
        long long at = PyLong_AsLongLongAndOverflow(k, &overflow);
        if (!overflow && at >= 0 && at < PyList_GET_SIZE(self->index)) {
            return PyList_GET_ITEM(self->index, at);
        }
    }
    PyObject *row = PyDict_GetItemWithError(self->first, k);
    return row != NULL || PyErr_Occurred() ? row : self->missing;
}

/* The pair of item and the first row of k, keeping the rows after it (if any) to give
 * next; for a key of no rows, the check of its type, and (item, None) or nothing. */
static PyObject *
pair_first(Joined *self, PyObject *item, PyObject *k)
{
    PyObject *row = first_row(self, k);
    if (row == NULL) {
        return NULL;
    }
    if (row == self->missing) {
        int known = PySet_Contains(self->matching, (PyObject *)Py_TYPE(k));
        if (known < 0) {
            return NULL;
        }
        if (!known) {
            PyObject *said = PyObject_CallFunction(self->check, "On", k, self->read);
            if (said == NULL) {
                return NULL;
            }
            Py_DECREF(said);
        }
        return self->left ? PyTuple_Pack(2, item, Py_None) : Py_NewRef(Py_None);
    }
    PyObject *pair = PyTuple_Pack(2, item, row);
    if (pair != NULL && PyDict_GET_SIZE(self->more)) {
        PyObject *rows = PyDict_GetItemWithError(self->more, k);
        if (rows != NULL && PyList_Check(rows) && PyList_GET_SIZE(rows)) {
            self->item = Py_NewRef(item);
            self->rows = Py_NewRef(rows);
            self->at = 0;
        } else if (PyErr_Occurred()) {
            Py_CLEAR(pair);
        }
    }
    return pair;
}

static PyObject *
Joined_next_running(Joined *self)
{
    for (;;) {
        if (self->rows != NULL) {
            if (self->at < PyList_GET_SIZE(self->rows)) {
                return PyTuple_Pack(2, self->item, PyList_GET_ITEM(self->rows, self->at++));
            }
            Py_CLEAR(self->rows);
            Py_CLEAR(self->item);
        }
        if (self->source == NULL) {
            return NULL;
        }
        PyObject *item = Py_TYPE(self->source)->tp_iternext(self->source);
        if (item == NULL) {
            if (ended()) {
                Py_CLEAR(self->source);
            }
            return NULL; /* the end, or the source's error at its place */
        }
        self->read++;
        PyObject *k = self->by_name != NULL ? read_field(item, self->by_name)
                                            : PyObject_CallOneArg(self->by, item);
        PyObject *pair = k == NULL ? NULL : pair_first(self, item, k);
        Py_XDECREF(k);
        Py_DECREF(item);
        if (pair != Py_None) {
            return pair; /* a pair, or an error at its item's place */
        }
        Py_DECREF(pair); /* an item of no rows, and no left join: the next */
    }
}

static PyObject *
Joined_next(Joined *self)
{
    if (enter(&self->running) < 0) {
        return NULL;
    }
    PyObject *pair = Joined_next_running(self);
    self->running = 0;
    return pair;
}

PyTypeObject JoinedType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lazyfun.streams.sync._flow.Joined",
    .tp_doc = PyDoc_STR("A hash join's pairs: each item of a source with each row of its key."),
    .tp_basicsize = sizeof(Joined),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = Joined_new,
    .tp_traverse = (traverseproc)Joined_traverse,
    .tp_clear = (inquiry)Joined_clear,
    .tp_dealloc = (destructor)Joined_dealloc,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)Joined_next,
};
