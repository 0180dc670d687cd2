/* Folder: the loop of a keyed fold's named reductions (aggregate), the C form of the
 * loop lazyfun.streams.verbs._adder writes in Python, step for step (see steps.h). */
#include "steps.h"

#include <stddef.h>
#include <string.h>

enum { FOLD_COUNT, FOLD_SUM, FOLD_MIN, FOLD_MAX, FOLD_FIRST, FOLD_LAST, FOLD_OTHER, FOLD_OPS };

typedef struct {
    PyObject_HEAD
    PyObject *by;       /* the key function; NULL: one key, None */
    PyObject *by_name;  /* a field's name the key is read by, inline; or NULL */
    PyObject *reads;    /* a tuple: for each reduction None (no value), a name, or a function */
    PyObject *starts;   /* a tuple of each reduction's start (bound), or None */
    PyObject *steps;    /* a tuple of each reduction's step (bound), or None */
    PyObject *spill;    /* the exact sum's rare case: spill(acc, x, s, t, f) */
    PyObject *exact;    /* the class of an exact sum's state as the Python loop keeps it */
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

/* A key's state: one slot a reduction.  A count is a C integer and an exact sum, while
 * only floats came, its two floats (hi, lo) as C doubles: no object at all (obj NULL);
 * any other state is the object the Python loop keeps (obj).  list(folder) gives the
 * state as that loop keeps it (a list of each reduction's), which output() ends.  An
 * Accs refers to nothing but its slots' objects, so it is left to the collector only
 * once it holds one (a state of counts and float sums is never in a cycle). */
typedef struct {
    PyObject *obj;
    double hi, lo;
    long long count;
} Slot;

typedef struct {
    PyObject_VAR_HEAD
    Slot slots[1];
} Accs;

/* A new state of n empty slots, untracked by the collector until one holds an object. */
static Accs *
new_accs(Folder *folder)
{
    Accs *accs = PyObject_GC_NewVar(Accs, &AccsType, folder->n);
    if (accs == NULL) {
        return NULL;
    }
    memset(accs->slots, 0, sizeof(Slot) * (size_t)folder->n);
    return accs;
}

/* Slot i holds obj from now (taking its reference); -1 if obj is NULL. */
static int
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

/* An exact sum's two floats as the Python loop keeps them: an _Exact [hi, lo]. */
static PyObject *
exact_of(Folder *folder, Slot *slot)
{
    PyObject *exact = PyObject_CallNoArgs(folder->exact);
    if (exact == NULL) {
        return NULL;
    }
    PyObject *hi = PyFloat_FromDouble(slot->hi), *lo = PyFloat_FromDouble(slot->lo);
    if (hi == NULL || lo == NULL || PyList_Append(exact, hi) < 0 || PyList_Append(exact, lo) < 0) {
        Py_CLEAR(exact);
    }
    Py_XDECREF(hi);
    Py_XDECREF(lo);
    return exact;
}

/* A new key's state: each reduction's start of its value, in order. */
static Accs *
started(Folder *self, PyObject **values)
{
    Accs *accs = new_accs(self);
    if (accs == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < self->n; i++) {
        Slot *slot = &accs->slots[i];
        PyObject *v = values[i];
        int failed = 0;
        switch (self->ops[i]) {
        case FOLD_COUNT:
            slot->count = 1;
            break;
        case FOLD_SUM:
        case FOLD_OTHER:
            if (self->ops[i] == FOLD_SUM && PyFloat_CheckExact(v)) {  /* as [] += (v, 0.0) */
                slot->hi = PyFloat_AS_DOUBLE(v);
            } else {
                failed = hold(accs, i, PyObject_CallOneArg(PyTuple_GET_ITEM(self->starts, i), v));
            }
            break;
        default:
            failed = hold(accs, i, Py_NewRef(v));
        }
        if (failed) {
            Py_DECREF(accs);
            return NULL;
        }
    }
    return accs;
}

/* The exact sum's step for the float x over acc = [hi, lo, *more] (an _Exact list with
 * its two floats): TwoSum twice (lazyfun.streams.verbs._add_float), the rare case handed
 * to spill. */
static int
add_float(Folder *self, PyObject *acc, PyObject *x)
{
    if (!PyFloat_CheckExact(PyList_GET_ITEM(acc, 0))
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
    PyObject *high = PyFloat_FromDouble(s), *low = PyFloat_FromDouble(t);
    if (high == NULL || low == NULL) {
        Py_XDECREF(high);
        Py_XDECREF(low);
        return -1;
    }
    Py_SETREF(PyList_GET_ITEM(acc, 0), high);
    Py_SETREF(PyList_GET_ITEM(acc, 1), low);
    return 0;
}

/* The exact sum's step of slot i for the value v: TwoSum twice on the slot's doubles
 * while only floats come and nothing is left over; else the state made an _Exact
 * (exact_of) and v added to it as the Python loop adds it. */
static int
summed(Folder *self, Accs *accs, Py_ssize_t i, PyObject *v)
{
    Slot *slot = &accs->slots[i];
    if (slot->obj == NULL && PyFloat_CheckExact(v)) {
        double hi = slot->hi, lo = slot->lo, x = PyFloat_AS_DOUBLE(v);
        double s = hi + x, z = s - hi;
        double e = (hi - (s - z)) + (x - z);
        double t = lo + e;
        z = t - lo;
        double f = (lo - (t - z)) + (e - z);
        if (f == 0.0) {
            slot->hi = s;
            slot->lo = t;
            return 0;
        }
    }
    if (slot->obj == NULL && hold(accs, i, exact_of(self, slot)) < 0) {
        return -1;
    }
    if (PyFloat_CheckExact(v) && PyList_Check(slot->obj) && PyList_GET_SIZE(slot->obj) >= 2) {
        return add_float(self, slot->obj, v);  /* the first float is the step's: it checks */
    }
    PyObject *done =
        PyObject_CallFunctionObjArgs(PyTuple_GET_ITEM(self->steps, i), slot->obj, v, NULL);
    Py_XDECREF(done);
    return done == NULL ? -1 : 0;
}

/* Reduction i's step over slot i of accs, whose object was acc, for the value v. */
static int
stepped_one(Folder *self, Accs *accs, Py_ssize_t i, PyObject *acc, PyObject *v)
{
    int less;
    switch (self->ops[i]) {
    case FOLD_COUNT:
        accs->slots[i].count++;
        return 0;
    case FOLD_SUM:
        return summed(self, accs, i, v);
    case FOLD_MIN:
    case FOLD_MAX:
        less = self->ops[i] == FOLD_MIN ? PyObject_RichCompareBool(v, acc, Py_LT)
                                        : PyObject_RichCompareBool(acc, v, Py_LT);
        return less < 0 || (less && hold(accs, i, Py_NewRef(v)) < 0) ? -1 : 0;
    case FOLD_FIRST:
        return 0;
    case FOLD_LAST:
        return hold(accs, i, Py_NewRef(v));
    default:
        return hold(accs, i,
                    PyObject_CallFunctionObjArgs(PyTuple_GET_ITEM(self->steps, i), acc, v, NULL));
    }
}

/* Each reduction's step over the key's state accs, in order. */
static int
stepped(Folder *self, Accs *accs, PyObject **values)
{
    for (Py_ssize_t i = 0; i < self->n; i++) {
        /* a reference of the step's own: a comparison may call Python, which may fold
         * into this key again and replace the slot's object */
        PyObject *acc = Py_XNewRef(accs->slots[i].obj);
        int failed = stepped_one(self, accs, i, acc, values[i]);
        Py_XDECREF(acc);
        if (failed) {
            return -1;
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
        if (!Py_IS_TYPE(accs, &AccsType) || Py_SIZE(accs) != self->n) {
            PyErr_SetString(PyExc_SystemError, "a key's state is not this fold's");
        } else {
            Py_INCREF(accs);  /* a step may call Python, which may change the state */
            done = stepped(self, (Accs *)accs, values);
            Py_DECREF(accs);
        }
    } else if (!PyErr_Occurred()) {
        PyObject *fresh = (PyObject *)started(self, values);
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
    if (self->reads == NULL) {
        PyErr_SetString(PyExc_ValueError, "Folder: cleared");
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

/* Folder(by, by_name, reads, ops, starts, steps, spill, exact): see lazyfun.streams.verbs. */
static PyObject *
Folder_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *by, *by_name, *reads, *ops, *starts, *steps, *spill, *exact;
    static char *names[] = {"by", "by_name", "reads", "ops", "starts", "steps", "spill", "exact",
                            NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO!O!O!O!OO:Folder", names, &by, &by_name,
                                     &PyTuple_Type, &reads, &PyTuple_Type, &ops, &PyTuple_Type,
                                     &starts, &PyTuple_Type, &steps, &spill, &exact)) {
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(reads);
    if (PyTuple_GET_SIZE(ops) != n || PyTuple_GET_SIZE(starts) != n
        || PyTuple_GET_SIZE(steps) != n) {
        PyErr_SetString(PyExc_ValueError, "Folder: one read, op, start and step a reduction");
        return NULL;
    }
    if ((by_name != Py_None && !PyUnicode_Check(by_name))
        || (by != Py_None && !PyCallable_Check(by)) || !PyCallable_Check(spill)
        || !PyCallable_Check(exact)) {
        PyErr_SetString(PyExc_TypeError, "Folder: by, spill and exact are functions");
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
        /* a value read by all but a count; a start and a step called by a sum and others */
        PyObject *read = PyTuple_GET_ITEM(reads, i);
        int called = op == FOLD_SUM || op == FOLD_OTHER;
        if ((op == FOLD_COUNT) != (read == Py_None)
            || (read != Py_None && !PyUnicode_Check(read) && !PyCallable_Check(read))
            || (called && (!PyCallable_Check(PyTuple_GET_ITEM(starts, i))
                           || !PyCallable_Check(PyTuple_GET_ITEM(steps, i))))) {
            PyErr_Format(PyExc_ValueError, "Folder: reduction %zd's read, start or step", i);
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
    self->exact = Py_NewRef(exact);
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
    Py_VISIT(self->exact);
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
    Py_CLEAR(self->exact);
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

/* ---- Accs: a key's state -------------------------------------------------------- */

/* accs.list(folder): the state as the Python loop keeps it, a list of each reduction's
 * (the folder that made it says which reductions they are). */
static PyObject *
Accs_list(Accs *self, PyObject *arg)
{
    if (!Py_IS_TYPE(arg, &FolderType) || ((Folder *)arg)->n != Py_SIZE(self)
        || ((Folder *)arg)->exact == NULL) {
        PyErr_SetString(PyExc_TypeError, "Accs.list takes the Folder whose state it is");
        return NULL;
    }
    Folder *folder = (Folder *)arg;
    Py_ssize_t n = Py_SIZE(self);
    PyObject *list = PyList_New(n);
    for (Py_ssize_t i = 0; list != NULL && i < n; i++) {
        Slot *slot = &self->slots[i];
        PyObject *acc = slot->obj != NULL                   ? Py_NewRef(slot->obj)
                        : folder->ops[i] == FOLD_COUNT ? PyLong_FromLongLong(slot->count)
                                                       : exact_of(folder, slot);
        if (acc == NULL) {
            Py_CLEAR(list);
        } else {
            PyList_SET_ITEM(list, i, acc);
        }
    }
    return list;
}

/* accs.values(folder, names, ends): a dict of each reduction's name and value: a
 * count's and a sum of floats' made here (hi + lo: one rounding of their exact sum, as
 * math.fsum gives it; hi alone where lo is zero, -0.0 kept), any other state's by its
 * end in ends (None: the state is the value). */
static PyObject *
Accs_values(Accs *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n = Py_SIZE(self);
    if (nargs != 3 || !Py_IS_TYPE(args[0], &FolderType) || ((Folder *)args[0])->n != n
        || ((Folder *)args[0])->ops == NULL || !PyTuple_Check(args[1])
        || PyTuple_GET_SIZE(args[1]) != n || !PyTuple_Check(args[2])
        || PyTuple_GET_SIZE(args[2]) != n) {
        PyErr_SetString(PyExc_TypeError,
                        "Accs.values takes its Folder, a name and an end a reduction");
        return NULL;
    }
    Folder *folder = (Folder *)args[0];
    PyObject *values = PyDict_New();
    for (Py_ssize_t i = 0; values != NULL && i < n; i++) {
        Slot *slot = &self->slots[i];
        PyObject *end = PyTuple_GET_ITEM(args[2], i), *value;
        if (slot->obj != NULL) {
            value = end == Py_None ? Py_NewRef(slot->obj) : PyObject_CallOneArg(end, slot->obj);
        } else if (folder->ops[i] == FOLD_COUNT) {
            value = PyLong_FromLongLong(slot->count);
        } else {
            value = PyFloat_FromDouble(slot->lo == 0.0 ? slot->hi : slot->hi + slot->lo);
        }
        if (value == NULL || PyDict_SetItem(values, PyTuple_GET_ITEM(args[1], i), value) < 0) {
            Py_CLEAR(values);
        }
        Py_XDECREF(value);
    }
    return values;
}

/* accs.__sizeof__(): its own bytes and its objects' (each one level down). */
static PyObject *
Accs_sizeof(Accs *self, PyObject *Py_UNUSED(ignored))
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

static int
Accs_traverse(Accs *self, visitproc visit, void *arg)
{
    for (Py_ssize_t i = 0; i < Py_SIZE(self); i++) {
        Py_VISIT(self->slots[i].obj);
    }
    return 0;
}

static int
Accs_clear(Accs *self)
{
    for (Py_ssize_t i = 0; i < Py_SIZE(self); i++) {
        Py_CLEAR(self->slots[i].obj);
    }
    return 0;
}

static void
Accs_dealloc(Accs *self)
{
    PyObject_GC_UnTrack(self);
    Accs_clear(self);
    PyObject_GC_Del(self);
}

static PyMethodDef Accs_methods[] = {
    {"list", (PyCFunction)Accs_list, METH_O,
     PyDoc_STR("The state as a list of each reduction's, as the Python loop keeps it.")},
    {"values", (PyCFunction)(void (*)(void))Accs_values, METH_FASTCALL,
     PyDoc_STR("values(folder, names, ends): a dict of each reduction's name and value.")},
    {"__sizeof__", (PyCFunction)Accs_sizeof, METH_NOARGS,
     PyDoc_STR("Its bytes and its objects', one level down.")},
    {NULL, NULL, 0, NULL},
};

PyTypeObject AccsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lazyfun.streams.sync._flow.Accs",
    .tp_doc = PyDoc_STR("A key's state in a Folder's fold: each reduction's."),
    .tp_basicsize = offsetof(Accs, slots),
    .tp_itemsize = sizeof(Slot),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)Accs_traverse,
    .tp_clear = (inquiry)Accs_clear,
    .tp_dealloc = (destructor)Accs_dealloc,
    .tp_methods = Accs_methods,
};
