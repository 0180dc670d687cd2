/* Folder: the loop of a keyed fold's named reductions (aggregate), the C form of the
 * loop lazyfun.streams.verbs._adder writes in Python, step for step (see steps.h). */
#include "states.h"
#include "steps.h"

#include <stddef.h>
#include <string.h>

typedef struct {
    PyObject_HEAD
    PyObject *by;       /* the key function; NULL: one key, None */
    PyObject *by_name;  /* a field's name or path the key is read by, inline; or NULL */
    PyObject *reads;    /* a tuple: each reduction's None (no value), name, path or function */
    PyObject *starts;   /* a tuple of each reduction's start (bound), or None */
    PyObject *steps;    /* a tuple of each reduction's step (bound), or None */
    PyObject *spill;    /* the exact sum's rare case: spill(acc, x, s, t, f) */
    Spec spec;          /* the reductions, and the class of an exact sum's state */
    KnownKeys known;    /* the str keys seen last */
} Folder;

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
    *value = read_by(item, read);
    return *value == NULL ? -1 : 0;
}

/* A new key's state: each reduction's start of its value, in order. */
static Accs *
started(Folder *self, PyObject **values)
{
    Accs *accs = new_accs(&self->spec);
    if (accs == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < self->spec.n; i++) {
        Slot *slot = &accs->slots[i];
        PyObject *v = values[i];
        int failed = 0;
        switch (self->spec.ops[i]) {
        case FOLD_COUNT:
            slot->count = 1;
            break;
        case FOLD_SUM:
        case FOLD_OTHER:
            if (self->spec.ops[i] == FOLD_SUM && PyFloat_CheckExact(v)) {  /* as [] += (v, 0.0) */
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
 * its two floats): TwoSum twice (lazyfun.streams.reductions._add_float), the rare case handed
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
    double s, t, f = two_sums(hi, lo, PyFloat_AS_DOUBLE(x), &s, &t);
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
        double s, t;
        if (two_sums(slot->hi, slot->lo, PyFloat_AS_DOUBLE(v), &s, &t) == 0.0) {
            slot->hi = s;
            slot->lo = t;
            return 0;
        }
    }
    if (slot->obj == NULL && hold(accs, i, exact_of(&self->spec, slot->hi, slot->lo)) < 0) {
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
    switch (self->spec.ops[i]) {
    case FOLD_COUNT:
        accs->slots[i].count++;
        return 0;
    case FOLD_SUM:
        return summed(self, accs, i, v);
    case FOLD_MIN:
    case FOLD_MAX:
        less = self->spec.ops[i] == FOLD_MIN ? PyObject_RichCompareBool(v, acc, Py_LT)
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
    for (Py_ssize_t i = 0; i < self->spec.n; i++) {
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

/* The new key k's state counted by grown(k), unless grown is None. */
static int
told(PyObject *grown, PyObject *k)
{
    if (grown == Py_None) {
        return 0;
    }
    PyObject *said = PyObject_CallOneArg(grown, k);
    Py_XDECREF(said);
    return said == NULL ? -1 : 0;
}

/* Item's values into k's state in the dict state: a new key's start (and grown(key)) or
 * each state's step. */
static int
dict_fold(Folder *self, PyObject *state, PyObject *k, PyObject **values, PyObject *grown)
{
    PyObject *accs = PyDict_GetItemWithError(state, k); /* borrowed */
    if (accs != NULL) {
        if (!Py_IS_TYPE(accs, &AccsType) || Py_SIZE(accs) != self->spec.n) {
            PyErr_SetString(PyExc_SystemError, "a key's state is not this fold's");
            return -1;
        }
        Py_INCREF(accs); /* a step may call Python, which may change the state */
        int done = stepped(self, (Accs *)accs, values);
        Py_DECREF(accs);
        return done;
    }
    if (PyErr_Occurred()) {
        return -1;
    }
    PyObject *fresh = (PyObject *)started(self, values);
    if (fresh == NULL) {
        return -1;
    }
    int done = PyDict_SetItem(state, k, fresh);
    Py_DECREF(fresh);
    return done < 0 ? -1 : told(grown, k);
}

/* Item's key *k and values (new references), all read before any state changes; -1
 * with the error set and nothing held. */
static int
read_one(Folder *self, PyObject *item, PyObject **k, PyObject **values)
{
    *k = self->by == NULL ? Py_NewRef(Py_None)
         : self->by_name != NULL ? read_by(item, self->by_name)
                                 : PyObject_CallOneArg(self->by, item);
    if (*k == NULL) {
        return -1;
    }
    *k = known_key(&self->known, *k);
    Py_ssize_t read = 0;
    while (read < self->spec.n && read_value(self, read, item, &values[read]) == 0) {
        read++;
    }
    if (read == self->spec.n) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < read; i++) {
        Py_CLEAR(values[i]);
    }
    Py_CLEAR(*k);
    return -1;
}

/* An item's key k and values into k's state, the table's fold or the dict's (states
 * NULL: state, a plain dict); the references are let go. */
static int
fold_read(Folder *self, States *states, PyObject *state, PyObject *grown, PyObject *k,
          PyObject **values)
{
    int done = -1;
    int held = states == NULL ? 0 : table_fold(states, k, values);
    if (held > 0) {
        done = held == 1 ? told(grown, k) : 0;
    } else if (held == 0 && (states == NULL || states->dict != NULL || to_dict(states) == 0)) {
        done = dict_fold(self, states == NULL ? state : states->dict, k, values, grown);
    }
    for (Py_ssize_t i = 0; i < self->spec.n; i++) {
        Py_CLEAR(values[i]);
    }
    Py_DECREF(k);
    return done;
}

/* The items read ahead of their fold in a table: a key's entry is far in memory (a
 * table of 200,000 keys misses the cache at each), so it is asked for AHEAD items
 * before it is folded, and the items between are read meanwhile. */
enum { AHEAD = 8 };

typedef struct {
    PyObject *keys[AHEAD];  /* each read item's key, its values at values + slot * n */
    PyObject **values;
    Py_ssize_t first, count, n;
} Ring;

/* The oldest item of the ring into its state. */
static int
fold_oldest(Folder *self, States *states, Ring *ring)
{
    Py_ssize_t slot = ring->first;
    ring->first = (slot + 1) % AHEAD;
    ring->count--;
    PyObject *k = ring->keys[slot];
    ring->keys[slot] = NULL;
    return fold_read(self, states, (PyObject *)states, Py_None, k, ring->values + slot * ring->n);
}

/* The ring's items let go unfolded, from the first at or after slot ring->first. */
static void
let_go(Ring *ring)
{
    for (; ring->count > 0; ring->count--) {
        Py_ssize_t slot = ring->first;
        for (Py_ssize_t i = 0; i < ring->n; i++) {
            Py_CLEAR(ring->values[slot * ring->n + i]);
        }
        Py_CLEAR(ring->keys[slot]);
        ring->first = (slot + 1) % AHEAD;
    }
}

/* The ring's items into their states, in order; where one fails, those after it are
 * let go unfolded (only a MemoryError can fail a fold the table holds). */
static int
flushed(Folder *self, States *states, Ring *ring)
{
    while (ring->count > 0) {
        if (fold_oldest(self, states, ring) < 0) {
            let_go(ring);
            return -1;
        }
    }
    return 0;
}

/* An item's key k and values let go unfolded. */
static void
dropped(Py_ssize_t n, PyObject *k, PyObject **values)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_CLEAR(values[i]);
    }
    Py_DECREF(k);
}

/* The fold of each of iterator's items into states with no budget to tell (grown is
 * None), as fold_one folds them one by one: an item the table holds waits in the ring
 * while its entry is fetched; any other is folded once those before it are.  Every item
 * read is folded before an error in reading one (the source's, its key's or a value's)
 * passes on; folding an item the table holds fails only for want of memory. */
static int
fold_ahead(Folder *self, PyObject *iterator, States *states)
{
    Ring ring = {.first = 0, .count = 0, .n = self->spec.n};
    ring.values = PyMem_Calloc((size_t)(AHEAD * (ring.n ? ring.n : 1)), sizeof(PyObject *));
    if (ring.values == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memset(ring.keys, 0, sizeof(ring.keys));
    int failed = 0, read_failed = 0;
    PyObject *item;
    while (!failed && !read_failed && (item = PyIter_Next(iterator)) != NULL) {
        Py_ssize_t slot = (ring.first + ring.count) % AHEAD;
        PyObject **values = ring.values + slot * ring.n, *k;
        long long key;
        read_failed = read_one(self, item, &k, values) < 0;
        Py_DECREF(item);
        if (read_failed) {
            continue;
        }
        int holds = table_key(states, k, values, &key);
        if (holds > 0) {
            table_touch(&states->table, key);
            ring.keys[slot] = k;
            failed = ++ring.count == AHEAD && fold_oldest(self, states, &ring) < 0;
        } else if (holds < 0 || flushed(self, states, &ring) < 0) {
            dropped(ring.n, k, values);
            failed = 1;
        } else {
            failed = fold_read(self, states, (PyObject *)states, Py_None, k, values) < 0;
        }
    }
    read_failed = read_failed || (!failed && PyErr_Occurred());
    if (failed) {
        let_go(&ring);
    } else if (read_failed) {  /* those read before the one that failed are in, then it raises */
        PyObject *type, *value, *traceback;
        PyErr_Fetch(&type, &value, &traceback);
        if (flushed(self, states, &ring) < 0) {
            _PyErr_ChainExceptions(type, value, traceback);
        } else {
            PyErr_Restore(type, value, traceback);
        }
    } else {
        failed = flushed(self, states, &ring) < 0;
    }
    PyMem_Free(ring.values);
    return failed || read_failed ? -1 : 0;
}

/* One item into its key's state: its key, its values (all read before any state
 * changes), then the table's or the dict's fold.  states is NULL for a plain dict. */
static int
fold_one(Folder *self, PyObject *item, States *states, PyObject *state, PyObject *grown,
         PyObject **values)
{
    PyObject *k;
    return read_one(self, item, &k, values) < 0
               ? -1
               : fold_read(self, states, state, grown, k, values);
}

/* folder(items, state, grown): each of items into its key's state (state: the folder's
 * States, or a dict), in order; an item's error passes on at once (those before it are
 * in, it and those after not). */
static PyObject *
Folder_call(Folder *self, PyObject *args, PyObject *kwargs)
{
    PyObject *items, *state, *grown;
    static char *names[] = {"items", "state", "grown", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO:Folder", names, &items, &state, &grown)) {
        return NULL;
    }
    States *states = Py_IS_TYPE(state, &StatesType) ? (States *)state : NULL;
    if ((states == NULL && !PyDict_Check(state)) || (states && states->folder != (PyObject *)self)) {
        PyErr_SetString(PyExc_TypeError, "Folder: the states are this folder's, or a dict");
        return NULL;
    }
    if (self->reads == NULL) {
        PyErr_SetString(PyExc_ValueError, "Folder: cleared");
        return NULL;
    }
    PyObject **values = PyMem_Calloc(self->spec.n ? self->spec.n : 1, sizeof(PyObject *));
    if (values == NULL) {
        return PyErr_NoMemory();
    }
    Py_XINCREF(states); /* a step's Python may let go of them */
    PyObject *iterator = PyObject_GetIter(items), *item = NULL;
    int failed = iterator == NULL;
    if (!failed && states != NULL && states->dict == NULL && grown == Py_None) {
        failed = fold_ahead(self, iterator, states) < 0;
    } else {
        while (!failed && (item = PyIter_Next(iterator)) != NULL) {
            failed = fold_one(self, item, states, state, grown, values) < 0;
            Py_DECREF(item);
        }
    }
    PyMem_Free(values);
    Py_XDECREF(iterator);
    Py_XDECREF(states);
    if (failed || PyErr_Occurred()) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* folder.states(): new empty states for this folder's fold, in a table where it allows
 * one (a key function, and only counts and sums). */
static PyObject *
Folder_states(Folder *self, PyObject *Py_UNUSED(ignored))
{
    int tabled = self->by != NULL;
    for (Py_ssize_t i = 0; i < self->spec.n; i++) {
        tabled = tabled && (self->spec.ops[i] == FOLD_COUNT || self->spec.ops[i] == FOLD_SUM);
    }
    return new_states((PyObject *)self, &self->spec, tabled);
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
    if ((by_name != Py_None && !PyUnicode_Check(by_name) && !is_path(by_name))
        || (by != Py_None && !PyCallable_Check(by)) || !PyCallable_Check(spill)
        || !PyCallable_Check(exact)) {
        PyErr_SetString(PyExc_TypeError, "Folder: by, spill and exact are functions");
        return NULL;
    }
    Folder *self = (Folder *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->spec.ops = PyMem_Calloc(n ? n : 1, sizeof(int));
    if (self->spec.ops == NULL) {
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
            || (read != Py_None && !PyUnicode_Check(read) && !is_path(read)
                && !PyCallable_Check(read))
            || (called && (!PyCallable_Check(PyTuple_GET_ITEM(starts, i))
                           || !PyCallable_Check(PyTuple_GET_ITEM(steps, i))))) {
            PyErr_Format(PyExc_ValueError, "Folder: reduction %zd's read, start or step", i);
            Py_DECREF(self);
            return NULL;
        }
        self->spec.ops[i] = (int)op;
    }
    self->spec.n = n;
    self->spec.type = &AccsType;
    self->by = by == Py_None ? NULL : Py_NewRef(by);
    self->by_name = by_name == Py_None ? NULL : Py_NewRef(by_name);
    self->reads = Py_NewRef(reads);
    self->starts = Py_NewRef(starts);
    self->steps = Py_NewRef(steps);
    self->spill = Py_NewRef(spill);
    self->spec.exact = Py_NewRef(exact);
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
    Py_VISIT(self->spec.exact);
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
    Py_CLEAR(self->spec.exact);
    known_keys_clear(&self->known);
    return 0;
}

static void
Folder_dealloc(Folder *self)
{
    PyObject_GC_UnTrack(self);
    Folder_clear(self);
    PyMem_Free(self->spec.ops);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef Folder_methods[] = {
    {"states", (PyCFunction)Folder_states, METH_NOARGS,
     PyDoc_STR("New empty states for this folder's fold.")},
    {NULL, NULL, 0, NULL},
};

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
    .tp_methods = Folder_methods,
};


/* ---- Accs: a key's state -------------------------------------------------------- */

/* The folder an Accs's method was given, if its states are of its reductions. */
static Folder *
folder_of(PyObject *arg, Py_ssize_t n)
{
    if (!Py_IS_TYPE(arg, &FolderType) || ((Folder *)arg)->spec.n != n
        || ((Folder *)arg)->spec.ops == NULL || ((Folder *)arg)->spec.exact == NULL) {
        return NULL;
    }
    return (Folder *)arg;
}

/* accs.list(folder): the state as the Python loop keeps it, a list of each reduction's
 * (the folder that made it says which reductions they are). */
static PyObject *
Accs_list(Accs *self, PyObject *arg)
{
    Folder *folder = folder_of(arg, Py_SIZE(self));
    if (folder == NULL) {
        PyErr_SetString(PyExc_TypeError, "Accs.list takes the Folder whose state it is");
        return NULL;
    }
    return accs_list(&folder->spec, self);
}

/* accs.values(folder, names, ends): a dict of each reduction's name and value
 * (accs_values). */
static PyObject *
Accs_values(Accs *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n = Py_SIZE(self);
    Folder *folder = nargs == 3 ? folder_of(args[0], n) : NULL;
    if (folder == NULL || !PyTuple_Check(args[1]) || PyTuple_GET_SIZE(args[1]) != n
        || !PyTuple_Check(args[2]) || PyTuple_GET_SIZE(args[2]) != n) {
        PyErr_SetString(PyExc_TypeError,
                        "Accs.values takes its Folder, a name and an end a reduction");
        return NULL;
    }
    return accs_values(&folder->spec, self, args[1], args[2]);
}

static PyMethodDef Accs_methods[] = {
    {"list", (PyCFunction)Accs_list, METH_O,
     PyDoc_STR("The state as a list of each reduction's, as the Python loop keeps it.")},
    {"values", (PyCFunction)(void (*)(void))Accs_values, METH_FASTCALL,
     PyDoc_STR("values(folder, names, ends): a dict of each reduction's name and value.")},
    {"__sizeof__", (PyCFunction)accs_sizeof, METH_NOARGS,
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
    .tp_traverse = (traverseproc)accs_traverse,
    .tp_clear = (inquiry)accs_clear,
    .tp_dealloc = (destructor)accs_dealloc,
    .tp_methods = Accs_methods,
};
