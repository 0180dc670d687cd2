/* Folder: the loop of a keyed fold's named reductions (aggregate), the C form of the
 * loop lazyfun.streams.verbs._adder writes in Python, step for step (see steps.h). */
#include "steps.h"

#include <math.h>

enum { FOLD_COUNT, FOLD_SUM, FOLD_MIN, FOLD_MAX, FOLD_FIRST, FOLD_LAST, FOLD_OTHER, FOLD_OPS };

typedef struct {
    PyObject_HEAD
    PyObject *by;       /* the key function; NULL: one key, None */
    PyObject *by_name;  /* a field's name the key is read by, inline; or NULL */
    PyObject *reads;    /* a tuple: for each reduction None (no value), a name, or a function */
    PyObject *starts;   /* a tuple of each reduction's start (bound), or None */
    PyObject *steps;    /* a tuple of each reduction's step (bound), or None */
    PyObject *spill;    /* the exact sum's rare case: spill(acc, x, s, t, f) */
    PyObject *one;      /* the int 1, a count's step */
    Py_ssize_t n;
    int *ops;
} Folder;

/* item[name], or, where item is no mapping (a TypeError), getattr(item, name): as
 * lazyfun.streams.verbs.field reads. */
static PyObject *
read_field(PyObject *item, PyObject *name)
{
    PyMappingMethods *mapping = Py_TYPE(item)->tp_as_mapping;
    if (mapping == NULL || mapping->mp_subscript == NULL) {
        return PyObject_GetAttr(item, name);  /* item[name] would be a TypeError */
    }
    PyObject *value = PyObject_GetItem(item, name);
    if (value == NULL && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        value = PyObject_GetAttr(item, name);
    }
    return value;
}

/* The value reduction i reads of item (a new reference), or NULL with the error set;
 * *value is left NULL for a reduction that reads none. */
static int
read_value(Folder *self, Py_ssize_t i, PyObject *item, PyObject **value)
{
    PyObject *read = PyTuple_GET_ITEM(self->reads, i);
    if (read == Py_None) {
        *value = NULL;
        return 0;
    }
    *value = PyUnicode_Check(read) ? read_field(item, read) : PyObject_CallOneArg(read, item);
    return *value == NULL ? -1 : 0;
}

/* A new key's state: each reduction's start of its value, in order. */
static PyObject *
started(Folder *self, PyObject **values)
{
    PyObject *accs = PyList_New(self->n);
    if (accs == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < self->n; i++) {
        PyObject *acc;
        switch (self->ops[i]) {
        case FOLD_COUNT:
            acc = Py_NewRef(self->one);
            break;
        case FOLD_SUM:
        case FOLD_OTHER:
            acc = PyObject_CallOneArg(PyTuple_GET_ITEM(self->starts, i), values[i]);
            break;
        default:
            acc = Py_NewRef(values[i]);
        }
        if (acc == NULL) {
            Py_DECREF(accs);
            return NULL;
        }
        PyList_SET_ITEM(accs, i, acc);
    }
    return accs;
}

/* Replace accs[i] by value (taking its reference); -1 if value is NULL. */
static int
put(PyObject *accs, Py_ssize_t i, PyObject *value)
{
    if (value == NULL) {
        return -1;
    }
    PyObject *old = PyList_GET_ITEM(accs, i);
    PyList_SET_ITEM(accs, i, value);
    Py_DECREF(old);
    return 0;
}

/* The exact sum's step for the float x: TwoSum twice over acc = [hi, lo, *more]
 * (lazyfun.streams.verbs._add_float), the rare case handed to spill. */
static int
add_float(Folder *self, PyObject *acc, PyObject *x)
{
    if (PyList_GET_SIZE(acc) == 0) {
        if (PyList_Append(acc, x) < 0) {
            return -1;
        }
        PyObject *zero = PyFloat_FromDouble(0.0);
        int appended = zero == NULL ? -1 : PyList_Append(acc, zero);
        Py_XDECREF(zero);
        return appended;
    }
    if (PyList_GET_SIZE(acc) < 2 || !PyFloat_CheckExact(PyList_GET_ITEM(acc, 0))
        || !PyFloat_CheckExact(PyList_GET_ITEM(acc, 1))) {
        PyErr_SetString(PyExc_SystemError, "an exact sum's state lost its two floats");
        return -1;
    }
    double hi = PyFloat_AS_DOUBLE(PyList_GET_ITEM(acc, 0));
    double lo = PyFloat_AS_DOUBLE(PyList_GET_ITEM(acc, 1));
    double v = PyFloat_AS_DOUBLE(x);
    double s = hi + v, z = s - hi;
    double e = (hi - (s - z)) + (v - z);
    double t = lo + e;
    z = t - lo;
    double f = (lo - (t - z)) + (e - z);
    if (f != 0.0) {  /* a part left over, or nan past the floats' range (as `if f:`) */
        PyObject *done = PyObject_CallFunction(self->spill, "OOddd", acc, x, s, t, f);
        Py_XDECREF(done);
        return done == NULL ? -1 : 0;
    }
    if (put(acc, 0, PyFloat_FromDouble(s)) < 0) {
        return -1;
    }
    return put(acc, 1, PyFloat_FromDouble(t));
}

/* Each reduction's step over the key's state accs, in order. */
static int
stepped(Folder *self, PyObject *accs, PyObject **values)
{
    if (!PyList_Check(accs) || PyList_GET_SIZE(accs) != self->n) {
        PyErr_SetString(PyExc_SystemError, "a key's state is not a list of its reductions'");
        return -1;
    }
    for (Py_ssize_t i = 0; i < self->n; i++) {
        PyObject *acc = PyList_GET_ITEM(accs, i), *v = values[i];
        int less;
        switch (self->ops[i]) {
        case FOLD_COUNT:
            if (put(accs, i, PyNumber_InPlaceAdd(acc, self->one)) < 0) {
                return -1;
            }
            break;
        case FOLD_SUM:
            if (PyFloat_CheckExact(v) && PyList_Check(acc)) {
                if (add_float(self, acc, v) < 0) {
                    return -1;
                }
            } else {
                PyObject *done = PyObject_CallFunctionObjArgs(
                    PyTuple_GET_ITEM(self->steps, i), acc, v, NULL);
                if (done == NULL) {
                    return -1;
                }
                Py_DECREF(done);
            }
            break;
        case FOLD_MIN:
        case FOLD_MAX:
            less = self->ops[i] == FOLD_MIN ? PyObject_RichCompareBool(v, acc, Py_LT)
                                            : PyObject_RichCompareBool(acc, v, Py_LT);
            if (less < 0 || (less && put(accs, i, Py_NewRef(v)) < 0)) {
                return -1;
            }
            break;
        case FOLD_FIRST:
            break;
        case FOLD_LAST:
            if (put(accs, i, Py_NewRef(v)) < 0) {
                return -1;
            }
            break;
        default:
            if (put(accs, i, PyObject_CallFunctionObjArgs(
                                 PyTuple_GET_ITEM(self->steps, i), acc, v, NULL)) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

/* One item into its key's state: its key, its values (all read before any state
 * changes), then a new key's start (and grown(key)) or each state's step. */
static int
fold_one(Folder *self, PyObject *item, PyObject *state, PyObject *grown, PyObject **values)
{
    PyObject *k = self->by == NULL ? Py_NewRef(Py_None)
                  : self->by_name != NULL ? read_field(item, self->by_name)
                                          : PyObject_CallOneArg(self->by, item);
    if (k == NULL) {
        return -1;
    }
    int done = -1;
    Py_ssize_t read = 0;
    while (read < self->n && read_value(self, read, item, &values[read]) == 0) {
        read++;
    }
    PyObject *accs = read < self->n ? NULL : PyDict_GetItemWithError(state, k);  /* borrowed */
    if (read < self->n) {
        /* a value's error is set */
    } else if (accs != NULL) {
        Py_INCREF(accs);  /* a step may call Python, which may change the state */
        done = stepped(self, accs, values);
        Py_DECREF(accs);
    } else if (!PyErr_Occurred()) {
        PyObject *fresh = started(self, values);
        if (fresh != NULL) {
            done = PyDict_SetItem(state, k, fresh);
            Py_DECREF(fresh);
            if (done == 0 && grown != Py_None) {
                PyObject *said = PyObject_CallOneArg(grown, k);
                done = said == NULL ? -1 : 0;
                Py_XDECREF(said);
            }
        }
    }
    for (Py_ssize_t i = 0; i < read; i++) {
        Py_CLEAR(values[i]);
    }
    Py_DECREF(k);
    return done;
}

/* folder(items, state, grown): each of items into its key's state, in order; an
 * item's error passes on at once (those before it are in, it and those after not). */
static PyObject *
Folder_call(Folder *self, PyObject *args, PyObject *kwargs)
{
    PyObject *items, *state, *grown;
    static char *names[] = {"items", "state", "grown", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO!O:Folder", names, &items,
                                     &PyDict_Type, &state, &grown)) {
        return NULL;
    }
    PyObject **values = PyMem_Calloc(self->n ? self->n : 1, sizeof(PyObject *));
    if (values == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *iterator = PyObject_GetIter(items), *item = NULL;
    int failed = iterator == NULL;
    while (!failed && (item = PyIter_Next(iterator)) != NULL) {
        failed = fold_one(self, item, state, grown, values) < 0;
        Py_DECREF(item);
    }
    PyMem_Free(values);
    Py_XDECREF(iterator);
    if (failed || PyErr_Occurred()) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* Folder(by, by_name, reads, ops, starts, steps, spill): see lazyfun.streams.verbs. */
static PyObject *
Folder_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *by, *by_name, *reads, *ops, *starts, *steps, *spill;
    static char *names[] = {"by", "by_name", "reads", "ops", "starts", "steps", "spill", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO!O!O!O!O:Folder", names, &by, &by_name,
                                     &PyTuple_Type, &reads, &PyTuple_Type, &ops, &PyTuple_Type,
                                     &starts, &PyTuple_Type, &steps, &spill)) {
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(reads);
    if (PyTuple_GET_SIZE(ops) != n || PyTuple_GET_SIZE(starts) != n
        || PyTuple_GET_SIZE(steps) != n) {
        PyErr_SetString(PyExc_ValueError, "Folder: one read, op, start and step a reduction");
        return NULL;
    }
    if (by_name != Py_None && !PyUnicode_Check(by_name)) {
        PyErr_SetString(PyExc_TypeError, "Folder: by_name is a str or None");
        return NULL;
    }
    Folder *self = (Folder *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->ops = PyMem_Calloc(n ? n : 1, sizeof(int));
    if (self->ops == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long op = PyLong_AsLong(PyTuple_GET_ITEM(ops, i));
        if (op == -1 && PyErr_Occurred()) {
            Py_DECREF(self);
            return NULL;
        }
        if (op < 0 || op >= FOLD_OPS) {
            PyErr_Format(PyExc_ValueError, "Folder: no reduction %ld", op);
            Py_DECREF(self);
            return NULL;
        }
        self->ops[i] = (int)op;
    }
    self->n = n;
    self->by = by == Py_None ? NULL : Py_NewRef(by);
    self->by_name = by_name == Py_None ? NULL : Py_NewRef(by_name);
    self->reads = Py_NewRef(reads);
    self->starts = Py_NewRef(starts);
    self->steps = Py_NewRef(steps);
    self->spill = Py_NewRef(spill);
    self->one = PyLong_FromLong(1);
    if (self->one == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static int
Folder_traverse(Folder *self, visitproc visit, void *arg)
{
    Py_VISIT(self->by);
    Py_VISIT(self->by_name);
    Py_VISIT(self->reads);
    Py_VISIT(self->starts);
    Py_VISIT(self->steps);
    Py_VISIT(self->spill);
    return 0;
}

static int
Folder_clear(Folder *self)
{
    Py_CLEAR(self->by);
    Py_CLEAR(self->by_name);
    Py_CLEAR(self->reads);
    Py_CLEAR(self->starts);
    Py_CLEAR(self->steps);
    Py_CLEAR(self->spill);
    Py_CLEAR(self->one);
    return 0;
}

static void
Folder_dealloc(Folder *self)
{
    PyObject_GC_UnTrack(self);
    Folder_clear(self);
    PyMem_Free(self->ops);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

PyTypeObject FolderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lazyfun.streams.sync._flow.Folder",
    .tp_doc = PyDoc_STR("The loop of a keyed fold's named reductions."),
    .tp_basicsize = sizeof(Folder),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = Folder_new,
    .tp_call = (ternaryfunc)Folder_call,
    .tp_traverse = (traverseproc)Folder_traverse,
    .tp_clear = (inquiry)Folder_clear,
    .tp_dealloc = (destructor)Folder_dealloc,
};
